// The scene "Bahdanau (additive) attention" (app/scenes/bahdanau_scene.h): its numbers equal a naive
// recomputation (plain loops in double: the bidirectional RNN, s_0, and at each step e_tj = v_aᵀ tanh(W_a s_{t-1}
// + U_a h_j), α_t = softmax(e_t), c_t = Σ_j α_tj h_j, s_t = tanh(W_s s_{t-1} + W_in [y_{t-1}; c_t] + b_s)); every
// parameter is listed with its shape; the document and the URL round-trip; bad input is refused with a message
// while the last good state stays; hovering explains the arithmetic.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <tuple>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/api.h"
#include "app/scenes/bahdanau_scene.h"
#include "app/url.h"
#include "core/embedding.h"
#include "core/number_text.h"
#include "core/tokenizer.h"
#include "helpers.h"

namespace ap {
namespace AP_UNITY_ID {  // this file's own namespace in a unity build (CMakeLists.txt, AP_UNITY)

using namespace ::ap::test;
using nlohmann::json;

BahdanauScene& scene_of(PlaygroundState& st) { return *st.get<BahdanauScene>(); }
bool ok(const std::string& reply) { return parse(reply).value("ok", false); }

// ---- a naive reference, in double, written with plain loops ----------------------------------------------------

using V = std::vector<double>;
using M = std::vector<V>;

M to_rows(const Mat& A) {
  M r(static_cast<size_t>(A.rows()), V(static_cast<size_t>(A.cols())));
  for (int i = 0; i < A.rows(); ++i)
    for (int j = 0; j < A.cols(); ++j) r[i][j] = A(i, j);
  return r;
}
V to_vec(const Vec& v) {
  V r(static_cast<size_t>(v.size()));
  for (int i = 0; i < v.size(); ++i) r[i] = v(i);
  return r;
}
V mat_vec(const M& A, const V& x) {
  V y(A.size(), 0.0);
  for (size_t i = 0; i < A.size(); ++i)
    for (size_t j = 0; j < x.size(); ++j) y[i] += A[i][j] * x[j];
  return y;
}

// One direction of the encoder: h_t = tanh(W_x x_t + W_h h_prev + b), visiting the rows in `order`.
M rnn(const M& X, const RnnWeights& w, bool reverse) {
  const M Wx = to_rows(w.Wx), Wh = to_rows(w.Wh);
  const V b = to_vec(w.b);
  const int n = static_cast<int>(X.size());
  M H(static_cast<size_t>(n));
  V h(static_cast<size_t>(w.d_h), 0.0);
  for (int k = 0; k < n; ++k) {
    const int t = reverse ? n - 1 - k : k;
    const V a = mat_vec(Wx, X[t]), r = mat_vec(Wh, h);
    for (size_t u = 0; u < h.size(); ++u) h[u] = std::tanh(a[u] + r[u] + b[u]);
    H[t] = h;
  }
  return H;
}

struct Naive {
  M scores, alignment, contexts;
};

Naive naive_bahdanau(const M& X, const M& Y_prev, const BiRnnWeights& enc, const BahdanauWeights& w) {
  // 1) the encoder: h_j = [→h_j; ←h_j]
  const M F = rnn(X, enc.fwd, false), B = rnn(X, enc.bwd, true);
  const size_t n = X.size();
  M H(n);
  for (size_t j = 0; j < n; ++j) {
    H[j] = F[j];
    H[j].insert(H[j].end(), B[j].begin(), B[j].end());
  }
  const size_t d_enc = H[0].size();
  // 2) s_0 = tanh(W_init · mean_j h_j)
  V mean(d_enc, 0.0);
  for (const V& h : H)
    for (size_t u = 0; u < d_enc; ++u) mean[u] += h[u] / static_cast<double>(n);
  V s = mat_vec(to_rows(w.W_init), mean);
  for (double& x : s) x = std::tanh(x);
  const M Wa = to_rows(w.Wa), Ua = to_rows(w.Ua), Ws = to_rows(w.Ws), Win = to_rows(w.Win);
  const V va = to_vec(w.va), bs = to_vec(w.bs);
  Naive out;
  for (const V& y : Y_prev) {
    // 3) e_j = Σ_k v_a[k] tanh((W_a s)_k + (U_a h_j)_k)
    const V q = mat_vec(Wa, s);
    V e(n);
    for (size_t j = 0; j < n; ++j) {
      const V key = mat_vec(Ua, H[j]);
      e[j] = 0;
      for (size_t k = 0; k < va.size(); ++k) e[j] += va[k] * std::tanh(q[k] + key[k]);
    }
    // 4) α = softmax(e), c = Σ_j α_j h_j
    double top = e[0], sum = 0;
    for (double x : e) top = std::max(top, x);
    V alpha(n);
    for (size_t j = 0; j < n; ++j) sum += alpha[j] = std::exp(e[j] - top);
    for (double& a : alpha) a /= sum;
    V c(d_enc, 0.0);
    for (size_t j = 0; j < n; ++j)
      for (size_t u = 0; u < d_enc; ++u) c[u] += alpha[j] * H[j][u];
    out.scores.push_back(e);
    out.alignment.push_back(alpha);
    out.contexts.push_back(c);
    // 5) s_t = tanh(W_s s + W_in [y; c] + b_s)
    V in = y;
    in.insert(in.end(), c.begin(), c.end());
    const V a = mat_vec(Ws, s), b = mat_vec(Win, in);
    for (size_t u = 0; u < s.size(); ++u) s[u] = std::tanh(a[u] + b[u] + bs[u]);
  }
  return out;
}

// The largest |reported − naive| over a matrix reported by getState.
double worst_difference(const json& reported, const M& naive) {
  EXPECT_EQ(reported.size(), naive.size());
  double worst = 0;
  for (size_t i = 0; i < naive.size() && i < reported.size(); ++i) {
    EXPECT_EQ(reported[i].size(), naive[i].size());
    for (size_t j = 0; j < naive[i].size() && j < reported[i].size(); ++j)
      worst = std::max(worst, std::abs(reported[i][j].get<double>() - naive[i][j]));
  }
  return worst;
}

// Recomputes from the parameters alone (tokenizer, seeded embeddings and seeded weights from the core's
// generators; every product, tanh, softmax and sum here) and compares with getState's results.
void expect_matches_naive(PlaygroundState& st) {
  const BahdanauParams& p = scene_of(st).params();
  std::vector<std::string> src, tgt;
  ASSERT_TRUE(tokenize(p.source, 1024, &src).ok);
  ASSERT_TRUE(tokenize(p.target, 1024, &tgt).ok);
  std::vector<std::string> reads = {"<s>"};
  for (size_t k = 0; k + 1 < tgt.size(); ++k) reads.push_back(tgt[k]);
  Mat X, Y;
  ASSERT_TRUE(embed_tokens(src, p.d_emb, p.seed, false, &X).ok);
  ASSERT_TRUE(embed_tokens(reads, p.d_emb, p.seed, false, &Y).ok);
  BiRnnWeights enc;
  BahdanauWeights w;
  ASSERT_TRUE(make_birnn_weights(p.d_emb, p.d_h, 0.9, p.seed, &enc).ok);
  ASSERT_TRUE(make_bahdanau_weights(2 * p.d_h, p.d_emb, p.d_s, p.d_a, p.seed, &w).ok);
  const Naive ref = naive_bahdanau(to_rows(X), to_rows(Y), enc, w);
  const json r = state(st, true)["results"];
  EXPECT_EQ(r["n"], static_cast<int>(src.size()));
  EXPECT_EQ(r["T"], static_cast<int>(tgt.size()));
  const double tol = 2e-5;  // float (the scene) against double (here), through T steps of the recurrence
  const double e = worst_difference(r["scores"], ref.scores);
  const double a = worst_difference(r["alignment"], ref.alignment);
  const double c = worst_difference(r["contexts"], ref.contexts);
  std::printf("  [%s] largest |scene − naive|: scores %.3g, alignment %.3g, contexts %.3g (tolerance %.0e)\n", p.source.c_str(), e, a, c, tol);
  EXPECT_LT(e, tol);
  EXPECT_LT(a, tol);
  EXPECT_LT(c, tol);
}

TEST(AppBahdanauScene, DefaultsAreTheNotesSentencesAndEveryParameterHasItsShape) {
  PlaygroundState st;
  ASSERT_TRUE(ok(set_state_json(st, R"({"scene":"bahdanau"})")));
  json s = state(st, true);
  // The page's scene opens on the trained model (lowercased, the model's words): the seeded one shows meanwhile.
  EXPECT_EQ(str(s["source"]), "le chat noir est assis sur le tapis rouge dans le salon");
  EXPECT_EQ(str(s["weights"]), "trained");
  EXPECT_EQ(str(s["results"]["checkpoint"]), "loading");
  ASSERT_TRUE(ok(set_state_json(st, R"({"scene":"bahdanau","weights":"random"})")));
  s = state(st, true);
  EXPECT_EQ(str(s["source"]), "Le chat noir est assis sur le tapis rouge dans le salon");
  const json& r = s["results"];
  EXPECT_EQ(r["n"], 12);
  EXPECT_EQ(r["T"], 13);
  EXPECT_EQ(r["d_enc"], 16);
  EXPECT_EQ(str(r["decoder_reads"][0]), "<s>");
  EXPECT_EQ(str(r["decoder_reads"][1]), str(r["target_tokens"][0])) << "teacher forcing: step 2 reads the reference word 1";
  EXPECT_EQ(r["trained"], false);
  EXPECT_EQ((scene_of(st).substeps()), (std::vector<int>{12, 1, 13, 1}));
  // d_emb 12, d_h 8 (d_enc 16), d_s 10, d_a 6
  const std::vector<std::tuple<std::string, int, int>> want = {
      {"→W_x", 8, 12}, {"→W_h", 8, 8}, {"→b", 8, 1}, {"←W_x", 8, 12}, {"←W_h", 8, 8}, {"←b", 8, 1},
      {"W_a", 6, 10},  {"U_a", 6, 16}, {"v_a", 6, 1}, {"W_init", 10, 16}, {"W_s", 10, 10}, {"W_in", 10, 28}, {"b_s", 10, 1}};
  ASSERT_EQ(r["params"].size(), want.size());
  long long total = 0;
  for (size_t k = 0; k < want.size(); ++k) {
    EXPECT_EQ(str(r["params"][k]["name"]), std::get<0>(want[k]));
    EXPECT_EQ(r["params"][k]["rows"], std::get<1>(want[k])) << std::get<0>(want[k]);
    EXPECT_EQ(r["params"][k]["cols"], std::get<2>(want[k])) << std::get<0>(want[k]);
    EXPECT_FALSE(str(r["params"][k]["shape"]).empty()) << std::get<0>(want[k]);
    total += std::get<1>(want[k]) * std::get<2>(want[k]);
  }
  EXPECT_EQ(r["param_count"], total);
  EXPECT_EQ(str(r["params"][7]["shape"]), "d_a × d_enc");
}

TEST(AppBahdanauScene, NumbersEqualANaiveRecomputation) {
  PlaygroundState st;
  ASSERT_TRUE(ok(set_state_json(st, R"({"scene":"bahdanau"})")));
  expect_matches_naive(st);
  for (const char* preset : {"three-words", "chinese", "seed-7", "wide"}) {
    ASSERT_TRUE(ok(set_state_json(st, json{{"preset", preset}}.dump()))) << preset;
    expect_matches_naive(st);
  }
  ASSERT_TRUE(ok(set_state_json(st, R"({"source":"a b","target":"x","d_emb":1,"d_h":1,"d_s":1,"d_a":1,"seed":0})")));
  expect_matches_naive(st);
}

TEST(AppBahdanauScene, EachStepAttendsWithThePreviousStateAndTheAlignmentIsNotLearned) {
  PlaygroundState st;
  ASSERT_TRUE(ok(set_state_json(st, R"({"scene":"bahdanau"})")));
  const BahdanauModel& m = scene_of(st).model();
  // the query of step t is s_{t-1}: s_0 at step 1, then the state the step before produced
  EXPECT_EQ((m.run.queries.row(0) - m.run.s0.transpose()).cwiseAbs().maxCoeff(), 0.f);
  for (int k = 1; k < m.run.T; ++k) EXPECT_EQ((m.run.queries.row(k) - m.run.states.row(k - 1)).cwiseAbs().maxCoeff(), 0.f) << k;
  // each step's terms (the hover's arithmetic) agree with the run
  for (int k = 0; k < m.run.T; ++k) {
    EXPECT_LT((m.steps[k].alpha.transpose() - m.run.alignment.row(k)).cwiseAbs().maxCoeff(), 1e-6f) << k;
    EXPECT_NEAR(m.run.alignment.row(k).sum(), 1.0, 1e-5) << k;
  }
  // another seed, another alignment: nothing here is learned
  const json a42 = state(st, true)["results"]["alignment"];
  ASSERT_TRUE(ok(set_state_json(st, R"({"preset":"seed-7"})")));
  EXPECT_NE(state(st, true)["results"]["alignment"], a42);
}

TEST(AppBahdanauScene, DocumentAndUrlRoundTrip) {
  PlaygroundState a, b;
  ASSERT_TRUE(ok(set_state_json(a, R"({"scene":"bahdanau","source":"我 爱 黑猫","target":"I love black cats","d_emb":5,"d_h":3,"d_s":7,"d_a":4,"seed":9,"step":{"index":2,"sub":3}})")));
  ASSERT_TRUE(ok(set_state_json(a, get_state_json(a, true)))) << "setState(getState()) is accepted";
  apply_url_query(b, state_to_query(a));
  EXPECT_TRUE(b.errors.empty()) << state_to_query(a);
  const json ja = state(a, true), jb = state(b, true);
  for (const char* k : {"scene", "source", "target", "d_emb", "d_h", "d_s", "d_a", "seed", "step", "results"}) EXPECT_EQ(ja[k], jb[k]) << k;
  EXPECT_EQ(ja["results"]["n"], 4);
  EXPECT_EQ(ja["step"]["name"], "step");
  EXPECT_EQ(scene_of(b).current_step(), 3);
}

TEST(AppBahdanauScene, BadInputIsRefusedAndTheLastGoodStateStays) {
  PlaygroundState st;
  ASSERT_TRUE(ok(set_state_json(st, R"({"scene":"bahdanau","preset":"three-words"})")));
  const json before = state(st, true);
  std::string words;  // "w w w …": 33 words
  for (int k = 0; k < 33; ++k) words += "w ";
  const std::vector<std::pair<std::string, std::string>> bad = {
      {R"({"source":""})", "source has no words"},
      {R"({"target":"   "})", "target has no words"},
      {json{{"source", words}}.dump(), "source has 33 tokens; the limit is 32"},
      {json{{"target", words}}.dump(), "target has 33 tokens; the limit is 32"},
      {R"({"d_h":0})", "d_h must be between 1 and 64"},
      {R"({"d_a":65})", "d_a must be between 1 and 64"},
      {R"({"d_emb":1.5})", "d_emb must be a whole number"},
      {R"({"d_s":"ten"})", "d_s must be a number"},
      {R"({"seed":-1})", "seed must be between"},
      {R"({"source":5})", "source must be a string"},
      {R"({"preset":"nope"})", "unknown preset"},
      {R"({"d_model":4})", "d_model"},
      {R"({"results":{"n":3}})", "results do not match"},
  };
  for (const auto& [doc, says] : bad) {
    const json r = parse(set_state_json(st, doc));
    EXPECT_FALSE(r.value("ok", true)) << doc;
    EXPECT_NE(str(r["error"]).find(says), std::string::npos) << doc << " → " << str(r["error"]);
    EXPECT_FALSE(st.errors.empty()) << "a message on screen for " << doc;
    EXPECT_EQ(state(st, true)["results"], before["results"]) << doc;
    EXPECT_EQ(scene_of(st).params().source, "Le chat noir") << doc;
  }
  // the controls' way: apply() refuses and keeps the model
  BahdanauParams p = scene_of(st).params();
  p.d_s = 0;
  EXPECT_FALSE(scene_of(st).apply(p).ok);
  p.d_s = 4;
  p.target = "";
  EXPECT_FALSE(scene_of(st).apply(p).ok);
  EXPECT_EQ(state(st, true)["results"], before["results"]);
}

TEST(AppBahdanauScene, HoverExplainsTheArithmetic) {
  PlaygroundState st;
  ASSERT_TRUE(ok(set_state_json(st, R"({"scene":"bahdanau","preset":"three-words"})")));
  const BahdanauScene& sc = scene_of(st);
  const BahdanauModel& m = sc.model();
  const std::string score = sc.explain(static_cast<int>(BahdanauItem::Score), 2, 1);  // t = 3, j = 2 "chat"
  EXPECT_NE(score.find("e_3,2 = v_a · tanh(W_a s_2 + U_a h_2)"), std::string::npos) << score;
  EXPECT_NE(score.find(fmt(m.run.scores(2, 1), 3)), std::string::npos) << score;
  EXPECT_NE(score.find(fmt(m.run.alignment(2, 1), 3)), std::string::npos) << score;
  EXPECT_NE(score.find("“chat”"), std::string::npos) << score;
  EXPECT_NE(score.find("“black”"), std::string::npos) << "step 3 reads the reference word 2: " << score;
  const std::string fwd = sc.explain(static_cast<int>(BahdanauItem::Forward), 1, 0);
  EXPECT_NE(fwd.find("x_1 … x_2"), std::string::npos) << fwd;
  EXPECT_NE(fwd.find(fmt(m.encoded.fwd.H(1, 0), 3)), std::string::npos) << fwd;
  const std::string bwd = sc.explain(static_cast<int>(BahdanauItem::Joined), 1, 3);  // d_h = 3: unit 4 is ←h unit 1
  EXPECT_NE(bwd.find("x_2 … x_3"), std::string::npos) << bwd;
  EXPECT_NE(bwd.find(fmt(m.encoded.bwd.H(1, 0), 3)), std::string::npos) << bwd;
  const std::string ctx = sc.explain(static_cast<int>(BahdanauItem::Context), 0, 2);
  EXPECT_NE(ctx.find(fmt(m.run.contexts(0, 2), 3)), std::string::npos) << ctx;
  EXPECT_EQ(sc.explain(static_cast<int>(BahdanauItem::Score), 3, 0), "");
  EXPECT_EQ(sc.explain(static_cast<int>(BahdanauItem::Forward), 0, 3), "");
  EXPECT_EQ(sc.explain(99, 0, 0), "");
}

}  // namespace
}  // namespace ap
