// The plot widget (plot.h): plot() draws in phases over a PlotFrame (lay_out, grid, legend, data, ticks,
// titles, hover, read-out); above them, the private pieces the phases share (rectangles, axes and their
// ticks, the legend, series, markers, the nearest points). Over 700 lines for a reason: those pieces share
// private types (Rect, Style, Axis, Legend) that no other file needs, and each is used by one phase or two.
#include "plot.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "widgets/math_text.h"
#include "widgets/text_fit.h"

namespace ap {

namespace {

struct Rect {
  float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  float w() const { return x1 - x0; }
  float h() const { return y1 - y0; }
  bool contains(ImVec2 p) const { return p.x >= x0 && p.x <= x1 && p.y >= y0 && p.y <= y1; }
  bool overlaps(const Rect& o) const { return x0 < o.x1 && o.x0 < x1 && y0 < o.y1 && o.y0 < y1; }
};

ImU32 with_alpha(ImU32 c, float a) {
  const ImU32 alpha = static_cast<ImU32>(((c >> IM_COL32_A_SHIFT) & 0xFF) * std::clamp(a, 0.f, 1.f) + 0.5f);
  return (c & ~IM_COL32_A_MASK) | (alpha << IM_COL32_A_SHIFT);
}

// `s` shortened (whole characters) with "…" so that it is at most `w` wide; "" if not even "…" fits.
std::string fit(const std::string& s, float w) { return fit_text(s, w, nullptr, /*empty_if_none=*/true); }

void text_at(ImDrawList* dl, float x, float y, ImU32 col, const std::string& s) {
  if (!s.empty()) dl->AddText(ImVec2(std::floor(x), std::floor(y)), col, s.c_str());
}

// Dashed lines whose pattern carries on from one segment to the next.
struct Dasher {
  ImDrawList* dl;
  ImU32 col;
  float thickness, on, off;
  float phase = 0;
  void line(ImVec2 a, ImVec2 b) {
    const float dx = b.x - a.x, dy = b.y - a.y, len = std::sqrt(dx * dx + dy * dy);
    if (!(len > 0)) return;
    const float cycle = on + off;
    float t = 0;
    while (t < len) {
      const float in = std::fmod(phase, cycle);
      const float seg = std::min(in < on ? on - in : cycle - in, len - t);
      if (in < on)
        dl->AddLine(ImVec2(a.x + dx * t / len, a.y + dy * t / len),
                    ImVec2(a.x + dx * (t + seg) / len, a.y + dy * (t + seg) / len), col, thickness);
      t += seg;
      phase = std::fmod(phase + seg, cycle);
    }
  }
};

// Liang–Barsky: clips the segment to `r`; false if nothing is left.
bool clip_segment(double& x0, double& y0, double& x1, double& y1, const Rect& r) {
  double t0 = 0, t1 = 1;
  const double dx = x1 - x0, dy = y1 - y0;
  const double p[4] = {-dx, dx, -dy, dy};
  const double q[4] = {x0 - r.x0, r.x1 - x0, y0 - r.y0, r.y1 - y0};
  for (int i = 0; i < 4; ++i) {
    if (p[i] == 0) {
      if (q[i] < 0) return false;
      continue;
    }
    const double t = q[i] / p[i];
    if (p[i] < 0)
      t0 = std::max(t0, t);
    else
      t1 = std::min(t1, t);
    if (t0 > t1) return false;
  }
  const double ax = x0 + t0 * dx, ay = y0 + t0 * dy, bx = x0 + t1 * dx, by = y0 + t1 * dy;
  x0 = ax;
  y0 = ay;
  x1 = bx;
  y1 = by;
  return true;
}

// An axis' range: the data (and marker values), padded 5%, with the spec's fixed ends where they are usable.
AxisRange auto_range(AxisKind k, AxisRange data, const std::vector<PlotMarker>& marks, double fmin, double fmax,
                     bool baseline) {
  const auto ok = [&](double v) { return std::isfinite(v) && (k == AxisKind::Linear || v > 0); };
  double lo = kInf, hi = -kInf;
  if (data.valid) {
    lo = data.lo;
    hi = data.hi;
  }
  for (const PlotMarker& m : marks)
    if (ok(m.value)) {
      lo = std::min(lo, m.value);
      hi = std::max(hi, m.value);
    }
  const bool fix_lo = ok(fmin), fix_hi = ok(fmax);
  if (fix_lo && fix_hi) return sanitize_range(k, fmin, fmax);
  AxisRange r;
  if (lo > hi) {
    r = sanitize_range(k, kInf, kInf);  // the default range
  } else {
    r = sanitize_range(k, lo, hi);
    if (r.lo == lo && r.hi == hi)  // not widened from a single value: pad
      r = pad_range(k, r, baseline && k == AxisKind::Linear && lo == 0 ? 0.0 : 0.05, 0.05);
  }
  if (fix_lo) r.lo = fmin;
  if (fix_hi) r.hi = fmax;
  return sanitize_range(k, r.lo, r.hi);
}

struct Axis {
  AxisScale scale;
  std::vector<Tick> ticks;
  float label_w = 0;  // widest label
};

// Ticks with as many labels as fit: `room(label_w)` is the pixel distance two labels need.
template <class Room>
Axis make_axis(AxisKind kind, AxisRange r, double p0, double p1, float max_target_px, Room room) {
  Axis a;
  a.scale = make_scale(kind, r.lo, r.hi, p0, p1);
  int target = std::clamp(static_cast<int>(std::fabs(p1 - p0) / max_target_px), 2, 10);
  for (;; --target) {
    a.ticks = make_ticks(kind, a.scale.lo, a.scale.hi, std::max(target, 1), true);
    a.label_w = 0;
    double min_gap = kInf, prev = kNaN;
    for (const Tick& t : a.ticks) {
      if (t.label.empty()) continue;
      a.label_w = std::max(a.label_w, text_width(t.label));
      const double px = a.scale.to_pixel(t.value);
      if (!std::isnan(prev)) min_gap = std::min(min_gap, std::fabs(px - prev));
      prev = px;
    }
    if (target <= 1 || min_gap >= room(a.label_w)) break;
  }
  return a;
}

struct Style {
  float fs, pad, tick_len, point_r;
  ImU32 ink, faint, bg, border, grid_major, grid_minor;
};

ImU32 series_color(const PlotSpec& spec, size_t i) {
  return spec.series[i].color ? spec.series[i].color : plot_palette(static_cast<int>(i));
}

float point_radius(const PlotSeries& s, const Style& st) { return s.point_radius > 0 ? s.point_radius : st.point_r; }

// The legend's entries, sizes and where it goes.
struct Legend {
  std::vector<int> series;         // series shown, in order
  std::vector<std::string> names;  // fitted
  std::vector<bool> math;          // drawn as math text (whole), else as written (cut with "…")
  int hidden = 0;                  // entries that did not fit ("+k")
  float w = 0, h = 0, swatch = 0, row = 0;
};

// `more`: when not every entry fits, show those that do and "+k"; otherwise no legend at all.
Legend make_legend(const PlotSpec& spec, const Style& st, float max_w, float max_h, bool more) {
  Legend L;
  L.swatch = std::floor(st.fs * 1.6f);
  L.row = st.fs + 2;
  std::vector<int> named;
  float natural = 0;
  for (size_t i = 0; i < spec.series.size(); ++i)
    if (!spec.series[i].name.empty()) {
      named.push_back(static_cast<int>(i));
      natural = std::max(natural, math_text_width(spec.series[i].name.c_str(), st.fs));
    }
  if (named.empty()) return L;
  const float name_max = max_w - 3 * st.pad - L.swatch;
  if (name_max < std::min(natural, st.fs * 3)) return L;  // names would be cut to a letter or two
  const int rows = static_cast<int>((max_h - 2 * st.pad + 2) / L.row);
  const int n = static_cast<int>(named.size());
  if (rows < 1 || (n > rows && (!more || rows < 2))) return L;
  const int shown = n <= rows ? n : rows - 1;
  L.hidden = n - shown;
  float widest = 0;
  for (int k = 0; k < shown; ++k) {
    L.series.push_back(named[k]);
    // as math text (W^Q raised, as in the formulas) where the whole name fits; else cut, as written
    const std::string& name = spec.series[named[k]].name;
    const float mw = math_text_width(name.c_str(), st.fs);
    L.math.push_back(mw <= name_max);
    L.names.push_back(L.math.back() ? name : fit(name, name_max));
    widest = std::max(widest, L.math.back() ? mw : text_width(L.names.back()));
  }
  if (L.hidden) widest = std::max(widest, text_width("+" + std::to_string(L.hidden)));
  L.w = std::ceil(3 * st.pad + L.swatch + widest);
  L.h = std::ceil(2 * st.pad + (shown + (L.hidden ? 1 : 0)) * L.row - 2);
  return L;
}

void draw_swatch(ImDrawList* dl, const PlotSeries& s, ImU32 col, float x, float y, float w, float h, const Style& st) {
  const float cy = std::floor(y + h * 0.5f) + 0.5f;
  if (s.bars) {
    dl->AddRectFilled(ImVec2(x + 1, y + h * 0.2f), ImVec2(x + w - 1, y + h * 0.8f), with_alpha(col, 0.55f));
    dl->AddRect(ImVec2(x + 1, y + h * 0.2f), ImVec2(x + w - 1, y + h * 0.8f), col);
    return;
  }
  if (s.line) {
    if (s.dashed) {
      Dasher d{dl, col, s.thickness, std::max(3.f, 3 * s.thickness), std::max(2.f, 2 * s.thickness)};
      d.line(ImVec2(x, cy), ImVec2(x + w, cy));
    } else {
      dl->AddLine(ImVec2(x, cy), ImVec2(x + w, cy), col, s.thickness);
    }
  }
  if (s.points || !s.line) dl->AddCircleFilled(ImVec2(x + w * 0.5f, cy), point_radius(s, st), col);
}

void draw_legend(ImDrawList* dl, const PlotSpec& spec, const Legend& L, float x, float y, const Style& st) {
  x = std::floor(x);
  y = std::floor(y);
  dl->AddRectFilled(ImVec2(x, y), ImVec2(x + L.w, y + L.h), with_alpha(st.bg, 0.88f), st.pad * 0.5f);
  dl->AddRect(ImVec2(x, y), ImVec2(x + L.w, y + L.h), st.border, st.pad * 0.5f);
  float ry = y + st.pad;
  for (size_t k = 0; k < L.series.size(); ++k, ry += L.row) {
    const PlotSeries& s = spec.series[L.series[k]];
    draw_swatch(dl, s, series_color(spec, L.series[k]), x + st.pad, ry, L.swatch, st.fs, st);
    if (L.math[k]) draw_math_text(dl, ImVec2(std::floor(x + 2 * st.pad + L.swatch), std::floor(ry)), st.ink, L.names[k].c_str(), st.fs);
    else text_at(dl, x + 2 * st.pad + L.swatch, ry, st.ink, L.names[k]);
  }
  if (L.hidden) text_at(dl, x + 2 * st.pad + L.swatch, ry, st.faint, "+" + std::to_string(L.hidden));
}

// A point in pixels, kept in double until clipped.
struct Px {
  double x, y;
};

// Per pixel column: the first, lowest, highest and last point, in their order. What a 1-pixel-wide column
// shows of a dense line is unchanged, and the line has at most 4 points per column.
std::vector<Px> thin_columns(const Px* p, size_t n) {
  std::vector<Px> out;
  for (size_t i = 0; i < n;) {
    const double column = std::floor(p[i].x);
    size_t j = i, lo = i, hi = i;
    for (; j < n && std::floor(p[j].x) == column; ++j) {
      if (p[j].y < p[lo].y) lo = j;
      if (p[j].y > p[hi].y) hi = j;
    }
    const size_t keep[4] = {i, std::min(lo, hi), std::max(lo, hi), j - 1};
    for (int k = 0; k < 4; ++k)
      if (k == 0 || keep[k] != keep[k - 1]) out.push_back(p[keep[k]]);
    i = j;
  }
  return out;
}

// Where bars start: 0 on a linear axis (or the axis end nearer to it), the bottom on a log axis.
double bar_base(const AxisScale& ys, const Rect& r) {
  const double y = ys.kind == AxisKind::Log10 ? r.y1 : ys.to_pixel(std::clamp(0.0, ys.lo, ys.hi));
  return std::clamp(y, static_cast<double>(r.y0), static_cast<double>(r.y1));
}

// One series' lines, points or bars, inside `r` (the caller clips to it as well).
void draw_series(ImDrawList* dl, const PlotSeries& s, const SeriesView& v, ImU32 col, const AxisScale& xs,
                 const AxisScale& ys, const Rect& r, const Style& st) {
  if (v.n == 0) return;
  if (s.bars) {
    const double y0 = r.y0, y1 = r.y1, base = bar_base(ys, r);
    const ImU32 fill = with_alpha(col, 0.55f);
    // Bars narrower than a pixel that share a pixel column are drawn once, as their union.
    bool pending = false;
    double pa = 0, pb = 0, ptop = 0, pbot = 0;
    const auto draw = [&]() {
      if (!pending) return;
      const ImVec2 p0(static_cast<float>(pa), static_cast<float>(ptop)),
          p1(static_cast<float>(pb), static_cast<float>(pbot));
      dl->AddRectFilled(p0, p1, fill);
      if (pb - pa >= 3) dl->AddRect(p0, p1, col);
      pending = false;
    };
    for (size_t i = 0; i < v.n; ++i) {
      if (!xs.plottable(v.x[i]) || !xs.plottable(v.x[i + 1]) || !ys.plottable(v.y[i])) continue;
      double a = xs.to_pixel(v.x[i]), b = xs.to_pixel(v.x[i + 1]);
      if (a > b) std::swap(a, b);
      a = std::max(a, static_cast<double>(r.x0));
      b = std::min(b, static_cast<double>(r.x1));
      if (b <= a) continue;
      const double top = std::clamp(ys.to_pixel(v.y[i]), y0, y1);
      const double lo = std::min(top, base), hi = std::max(top, base);
      if (pending && b - a < 1 && pb - pa < 1 && std::floor(a) == std::floor(pa)) {
        pb = std::max(pb, b);
        ptop = std::min(ptop, lo);
        pbot = std::max(pbot, hi);
        continue;
      }
      draw();
      pending = true;
      pa = a;
      pb = b;
      ptop = lo;
      pbot = hi;
    }
    draw();
    return;
  }
  // Drawable points as pixels, in runs broken where a point is not drawable.
  std::vector<Px> pts;
  std::vector<size_t> starts;  // first index of each run in pts
  bool in_run = false;
  for (size_t i = 0; i < v.n; ++i) {
    if (!xs.plottable(v.x[i]) || !ys.plottable(v.y[i])) {
      in_run = false;
      continue;
    }
    if (!in_run) starts.push_back(pts.size());
    in_run = true;
    pts.push_back({xs.to_pixel(v.x[i]), ys.to_pixel(v.y[i])});
  }
  starts.push_back(pts.size());

  // Lines, each segment clipped to a slightly larger rectangle (the clip rect trims the rest) so that far-off
  // points never make huge vertex coordinates. Runs much longer than the plot is wide are thinned first.
  if (s.line) {
    const float grow = s.thickness + 2;
    const Rect lr{r.x0 - grow, r.y0 - grow, r.x1 + grow, r.y1 + grow};
    std::vector<ImVec2> run;
    Dasher dash{dl, col, s.thickness, std::max(3.f, 4 * s.thickness), std::max(2.f, 2.5f * s.thickness)};
    float dash_budget = 2000 * (dash.on + dash.off);  // beyond ~2000 dashes the rest is drawn solid
    const auto flush = [&]() {
      if (run.size() >= 2) {
        float len = 0;
        for (size_t k = 1; k < run.size() && s.dashed; ++k)
          len += std::hypot(run[k].x - run[k - 1].x, run[k].y - run[k - 1].y);
        if (s.dashed && len <= dash_budget) {
          dash_budget -= len;
          for (size_t k = 1; k < run.size(); ++k) dash.line(run[k - 1], run[k]);
        } else {
          dl->AddPolyline(run.data(), static_cast<int>(run.size()), col, ImDrawFlags_None, s.thickness);
        }
      }
      run.clear();
    };
    std::vector<Px> thin;
    for (size_t k = 0; k + 1 < starts.size(); ++k) {
      const Px* p = pts.data() + starts[k];
      size_t n = starts[k + 1] - starts[k];
      if (n > 2 * static_cast<size_t>(r.w() + 1)) {
        thin = thin_columns(p, n);
        p = thin.data();
        n = thin.size();
      }
      for (size_t i = 1; i < n; ++i) {
        double ax = p[i - 1].x, ay = p[i - 1].y, bx = p[i].x, by = p[i].y;
        if (!clip_segment(ax, ay, bx, by, lr)) {
          flush();
          continue;
        }
        const ImVec2 a(static_cast<float>(ax), static_cast<float>(ay));
        const ImVec2 b(static_cast<float>(bx), static_cast<float>(by));
        if (run.empty() || std::fabs(run.back().x - a.x) > 0.01f || std::fabs(run.back().y - a.y) > 0.01f) {
          flush();
          run.push_back(a);
        }
        run.push_back(b);
      }
      flush();
    }
  }

  // Dots: when asked for, or when a line has nothing to connect (a single point). Many dots are drawn as
  // small squares, at most one per cell of a grid, to stay within the draw list's vertex budget.
  if (s.points || pts.size() == 1 || !s.line) {
    const float rad = point_radius(s, st);
    const bool many = pts.size() > 300;
    const float cell = many ? std::max(2 * rad, std::sqrt(std::max(1.f, r.w() * r.h()) / 2000.f)) : 1.f;
    const int cols = many ? static_cast<int>(r.w() / cell) + 1 : 0,
              rows = many ? static_cast<int>(r.h() / cell) + 1 : 0;
    std::vector<unsigned char> used(static_cast<size_t>(cols) * rows);
    for (const Px& q : pts) {
      const ImVec2 p(static_cast<float>(q.x), static_cast<float>(q.y));
      if (!r.contains(p)) continue;
      if (!many) {
        dl->AddCircleFilled(p, rad, col);
        continue;
      }
      const size_t c =
          static_cast<size_t>(static_cast<int>((p.y - r.y0) / cell)) * cols + static_cast<size_t>((p.x - r.x0) / cell);
      if (c >= used.size() || used[c]) continue;
      used[c] = 1;
      dl->AddRectFilled(ImVec2(p.x - rad * 0.8f, p.y - rad * 0.8f), ImVec2(p.x + rad * 0.8f, p.y + rad * 0.8f), col);
    }
  }
}

// Marker lines and their labels. Every line first, then the labels over them (a label drawn before a later
// marker's line was crossed by it: "crossover n = d = 64" under the n = 512 line). A label goes where it covers
// no other label, no other marker's line, not `avoid` (the legend) and, where it can, no data, trying rows down
// the line (x markers) or the ends above / below the line (y markers); where every place crosses a line, the
// first that covers no label; else it is left out.
void draw_markers(ImDrawList* dl, const PlotSpec& spec, const std::vector<SeriesView>& views, const AxisScale& xs,
                  const AxisScale& ys, const Rect& r, const std::vector<Rect>& avoid, bool labels, const Style& st) {
  std::vector<Rect> placed = avoid;
  const float lh = st.fs + 2;
  struct Line {
    const PlotMarker* m;
    bool vertical;
    float at;  // x of a vertical line, y of a horizontal one
    ImU32 col;
  };
  std::vector<Line> lines;
  const auto draw_line = [&](const PlotMarker& m, ImVec2 a, ImVec2 b, ImU32 col) {
    if (m.dashed) {
      Dasher d{dl, col, 1.f, std::floor(st.fs * 0.3f) + 1, std::floor(st.fs * 0.25f) + 1};
      d.line(a, b);
    } else {
      dl->AddLine(a, b, col, 1.f);
    }
  };
  for (const PlotMarker& m : spec.x_markers) {
    if (!xs.plottable(m.value)) continue;
    const double px = xs.to_pixel(m.value);
    if (px < r.x0 - 0.5 || px > r.x1 + 0.5) continue;
    const float x = std::floor(static_cast<float>(px)) + 0.5f;
    const ImU32 col = m.color ? m.color : st.faint;
    draw_line(m, ImVec2(x, r.y0), ImVec2(x, r.y1), col);
    lines.push_back({&m, true, x, col});
  }
  for (const PlotMarker& m : spec.y_markers) {
    if (!ys.plottable(m.value)) continue;
    const double py = ys.to_pixel(m.value);
    if (py < r.y0 - 0.5 || py > r.y1 + 0.5) continue;
    const float y = std::floor(static_cast<float>(py)) + 0.5f;
    const ImU32 col = m.color ? m.color : st.faint;
    draw_line(m, ImVec2(r.x0, y), ImVec2(r.x1, y), col);
    lines.push_back({&m, false, y, col});
  }
  if (!labels) return;
  const auto free = [&](const Rect& box, const Line& own, bool of_lines) {
    if (box.x0 < r.x0 || box.x1 > r.x1 || box.y0 < r.y0 || box.y1 > r.y1) return false;
    for (const Rect& p : placed)
      if (p.overlaps(box)) return false;
    if (of_lines)
      for (const Line& l : lines) {
        if (&l == &own) continue;
        const Rect lr = l.vertical ? Rect{l.at - 1, r.y0, l.at + 1, r.y1} : Rect{r.x0, l.at - 1, r.x1, l.at + 1};
        if (lr.overlaps(box)) return false;
      }
    return true;
  };
  const auto label = [&](const Rect& box, ImU32 col, const std::string& s) {
    placed.push_back(box);
    dl->AddRectFilled(ImVec2(box.x0, box.y0), ImVec2(box.x1, box.y1), with_alpha(st.bg, 0.85f), 2.f);
    text_at(dl, box.x0 + 2, box.y0 + 1, col, s);
  };
  for (const Line& l : lines) {
    const std::string s = fit(l.m->label, r.w() * (l.vertical ? 0.5f : 0.6f) - 8);
    if (s.empty()) continue;
    const float w = text_width(s) + 4;
    std::vector<Rect> tries;
    if (l.vertical) {
      for (float y = r.y0 + 2; y + lh <= r.y1; y += lh) {
        tries.push_back({l.at + 3, y, l.at + 3 + w, y + lh});
        tries.push_back({l.at - 3 - w, y, l.at - 3, y + lh});
      }
    } else {
      const float y = l.at;
      tries = {{r.x1 - 3 - w, y - 1 - lh, r.x1 - 3, y - 1},
               {r.x1 - 3 - w, y + 1, r.x1 - 3, y + 1 + lh},
               {r.x0 + 3, y - 1 - lh, r.x0 + 3 + w, y - 1},
               {r.x0 + 3, y + 1, r.x0 + 3 + w, y + 1 + lh}};
    }
    // First a place over no data (plot_scale's data_under: a label's backing hid a curve's points), then any.
    bool done = false;
    for (int pass = 0; pass < 3 && !done; ++pass) {
      const bool of_lines = pass < 2, of_data = pass == 0;
      for (const Rect& t : tries)
        if (free(t, l, of_lines) && (!of_data || data_under(views, xs, ys, t.x0, t.y0, t.x1, t.y1) == 0)) {
          label(t, l.col, s);
          done = true;
          break;
        }
    }
  }
}

// Per series: the drawable point nearest to the mouse along x (bars: the bin under the mouse x); -1: none.
std::vector<int> nearest_by_x(const std::vector<SeriesView>& views, const AxisScale& xs, const AxisScale& ys,
                              ImVec2 mouse) {
  std::vector<int> out(views.size(), -1);
  for (size_t s = 0; s < views.size(); ++s) {
    const SeriesView& v = views[s];
    double best = kInf, best_dy = kInf;
    for (size_t i = 0; i < v.n; ++i) {
      if (v.bars) {
        if (!xs.plottable(v.x[i]) || !xs.plottable(v.x[i + 1]) || !ys.plottable(v.y[i])) continue;
        const double a = xs.to_pixel(v.x[i]), b = xs.to_pixel(v.x[i + 1]);
        if (mouse.x >= std::min(a, b) && mouse.x <= std::max(a, b)) {
          out[s] = static_cast<int>(i);
          break;
        }
        continue;
      }
      if (!xs.plottable(v.x[i]) || !ys.plottable(v.y[i])) continue;
      const double dx = std::fabs(xs.to_pixel(v.x[i]) - mouse.x), dy = std::fabs(ys.to_pixel(v.y[i]) - mouse.y);
      if (dx < best || (dx == best && dy < best_dy)) {
        best = dx;
        best_dy = dy;
        out[s] = static_cast<int>(i);
      }
    }
  }
  return out;
}

}  // namespace

ImU32 plot_palette(int i) {
  static constexpr ImU32 kColors[10] = {IM_COL32(31, 119, 180, 255),  IM_COL32(230, 120, 20, 255),
                                        IM_COL32(44, 160, 44, 255),   IM_COL32(214, 39, 40, 255),
                                        IM_COL32(148, 103, 189, 255), IM_COL32(140, 86, 75, 255),
                                        IM_COL32(227, 119, 194, 255), IM_COL32(110, 110, 110, 255),
                                        IM_COL32(170, 170, 30, 255),  IM_COL32(23, 175, 195, 255)};
  return kColors[((i % 10) + 10) % 10];
}

std::vector<SeriesView> plot_series_views(const PlotSpec& spec) {
  std::vector<SeriesView> v;
  v.reserve(spec.series.size());
  for (const PlotSeries& s : spec.series) {
    SeriesView sv;
    sv.name = s.name.c_str();
    sv.x = s.x.data();
    sv.y = s.y.data();
    sv.bars = s.bars;
    sv.n = s.bars ? (s.x.size() >= 1 ? std::min(s.y.size(), s.x.size() - 1) : 0) : std::min(s.x.size(), s.y.size());
    if (sv.n == 0) sv.x = sv.y = nullptr;
    v.push_back(sv);
  }
  return v;
}

std::string plot_csv(const PlotSpec& spec) { return series_csv(plot_series_views(spec)); }

namespace {
std::vector<PlotDrawn> g_plots;
template <class R> void remember_plot(const std::string& title, const R& box) {
  const int now = ImGui::GetFrameCount();
  g_plots.erase(std::remove_if(g_plots.begin(), g_plots.end(), [&](const PlotDrawn& p) { return p.frame < now; }), g_plots.end());
  if (g_plots.size() < 32) g_plots.push_back({title, ImVec2(box.x0, box.y0), ImVec2(box.x1, box.y1), now});
}
}  // namespace

std::vector<PlotDrawn> plots_drawn() {
  const int now = ImGui::GetFrameCount();
  int last = -1;  // the latest frame that drew plots, if it is this one or the one before
  for (const PlotDrawn& p : g_plots) last = std::max(last, p.frame);
  std::vector<PlotDrawn> out;
  if (last < now - 1) return out;
  for (const PlotDrawn& p : g_plots)
    if (p.frame == last) out.push_back(p);
  return out;
}

namespace {

// One plot being drawn: what plot() works out in its phases, passed from one to the next.
struct PlotFrame {
  explicit PlotFrame(const PlotSpec& s) : spec(s) {}
  const PlotSpec& spec;
  std::vector<SeriesView> views;  // plot_series_views(spec)
  Style st;
  Rect box;                       // the whole item
  float W = 0, H = 0;             // its size
  AxisKind kx = AxisKind::Linear, ky = AxisKind::Linear;
  AxisRange xr, yr;               // the data's ranges (with markers and fixed ends)
  bool has_data = false;
  // lay_out: the axes' rectangle and their ticks, what is shown
  Rect ax;
  Axis xa, ya;
  bool show_title = false, show_xl = false, show_yl = false, show_ticks = false, legend_outside = false;
  // The legend goes outside the axes, at their right, although the spec asks for a corner: every corner had
  // data under it (set by plot(), which then lays the plot out again).
  bool legend_out_forced = false;
  // place_legend
  Legend legend;
  Rect legend_box;
  int legend_hides = 0;           // data points under the legend's box
};

// The plot's colours and sizes, from the ImGui style and the font size of the moment.
Style plot_style() {
  Style st;
  st.fs = ImGui::GetFontSize();
  st.pad = std::max(2.f, std::floor(st.fs * 0.3f));
  st.tick_len = std::max(3.f, std::floor(st.fs * 0.3f));
  st.point_r = 1.5f + st.fs * 0.1f;
  st.ink = ImGui::GetColorU32(ImGuiCol_Text);
  st.faint = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  const ImVec4 child_bg = ImGui::GetStyleColorVec4(ImGuiCol_ChildBg);
  // White, as child windows are (the scene's stage is, and its own children draw no background of theirs).
  st.bg = child_bg.w > 0.5f ? ImGui::GetColorU32(ImGuiCol_ChildBg) : IM_COL32(255, 255, 255, 255);
  st.bg |= IM_COL32_A_MASK;  // opaque
  st.border = ImGui::GetColorU32(ImGuiCol_TextDisabled, 0.55f);
  st.grid_major = ImGui::GetColorU32(ImGuiCol_TextDisabled, 0.22f);
  st.grid_minor = ImGui::GetColorU32(ImGuiCol_TextDisabled, 0.09f);
  return st;
}

// Layout: full; then without axis labels; then without title and tick labels (just the axes).
void lay_out(PlotFrame& f) {
  const PlotSpec& spec = f.spec;
  const Style& st = f.st;
  const Rect& box = f.box;
  const float W = f.W;
  const AxisKind kx = f.kx, ky = f.ky;
  const AxisRange xr = f.xr, yr = f.yr;
  Rect& ax = f.ax;
  Axis &xa = f.xa, &ya = f.ya;
  bool &show_title = f.show_title, &show_xl = f.show_xl, &show_yl = f.show_yl, &show_ticks = f.show_ticks,
       &legend_outside = f.legend_outside;
  const float fs = st.fs, pad = st.pad;
  for (int stage = 0; stage < 3; ++stage) {
    show_title = !spec.title.empty() && stage < 2;
    show_xl = !spec.x_label.empty() && stage == 0;
    show_yl = !spec.y_label.empty() && stage == 0;
    show_ticks = stage < 2;
    const float top = (show_title ? fs + pad : 0.f) + (show_ticks ? std::ceil(fs * 0.5f) + 1 : 1.f);
    const float bottom = show_ticks ? st.tick_len + 2 + fs + (show_xl ? pad + fs : 0.f) + 1 : 1.f;
    ax.y0 = box.y0 + top;
    ax.y1 = box.y1 - bottom;
    legend_outside = false;
    float right = show_ticks ? pad : 1.f;
    if ((spec.legend == PlotLegend::Outside || f.legend_out_forced) && show_ticks) {
      const Legend L = make_legend(spec, st, W * 0.35f, box.y1 - ax.y0, true);
      if (!L.series.empty() && L.w + pad <= W * 0.35f) {
        legend_outside = true;
        right += L.w + pad;
      }
    }
    if (stage == 2) {
      ax = Rect{box.x0 + 1, box.y0 + 1, box.x1 - 1, box.y1 - 1};
      xa = make_axis(kx, xr, ax.x0, ax.x1, fs * 4.5f, [](float) { return 0.f; });
      ya = make_axis(ky, yr, ax.y1, ax.y0, fs * 2.2f, [](float) { return 0.f; });
      break;
    }
    ya = make_axis(ky, yr, ax.y1, ax.y0, fs * 2.2f, [&](float) { return fs * 1.15f; });
    const float left = pad + (show_yl ? fs + pad : 0.f) + ya.label_w + st.tick_len + 3;
    ax.x0 = box.x0 + left;
    ax.x1 = box.x1 - right;
    if (ax.w() >= fs * 2) {
      xa = make_axis(kx, xr, ax.x0, ax.x1, fs * 4.5f, [&](float lw) { return lw + fs; });
      // The last label is centred on its tick: leave room for its right half.
      float overflow = 0;
      for (const Tick& t : xa.ticks)
        if (!t.label.empty())
          overflow = std::max(overflow, static_cast<float>(xa.scale.to_pixel(t.value)) + text_width(t.label) * 0.5f -
                                            (box.x1 - right + pad - 1));
      if (overflow > 0) {
        ax.x1 -= overflow;
        if (ax.w() >= fs * 2) xa = make_axis(kx, xr, ax.x0, ax.x1, fs * 4.5f, [&](float lw) { return lw + fs; });
      }
    }
    if (ax.w() >= fs * 2 && ax.h() >= fs * 1.5f) break;
  }
  ax.x0 = std::floor(ax.x0);
  ax.y0 = std::floor(ax.y0);
  ax.x1 = std::max(ax.x0 + 1, std::floor(ax.x1));
  ax.y1 = std::max(ax.y0 + 1, std::floor(ax.y1));
  xa.scale = make_scale(kx, xa.scale.lo, xa.scale.hi, ax.x0, ax.x1);
  ya.scale = make_scale(ky, ya.scale.lo, ya.scale.hi, ax.y1, ax.y0);
}

// Grid (minor lines closer than 4 pixels to the previous line are left out).
void draw_grid(ImDrawList* dl, const PlotFrame& f) {
  const Style& st = f.st;
  const Rect& ax = f.ax;
  const AxisScale &xs = f.xa.scale, &ys = f.ya.scale;
  const Axis &xa = f.xa, &ya = f.ya;
  float last = -kInf;
  for (const Tick& t : xa.ticks) {
    const float x = std::floor(static_cast<float>(xs.to_pixel(t.value))) + 0.5f;
    if (x <= ax.x0 + 0.5f || x >= ax.x1 - 0.5f || (!t.major && x - last < 4)) continue;
    dl->AddLine(ImVec2(x, ax.y0), ImVec2(x, ax.y1), t.major ? st.grid_major : st.grid_minor);
    last = x;
  }
  last = kInf;
  for (const Tick& t : ya.ticks) {  // ascending values: bottom to top
    const float y = std::floor(static_cast<float>(ys.to_pixel(t.value))) + 0.5f;
    if (y <= ax.y0 + 0.5f || y >= ax.y1 - 0.5f || (!t.major && last - y < 4)) continue;
    dl->AddLine(ImVec2(ax.x0, y), ImVec2(ax.x1, y), t.major ? st.grid_major : st.grid_minor);
    last = y;
  }
}

// Where the legend goes (drawn last, over everything but the tooltip): in the corner the plot asks for, unless
// data lie under it there; then in the corner that hides the least (the asked one on a tie). When every corner
// hides data, plot() lays the plot out again with the legend outside (legend_out_forced), where it fits.
void place_legend(PlotFrame& f) {
  const PlotSpec& spec = f.spec;
  const Style& st = f.st;
  const Rect &box = f.box, &ax = f.ax;
  const float W = f.W, pad = st.pad;
  Legend& legend = f.legend;
  Rect& legend_box = f.legend_box;
  if (f.legend_outside) {
    legend = make_legend(spec, st, W * 0.35f, box.y1 - ax.y0, true);
    legend_box = Rect{box.x1 - legend.w - 1, ax.y0, box.x1 - 1, ax.y0 + legend.h};
  } else if (f.show_ticks) {
    legend = make_legend(spec, st, ax.w() * 0.55f, ax.h() * 0.6f, false);
    const auto corner = [&](PlotLegend c) {
      const bool left = c == PlotLegend::TopLeft || c == PlotLegend::BottomLeft;
      const bool low = c == PlotLegend::BottomLeft || c == PlotLegend::BottomRight;
      const float lx = std::floor(left ? ax.x0 + pad : ax.x1 - pad - legend.w);
      const float ly = std::floor(low ? ax.y1 - pad - legend.h : ax.y0 + pad);
      return Rect{lx, ly, lx + legend.w, ly + legend.h};
    };
    const auto under_box = [&](const Rect& r) { return data_under(f.views, f.xa.scale, f.ya.scale, r.x0, r.y0, r.x1, r.y1); };
    legend_box = corner(spec.legend);
    int least = under_box(legend_box);
    for (PlotLegend c : {PlotLegend::TopLeft, PlotLegend::TopRight, PlotLegend::BottomLeft, PlotLegend::BottomRight}) {
      if (least == 0) break;
      const Rect r = corner(c);
      const int under = under_box(r);
      if (under < least) least = under, legend_box = r;
    }
    f.legend_hides = least;
  }
}

// Series, then markers, inside the axes (clear of a legend drawn over them), and the axes' border.
void draw_data(ImDrawList* dl, const PlotFrame& f) {
  const PlotSpec& spec = f.spec;
  const std::vector<SeriesView>& views = f.views;
  const Style& st = f.st;
  const Rect& ax = f.ax;
  const AxisScale &xs = f.xa.scale, &ys = f.ya.scale;
  const float fs = st.fs;
  std::vector<Rect> avoid;
  if (!f.legend.series.empty() && !f.legend_outside) avoid.push_back(f.legend_box);

  dl->PushClipRect(ImVec2(ax.x0, ax.y0), ImVec2(ax.x1, ax.y1), true);
  for (size_t i = 0; i < spec.series.size(); ++i)
    if (spec.series[i].bars) draw_series(dl, spec.series[i], views[i], series_color(spec, i), xs, ys, ax, st);
  for (size_t i = 0; i < spec.series.size(); ++i)
    if (!spec.series[i].bars) draw_series(dl, spec.series[i], views[i], series_color(spec, i), xs, ys, ax, st);
  draw_markers(dl, spec, views, xs, ys, ax, avoid, f.show_ticks, st);
  if (!f.has_data && !spec.empty_text.empty()) {
    const std::string s = fit(spec.empty_text, ax.w() - 4);
    text_at(dl, (ax.x0 + ax.x1 - text_width(s)) * 0.5f, (ax.y0 + ax.y1 - fs) * 0.5f, st.faint, s);
  }
  dl->PopClipRect();
  dl->AddRect(ImVec2(ax.x0, ax.y0), ImVec2(ax.x1 + 1, ax.y1 + 1), st.border);
}

// Ticks and their labels (a label that would touch the previous one is left out).
void draw_ticks(ImDrawList* dl, const PlotFrame& f) {
  const Style& st = f.st;
  const Rect &box = f.box, &ax = f.ax;
  const AxisScale &xs = f.xa.scale, &ys = f.ya.scale;
  const Axis &xa = f.xa, &ya = f.ya;
  const float fs = st.fs;
  std::vector<Rect> ylabels;
  float last_top = kInf, last_tick = kInf;
  for (const Tick& t : ya.ticks) {  // ascending values: bottom to top
    const float y = std::floor(static_cast<float>(ys.to_pixel(t.value))) + 0.5f;
    if (y < ax.y0 - 0.5f || y > ax.y1 + 1.5f || (!t.major && last_tick - y < 4)) continue;
    last_tick = y;
    dl->AddLine(ImVec2(ax.x0 - (t.major ? st.tick_len : st.tick_len * 0.5f), y), ImVec2(ax.x0, y), st.border);
    if (t.label.empty()) continue;
    const float w = text_width(t.label);
    const Rect r{ax.x0 - st.tick_len - 3 - w, y - fs * 0.5f, ax.x0 - st.tick_len - 3, y + fs * 0.5f};
    if (r.y1 > last_top - 1) continue;
    text_at(dl, r.x0, r.y0, st.faint, t.label);
    ylabels.push_back(r);
    last_top = r.y0;
  }
  float last_right = -kInf;
  last_tick = -kInf;
  for (const Tick& t : xa.ticks) {
    const float x = std::floor(static_cast<float>(xs.to_pixel(t.value))) + 0.5f;
    if (x < ax.x0 - 0.5f || x > ax.x1 + 1.5f || (!t.major && x - last_tick < 4)) continue;
    last_tick = x;
    dl->AddLine(ImVec2(x, ax.y1 + 1), ImVec2(x, ax.y1 + 1 + (t.major ? st.tick_len : st.tick_len * 0.5f)), st.border);
    if (t.label.empty()) continue;
    const float w = text_width(t.label);
    const float x0 = std::min(x - w * 0.5f, box.x1 - w), y0 = ax.y1 + st.tick_len + 2;
    const Rect r{x0, y0, x0 + w, y0 + fs};
    bool clash = r.x0 < last_right + fs * 0.5f || r.x0 < box.x0;
    for (const Rect& yl : ylabels) clash = clash || yl.overlaps(r);
    if (clash) continue;
    text_at(dl, r.x0, r.y0, st.faint, t.label);
    last_right = r.x1;
  }
}

// The title and the axis labels.
void draw_titles(ImDrawList* dl, const PlotFrame& f) {
  const PlotSpec& spec = f.spec;
  const Style& st = f.st;
  const Rect &box = f.box, &ax = f.ax;
  const float W = f.W, fs = st.fs, pad = st.pad;
  const bool show_title = f.show_title, show_xl = f.show_xl, show_yl = f.show_yl;
  if (show_title) {
    const std::string s = fit(spec.title, W);
    const float cx = (ax.x0 + ax.x1) * 0.5f, w = text_width(s);
    text_at(dl, std::clamp(cx - w * 0.5f, box.x0, box.x1 - w), box.y0, st.ink, s);
  }
  if (show_xl) {
    const std::string s = fit(spec.x_label, W);
    const float cx = (ax.x0 + ax.x1) * 0.5f, w = text_width(s);
    text_at(dl, std::clamp(cx - w * 0.5f, box.x0, box.x1 - w), box.y1 - fs - 1, st.ink, s);
  }
  if (show_yl) {
    // A label longer than a short plot's axis takes its column from below the title to above the x label
    // (centred on the axis where it can be) instead of being cut (a projector's 2× text).
    const float y0 = box.y0 + (show_title ? fs + pad : 0.f), y1 = box.y1 - (show_xl ? fs + pad : 0.f);
    const std::string s = fit(spec.y_label, std::max(ax.h(), y1 - y0));
    const float w = text_width(s);
    const float bottom = std::clamp(std::floor((ax.y0 + ax.y1) * 0.5f + w * 0.5f), std::min(y0 + w, y1), std::max(y0 + w, y1));
    text_up(dl, nullptr, ImGui::GetFontSize(), box.x0 + pad, bottom, st.ink, s);
  }
}

// Hover: the point under the mouse (into res), the crosshair and the nearest point of each series; returns
// those points' indices (-1: none), for the read-out.
std::vector<int> hover_points(ImDrawList* dl, const PlotFrame& f, ImVec2 mouse, PlotResult& res) {
  const PlotSpec& spec = f.spec;
  const std::vector<SeriesView>& views = f.views;
  const Style& st = f.st;
  const Rect& ax = f.ax;
  const AxisScale &xs = f.xa.scale, &ys = f.ya.scale;
  const float fs = st.fs;
  const std::vector<int> near = nearest_by_x(views, xs, ys, mouse);
  const float hit = std::max(6.f, fs * 0.5f);
  double best = kInf;
  for (size_t s = 0; s < views.size(); ++s) {
    const SeriesView& v = views[s];
    for (size_t i = 0; i < v.n; ++i) {
      double d;
      if (v.bars) {
        if (!xs.plottable(v.x[i]) || !xs.plottable(v.x[i + 1]) || !ys.plottable(v.y[i])) continue;
        const double a = xs.to_pixel(v.x[i]), b = xs.to_pixel(v.x[i + 1]);
        const double top = ys.to_pixel(v.y[i]);
        const double base = bar_base(ys, ax);
        if (mouse.x < std::min(a, b) || mouse.x > std::max(a, b) || mouse.y < std::min(top, base) - 1 ||
            mouse.y > std::max(top, base) + 1)
          continue;
        d = hit;  // a point nearby wins over the bar behind it
      } else {
        if (!xs.plottable(v.x[i]) || !ys.plottable(v.y[i])) continue;
        const double dx = xs.to_pixel(v.x[i]) - mouse.x, dy = ys.to_pixel(v.y[i]) - mouse.y;
        d = std::sqrt(dx * dx + dy * dy);
        if (d > hit) continue;
      }
      if (d < best) {
        best = d;
        res.series = static_cast<int>(s);
        res.point = static_cast<int>(i);
      }
    }
  }
  if (spec.hover_readout) {
    dl->PushClipRect(ImVec2(ax.x0, ax.y0), ImVec2(ax.x1, ax.y1), true);
    const ImU32 cross = ImGui::GetColorU32(ImGuiCol_TextDisabled, 0.6f);
    dl->AddLine(ImVec2(std::floor(mouse.x) + 0.5f, ax.y0), ImVec2(std::floor(mouse.x) + 0.5f, ax.y1), cross);
    dl->AddLine(ImVec2(ax.x0, std::floor(mouse.y) + 0.5f), ImVec2(ax.x1, std::floor(mouse.y) + 0.5f), cross);
    for (size_t s = 0; s < views.size(); ++s) {
      const int i = near[s];
      if (i < 0) continue;
      const SeriesView& v = views[s];
      const ImU32 col = series_color(spec, s);
      const bool hot = res.series == static_cast<int>(s) && res.point == i;
      if (v.bars) {
        const auto cx = [&](double px) { return static_cast<float>(std::clamp(px, ax.x0 - 2.0, ax.x1 + 2.0)); };
        const auto cy = [&](double py) { return static_cast<float>(std::clamp(py, ax.y0 - 2.0, ax.y1 + 2.0)); };
        const double a = xs.to_pixel(v.x[i]), b = xs.to_pixel(v.x[i + 1]), top = ys.to_pixel(v.y[i]);
        const double base = bar_base(ys, ax);
        dl->AddRect(ImVec2(cx(std::min(a, b)), cy(std::min(top, base))),
                    ImVec2(cx(std::max(a, b)), cy(std::max(top, base))), col, 0, 0, hot ? 2.5f : 1.5f);
      } else {
        const ImVec2 p(static_cast<float>(xs.to_pixel(v.x[i])), static_cast<float>(ys.to_pixel(v.y[i])));
        const float rad = point_radius(spec.series[s], st) + 2;
        if (p.x < ax.x0 - rad || p.x > ax.x1 + rad || p.y < ax.y0 - rad || p.y > ax.y1 + rad)
          continue;  // off the axes
        dl->AddCircleFilled(p, rad, with_alpha(st.bg, 0.9f));
        dl->AddCircle(p, rad, col, 0, hot ? 2.5f : 1.5f);
      }
    }
    dl->PopClipRect();
  }
  return near;
}

// The read-out beside the mouse: where it is, and the nearest point of each series.
void hover_tooltip(const PlotFrame& f, const std::vector<int>& near, const PlotResult& res) {
  const PlotSpec& spec = f.spec;
  const std::vector<SeriesView>& views = f.views;
  const float fs = f.st.fs;
  ImGui::BeginTooltip();
  const std::string xl = spec.x_label.empty() ? "x" : spec.x_label;
  const std::string yl = spec.y_label.empty() ? "y" : spec.y_label;
  ImGui::TextDisabled("%s = %s, %s = %s", xl.c_str(), format_readout(res.x, true).c_str(), yl.c_str(),
                      format_readout(res.y, true).c_str());
  int lines = 0;
  for (size_t s = 0; s < views.size(); ++s) {
    const int i = near[s];
    if (i < 0) continue;
    if (++lines > 12) {
      ImGui::TextDisabled("…");
      break;
    }
    const SeriesView& v = views[s];
    std::string t = spec.series[s].name.empty() ? std::string() : spec.series[s].name + ":  ";
    if (v.bars)
      t += "[" + format_readout(v.x[i], true) + ", " + format_readout(v.x[i + 1], true) + "]  " +
           format_readout(v.y[i], true);
    else
      t += "(" + format_readout(v.x[i], true) + ", " + format_readout(v.y[i], true) + ")";
    ImDrawList* tl = ImGui::GetWindowDrawList();
    const ImVec2 c = ImGui::GetCursorScreenPos();
    const float q = std::floor(fs * 0.3f);
    tl->AddRectFilled(ImVec2(c.x, c.y + fs * 0.5f - q), ImVec2(c.x + 2 * q, c.y + fs * 0.5f + q),
                      series_color(spec, s), 2.f);
    ImGui::Dummy(ImVec2(2 * q, fs));
    ImGui::SameLine();
    ImGui::TextUnformatted(t.c_str());
  }
  ImGui::EndTooltip();
}

}  // namespace

// A plot in phases: the box and the data's ranges, the layout (lay_out), then the grid, the legend's place,
// the data, the ticks, the titles, the hover and the legend, each drawn over the one before; the read-out last.
PlotResult plot(const char* id, const PlotSpec& spec, ImVec2 size) {
  PlotResult res;
  ImGui::PushID(id ? id : "plot");
  PlotFrame f(spec);
  f.st = plot_style();
  const Style& st = f.st;

  // The box.
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  float W = size.x > 0 ? size.x : avail.x + size.x;
  float H = size.y > 0 ? size.y : size.y < 0 ? avail.y + size.y : st.fs * 14;
  W = std::floor(std::max(W, 1.f));
  H = std::floor(std::max(H, 1.f));
  ImVec2 o = ImGui::GetCursorScreenPos();
  o = ImVec2(std::floor(o.x), std::floor(o.y));
  ImGui::InvisibleButton("##plot", ImVec2(W, H));
  const bool item_hovered = ImGui::IsItemHovered();
  const bool item_clicked = ImGui::IsItemClicked(ImGuiMouseButton_Left);
  const bool visible = ImGui::IsItemVisible();
  f.box = Rect{o.x, o.y, o.x + W, o.y + H};
  f.W = W;
  f.H = H;

  // Ranges.
  f.views = plot_series_views(spec);
  const DataRange dr = data_range(f.views, spec.x_log, spec.y_log);
  bool any_bars = false;
  for (const SeriesView& v : f.views) any_bars = any_bars || (v.bars && v.n > 0);
  f.kx = spec.x_log ? AxisKind::Log10 : AxisKind::Linear;
  f.ky = spec.y_log ? AxisKind::Log10 : AxisKind::Linear;
  f.xr = auto_range(f.kx, dr.x, spec.x_markers, spec.x_min, spec.x_max, false);
  f.yr = auto_range(f.ky, dr.y, spec.y_markers, spec.y_min, spec.y_max, any_bars);
  f.has_data = dr.x.valid && dr.y.valid;

  lay_out(f);
  if (spec.legend != PlotLegend::None && spec.legend != PlotLegend::Outside) {
    place_legend(f);
    // Data under the legend in every corner: the legend moves out, at the right of the axes, where it fits.
    if (f.legend_hides > 0 && !f.legend.series.empty()) {
      f.legend_out_forced = true;
      lay_out(f);
    }
  }
  const Rect& ax = f.ax;
  res.plot_min = ImVec2(ax.x0, ax.y0);
  res.plot_max = ImVec2(ax.x1, ax.y1);
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  res.hovered = item_hovered && ax.contains(mouse);
  res.clicked = res.hovered && item_clicked;
  if (res.hovered) {
    res.x = f.xa.scale.to_value(mouse.x);
    res.y = f.ya.scale.to_value(mouse.y);
  }
  if (!visible) {
    ImGui::PopID();
    return res;
  }
  remember_plot(spec.title.empty() ? std::string(id ? id : "plot") : spec.title, f.box);

  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->PushClipRect(ImVec2(f.box.x0, f.box.y0), ImVec2(f.box.x1, f.box.y1), true);
  dl->AddRectFilled(ImVec2(ax.x0, ax.y0), ImVec2(ax.x1, ax.y1), st.bg);
  if (spec.grid) draw_grid(dl, f);
  if (spec.legend != PlotLegend::None) place_legend(f);
  draw_data(dl, f);
  if (f.show_ticks) draw_ticks(dl, f);
  draw_titles(dl, f);
  std::vector<int> near;
  if (res.hovered) near = hover_points(dl, f, mouse, res);
  if (!f.legend.series.empty()) draw_legend(dl, spec, f.legend, f.legend_box.x0, f.legend_box.y0, st);
  if (res.hovered && spec.hover_readout) hover_tooltip(f, near, res);
  dl->PopClipRect();
  ImGui::PopID();
  return res;
}

}  // namespace ap
