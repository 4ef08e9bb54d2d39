#include "colormap.h"

#include <algorithm>
#include <cmath>

namespace ap {

namespace {
struct Stop { float t, r, g, b; };
// Diverging: from ColorBrewer RdBu, reversed (blue for negative), with white at the centre.
constexpr Stop kDiverging[] = {{0.0f, 33, 102, 172}, {0.25f, 103, 169, 207}, {0.5f, 247, 247, 247},
                               {0.75f, 239, 138, 98}, {1.0f, 178, 24, 43}};
// Sequential: white to a deep blue-violet; perceptually even enough for weights in [0, 1].
constexpr Stop kSequential[] = {{0.0f, 250, 250, 252}, {0.25f, 198, 212, 238}, {0.5f, 132, 160, 218},
                                {0.75f, 78, 96, 186}, {1.0f, 38, 30, 120}};

// Colour-blind safe (distinct under deuteranopia, protanopia and tritanopia): blue – white – orange
// (ColorBrewer PuOr's orange half, a clear blue), and a sequential map from near-white through ochre and
// grey to deep blue, after cividis, monotone in lightness.
constexpr Stop kDivergingSafe[] = {{0.0f, 33, 84, 160}, {0.25f, 120, 168, 214}, {0.5f, 247, 247, 247},
                                   {0.75f, 250, 178, 96}, {1.0f, 200, 90, 0}};
constexpr Stop kSequentialSafe[] = {{0.0f, 250, 249, 240}, {0.25f, 228, 210, 130}, {0.5f, 160, 152, 118},
                                    {0.75f, 78, 95, 135}, {1.0f, 0, 36, 90}};
bool g_colorblind = false;
int g_palette_version = 0;

template <size_t N>
uint32_t sample(const Stop (&stops)[N], float t) {
  t = std::clamp(std::isfinite(t) ? t : 0.f, 0.f, 1.f);
  size_t k = 1;
  while (k < N - 1 && stops[k].t < t) ++k;
  const Stop& a = stops[k - 1];
  const Stop& b = stops[k];
  const float u = (t - a.t) / (b.t - a.t);
  const auto ch = [u](float x, float y) { return static_cast<uint32_t>(std::lround(x + (y - x) * u)); };
  return 0xFF000000u | ch(a.b, b.b) << 16 | ch(a.g, b.g) << 8 | ch(a.r, b.r);
}
}  // namespace

void set_colormap_colorblind(bool on) {
  if (on != g_colorblind) ++g_palette_version;
  g_colorblind = on;
}
bool colormap_colorblind() { return g_colorblind; }
int colormap_palette_version() { return g_palette_version; }

uint32_t colormap(ColorScale s, float t) {
  if (g_colorblind) return s == ColorScale::Diverging ? sample(kDivergingSafe, t) : sample(kSequentialSafe, t);
  return s == ColorScale::Diverging ? sample(kDiverging, t) : sample(kSequential, t);
}

namespace {
uint32_t rgba(int r, int g, int b, int alpha) {
  return static_cast<uint32_t>(std::clamp(alpha, 0, 255)) << 24 | static_cast<uint32_t>(b) << 16 | static_cast<uint32_t>(g) << 8 |
         static_cast<uint32_t>(r);
}
}  // namespace

// Default: RdBu's red and blue at about three quarters out; colour-blind: PuOr's orange and a clear blue.
uint32_t accent_warm(int alpha) { return g_colorblind ? rgba(230, 120, 20, alpha) : rgba(214, 96, 77, alpha); }
uint32_t accent_cool(int alpha) { return g_colorblind ? rgba(40, 90, 170, alpha) : rgba(67, 147, 195, alpha); }

uint32_t companion_warm(int alpha) { return g_colorblind ? rgba(204, 121, 167, alpha) : rgba(240, 160, 60, alpha); }
uint32_t companion_cool(int alpha) { return g_colorblind ? rgba(86, 180, 233, alpha) : rgba(40, 90, 160, alpha); }
uint32_t third_series(int alpha) { return g_colorblind ? rgba(0, 158, 115, alpha) : rgba(90, 160, 90, alpha); }

uint32_t flag_color(Flag f, int alpha) {
  struct Rgb { int r, g, b; };
  // Bad, Failure, Error, Caution, Right, Wrong (the defaults are the views' former literals, unchanged)
  static const Rgb kDefault[6] = {{179, 46, 26}, {204, 26, 26}, {158, 26, 20}, {179, 89, 13}, {26, 128, 51}, {179, 51, 26}};
  static const Rgb kSafe[6] = {{175, 70, 0}, {175, 70, 0}, {175, 70, 0}, {150, 95, 0}, {0, 114, 178}, {175, 70, 0}};
  const Rgb* table = g_colorblind ? kSafe : kDefault;  // (chosen first: see series_color)
  const Rgb& c = table[std::clamp(static_cast<int>(f), 0, 5)];
  return rgba(c.r, c.g, c.b, alpha);
}

uint32_t highlight_color(int alpha) { return rgba(230, 140, 0, alpha); }
uint32_t chosen_color(int alpha) { return rgba(230, 120, 0, alpha); }
uint32_t chosen_fill(int alpha) { return rgba(255, 236, 210, alpha); }

uint32_t series_color(int k, int alpha) {
  struct Rgb { int r, g, b; };
  static const Rgb kDefault[4] = {{214, 96, 40}, {150, 110, 190}, {40, 110, 190}, {40, 150, 90}};
  static const Rgb kSafe[4] = {{213, 94, 0}, {204, 121, 167}, {0, 114, 178}, {0, 158, 115}};  // Okabe–Ito
  // Indexed after the choice of table (g++ 12 with -fsanitize=undefined read row 0 of `(c ? A : B)[i]` for
  // two-dimensional arrays: the colour-map test caught it in the sanitizer build).
  const Rgb* table = g_colorblind ? kSafe : kDefault;
  const Rgb& c = table[((k % 4) + 4) % 4];
  return rgba(c.r, c.g, c.b, alpha);
}

float colormap_t(float v, float lo, float hi) {
  if (!(hi > lo)) return 0.5f;
  return std::clamp((v - lo) / (hi - lo), 0.f, 1.f);
}

uint32_t text_color_on(uint32_t bg) {
  const float r = (bg & 0xFF) / 255.f, g = ((bg >> 8) & 0xFF) / 255.f, b = ((bg >> 16) & 0xFF) / 255.f;
  const float lum = 0.2126f * r + 0.7152f * g + 0.0722f * b;
  return lum > 0.55f ? 0xFF1E1E1Eu : 0xFFFFFFFFu;
}

float symmetric_range(const std::vector<const Mat*>& ms) {
  float r = 0;
  for (const Mat* m : ms)
    for (Eigen::Index k = 0; k < m->size(); ++k)
      if (std::isfinite(m->data()[k])) r = std::max(r, std::fabs(m->data()[k]));
  return r > 0 ? r : 1.f;
}

}  // namespace ap
