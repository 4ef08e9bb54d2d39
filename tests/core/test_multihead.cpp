// Unit tests for multi-head attention (core/multihead.h).
#include <gtest/gtest.h>

#include <limits>
#include <string>
#include <vector>

#include "core/embedding.h"
#include "core/multihead.h"
#include "reference.h"

namespace ap {
namespace AP_UNITY_ID {  // this file's own namespace in a unity build (CMakeLists.txt, AP_UNITY)

MultiHeadWeights make(int d_model, int heads, uint64_t seed = 42) {
  MultiHeadWeights w;
  const Status s = make_multihead_weights(d_model, heads, seed, &w);
  EXPECT_TRUE(s.ok) << s.message;
  return w;
}

std::vector<ref::DMat> to_double(const std::vector<Mat>& v) {
  std::vector<ref::DMat> out;
  for (const Mat& m : v) out.push_back(ref::from_mat(m));
  return out;
}

MaskSpec mask_of(MaskKind kind, int m) {
  MaskSpec s;
  s.kind = kind;
  if (kind == MaskKind::Padding)
    for (int j = 0; j < m; ++j) s.key_is_pad.push_back(j % 4 == 3);
  return s;
}

MultiHeadTrace sentinel_trace() {
  MultiHeadTrace t;
  t.output = Mat::Constant(2, 2, 42.f);
  t.concat = Mat::Constant(1, 1, 43.f);
  t.Q.push_back(Mat::Constant(1, 1, 44.f));
  return t;
}

void expect_refused(const Mat& Xq, const Mat& Xkv, const MultiHeadWeights& w, const MaskSpec& spec,
                    const std::string& what) {
  SCOPED_TRACE(what);
  MultiHeadTrace t = sentinel_trace();
  const Status s = multi_head_attention(Xq, Xkv, w, spec, &t);
  EXPECT_FALSE(s.ok);
  EXPECT_FALSE(s.message.empty());
  EXPECT_TRUE(ref::identical(t.output, Mat::Constant(2, 2, 42.f)));
  EXPECT_TRUE(ref::identical(t.concat, Mat::Constant(1, 1, 43.f)));
  EXPECT_EQ(t.Q.size(), 1u);
  EXPECT_TRUE(t.heads.empty());
}

// ---- weights -------------------------------------------------------------------------------------------------

TEST(CoreMultiHeadWeights, ShapesAndStreams) {
  const MultiHeadWeights w = make(16, 4, 7);
  EXPECT_EQ(w.d_model, 16);
  EXPECT_EQ(w.heads, 4);
  EXPECT_EQ(w.d_head, 4);
  ASSERT_EQ(w.Wq.size(), 4u);
  ASSERT_EQ(w.Wk.size(), 4u);
  ASSERT_EQ(w.Wv.size(), 4u);
  for (int h = 0; h < 4; ++h)
    for (const Mat* W : {&w.Wq[h], &w.Wk[h], &w.Wv[h]}) {
      EXPECT_EQ(W->rows(), 16);
      EXPECT_EQ(W->cols(), 4);
    }
  EXPECT_EQ(w.Wo.rows(), 16);
  EXPECT_EQ(w.Wo.cols(), 16);
  // every head has its own subspace; same seed reproduces, another seed changes
  EXPECT_FALSE(ref::identical(w.Wq[0], w.Wq[1]));
  EXPECT_FALSE(ref::identical(w.Wq[2], w.Wk[2]));
  EXPECT_FALSE(ref::identical(w.Wk[3], w.Wv[3]));
  EXPECT_TRUE(ref::identical(w.Wq[3], make(16, 4, 7).Wq[3]));
  EXPECT_TRUE(ref::identical(w.Wo, make(16, 4, 7).Wo));
  EXPECT_FALSE(ref::identical(w.Wq[3], make(16, 4, 8).Wq[3]));
  EXPECT_TRUE(ref::identical(w.Wq[2], projection_weights(16, 4, 7, 'Q', 2)));
}

TEST(CoreMultiHeadWeights, RefusesBadHeadCountsAndLeavesOutput) {
  const int bad[][2] = {{16, 0}, {16, -1}, {32, limits::kMaxHeads + 1}, {10, 4}, {16, 3},
                        {0, 1}, {-8, 2}, {limits::kMaxModelDim + 1, 1}};
  for (const auto& c : bad) {
    MultiHeadWeights w;
    w.d_model = -1;
    w.heads = -2;
    const Status s = make_multihead_weights(c[0], c[1], 1, &w);
    EXPECT_FALSE(s.ok) << c[0] << "/" << c[1];
    EXPECT_FALSE(s.message.empty());
    EXPECT_EQ(w.d_model, -1);
    EXPECT_EQ(w.heads, -2);
    EXPECT_TRUE(w.Wq.empty());
  }
  MultiHeadWeights w;
  const Status s = make_multihead_weights(10, 4, 1, &w);
  EXPECT_NE(s.message.find("divide"), std::string::npos) << s.message;
  EXPECT_TRUE(make_multihead_weights(limits::kMaxModelDim, limits::kMaxHeads, 1, &w).ok);
  EXPECT_EQ(w.d_head, limits::kMaxModelDim / limits::kMaxHeads);
}

// ---- comparison with the naive reference ---------------------------------------------------------------------

struct MhaCase {
  int d_model, heads, n, m;
  MaskKind mask;
};

class CoreMultiHeadVsReference : public ::testing::TestWithParam<MhaCase> {};

TEST_P(CoreMultiHeadVsReference, OutputAndConcatMatch) {
  const MhaCase p = GetParam();
  const MultiHeadWeights w = make(p.d_model, p.heads, 100 + p.heads);
  const Mat Xq = ref::random_mat(p.n, p.d_model, 300 + p.n, -2, 2);
  const Mat Xkv = p.n == p.m ? Xq : ref::random_mat(p.m, p.d_model, 400 + p.m, -2, 2);  // self or cross
  const MaskSpec spec = mask_of(p.mask, p.m);
  MultiHeadTrace t;
  const Status s = multi_head_attention(Xq, Xkv, w, spec, &t);
  ASSERT_TRUE(s.ok) << s.message;

  ref::DMat concat;
  const ref::DMat out = ref::multi_head(ref::from_mat(Xq), ref::from_mat(Xkv), to_double(w.Wq), to_double(w.Wk),
                                        to_double(w.Wv), ref::from_mat(w.Wo), spec, &concat);
  const std::string tag = "d" + std::to_string(p.d_model) + " h" + std::to_string(p.heads) + " " +
                          std::to_string(p.n) + "x" + std::to_string(p.m) + " " + mask_name(p.mask);
  EXPECT_LE(ref::report(tag + " concat", ref::max_abs_diff(t.concat, concat)), 1e-5);
  EXPECT_LE(ref::report(tag + " output", ref::max_abs_diff(t.output, out)), 2e-5);
  EXPECT_EQ(t.output.rows(), p.n);
  EXPECT_EQ(t.output.cols(), p.d_model);
  ASSERT_EQ(static_cast<int>(t.heads.size()), p.heads);
  for (int h = 0; h < p.heads; ++h) {
    EXPECT_EQ(t.Q[h].rows(), p.n);
    EXPECT_EQ(t.K[h].rows(), p.m);
    EXPECT_EQ(t.V[h].rows(), p.m);
    EXPECT_EQ(t.Q[h].cols(), w.d_head);
    EXPECT_EQ(t.heads[h].d_k, w.d_head);
  }
}

INSTANTIATE_TEST_SUITE_P(Cases, CoreMultiHeadVsReference,
                         ::testing::Values(MhaCase{16, 4, 5, 5, MaskKind::None},
                                           MhaCase{12, 3, 4, 7, MaskKind::Padding},
                                           MhaCase{8, 1, 6, 6, MaskKind::Causal},
                                           MhaCase{32, 8, 3, 9, MaskKind::Causal},
                                           MhaCase{64, 16, 10, 10, MaskKind::None},
                                           MhaCase{48, 2, 12, 8, MaskKind::Padding}),
                         [](const ::testing::TestParamInfo<MhaCase>& i) {
                           const MhaCase& c = i.param;
                           return "dmodel" + std::to_string(c.d_model) + "_h" + std::to_string(c.heads) + "_n" +
                                  std::to_string(c.n) + "_m" + std::to_string(c.m) + "_" + mask_name(c.mask);
                         });

TEST(CoreMultiHead, OneHeadEqualsSingleAttentionWithTheSameWeights) {
  const MultiHeadWeights w = make(16, 1, 3);
  ASSERT_EQ(w.d_head, 16);
  const Mat X = ref::random_mat(7, 16, 17);
  MultiHeadTrace mh;
  ASSERT_TRUE(multi_head_attention(X, X, w, mask_of(MaskKind::Causal, 7), &mh).ok);

  Mat Q, K, V, single_out;
  ASSERT_TRUE(project(X, w.Wq[0], &Q).ok);
  ASSERT_TRUE(project(X, w.Wk[0], &K).ok);
  ASSERT_TRUE(project(X, w.Wv[0], &V).ok);
  AttentionTrace a;
  ASSERT_TRUE(scaled_dot_product_attention(Q, K, V, mask_of(MaskKind::Causal, 7), &a).ok);
  ASSERT_TRUE(project(a.output, w.Wo, &single_out).ok);
  EXPECT_LE(ref::report("1 head vs sdpa weights", ref::max_abs_diff(mh.heads[0].weights(), ref::from_mat(a.weights()))),
            1e-6);
  EXPECT_LE(ref::report("1 head vs sdpa·W^O output", ref::max_abs_diff(mh.output, ref::from_mat(single_out))), 1e-5);
  EXPECT_LE(ref::max_abs_diff(mh.concat, ref::from_mat(a.output)), 1e-6);
}

TEST(CoreMultiHead, ConcatPutsHeadHInItsOwnColumns) {
  const MultiHeadWeights w = make(24, 3, 9);
  const Mat Xq = ref::random_mat(4, 24, 1), Xkv = ref::random_mat(6, 24, 2);
  MultiHeadTrace t;
  ASSERT_TRUE(multi_head_attention(Xq, Xkv, w, MaskSpec{}, &t).ok);
  ASSERT_EQ(t.concat.rows(), 4);
  ASSERT_EQ(t.concat.cols(), 24);
  for (int h = 0; h < 3; ++h) {
    // columns [h·d_head, (h+1)·d_head) hold exactly head h's output
    EXPECT_TRUE(ref::identical(Mat(t.concat.middleCols(h * 8, 8)), t.heads[h].output)) << "head " << h;
    // and each head's Q/K/V are the projections of the inputs
    EXPECT_LE(ref::max_abs_diff(t.Q[h], ref::matmul(ref::from_mat(Xq), ref::from_mat(w.Wq[h]))), 1e-5);
    EXPECT_LE(ref::max_abs_diff(t.K[h], ref::matmul(ref::from_mat(Xkv), ref::from_mat(w.Wk[h]))), 1e-5);
    EXPECT_LE(ref::max_abs_diff(t.V[h], ref::matmul(ref::from_mat(Xkv), ref::from_mat(w.Wv[h]))), 1e-5);
  }
  // the heads really are different views
  EXPECT_GT(ref::max_abs_diff(t.heads[0].weights(), ref::from_mat(t.heads[1].weights())), 1e-3);
}

TEST(CoreMultiHead, EveryHeadKeepsTheMaskInvariants) {
  const MultiHeadWeights w = make(32, 4, 5);
  const Mat X = ref::random_mat(9, 32, 77, -3, 3);
  MultiHeadTrace t;
  ASSERT_TRUE(multi_head_attention(X, X, w, mask_of(MaskKind::Causal, 9), &t).ok);
  for (int h = 0; h < 4; ++h)
    for (int i = 0; i < 9; ++i) {
      double sum = 0.0;
      for (int j = 0; j < 9; ++j) {
        sum += t.heads[h].weights()(i, j);
        if (j > i) {
          EXPECT_EQ(t.heads[h].weights()(i, j), 0.0f) << h << ":" << i << "," << j;
        }
      }
      EXPECT_NEAR(sum, 1.0, 1e-5);
    }
}

// ---- validation ----------------------------------------------------------------------------------------------

TEST(CoreMultiHeadValidation, BadInputsAreRefused) {
  const MultiHeadWeights w = make(16, 4);
  const Mat X = ref::random_mat(5, 16, 1);
  expect_refused(ref::random_mat(5, 15, 1), X, w, MaskSpec{}, "Xq has 15 columns");
  expect_refused(X, ref::random_mat(5, 17, 1), w, MaskSpec{}, "Xkv has 17 columns");
  expect_refused(Mat(0, 16), X, w, MaskSpec{}, "empty Xq");
  expect_refused(X, Mat(0, 16), w, MaskSpec{}, "empty Xkv");
  Mat bad = X;
  bad(2, 3) = std::numeric_limits<float>::quiet_NaN();
  expect_refused(X, bad, w, MaskSpec{}, "NaN in Xkv");
  bad = X;
  bad(0, 0) = -std::numeric_limits<float>::infinity();
  expect_refused(bad, X, w, MaskSpec{}, "-inf in Xq");
  bad = X;
  bad(4, 15) = 5e6f;
  expect_refused(bad, X, w, MaskSpec{}, "5e6 in Xq");
  expect_refused(ref::random_mat(limits::kMaxTokens + 1, 16, 1), X, w, MaskSpec{}, "1025 queries");
  MaskSpec pad;
  pad.kind = MaskKind::Padding;
  pad.key_is_pad = {0, 1};
  expect_refused(X, X, w, pad, "2 padding flags for 5 keys");
}

TEST(CoreMultiHeadValidation, IncompleteOrInconsistentWeightsAreRefused) {
  const Mat X = ref::random_mat(5, 16, 1);
  expect_refused(X, X, MultiHeadWeights{}, MaskSpec{}, "default weights (heads = 0)");

  MultiHeadWeights w = make(16, 4);
  w.Wk.pop_back();
  expect_refused(X, X, w, MaskSpec{}, "one W^K missing");

  w = make(16, 4);
  w.Wk = std::vector<Mat>();  // no storage at all: reading Wk[0] would crash
  expect_refused(X, X, w, MaskSpec{}, "no W^K");

  w = make(16, 4);
  w.Wv = std::vector<Mat>();
  expect_refused(X, X, w, MaskSpec{}, "no W^V");

  w = make(16, 4);
  w.Wv[1] = projection_weights(16, 5, 1, 'V', 1);
  expect_refused(X, X, w, MaskSpec{}, "W^V of head 2 five columns wide");

  w = make(16, 4);
  w.Wq[3] = projection_weights(15, 4, 1, 'Q', 3);
  expect_refused(X, X, w, MaskSpec{}, "W^Q of head 4 with 15 rows");

  w = make(16, 4);
  w.Wo = projection_weights(16, 12, 1, 'O');
  expect_refused(X, X, w, MaskSpec{}, "W^O 16x12");

  w = make(16, 4);
  w.Wo(3, 3) = std::numeric_limits<float>::quiet_NaN();
  expect_refused(X, X, w, MaskSpec{}, "NaN in W^O");

  w = make(16, 4);
  w.Wk[0](0, 0) = std::numeric_limits<float>::infinity();
  expect_refused(X, X, w, MaskSpec{}, "inf in W^K");
}


// ---- the parameter count and each head's focus (what the multi-head scene shows) -------------------------------

// Naive count: one by one over every entry of every matrix.
long long count_entries(const MultiHeadWeights& w) {
  long long n = 0;
  for (const std::vector<Mat>* group : {&w.Wq, &w.Wk, &w.Wv})
    for (const Mat& m : *group)
      for (int i = 0; i < m.rows(); ++i)
        for (int j = 0; j < m.cols(); ++j) ++n;
  for (int i = 0; i < w.Wo.rows(); ++i)
    for (int j = 0; j < w.Wo.cols(); ++j) ++n;
  return n;
}

TEST(CoreMultiHeadParams, CountedFromTheMatricesIsFourDModelSquaredForEveryH) {
  for (const int d : {10, 16, 96}) {
    std::vector<MultiHeadParamCount> table;
    ASSERT_TRUE(multihead_param_table(d, 42, &table).ok) << d;
    std::vector<int> heads, want;
    for (int h = 1; h <= limits::kMaxHeads; ++h)
      if (d % h == 0) want.push_back(h);
    for (const MultiHeadParamCount& c : table) {
      heads.push_back(c.heads);
      const MultiHeadWeights w = make(d, c.heads, 42);
      EXPECT_EQ(c.total(), count_entries(w)) << d << "/" << c.heads;
      EXPECT_EQ(c.total(), 4LL * d * d) << d << "/" << c.heads;
      EXPECT_EQ(c.wq, 1LL * d * d);
      EXPECT_EQ(c.wo, 1LL * d * d);
      EXPECT_EQ(c.d_head * c.heads, d);
    }
    EXPECT_EQ(heads, want) << "every divisor of " << d << " up to kMaxHeads, each computed";
  }
  std::vector<MultiHeadParamCount> untouched(1);
  EXPECT_FALSE(multihead_param_table(0, 1, &untouched).ok);
  EXPECT_EQ(untouched.size(), 1u);
}

TEST(CoreMultiHeadParams, TheCountReadsTheMatricesNotAFormula) {
  MultiHeadWeights w = make(16, 4);
  w.Wv.pop_back();                             // a head without W^V
  w.Wo = projection_weights(12, 16, 1, 'O');   // and a narrower W^O
  const MultiHeadParamCount c = count_multihead_params(w);
  EXPECT_EQ(c.wv, 3 * 16 * 4);
  EXPECT_EQ(c.wo, 12 * 16);
  EXPECT_EQ(c.total(), count_entries(w));
  EXPECT_NE(c.total(), 4 * 16 * 16);
}

TEST(CoreMultiHeadFocus, EntropyMaxWeightAndTopKeyMatchNaiveLoops) {
  const MultiHeadWeights w = make(32, 4, 11);
  const Mat X = ref::random_mat(9, 32, 5, -2, 2);
  for (MaskKind kind : {MaskKind::None, MaskKind::Causal, MaskKind::Padding}) {
    MultiHeadTrace t;
    ASSERT_TRUE(multi_head_attention(X, X, w, mask_of(kind, 9), &t).ok);
    const std::vector<HeadFocus> f = head_focus(t);
    ASSERT_EQ(f.size(), 4u);
    double worst = 0;
    for (int h = 0; h < 4; ++h) {
      const ref::DMat A = ref::from_mat(t.heads[h].weights());
      double ent = 0, mx = 0;
      for (int i = 0; i < A.rows; ++i) {
        double e = 0, best = -1;
        int top = -1;
        for (int j = 0; j < A.cols; ++j) {
          if (A(i, j) > 0) e -= A(i, j) * std::log(A(i, j));
          if (A(i, j) > best) { best = A(i, j); top = j; }
        }
        ent += e;
        mx += best;
        EXPECT_EQ(f[h].top_key[i], top) << mask_name(kind) << " head " << h << " row " << i;
      }
      worst = std::max({worst, std::abs(f[h].mean_entropy - ent / A.rows), std::abs(f[h].mean_max_weight - mx / A.rows)});
      EXPECT_GE(f[h].mean_entropy, 0.0);
      EXPECT_LE(f[h].mean_entropy, std::log(9.0) + 1e-9);
    }
    EXPECT_LE(ref::report(std::string("head focus ") + mask_name(kind), worst), 1e-9);
  }
}

TEST(CoreMultiHeadFocus, UniformRowsHaveEntropyLnMAndHiddenRowsAreSkipped) {
  // Zero inputs give equal scores: every weight is 1/m, the entropy ln m, the largest weight 1/m.
  const MultiHeadWeights w = make(8, 2);
  MultiHeadTrace t;
  ASSERT_TRUE(multi_head_attention(Mat::Zero(5, 8), Mat::Zero(5, 8), w, MaskSpec{}, &t).ok);
  for (const HeadFocus& f : head_focus(t)) {
    EXPECT_NEAR(f.mean_entropy, std::log(5.0), 1e-6);
    EXPECT_NEAR(f.mean_max_weight, 0.2, 1e-6);
  }
  // Every key padding: every row is hidden, flagged −1, and the means stay 0 (no NaN).
  MaskSpec all_pad;
  all_pad.kind = MaskKind::Padding;
  all_pad.key_is_pad.assign(5, 1);
  const Mat X = ref::random_mat(5, 8, 3);
  ASSERT_TRUE(multi_head_attention(X, X, w, all_pad, &t).ok);
  for (const HeadFocus& f : head_focus(t)) {
    EXPECT_EQ(f.top_key, std::vector<int>(5, -1));
    EXPECT_EQ(f.mean_entropy, 0.0);
    EXPECT_EQ(f.mean_max_weight, 0.0);
  }
}

}  // namespace
}  // namespace ap
