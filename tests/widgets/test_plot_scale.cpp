// Unit tests for the plot arithmetic in widgets/plot_scale.h: scales, ticks, labels, data ranges, CSV.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

#include "widgets/plot_scale.h"

namespace ap {
namespace AP_UNITY_ID {  // this file's own namespace in a unity build (CMakeLists.txt, AP_UNITY)

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

std::vector<double> values(const std::vector<Tick>& t, bool labelled_only) {
  std::vector<double> v;
  for (const Tick& k : t)
    if (!labelled_only || !k.label.empty()) v.push_back(k.value);
  return v;
}
std::vector<std::string> labels(const std::vector<Tick>& t) {
  std::vector<std::string> v;
  for (const Tick& k : t)
    if (!k.label.empty()) v.push_back(k.label);
  return v;
}
std::vector<double> minors(const std::vector<Tick>& t) {
  std::vector<double> v;
  for (const Tick& k : t)
    if (k.label.empty()) v.push_back(k.value);
  return v;
}

// Tick values are compared with a relative tolerance of 1e-12 (they are computed as k·m / 10^e).
void expect_values(const std::vector<double>& got, const std::vector<double>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-12 * std::max(1.0, std::fabs(want[i]))) << i;
}

// ---- linear ticks -------------------------------------------------------------------------------------------

struct TickCase {
  const char* name;
  double lo, hi;
  int target;
  std::vector<double> labelled;
  std::vector<std::string> labels;
};

class WidgetsPlotScaleLinearTicks : public ::testing::TestWithParam<TickCase> {};

TEST_P(WidgetsPlotScaleLinearTicks, ValuesAndLabels) {
  const TickCase& c = GetParam();
  const std::vector<Tick> t = linear_ticks(c.lo, c.hi, c.target);
  expect_values(values(t, false), c.labelled);  // all linear ticks are labelled majors
  EXPECT_EQ(labels(t), c.labels);
  for (const Tick& k : t) {
    EXPECT_TRUE(k.major);
    EXPECT_GE(k.value, std::min(c.lo, c.hi) - 1e-9);
    EXPECT_LE(k.value, std::max(c.lo, c.hi) + 1e-9);
  }
  EXPECT_LE(static_cast<double>(t.size()), 1.5 * c.target + 1);
}

INSTANTIATE_TEST_SUITE_P(
    WidgetsPlotScale, WidgetsPlotScaleLinearTicks,
    ::testing::Values(
        TickCase{"Unit", 0, 1, 5, {0, 0.2, 0.4, 0.6, 0.8, 1}, {"0", "0.2", "0.4", "0.6", "0.8", "1"}},
        TickCase{"Small_to_97", 0.003, 97, 5, {20, 40, 60, 80}, {"20", "40", "60", "80"}},
        TickCase{"Negative", -3, -0.5, 5, {-3, -2.5, -2, -1.5, -1, -0.5}, {"-3", "-2.5", "-2", "-1.5", "-1", "-0.5"}},
        TickCase{"Reversed", -0.5, -3, 5, {-3, -2.5, -2, -1.5, -1, -0.5}, {"-3", "-2.5", "-2", "-1.5", "-1", "-0.5"}},
        TickCase{"AcrossZero", -1, 1, 4, {-1, -0.5, 0, 0.5, 1}, {"-1", "-0.5", "0", "0.5", "1"}},
        TickCase{"FineSteps",
                 0.1,
                 0.35,
                 5,
                 {0.1, 0.15, 0.2, 0.25, 0.3, 0.35},
                 {"0.1", "0.15", "0.2", "0.25", "0.3", "0.35"}},
        TickCase{"Thousands", 0, 5000, 5, {0, 1000, 2000, 3000, 4000, 5000}, {"0", "1k", "2k", "3k", "4k", "5k"}},
        TickCase{"HalfThousands", 1000, 3000, 4, {1000, 1500, 2000, 2500, 3000}, {"1k", "1.5k", "2k", "2.5k", "3k"}},
        TickCase{"NearThousandFine",
                 1000,
                 1100,
                 5,
                 {1000, 1020, 1040, 1060, 1080, 1100},
                 {"1000", "1020", "1040", "1060", "1080", "1100"}},
        TickCase{"Millions", 0, 3e6, 3, {0, 1e6, 2e6, 3e6}, {"0", "1e6", "2e6", "3e6"}},
        TickCase{"Thousandths", 0, 0.004, 4, {0, 1e-3, 2e-3, 3e-3, 4e-3}, {"0", "1e-3", "2e-3", "3e-3", "4e-3"}},
        TickCase{"ZeroWidth", 5, 5, 5, {5}, {"5"}}, TickCase{"TargetOne", 0, 10, 1, {0, 10}, {"0", "10"}}),
    [](const ::testing::TestParamInfo<TickCase>& i) { return std::string(i.param.name); });

TEST(WidgetsPlotScale, NiceStepIsOneTwoFive) {
  EXPECT_DOUBLE_EQ(nice_step(1, 5), 0.2);
  EXPECT_DOUBLE_EQ(nice_step(97, 5), 20);
  EXPECT_DOUBLE_EQ(nice_step(2.5, 5), 0.5);
  EXPECT_DOUBLE_EQ(nice_step(1, 1), 1);
  EXPECT_DOUBLE_EQ(nice_step(8, 1), 10);
  EXPECT_DOUBLE_EQ(nice_step(0.005, 2), 0.002);
  EXPECT_DOUBLE_EQ(nice_step(0.006, 2), 0.005);  // raw step 0.003: 3 rounds to 5
  EXPECT_DOUBLE_EQ(nice_step(3e6, 3), 1e6);
  EXPECT_DOUBLE_EQ(nice_step(0, 5), 1);  // degenerate: a harmless step
}

TEST(WidgetsPlotScale, LinearTicksOfNonFiniteRangeAreEmpty) {
  EXPECT_TRUE(linear_ticks(kNaN, 1, 5).empty());
  EXPECT_TRUE(linear_ticks(0, kInf, 5).empty());
}

TEST(WidgetsPlotScale, LinearTicksOfTinySpanFarFromZeroStayDistinct) {
  const std::vector<Tick> t = linear_ticks(1e9, 1e9 + 1, 5);
  ASSERT_EQ(t.size(), 6u);
  for (size_t i = 1; i < t.size(); ++i) EXPECT_GT(t[i].value, t[i - 1].value);
}

// ---- log ticks ----------------------------------------------------------------------------------------------

struct LogCase {
  const char* name;
  double lo, hi;
  int target;
  std::vector<double> labelled;
  std::vector<std::string> labels;
  std::vector<double> minors;  // unlabelled ticks, ascending
};

class WidgetsPlotScaleLogTicks : public ::testing::TestWithParam<LogCase> {};

TEST_P(WidgetsPlotScaleLogTicks, ValuesLabelsAndMinors) {
  const LogCase& c = GetParam();
  const std::vector<Tick> t = log_ticks(c.lo, c.hi, c.target);
  expect_values(values(t, true), c.labelled);
  EXPECT_EQ(labels(t), c.labels);
  expect_values(minors(t), c.minors);
  for (size_t i = 1; i < t.size(); ++i) EXPECT_GT(t[i].value, t[i - 1].value);
  for (const Tick& k : t) EXPECT_EQ(k.major, !k.label.empty()) << k.value;
}

std::vector<double> decade_minors(int e0, int e1) {  // 2..9 × 10^e for e in [e0, e1)
  std::vector<double> v;
  for (int e = e0; e < e1; ++e)
    for (int d = 2; d <= 9; ++d) v.push_back(d * std::pow(10.0, e));
  return v;
}

INSTANTIATE_TEST_SUITE_P(
    WidgetsPlotScale, WidgetsPlotScaleLogTicks,
    ::testing::Values(
        LogCase{"Decades_1_to_1e6",
                1,
                1e6,
                5,
                {1, 10, 100, 1e3, 1e4, 1e5, 1e6},
                {"1", "10", "100", "1k", "10k", "100k", "1e6"},
                decade_minors(0, 6)},
        LogCase{"From16To4096",
                16,
                4096,
                5,
                {20, 50, 100, 200, 500, 1000, 2000},
                {"20", "50", "100", "200", "500", "1k", "2k"},
                {30, 40, 60, 70, 80, 90, 300, 400, 600, 700, 800, 900, 3000, 4000}},
        LogCase{"Small_to_97",
                0.003,
                97,
                5,
                {0.01, 0.1, 1, 10},
                {"0.01", "0.1", "1", "10"},
                [] {
                  std::vector<double> v = {0.003, 0.004, 0.005, 0.006, 0.007, 0.008, 0.009};
                  for (double x : decade_minors(-2, 1)) v.push_back(x);
                  for (double x : {20., 30., 40., 50., 60., 70., 80., 90.}) v.push_back(x);
                  return v;
                }()},
        LogCase{"Thousandths",
                1e-4,
                0.1,
                5,
                {1e-4, 1e-3, 0.01, 0.1},
                {"1e-4", "1e-3", "0.01", "0.1"},
                decade_minors(-4, -1)},
        LogCase{"OneDecade", 1, 10, 5, {1, 2, 5, 10}, {"1", "2", "5", "10"}, {3, 4, 6, 7, 8, 9}},
        LogCase{"ManyDecades",
                1e-3,
                1e12,
                5,
                {0.01, 1, 100, 1e4, 1e6, 1e8, 1e10, 1e12},
                {"0.01", "1", "100", "10k", "1e6", "1e8", "1e10", "1e12"},
                {1e-3, 0.1, 10, 1e3, 1e5, 1e7, 1e9, 1e11}},
        LogCase{
            "InsideADecadeFallsBackToLinear", 2.5, 4.5, 5, {2.5, 3, 3.5, 4, 4.5}, {"2.5", "3", "3.5", "4", "4.5"}, {}},
        LogCase{"Reversed", 10, 1, 5, {1, 2, 5, 10}, {"1", "2", "5", "10"}, {3, 4, 6, 7, 8, 9}}),
    [](const ::testing::TestParamInfo<LogCase>& i) { return std::string(i.param.name); });

TEST(WidgetsPlotScale, LogTicksRefuseNonPositiveOrNonFiniteRanges) {
  EXPECT_TRUE(log_ticks(0, 10, 5).empty());
  EXPECT_TRUE(log_ticks(-1, 10, 5).empty());
  EXPECT_TRUE(log_ticks(1, kInf, 5).empty());
  EXPECT_TRUE(log_ticks(kNaN, 10, 5).empty());
}

TEST(WidgetsPlotScale, MakeTicksDispatchesOnKind) {
  EXPECT_EQ(labels(make_ticks(AxisKind::Linear, 0, 1, 5)), labels(linear_ticks(0, 1, 5)));
  EXPECT_EQ(labels(make_ticks(AxisKind::Log10, 16, 4096, 5)), labels(log_ticks(16, 4096, 5)));
}

TEST(WidgetsPlotScale, TickLabelsWithUnicodeMinus) {
  EXPECT_EQ(labels(make_ticks(AxisKind::Linear, -1, 0, 2, true)), (std::vector<std::string>{"\xE2\x88\x92"
                                                                                            "1",
                                                                                            "\xE2\x88\x92"
                                                                                            "0.5",
                                                                                            "0"}));
  EXPECT_EQ(labels(make_ticks(AxisKind::Log10, 1e-4, 0.1, 5, true)), (std::vector<std::string>{"1e\xE2\x88\x92"
                                                                                               "4",
                                                                                               "1e\xE2\x88\x92"
                                                                                               "3",
                                                                                               "0.01", "0.1"}));
}

TEST(WidgetsPlotScale, TicksOfSanitizedZeroWidthRanges) {
  const AxisRange lin = sanitize_range(AxisKind::Linear, 5, 5);
  EXPECT_EQ(labels(linear_ticks(lin.lo, lin.hi, 5)), (std::vector<std::string>{"4.6", "4.8", "5", "5.2", "5.4"}));
  const AxisRange lg = sanitize_range(AxisKind::Log10, 100, 100);
  EXPECT_EQ(labels(log_ticks(lg.lo, lg.hi, 5)), (std::vector<std::string>{"50", "100", "200"}));
}

// ---- scales -------------------------------------------------------------------------------------------------

struct RoundTrip {
  const char* name;
  AxisKind kind;
  double lo, hi, p0, p1;
  double v, pixel;  // v maps to pixel
};

class WidgetsPlotScaleRoundTrip : public ::testing::TestWithParam<RoundTrip> {};

TEST_P(WidgetsPlotScaleRoundTrip, ValueToPixelAndBack) {
  const RoundTrip& c = GetParam();
  const AxisScale s = make_scale(c.kind, c.lo, c.hi, c.p0, c.p1);
  EXPECT_NEAR(s.to_pixel(c.v), c.pixel, 1e-9);
  EXPECT_NEAR(s.to_value(c.pixel), c.v, 1e-9 * std::max(1.0, std::fabs(c.v)));
  EXPECT_NEAR(s.to_pixel(s.lo), c.p0, 1e-9);
  EXPECT_NEAR(s.to_pixel(s.hi), c.p1, 1e-9);
  for (int i = 0; i <= 20; ++i) {
    const double px = c.p0 + (c.p1 - c.p0) * i / 20.0;
    EXPECT_NEAR(s.to_pixel(s.to_value(px)), px, 1e-9) << px;
  }
}

INSTANTIATE_TEST_SUITE_P(WidgetsPlotScale, WidgetsPlotScaleRoundTrip,
                         ::testing::Values(RoundTrip{"Linear", AxisKind::Linear, -2, 3, 100, 600, 0.5, 350},
                                           RoundTrip{"LinearYUp", AxisKind::Linear, 0, 1, 300, 100, 0.25, 250},
                                           RoundTrip{"LinearNegative", AxisKind::Linear, -10, -5, 0, 50, -7.5, 25},
                                           RoundTrip{"LogDecades", AxisKind::Log10, 1, 1e6, 0, 600, 1000, 300},
                                           RoundTrip{"LogYUp", AxisKind::Log10, 16, 4096, 400, 0, 256, 200},
                                           RoundTrip{"LogSmall", AxisKind::Log10, 1e-6, 1e-2, 10, 90, 1e-4, 50}),
                         [](const ::testing::TestParamInfo<RoundTrip>& i) { return std::string(i.param.name); });

TEST(WidgetsPlotScale, LogScalePlacesNonPositiveValuesOutOfReach) {
  const AxisScale s = make_scale(AxisKind::Log10, 1, 100, 0, 200);
  EXPECT_FALSE(std::isfinite(s.to_pixel(0)));
  EXPECT_TRUE(std::isnan(s.to_pixel(-1)));
  EXPECT_TRUE(std::isnan(s.to_pixel(kNaN)));
  EXPECT_FALSE(s.plottable(0));
  EXPECT_FALSE(s.plottable(-3));
  EXPECT_FALSE(s.plottable(kInf));
  EXPECT_TRUE(s.plottable(1e-30));
  const AxisScale lin = make_scale(AxisKind::Linear, 0, 1, 0, 100);
  EXPECT_TRUE(lin.plottable(-3));
  EXPECT_FALSE(lin.plottable(kNaN));
}

TEST(WidgetsPlotScale, MakeScaleNeverDividesByZero) {
  const AxisScale s = make_scale(AxisKind::Linear, 2, 2, 10, 10);
  EXPECT_TRUE(std::isfinite(s.to_pixel(2)));
  EXPECT_TRUE(std::isfinite(s.to_value(10)));
  const AxisScale l = make_scale(AxisKind::Log10, 0, 0, 0, 100);
  EXPECT_DOUBLE_EQ(l.lo, 1);
  EXPECT_DOUBLE_EQ(l.hi, 10);
}

TEST(WidgetsPlotScale, SanitizeRange) {
  const auto check = [](AxisKind k, double lo, double hi, double want_lo, double want_hi) {
    const AxisRange r = sanitize_range(k, lo, hi);
    EXPECT_TRUE(r.valid);
    EXPECT_NEAR(r.lo, want_lo, 1e-9 * std::max(1.0, std::fabs(want_lo))) << lo << " " << hi;
    EXPECT_NEAR(r.hi, want_hi, 1e-9 * std::max(1.0, std::fabs(want_hi))) << lo << " " << hi;
  };
  check(AxisKind::Linear, 0, 1, 0, 1);
  check(AxisKind::Linear, 3, -2, -2, 3);
  check(AxisKind::Linear, 5, 5, 4.5, 5.5);
  check(AxisKind::Linear, -20, -20, -22, -18);
  check(AxisKind::Linear, 0, 0, -1, 1);
  check(AxisKind::Linear, kNaN, kNaN, 0, 1);
  check(AxisKind::Linear, kNaN, 4, 3.6, 4.4);
  check(AxisKind::Linear, -kInf, kInf, 0, 1);
  check(AxisKind::Log10, 1, 1000, 1, 1000);
  check(AxisKind::Log10, 100, 100, 100 / std::sqrt(10.0), 100 * std::sqrt(10.0));
  check(AxisKind::Log10, 0, 100, 100 / std::sqrt(10.0), 100 * std::sqrt(10.0));
  check(AxisKind::Log10, -5, 0, 1, 10);
  check(AxisKind::Log10, kNaN, kInf, 1, 10);
  check(AxisKind::Linear, -1e308, 1e308, -1e300, 1e300);
  check(AxisKind::Log10, 1e-320, 1e305, 1e-300, 1e300);
}

TEST(WidgetsPlotScale, PadRange) {
  AxisRange r = pad_range(AxisKind::Linear, {0, 10, true}, 0.05, 0.1);
  EXPECT_DOUBLE_EQ(r.lo, -0.5);
  EXPECT_DOUBLE_EQ(r.hi, 11);
  EXPECT_TRUE(r.valid);
  r = pad_range(AxisKind::Log10, {1, 1e4, true}, 0.25, 0.25);
  EXPECT_NEAR(r.lo, 0.1, 1e-12);
  EXPECT_NEAR(r.hi, 1e5, 1e-7);
  r = pad_range(AxisKind::Log10, {1e-300, 1e300, true}, 0.05, 0.05);  // stays representable (no 0, no inf)
  EXPECT_EQ(r.lo, 1e-300);
  EXPECT_EQ(r.hi, 1e300);
  r = pad_range(AxisKind::Linear, {-1e300, 1e300, true}, 0.05, 0.05);
  EXPECT_EQ(r.lo, -1e300);
  EXPECT_EQ(r.hi, 1e300);
}

// ---- labels -------------------------------------------------------------------------------------------------

struct LabelCase {
  const char* name;
  double v, step;
  bool unicode;
  const char* want;
};

class WidgetsPlotScaleTickLabel : public ::testing::TestWithParam<LabelCase> {};

TEST_P(WidgetsPlotScaleTickLabel, Formats) {
  const LabelCase& c = GetParam();
  EXPECT_EQ(format_tick(c.v, c.step, c.unicode), c.want);
}

INSTANTIATE_TEST_SUITE_P(
    WidgetsPlotScale, WidgetsPlotScaleTickLabel,
    ::testing::Values(
        LabelCase{"Half", 0.5, 0.1, false, "0.5"}, LabelCase{"One", 1, 1, false, "1"},
        LabelCase{"OneWithFinerStep", 1, 0.25, false, "1"}, LabelCase{"TwoK", 2000, 1000, false, "2k"},
        LabelCase{"TwoAndAHalfK", 2500, 500, false, "2.5k"}, LabelCase{"QuarterMillion", 250000, 50000, false, "250k"},
        LabelCase{"PlainNearThousand", 1020, 20, false, "1020"}, LabelCase{"Million", 1e6, 1e6, false, "1e6"},
        LabelCase{"TwoPointFiveMillion", 2.5e6, 5e5, false, "2.5e6"},
        LabelCase{"Thousandth", 1e-3, 1e-3, false, "1e-3"}, LabelCase{"SmallMantissa", 2.5e-4, 5e-5, false, "2.5e-4"},
        LabelCase{"Hundredth", 0.01, 0.01, false, "0.01"}, LabelCase{"Negative", -0.2, 0.2, false, "-0.2"},
        LabelCase{"FloatNoise", 0.30000000000000004, 0.1, false, "0.3"},
        LabelCase{"NoiseAroundZero", 1e-17, 0.1, false, "0"}, LabelCase{"Zero", 0, 1, false, "0"},
        LabelCase{"NoStepThreeDigits", 3.14159, 0, false, "3.14"}, LabelCase{"NoStepLarge", 123456, 0, false, "123k"},
        LabelCase{"MantissaRoundsUp", 9.996e6, 1e4, false, "1e7"},
        LabelCase{"UnicodeMinus", -1.5, 0.5, true,
                  "\xE2\x88\x92"
                  "1.5"},
        LabelCase{"UnicodeMinusExponent", 1e-3, 1e-3, true,
                  "1e\xE2\x88\x92"
                  "3"},
        LabelCase{"NaN", kNaN, 1, false, "NaN"}, LabelCase{"MinusInfinity", -kInf, 1, false, "-inf"},
        LabelCase{"UnicodeInfinity", kInf, 1, true, "\xE2\x88\x9E"}),
    [](const ::testing::TestParamInfo<LabelCase>& i) { return std::string(i.param.name); });

TEST(WidgetsPlotScale, ReadoutHasFourSignificantDigits) {
  EXPECT_EQ(format_readout(0.70710678), "0.7071");
  EXPECT_EQ(format_readout(1234.56), "1235");
  EXPECT_EQ(format_readout(1234567), "1.235e6");
  EXPECT_EQ(format_readout(0.00031623), "3.162e-4");
  EXPECT_EQ(format_readout(0.0031623), "0.003162");
  EXPECT_EQ(format_readout(-2), "-2");
  EXPECT_EQ(format_readout(-2, true),
            "\xE2\x88\x92"
            "2");
  EXPECT_EQ(format_readout(999999.9), "1e6");
  EXPECT_EQ(format_readout(0), "0");
  EXPECT_EQ(format_readout(kNaN), "NaN");
}

// ---- data range ---------------------------------------------------------------------------------------------

TEST(WidgetsPlotScale, DataRangeIgnoresNonFinitePoints) {
  const std::vector<double> x = {1, 2, kNaN, 4, 5, 6};
  const std::vector<double> y = {-3, kInf, 100, 2, kNaN, 0.5};
  const DataRange r = data_range({SeriesView{"a", x.data(), y.data(), x.size(), false}}, false, false);
  ASSERT_TRUE(r.x.valid);
  ASSERT_TRUE(r.y.valid);
  EXPECT_EQ(r.x.lo, 1);  // points (1,-3), (4,2), (6,0.5) count
  EXPECT_EQ(r.x.hi, 6);
  EXPECT_EQ(r.y.lo, -3);
  EXPECT_EQ(r.y.hi, 2);
}

TEST(WidgetsPlotScale, DataRangeOnLogAxesIgnoresNonPositiveValues) {
  const std::vector<double> x1 = {0, 1, 10, 100, -5};
  const std::vector<double> y1 = {5, 0.01, -1, 3, 7};
  const std::vector<double> x2 = {1000, 2000};
  const std::vector<double> y2 = {0, 50};
  const std::vector<SeriesView> s = {{"a", x1.data(), y1.data(), x1.size(), false},
                                     {"b", x2.data(), y2.data(), x2.size(), false}};
  DataRange r = data_range(s, true, true);  // counts (1,0.01), (100,3), (2000,50)
  EXPECT_EQ(r.x.lo, 1);
  EXPECT_EQ(r.x.hi, 2000);
  EXPECT_EQ(r.y.lo, 0.01);
  EXPECT_EQ(r.y.hi, 50);
  r = data_range(s, true, false);  // y may be non-positive: adds (10,-1), (1000,0)
  EXPECT_EQ(r.x.lo, 1);
  EXPECT_EQ(r.y.lo, -1);
  r = data_range(s, false, true);  // x may be non-positive: adds (0,5), (-5,7)
  EXPECT_EQ(r.x.lo, -5);
  EXPECT_EQ(r.y.hi, 50);
}

TEST(WidgetsPlotScale, DataRangeOfNothingIsInvalid) {
  const std::vector<double> x = {-1, 0};
  const std::vector<double> y = {kNaN, 1};
  DataRange r = data_range({SeriesView{"a", x.data(), y.data(), x.size(), false}}, true, false);
  EXPECT_FALSE(r.x.valid);
  EXPECT_FALSE(r.y.valid);
  r = data_range({}, false, false);
  EXPECT_FALSE(r.x.valid);
  r = data_range({SeriesView{"empty", nullptr, nullptr, 0, false}}, false, false);
  EXPECT_FALSE(r.y.valid);
}

TEST(WidgetsPlotScale, DataRangeOfBarsSpansEdgesAndBaseline) {
  const std::vector<double> edges = {0, 0.5, 1, 1.5};
  const std::vector<double> counts = {3, kNaN, 7};
  const SeriesView h{"h", edges.data(), counts.data(), counts.size(), true};
  DataRange r = data_range({h}, false, false);
  EXPECT_EQ(r.x.lo, 0);
  EXPECT_EQ(r.x.hi, 1.5);
  EXPECT_EQ(r.y.lo, 0);  // bars stand on 0
  EXPECT_EQ(r.y.hi, 7);
  r = data_range({h}, false, true);
  EXPECT_EQ(r.y.lo, 3);  // no 0 on a log axis
}

// ---- CSV ----------------------------------------------------------------------------------------------------

TEST(WidgetsPlotScale, CsvWithSharedXKeepsRowOrder) {
  const std::vector<double> x = {3, 1, 2};
  const std::vector<double> a = {0.1, 0.25, kNaN};
  const std::vector<double> b = {1e20, -2, 1.0 / 3};
  EXPECT_EQ(series_csv({{"softmax", x.data(), a.data(), 3, false}, {"exp", x.data(), b.data(), 3, false}}),
            "x,softmax,exp\n"
            "3,0.1,1e+20\n"
            "1,0.25,-2\n"
            "2,NaN,0.3333333333333333\n");
}

TEST(WidgetsPlotScale, CsvWithDifferentXTakesTheUnion) {
  const std::vector<double> x1 = {16, 64, 256};
  const std::vector<double> y1 = {0.5, 2, 8};
  const std::vector<double> x2 = {256, 32, 16};
  const std::vector<double> y2 = {9, 1, 0.25};
  EXPECT_EQ(series_csv({{"native", x1.data(), y1.data(), 3, false}, {"wasm", x2.data(), y2.data(), 3, false}}),
            "x,native,wasm\n"
            "16,0.5,0.25\n"
            "32,,1\n"
            "64,2,\n"
            "256,8,9\n");
}

TEST(WidgetsPlotScale, CsvRepeatedXTakesOneRowPerOccurrence) {
  const std::vector<double> x1 = {1, 1, 2};
  const std::vector<double> y1 = {10, 11, 20};
  const std::vector<double> x2 = {1, kNaN, -kInf};
  const std::vector<double> y2 = {5, 6, 7};
  EXPECT_EQ(series_csv({{"a", x1.data(), y1.data(), 3, false}, {"b", x2.data(), y2.data(), 3, false}}),
            "x,a,b\n"
            "-inf,,7\n"
            "1,10,5\n"
            "1,11,\n"
            "2,20,\n"
            "NaN,,6\n");
}

TEST(WidgetsPlotScale, CsvBarsAtLeftEdgesWithClosingEdge) {
  const std::vector<double> edges = {0, 0.5, 1};
  const std::vector<double> counts = {4, 6};
  const std::vector<double> x = {0.5};
  const std::vector<double> y = {0.8};
  EXPECT_EQ(series_csv({{"hist", edges.data(), counts.data(), 2, true}, {"pdf", x.data(), y.data(), 1, false}}),
            "x,hist,pdf\n"
            "0,4,\n"
            "0.5,6,0.8\n"
            "1,,\n");
}

TEST(WidgetsPlotScale, CsvQuotesNamesAndNamesMissingOnes) {
  const std::vector<double> x = {1};
  const std::vector<double> y = {2};
  EXPECT_EQ(series_csv({{"time, ms", x.data(), y.data(), 1, false},
                        {"say \"hi\"", x.data(), y.data(), 1, false},
                        {nullptr, x.data(), y.data(), 1, false},
                        {"", x.data(), y.data(), 1, false},
                        {"two\nlines", x.data(), y.data(), 1, false},
                        {"Aᵢⱼ", x.data(), y.data(), 1, false}}),
            "x,\"time, ms\",\"say \"\"hi\"\"\",y3,y4,\"two\nlines\",Aᵢⱼ\n"
            "1,2,2,2,2,2,2\n");
}

TEST(WidgetsPlotScale, CsvOfNoDataIsTheHeaderOnly) {
  EXPECT_EQ(series_csv({}), "x\n");
  EXPECT_EQ(series_csv({{"a", nullptr, nullptr, 0, false}}), "x,a\n");
  const std::vector<double> none;
  EXPECT_EQ(series_csv({{"a", none.data(), none.data(), 0, false}, {"b", none.data(), none.data(), 0, false}}),
            "x,a,b\n");
}

TEST(WidgetsPlotScale, CsvFieldAndNumber) {
  EXPECT_EQ(csv_field("plain"), "plain");
  EXPECT_EQ(csv_field(" padded"), "\" padded\"");
  EXPECT_EQ(csv_field("a\"b"), "\"a\"\"b\"");
  EXPECT_EQ(csv_field("cr\r"), "\"cr\r\"");
  EXPECT_EQ(csv_field(""), "");
  EXPECT_EQ(csv_number(0.1), "0.1");
  EXPECT_EQ(csv_number(0.1 + 0.2), "0.30000000000000004");
  EXPECT_EQ(csv_number(-0.0), "-0");
  EXPECT_EQ(csv_number(1e-300), "1e-300");
  EXPECT_EQ(csv_number(123456789), "123456789");
  EXPECT_EQ(csv_number(10), "10");
  EXPECT_EQ(csv_number(250000), "250000");
  EXPECT_EQ(csv_number(1e16), "10000000000000000");
  EXPECT_EQ(csv_number(1e17), "1e+17");
  EXPECT_EQ(csv_number(-4e5), "-400000");
  EXPECT_EQ(csv_number(-kInf), "-inf");
  EXPECT_EQ(std::strtod(csv_number(1.0 / 3).c_str(), nullptr), 1.0 / 3);
}

// A legend's box hides the points inside it, and a steep segment crossing it between two points (its midpoint);
// NaN and, on a log axis, values <= 0 are not drawn, so they hide nothing. Pixels: x 0 … 100, y 100 (at 0) … 0.
TEST(WidgetsPlotScale, DataUnderABoxCountsPointsAndCrossingSegments) {
  const AxisScale xs = make_scale(AxisKind::Linear, 0, 10, 0, 100), ys = make_scale(AxisKind::Linear, 0, 10, 100, 0);
  const std::vector<double> x = {1, 2, 9, 9.5}, y = {9, 9, 1, kNaN};
  std::vector<SeriesView> v = {{"a", x.data(), y.data(), x.size(), false}};
  // top-left corner box (x 0 … 30 px, y 0 … 30 px): the points (1, 9) and (2, 9), and the midpoint between them
  EXPECT_EQ(data_under(v, xs, ys, 0, 0, 30, 30), 3);
  // bottom-left: nothing (the line from (2, 9) to (9, 1) passes through the middle; its midpoint is (55, 50) px)
  EXPECT_EQ(data_under(v, xs, ys, 0, 70, 30, 100), 0);
  EXPECT_EQ(data_under(v, xs, ys, 45, 40, 65, 60), 1);  // only the segment's midpoint
  // bottom-right: the point (9, 1); the NaN after it is skipped
  EXPECT_EQ(data_under(v, xs, ys, 80, 80, 100, 100), 1);
  // bars: the top of each bin at its centre (3 bins over 0 … 3, heights 5, 9, 1)
  const std::vector<double> edges = {0, 1, 2, 3}, heights = {5, 9, 1};
  v = {{"h", edges.data(), heights.data(), heights.size(), true}};
  EXPECT_EQ(data_under(v, xs, ys, 10, 0, 20, 15), 1);  // bin 2's top at (15, 10) px
  EXPECT_EQ(data_under(v, xs, ys, 0, 0, 100, 100), 3);
  // a log axis: a value <= 0 is not drawn
  const AxisScale ls = make_scale(AxisKind::Log10, 1, 100, 100, 0);
  const std::vector<double> lx = {1, 2}, ly = {0, 10};
  v = {{"l", lx.data(), ly.data(), lx.size(), false}};
  EXPECT_EQ(data_under(v, xs, ls, 0, 0, 100, 100), 1);
}

}  // namespace
}  // namespace ap
