#include "plot_scale.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <limits>

namespace ap {

namespace {

// d × 10^e, rounded once: dividing by an exact power of ten keeps 0.3 as 0.3 (3 × 0.1 would not).
double scaled(double d, int e) { return e >= 0 ? d * std::pow(10.0, e) : d / std::pow(10.0, -e); }

// floor(log10(a)) for a > 0, robust against log10 rounding (e.g. log10(1000) = 2.9999999).
int decade_of(double a) {
  int e = static_cast<int>(std::floor(std::log10(a)));
  if (scaled(1, e + 1) <= a)
    ++e;
  else if (scaled(1, e) > a)
    --e;
  return e;
}

std::string strip_zeros(std::string s) {
  if (s.find('.') == std::string::npos) return s;
  while (!s.empty() && s.back() == '0') s.pop_back();
  if (!s.empty() && s.back() == '.') s.pop_back();
  return s;
}

std::string fixed(double a, int decimals) {
  char buf[400];
  std::snprintf(buf, sizeof buf, "%.*f", std::clamp(decimals, 0, 17), a);
  return strip_zeros(buf);
}

const char* minus_sign(bool unicode) { return unicode ? "\xE2\x88\x92" : "-"; }

// a > 0 as "m e k" with `decimals` decimals of the mantissa.
std::string scientific(double a, int e, int decimals, bool unicode_minus) {
  std::string m = fixed(a / scaled(1, e), decimals);
  if (std::atof(m.c_str()) >= 10.0) {  // 9.96e3 rounded up to "10": 1e4
    ++e;
    m = fixed(a / scaled(1, e), decimals);
  }
  return m + "e" + (e < 0 ? minus_sign(unicode_minus) : "") + std::to_string(std::abs(e));
}

std::string non_finite(double v, bool unicode_minus) {
  if (std::isnan(v)) return "NaN";
  if (v > 0) return unicode_minus ? "\xE2\x88\x9E" : "inf";
  return unicode_minus ? "\xE2\x88\x92\xE2\x88\x9E" : "-inf";
}

bool same_x(double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); }
// Total order for CSV rows: -inf < finite < +inf < NaN.
bool x_less(double a, double b) {
  if (std::isnan(a)) return false;
  if (std::isnan(b)) return true;
  return a < b;
}

}  // namespace

// ---- scales -----------------------------------------------------------------------------------------------

double AxisScale::to_pixel(double v) const {
  double t;
  if (kind == AxisKind::Log10) {
    if (std::isnan(v) || v < 0) return kNaN;
    const double l0 = std::log10(lo), l1 = std::log10(hi);
    t = v == 0 ? -kInf : (std::log10(v) - l0) / (l1 - l0);
  } else {
    t = (v - lo) / (hi - lo);
  }
  if (std::isinf(t)) return (t > 0) == (p1 > p0) ? kInf : -kInf;
  return p0 + t * (p1 - p0);
}

double AxisScale::to_value(double pixel) const {
  const double t = (pixel - p0) / (p1 - p0);
  if (kind == AxisKind::Log10) {
    const double l0 = std::log10(lo), l1 = std::log10(hi);
    return std::pow(10.0, l0 + t * (l1 - l0));
  }
  return lo + t * (hi - lo);
}

bool AxisScale::plottable(double v) const { return std::isfinite(v) && (kind == AxisKind::Linear || v > 0); }

int data_under(const std::vector<SeriesView>& series, const AxisScale& xs, const AxisScale& ys, float x0, float y0,
               float x1, float y1) {
  const auto inside = [&](double px, double py) { return px >= x0 && px <= x1 && py >= y0 && py <= y1; };
  int n = 0;
  for (const SeriesView& v : series) {
    double last_x = 0, last_y = 0;
    bool last = false;
    for (size_t k = 0; k < v.n; ++k) {
      const double x = v.bars ? 0.5 * (v.x[k] + v.x[k + 1]) : v.x[k], y = v.y[k];  // bars: n bins, n + 1 edges
      if (!xs.plottable(x) || !ys.plottable(y)) {
        last = false;
        continue;
      }
      const double px = xs.to_pixel(x), py = ys.to_pixel(y);
      n += inside(px, py);
      if (last && !v.bars) n += inside(0.5 * (px + last_x), 0.5 * (py + last_y));
      last_x = px, last_y = py, last = true;
    }
  }
  return n;
}

AxisScale make_scale(AxisKind kind, double lo, double hi, double p0, double p1) {
  const AxisRange r = sanitize_range(kind, lo, hi);
  AxisScale s;
  s.kind = kind;
  s.lo = r.lo;
  s.hi = r.hi;
  s.p0 = p0;
  s.p1 = p1 == p0 ? p0 + 1 : p1;
  return s;
}

AxisRange sanitize_range(AxisKind kind, double lo, double hi) {
  AxisRange r;
  r.valid = true;
  if (kind == AxisKind::Log10) {
    const bool ok_lo = std::isfinite(lo) && lo > 0, ok_hi = std::isfinite(hi) && hi > 0;
    if (!ok_lo && !ok_hi) {
      r.lo = 1;
      r.hi = 10;
      return r;
    }
    if (!ok_lo) lo = hi;
    if (!ok_hi) hi = lo;
    if (lo > hi) std::swap(lo, hi);
    lo = std::max(lo, 1e-300);
    hi = std::min(hi, 1e300);
    if (std::log10(hi) - std::log10(lo) < 1e-12) {
      const double c = std::sqrt(lo) * std::sqrt(hi), f = std::sqrt(10.0);
      lo = c / f;
      hi = c * f;
    }
    r.lo = lo;
    r.hi = hi;
    return r;
  }
  const bool ok_lo = std::isfinite(lo), ok_hi = std::isfinite(hi);
  if (!ok_lo && !ok_hi) {
    r.lo = 0;
    r.hi = 1;
    return r;
  }
  if (!ok_lo) lo = hi;
  if (!ok_hi) hi = lo;
  if (lo > hi) std::swap(lo, hi);
  lo = std::max(lo, -1e300);
  hi = std::min(hi, 1e300);
  if (hi - lo <= 1e-12 * std::max(std::fabs(lo), std::fabs(hi))) {
    const double c = lo / 2 + hi / 2, d = c == 0 ? 1.0 : std::fabs(c) * 0.1;
    lo = c - d;
    hi = c + d;
  }
  r.lo = lo;
  r.hi = hi;
  return r;
}

AxisRange pad_range(AxisKind kind, AxisRange r, double frac_lo, double frac_hi) {
  // Kept within the bounds sanitize_range allows (±1e300; 1e-300 .. 1e300 on a log axis).
  if (kind == AxisKind::Log10 && r.lo > 0 && r.hi > 0) {
    const double l0 = std::log10(r.lo), l1 = std::log10(r.hi), w = l1 - l0;
    r.lo = std::pow(10.0, std::max(-300.0, l0 - w * frac_lo));
    r.hi = std::pow(10.0, std::min(300.0, l1 + w * frac_hi));
  } else {
    const double w = r.hi - r.lo;
    r.lo = std::max(-1e300, r.lo - w * frac_lo);
    r.hi = std::min(1e300, r.hi + w * frac_hi);
  }
  return r;
}

// ---- ticks ------------------------------------------------------------------------------------------------

namespace {

// The 1-2-5 step as mantissa × 10^exp.
struct Step {
  int m = 1, e = 0;
  double value() const { return scaled(m, e); }
};

Step nice_step_parts(double span, int target) {
  Step s;
  target = std::max(1, target);
  const double raw = span / target;
  if (!(raw > 0) || !std::isfinite(raw)) return s;
  const int e = decade_of(raw);
  const double f = raw / scaled(1, e);
  if (f < 1.5)
    s = {1, e};
  else if (f < 3)
    s = {2, e};
  else if (f < 7)
    s = {5, e};
  else
    s = {1, e + 1};
  return s;
}

}  // namespace

double nice_step(double span, int target) { return nice_step_parts(span, target).value(); }

std::vector<Tick> linear_ticks(double lo, double hi, int target, bool unicode_minus) {
  std::vector<Tick> out;
  if (!std::isfinite(lo) || !std::isfinite(hi)) return out;
  if (lo > hi) std::swap(lo, hi);
  if (lo == hi) {
    out.push_back({lo, true, format_tick(lo, 0, unicode_minus)});
    return out;
  }
  const Step st = nice_step_parts(hi - lo, target);
  const double step = st.value();
  const double k0 = std::ceil(lo / step - 1e-9), k1 = std::floor(hi / step + 1e-9);
  if (!(k1 - k0 < 10000)) return out;
  for (double k = k0; k <= k1; k += 1) {
    double v = scaled(k * st.m, st.e);
    if (std::fabs(v) < step * 1e-9) v = 0;
    out.push_back({v, true, format_tick(v, step, unicode_minus)});
  }
  return out;
}

std::vector<Tick> log_ticks(double lo, double hi, int target, bool unicode_minus) {
  std::vector<Tick> out;
  if (!std::isfinite(lo) || !std::isfinite(hi) || lo <= 0 || hi <= 0) return out;
  if (lo > hi) std::swap(lo, hi);
  target = std::max(1, target);
  const int limit = static_cast<int>(std::floor(1.5 * target)) + 1;
  const double tlo = lo * (1 - 1e-9), thi = hi * (1 + 1e-9);
  const int e0 = decade_of(lo), e1 = decade_of(hi);
  const int decades = e1 - e0;  // powers of ten strictly inside are at most this many (+1)
  const auto in = [&](double v) { return v >= tlo && v <= thi; };
  const auto label = [&](double v) { return format_tick(v, scaled(1, decade_of(v)), unicode_minus); };

  // A: 1, 2, 5 per decade.
  if (decades <= 2 * limit) {
    std::vector<Tick> a;
    int labelled = 0;
    for (int e = e0; e <= e1; ++e)
      for (int d = 1; d <= 9; ++d) {
        const double v = scaled(d, e);
        if (!in(v)) continue;
        const bool lab = d == 1 || d == 2 || d == 5;
        labelled += lab;
        a.push_back({v, lab, lab ? label(v) : std::string()});
      }
    if (labelled < 2) return linear_ticks(lo, hi, target, unicode_minus);
    int powers = 0;
    for (int e = e0; e <= e1; ++e) powers += in(scaled(1, e));
    if (labelled <= limit || powers < 2) return a;
  }
  // B: every decade, 2..9 as minors while that stays readable.
  int powers = 0;
  for (int e = e0; e <= e1; ++e) powers += in(scaled(1, e));
  if (powers <= limit) {
    for (int e = e0; e <= e1; ++e)
      for (int d = 1; d <= 9; ++d) {
        const double v = scaled(d, e);
        if (!in(v) || (d > 1 && decades > 12)) continue;
        out.push_back({v, d == 1, d == 1 ? label(v) : std::string()});
      }
    return out;
  }
  // C: every m-th decade labelled.
  int m = 2;
  for (int cand : {2, 3, 5, 10, 20, 30, 50, 100, 200, 300, 500, 1000}) {
    m = cand;
    int count = 0;
    for (int e = e0; e <= e1; ++e) count += in(scaled(1, e)) && ((e % m) + m) % m == 0;
    if (count <= limit) break;
  }
  for (int e = e0; e <= e1; ++e) {
    const double v = scaled(1, e);
    if (!in(v)) continue;
    const bool lab = ((e % m) + m) % m == 0;
    out.push_back({v, lab, lab ? label(v) : std::string()});
  }
  return out;
}

std::vector<Tick> make_ticks(AxisKind kind, double lo, double hi, int target, bool unicode_minus) {
  return kind == AxisKind::Log10 ? log_ticks(lo, hi, target, unicode_minus)
                                 : linear_ticks(lo, hi, target, unicode_minus);
}

// ---- labels -----------------------------------------------------------------------------------------------

std::string format_tick(double v, double step, bool unicode_minus) {
  if (!std::isfinite(v)) return non_finite(v, unicode_minus);
  const double a = std::fabs(v);
  if (a == 0 || (step > 0 && std::isfinite(step) && a < step * 1e-9)) return "0";
  if (!(step > 0) || !std::isfinite(step)) step = scaled(1, decade_of(a) - 2);  // 3 significant digits
  const int se = decade_of(step);
  const std::string sign = v < 0 ? minus_sign(unicode_minus) : "";
  std::string body;
  const int e = decade_of(a);
  if ((a < 0.01 || a >= 1e6) && e - se <= 3) {
    body = scientific(a, e, std::max(0, e - se), unicode_minus);
  } else if (a >= 1000 && a < 1e6 && se >= 2) {
    body = fixed(a / 1000, std::max(0, 3 - se));
    if (std::atof(body.c_str()) >= 1000)
      body = scientific(a, e, std::max(0, e - se), unicode_minus);
    else
      body += "k";
  } else {
    body = fixed(a, std::max(0, -se));
  }
  return sign + body;
}

std::string format_readout(double v, bool unicode_minus) {
  if (!std::isfinite(v)) return non_finite(v, unicode_minus);
  const double a = std::fabs(v);
  if (a == 0) return "0";
  const std::string sign = v < 0 ? minus_sign(unicode_minus) : "";
  const int e = decade_of(a);
  if (a >= 1e6 || a < 1e-3) return sign + scientific(a, e, 3, unicode_minus);
  std::string s = fixed(a, std::max(0, 3 - e));
  if (std::atof(s.c_str()) >= 1e6) return sign + scientific(a, e, 3, unicode_minus);
  return sign + s;
}

// ---- data -------------------------------------------------------------------------------------------------

DataRange data_range(const std::vector<SeriesView>& series, bool x_log, bool y_log) {
  DataRange r;
  r.x = {kInf, -kInf, false};
  r.y = {kInf, -kInf, false};
  const auto okx = [&](double v) { return std::isfinite(v) && (!x_log || v > 0); };
  const auto oky = [&](double v) { return std::isfinite(v) && (!y_log || v > 0); };
  const auto add = [](AxisRange& ar, double v) {
    ar.lo = std::min(ar.lo, v);
    ar.hi = std::max(ar.hi, v);
    ar.valid = true;
  };
  for (const SeriesView& s : series) {
    if (!s.x || !s.y) continue;
    for (size_t i = 0; i < s.n; ++i) {
      if (s.bars) {
        if (!okx(s.x[i]) || !okx(s.x[i + 1]) || !oky(s.y[i])) continue;
        add(r.x, s.x[i]);
        add(r.x, s.x[i + 1]);
        add(r.y, s.y[i]);
        if (!y_log) add(r.y, 0.0);
      } else {
        if (!okx(s.x[i]) || !oky(s.y[i])) continue;
        add(r.x, s.x[i]);
        add(r.y, s.y[i]);
      }
    }
  }
  if (!r.x.valid) r.x = {0, 1, false};
  if (!r.y.valid) r.y = {0, 1, false};
  return r;
}

// ---- CSV --------------------------------------------------------------------------------------------------

std::string csv_field(const std::string& s) {
  const bool quote =
      s.find_first_of(",\"\r\n") != std::string::npos || (!s.empty() && (s.front() == ' ' || s.back() == ' '));
  if (!quote) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string csv_number(double v) {
  if (!std::isfinite(v)) return std::isnan(v) ? "NaN" : v > 0 ? "inf" : "-inf";
  char buf[64];
  int p = 1;
  for (; p < 17; ++p) {
    std::snprintf(buf, sizeof buf, "%.*g", p, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  // %g switches to an exponent once the exponent reaches the precision ("1e+01"): print whole numbers of up
  // to 17 digits in full ("10", "250000").
  if (v != 0) p = std::max(p, std::min(17, decade_of(std::fabs(v)) + 1));
  std::snprintf(buf, sizeof buf, "%.*g", p, v);
  return buf;
}

std::string series_csv(const std::vector<SeriesView>& series) {
  std::string out = "x";
  for (size_t s = 0; s < series.size(); ++s) {
    const char* nm = series[s].name;
    out += ',';
    out += csv_field(nm && *nm ? std::string(nm) : "y" + std::to_string(s + 1));
  }
  out += '\n';
  const auto valid = [](const SeriesView& s) { return s.x && s.y; };

  // Same x everywhere (and no bars): rows in the given order.
  bool same = !series.empty();
  for (const SeriesView& s : series) {
    if (!valid(s) || s.bars || s.n != series[0].n) {
      same = false;
      break;
    }
    for (size_t i = 0; i < s.n && same; ++i) same = same_x(s.x[i], series[0].x[i]);
  }
  if (same) {
    for (size_t i = 0; i < series[0].n; ++i) {
      out += csv_number(series[0].x[i]);
      for (const SeriesView& s : series) out += ',' + csv_number(s.y[i]);
      out += '\n';
    }
    return out;
  }

  // Union of x: (x, occurrence) identifies a row.
  struct Cell {
    double x;
    size_t occ, series;
    double y;
    bool has;
  };
  std::vector<Cell> cells;
  for (size_t si = 0; si < series.size(); ++si) {
    const SeriesView& s = series[si];
    if (!valid(s)) continue;
    std::vector<Cell> mine;
    for (size_t i = 0; i < s.n; ++i) mine.push_back({s.x[i], 0, si, s.y[i], true});
    if (s.bars && s.n > 0) mine.push_back({s.x[s.n], 0, si, 0.0, false});
    std::stable_sort(mine.begin(), mine.end(), [](const Cell& a, const Cell& b) { return x_less(a.x, b.x); });
    for (size_t i = 1; i < mine.size(); ++i)
      if (same_x(mine[i].x, mine[i - 1].x)) mine[i].occ = mine[i - 1].occ + 1;
    cells.insert(cells.end(), mine.begin(), mine.end());
  }
  std::stable_sort(cells.begin(), cells.end(), [](const Cell& a, const Cell& b) {
    if (!same_x(a.x, b.x)) return x_less(a.x, b.x);
    return a.occ < b.occ;
  });
  std::vector<std::string> row(series.size());
  for (size_t i = 0; i < cells.size();) {
    size_t j = i;
    std::fill(row.begin(), row.end(), std::string());
    while (j < cells.size() && same_x(cells[j].x, cells[i].x) && cells[j].occ == cells[i].occ) {
      if (cells[j].has) row[cells[j].series] = csv_number(cells[j].y);
      ++j;
    }
    out += csv_number(cells[i].x);
    for (const std::string& c : row) out += ',' + c;
    out += '\n';
    i = j;
  }
  return out;
}

}  // namespace ap
