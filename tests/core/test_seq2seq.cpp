// Unit tests for core/seq2seq.h: the RNN encoder (one and two directions), Bahdanau and Luong attention
// (the bottleneck probe: test_bottleneck_probe.cpp). Each computation is compared with the naive double-precision reference
// (reference_seq2seq.h) and checked for the invariants the lesson relies on.
//
// Tolerances: the core runs in float (Eigen, its fast tanh), the reference in double. A float tanh/matvec
// step is good to a few 1e-7; errors do not grow along the recurrence because tanh' <= 1 and the gain is
// below 1, so states and attention quantities are compared at 1e-5 (scores, which sum d_a or d_enc
// products, at 2e-5). Probe R² values come from double normal equations over float states: 1e-4.
#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <cmath>
#include <ctime>
#include <limits>
#include <string>
#include <vector>

#include "core/embedding.h"
#include "core/seq2seq.h"
#include "reference.h"
#include "reference_seq2seq.h"
#include "test_mode.h"

namespace ap {
namespace AP_UNITY_ID {  // this file's own namespace in a unity build (CMakeLists.txt, AP_UNITY)

namespace s2s = ref::s2s;

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInfF = std::numeric_limits<float>::infinity();
constexpr double kTol = 1e-5;       // states, weights, contexts
constexpr double kTolScore = 2e-5;  // scores

template <typename T>
std::string name_of(const ::testing::TestParamInfo<T>& info) {
  return info.param.name;
}

RnnWeights rnn_weights(int d_in, int d_h, double gain, uint64_t seed, uint64_t stream = 0) {
  RnnWeights w;
  const Status s = make_rnn_weights(d_in, d_h, gain, seed, stream, &w);
  EXPECT_TRUE(s.ok) << s.message;
  return w;
}

Mat birnn_states(const Mat& X, int d_h, uint64_t seed) {
  BiRnnWeights w;
  EXPECT_TRUE(make_birnn_weights(static_cast<int>(X.cols()), d_h, 0.9, seed, &w).ok);
  BiRnnTrace t;
  EXPECT_TRUE(birnn_encode(X, w, &t).ok);
  return t.H;
}

// α ≥ 0 with rows summing to 1, and every context component within [min_j h_jk, max_j h_jk] (a convex
// combination of the rows of H stays in their bounding box).
// The softmax each run keeps beside its alignment (what a hovered weight shows): row k's max_j e_kj and
// Σ_j exp(e_kj − max) equal a naive double loop over the scores, and α_kj = exp(e_kj − max) / Σ.
void expect_softmax_kept(const Mat& scores, const Mat& alignment, const Vec& score_max, const Vec& exp_sum,
                         const std::string& what) {
  ASSERT_EQ(score_max.size(), scores.rows()) << what;
  ASSERT_EQ(exp_sum.size(), scores.rows()) << what;
  double worst_max = 0, worst_sum = 0, worst_alpha = 0;
  for (Eigen::Index t = 0; t < scores.rows(); ++t) {
    double mx = -1e300, sum = 0;
    for (Eigen::Index j = 0; j < scores.cols(); ++j) mx = std::max(mx, double(scores(t, j)));
    for (Eigen::Index j = 0; j < scores.cols(); ++j) sum += std::exp(double(scores(t, j)) - mx);
    worst_max = std::max(worst_max, std::fabs(score_max(t) - mx));
    worst_sum = std::max(worst_sum, std::fabs(exp_sum(t) - sum) / sum);
    EXPECT_GE(exp_sum(t), 1.f) << what << " row " << t << ": the largest term is exp(0)";
    for (Eigen::Index j = 0; j < scores.cols(); ++j)
      worst_alpha = std::max(worst_alpha, std::fabs(alignment(t, j) - std::exp(double(scores(t, j)) - score_max(t)) / exp_sum(t)));
  }
  EXPECT_EQ(ref::report(what + " softmax max", worst_max), 0.0);
  EXPECT_LE(ref::report(what + " softmax Σ exp (relative)", worst_sum), 1e-6);
  EXPECT_LE(ref::report(what + " α from the kept max and Σ", worst_alpha), 1e-6);
}

void expect_convex(const Mat& alignment, const Mat& contexts, const Mat& H, const std::string& what) {
  SCOPED_TRACE(what);
  double worst_sum = 0.0, worst_out = 0.0;
  for (Eigen::Index t = 0; t < alignment.rows(); ++t) {
    double sum = 0.0;
    for (Eigen::Index j = 0; j < alignment.cols(); ++j) {
      EXPECT_GE(alignment(t, j), 0.f);
      sum += alignment(t, j);
    }
    worst_sum = std::max(worst_sum, std::fabs(sum - 1.0));
    for (Eigen::Index k = 0; k < H.cols(); ++k) {
      const double lo = H.col(k).minCoeff(), hi = H.col(k).maxCoeff(), c = contexts(t, k);
      worst_out = std::max({worst_out, lo - c, c - hi});
    }
  }
  EXPECT_LE(ref::report(what + " max |Σα − 1|", worst_sum), 1e-6);
  EXPECT_LE(worst_out, 1e-6) << "a context component left the range of the encoder states";
}

// ---- the RNN encoder -----------------------------------------------------------------------------------------

TEST(CoreSeq2Seq, RnnWorkedExampleOneUnit) {
  // d_in = d_h = 1: h_t = tanh(0.5·x_t + 0.8·h_{t-1} + 0.1), x = [1, -2, 3]
  RnnWeights w;
  w.d_in = w.d_h = 1;
  w.Wx = Mat::Constant(1, 1, 0.5f);
  w.Wh = Mat::Constant(1, 1, 0.8f);
  w.b = Vec::Constant(1, 0.1f);
  Mat X(3, 1);
  X << 1, -2, 3;
  RnnTrace t;
  ASSERT_TRUE(rnn_encode(X, w, false, &t).ok);
  const double h0 = std::tanh(0.6), h1 = std::tanh(-1.0 + 0.8 * h0 + 0.1), h2 = std::tanh(1.5 + 0.8 * h1 + 0.1);
  EXPECT_NEAR(t.pre(0, 0), 0.6, 1e-7);
  EXPECT_NEAR(t.pre(1, 0), -0.9 + 0.8 * h0, 1e-6);
  const double worst = std::max({std::fabs(t.H(0, 0) - h0), std::fabs(t.H(1, 0) - h1), std::fabs(t.H(2, 0) - h2)});
  EXPECT_LE(ref::report("one unit: states vs exact", worst), 1e-6);
  EXPECT_EQ(t.last(0), t.H(2, 0));  // Seq2Seq's c is the last state

  // reverse: reads 3, then -2, then 1; row j is the state after reading x_j
  RnnTrace r;
  ASSERT_TRUE(rnn_encode(X, w, true, &r).ok);
  const double g2 = std::tanh(1.6), g1 = std::tanh(-1.0 + 0.8 * g2 + 0.1), g0 = std::tanh(0.5 + 0.8 * g1 + 0.1);
  EXPECT_NEAR(r.H(2, 0), g2, 1e-6);
  EXPECT_NEAR(r.H(1, 0), g1, 1e-6);
  EXPECT_NEAR(r.H(0, 0), g0, 1e-6);
  EXPECT_EQ(r.last(0), r.H(0, 0));
  EXPECT_TRUE(r.reverse);
}

struct EncoderCase {
  const char* name;
  int n, d_in, d_h;
  double gain;
  bool reverse;
};
void PrintTo(const EncoderCase& c, std::ostream* os) { *os << c.name; }

class CoreSeq2SeqEncoder : public ::testing::TestWithParam<EncoderCase> {};

TEST_P(CoreSeq2SeqEncoder, MatchesReference) {
  const EncoderCase p = GetParam();
  const RnnWeights w = rnn_weights(p.d_in, p.d_h, p.gain, 100 + p.n);
  const Mat X = ref::random_mat(p.n, p.d_in, 7 + p.n, -2.0, 2.0);
  RnnTrace t;
  ASSERT_TRUE(rnn_encode(X, w, p.reverse, &t).ok);
  const ref::DMat Xd = ref::from_mat(X), Wx = ref::from_mat(w.Wx), Wh = ref::from_mat(w.Wh);
  const s2s::DVec b = s2s::from_vec(w.b);
  const s2s::Rnn r = p.reverse ? s2s::rnn_backward(Xd, Wx, Wh, b) : s2s::rnn_forward(Xd, Wx, Wh, b);
  const std::string tag = p.name;
  EXPECT_LE(ref::report(tag + " pre-activations", ref::max_abs_diff(t.pre, r.pre)), kTolScore);
  EXPECT_LE(ref::report(tag + " states H", ref::max_abs_diff(t.H, r.H)), kTol);
  EXPECT_LE(ref::report(tag + " last state", ref::max_abs_diff(t.last, r.last)), kTol);
  EXPECT_EQ(t.n, p.n);
  EXPECT_EQ(t.d_h, p.d_h);
  EXPECT_EQ(t.reverse, p.reverse);
  EXPECT_LT(t.H.cwiseAbs().maxCoeff(), 1.f);  // tanh keeps every state in (-1, 1)
}

INSTANTIATE_TEST_SUITE_P(Cases, CoreSeq2SeqEncoder,
                         ::testing::Values(EncoderCase{"one_token", 1, 3, 4, 0.9, false},
                                           EncoderCase{"short_forward", 5, 4, 8, 0.9, false},
                                           EncoderCase{"short_reverse", 5, 4, 8, 0.9, true},
                                           EncoderCase{"long_forward", 40, 8, 32, 0.9, false},
                                           EncoderCase{"long_reverse", 40, 8, 32, 0.9, true},
                                           EncoderCase{"no_memory_gain0", 6, 3, 5, 0.0, false},
                                           EncoderCase{"saturating_gain2", 30, 6, 16, 2.0, false},
                                           EncoderCase{"wide", 12, 64, 128, 1.0, true}),
                         name_of<EncoderCase>);

TEST(CoreSeq2Seq, BidirectionalIsBothDirectionsJoined) {
  const int n = 9, d_in = 5, d_h = 6;
  BiRnnWeights w;
  ASSERT_TRUE(make_birnn_weights(d_in, d_h, 0.9, 31, &w).ok);
  const Mat X = ref::random_mat(n, d_in, 32, -1.5, 1.5);
  BiRnnTrace bi;
  ASSERT_TRUE(birnn_encode(X, w, &bi).ok);
  ASSERT_EQ(bi.H.rows(), n);
  ASSERT_EQ(bi.H.cols(), 2 * d_h);

  // 1) the two directions run separately through the public encoder, then joined: bit for bit the same
  RnnTrace f, b;
  ASSERT_TRUE(rnn_encode(X, w.fwd, false, &f).ok);
  ASSERT_TRUE(rnn_encode(X, w.bwd, true, &b).ok);
  EXPECT_TRUE(ref::identical(bi.H.leftCols(d_h), f.H));
  EXPECT_TRUE(ref::identical(bi.H.rightCols(d_h), b.H));
  EXPECT_TRUE(ref::identical(bi.fwd.H, f.H));
  EXPECT_TRUE(ref::identical(bi.bwd.H, b.H));

  // 2) and against the reference: backward = forward RNN over the reversed sentence, rows reversed back
  const ref::DMat Xd = ref::from_mat(X);
  const s2s::Rnn rf = s2s::rnn_forward(Xd, ref::from_mat(w.fwd.Wx), ref::from_mat(w.fwd.Wh), s2s::from_vec(w.fwd.b));
  const s2s::Rnn rb = s2s::rnn_backward(Xd, ref::from_mat(w.bwd.Wx), ref::from_mat(w.bwd.Wh), s2s::from_vec(w.bwd.b));
  ref::DMat joined(n, 2 * d_h);
  for (int j = 0; j < n; ++j)
    for (int k = 0; k < d_h; ++k) joined(j, k) = rf.H(j, k), joined(j, d_h + k) = rb.H(j, k);
  EXPECT_LE(ref::report("bidirectional H vs [fwd; bwd] reference", ref::max_abs_diff(bi.H, joined)), kTol);
  // the directions have their own weights
  EXPECT_FALSE(ref::identical(w.fwd.Wx, w.bwd.Wx));
}

TEST(CoreSeq2Seq, EachDirectionOnlyReadsItsSide) {
  // Changing x_k moves forward states j >= k only, and backward states j <= k only — exactly.
  const int n = 7, k = 3;
  BiRnnWeights w;
  ASSERT_TRUE(make_birnn_weights(4, 5, 0.9, 41, &w).ok);
  Mat X = ref::random_mat(n, 4, 42), X2 = X;
  X2.row(k).setConstant(1.5f);
  BiRnnTrace a, b;
  ASSERT_TRUE(birnn_encode(X, w, &a).ok);
  ASSERT_TRUE(birnn_encode(X2, w, &b).ok);
  for (int j = 0; j < n; ++j) {
    const bool fwd_same = ref::identical(a.fwd.H.row(j), b.fwd.H.row(j));
    const bool bwd_same = ref::identical(a.bwd.H.row(j), b.bwd.H.row(j));
    EXPECT_EQ(fwd_same, j < k) << "forward state " << j;
    EXPECT_EQ(bwd_same, j > k) << "backward state " << j;
  }
}

TEST(CoreSeq2Seq, WeightsAreSeededDeterministicAndScaled) {
  const RnnWeights a = rnn_weights(8, 64, 0.9, 5), b = rnn_weights(8, 64, 0.9, 5), c = rnn_weights(8, 64, 0.9, 6);
  EXPECT_TRUE(ref::identical(a.Wx, b.Wx));
  EXPECT_TRUE(ref::identical(a.Wh, b.Wh));
  EXPECT_FALSE(ref::identical(a.Wx, c.Wx));
  EXPECT_FALSE(ref::identical(a.Wx, rnn_weights(8, 64, 0.9, 5, 1).Wx));  // another stream, another RNN
  // the gain only scales W_h: W_h(g) = g · W_h(1) (up to float rounding)
  const RnnWeights one = rnn_weights(8, 64, 1.0, 5), half = rnn_weights(8, 64, 0.5, 5);
  EXPECT_LE(ref::max_abs_diff(half.Wh, ref::from_mat(Mat(0.5f * one.Wh))), 1e-7);
  EXPECT_TRUE(ref::identical(half.Wx, one.Wx));
  // circular law: a d_h × d_h matrix with N(0, g²/d_h) entries has spectral radius near g. (Natively and in
  // wasm: in the sanitizer tree the test files are unoptimised and Eigen's eigensolver here takes seconds.)
  if (!test::kSanitized) {
    const RnnWeights big = rnn_weights(8, 200, 0.9, 9);
    const Eigen::MatrixXf Wh = big.Wh;
    const double radius = Eigen::EigenSolver<Eigen::MatrixXf>(Wh, false).eigenvalues().cwiseAbs().maxCoeff();
    std::printf("    spectral radius of W_h (d_h = 200, g = 0.9): %.3f\n", radius);
    EXPECT_NEAR(radius, 0.9, 0.12);
  }
  // W_x ~ N(0, 1/d_in): entries' variance
  double mean, var;
  ref::mean_var(a.Wx, &mean, &var);
  EXPECT_NEAR(var * 8, 1.0, 0.2);
}

// ---- Bahdanau ------------------------------------------------------------------------------------------------

struct DecoderCase {
  const char* name;
  int n, d_h, T, d_y, d_s, d_a;  // encoder states are bidirectional: d_enc = 2·d_h
};
void PrintTo(const DecoderCase& c, std::ostream* os) { *os << c.name; }

class CoreSeq2SeqBahdanau : public ::testing::TestWithParam<DecoderCase> {};

TEST_P(CoreSeq2SeqBahdanau, RunMatchesReferenceAndInvariants) {
  const DecoderCase p = GetParam();
  const Mat H = birnn_states(ref::random_mat(p.n, 6, 50 + p.n, -2.0, 2.0), p.d_h, 51);
  const int d_enc = 2 * p.d_h;
  const Mat Y = ref::random_mat(p.T, p.d_y, 52 + p.T);
  BahdanauWeights w;
  ASSERT_TRUE(make_bahdanau_weights(d_enc, p.d_y, p.d_s, p.d_a, 53, &w).ok);
  BahdanauRun r;
  const Status s = bahdanau_decode(H, Y, w, &r);
  ASSERT_TRUE(s.ok) << s.message;
  const s2s::Run want = s2s::bahdanau_run(ref::from_mat(H), ref::from_mat(Y), w);
  const std::string tag = std::string("Bahdanau ") + p.name;
  EXPECT_LE(ref::report(tag + " s_0", ref::max_abs_diff(r.s0, want.s0)), kTol);
  EXPECT_LE(ref::report(tag + " queries s_{t-1}", ref::max_abs_diff(r.queries, want.queries)), kTol);
  EXPECT_LE(ref::report(tag + " scores e", ref::max_abs_diff(r.scores, want.scores)), kTolScore);
  EXPECT_LE(ref::report(tag + " alignment α", ref::max_abs_diff(r.alignment, want.alignment)), kTol);
  EXPECT_LE(ref::report(tag + " contexts c", ref::max_abs_diff(r.contexts, want.contexts)), kTol);
  EXPECT_LE(ref::report(tag + " states s", ref::max_abs_diff(r.states, want.states)), kTol);
  EXPECT_EQ(r.n, p.n);
  EXPECT_EQ(r.T, p.T);
  ASSERT_EQ(r.alignment.rows(), p.T);
  ASSERT_EQ(r.alignment.cols(), p.n);
  expect_convex(r.alignment, r.contexts, H, tag);
  expect_softmax_kept(r.scores, r.alignment, r.score_max, r.exp_sum, tag);

  // Bahdanau attends with the PREVIOUS state: step 0 with s_0, step k with s_k (states row k-1)
  EXPECT_TRUE(ref::identical(r.queries.row(0), Mat(r.s0.transpose())));
  for (int k = 1; k < p.T; ++k) EXPECT_TRUE(ref::identical(r.queries.row(k), r.states.row(k - 1))) << k;

  // the single-step entry point reproduces every step of the run
  double worst = 0.0;
  for (int k = 0; k < p.T; ++k) {
    BahdanauAttend a;
    ASSERT_TRUE(bahdanau_attend(r.queries.row(k).transpose(), H, w, &a).ok);
    worst = std::max({worst, ref::max_abs_diff(a.alpha, s2s::row(ref::from_mat(r.alignment), k)),
                      ref::max_abs_diff(a.c, s2s::row(ref::from_mat(r.contexts), k))});
    ASSERT_EQ(a.hidden.rows(), p.n);
    ASSERT_EQ(a.hidden.cols(), p.d_a);
    EXPECT_LT(a.hidden.cwiseAbs().maxCoeff(), 1.f);
  }
  EXPECT_LE(ref::report(tag + " single step vs run", worst), 1e-6);

  // parameter list: names and shapes
  const std::vector<ParamShape> want_params = {{"W_a", p.d_a, p.d_s},      {"U_a", p.d_a, d_enc},
                                               {"v_a", p.d_a, 1},          {"W_init", p.d_s, d_enc},
                                               {"W_s", p.d_s, p.d_s},      {"W_in", p.d_s, p.d_y + d_enc},
                                               {"b_s", p.d_s, 1}};
  ASSERT_EQ(r.params.size(), want_params.size());
  for (size_t i = 0; i < want_params.size(); ++i) {
    EXPECT_EQ(r.params[i].name, want_params[i].name);
    EXPECT_EQ(r.params[i].rows, want_params[i].rows) << want_params[i].name;
    EXPECT_EQ(r.params[i].cols, want_params[i].cols) << want_params[i].name;
  }
  EXPECT_EQ(w.Win.cols(), p.d_y + d_enc);
}

INSTANTIATE_TEST_SUITE_P(Cases, CoreSeq2SeqBahdanau,
                         ::testing::Values(DecoderCase{"tiny", 1, 2, 1, 2, 3, 2},
                                           DecoderCase{"lesson_12_words", 12, 8, 13, 6, 16, 10},
                                           DecoderCase{"more_steps_than_words", 4, 4, 9, 3, 5, 7},
                                           DecoderCase{"long", 40, 16, 30, 8, 32, 24}),
                         name_of<DecoderCase>);

TEST(CoreSeq2Seq, BahdanauStepWorkedByHand) {
  // d_s = d_a = 1, d_enc = 1, H = [1, -1, 2]ᵀ, W_a = 1, U_a = 1, v_a = 2, s_{t-1} = 0.5:
  //   e_j = 2·tanh(0.5 + h_j) = 2·tanh([1.5, -0.5, 2.5])
  BahdanauWeights w;
  ASSERT_TRUE(make_bahdanau_weights(1, 1, 1, 1, 1, &w).ok);
  w.Wa.setConstant(1.f);
  w.Ua.setConstant(1.f);
  w.va.setConstant(2.f);
  Mat H(3, 1);
  H << 1, -1, 2;
  BahdanauAttend a;
  ASSERT_TRUE(bahdanau_attend(Vec::Constant(1, 0.5f), H, w, &a).ok);
  const double e[3] = {2 * std::tanh(1.5), 2 * std::tanh(-0.5), 2 * std::tanh(2.5)};
  const double z = std::exp(e[0]) + std::exp(e[1]) + std::exp(e[2]);
  double worst = 0.0, c = 0.0;
  for (int j = 0; j < 3; ++j) {
    worst = std::max({worst, std::fabs(a.e(j) - e[j]), std::fabs(a.alpha(j) - std::exp(e[j]) / z)});
    c += std::exp(e[j]) / z * H(j, 0);
  }
  worst = std::max(worst, std::fabs(a.c(0) - c));
  EXPECT_LE(ref::report("Bahdanau by hand", worst), 1e-6);
  EXPECT_GT(a.alpha(2), a.alpha(0));  // the largest h_j scores highest here
}

// ---- Luong ---------------------------------------------------------------------------------------------------

struct LuongCase {
  const char* name;
  int n, d_enc, T, d_y, d_s, d_a;
};
void PrintTo(const LuongCase& c, std::ostream* os) { *os << c.name; }

class CoreSeq2SeqLuong : public ::testing::TestWithParam<LuongCase> {};

TEST_P(CoreSeq2SeqLuong, ScoresAndRunMatchReference) {
  const LuongCase p = GetParam();
  RnnTrace enc;  // Luong et al.: a unidirectional encoder
  ASSERT_TRUE(rnn_encode(ref::random_mat(p.n, 5, 60 + p.n, -2.0, 2.0), rnn_weights(5, p.d_enc, 0.9, 61), false, &enc).ok);
  const Mat& H = enc.H;
  const Mat Y = ref::random_mat(p.T, p.d_y, 62);
  LuongWeights w;
  ASSERT_TRUE(make_luong_weights(p.d_enc, p.d_y, p.d_s, p.d_a, 63, &w).ok);
  const std::vector<LuongScore> kinds = luong_available_scores(p.d_s, p.d_enc);
  ASSERT_EQ(kinds.size(), p.d_s == p.d_enc ? 3u : 2u);

  // 1) one step, every score function, for a given s_t
  const Vec s = ref::random_mat(p.d_s, 1, 64).col(0);
  std::vector<LuongAttend> steps;
  ASSERT_TRUE(luong_attend(s, H, w, kinds, &steps).ok);
  ASSERT_EQ(steps.size(), kinds.size());
  for (size_t i = 0; i < kinds.size(); ++i) {
    const s2s::Step want = s2s::luong_step(kinds[i], s2s::from_vec(s), ref::from_mat(H), w);
    const std::string tag = std::string("Luong ") + p.name + " " + luong_score_name(kinds[i]);
    EXPECT_EQ(steps[i].kind, kinds[i]);
    EXPECT_LE(ref::report(tag + " step e", ref::max_abs_diff(steps[i].e, want.e)), kTolScore);
    EXPECT_LE(ref::report(tag + " step α", ref::max_abs_diff(steps[i].alpha, want.alpha)), kTol);
    EXPECT_LE(ref::report(tag + " step c", ref::max_abs_diff(steps[i].c, want.c)), kTol);
    EXPECT_EQ(steps[i].hidden.rows(), kinds[i] == LuongScore::Concat ? p.n : 0);
  }

  // 2) a whole run: states first, then each score function attends with the CURRENT state
  LuongRun run;
  ASSERT_TRUE(luong_decode(H, Y, w, kinds, &run).ok);
  ASSERT_EQ(run.runs.size(), kinds.size());
  for (size_t i = 0; i < kinds.size(); ++i) {
    const s2s::Run want = s2s::luong_run(kinds[i], ref::from_mat(H), ref::from_mat(Y), w);
    const LuongScoreRun& got = run.runs[i];
    const std::string tag = std::string("Luong ") + p.name + " " + luong_score_name(kinds[i]);
    EXPECT_EQ(got.kind, kinds[i]);
    EXPECT_LE(ref::report(tag + " run states s", ref::max_abs_diff(run.states, want.states)), kTol);
    EXPECT_LE(ref::report(tag + " run scores", ref::max_abs_diff(got.scores, want.scores)), kTolScore);
    EXPECT_LE(ref::report(tag + " run alignment", ref::max_abs_diff(got.alignment, want.alignment)), kTol);
    EXPECT_LE(ref::report(tag + " run contexts", ref::max_abs_diff(got.contexts, want.contexts)), kTol);
    EXPECT_LE(ref::report(tag + " run h̃", ref::max_abs_diff(got.attentional, want.attentional)), kTol);
    expect_convex(got.alignment, got.contexts, H, tag);
    expect_softmax_kept(got.scores, got.alignment, got.score_max, got.exp_sum, tag);
    ASSERT_EQ(got.alignment.rows(), p.T);
    ASSERT_EQ(got.alignment.cols(), p.n);
    // step k of the run is luong_attend with s_t = states row k
    std::vector<LuongAttend> one;
    const int k = p.T - 1;
    ASSERT_TRUE(luong_attend(run.states.row(k).transpose(), H, w, {kinds[i]}, &one).ok);
    EXPECT_LE(ref::max_abs_diff(one[0].alpha, s2s::row(ref::from_mat(got.alignment), k)), 1e-6);
  }
  EXPECT_EQ(run.params.size(), 8u);
  EXPECT_EQ(run.params[1].name, "W_a (concat)");
  EXPECT_EQ(run.params[1].cols, p.d_s + p.d_enc);
}

INSTANTIATE_TEST_SUITE_P(Cases, CoreSeq2SeqLuong,
                         ::testing::Values(LuongCase{"square_all_three", 6, 8, 5, 4, 8, 6},
                                           LuongCase{"no_dot_sizes_differ", 7, 10, 4, 3, 6, 5},
                                           LuongCase{"one_word", 1, 4, 3, 2, 4, 3},
                                           LuongCase{"long", 40, 32, 25, 8, 32, 16}),
                         name_of<LuongCase>);

TEST(CoreSeq2Seq, LuongDotEqualsGeneralWithIdentity) {
  const int n = 9, d = 12;
  const Mat H = ref::random_mat(n, d, 71);
  LuongWeights w;
  ASSERT_TRUE(make_luong_weights(d, 4, d, 6, 72, &w).ok);
  w.Wa_general = Mat::Identity(d, d);
  const Vec s = ref::random_mat(d, 1, 73).col(0);
  std::vector<LuongAttend> a;
  ASSERT_TRUE(luong_attend(s, H, w, {LuongScore::Dot, LuongScore::General}, &a).ok);
  const double de = ref::max_abs_diff(a[0].e, s2s::from_vec(a[1].e));
  const double da = ref::max_abs_diff(a[0].alpha, s2s::from_vec(a[1].alpha));
  EXPECT_LE(ref::report("dot vs general(W_a = I) scores", de), 1e-6);
  EXPECT_LE(ref::report("dot vs general(W_a = I) weights", da), 1e-6);
  // and over a whole run
  LuongRun run;
  ASSERT_TRUE(luong_decode(H, ref::random_mat(5, 4, 74), w, {LuongScore::Dot, LuongScore::General}, &run).ok);
  EXPECT_LE(ref::report("dot vs general(W_a = I) run alignment",
                        ref::max_abs_diff(run.runs[0].alignment, ref::from_mat(run.runs[1].alignment))), 1e-6);
}

TEST(CoreSeq2Seq, LuongStatesDoNotDependOnTheScore) {
  // no input feeding: the decoder states are computed before attending, the same for every score function
  const Mat H = ref::random_mat(6, 8, 81);
  const Mat Y = ref::random_mat(4, 3, 82);
  LuongWeights w;
  ASSERT_TRUE(make_luong_weights(8, 3, 8, 5, 83, &w).ok);
  LuongRun a, b;
  ASSERT_TRUE(luong_decode(H, Y, w, {LuongScore::Concat}, &a).ok);
  ASSERT_TRUE(luong_decode(H, Y, w, {LuongScore::Dot, LuongScore::General}, &b).ok);
  EXPECT_TRUE(ref::identical(a.states, b.states));
  // … and the three alignments differ from one another (different scores, same states)
  ASSERT_TRUE(luong_decode(H, Y, w, {LuongScore::Dot, LuongScore::General, LuongScore::Concat}, &b).ok);
  EXPECT_GT(ref::max_abs_diff(b.runs[0].alignment, ref::from_mat(b.runs[1].alignment)), 1e-3);
  EXPECT_GT(ref::max_abs_diff(b.runs[1].alignment, ref::from_mat(b.runs[2].alignment)), 1e-3);
  EXPECT_TRUE(ref::identical(b.runs[2].alignment, a.runs[0].alignment));
}

TEST(CoreSeq2Seq, ScoreNamesRoundTrip) {
  for (LuongScore k : {LuongScore::Dot, LuongScore::General, LuongScore::Concat}) {
    LuongScore back;
    ASSERT_TRUE(parse_luong_score_name(luong_score_name(k), &back));
    EXPECT_EQ(back, k);
  }
  LuongScore x;
  EXPECT_FALSE(parse_luong_score_name("additive", &x));
  EXPECT_EQ(luong_available_scores(4, 8).size(), 2u);
  EXPECT_EQ(luong_available_scores(8, 8).front(), LuongScore::Dot);
}

// ---- validation ----------------------------------------------------------------------------------------------

// Every refusal must leave its output exactly as it was.
RnnTrace sentinel_rnn() {
  RnnTrace t;
  t.n = -3;
  t.H = Mat::Constant(1, 2, 42.f);
  return t;
}
void expect_rnn_untouched(const RnnTrace& t) {
  EXPECT_EQ(t.n, -3);
  EXPECT_TRUE(ref::identical(t.H, Mat::Constant(1, 2, 42.f)));
  EXPECT_EQ(t.pre.size(), 0);
}

void expect_error(const Status& s, const std::string& must_mention) {
  EXPECT_FALSE(s.ok);
  EXPECT_NE(s.code, nullptr);
  EXPECT_NE(s.message.find(must_mention), std::string::npos) << s.message;
}

TEST(CoreSeq2SeqValidation, EncoderRefusals) {
  const RnnWeights w = rnn_weights(4, 5, 0.9, 1);
  const Mat X = ref::random_mat(3, 4, 2);
  struct Case {
    const char* what;
    Mat X;
    RnnWeights w;
    const char* mention;
  };
  RnnWeights bad_wh = w;
  bad_wh.Wh(1, 1) = kNaN;
  RnnWeights short_b = w;
  short_b.b = Vec::Zero(4);
  RnnWeights zero = w;
  zero.d_h = 0;
  Mat nan_x = X;
  nan_x(2, 3) = kNaN;
  Mat inf_x = X;
  inf_x(0, 0) = -kInfF;
  const std::vector<Case> cases = {
      {"X columns != d_in", ref::random_mat(3, 5, 2), w, "X has 5 columns, expected 4"},
      {"empty X", Mat(0, 4), w, "X is empty"},
      {"NaN in X", nan_x, w, "X[2][3] is NaN"},
      {"-inf in X", inf_x, w, "-inf"},
      {"too long", ref::random_mat(limits::kMaxTokens + 1, 4, 2), w, "1024"},
      {"NaN in W_h", X, bad_wh, "W_h[1][1] is NaN"},
      {"b of the wrong size", X, short_b, "b has 4 rows, expected 5"},
      {"d_h = 0", X, zero, "d_h must be between 1 and 256, got 0"},
      {"default weights", X, RnnWeights{}, "d_in must be between 1"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    for (bool reverse : {false, true}) {
      RnnTrace t = sentinel_rnn();
      expect_error(rnn_encode(c.X, c.w, reverse, &t), c.mention);
      expect_rnn_untouched(t);
    }
  }
  // weights
  RnnWeights out = w;
  expect_error(make_rnn_weights(0, 5, 0.9, 1, 0, &out), "d_in must be between 1 and 512, got 0");
  expect_error(make_rnn_weights(4, 257, 0.9, 1, 0, &out), "d_h must be between 1 and 256, got 257");
  expect_error(make_rnn_weights(4, 5, -0.1, 1, 0, &out), "the recurrent gain must be between 0 and 2, got -0.1");
  expect_error(make_rnn_weights(4, 5, std::nan(""), 1, 0, &out), "got NaN");
  EXPECT_TRUE(ref::identical(out.Wx, w.Wx));
  // bidirectional: directions of different sizes
  BiRnnWeights bw;
  ASSERT_TRUE(make_birnn_weights(4, 5, 0.9, 1, &bw).ok);
  bw.bwd = rnn_weights(4, 6, 0.9, 2);
  BiRnnTrace bt;
  bt.H = Mat::Constant(1, 1, 7.f);
  expect_error(birnn_encode(X, bw, &bt), "the two directions differ in size");
  bw.bwd = rnn_weights(4, 5, 0.9, 2);
  bw.bwd.Wx(0, 0) = kInfF;
  expect_error(birnn_encode(X, bw, &bt), "←W_x[0][0] is inf");
  EXPECT_TRUE(ref::identical(bt.H, Mat::Constant(1, 1, 7.f)));
  EXPECT_EQ(bt.fwd.H.size(), 0);
}

TEST(CoreSeq2SeqValidation, BahdanauRefusals) {
  BahdanauWeights w;
  ASSERT_TRUE(make_bahdanau_weights(6, 3, 4, 5, 1, &w).ok);
  const Mat H = ref::random_mat(5, 6, 2), Y = ref::random_mat(4, 3, 3);
  auto sentinel = [] {
    BahdanauRun r;
    r.T = -1;
    r.alignment = Mat::Constant(1, 1, 42.f);
    return r;
  };
  auto untouched = [](const BahdanauRun& r) {
    EXPECT_EQ(r.T, -1);
    EXPECT_TRUE(ref::identical(r.alignment, Mat::Constant(1, 1, 42.f)));
    EXPECT_TRUE(r.params.empty());
  };
  BahdanauWeights bad = w;
  bad.Ua = Mat::Zero(5, 7);
  Mat nan_h = H;
  nan_h(4, 5) = kNaN;
  Mat big_y = Y;
  big_y(0, 0) = 2e6f;
  struct Case {
    const char* what;
    Mat H, Y;
    BahdanauWeights w;
    const char* mention;
  };
  BahdanauWeights nan_va = w;
  nan_va.va(2) = kNaN;
  BahdanauWeights zero_da = w;
  zero_da.d_a = 0;
  const std::vector<Case> cases = {
      {"H columns != d_enc", ref::random_mat(5, 4, 2), Y, w, "H has 4 columns, expected 6"},
      {"Y columns != d_y", H, ref::random_mat(4, 2, 3), w, "Y_prev has 2 columns, expected 3"},
      {"no source words", Mat(0, 6), Y, w, "H is empty"},
      {"no decoder steps", H, Mat(0, 3), w, "Y_prev is empty"},
      {"NaN in H", nan_h, Y, w, "H[4][5] is NaN"},
      {"too large in Y", H, big_y, w, "too large"},
      {"U_a of the wrong shape", H, Y, bad, "U_a has 7 columns, expected 6"},
      {"NaN in v_a", H, Y, nan_va, "v_a[2][0] is NaN"},
      {"d_a = 0", H, Y, zero_da, "d_a must be between 1 and 256, got 0"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    BahdanauRun r = sentinel();
    expect_error(bahdanau_decode(c.H, c.Y, c.w, &r), c.mention);
    untouched(r);
  }
  BahdanauAttend a;
  a.e = Vec::Constant(2, 9.f);
  expect_error(bahdanau_attend(Vec::Zero(3), H, w, &a), "s_{t-1} has 3 rows, expected 4");
  Vec s = Vec::Zero(4);
  s(1) = kNaN;
  expect_error(bahdanau_attend(s, H, w, &a), "s_{t-1}[1][0] is NaN");
  EXPECT_TRUE(ref::identical(Mat(a.e), Mat(Vec::Constant(2, 9.f))));
  BahdanauWeights out = w;
  expect_error(make_bahdanau_weights(6, 3, 0, 5, 1, &out), "d_s must be between 1 and 256, got 0");
  expect_error(make_bahdanau_weights(513, 3, 4, 5, 1, &out), "d_enc must be between 1 and 512, got 513");
  EXPECT_TRUE(ref::identical(out.Wa, w.Wa));
}

TEST(CoreSeq2SeqValidation, LuongRefusals) {
  LuongWeights w;
  ASSERT_TRUE(make_luong_weights(6, 3, 4, 5, 1, &w).ok);  // d_s = 4 != d_enc = 6: no dot score
  const Mat H = ref::random_mat(5, 6, 2), Y = ref::random_mat(4, 3, 3);
  const Vec s = Vec::Zero(4);
  std::vector<LuongAttend> steps(1);
  steps[0].e = Vec::Constant(1, 42.f);
  expect_error(luong_attend(s, H, w, {LuongScore::General, LuongScore::Dot}, &steps),
               "the dot score needs the decoder state and the encoder states to have the same size, got d_s = 4 and d_enc = 6");
  expect_error(luong_attend(s, H, w, {}, &steps), "choose at least one score function");
  expect_error(luong_attend(Vec::Zero(6), H, w, {LuongScore::General}, &steps), "s_t has 6 rows, expected 4");
  Mat nan_h = H;
  nan_h(0, 1) = kNaN;
  expect_error(luong_attend(s, nan_h, w, {LuongScore::Concat}, &steps), "H[0][1] is NaN");
  ASSERT_EQ(steps.size(), 1u);
  EXPECT_EQ(steps[0].e(0), 42.f);

  LuongRun run;
  run.T = -1;
  LuongWeights bad = w;
  bad.Wc = Mat::Zero(4, 9);
  expect_error(luong_decode(H, Y, bad, {LuongScore::General}, &run), "W_c has 9 columns, expected 10");
  bad = w;
  bad.Wa_general(0, 0) = kInfF;
  expect_error(luong_decode(H, Y, bad, {LuongScore::Concat}, &run), "W_a (general)[0][0] is inf");
  expect_error(luong_decode(H, Mat(0, 3), w, {LuongScore::General}, &run), "Y_prev is empty");
  expect_error(luong_decode(H, Y, w, {LuongScore::Dot}, &run), "the dot score needs");
  EXPECT_EQ(run.T, -1);
  EXPECT_TRUE(run.runs.empty());
}

}  // namespace
}  // namespace ap
