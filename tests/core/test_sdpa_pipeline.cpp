// Unit tests for build_sdpa (core/sdpa_pipeline.h): text -> tokens -> X -> Q, K, V -> attention, and the
// custom mode where Q, K, V are given directly.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "core/embedding.h"
#include "core/sdpa_pipeline.h"
#include "core/tokenizer.h"
#include "reference.h"

namespace ap {
namespace AP_UNITY_ID {  // this file's own namespace in a unity build (CMakeLists.txt, AP_UNITY)

using Tokens = std::vector<std::string>;

SdpaModel build(const SdpaParams& p) {
  SdpaModel m;
  const Status s = build_sdpa(p, &m);
  EXPECT_TRUE(s.ok) << s.message;
  return m;
}

SdpaParams custom(const Mat& Q, const Mat& K, const Mat& V) {
  SdpaParams p;
  p.source = QkvSource::Custom;
  p.Q = Q;
  p.K = K;
  p.V = V;
  return p;
}

Mat mat(int rows, int cols, std::initializer_list<float> v) {
  Mat m(rows, cols);
  int k = 0;
  for (float x : v) m(k / cols, k % cols) = x, ++k;
  return m;
}

// A model no successful build produces, to detect writes on error.
SdpaModel sentinel_model() {
  SdpaModel m;
  m.params.seed = 777;
  m.query_tokens = {"sentinel"};
  m.key_tokens = {"sentinel"};
  m.Q = Mat::Constant(1, 1, 9.f);
  m.X = Mat::Constant(1, 1, 8.f);
  m.trace.n = -5;
  m.pad_count = -3;
  return m;
}

void expect_refused(const SdpaParams& p, const std::string& what, const std::string& must_mention = "") {
  SCOPED_TRACE(what);
  SdpaModel m = sentinel_model();
  const Status s = build_sdpa(p, &m);
  EXPECT_FALSE(s.ok);
  EXPECT_FALSE(s.message.empty());
  if (!must_mention.empty()) {
    EXPECT_NE(s.message.find(must_mention), std::string::npos) << s.message;
  }
  EXPECT_EQ(m.params.seed, 777u);
  EXPECT_EQ(m.query_tokens, Tokens{"sentinel"});
  EXPECT_EQ(m.key_tokens, Tokens{"sentinel"});
  EXPECT_TRUE(ref::identical(m.Q, Mat::Constant(1, 1, 9.f)));
  EXPECT_TRUE(ref::identical(m.X, Mat::Constant(1, 1, 8.f)));
  EXPECT_EQ(m.trace.n, -5);
  EXPECT_EQ(m.pad_count, -3);
}

double row_sum(const Mat& W, int i) { return W.row(i).cast<double>().sum(); }

// ---- projection mode -----------------------------------------------------------------------------------------

TEST(CoreSdpaPipeline, DefaultSentenceShapes) {
  const SdpaParams p;  // "The animal didn't cross the street because it was too tired", d_model 16, d_k 4
  const SdpaModel m = build(p);
  const Tokens expected = {"The", "animal", "didn't", "cross", "the", "street", "because", "it", "was", "too",
                           "tired"};
  EXPECT_EQ(m.query_tokens, expected);
  EXPECT_EQ(m.key_tokens, expected);
  EXPECT_EQ(m.X.rows(), 11);
  EXPECT_EQ(m.X.cols(), 16);
  for (const Mat* W : {&m.Wq, &m.Wk, &m.Wv}) {
    EXPECT_EQ(W->rows(), 16);
    EXPECT_EQ(W->cols(), 4);
  }
  for (const Mat* M : {&m.Q, &m.K, &m.V}) {
    EXPECT_EQ(M->rows(), 11);
    EXPECT_EQ(M->cols(), 4);
  }
  EXPECT_EQ(m.trace.n, 11);
  EXPECT_EQ(m.trace.m, 11);
  EXPECT_EQ(m.trace.d_k, 4);
  EXPECT_EQ(m.trace.d_v, 4);
  EXPECT_EQ(m.trace.output.rows(), 11);
  EXPECT_EQ(m.pad_count, 0);
  EXPECT_EQ(m.params.text, p.text);
}

TEST(CoreSdpaPipeline, ProjectionModeMatchesItsPieces) {
  SdpaParams p;
  p.text = "I love cats and cats love me";
  p.d_model = 12;
  p.d_k = 6;
  p.seed = 5;
  const SdpaModel m = build(p);
  Tokens tokens;
  ASSERT_TRUE(tokenize(p.text, limits::kMaxTokens, &tokens).ok);
  Mat X;
  ASSERT_TRUE(embed_tokens(tokens, 12, 5, true, &X).ok);
  EXPECT_TRUE(ref::identical(m.X, X));
  EXPECT_TRUE(ref::identical(m.Wq, projection_weights(12, 6, 5, 'Q')));
  EXPECT_TRUE(ref::identical(m.Wk, projection_weights(12, 6, 5, 'K')));
  EXPECT_TRUE(ref::identical(m.Wv, projection_weights(12, 6, 5, 'V')));

  const ref::DMat Xd = ref::from_mat(m.X);
  const ref::DMat Q = ref::matmul(Xd, ref::from_mat(m.Wq)), K = ref::matmul(Xd, ref::from_mat(m.Wk)),
                  V = ref::matmul(Xd, ref::from_mat(m.Wv));
  EXPECT_LE(ref::report("pipeline Q = X·W^Q", ref::max_abs_diff(m.Q, Q)), 1e-5);
  EXPECT_LE(ref::report("pipeline K = X·W^K", ref::max_abs_diff(m.K, K)), 1e-5);
  EXPECT_LE(ref::report("pipeline V = X·W^V", ref::max_abs_diff(m.V, V)), 1e-5);
  const ref::Sdpa r = ref::sdpa(Q, K, V, MaskSpec{});
  EXPECT_LE(ref::report("pipeline weights vs reference", ref::max_abs_diff(m.trace.weights(), r.softmax.weights)),
            1e-5);
  EXPECT_LE(ref::report("pipeline output vs reference", ref::max_abs_diff(m.trace.output, r.output)), 1e-5);
}

TEST(CoreSdpaPipeline, DeterministicAndSeeded) {
  SdpaParams p;
  const SdpaModel a = build(p), b = build(p);
  EXPECT_TRUE(ref::identical(a.Q, b.Q));
  EXPECT_TRUE(ref::identical(a.trace.output, b.trace.output));
  p.seed = 43;
  EXPECT_FALSE(ref::identical(a.Q, build(p).Q));
  // without positions "The" (row 0) and "the" (row 4) are the same token
  p.positional = false;
  const SdpaModel c = build(p);
  EXPECT_TRUE(ref::identical(Mat(c.Q.row(0)), Mat(c.Q.row(4))));
  EXPECT_FALSE(ref::identical(Mat(a.Q.row(0)), Mat(a.Q.row(4))));
}

TEST(CoreSdpaPipeline, PadToAppendsPadTokensThatThePaddingMaskHides) {
  SdpaParams p;
  p.pad_to = 14;
  p.mask = MaskKind::Padding;
  const SdpaModel m = build(p);
  ASSERT_EQ(m.key_tokens.size(), 14u);
  EXPECT_EQ(m.query_tokens, m.key_tokens);
  for (int j = 11; j < 14; ++j) EXPECT_EQ(m.key_tokens[j], kPadToken);
  EXPECT_EQ(m.key_tokens[10], "tired");
  EXPECT_EQ(m.pad_count, 3);
  EXPECT_EQ(m.trace.n, 14);
  EXPECT_EQ(m.trace.fully_masked_rows, 0);
  for (int i = 0; i < 14; ++i) {
    for (int j = 11; j < 14; ++j) EXPECT_EQ(m.trace.weights()(i, j), 0.0f) << i << "," << j;
    EXPECT_NEAR(row_sum(m.trace.weights(), i), 1.0, 1e-5);
  }
  // the real tokens attend exactly as they do without padding
  SdpaParams q;
  const SdpaModel plain = build(q);
  EXPECT_LE(ref::report("pad_to 14: real rows vs unpadded",
                        ref::max_abs_diff(Mat(m.trace.output.topRows(11)), ref::from_mat(plain.trace.output))),
            1e-5);
}

TEST(CoreSdpaPipeline, PadTokensAreVisibleWithoutThePaddingMask) {
  SdpaParams p;
  p.pad_to = 13;
  const SdpaModel m = build(p);  // mask: none
  EXPECT_EQ(m.pad_count, 2);
  for (int i = 0; i < 13; ++i) EXPECT_GT(m.trace.weights()(i, 12), 0.0f);
}

TEST(CoreSdpaPipeline, PadToBelowTheTokenCountAddsNothing) {
  SdpaParams p;
  p.pad_to = 5;
  const SdpaModel m = build(p);
  EXPECT_EQ(m.key_tokens.size(), 11u);
  EXPECT_EQ(m.pad_count, 0);
}

TEST(CoreSdpaPipeline, TypedPadTokensAndFullyPaddedText) {
  SdpaParams p;
  p.text = "cats [PAD] sleep";
  p.mask = MaskKind::Padding;
  SdpaModel m = build(p);
  EXPECT_EQ(m.pad_count, 1);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(m.trace.weights()(i, 1), 0.0f);

  p.text = "[PAD] [PAD]";
  m = build(p);
  EXPECT_EQ(m.pad_count, 2);
  EXPECT_EQ(m.trace.fully_masked_rows, 2);
  EXPECT_EQ(m.trace.softmax.fully_masked, (std::vector<uint8_t>{1, 1}));
  for (int i = 0; i < 2; ++i)
    for (int c = 0; c < 4; ++c) EXPECT_EQ(m.trace.output(i, c), 0.0f);
  EXPECT_FALSE(ref::any_nan(m.trace.weights()));
  EXPECT_FALSE(ref::any_nan(m.trace.output));
}

TEST(CoreSdpaPipeline, CausalMaskThroughThePipeline) {
  SdpaParams p;
  p.mask = MaskKind::Causal;
  const SdpaModel m = build(p);
  for (int i = 0; i < 11; ++i) {
    for (int j = i + 1; j < 11; ++j) EXPECT_EQ(m.trace.weights()(i, j), 0.0f);
    EXPECT_NEAR(row_sum(m.trace.weights(), i), 1.0, 1e-5);
  }
  EXPECT_EQ(m.trace.weights()(0, 0), 1.0f);
}

// ---- custom mode ---------------------------------------------------------------------------------------------

TEST(CoreSdpaPipeline, CustomModeUsesTheGivenMatricesAndDefaultLabels) {
  const Mat Q = ref::random_mat(2, 3, 1), K = ref::random_mat(4, 3, 2), V = ref::random_mat(4, 2, 3);
  SdpaParams p = custom(Q, K, V);
  p.text = "";  // ignored in custom mode
  const SdpaModel m = build(p);
  EXPECT_EQ(m.query_tokens, (Tokens{"q1", "q2"}));
  EXPECT_EQ(m.key_tokens, (Tokens{"k1", "k2", "k3", "k4"}));
  EXPECT_EQ(m.X.size(), 0);
  EXPECT_EQ(m.Wq.size(), 0);
  EXPECT_TRUE(ref::identical(m.Q, Q));
  EXPECT_TRUE(ref::identical(m.K, K));
  EXPECT_TRUE(ref::identical(m.V, V));
  EXPECT_EQ(m.params.d_k, 3);  // taken from Q, not from the default d_k = 4
  EXPECT_EQ(m.trace.n, 2);
  EXPECT_EQ(m.trace.m, 4);
  EXPECT_EQ(m.trace.d_v, 2);
  const ref::Sdpa r = ref::sdpa(ref::from_mat(Q), ref::from_mat(K), ref::from_mat(V), MaskSpec{});
  EXPECT_LE(ref::report("custom 2x4 output vs reference", ref::max_abs_diff(m.trace.output, r.output)), 1e-6);
}

TEST(CoreSdpaPipeline, CustomLabelsAreKeptWhenTheyFit) {
  SdpaParams p = custom(mat(3, 2, {1, 0, 0, 1, 1, 1}), mat(3, 2, {1, 0, 0, 1, 0.5f, 0.5f}),
                        mat(3, 2, {1, 0, 0, 1, 1, 1}));
  p.query_labels = p.key_labels = {"I", "love", "cats"};
  SdpaModel m = build(p);
  EXPECT_EQ(m.query_tokens, (Tokens{"I", "love", "cats"}));
  EXPECT_EQ(m.key_tokens, (Tokens{"I", "love", "cats"}));
  const double e0 = std::exp(1 / std::sqrt(2.0)), e2 = std::exp(0.5 / std::sqrt(2.0)), s = e0 + 1.0 + e2;
  EXPECT_NEAR(m.trace.weights()(0, 0), e0 / s, 1e-5);
  EXPECT_NEAR(m.trace.weights()(0, 1), 1.0 / s, 1e-5);
  EXPECT_NEAR(m.trace.weights()(0, 2), e2 / s, 1e-5);

  p.query_labels = {"only one"};  // wrong count: defaults instead
  p.key_labels = {"a", "b", "c", "d"};
  m = build(p);
  EXPECT_EQ(m.query_tokens, (Tokens{"q1", "q2", "q3"}));
  EXPECT_EQ(m.key_tokens, (Tokens{"k1", "k2", "k3"}));
}

TEST(CoreSdpaPipeline, CustomPadLabelsDriveThePaddingMask) {
  SdpaParams p = custom(ref::random_mat(2, 2, 4), ref::random_mat(3, 2, 5), ref::random_mat(3, 2, 6));
  p.key_labels = {"a", kPadToken, "c"};
  p.mask = MaskKind::Padding;
  SdpaModel m = build(p);
  EXPECT_EQ(m.pad_count, 1);
  EXPECT_EQ(m.trace.weights()(0, 1), 0.0f);
  EXPECT_EQ(m.trace.weights()(1, 1), 0.0f);

  p.key_labels = {kPadToken, kPadToken, kPadToken};
  m = build(p);
  EXPECT_EQ(m.trace.fully_masked_rows, 2);
  EXPECT_FALSE(ref::any_nan(m.trace.output));
  EXPECT_EQ(m.trace.output.cwiseAbs().maxCoeff(), 0.0f);
}

// ---- validation ----------------------------------------------------------------------------------------------

TEST(CoreSdpaPipelineValidation, ProjectionModeBadParams) {
  SdpaParams p;
  p.text = "";
  expect_refused(p, "empty text", "no tokens");
  p.text = "   ";
  expect_refused(p, "blank text", "no tokens");
  p.text = "bad \xff byte";
  expect_refused(p, "invalid UTF-8", "UTF-8");
  std::string many;
  for (int i = 0; i < 10000; ++i) many += "w ";
  p.text = many;
  expect_refused(p, "10000 words", "10000");
  p.text = many.substr(0, 2 * (limits::kMaxTokens + 1));
  expect_refused(p, "1025 words", "1025");
  p.text = std::string(limits::kMaxTextBytes + 1, 'a');
  expect_refused(p, "text over the byte limit", std::to_string(limits::kMaxTextBytes));

  for (int d_k : {0, -1, limits::kMaxHeadDim + 1}) {
    p = SdpaParams{};
    p.d_k = d_k;
    expect_refused(p, "d_k = " + std::to_string(d_k), "d_k");
  }
  for (int d_model : {0, -16, limits::kMaxModelDim + 1}) {
    p = SdpaParams{};
    p.d_model = d_model;
    expect_refused(p, "d_model = " + std::to_string(d_model), "d_model");
  }
  for (int pad_to : {-1, limits::kMaxTokens + 1}) {
    p = SdpaParams{};
    p.pad_to = pad_to;
    expect_refused(p, "pad_to = " + std::to_string(pad_to));
  }
}

TEST(CoreSdpaPipelineValidation, CustomModeBadMatrices) {
  const Mat Q = ref::random_mat(2, 3, 1), K = ref::random_mat(4, 3, 2), V = ref::random_mat(4, 2, 3);
  Mat nanQ = Q;
  nanQ(1, 2) = std::numeric_limits<float>::quiet_NaN();
  expect_refused(custom(nanQ, K, V), "NaN in custom Q", "NaN");
  expect_refused(custom(Q, ref::random_mat(4, 2, 2), V), "K with 2 columns for d_k = 3");
  expect_refused(custom(Q, K, ref::random_mat(3, 2, 3)), "V with 3 rows for 4 keys");
  expect_refused(custom(Mat(), K, V), "empty Q");
  expect_refused(custom(Mat(2, 0), Mat(4, 0), V), "d_k = 0");
  Mat bigV = V;
  bigV(0, 0) = 1.5e6f;
  expect_refused(custom(Q, K, bigV), "1.5e6 in V", "too large");
  Mat infK = K;
  infK(3, 0) = -std::numeric_limits<float>::infinity();
  expect_refused(custom(Q, infK, V), "-inf in K", "-inf");
  const int over = limits::kMaxTokens + 1;
  expect_refused(custom(ref::random_mat(over, 3, 1), K, V), "1025 queries", "1024");
  expect_refused(custom(Q, ref::random_mat(over, 3, 2), ref::random_mat(over, 2, 3)), "1025 keys", "1024");
  SdpaParams p = custom(Q, K, V);
  p.mask = MaskKind::Padding;
  p.key_labels = {"a", "b"};  // ignored (wrong count): the defaults k1..k4 are no padding, so this is fine
  SdpaModel m;
  EXPECT_TRUE(build_sdpa(p, &m).ok);
  EXPECT_EQ(m.pad_count, 0);
}

}  // namespace
}  // namespace ap
