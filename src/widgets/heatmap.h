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

// Which texture holds a matrix: one per (owner, item). `owner` is whoever draws it (a view: its address),
// `item` its own number for the matrix (a scene's matrix id). The texture is uploaded again only when
// `version` changes (the scene's generation, or anything that changes the data) or the size does.
struct HeatmapKey {
  const void* owner = nullptr;
  int item = 0;
  long long version = 0;
};

// Call once per frame before drawing heatmaps (recycles the per-frame draw records).
void heatmap_begin_frame();
// Starts compiling the shader (optional: the first heatmap does it otherwise, and waits for it). Called at
// startup before the font atlas is built, the compile runs meanwhile in the GPU process.
void heatmap_prepare();

// Draws `m` into the rectangle [p0, p1] of `dl`. Row-major Eigen data goes to GL unchanged:
// texel (x=j, y=i) = m(i, j). Without the shader (it failed to compile or link) it draws the same
// colours with ImGui rectangles, at most 128 × 128 blocks (each block takes the colour of its first cell).
void heatmap_draw(ImDrawList* dl, const HeatmapKey& key, const Mat& m, ImVec2 p0, ImVec2 p1, const HeatmapStyle& style);

// The colour of cell (i, j) as the shader draws it: "not computed yet" (row-major index >= reveal) and −∞
// (masked) in their greys, else the colour scale. For the rectangles fallback and the SVG of the view.
ImU32 heatmap_cell_color(const Mat& m, int i, int j, const HeatmapStyle& style);

// For the SVG of the view (svg_snapshot.h): what a draw command of this frame draws, when it is a heatmap.
// `m` points at the matrix given to heatmap_draw (a scene's model: it outlives the frame).
struct HeatmapDrawn {
  const Mat* m = nullptr;
  ImVec2 p0, p1;
  HeatmapStyle style;
};
bool heatmap_drawn(const ImDrawCmd& cmd, HeatmapDrawn* out);

// False if the shader failed to compile or link (heatmap_draw then uses rectangles).
bool heatmap_available();

// Frees the textures of one owner (a view that goes away), or every GL object (at shutdown).
void heatmap_release(const void* owner);
void heatmap_shutdown();

}  // namespace ap
