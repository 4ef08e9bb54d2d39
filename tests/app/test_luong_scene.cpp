// The scene "Luong: multiplicative attention" (app/scenes/luong_scene.h): its alignments equal a naive
// recomputation (plain loops in double over the same seeded weights: RNN encoder, decoder states first, the
// three scores, softmax), dot is explained — not computed — when d_s ≠ d_h, the parameter counts follow the
// shapes, the document and the URL round-trip, and bad input is refused with a message while the last good
// state stays.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/api.h"
#include "app/scenes/luong_scene.h"
#include "app/url.h"
#include "core/embedding.h"
#include "core/number_text.h"
#include "core/tokenizer.h"
#include "helpers.h"

namespace ap {
namespace AP_UNITY_ID {  // this file's own namespace in a unity build (CMakeLists.txt, AP_UNITY)

using namespace ::ap::test;
using nlohmann::json;
using Rows = std::vector<std::vector<double>>;

LuongScene& luong(PlaygroundState& st) { return *st.get<LuongScene>(); }
bool ok(const std::string& reply) { return parse(reply).value("ok", false); }

// ---- the naive reference: loops, doubles --------------------------------------------------------------------

std::vector<double> matvec(const Mat& W, const std::vector<double>& x) {  // W: r × c, x: c
  std::vector<double> y(static_cast<size_t>(W.rows()), 0.0);
  for (int i = 0; i < W.rows(); ++i)
    for (int k = 0; k < W.cols(); ++k) y[static_cast<size_t>(i)] += static_cast<double>(W(i, k)) * x[static_cast<size_t>(k)];
  return y;
}
std::vector<double> row_of(const Mat& M, int i) {
  std::vector<double> r;
  for (int k = 0; k < M.cols(); ++k) r.push_back(M(i, k));
  return r;
}
std::vector<double> softmax(const std::vector<double>& e) {
  double mx = e[0], z = 0;
  for (double v : e) mx = std::max(mx, v);
  std::vector<double> a;
  for (double v : e) { a.push_back(std::exp(v - mx)); z += a.back(); }
  for (double& v : a) v /= z;
  return a;
}

struct NaiveLuong {
  Rows H, S;                     // n × d_h, T × d_s
  Rows align[3];                 // dot, general, concat: T × n
};

// Everything from the parameters, with the core only for tokens and seeded numbers.
NaiveLuong naive(const LuongParams& p) {
  NaiveLuong r;
  std::vector<std::string> src, tgt;
  EXPECT_TRUE(tokenize(p.source, 64, &src).ok);
  EXPECT_TRUE(tokenize(p.target, 64, &tgt).ok);
  std::vector<std::string> in = {"<s>"};
  for (size_t t = 0; t + 1 < tgt.size(); ++t) in.push_back(tgt[t]);
  Mat X, Y;
  EXPECT_TRUE(embed_tokens(src, p.d_emb, p.seed, false, &X).ok);
  EXPECT_TRUE(embed_tokens(in, p.d_emb, p.seed + 1, false, &Y).ok);
  RnnWeights enc;
  EXPECT_TRUE(make_rnn_weights(p.d_emb, p.d_h, p.gain, p.seed, 0, &enc).ok);
  LuongWeights w;
  EXPECT_TRUE(make_luong_weights(p.d_h, p.d_emb, p.d_s, p.d_a, p.seed, &w).ok);
  // encoder: h_j = tanh(W_x x_j + W_h h_j-1 + b), left to right
  std::vector<double> h(static_cast<size_t>(p.d_h), 0.0);
  for (int j = 0; j < X.rows(); ++j) {
    const std::vector<double> a = matvec(enc.Wx, row_of(X, j)), b = matvec(enc.Wh, h);
    for (int u = 0; u < p.d_h; ++u) h[static_cast<size_t>(u)] = std::tanh(a[static_cast<size_t>(u)] + b[static_cast<size_t>(u)] + enc.b(u));
    r.H.push_back(h);
  }
  // s_0 = tanh(W_init · mean_j h_j), then s_t = tanh(W_s s_t-1 + W_y y_t-1 + b_s)
  std::vector<double> mean(static_cast<size_t>(p.d_h), 0.0);
  for (const auto& hj : r.H)
    for (int u = 0; u < p.d_h; ++u) mean[static_cast<size_t>(u)] += hj[static_cast<size_t>(u)] / static_cast<double>(r.H.size());
  std::vector<double> s = matvec(w.W_init, mean);
  for (double& v : s) v = std::tanh(v);
  for (int t = 0; t < Y.rows(); ++t) {
    const std::vector<double> a = matvec(w.Ws, s), b = matvec(w.Wy, row_of(Y, t));
    for (int u = 0; u < p.d_s; ++u) s[static_cast<size_t>(u)] = std::tanh(a[static_cast<size_t>(u)] + b[static_cast<size_t>(u)] + w.bs(u));
    r.S.push_back(s);
  }
  // the three scores with s_t, then softmax over j
  for (const auto& st : r.S) {
    std::vector<double> dot, gen, cat;
    for (const auto& hj : r.H) {
      double e = 0;
      if (p.d_s == p.d_h)
        for (int u = 0; u < p.d_h; ++u) e += st[static_cast<size_t>(u)] * hj[static_cast<size_t>(u)];
      dot.push_back(e);
      double g = 0;
      for (int a = 0; a < p.d_s; ++a)
        for (int b = 0; b < p.d_h; ++b) g += st[static_cast<size_t>(a)] * w.Wa_general(a, b) * hj[static_cast<size_t>(b)];
      gen.push_back(g);
      double c = 0;
      for (int k = 0; k < p.d_a; ++k) {
        double z = 0;
        for (int a = 0; a < p.d_s; ++a) z += w.Wa_concat(k, a) * st[static_cast<size_t>(a)];
        for (int b = 0; b < p.d_h; ++b) z += w.Wa_concat(k, p.d_s + b) * hj[static_cast<size_t>(b)];
        c += w.va_concat(k) * std::tanh(z);
      }
      cat.push_back(c);
    }
    r.align[0].push_back(softmax(dot));
    r.align[1].push_back(softmax(gen));
    r.align[2].push_back(softmax(cat));
  }
  return r;
}

double worst_diff(const json& m, const Rows& want) {
  double worst = 0;
  EXPECT_EQ(m.size(), want.size());
  for (size_t i = 0; i < want.size() && i < m.size(); ++i)
    for (size_t j = 0; j < want[i].size(); ++j) worst = std::max(worst, std::abs(m[i][j].get<double>() - want[i][j]));
  return worst;
}

// Float (the core) against double (the loops) over sums of at most a few hundred products of |·| <= a few:
// 1e-5 on weights in [0, 1] and on states in (-1, 1).
constexpr double kTol = 1e-5;

TEST(AppLuongScene, DefaultsEqualANaiveRecomputation) {
  PlaygroundState st;
  ASSERT_TRUE(ok(set_state_json(st, R"({"scene":"luong"})")));
  const json doc = state(st, true);
  const json& r = doc["results"];
  EXPECT_EQ(r["n"], 9);
  EXPECT_EQ(r["T"], 9);
  EXPECT_EQ(r["d_enc"], 16);
  EXPECT_EQ(r["available"], json({"dot", "general", "concat"}));
  EXPECT_EQ(r["decoder_inputs"][0], "<s>");
  EXPECT_EQ(r["decoder_inputs"][1], "The");
  const NaiveLuong want = naive(luong(st).params());
  const char* names[] = {"dot", "general", "concat"};
  double worst = std::max(worst_diff(r["H"], want.H), worst_diff(r["states"], want.S));
  for (int k = 0; k < 3; ++k) worst = std::max(worst, worst_diff(r["alignments"][names[k]], want.align[k]));
  std::printf("[luong] largest |scene - naive| over H, S and the three alignments: %.3g (tolerance %.0e)\n", worst, kTol);
  EXPECT_LT(worst, kTol);
  // The three scores really differ (same s_t, same H, different weights).
  double diff = 0;
  for (size_t t = 0; t < want.align[0].size(); ++t)
    for (size_t j = 0; j < want.align[0][t].size(); ++j) diff = std::max(diff, std::abs(want.align[0][t][j] - want.align[1][t][j]));
  EXPECT_GT(diff, 1e-2);
}

TEST(AppLuongScene, UnequalSizesExplainTheDotScoreInsteadOfComputingIt) {
  PlaygroundState st;
  ASSERT_TRUE(ok(set_state_json(st, R"({"scene":"luong","preset":"dot-needs-equal-sizes"})")));
  EXPECT_TRUE(st.errors.empty());
  const json r = state(st, true)["results"];
  EXPECT_EQ(r["available"], json({"general", "concat"}));
  EXPECT_FALSE(r["alignments"].contains("dot"));
  const NaiveLuong want = naive(luong(st).params());
  const double worst = std::max(worst_diff(r["alignments"]["general"], want.align[1]), worst_diff(r["alignments"]["concat"], want.align[2]));
  std::printf("[luong] d_s = 24, d_h = 16: largest |scene - naive| %.3g\n", worst);
  EXPECT_LT(worst, kTol);
  EXPECT_EQ(luong(st).explain(kLuongAlignItem + static_cast<int>(LuongScore::Dot), 0, 0), "") << "no dot cell to explain";
  // Asking for the dot score itself: refused with the core's reason, the state stays.
  const json before = state(st, true);
  const json reply = parse(set_state_json(st, R"({"score":"dot"})"));
  EXPECT_FALSE(reply.value("ok", true));
  EXPECT_NE(str(reply["error"]).find("same size"), std::string::npos) << reply.dump();
  EXPECT_NE(str(reply["error"]).find("d_s = 24"), std::string::npos) << reply.dump();
  EXPECT_EQ(state(st, true)["results"], before["results"]);
  // With equal sizes it is accepted.
  EXPECT_TRUE(ok(set_state_json(st, R"({"score":"dot","d_s":16})")));
}

// The preset "wide-states" says it: 64 units spread the dot scores wider than 16 and sharpen its weights.
TEST(AppLuongScene, WiderStatesSpreadTheDotScores) {
  const auto measure = [](const char* preset, double* sd, double* peak) {
    PlaygroundState st;
    ASSERT_TRUE(ok(set_state_json(st, json{{"scene", "luong"}, {"preset", preset}}.dump())));
    const LuongScoreRun* r = luong(st).model().find(LuongScore::Dot);
    ASSERT_NE(r, nullptr);
    const double mean = r->scores.mean();
    *sd = std::sqrt((r->scores.array() - mean).square().mean());
    *peak = r->alignment.rowwise().maxCoeff().mean();
  };
  double sd16 = 0, sd64 = 0, peak16 = 0, peak64 = 0;
  measure("notes", &sd16, &peak16);
  measure("wide-states", &sd64, &peak64);
  std::printf("[luong] dot scores: sd %.2f (16 units) vs %.2f (64); mean peak weight %.2f vs %.2f\n", sd16, sd64, peak16, peak64);
  EXPECT_GT(sd64, 1.5 * sd16);
  EXPECT_GT(peak64, peak16);
}

TEST(AppLuongScene, ParameterShapesAndCounts) {
  PlaygroundState st;
  ASSERT_TRUE(ok(set_state_json(st, R"({"scene":"luong","d_h":8,"d_s":12,"d_a":5,"d_emb":6})")));
  const json r = state(st, false)["results"];
  EXPECT_EQ(r["score_params"]["dot"], 0);
  EXPECT_EQ(r["score_params"]["general"], 12 * 8);
  EXPECT_EQ(r["score_params"]["concat"], 5 * (12 + 8) + 5);
  EXPECT_EQ(r["score_params"]["additive"], 5 * 12 + 5 * 16 + 5) << "Bahdanau: W_a d_a × d_s, U_a d_a × 2·d_h, v_a";
  bool found = false;
  for (const json& s : r["param_shapes"])
    if (s["name"] == "W_y") { EXPECT_EQ(s["rows"], 12); EXPECT_EQ(s["cols"], 6); found = true; }
  EXPECT_TRUE(found);
  EXPECT_EQ(r["param_shapes"].size(), luong_param_shapes(luong(st).model().weights).size());
}

TEST(AppLuongScene, DocumentAndUrlRoundTrip) {
  PlaygroundState a, b;
  ASSERT_TRUE(ok(set_state_json(a, R"({"scene":"luong","source":"我 爱 猫","target":"I love cats","score":"concat","d_h":6,"d_s":6,"d_a":7,"d_emb":5,"gain":1.25,"seed":7,"step":2})")));
  ASSERT_TRUE(ok(set_state_json(a, get_state_json(a, true)))) << "setState(getState()) is accepted";
  apply_url_query(b, state_to_query(a));
  EXPECT_TRUE(b.errors.empty()) << state_to_query(a);
  const json ja = state(a, true), jb = state(b, true);
  for (const char* k : {"scene", "source", "target", "score", "d_emb", "d_h", "d_s", "d_a", "gain", "seed", "step", "results"})
    EXPECT_EQ(ja[k], jb[k]) << k;
  EXPECT_EQ(ja["results"]["n"], 3);
  EXPECT_EQ(ja["results"]["T"], 3);
}

TEST(AppLuongScene, BadInputIsRefusedAndTheLastGoodStateStays) {
  PlaygroundState st;
  ASSERT_TRUE(ok(set_state_json(st, R"({"scene":"luong","score":"general","seed":3})")));
  const json before = state(st, true);
  const char* bad[] = {
      R"({"source":""})",                                       // no tokens
      R"({"target":"   "})",                                    // whitespace only
      R"({"source":"a b c d e f g h i j k l m n o p q r s t u v w x y"})",  // 25 > 24 tokens
      R"({"d_h":0})",
      R"({"d_s":100000})",
      R"({"d_a":-3})",
      R"({"d_emb":2.5})",
      R"({"gain":3})",
      R"({"score":"cosine"})",
      R"({"score":"dot","d_s":20})",                            // dot with d_s ≠ d_h
      R"({"seed":-1})",
      R"({"source":42})",
      R"({"results":{"n":3}})",                                 // results that do not agree
      R"({"heads":2})",                                         // not a field of this scene
  };
  for (const char* doc : bad) {
    const json r = parse(set_state_json(st, doc));
    EXPECT_FALSE(r.value("ok", true)) << doc;
    EXPECT_FALSE(str(r["error"]).empty()) << doc;
    EXPECT_EQ(state(st, true)["results"], before["results"]) << doc;
    EXPECT_EQ(luong(st).params().score, "general") << doc;
    EXPECT_EQ(luong(st).params().seed, 3u) << doc;
  }
  // The messages name what is wrong, in English and in Chinese.
  const json r = parse(set_state_json(st, R"({"target":""})"));
  EXPECT_NE(str(r["error"]).find("target sentence has no tokens"), std::string::npos) << r.dump();
  LuongParams p = luong(st).params();
  p.d_s = 999;
  EXPECT_FALSE(report_result(st, "d_s", luong(st).apply(p)).ok);
  set_lang(Lang::Zh);
  EXPECT_NE(message(st, "d_s").find("必须"), std::string::npos) << message(st, "d_s");
  set_lang(Lang::En);
  EXPECT_EQ(luong(st).params().d_s, 16);
}

TEST(AppLuongScene, HoverShowsTheArithmeticOfACell) {
  PlaygroundState st;
  ASSERT_TRUE(ok(set_state_json(st, R"({"scene":"luong"})")));
  const LuongModel& m = luong(st).model();
  const LuongScoreRun* dot = m.find(LuongScore::Dot);
  ASSERT_NE(dot, nullptr);
  const std::string s = luong(st).explain(kLuongAlignItem + static_cast<int>(LuongScore::Dot), 2, 1);
  EXPECT_NE(s.find("s_3^T h_2"), std::string::npos) << s;
  EXPECT_NE(s.find("(16 terms)"), std::string::npos) << s;
  EXPECT_NE(s.find(fmt(dot->alignment(2, 1), 4)), std::string::npos) << s;
  EXPECT_NE(s.find("“cat”"), std::string::npos) << s;
  EXPECT_NE(s.find("“chat”"), std::string::npos) << s;
  const std::string c = luong(st).explain(kLuongAlignItem + static_cast<int>(LuongScore::Concat), 0, 0);
  EXPECT_NE(c.find("v_a^T tanh"), std::string::npos) << c;
  EXPECT_NE(luong(st).explain(static_cast<int>(LuongItem::Encoder), 0, 0).find("tanh"), std::string::npos);
  EXPECT_NE(luong(st).explain(static_cast<int>(LuongItem::Decoder), 0, 0).find("<s>"), std::string::npos);
  EXPECT_EQ(luong(st).explain(kLuongAlignItem, 99, 0), "");
  EXPECT_EQ(luong(st).explain(7, 0, 0), "");
}

TEST(AppLuongScene, TheStepStageFollowsTheTimelineOneDecoderStepAtATime) {
  PlaygroundState st;
  ASSERT_TRUE(ok(set_state_json(st, R"({"scene":"luong","step":{"index":1,"sub":4}})")));
  EXPECT_EQ(luong(st).timeline.substeps(1), 9);
  EXPECT_EQ(luong(st).timeline.substeps(0), 18) << "n encoder rows, then T decoder rows";
  EXPECT_EQ(luong(st).shown_step(), 4);
}

}  // namespace
}  // namespace ap
