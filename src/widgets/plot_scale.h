// The arithmetic of a 2-D plot, without ImGui: axis scales (linear, log10), value <-> pixel mapping, "nice"
// ticks and their labels, the data range of several series, and CSV export. widgets/plot.h draws with it.
// Everything here is a pure function of its arguments (unit-tested in tests/widgets/test_plot_scale.cpp).
#pragma once
#include <cstddef>
#include <limits>
#include <string>
#include <vector>

namespace ap {

// NaN: an axis end or a value taken from the data (none given); ∞: no bound. (Shared by the scales and the plot.)
inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
inline constexpr double kInf = std::numeric_limits<double>::infinity();

enum class AxisKind { Linear, Log10 };

// A closed interval [lo, hi] on one axis. `valid` is false when no data point fell on the axis.
struct AxisRange {
  double lo = 0, hi = 1;
  bool valid = false;
};

// Maps data values to pixels on one axis: lo -> p0, hi -> p1 (p1 < p0 is fine, e.g. a y axis pointing up).
// On a log axis the mapping is linear in log10(value); values <= 0 map to -inf / +inf pixels (not drawable).
struct AxisScale {
  AxisKind kind = AxisKind::Linear;
  double lo = 0, hi = 1;  // data range (make_scale sanitizes it)
  double p0 = 0, p1 = 1;  // pixels

  double to_pixel(double v) const;
  double to_value(double pixel) const;
  // Finite, and positive on a log axis: the value can be placed on this axis at all.
  bool plottable(double v) const;
};

// A scale over [lo, hi] -> [p0, p1], after sanitize_range (so it never divides by zero).
AxisScale make_scale(AxisKind kind, double lo, double hi, double p0, double p1);

// Makes [lo, hi] drawable: orders it; bounds beyond ±1e300 (log: outside 1e-300 .. 1e300) are pulled in;
// a zero-width (or nearly: below 1e-12 of its magnitude) range widens around its value (linear: v ± 10% of
// |v|, or ± 1 at 0; log: a factor √10 each way). A bound that is not finite (or, on a log axis, not
// positive) is replaced by the other one; with neither usable: [0, 1] (linear) or [1, 10] (log). Always valid.
AxisRange sanitize_range(AxisKind kind, double lo, double hi);

// Widens a range by a fraction of its width on each side (in log10 space on a log axis), within ±1e300
// (1e-300 .. 1e300 on a log axis).
AxisRange pad_range(AxisKind kind, AxisRange r, double frac_lo, double frac_hi);

// ---- ticks ------------------------------------------------------------------------------------------------

struct Tick {
  double value = 0;
  bool major = true;  // a grid line and a tick mark; minors get a faint line only
  std::string label;  // empty: not labelled (minor ticks of log axes)
};

// Linear: multiples of a 1-2-5 step (1, 2, 5, 10, 20, ...) giving about `target` ticks inside [lo, hi]
// (never more than 1.5 × target + 1). All ticks are labelled majors.
double nice_step(double span, int target);
std::vector<Tick> linear_ticks(double lo, double hi, int target, bool unicode_minus = false);

// Log10: the first of these that gives at most 1.5 × target labels:
//   few decades   -> 1, 2, 5 × 10^k labelled; 3, 4, 6, 7, 8, 9 × 10^k as unlabelled minors;
//   some decades  -> 10^k labelled; 2..9 × 10^k as unlabelled minors (up to 12 decades);
//   many decades  -> every m-th decade labelled (m = 2, 3, 5, 10, 20, ...), the decades between as minors.
// A range inside one decade with fewer than 2 of the 1-2-5 values falls back to linear_ticks.
std::vector<Tick> log_ticks(double lo, double hi, int target, bool unicode_minus = false);

// unicode_minus: labels as format_tick(..., unicode_minus).
std::vector<Tick> make_ticks(AxisKind kind, double lo, double hi, int target, bool unicode_minus = false);

// ---- labels -----------------------------------------------------------------------------------------------

// A tick label, compact, with as many decimals as `step` (the spacing between labelled ticks) requires:
//   |v| < 0.01        -> "1e-3", "2.5e-4"
//   0.01 <= |v| < 1000 -> "0.05", "0.5", "1", "2.5", "120"
//   1000 <= |v| < 1e6  -> "1k", "2.5k", "250k"
//   |v| >= 1e6         -> "1e6", "2.5e7"
// 0 (or |v| < step / 1e9) prints "0". step <= 0 or non-finite: up to 3 significant digits.
// unicode_minus: negative values (and exponents) use "−" (U+2212, as the rest of the UI) instead of "-".
// Non-finite values print "NaN", "inf", "-inf" (or "∞", "−∞" with unicode_minus).
std::string format_tick(double v, double step, bool unicode_minus = false);

// A value for a hover read-out: 4 significant digits, no padding zeros, exponent as "e6" / "e-3" when
// |v| >= 1e6 or |v| < 1e-3 ("0.7071", "1234", "1.235e6", "3.162e-4").
std::string format_readout(double v, bool unicode_minus = false);

// ---- data -------------------------------------------------------------------------------------------------

// A read-only view of one series. For bars (a histogram), x holds n + 1 bin edges and y the n bin values.
struct SeriesView {
  const char* name = nullptr;
  const double* x = nullptr;
  const double* y = nullptr;
  size_t n = 0;  // number of points (bars: number of bins)
  bool bars = false;
};

// The range of the drawable data of all series: a point counts only when both of its coordinates are
// finite and (on a log axis) positive. Bars: the edges of every counted bin span x, and on a linear y
// axis the baseline 0 is included in y. A range with no counted point is returned with valid = false.
struct DataRange {
  AxisRange x, y;
};
DataRange data_range(const std::vector<SeriesView>& series, bool x_log, bool y_log);

// How much of the data a box [x0, x1] × [y0, y1] in pixels would hide (a legend): the plottable points of every
// series inside it, plus the midpoints of line segments between two plottable points (a steep line crosses a
// box between its points); bars: the top of each bin at its centre.
int data_under(const std::vector<SeriesView>& series, const AxisScale& xs, const AxisScale& ys, float x0, float y0,
               float x1, float y1);

// ---- CSV --------------------------------------------------------------------------------------------------

// The series as CSV, one row per x value: header "x,<name1>,<name2>,…", then the union of all x values,
// ascending (-inf < finite < +inf < NaN), each series' y in its column, an empty cell where a series has no
// point at that x. If every series has exactly the same x values in the same order, the rows keep that order
// instead. An x that occurs k times in a series takes k rows (its i-th occurrences share a row).
// Bars are written at their left edges, with the closing right edge as a row with an empty cell.
// Numbers are the shortest text that reads back to the same double, whole numbers of up to 17 digits in
// full ("0.1", "250000", "1e+20", "NaN", "inf", "-inf").
// Names are quoted per RFC 4180 when they contain a comma, a double quote, CR or LF, or start or end with
// a space (quotes doubled); a missing or empty name becomes "y1", "y2", … by column. Lines end with "\n".
std::string series_csv(const std::vector<SeriesView>& series);

// One CSV field, quoted as above.
std::string csv_field(const std::string& s);
// Shortest round-trip text of a double, as used in series_csv.
std::string csv_number(double v);

}  // namespace ap
