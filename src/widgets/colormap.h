// Colour scales shared by the numbered-cell view (ImGui) and the heatmap shader (as a lookup texture).
#pragma once
#include <cstdint>
#include <vector>

#include "core/matrix.h"

namespace ap {

enum class ColorScale {
  Diverging,   // negative blue – 0 white – positive red: scores, Q, K, V, outputs
  Sequential,  // 0 white – 1 deep violet-blue: attention weights (probabilities)
};

// Which colours the scales use: the default (red–blue, white–violet) or a colour-blind-safe set (blue–orange,
// and a cividis-like light-yellow–grey–blue that keeps its order in lightness). Global, as a display option.
void set_colormap_colorblind(bool on);
bool colormap_colorblind();
// Changes every time the palette changes (the heatmap's lookup textures follow it).
int colormap_palette_version();

// RGBA8 packed as ImGui's ImU32 (A<<24 | B<<16 | G<<8 | R) for t in [0, 1].
uint32_t colormap(ColorScale s, float t);
// Maps a value to t in [0,1] for the range [lo, hi].
float colormap_t(float v, float lo, float hi);
// The range ±r of a diverging map over these matrices: their largest finite |entry|, or 1 when there is none
// (empty or all zero: a legend never reads ±0).
float symmetric_range(const std::vector<const Mat*>& ms);
// The two series colours that pair with the diverging scale's ends: warm (attention, unscaled scores, the
// final state c) and cool (the RNN, scaled scores, every hⱼ), with alpha 0 … 255. They follow the colour-blind
// switch (orange and blue there), as the scales do.
uint32_t accent_warm(int alpha = 255);
uint32_t accent_cool(int alpha = 255);
// Four categorical series (the self-attention scene's settings: no projection, shared, separate, trained),
// k = 0 … 3 (others wrap). Default orange-red, violet, blue, green; colour-blind Okabe–Ito's vermilion,
// reddish purple, blue, bluish green.
uint32_t series_color(int k, int alpha = 255);
// The emphasis colours, the same in both palettes (orange reads against both scales' ends): the item the
// pointer or the timeline is on (a hovered cell, the stage being shown), the item the learner chose (a
// setting, a row, a score function, a path), and the background of a chosen row.
uint32_t highlight_color(int alpha = 255);
uint32_t chosen_color(int alpha = 255);
uint32_t chosen_fill(int alpha = 255);
// Three more series for the cost lab, each beside one of those above: a second warm (tiled attention beside
// attention), a second cool (the GRU beside the RNN) and a third (convolution). Colour-blind: Okabe–Ito's
// reddish purple, sky blue and bluish green, apart from the orange and blue accents.
uint32_t companion_warm(int alpha = 255);
uint32_t companion_cool(int alpha = 255);
uint32_t third_series(int alpha = 255);
// Text that flags what it says: a bad value (a mask bug's damage, a count that does not add up), a failure
// (training diverged, the worker did not start), an error message, a caution (rows that are not softmax
// weights), a quiz answer right or wrong. Default reds, green and brown; colour-blind: dark vermilion for the
// reds and blue for right (Okabe–Ito), so that right and wrong, and a flagged number beside black ones, differ
// in more than a red–green hue.
enum class Flag { Bad, Failure, Error, Caution, Right, Wrong };
uint32_t flag_color(Flag f, int alpha = 255);
// Black or white, whichever reads better on `bg`.
uint32_t text_color_on(uint32_t bg);

}  // namespace ap
