// Unit tests for the additive mask (build_mask) and the row softmax (softmax_rows) in core/attention.h.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include "core/attention.h"
#include "reference.h"

namespace ap {
namespace AP_UNITY_ID {  // this file's own namespace in a unity build (CMakeLists.txt, AP_UNITY)

constexpr float kNegInfF = -std::numeric_limits<float>::infinity();

// A softmax trace that no successful call would produce, to detect writes on error.
SoftmaxTrace sentinel_softmax() {
  SoftmaxTrace t;
  t.weights = Mat::Constant(2, 2, 42.f);
  t.exps = Mat::Constant(2, 2, 43.f);
  t.row_max = Vec::Constant(2, 44.f);
  t.row_sum = Vec::Constant(2, 45.f);
  t.fully_masked = {7, 7};
  return t;
}

void expect_sentinel_softmax(const SoftmaxTrace& t) {
  const SoftmaxTrace s = sentinel_softmax();
  EXPECT_TRUE(ref::identical(t.weights, s.weights));
  EXPECT_TRUE(ref::identical(t.exps, s.exps));
  EXPECT_TRUE(t.row_max == s.row_max);
  EXPECT_TRUE(t.row_sum == s.row_sum);
  EXPECT_EQ(t.fully_masked, s.fully_masked);
}

Mat row(std::initializer_list<float> v) {
  Mat m(1, static_cast<Eigen::Index>(v.size()));
  Eigen::Index j = 0;
  for (float x : v) m(0, j++) = x;
  return m;
}

MaskSpec padding(std::vector<uint8_t> flags) {
  MaskSpec s;
  s.kind = MaskKind::Padding;
  s.key_is_pad = std::move(flags);
  return s;
}

MaskSpec causal() {
  MaskSpec s;
  s.kind = MaskKind::Causal;
  return s;
}

// ---- mask names ----------------------------------------------------------------------------------------------

TEST(CoreMask, NamesRoundTrip) {
  EXPECT_STREQ(mask_name(MaskKind::None), "none");
  EXPECT_STREQ(mask_name(MaskKind::Padding), "padding");
  EXPECT_STREQ(mask_name(MaskKind::Causal), "causal");
  for (MaskKind k : {MaskKind::None, MaskKind::Padding, MaskKind::Causal}) {
    MaskKind parsed = k == MaskKind::None ? MaskKind::Causal : MaskKind::None;
    ASSERT_TRUE(parse_mask_name(mask_name(k), &parsed));
    EXPECT_EQ(parsed, k);
  }
}

TEST(CoreMask, ParseRejectsUnknownNamesAndLeavesOutput) {
  for (const char* bad : {"", "Causal", "pad", "none ", "upper"}) {
    MaskKind out = MaskKind::Padding;
    EXPECT_FALSE(parse_mask_name(bad, &out)) << bad;
    EXPECT_EQ(out, MaskKind::Padding) << bad;
  }
}

// ---- build_mask ----------------------------------------------------------------------------------------------

TEST(CoreMask, NoneIsAllZero) {
  Mat M;
  ASSERT_TRUE(build_mask(MaskSpec{}, 3, 5, &M).ok);
  ASSERT_EQ(M.rows(), 3);
  ASSERT_EQ(M.cols(), 5);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 5; ++j) EXPECT_EQ(M(i, j), 0.0f);
}

TEST(CoreMask, PaddingHidesFlaggedKeysForEveryQuery) {
  const MaskSpec spec = padding({0, 1, 0, 0, 1});
  Mat M;
  ASSERT_TRUE(build_mask(spec, 4, 5, &M).ok);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 5; ++j) {
      if (j == 1 || j == 4) EXPECT_EQ(M(i, j), kNegInfF) << i << "," << j;
      else EXPECT_EQ(M(i, j), 0.0f) << i << "," << j;
    }
  EXPECT_EQ(ref::report("padding mask vs reference", ref::max_abs_diff(M, ref::mask(spec, 4, 5))), 0.0);
}

TEST(CoreMask, CausalSquareHidesStrictUpperTriangle) {
  Mat M;
  ASSERT_TRUE(build_mask(causal(), 6, 6, &M).ok);
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 6; ++j) {
      if (j > i) EXPECT_EQ(M(i, j), kNegInfF) << i << "," << j;
      else EXPECT_EQ(M(i, j), 0.0f) << i << "," << j;
    }
}

TEST(CoreMask, CausalFewerQueriesThanKeysUsesOffset) {
  // n = 2 queries are the last two of m = 5 positions: query 0 is position 3, query 1 is position 4.
  Mat M;
  ASSERT_TRUE(build_mask(causal(), 2, 5, &M).ok);
  const float expected[2][5] = {{0, 0, 0, 0, kNegInfF}, {0, 0, 0, 0, 0}};
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 5; ++j) EXPECT_EQ(M(i, j), expected[i][j]) << i << "," << j;
}

TEST(CoreMask, CausalMatchesReferenceForAllSmallShapes) {
  double worst = 0.0;
  for (int n = 1; n <= 7; ++n)
    for (int m = 1; m <= 7; ++m) {
      Mat M;
      ASSERT_TRUE(build_mask(causal(), n, m, &M).ok) << n << "x" << m;
      worst = std::max(worst, ref::max_abs_diff(M, ref::mask(causal(), n, m)));
      if (n <= m) {  // the last query stands at the last position and sees every key
        for (int j = 0; j < m; ++j) EXPECT_EQ(M(n - 1, j), 0.0f) << n << "x" << m;
      }
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < m; ++j) EXPECT_EQ(M(i, j) == kNegInfF, j > i + (m - n)) << n << "x" << m;
    }
  EXPECT_EQ(ref::report("causal masks 1..7 x 1..7 vs reference", worst), 0.0);
}

TEST(CoreMask, RejectsBadSizesAndLeavesOutput) {
  const std::pair<int, int> bad[] = {{0, 3}, {3, 0}, {-1, 3}, {3, -2}, {1025, 3}, {3, 1025}};
  for (auto [n, m] : bad)
    for (const MaskSpec& spec : {MaskSpec{}, causal()}) {
      Mat M = Mat::Constant(2, 2, 9.f);
      const Status s = build_mask(spec, n, m, &M);
      EXPECT_FALSE(s.ok) << n << "x" << m;
      EXPECT_FALSE(s.message.empty());
      EXPECT_TRUE(ref::identical(M, Mat::Constant(2, 2, 9.f)));
    }
}

TEST(CoreMask, AcceptsTheLimitItself) {
  Mat M;
  ASSERT_TRUE(build_mask(causal(), limits::kMaxTokens, limits::kMaxTokens, &M).ok);
  EXPECT_EQ(M(0, 1), kNegInfF);
  EXPECT_EQ(M(limits::kMaxTokens - 1, limits::kMaxTokens - 1), 0.0f);
}

TEST(CoreMask, PaddingFlagCountMustMatchKeys) {
  for (std::vector<uint8_t> flags : {std::vector<uint8_t>{0, 1}, std::vector<uint8_t>{0, 1, 0, 0},
                                     std::vector<uint8_t>{}}) {
    Mat M = Mat::Constant(2, 2, 9.f);
    const Status s = build_mask(padding(flags), 2, 3, &M);
    EXPECT_FALSE(s.ok) << flags.size();
    EXPECT_NE(s.message.find("padding"), std::string::npos) << s.message;
    EXPECT_TRUE(ref::identical(M, Mat::Constant(2, 2, 9.f)));
  }
}

// ---- softmax_rows --------------------------------------------------------------------------------------------

TEST(CoreSoftmax, MatchesReferenceWithHiddenEntries) {
  Mat z = ref::random_mat(7, 13, 1234, -5.0, 5.0);
  for (int i = 0; i < 7; ++i)  // sprinkle -inf, never a whole row
    for (int j = i % 3; j < 13; j += 3 + i) z(i, j) = kNegInfF;
  SoftmaxTrace t;
  ASSERT_TRUE(softmax_rows(z, &t).ok);
  const ref::Softmax r = ref::softmax(ref::from_mat(z));
  EXPECT_LE(ref::report("softmax weights vs reference", ref::max_abs_diff(t.weights, r.weights)), 1e-6);
  EXPECT_LE(ref::report("softmax exps vs reference", ref::max_abs_diff(t.exps, r.exps)), 1e-6);
  EXPECT_LE(ref::report("softmax row_max vs reference", ref::max_abs_diff(t.row_max, r.row_max)), 0.0);
  EXPECT_LE(ref::report("softmax row_sum vs reference", ref::max_abs_diff(t.row_sum, r.row_sum)), 1e-5);
  for (int i = 0; i < 7; ++i) EXPECT_EQ(t.fully_masked[i], 0);
}

TEST(CoreSoftmax, RowsSumToOneForShortAndLongRows) {
  for (int m : {1, 2, 17, 1024}) {
    const Mat z = ref::random_mat(4, m, 77 + m, -20.0, 20.0);
    SoftmaxTrace t;
    ASSERT_TRUE(softmax_rows(z, &t).ok);
    for (int i = 0; i < 4; ++i) {
      double sum = 0.0;
      for (int j = 0; j < m; ++j) {
        EXPECT_GE(t.weights(i, j), 0.0f);
        EXPECT_LE(t.weights(i, j), 1.0f);
        sum += t.weights(i, j);
      }
      EXPECT_NEAR(sum, 1.0, 1e-5) << "m=" << m << " row " << i;
    }
  }
}

TEST(CoreSoftmax, HugeValuesStayFinite) {
  // Naively exp(1000) overflows to inf and inf/inf = NaN; the max shift keeps exponents <= 0.
  const Mat z = row({1000.f, 1001.f, 1002.f});
  SoftmaxTrace t;
  ASSERT_TRUE(softmax_rows(z, &t).ok);
  const double e0 = std::exp(-2.0), e1 = std::exp(-1.0), sum = e0 + e1 + 1.0;
  const double expected[3] = {e0 / sum, e1 / sum, 1.0 / sum};  // = softmax(0, 1, 2)
  double worst = 0.0;
  for (int j = 0; j < 3; ++j) {
    ASSERT_TRUE(std::isfinite(t.weights(0, j)));
    worst = std::max(worst, std::fabs(t.weights(0, j) - expected[j]));
  }
  EXPECT_LE(ref::report("softmax(1000,1001,1002) vs softmax(0,1,2)", worst), 1e-6);
  EXPECT_EQ(t.row_max[0], 1002.f);
  EXPECT_EQ(t.exps(0, 2), 1.0f);  // the maximum contributes exactly exp(0)
}

TEST(CoreSoftmax, ExtremeMagnitudesDoNotOverflow) {
  // exp(89) alone overflows float; and a 6e38 spread overflows the difference itself to -inf.
  Mat z(3, 3);
  z << 88.f, 89.f, 90.f,
       -1002.f, -1001.f, -1000.f,
       3e38f, -3e38f, 3e38f;
  SoftmaxTrace t;
  ASSERT_TRUE(softmax_rows(z, &t).ok);
  EXPECT_FALSE(ref::any_nan(t.weights));
  EXPECT_FALSE(ref::any_nan(t.exps));
  const double e0 = std::exp(-2.0), e1 = std::exp(-1.0), sum = e0 + e1 + 1.0;
  EXPECT_NEAR(t.weights(0, 2), 1.0 / sum, 1e-6);
  EXPECT_NEAR(t.weights(1, 0), e0 / sum, 1e-6);  // = softmax(-2, -1, 0)
  EXPECT_NEAR(t.weights(1, 2), 1.0 / sum, 1e-6);
  EXPECT_FLOAT_EQ(t.weights(2, 0), 0.5f);
  EXPECT_EQ(t.weights(2, 1), 0.0f);
  EXPECT_FLOAT_EQ(t.weights(2, 2), 0.5f);
}

TEST(CoreSoftmax, NegativeInfinityGivesExactZeroWeight) {
  Mat z(2, 4);
  z << kNegInfF, 0.f, 0.f, kNegInfF,
       kNegInfF, 5.f, kNegInfF, kNegInfF;
  SoftmaxTrace t;
  ASSERT_TRUE(softmax_rows(z, &t).ok);
  EXPECT_EQ(t.weights(0, 0), 0.0f);
  EXPECT_EQ(t.weights(0, 3), 0.0f);
  EXPECT_EQ(t.weights(0, 1), 0.5f);
  EXPECT_EQ(t.weights(0, 2), 0.5f);
  EXPECT_EQ(t.exps(0, 0), 0.0f);
  EXPECT_EQ(t.weights(1, 1), 1.0f);
  EXPECT_EQ(t.weights(1, 0) + t.weights(1, 2) + t.weights(1, 3), 0.0f);
  EXPECT_EQ(t.row_max[1], 5.f);  // max over the finite entries only
  EXPECT_EQ(t.fully_masked, (std::vector<uint8_t>{0, 0}));
}

TEST(CoreSoftmax, FullyHiddenRowIsZeroFlaggedAndNaNFree) {
  Mat z(3, 4);
  z << 1.f, 2.f, 3.f, 4.f,
       kNegInfF, kNegInfF, kNegInfF, kNegInfF,
       0.f, kNegInfF, 0.f, 0.f;
  SoftmaxTrace t;
  ASSERT_TRUE(softmax_rows(z, &t).ok);
  EXPECT_EQ(t.fully_masked, (std::vector<uint8_t>{0, 1, 0}));
  for (int j = 0; j < 4; ++j) {
    EXPECT_EQ(t.weights(1, j), 0.0f);
    EXPECT_EQ(t.exps(1, j), 0.0f);
  }
  EXPECT_EQ(t.row_sum[1], 0.0f);
  EXPECT_EQ(t.row_max[1], 0.0f);
  EXPECT_FALSE(ref::any_nan(t.weights));
  EXPECT_FALSE(ref::any_nan(t.exps));
  EXPECT_FALSE(ref::any_nan(t.row_max));
  EXPECT_FALSE(ref::any_nan(t.row_sum));
  EXPECT_NEAR(t.weights.row(0).cast<double>().sum(), 1.0, 1e-6);
  EXPECT_FLOAT_EQ(t.weights(2, 0), 1.f / 3.f);
  EXPECT_EQ(t.weights(2, 1), 0.0f);
}

TEST(CoreSoftmax, InvariantUnderAddingAConstantToARow) {
  const Mat z = ref::random_mat(3, 9, 99, -3.0, 3.0);
  const Mat shifted = (z.array() + 100.f).matrix();
  SoftmaxTrace a, b;
  ASSERT_TRUE(softmax_rows(z, &a).ok);
  ASSERT_TRUE(softmax_rows(shifted, &b).ok);
  EXPECT_LE(ref::report("softmax(z) vs softmax(z + 100)",
                        ref::max_abs_diff(a.weights, ref::from_mat(b.weights))), 2e-5);
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(b.row_max[i] - a.row_max[i], 100.f, 1e-4);
}

TEST(CoreSoftmax, SingleAndUniformRows) {
  SoftmaxTrace t;
  ASSERT_TRUE(softmax_rows(row({-7.5f}), &t).ok);
  EXPECT_EQ(t.weights(0, 0), 1.0f);
  ASSERT_TRUE(softmax_rows(Mat::Constant(2, 8, 3.25f), &t).ok);
  for (int j = 0; j < 8; ++j) EXPECT_EQ(t.weights(1, j), 0.125f);
}

TEST(CoreSoftmax, RejectsEmptyNaNAndPositiveInfinityAndLeavesOutput) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  const Mat bad[] = {Mat(0, 3), Mat(3, 0), row({1.f, nan, 2.f}), row({1.f, inf}), row({inf, kNegInfF})};
  for (const Mat& z : bad) {
    SoftmaxTrace t = sentinel_softmax();
    const Status s = softmax_rows(z, &t);
    EXPECT_FALSE(s.ok) << z.rows() << "x" << z.cols();
    EXPECT_FALSE(s.message.empty());
    expect_sentinel_softmax(t);
  }
}

}  // namespace
}  // namespace ap
