// Unit tests for core/self_attention.h: Q, K, V projections of one or two sequences, self- and cross-attention
// from sentences, and the measured self-weight (the notes' argument for three matrices), each against naive
// double-precision loops (tests/core/reference.h). Tolerance 1e-5 absolute (float against double, entries of
// order 1, sums of at most d_model = 16 products).
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "core/self_attention.h"
#include "reference.h"

namespace ap {
namespace AP_UNITY_ID {  // this file's own namespace in a unity build (CMakeLists.txt, AP_UNITY)

constexpr double kTol = 1e-5;

SelfAttnModel build(const SelfAttnParams& p) {
  SelfAttnModel m;
  const Status s = build_self_attention(p, &m);
  EXPECT_TRUE(s.ok) << s.message;
  return m;
}

// Naive: the mean diagonal and the share of rows whose own weight is the largest.
void naive_self_weight(const ref::DMat& A, double* mean, double* argmax_self) {
  *mean = 0;
  int own = 0;
  for (int i = 0; i < A.rows; ++i) {
    *mean += A(i, i) / A.rows;
    double best = -1;
    for (int j = 0; j < A.cols; ++j) best = std::max(best, A(i, j));
    own += A(i, i) >= best;
  }
  *argmax_self = static_cast<double>(own) / A.rows;
}

TEST(CoreSelfAttention, ProjectionsOfTwoSequencesMatchNaiveLoops) {
  const Mat Xq = ref::random_mat(3, 6, 1), Xkv = ref::random_mat(5, 6, 2);
  const Mat Wq = ref::random_mat(6, 4, 3), Wk = ref::random_mat(6, 4, 4), Wv = ref::random_mat(6, 2, 5);
  Mat Q, K, V;
  ASSERT_TRUE(project_qkv(Xq, Xkv, Wq, Wk, Wv, &Q, &K, &V).ok);
  double worst = 0;
  worst = std::max(worst, ref::max_abs_diff(Q, ref::matmul(ref::from_mat(Xq), ref::from_mat(Wq))));
  worst = std::max(worst, ref::max_abs_diff(K, ref::matmul(ref::from_mat(Xkv), ref::from_mat(Wk))));
  worst = std::max(worst, ref::max_abs_diff(V, ref::matmul(ref::from_mat(Xkv), ref::from_mat(Wv))));
  EXPECT_LE(ref::report("Q = X2 W^Q, K = X W^K, V = X W^V", worst), kTol);
  EXPECT_EQ(Q.rows(), 3);
  EXPECT_EQ(K.rows(), 5);
  EXPECT_EQ(V.cols(), 2);
}

TEST(CoreSelfAttention, MismatchedSizesAreRefusedAndOutputsUntouched) {
  const Mat X6 = ref::random_mat(3, 6, 1), X8 = ref::random_mat(4, 8, 2);
  const Mat W6 = ref::random_mat(6, 4, 3), W8 = ref::random_mat(8, 4, 4), W6x3 = ref::random_mat(6, 3, 5);
  Mat Q = Mat::Constant(1, 1, 7.f), K = Q, V = Q;
  Status s = project_qkv(X6, X6, W8, W6, W6, &Q, &K, &V);
  EXPECT_FALSE(s.ok);
  EXPECT_NE(s.message.find("query sequence has 6 columns"), std::string::npos) << s.message;
  s = project_qkv(X6, X8, W6, W6, W6, &Q, &K, &V);
  EXPECT_FALSE(s.ok);
  EXPECT_NE(s.message.find("key/value sequence has 8 columns"), std::string::npos) << s.message;
  s = project_qkv(X6, X6, W6, W6x3, W6, &Q, &K, &V);
  EXPECT_FALSE(s.ok);
  EXPECT_NE(s.message.find("same d_k"), std::string::npos) << s.message;
  EXPECT_EQ(Q(0, 0), 7.f);
  EXPECT_EQ(K.size(), 1);
  SelfWeight w;
  EXPECT_FALSE(measure_self_weight(ref::random_mat(2, 3, 9), &w).ok) << "not square";
}

TEST(CoreSelfAttention, SelfAndCrossAttentionMatchTheReference) {
  for (bool cross : {false, true})
    for (bool identity : {false, true}) {
      SelfAttnParams p;
      p.cross = cross;
      p.identity = identity;
      p.text2 = "the tired animal";
      const SelfAttnModel m = build(p);
      const int n = cross ? 3 : 11, m_keys = 11;
      ASSERT_EQ(m.trace.n, n);
      ASSERT_EQ(m.trace.m, m_keys);
      EXPECT_EQ(m.query_tokens.size(), static_cast<size_t>(n));
      EXPECT_EQ(m.d_k, identity ? p.d_model : p.d_k);
      // Independent: X₂ or X times the core's W, in double, then the reference attention.
      const ref::DMat Xq = ref::from_mat(cross ? m.X2 : m.X), X = ref::from_mat(m.X);
      const ref::DMat Q = identity ? Xq : ref::matmul(Xq, ref::from_mat(m.Wq));
      const ref::DMat K = identity ? X : ref::matmul(X, ref::from_mat(m.Wk));
      const ref::DMat V = identity ? X : ref::matmul(X, ref::from_mat(m.Wv));
      const ref::Sdpa r = ref::sdpa(Q, K, V, MaskSpec{});
      double worst = std::max({ref::max_abs_diff(m.Q, Q), ref::max_abs_diff(m.K, K), ref::max_abs_diff(m.V, V)});
      worst = std::max({worst, ref::max_abs_diff(m.trace.weights(), r.softmax.weights), ref::max_abs_diff(m.trace.output, r.output)});
      const std::string what = std::string(cross ? "cross" : "self") + (identity ? " Q=K=V=X" : " projected") + " Q K V A O";
      EXPECT_LE(ref::report(what, worst), kTol);
    }
}

TEST(CoreSelfAttention, SelfWeightOfEachSettingMatchesNaiveLoops) {
  SelfAttnParams p;
  p.cross = true;  // the measurement is on the first sentence's self-attention whatever is shown
  const SelfAttnModel m = build(p);
  const ref::DMat X = ref::from_mat(m.X), V = ref::matmul(X, ref::from_mat(m.Wv));
  const ref::DMat Qs[] = {X, ref::matmul(X, ref::from_mat(m.Wq)), ref::matmul(X, ref::from_mat(m.Wq))};
  const ref::DMat Ks[] = {X, ref::matmul(X, ref::from_mat(m.Wq)), ref::matmul(X, ref::from_mat(m.Wk))};
  for (int s = 0; s < static_cast<int>(QkSetting::Count); ++s) {
    const ref::Sdpa r = ref::sdpa(Qs[s], Ks[s], s == 0 ? X : V, MaskSpec{});
    double mean, own;
    naive_self_weight(r.softmax.weights, &mean, &own);
    const SelfWeight& w = m.self_weight[s];
    double worst = std::fabs(w.mean - mean);
    worst = std::max(worst, ref::max_abs_diff(m.self_weights[s], r.softmax.weights));
    for (int i = 0; i < X.rows; ++i) worst = std::max(worst, std::fabs(w.diagonal[static_cast<size_t>(i)] - r.softmax.weights(i, i)));
    EXPECT_LE(ref::report(std::string("self-weight ") + qk_setting_name(static_cast<QkSetting>(s)), worst), kTol);
    EXPECT_DOUBLE_EQ(w.argmax_self, own) << qk_setting_name(static_cast<QkSetting>(s));
    EXPECT_DOUBLE_EQ(w.uniform, 1.0 / 11);
  }
}

// The notes' argument, measured: Q = K = V = X puts each token's largest weight on itself; one shared matrix
// keeps much of that; separate W^Q and W^K remove it, over many seeds.
TEST(CoreSelfAttention, IdentityAttendsToItselfSeparateMatricesDoNot) {
  double identity = 0, shared = 0, separate = 0, own_identity = 0;
  const int seeds = 20;
  for (int seed = 1; seed <= seeds; ++seed) {
    SelfAttnParams p;
    p.seed = static_cast<uint64_t>(seed);
    const SelfAttnModel m = build(p);
    identity += m.self_weight[0].mean / seeds;
    shared += m.self_weight[1].mean / seeds;
    separate += m.self_weight[2].mean / seeds;
    own_identity += m.self_weight[0].argmax_self / seeds;
  }
  std::printf("    mean self-weight over %d seeds: identity %.3f, shared %.3f, separate %.3f (uniform %.3f)\n", seeds, identity,
              shared, separate, 1.0 / 11);
  EXPECT_GT(identity, 0.5);
  EXPECT_GT(own_identity, 0.85);  // "the" twice: equal words differ only by their position codes
  EXPECT_GT(shared, separate);
  EXPECT_LT(separate, 2.0 / 11);
}

TEST(CoreSelfAttention, BadParametersAreRefusedAndTheModelUntouched) {
  SelfAttnModel m;
  m.d_k = -7;
  const auto refused = [&](SelfAttnParams p, const char* expect) {
    const Status s = build_self_attention(p, &m);
    EXPECT_FALSE(s.ok) << expect;
    EXPECT_NE(s.message.find(expect), std::string::npos) << s.message;
    EXPECT_EQ(m.d_k, -7);
  };
  SelfAttnParams p;
  p.text = "  ";
  refused(p, "text has no tokens");
  p = SelfAttnParams{};
  p.cross = true;
  p.text2 = "";
  refused(p, "text2 has no tokens");
  p.text2 = "a b c d e f";
  p.max_tokens = 5;
  refused(p, "text has 11 tokens, over the limit of 5");
  p.text = "a b";
  refused(p, "text2 has 6 tokens, over the limit of 5");
  p = SelfAttnParams{};
  p.d_k = 17;
  refused(p, "d_k must be between 1 and 16, got 17");
  p.d_k = 0;
  refused(p, "d_k must be between 1 and 16, got 0");
  p = SelfAttnParams{};
  p.d_model = 600;
  refused(p, "d_model must be between 1 and 512");
  // text2 is not read in self-attention
  p = SelfAttnParams{};
  p.text2 = "";
  EXPECT_TRUE(build_self_attention(p, &m).ok);
}

}  // namespace
}  // namespace ap
