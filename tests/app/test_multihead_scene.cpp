// The scene "Multi-head attention" (app/scenes/multihead_scene.h): the numbers it reports equal a naive
// recomputation (plain loops in double from the same seeded X and weights), the parameter count is read from the
// matrices and is 4·d_model² for every h, the document and the URL round-trip, and bad input is refused with a
// message while the last good state stays.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "app/api.h"
#include "app/scenes/multihead_scene.h"
#include "app/url.h"
#include "core/embedding.h"
#include "core/tokenizer.h"
#include "helpers.h"

namespace ap {
namespace AP_UNITY_ID {  // this file's own namespace in a unity build (CMakeLists.txt, AP_UNITY)

using namespace ::ap::test;
using nlohmann::json;
using DMatrix = std::vector<std::vector<double>>;

MultiheadScene& mh(PlaygroundState& st) { return *st.get<MultiheadScene>(); }
bool ok(const std::string& reply) { return parse(reply).value("ok", false); }

DMatrix matmul(const DMatrix& A, const DMatrix& B) {
  DMatrix C(A.size(), std::vector<double>(B[0].size(), 0.0));
  for (size_t i = 0; i < A.size(); ++i)
    for (size_t j = 0; j < B[0].size(); ++j)
      for (size_t k = 0; k < B.size(); ++k) C[i][j] += A[i][k] * B[k][j];
  return C;
}
DMatrix to_d(const Mat& m) {
  DMatrix d(static_cast<size_t>(m.rows()), std::vector<double>(static_cast<size_t>(m.cols())));
  for (int i = 0; i < m.rows(); ++i)
    for (int j = 0; j < m.cols(); ++j) d[i][j] = m(i, j);
  return d;
}
double worst_diff(const json& got, const DMatrix& want) {
  double w = 0;
  EXPECT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size() && i < got.size(); ++i)
    for (size_t j = 0; j < want[i].size(); ++j) w = std::max(w, std::abs(got[i][j].get<double>() - want[i][j]));
  return w;
}

// Multi-head attention from the sentence, in plain loops: the scene's inputs (tokens, seeded X and weights)
// come from the core's generators, everything computed from them is naive.
struct Naive {
  std::vector<DMatrix> weights;
  std::vector<double> entropy, max_weight;
  DMatrix concat, output;
};
Naive naive(const std::string& text, int d_model, int h, uint64_t seed, bool causal) {
  std::vector<std::string> tokens;
  EXPECT_TRUE(tokenize(text, 100, &tokens).ok);
  Mat Xf;
  EXPECT_TRUE(embed_tokens(tokens, d_model, seed, true, &Xf).ok);
  const DMatrix X = to_d(Xf);
  const int n = static_cast<int>(tokens.size()), dk = d_model / h;
  Naive r;
  r.concat.assign(n, std::vector<double>(d_model, 0.0));
  for (int k = 0; k < h; ++k) {
    const DMatrix Q = matmul(X, to_d(projection_weights(d_model, dk, seed, 'Q', k)));
    const DMatrix K = matmul(X, to_d(projection_weights(d_model, dk, seed, 'K', k)));
    const DMatrix V = matmul(X, to_d(projection_weights(d_model, dk, seed, 'V', k)));
    DMatrix A(n, std::vector<double>(n, 0.0));
    double ent = 0, mx = 0;
    for (int i = 0; i < n; ++i) {
      std::vector<double> z(n);
      double top = -1e300, sum = 0;
      for (int j = 0; j < n; ++j) {
        double s = 0;
        for (int t = 0; t < dk; ++t) s += Q[i][t] * K[j][t];
        z[j] = (causal && j > i) ? -INFINITY : s / std::sqrt(static_cast<double>(dk));
        top = std::max(top, z[j]);
      }
      for (int j = 0; j < n; ++j) sum += std::exp(z[j] - top);
      double e = 0, best = 0;
      for (int j = 0; j < n; ++j) {
        A[i][j] = std::exp(z[j] - top) / sum;
        if (A[i][j] > 0) e -= A[i][j] * std::log(A[i][j]);
        best = std::max(best, A[i][j]);
      }
      ent += e;
      mx += best;
      for (int c = 0; c < dk; ++c)
        for (int j = 0; j < n; ++j) r.concat[i][k * dk + c] += A[i][j] * V[j][c];
    }
    r.weights.push_back(A);
    r.entropy.push_back(ent / n);
    r.max_weight.push_back(mx / n);
  }
  r.output = matmul(r.concat, to_d(projection_weights(d_model, d_model, seed, 'O')));
  return r;
}

TEST(AppMultiheadScene, DefaultsComputeOnTheNotesSentence) {
  PlaygroundState st;
  ASSERT_TRUE(ok(set_state_json(st, R"({"scene":"multihead"})")));
  const json doc = state(st, true);
  EXPECT_EQ(str(doc["text"]), "The cat sat on the mat because it was tired");
  EXPECT_EQ(doc["h"], 4);
  EXPECT_EQ(doc["d_model"], 16);
  const json& r = doc["results"];
  EXPECT_EQ(r["n"], 10);
  EXPECT_EQ(r["d_k"], 4);
  EXPECT_EQ(r["h"], 4);
  ASSERT_EQ(r["weights"].size(), 4u);
  EXPECT_EQ(r["concat"][0].size(), 16u);
  EXPECT_EQ(r["output"].size(), 10u);
  EXPECT_EQ(mh(st).substeps(), (std::vector<int>{1, 4, 1, 1})) << "the heads stage: one sub-step per head";
  EXPECT_EQ(mh(st).focus_query(), 7) << "“it”";
}

TEST(AppMultiheadScene, ReportedNumbersEqualANaiveRecomputation) {
  for (const char* doc : {R"({"scene":"multihead"})", R"({"scene":"multihead","h":8,"mask":"causal","seed":7})",
                          R"({"scene":"multihead","h":1,"d_model":24,"text":"我爱猫 and dogs"})"}) {
    PlaygroundState st;
    ASSERT_TRUE(ok(set_state_json(st, doc))) << doc;
    const json s = state(st, true);
    const json& r = s["results"];
    const Naive want = naive(str(s["text"]), s["d_model"].get<int>(), s["h"].get<int>(), s["seed"].get<uint64_t>(), str(s["mask"]) == "causal");
    double worst = 0;
    for (size_t k = 0; k < want.weights.size(); ++k) {
      worst = std::max(worst, worst_diff(r["weights"][k], want.weights[k]));
      worst = std::max(worst, std::abs(r["heads"][k]["mean_entropy"].get<double>() - want.entropy[k]));
      worst = std::max(worst, std::abs(r["heads"][k]["mean_max_weight"].get<double>() - want.max_weight[k]));
    }
    const double w_out = std::max(worst_diff(r["concat"], want.concat), worst_diff(r["output"], want.output));
    std::printf("  [%s] max |weights, entropy, max weight - naive| = %.3g, max |concat, output - naive| = %.3g\n", doc, worst, w_out);
    EXPECT_LE(worst, 1e-5) << doc;   // float vs double
    EXPECT_LE(w_out, 1e-4) << doc;
  }
}

TEST(AppMultiheadScene, ParameterCountIsReadFromTheMatricesAndIsFourDModelSquaredForEveryH) {
  PlaygroundState st;
  for (int h : {1, 2, 4, 8, 16}) {
    ASSERT_TRUE(ok(set_state_json(st, json{{"scene", "multihead"}, {"h", h}}.dump()))) << h;
    const MultiheadModel& m = mh(st).model();
    long long entries = 0;  // every entry of every matrix the scene holds, counted one by one
    for (const auto* group : {&m.weights.Wq, &m.weights.Wk, &m.weights.Wv})
      for (const Mat& W : *group)
        for (int i = 0; i < W.rows(); ++i)
          for (int j = 0; j < W.cols(); ++j) ++entries;
    for (int i = 0; i < m.weights.Wo.rows(); ++i)
      for (int j = 0; j < m.weights.Wo.cols(); ++j) ++entries;
    const json c = state(st, false)["results"]["param_count"];
    EXPECT_EQ(c["total"].get<long long>(), entries) << h;
    EXPECT_EQ(c["total"].get<long long>(), 4 * 16 * 16) << h;
    EXPECT_EQ(c["four_d_model_squared"].get<long long>(), 4 * 16 * 16);
    EXPECT_EQ(c["W_Q"].get<long long>(), 16 * 16);
    EXPECT_EQ(c["d_k"], 16 / h);
  }
  ASSERT_TRUE(ok(set_state_json(st, R"({"d_model":24,"h":3})")));
  const json table = state(st, false)["results"]["param_table"];
  std::vector<int> hs;
  for (const json& row : table) {
    hs.push_back(row["h"].get<int>());
    EXPECT_EQ(row["total"].get<long long>(), 4 * 24 * 24) << row.dump();
    EXPECT_EQ(row["h"].get<int>() * row["d_k"].get<int>(), 24);
  }
  EXPECT_EQ(hs, (std::vector<int>{1, 2, 3, 4, 6, 8, 12}));
}

TEST(AppMultiheadScene, MasksActInEveryHead) {
  PlaygroundState st;
  ASSERT_TRUE(ok(set_state_json(st, R"({"scene":"multihead","preset":"padding"})")));
  json r = state(st, true)["results"];
  ASSERT_EQ(r["n"], 12);
  for (const json& A : r["weights"])
    for (int i = 0; i < 12; ++i) {
      EXPECT_EQ(A[i][10].get<double>(), 0.0);
      EXPECT_EQ(A[i][11].get<double>(), 0.0);
    }
  ASSERT_TRUE(ok(set_state_json(st, R"({"preset":"causal"})")));
  r = state(st, true)["results"];
  for (const json& A : r["weights"])
    for (int i = 0; i < 10; ++i)
      for (int j = i + 1; j < 10; ++j) EXPECT_EQ(A[i][j].get<double>(), 0.0);
}

TEST(AppMultiheadScene, DocumentAndUrlRoundTrip) {
  PlaygroundState a, b;
  ASSERT_TRUE(ok(set_state_json(a, R"({"scene":"multihead","text":"我爱猫 [PAD]","d_model":32,"h":8,"mask":"padding","seed":9,"step":1})")));
  ASSERT_TRUE(ok(set_state_json(a, get_state_json(a, true)))) << "setState(getState()) is accepted";
  apply_url_query(b, state_to_query(a));
  EXPECT_TRUE(b.errors.empty()) << state_to_query(a);
  const json ja = state(a, true), jb = state(b, true);
  for (const char* k : {"scene", "text", "d_model", "h", "mask", "seed", "step", "results"}) EXPECT_EQ(ja[k], jb[k]) << k;
  EXPECT_EQ(ja["results"]["d_k"], 4);
}

TEST(AppMultiheadScene, BadInputIsRefusedWithAMessageAndTheLastGoodStateStays) {
  PlaygroundState st;
  ASSERT_TRUE(ok(set_state_json(st, R"({"scene":"multihead","h":2,"seed":5})")));
  const json before = state(st, true);
  std::string overlong;
  for (int i = 0; i < multihead_limits::kMaxTokens + 1; ++i) overlong += "cat ";
  const std::string bad[] = {
      R"({"h":0})",
      R"({"h":3})",                   // does not divide 16
      R"({"d_model":10,"h":4})",      // d_k would be 2.5
      R"({"h":17})",
      R"({"d_model":0})",
      R"({"text":""})",
      R"({"text":"   "})",
      json{{"text", overlong}}.dump(),
      R"({"mask":"sideways"})",
      R"({"seed":-1})",
      R"({"h":"four"})",
      R"({"d_k":4})",                  // not a parameter: d_k = d_model / h
      R"({"results":{"h":2}})",       // results that do not agree
  };
  for (const std::string& doc : bad) {
    const json r = parse(set_state_json(st, doc));
    EXPECT_FALSE(r.value("ok", true)) << doc;
    EXPECT_FALSE(str(r["error"]).empty()) << doc;
    EXPECT_EQ(state(st, true)["results"], before["results"]) << doc;
    EXPECT_EQ(mh(st).params().h, 2) << doc;
  }
  EXPECT_NE(str(parse(set_state_json(st, R"({"h":3})"))["error"]).find("must divide"), std::string::npos);
  EXPECT_NE(str(parse(set_state_json(st, json{{"text", overlong}}.dump()))["error"]).find("limit is 48"), std::string::npos);
  // The controls' way (no JSON reader in between): refused by the scene itself, message under the key.
  MultiheadParams p = mh(st).params();
  p.h = 0;
  EXPECT_FALSE(report_result(st, "h", mh(st).apply(p)).ok);
  EXPECT_FALSE(message(st, "h").empty());
  p.h = 5;
  EXPECT_NE(mh(st).apply(p).message.find("must divide"), std::string::npos);
  p = mh(st).params();
  p.text = "";
  EXPECT_FALSE(mh(st).apply(p).ok);
  EXPECT_EQ(state(st, true)["results"], before["results"]);
  // The message in Chinese.
  p = mh(st).params();
  p.h = 3;
  const Status zh = mh(st).apply(p);
  set_lang(Lang::Zh);
  EXPECT_NE(localize(zh).find("必须能整除"), std::string::npos) << localize(zh);
  set_lang(Lang::En);
}

TEST(AppMultiheadScene, HoverExplainsCellsWithTheirTokens) {
  PlaygroundState st;
  ASSERT_TRUE(ok(set_state_json(st, R"({"scene":"multihead","mask":"causal"})")));
  const MultiheadScene& sc = mh(st);
  const std::string w = sc.explain(multihead_hover_id(MultiheadItem::Weights, 2), 7, 1);
  EXPECT_NE(w.find("“it”"), std::string::npos) << w;
  EXPECT_NE(w.find("“cat”"), std::string::npos) << w;
  EXPECT_NE(sc.explain(multihead_hover_id(MultiheadItem::Weights, 0), 0, 5).find("hidden"), std::string::npos);
  EXPECT_NE(sc.explain(multihead_hover_id(MultiheadItem::Concat), 0, 5).find("head_2"), std::string::npos);
  EXPECT_EQ(sc.explain(multihead_hover_id(MultiheadItem::Weights, 9), 0, 0), "") << "only 4 heads";
  EXPECT_EQ(sc.explain(multihead_hover_id(MultiheadItem::Output), 99, 0), "");
}

}  // namespace
}  // namespace ap
