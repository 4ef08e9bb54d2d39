// The colour map (widgets/colormap.h): the series accents follow the colour-blind switch as the scales do
// (issue 15: four views drew their warm and cool series from literals the switch never reached).
#include <gtest/gtest.h>

#include <cstdint>

#include "widgets/colormap.h"

namespace ap {
namespace {

int red(uint32_t c) { return c & 0xFF; }
int blue(uint32_t c) { return (c >> 16) & 0xFF; }
int alpha(uint32_t c) { return (c >> 24) & 0xFF; }

struct Palette {
  explicit Palette(bool colorblind) { set_colormap_colorblind(colorblind); }
  ~Palette() { set_colormap_colorblind(false); }
};

TEST(WidgetsColormap, AccentsFollowTheColourBlindSwitch) {
  uint32_t warm, cool, warm_safe, cool_safe;
  {
    Palette p(false);
    warm = accent_warm();
    cool = accent_cool();
  }
  const int version = colormap_palette_version();
  {
    Palette p(true);
    EXPECT_NE(colormap_palette_version(), version);
    warm_safe = accent_warm();
    cool_safe = accent_cool();
    // The accents pair with the scale's ends: warm on the positive (orange) side, cool on the negative side.
    EXPECT_GT(red(colormap(ColorScale::Diverging, 1.f)), blue(colormap(ColorScale::Diverging, 1.f)));
  }
  EXPECT_NE(warm, warm_safe);
  EXPECT_NE(cool, cool_safe);
  for (uint32_t w : {warm, warm_safe}) EXPECT_GT(red(w), blue(w));
  for (uint32_t c : {cool, cool_safe}) EXPECT_GT(blue(c), red(c));
  EXPECT_EQ(warm, 0xFF4D60D6u) << "the default warm is RdBu's (214, 96, 77)";
  EXPECT_EQ(cool, 0xFFC39343u) << "the default cool is RdBu's (67, 147, 195)";
  EXPECT_EQ(accent_warm(), warm) << "switched back";
}

TEST(WidgetsColormap, AccentAlphaIsClamped) {
  EXPECT_EQ(alpha(accent_warm(120)), 120);
  EXPECT_EQ(alpha(accent_cool(0)), 0);
  EXPECT_EQ(alpha(accent_warm(999)), 255);
  EXPECT_EQ(alpha(accent_cool(-4)), 0);
  EXPECT_EQ(accent_warm(120) & 0xFFFFFFu, accent_warm() & 0xFFFFFFu);
}

}  // namespace
}  // namespace ap
