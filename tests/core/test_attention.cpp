// Unit tests for scaled_dot_product_attention (core/attention.h): worked examples, comparison with the naive
// double-precision reference, mask invariants, validation and the √d_k argument.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "core/attention.h"
#include "core/embedding.h"
#include "reference.h"

namespace ap {
namespace AP_UNITY_ID {  // this file's own namespace in a unity build (CMakeLists.txt, AP_UNITY)

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInfF = std::numeric_limits<float>::infinity();

Mat mat(int rows, int cols, std::initializer_list<float> v) {
  Mat m(rows, cols);
  int k = 0;
  for (float x : v) m(k / cols, k % cols) = x, ++k;
  return m;
}

MaskSpec mask_of(MaskKind kind, int m) {
  MaskSpec s;
  s.kind = kind;
  if (kind == MaskKind::Padding)
    for (int j = 0; j < m; ++j) s.key_is_pad.push_back(j % 3 == 1);  // keys 1, 4, 7, ... are padding
  return s;
}

// A trace that no successful call would produce, to detect writes on error.
AttentionTrace sentinel_trace() {
  AttentionTrace t;
  t.n = -7;
  t.m = -8;
  t.fully_masked_rows = -9;
  t.output = Mat::Constant(2, 3, 42.f);
  t.scores = Mat::Constant(1, 1, 43.f);
  return t;
}

void expect_sentinel_trace(const AttentionTrace& t) {
  EXPECT_EQ(t.n, -7);
  EXPECT_EQ(t.m, -8);
  EXPECT_EQ(t.fully_masked_rows, -9);
  EXPECT_TRUE(ref::identical(t.output, Mat::Constant(2, 3, 42.f)));
  EXPECT_TRUE(ref::identical(t.scores, Mat::Constant(1, 1, 43.f)));
  EXPECT_EQ(t.weights().size(), 0);
}

// Runs SDPA on inputs that must be refused; checks the Status and that the output was not written.
void expect_refused(const Mat& Q, const Mat& K, const Mat& V, const MaskSpec& spec, const std::string& what,
                    const std::string& must_mention = "") {
  SCOPED_TRACE(what);
  AttentionTrace t = sentinel_trace();
  const Status s = scaled_dot_product_attention(Q, K, V, spec, &t);
  EXPECT_FALSE(s.ok);
  EXPECT_FALSE(s.message.empty());
  if (!must_mention.empty()) {
    EXPECT_NE(s.message.find(must_mention), std::string::npos) << s.message;
  }
  expect_sentinel_trace(t);
}

// ---- worked examples -----------------------------------------------------------------------------------------

// "I love cats", d_k = 2. Expected values computed here in double, independently of the core.
TEST(CoreAttention, WorkedExampleILoveCats) {
  const Mat Q = mat(3, 2, {1, 0, 0, 1, 1, 1});
  const Mat K = mat(3, 2, {1, 0, 0, 1, 0.5f, 0.5f});
  const Mat V = mat(3, 2, {1, 2, 3, 4, 5, 6});
  AttentionTrace t;
  ASSERT_TRUE(scaled_dot_product_attention(Q, K, V, MaskSpec{}, &t).ok);
  ASSERT_EQ(t.n, 3);
  ASSERT_EQ(t.m, 3);
  EXPECT_EQ(t.d_k, 2);
  EXPECT_EQ(t.d_v, 2);
  EXPECT_FLOAT_EQ(t.sqrt_dk, std::sqrt(2.f));

  const double S[3][3] = {{1, 0, 0.5}, {0, 1, 0.5}, {1, 1, 1}};
  double W[3][3], O[3][2], worst_w = 0.0, worst_o = 0.0;
  for (int i = 0; i < 3; ++i) {
    double e[3], sum = 0.0;
    for (int j = 0; j < 3; ++j) sum += e[j] = std::exp(S[i][j] / std::sqrt(2.0));
    for (int j = 0; j < 3; ++j) W[i][j] = e[j] / sum;
    for (int c = 0; c < 2; ++c) {
      O[i][c] = 0.0;
      for (int j = 0; j < 3; ++j) O[i][c] += W[i][j] * V(j, c);
    }
  }
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      EXPECT_EQ(t.scores(i, j), static_cast<float>(S[i][j])) << i << "," << j;
      EXPECT_NEAR(t.scaled(i, j), S[i][j] / std::sqrt(2.0), 1e-6);
      worst_w = std::max(worst_w, std::fabs(t.weights()(i, j) - W[i][j]));
    }
    for (int c = 0; c < 2; ++c) worst_o = std::max(worst_o, std::fabs(t.output(i, c) - O[i][c]));
  }
  EXPECT_LE(ref::report("I love cats: weights vs exact", worst_w), 1e-5);
  EXPECT_LE(ref::report("I love cats: output vs exact", worst_o), 1e-5);

  // Row 0 as the scene rounds it: [0.46, 0.22, 0.32]. Exact values 0.45553, 0.22461, 0.31987, so to three
  // decimals [0.456, 0.225, 0.320] (an often-quoted "0.321" is a rounding slip).
  const long percent[3] = {46, 22, 32};
  const long permille[3] = {456, 225, 320};
  for (int j = 0; j < 3; ++j) {
    EXPECT_EQ(std::lround(t.weights()(0, j) * 100.0), percent[j]) << j;
    EXPECT_EQ(std::lround(t.weights()(0, j) * 1000.0), permille[j]) << j;
  }
  // Row 1 mirrors row 0 ("love" matches itself); row 2 scores all 1: uniform.
  EXPECT_NEAR(t.weights()(1, 0), W[0][1], 1e-6);
  EXPECT_NEAR(t.weights()(1, 1), W[0][0], 1e-6);
  for (int j = 0; j < 3; ++j) EXPECT_NEAR(t.weights()(2, j), 1.0 / 3.0, 1e-6);
}

// One query, scores [2, 1, 0], values [10, 0, -10].
TEST(CoreAttention, WorkedExampleOneQuery) {
  const Mat q = mat(1, 1, {1});
  const Mat K = mat(3, 1, {2, 1, 0});
  const Mat V = mat(3, 1, {10, 0, -10});
  AttentionTrace t;
  ASSERT_TRUE(scaled_dot_product_attention(q, K, V, MaskSpec{}, &t).ok);
  ASSERT_EQ(t.weights().rows(), 1);
  ASSERT_EQ(t.output.rows(), 1);
  ASSERT_EQ(t.output.cols(), 1);
  EXPECT_EQ(t.sqrt_dk, 1.f);

  const double sum = std::exp(2.0) + std::exp(1.0) + 1.0;
  const double w[3] = {std::exp(2.0) / sum, std::exp(1.0) / sum, 1.0 / sum};
  const double out = 10.0 * w[0] - 10.0 * w[2];  // 5.7521
  double worst = 0.0;
  for (int j = 0; j < 3; ++j) worst = std::max(worst, std::fabs(t.weights()(0, j) - w[j]));
  EXPECT_LE(ref::report("one query: weights vs exact", worst), 1e-6);
  EXPECT_LE(ref::report("one query: output vs exact", std::fabs(t.output(0, 0) - out)), 1e-5);

  // The literal numbers quoted in the lesson.
  EXPECT_NEAR(t.weights()(0, 0), 0.665, 1e-3);
  EXPECT_NEAR(t.weights()(0, 1), 0.245, 1e-3);
  EXPECT_NEAR(t.weights()(0, 2), 0.090, 1e-3);
  EXPECT_NEAR(t.output(0, 0), 5.752, 1e-3);
  EXPECT_NEAR(t.output(0, 0), 5.75, 5e-3);  // exact value 5.7521; "5.75" is its 2-decimal rounding
}

// ---- comparison with the naive reference ---------------------------------------------------------------------

struct Shape {
  int n, m, d_k, d_v;
  MaskKind mask;
};

class CoreAttentionVsReference : public ::testing::TestWithParam<Shape> {};

TEST_P(CoreAttentionVsReference, EveryIntermediateMatches) {
  const Shape p = GetParam();
  const uint64_t seed = 1000 + p.n * 31 + p.m * 7 + p.d_k;
  const Mat Q = ref::random_mat(p.n, p.d_k, seed);
  const Mat K = ref::random_mat(p.m, p.d_k, seed + 1);
  const Mat V = ref::random_mat(p.m, p.d_v, seed + 2, -3.0, 3.0);
  const MaskSpec spec = mask_of(p.mask, p.m);
  AttentionTrace t;
  ASSERT_TRUE(scaled_dot_product_attention(Q, K, V, spec, &t).ok);
  const ref::Sdpa r = ref::sdpa(ref::from_mat(Q), ref::from_mat(K), ref::from_mat(V), spec);

  const std::string tag = std::to_string(p.n) + "x" + std::to_string(p.m) + " dk" + std::to_string(p.d_k) +
                          " dv" + std::to_string(p.d_v) + " " + mask_name(p.mask);
  const double tol_scores = 1e-6 * (p.d_k + 1);
  EXPECT_LE(ref::report(tag + " scores", ref::max_abs_diff(t.scores, r.scores)), tol_scores);
  EXPECT_LE(ref::report(tag + " scaled", ref::max_abs_diff(t.scaled, r.scaled)), tol_scores);
  EXPECT_EQ(ref::report(tag + " mask", ref::max_abs_diff(t.mask, r.mask)), 0.0);
  EXPECT_LE(ref::report(tag + " masked", ref::max_abs_diff(t.masked, r.masked)), tol_scores);
  EXPECT_LE(ref::report(tag + " weights", ref::max_abs_diff(t.weights(), r.softmax.weights)), 1e-5);
  EXPECT_LE(ref::report(tag + " output", ref::max_abs_diff(t.output, r.output)), 2e-5);
  EXPECT_EQ(t.fully_masked_rows, r.fully_masked_rows);
  EXPECT_EQ(t.n, p.n);
  EXPECT_EQ(t.m, p.m);
  EXPECT_EQ(t.d_k, p.d_k);
  EXPECT_EQ(t.d_v, p.d_v);
  EXPECT_EQ(t.output.rows(), p.n);
  EXPECT_EQ(t.output.cols(), p.d_v);
}

INSTANTIATE_TEST_SUITE_P(Shapes, CoreAttentionVsReference,
                         ::testing::Values(Shape{1, 1, 1, 1, MaskKind::None}, Shape{3, 3, 2, 2, MaskKind::None},
                                           Shape{5, 8, 4, 3, MaskKind::None}, Shape{8, 5, 16, 6, MaskKind::Causal},
                                           Shape{11, 11, 4, 4, MaskKind::Causal}, Shape{4, 9, 8, 2, MaskKind::Causal},
                                           Shape{6, 10, 32, 5, MaskKind::Padding},
                                           Shape{16, 16, 64, 64, MaskKind::Padding},
                                           Shape{64, 96, 64, 32, MaskKind::None},
                                           Shape{32, 32, 128, 16, MaskKind::Causal}),
                         [](const ::testing::TestParamInfo<Shape>& i) {
                           const Shape& s = i.param;
                           return "n" + std::to_string(s.n) + "_m" + std::to_string(s.m) + "_dk" + std::to_string(s.d_k) +
                                  "_dv" + std::to_string(s.d_v) + "_" + mask_name(s.mask);
                         });

// ---- invariants ----------------------------------------------------------------------------------------------

TEST(CoreAttention, RowsSumToOneAndHiddenWeightsAreExactlyZero) {
  for (MaskKind kind : {MaskKind::None, MaskKind::Padding, MaskKind::Causal}) {
    const int n = 20, m = 20;
    const MaskSpec spec = mask_of(kind, m);
    AttentionTrace t;
    ASSERT_TRUE(scaled_dot_product_attention(ref::random_mat(n, 8, 5, -4, 4), ref::random_mat(m, 8, 6, -4, 4),
                                             ref::random_mat(m, 3, 7), spec, &t).ok);
    for (int i = 0; i < n; ++i) {
      double sum = 0.0;
      for (int j = 0; j < m; ++j) {
        sum += t.weights()(i, j);
        if (t.mask(i, j) != 0.0f) EXPECT_EQ(t.weights()(i, j), 0.0f) << mask_name(kind) << " " << i << "," << j;
        else EXPECT_GT(t.weights()(i, j), 0.0f) << mask_name(kind) << " " << i << "," << j;
      }
      EXPECT_NEAR(sum, 1.0, 1e-5) << mask_name(kind) << " row " << i;
    }
  }
}

TEST(CoreAttention, CausalSquareZeroesStrictUpperTriangle) {
  const int n = 9;
  AttentionTrace t;
  ASSERT_TRUE(scaled_dot_product_attention(ref::random_mat(n, 4, 11), ref::random_mat(n, 4, 12),
                                           ref::random_mat(n, 4, 13), mask_of(MaskKind::Causal, n), &t).ok);
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) EXPECT_EQ(t.weights()(i, j), 0.0f) << i << "," << j;
  EXPECT_EQ(t.weights()(0, 0), 1.0f);  // the first token can only see itself
  // Output row 0 is then exactly value row 0.
  const Mat V = ref::random_mat(n, 4, 13);
  EXPECT_LE(ref::report("causal: output row 0 vs V row 0",
                        ref::max_abs_diff(Mat(t.output.row(0)), ref::from_mat(V.row(0)))), 1e-7);
}

TEST(CoreAttention, CausalWithFewerQueriesHidesKeysBeyondOffset) {
  const int n = 3, m = 7;  // queries are positions 4, 5, 6
  AttentionTrace t;
  ASSERT_TRUE(scaled_dot_product_attention(ref::random_mat(n, 4, 21), ref::random_mat(m, 4, 22),
                                           ref::random_mat(m, 2, 23), mask_of(MaskKind::Causal, m), &t).ok);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j) {
      if (j > i + (m - n)) EXPECT_EQ(t.weights()(i, j), 0.0f) << i << "," << j;
      else EXPECT_GT(t.weights()(i, j), 0.0f) << i << "," << j;
    }
  EXPECT_EQ(t.fully_masked_rows, 0);
}

TEST(CoreAttention, CausalWithMoreQueriesThanKeysFlagsEarlyRows) {
  const int n = 5, m = 3;  // query i sees keys j <= i - 2: queries 0 and 1 see nothing
  AttentionTrace t;
  ASSERT_TRUE(scaled_dot_product_attention(ref::random_mat(n, 2, 31), ref::random_mat(m, 2, 32),
                                           ref::random_mat(m, 2, 33), mask_of(MaskKind::Causal, m), &t).ok);
  EXPECT_EQ(t.fully_masked_rows, 2);
  EXPECT_EQ(t.softmax.fully_masked, (std::vector<uint8_t>{1, 1, 0, 0, 0}));
  for (int c = 0; c < 2; ++c) {
    EXPECT_EQ(t.output(0, c), 0.0f);
    EXPECT_EQ(t.output(1, c), 0.0f);
  }
  EXPECT_EQ(t.weights()(2, 0), 1.0f);
  EXPECT_FALSE(ref::any_nan(t.output));
}

TEST(CoreAttention, EveryKeyPaddedGivesZeroRowsFlagsAndNoNaN) {
  const int n = 3, m = 4;
  MaskSpec spec;
  spec.kind = MaskKind::Padding;
  spec.key_is_pad.assign(m, 1);  // every key is "[PAD]"
  AttentionTrace t;
  ASSERT_TRUE(scaled_dot_product_attention(ref::random_mat(n, 4, 41), ref::random_mat(m, 4, 42),
                                           ref::random_mat(m, 5, 43), spec, &t).ok);
  EXPECT_EQ(t.fully_masked_rows, n);
  EXPECT_EQ(t.softmax.fully_masked, (std::vector<uint8_t>(n, 1)));
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < m; ++j) EXPECT_EQ(t.weights()(i, j), 0.0f);
    for (int c = 0; c < 5; ++c) EXPECT_EQ(t.output(i, c), 0.0f);
  }
  for (const Mat* M : {&t.scores, &t.scaled, &t.mask, &t.masked, &t.softmax.exps, &t.softmax.weights, &t.output})
    EXPECT_FALSE(ref::any_nan(*M));
  EXPECT_FALSE(ref::any_nan(t.softmax.row_max));
  EXPECT_FALSE(ref::any_nan(t.softmax.row_sum));
}

TEST(CoreAttention, PaddedKeysHaveNoInfluence) {
  const int n = 4, m = 6;
  MaskSpec spec;
  spec.kind = MaskKind::Padding;
  spec.key_is_pad = {0, 1, 0, 1, 0, 0};
  const Mat Q = ref::random_mat(n, 3, 51), K = ref::random_mat(m, 3, 52), V = ref::random_mat(m, 2, 53);
  AttentionTrace a, b, c;
  ASSERT_TRUE(scaled_dot_product_attention(Q, K, V, spec, &a).ok);

  // 1) change what the padded keys hold: nothing changes
  Mat K2 = K, V2 = V;
  K2.row(1).setConstant(9.f);
  V2.row(3).setConstant(-100.f);
  ASSERT_TRUE(scaled_dot_product_attention(Q, K2, V2, spec, &b).ok);
  EXPECT_LE(ref::report("padding: changed pad rows", ref::max_abs_diff(a.output, ref::from_mat(b.output))), 1e-6);

  // 2) drop them: same as attending over the 4 real keys without a mask
  Mat Kr(4, 3), Vr(4, 2);
  int r = 0;
  for (int j = 0; j < m; ++j)
    if (!spec.key_is_pad[j]) Kr.row(r) = K.row(j), Vr.row(r++) = V.row(j);
  ASSERT_TRUE(scaled_dot_product_attention(Q, Kr, Vr, MaskSpec{}, &c).ok);
  EXPECT_LE(ref::report("padding: vs keys removed", ref::max_abs_diff(a.output, ref::from_mat(c.output))), 1e-6);

  // 3) and the mask matters at all: without it the output differs
  AttentionTrace d;
  ASSERT_TRUE(scaled_dot_product_attention(Q, K, V, MaskSpec{}, &d).ok);
  EXPECT_GT(ref::max_abs_diff(a.output, ref::from_mat(d.output)), 1e-3);
}

TEST(CoreAttention, LargeButAllowedValuesStayFinite) {
  // |entries| = 1e6 (the limit): scores reach 4e12, softmax saturates to one-hot, nothing overflows.
  Mat Q = Mat::Constant(2, 4, 1e6f), K(3, 4), V = ref::random_mat(3, 2, 61, -1e6, 1e6);
  K << 1e6f, 1e6f, 1e6f, 1e6f,
       -1e6f, -1e6f, -1e6f, -1e6f,
       1e6f, -1e6f, 1e6f, 1e6f;
  Q(1, 0) = -1e6f;
  AttentionTrace t;
  ASSERT_TRUE(scaled_dot_product_attention(Q, K, V, MaskSpec{}, &t).ok);
  for (const Mat* M : {&t.scores, &t.scaled, &t.masked, &t.softmax.exps, &t.softmax.weights, &t.output})
    for (Eigen::Index i = 0; i < M->rows(); ++i)
      for (Eigen::Index j = 0; j < M->cols(); ++j) EXPECT_TRUE(std::isfinite((*M)(i, j)));
  EXPECT_EQ(t.scores(0, 0), 4e12f);
  EXPECT_EQ(t.weights()(0, 0), 1.0f);
  EXPECT_EQ(t.weights()(0, 1), 0.0f);
  EXPECT_NEAR(t.weights()(1, 0) + t.weights()(1, 2), 1.0, 1e-6);
}

TEST(CoreAttention, AcceptsSizesAtTheLimits) {
  const int n = limits::kMaxTokens;
  AttentionTrace t;
  ASSERT_TRUE(scaled_dot_product_attention(ref::random_mat(n, 2, 71), ref::random_mat(n, 2, 72),
                                           ref::random_mat(n, 1, 73), mask_of(MaskKind::Causal, n), &t).ok);
  EXPECT_EQ(t.weights().rows(), n);
  EXPECT_GT(t.weights()(n - 1, n - 1), 0.f);
  AttentionTrace u;
  ASSERT_TRUE(scaled_dot_product_attention(ref::random_mat(1, limits::kMaxHeadDim, 74),
                                           ref::random_mat(2, limits::kMaxHeadDim, 75),
                                           ref::random_mat(2, limits::kMaxHeadDim, 76), MaskSpec{}, &u).ok);
  EXPECT_EQ(u.d_k, limits::kMaxHeadDim);
}

// ---- validation ----------------------------------------------------------------------------------------------

TEST(CoreAttentionValidation, ShapeMismatches) {
  const Mat Q = ref::random_mat(3, 4, 1), K = ref::random_mat(3, 4, 2), V = ref::random_mat(3, 2, 3);
  expect_refused(Q, ref::random_mat(3, 5, 2), V, MaskSpec{}, "K cols != Q cols", "K");
  expect_refused(Q, K, ref::random_mat(4, 2, 3), MaskSpec{}, "V rows != K rows", "V");
  expect_refused(Q, K, ref::random_mat(2, 2, 3), MaskSpec{}, "V rows < K rows", "V");
  expect_refused(ref::random_mat(3, 5, 1), K, V, MaskSpec{}, "Q cols != K cols");
}

TEST(CoreAttentionValidation, EmptyMatricesAndZeroDk) {
  const Mat Q = ref::random_mat(3, 4, 1), K = ref::random_mat(3, 4, 2), V = ref::random_mat(3, 2, 3);
  expect_refused(Mat(0, 4), K, V, MaskSpec{}, "Q has no rows", "empty");
  expect_refused(Mat(3, 0), Mat(3, 0), V, MaskSpec{}, "d_k = 0", "empty");
  expect_refused(Q, Mat(0, 4), Mat(0, 2), MaskSpec{}, "K has no rows", "empty");
  expect_refused(Q, K, Mat(3, 0), MaskSpec{}, "d_v = 0", "empty");
  expect_refused(Mat(), Mat(), Mat(), MaskSpec{}, "all empty");
}

TEST(CoreAttentionValidation, NonFiniteValues) {
  const Mat Q = ref::random_mat(3, 4, 1), K = ref::random_mat(3, 4, 2), V = ref::random_mat(3, 2, 3);
  Mat bad = Q;
  bad(1, 2) = kNaN;
  expect_refused(bad, K, V, MaskSpec{}, "NaN in Q", "NaN");
  bad = K;
  bad(2, 3) = kNaN;
  expect_refused(Q, bad, V, MaskSpec{}, "NaN in K", "NaN");
  bad = V;
  bad(0, 0) = kNaN;
  expect_refused(Q, K, bad, MaskSpec{}, "NaN in V", "NaN");
  bad = K;
  bad(0, 1) = kInfF;
  expect_refused(Q, bad, V, MaskSpec{}, "+inf in K", "inf");
  bad = Q;
  bad(2, 0) = -kInfF;
  expect_refused(bad, K, V, MaskSpec{}, "-inf in Q", "-inf");
  bad = V;
  bad(2, 1) = kInfF;
  expect_refused(Q, K, bad, MaskSpec{}, "+inf in V");
}

TEST(CoreAttentionValidation, ValuesAboveTheLimit) {
  const Mat Q = ref::random_mat(3, 4, 1), K = ref::random_mat(3, 4, 2), V = ref::random_mat(3, 2, 3);
  const float just_above = std::nextafter(limits::kMaxAbsValue, kInfF);
  Mat bad = Q;
  bad(0, 0) = just_above;
  expect_refused(bad, K, V, MaskSpec{}, "Q just above 1e6", "too large");
  bad = K;
  bad(1, 1) = -2e6f;
  expect_refused(Q, bad, V, MaskSpec{}, "K = -2e6", "too large");
  bad = V;
  bad(2, 1) = 3e7f;
  expect_refused(Q, K, bad, MaskSpec{}, "V = 3e7", "too large");

  // the limit itself is allowed
  bad = Q;
  bad(0, 0) = limits::kMaxAbsValue;
  bad(0, 1) = -limits::kMaxAbsValue;
  AttentionTrace t;
  EXPECT_TRUE(scaled_dot_product_attention(bad, K, V, MaskSpec{}, &t).ok);
}

TEST(CoreAttentionValidation, SizesPastTheLimits) {
  const int over = limits::kMaxTokens + 1;  // 1025
  const Mat K = ref::random_mat(3, 4, 2), V = ref::random_mat(3, 2, 3);
  expect_refused(ref::random_mat(over, 4, 1), K, V, MaskSpec{}, "n = 1025", "1024");
  expect_refused(ref::random_mat(3, 4, 1), ref::random_mat(over, 4, 2), ref::random_mat(over, 2, 3), MaskSpec{},
                 "m = 1025", "1024");
  const int wide = limits::kMaxHeadDim + 1;
  expect_refused(ref::random_mat(2, wide, 1), ref::random_mat(2, wide, 2), ref::random_mat(2, 2, 3), MaskSpec{},
                 "d_k = 513", "512");
  expect_refused(ref::random_mat(2, 4, 1), ref::random_mat(2, 4, 2), ref::random_mat(2, wide, 3), MaskSpec{},
                 "d_v = 513", "512");
}

TEST(CoreAttentionValidation, PaddingFlagsOfTheWrongSize) {
  const Mat Q = ref::random_mat(3, 4, 1), K = ref::random_mat(5, 4, 2), V = ref::random_mat(5, 2, 3);
  MaskSpec spec;
  spec.kind = MaskKind::Padding;
  spec.key_is_pad = {0, 0, 1};  // 3 flags for 5 keys (3 = n, a tempting mistake)
  expect_refused(Q, K, V, spec, "3 flags for 5 keys", "padding");
  spec.key_is_pad.assign(6, 0);
  expect_refused(Q, K, V, spec, "6 flags for 5 keys", "padding");
  // flags are ignored by the other mask kinds
  spec.kind = MaskKind::Causal;
  AttentionTrace t;
  EXPECT_TRUE(scaled_dot_product_attention(Q, K, V, spec, &t).ok);
}

// ---- the √d_k argument ---------------------------------------------------------------------------------------

TEST(CoreAttention, ScalingKeepsScoreVarianceNearOne) {
  // With unit-variance q and k, q·k sums d_k unit-variance products: variance d_k. Dividing by √d_k
  // brings it back to about 1 whatever d_k is.
  const int n = 256;
  double unscaled_var[3] = {};
  int idx = 0;
  for (int d_k : {4, 64, 256}) {
    const Mat Q = seeded_gaussian(n, d_k, 2024, 1, 1.0);
    const Mat K = seeded_gaussian(n, d_k, 2024, 2, 1.0);
    AttentionTrace t;
    ASSERT_TRUE(scaled_dot_product_attention(Q, K, Mat::Zero(n, 1), MaskSpec{}, &t).ok);
    double mean, var_s, var_z;
    ref::mean_var(t.scores, &mean, &var_s);
    ref::mean_var(t.scaled, &mean, &var_z);
    std::printf("    d_k = %3d: var(Q·Kᵀ) = %8.3f (ratio to d_k %.3f), var(Q·Kᵀ/√d_k) = %.3f\n", d_k, var_s,
                var_s / d_k, var_z);
    EXPECT_GT(var_s / d_k, 0.7) << d_k;
    EXPECT_LT(var_s / d_k, 1.4) << d_k;
    EXPECT_GT(var_z, 0.7) << d_k;
    EXPECT_LT(var_z, 1.4) << d_k;
    unscaled_var[idx++] = var_s;

    // Without the scale softmax saturates for big d_k: the mean largest weight of a row approaches 1.
    if (d_k == 256) {
      SoftmaxTrace raw;
      ASSERT_TRUE(softmax_rows(t.scores, &raw).ok);
      double peak_raw = 0.0, peak_scaled = 0.0;
      for (int i = 0; i < n; ++i) {
        peak_raw += raw.weights.row(i).maxCoeff() / n;
        peak_scaled += t.weights().row(i).maxCoeff() / n;
      }
      std::printf("    d_k = 256: mean max weight unscaled %.3f, scaled %.3f\n", peak_raw, peak_scaled);
      EXPECT_GT(peak_raw, 0.5);
      EXPECT_LT(peak_scaled, 0.2);
    }
  }
  EXPECT_GT(unscaled_var[2] / unscaled_var[0], 30.0);  // ideal 64
}

}  // namespace
}  // namespace ap
