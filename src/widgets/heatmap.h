// A matrix as one textured quad: the values go to a float texture (R32F), a fragment shader colours them
// through the colour scale's lookup texture. A 512×512 matrix costs one draw call, not 262,144 rectangles.
#pragma once
#include <imgui.h>

#include "core/matrix.h"
#include "widgets/colormap.h"

namespace ap {

struct HeatmapStyle {
  ColorScale scale = ColorScale::Diverging;
  float lo = -1.f, hi = 1.f;  // values mapped to the ends of the scale
  double reveal = 1e18;       // cells drawn (row-major); the rest show as "not computed yet"
  int hl_row = -1, hl_col = -1;
};

// Call once per frame before drawing heatmaps (recycles the per-frame draw records).
void heatmap_begin_frame();

// Draws `m` into the rectangle [p0, p1] of `dl`. `key` names the matrix (one texture per key); the
// texture is re-uploaded only when `generation` changes. Row-major Eigen data goes to GL unchanged:
// texel (x=j, y=i) = m(i, j).
void heatmap_draw(ImDrawList* dl, int key, const Mat& m, int generation, ImVec2 p0, ImVec2 p1,
                  const HeatmapStyle& style);

// False if the shader failed to compile (the caller then falls back to ImGui rectangles).
bool heatmap_available();

}  // namespace ap
