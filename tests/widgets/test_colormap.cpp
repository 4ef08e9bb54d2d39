// The colour map (widgets/colormap.h): the series accents follow the colour-blind switch as the scales do
// (issue 15: four views drew their warm and cool series from literals the switch never reached).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "widgets/colormap.h"

namespace ap {
namespace AP_UNITY_ID {  // this file's own namespace in a unity build (CMakeLists.txt, AP_UNITY)

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

// The self-attention scene's four setting colours: distinct, the old literals by default, Okabe–Ito with the
// colour-blind switch, wrapping past 3, alpha as given.
TEST(WidgetsColormap, SeriesColoursFollowTheColourBlindSwitch) {
  // (214, 96, 40), (150, 110, 190), (40, 110, 190), (40, 150, 90)
  const uint32_t want[4] = {0xFF2860D6u, 0xFFBE6E96u, 0xFFBE6E28u, 0xFF5A9628u};
  for (int k = 0; k < 4; ++k) {
    EXPECT_EQ(series_color(k), want[k]) << k;
    for (int l = 0; l < k; ++l) EXPECT_NE(series_color(k), series_color(l));
  }
  EXPECT_EQ(series_color(4), series_color(0));
  EXPECT_EQ(series_color(-1), series_color(3));
  EXPECT_EQ(alpha(series_color(1, 90)), 90);
  Palette p(true);
  for (int k = 0; k < 4; ++k) {
    EXPECT_NE(series_color(k), want[k]) << k;
    for (int l = 0; l < k; ++l) EXPECT_NE(series_color(k), series_color(l));
  }
  EXPECT_EQ(series_color(2), 0xFFB27200u) << "Okabe–Ito blue (0, 114, 178)";
  EXPECT_EQ(series_color(3), 0xFF739E00u) << "Okabe–Ito bluish green (0, 158, 115)";
}

// The cost lab's other three series and the flag colours: by default the views' former literals (the pictures
// stay as they were), with the switch something else; and with it, the series stay apart from the orange
// and blue accents, and right and wrong (and a flagged number beside black text) differ in more than a
// red–green hue: in blue, and in lightness.
int green(uint32_t c) { return (c >> 8) & 0xFF; }
double luma(uint32_t c) { return 0.2126 * red(c) + 0.7152 * green(c) + 0.0722 * blue(c); }
uint32_t rgb(int r, int g, int b) { return 0xFF000000u | static_cast<uint32_t>(b) << 16 | static_cast<uint32_t>(g) << 8 | static_cast<uint32_t>(r); }

TEST(WidgetsColormap, CompanionSeriesAndFlagsFollowTheColourBlindSwitch) {
  const uint32_t series[] = {rgb(240, 160, 60), rgb(40, 90, 160), rgb(90, 160, 90)};
  // ImGui's float colours as it rounds them (x · 255 + 0.5): masks' kBad, train's failure, the messages panel,
  // import's caution, the quiz's right and wrong.
  const auto f = [](float r, float g, float b) {
    return rgb(static_cast<int>(r * 255.f + 0.5f), static_cast<int>(g * 255.f + 0.5f), static_cast<int>(b * 255.f + 0.5f));
  };
  const uint32_t flags[] = {f(0.70f, 0.18f, 0.10f), f(0.8f, 0.1f, 0.1f), f(0.62f, 0.10f, 0.08f),
                            f(0.70f, 0.35f, 0.05f), f(0.10f, 0.50f, 0.20f), f(0.70f, 0.20f, 0.10f)};
  const Flag kinds[] = {Flag::Bad, Flag::Failure, Flag::Error, Flag::Caution, Flag::Right, Flag::Wrong};
  EXPECT_EQ(companion_warm(), series[0]);
  EXPECT_EQ(companion_cool(), series[1]);
  EXPECT_EQ(third_series(), series[2]);
  for (int k = 0; k < 6; ++k) EXPECT_EQ(flag_color(kinds[k]), flags[k]) << k;
  EXPECT_EQ(alpha(flag_color(Flag::Bad, 70)), 70);
  EXPECT_EQ(alpha(third_series(300)), 255);

  Palette p(true);
  const uint32_t now[] = {companion_warm(), companion_cool(), third_series()};
  for (int k = 0; k < 3; ++k) {
    EXPECT_NE(now[k], series[k]) << k;
    EXPECT_NE(now[k], accent_warm()) << k;
    EXPECT_NE(now[k], accent_cool()) << k;
    for (int l = 0; l < k; ++l) EXPECT_NE(now[k], now[l]);
  }
  for (int k = 0; k < 6; ++k) {
    if (kinds[k] != Flag::Caution) EXPECT_NE(flag_color(kinds[k]), flags[k]) << k;
    EXPECT_LT(luma(flag_color(kinds[k])), 140.0) << k << ": readable on white";
  }
  const uint32_t right = flag_color(Flag::Right), wrong = flag_color(Flag::Wrong);
  EXPECT_GT(blue(right) - blue(wrong), 100) << "right is blue, wrong is not";
  EXPECT_GT(luma(flag_color(Flag::Bad)), luma(rgb(30, 30, 30)) + 40) << "a flagged number is lighter than black text";
}

// The diverging range over several matrices: the largest finite |entry| of any, compared with a plain loop;
// 1 when there is none (empty, all zero, only non-finite), never 0.
TEST(WidgetsColormap, SymmetricRangeIsTheLargestFiniteMagnitude) {
  Mat a(2, 3), b(1, 2), empty, zeros = Mat::Zero(2, 2), masked(1, 2);
  a << 0.5f, -2.25f, 1.f, 0.f, 2.f, -0.1f;
  b << 1.5f, -1.75f;
  masked << -std::numeric_limits<float>::infinity(), 0.75f;
  float want = 0;
  for (const Mat* m : {&a, &b})
    for (Eigen::Index i = 0; i < m->rows(); ++i)
      for (Eigen::Index j = 0; j < m->cols(); ++j) want = std::max(want, std::fabs((*m)(i, j)));
  EXPECT_EQ(symmetric_range({&a, &b}), want);
  EXPECT_EQ(symmetric_range({&a, &b}), 2.25f);
  EXPECT_EQ(symmetric_range({&b}), 1.75f);
  EXPECT_EQ(symmetric_range({&masked}), 0.75f) << "−∞ (a masked score) is skipped";
  EXPECT_EQ(symmetric_range({&empty}), 1.f);
  EXPECT_EQ(symmetric_range({&zeros, &empty}), 1.f);
  EXPECT_EQ(symmetric_range({}), 1.f);
}

}  // namespace
}  // namespace ap
