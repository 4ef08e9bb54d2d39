// The scene "Self-attention" (app/scenes/self_scene.h): the numbers it reports (Q, K, V, weights, output, the
// mean self-weight of each setting) equal an independent recomputation in naive double loops from the same
// seeded X and W (tolerance 1e-5: float against double, entries of order 1); cross-attention gives n × m
// weights from two sentences; the document and the URL round-trip; bad input is refused with a message (in
// English and Chinese) while the last good state stays.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/api.h"
#include "app/quiz.h"
#include "app/scenes/self_scene.h"
#include "app/url.h"
#include "core/embedding.h"
#include "core/reference.h"
#include "core/tokenizer.h"
#include "helpers.h"

namespace ap {
namespace AP_UNITY_ID {  // this file's own namespace in a unity build (CMakeLists.txt, AP_UNITY)

using namespace ::ap::test;
using nlohmann::json;

constexpr double kTol = 1e-5;

SelfScene& self(PlaygroundState& st) { return *st.get<SelfScene>(); }
bool ok(const std::string& reply) { return parse(reply).value("ok", false); }

ref::DMat dmat(const json& rows) {
  ref::DMat d(static_cast<int>(rows.size()), static_cast<int>(rows[0].size()));
  for (int i = 0; i < d.rows; ++i)
    for (int j = 0; j < d.cols; ++j) d(i, j) = rows[static_cast<size_t>(i)][static_cast<size_t>(j)].get<double>();
  return d;
}
double diff(const ref::DMat& a, const ref::DMat& b) {
  if (a.rows != b.rows || a.cols != b.cols) return ref::kInf;
  double worst = 0;
  for (size_t k = 0; k < a.a.size(); ++k) worst = std::max(worst, std::fabs(a.a[k] - b.a[k]));
  return worst;
}
// softmax(Q·Kᵀ/√d_k) in naive loops.
ref::DMat naive_weights(const ref::DMat& Q, const ref::DMat& K) {
  ref::DMat A(Q.rows, K.rows);
  for (int i = 0; i < Q.rows; ++i) {
    double mx = -ref::kInf, sum = 0;
    for (int j = 0; j < K.rows; ++j) {
      double s = 0;
      for (int c = 0; c < Q.cols; ++c) s += Q(i, c) * K(j, c);
      A(i, j) = s / std::sqrt(static_cast<double>(Q.cols));
      mx = std::max(mx, A(i, j));
    }
    for (int j = 0; j < K.rows; ++j) sum += (A(i, j) = std::exp(A(i, j) - mx));
    for (int j = 0; j < K.rows; ++j) A(i, j) /= sum;
  }
  return A;
}
ref::DMat embed(const std::string& text, int d_model, uint64_t seed) {
  std::vector<std::string> t;
  EXPECT_TRUE(tokenize(text, 64, &t).ok);
  Mat X;
  EXPECT_TRUE(embed_tokens(t, d_model, seed, true, &X).ok);
  return ref::from_mat(X);
}
double mean_diagonal(const ref::DMat& A) {
  double s = 0;
  for (int i = 0; i < A.rows; ++i) s += A(i, i) / A.rows;
  return s;
}

// Everything the scene reports, recomputed from the seeded X and W with loops.
void expect_matches_naive(const json& doc, const char* what) {
  const json& r = doc["results"];
  const int d_model = doc["d_model"], d_k = doc["d_k"];
  const uint64_t seed = doc["seed"];
  const bool cross = doc["cross"], identity = doc["identity"];
  const ref::DMat X = embed(doc["text"], d_model, seed);
  const ref::DMat Xq = cross ? embed(doc["text2"], d_model, seed) : X;
  const ref::DMat Wq = ref::from_mat(projection_weights(d_model, d_k, seed, 'Q'));
  const ref::DMat Wk = ref::from_mat(projection_weights(d_model, d_k, seed, 'K'));
  const ref::DMat Wv = ref::from_mat(projection_weights(d_model, d_k, seed, 'V'));
  const ref::DMat Q = identity ? Xq : ref::matmul(Xq, Wq), K = identity ? X : ref::matmul(X, Wk), V = identity ? X : ref::matmul(X, Wv);
  const ref::DMat A = naive_weights(Q, K), O = ref::matmul(A, V);
  double worst = diff(dmat(r["X"]), X);
  for (const auto& [name, want] : {std::pair<const char*, const ref::DMat*>{"Q", &Q}, {"K", &K}, {"V", &V}, {"weights", &A}, {"output", &O}})
    worst = std::max(worst, diff(dmat(r[name]), *want));
  EXPECT_EQ(r["n"], Q.rows);
  EXPECT_EQ(r["m"], K.rows);
  // The notes' argument on X's own self-attention: Q = K = V = X, and separate W^Q, W^K.
  const double identity_mean = mean_diagonal(naive_weights(X, X));
  const double projected_mean = mean_diagonal(naive_weights(ref::matmul(X, Wq), ref::matmul(X, Wk)));
  const double shared_mean = mean_diagonal(naive_weights(ref::matmul(X, Wq), ref::matmul(X, Wq)));
  worst = std::max(worst, std::fabs(r["self_weight_identity"].get<double>() - identity_mean));
  worst = std::max(worst, std::fabs(r["self_weight_projected"].get<double>() - projected_mean));
  worst = std::max(worst, std::fabs(r["self_weight"]["shared"]["mean"].get<double>() - shared_mean));
  EXPECT_LE(ref::report(what, worst), kTol);
  EXPECT_DOUBLE_EQ(r["self_weight"]["uniform"].get<double>(), 1.0 / X.rows);
}

TEST(AppSelfScene, DefaultsMatchNaiveLoopsAndShowTheNotesArgument) {
  PlaygroundState st;
  ASSERT_TRUE(ok(set_state_json(st, R"({"scene":"self"})")));
  const json doc = state(st, true);
  EXPECT_EQ(doc["results"]["n"], 11);
  EXPECT_EQ(doc["results"]["m"], 11);
  expect_matches_naive(doc, "self, W^Q W^K W^V");
  // Q = K = V = X: each token attends mostly to itself; separate matrices do not.
  EXPECT_GT(doc["results"]["self_weight_identity"].get<double>(), 0.5);
  EXPECT_LT(doc["results"]["self_weight_projected"].get<double>(), 0.25);
  ASSERT_TRUE(ok(set_state_json(st, R"({"identity":true})")));
  expect_matches_naive(state(st, true), "self, Q = K = V = X");
  EXPECT_EQ(state(st, false)["results"]["d_k"], 16) << "no projections: d_k = d_model";
}

TEST(AppSelfScene, CrossAttentionTakesQueriesFromTheSecondSentence) {
  PlaygroundState st;
  ASSERT_TRUE(ok(set_state_json(st, R"({"scene":"self","preset":"cross"})")));
  json doc = state(st, true);
  EXPECT_EQ(doc["results"]["n"], 13) << "13 Chinese characters";
  EXPECT_EQ(doc["results"]["m"], 11);
  EXPECT_EQ(doc["results"]["weights"].size(), 13u);
  EXPECT_EQ(doc["results"]["weights"][0].size(), 11u);
  EXPECT_EQ(doc["results"]["query_tokens"][0], "动");
  expect_matches_naive(doc, "cross, W^Q W^K W^V");
  ASSERT_TRUE(ok(set_state_json(st, R"({"identity":true,"text2":"it was the animal","d_model":8,"d_k":2,"seed":5})")));
  doc = state(st, true);
  EXPECT_EQ(doc["results"]["n"], 4);
  expect_matches_naive(doc, "cross, Q = X2, K = V = X");
}

TEST(AppSelfScene, DocumentAndUrlRoundTrip) {
  PlaygroundState a, b;
  ASSERT_TRUE(ok(set_state_json(a, R"({"scene":"self","text":"我 爱 猫 and dogs","text2":"I love cats","cross":true,"identity":false,"d_model":12,"d_k":3,"seed":7,"positional":false,"step":3})")));
  ASSERT_TRUE(ok(set_state_json(a, get_state_json(a, true)))) << "setState(getState()) is accepted";
  ASSERT_TRUE(ok(set_state_json(a, get_state_json(a, false))));
  apply_url_query(b, state_to_query(a));
  EXPECT_TRUE(b.errors.empty()) << state_to_query(a);
  const json ja = state(a, true), jb = state(b, true);
  for (const char* k : {"scene", "text", "text2", "cross", "identity", "d_model", "d_k", "seed", "positional", "step", "results"})
    EXPECT_EQ(ja[k], jb[k]) << k;
  EXPECT_EQ(ja["step"]["name"], "self-weight");
}

TEST(AppSelfScene, BadInputIsRefusedWithAMessageAndTheLastGoodStateStays) {
  PlaygroundState st;
  ASSERT_TRUE(ok(set_state_json(st, R"({"scene":"self","preset":"cross"})")));
  const json before = state(st, true);
  std::string many;
  for (int i = 0; i < 33; ++i) many += "w ";
  const std::string overlong_text = json{{"text", many}}.dump(), overlong_text2 = json{{"text2", many}}.dump();
  const std::string huge = json{{"text", std::string(70000, 'a')}}.dump();
  const struct { std::string doc, says; } bad[] = {
      {R"({"text":""})", "text has no tokens"},
      {R"({"text2":"   "})", "text2 has no tokens"},     // cross is on: the queries' sentence is empty
      {overlong_text, "text has 33 tokens, over the limit of 32"},
      {overlong_text2, "text2 has 33 tokens, over the limit of 32"},
      {huge, "bytes"},
      {R"({"d_k":0})", "d_k must be between 1 and"},
      {R"({"d_k":17})", "d_k must be between 1 and 16, got 17"},   // d_k > d_model
      {R"({"d_model":2})", "d_k must be between 1 and 2, got 4"},  // d_model below d_k
      {R"({"d_model":0})", "d_model"},
      {R"({"d_model":129})", "d_model"},
      {R"({"seed":-1})", "seed"},
      {R"({"cross":"yes"})", "cross"},
      {R"({"results":{"n":3}})", "results do not match"},
      {R"({"heads":2})", "heads"},
      {R"({"text":["a","b"]})", "text"},
  };
  for (const auto& b : bad) {
    const json r = parse(set_state_json(st, b.doc));
    EXPECT_FALSE(r.value("ok", true)) << b.doc.substr(0, 80);
    EXPECT_NE(str(r["error"]).find(b.says), std::string::npos) << str(r["error"]) << " for " << b.doc.substr(0, 80);
    EXPECT_EQ(state(st, true)["results"], before["results"]) << b.doc.substr(0, 80);
    EXPECT_TRUE(self(st).params().cross);
  }
  // The controls' way, with the message on screen in both languages.
  SelfSceneParams p = self(st).params();
  p.text2 = "";
  (void)report_result(st, "text2", self(st).apply(p));
  EXPECT_NE(message(st, "text2").find("text2 has no tokens"), std::string::npos) << message(st, "text2");
  set_lang(Lang::Zh);
  EXPECT_NE(message(st, "text2").find("没有 token"), std::string::npos) << message(st, "text2");
  set_lang(Lang::En);
  EXPECT_EQ(state(st, true)["results"], before["results"]);
  // Without cross-attention the second sentence is not read: an empty one is fine.
  ASSERT_TRUE(ok(set_state_json(st, R"({"cross":false,"text2":""})")));
}

TEST(AppSelfScene, HoverExplainsTheWeightsArithmetic) {
  PlaygroundState st;
  ASSERT_TRUE(ok(set_state_json(st, R"({"scene":"self"})")));
  const std::string w = self(st).explain(static_cast<int>(SelfItem::Weights), 7, 1);  // "it" → "animal"
  EXPECT_NE(w.find("“it”"), std::string::npos) << w;
  EXPECT_NE(w.find("“animal”"), std::string::npos) << w;
  EXPECT_NE(self(st).explain(static_cast<int>(SelfItem::Measured), 0, 2).find("Q = K = V = X"), std::string::npos);
  EXPECT_EQ(self(st).explain(static_cast<int>(SelfItem::Weights), 99, 0), "");
  EXPECT_EQ(self(st).explain(static_cast<int>(SelfItem::X2), 0, 0), "") << "no second sentence in self-attention";
}

TEST(AppSelfScene, LessonStagesAndPresets) {
  SelfScene sc;
  EXPECT_NE(std::string(sc.lesson().formula).find("W^Q"), std::string::npos);
  EXPECT_EQ(sc.stages().size(), 4u);
  EXPECT_EQ(sc.presets().size(), 6u);
  EXPECT_EQ(quiz_for("self").size(), 2u);
}

}  // namespace
}  // namespace ap
