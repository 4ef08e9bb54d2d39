// The scene "The Seq2Seq bottleneck" (app/scenes/bottleneck_scene.h): its encoder states are an Elman RNN's
// (recomputed here by naive double loops), its probe numbers are what a naive ridge probe gives on the same
// data (tests/core/reference_seq2seq.h), the document and the URL round-trip, and bad input is refused with
// a message while the last good state stays.
//
// Tolerances: the core runs the RNN in float, the reference in double: states within 1e-5 (tanh' <= 1 and
// gain < 1, so errors do not grow along the sentence). Probe R² come from double normal equations over
// float states: 1e-4 (as in tests/core/test_seq2seq.cpp).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "app/api.h"
#include "app/scenes/bottleneck_scene.h"
#include "app/url.h"
#include "core/embedding.h"
#include "core/number_text.h"
#include "core/reference_seq2seq.h"
#include "core/tokenizer.h"
#include "helpers.h"

namespace ap {
namespace AP_UNITY_ID {  // this file's own namespace in a unity build (CMakeLists.txt, AP_UNITY)

using namespace ::ap::test;
using nlohmann::json;

BottleneckScene& scene(PlaygroundState& st) { return *st.get<BottleneckScene>(); }
bool ok(const std::string& reply) { return parse(reply).value("ok", false); }

// A probe small enough for the naive reference (sentence by sentence, Gaussian elimination).
constexpr const char* kSmall =
    R"({"scene":"bottleneck","text":"le chat noir est assis","d_in":3,"d_h":6,"vocab":12,"l_max":6,"n_train":60,"n_test":30,"seed":3,"gain":0.9})";

TEST(AppBottleneckScene, DefaultsComputeTheNotesSentence) {
  PlaygroundState st;
  ASSERT_TRUE(ok(set_state_json(st, R"({"scene":"bottleneck"})")));
  const json r = state(st, false)["results"];
  EXPECT_EQ(r["n"], 12) << "Le chat noir est assis sur le tapis rouge dans le salon";
  EXPECT_EQ(r["source_numbers"], 12 * 8);
  EXPECT_EQ(r["c"].size(), 32u);
  EXPECT_EQ(r["probe"]["L"].size(), 16u) << "L = 1 … L_max";
  EXPECT_EQ(r["at_L"]["L"], 12);
  EXPECT_EQ(r["at_L"]["r2_bottleneck"].size(), 12u);
  EXPECT_DOUBLE_EQ(num(r["at_L"]["bound"]), 32.0 / 96.0);
  EXPECT_EQ(r["work"].get<long long>(), probe_work(bottleneck_probe_config(scene(st).params())));
  // The lesson, measured: at L = 12 the mean R² from c stays near or under the bound, the reader far above it,
  // and c holds the last word better than the first.
  const json& at = r["at_L"];
  EXPECT_LT(num(at["mean_r2_bottleneck"]), num(at["bound"]) + 0.05);
  EXPECT_GT(num(at["mean_r2_reader"]), 0.85);
  EXPECT_LT(num(at["r2_bottleneck"][0]), num(at["r2_bottleneck"][11]));
  // The timeline reads one token per sub-step in stage 1.
  EXPECT_EQ(scene(st).substeps(), (std::vector<int>{12, 1, 1, 1, 1}));  // the last: the trained measurement
}

TEST(AppBottleneckScene, EncoderStatesMatchANaiveRnn) {
  PlaygroundState st;
  ASSERT_TRUE(ok(set_state_json(st, kSmall)));
  const BottleneckScene& sc = scene(st);
  const json r = state(st, true)["results"];
  // The same sentence, embedded and read by naive double loops with the probe's encoder weights.
  std::vector<std::string> toks;
  ASSERT_TRUE(tokenize("le chat noir est assis", 32, &toks).ok);
  Mat X;
  ASSERT_TRUE(embed_tokens(toks, 3, 3, false, &X).ok);
  ProbeData data;
  ASSERT_TRUE(make_probe_data(bottleneck_probe_config(sc.params()), &data).ok);
  const ref::s2s::Rnn want = ref::s2s::rnn_forward(ref::from_mat(X), ref::from_mat(data.encoder.Wx),
                                                   ref::from_mat(data.encoder.Wh), ref::s2s::from_vec(data.encoder.b));
  ASSERT_EQ(r["H"].size(), 5u);
  double worst = 0, worst_x = 0;
  for (int t = 0; t < 5; ++t) {
    for (int k = 0; k < 6; ++k) worst = std::max(worst, std::abs(num(r["H"][t][k]) - want.H(t, k)));
    for (int k = 0; k < 3; ++k) worst_x = std::max(worst_x, std::abs(num(r["X"][t][k]) - X(t, k)));
  }
  for (int k = 0; k < 6; ++k) worst = std::max(worst, std::abs(num(r["c"][k]) - want.last[static_cast<size_t>(k)]));
  EXPECT_LE(ref::report("bottleneck scene: H and c vs naive RNN", worst), 1e-5);
  EXPECT_EQ(worst_x, 0.0);
}

TEST(AppBottleneckScene, ProbeNumbersMatchANaiveRidgeProbe) {
  PlaygroundState st;
  ASSERT_TRUE(ok(set_state_json(st, kSmall)));
  const ProbeConfig cfg = bottleneck_probe_config(scene(st).params());
  ProbeData data;
  ASSERT_TRUE(make_probe_data(cfg, &data).ok);
  const json r = state(st, false)["results"];
  double worst = 0;
  for (int L = 1; L <= cfg.l_max; ++L) {
    const ref::s2s::Probe want = ref::s2s::probe(cfg, data, L);
    double mf = 0, mr = 0;
    for (int j = 0; j < L; ++j) { mf += want.r2_final[static_cast<size_t>(j)] / L; mr += want.r2_reader[static_cast<size_t>(j)] / L; }
    ASSERT_EQ(r["probe"]["L"][L - 1], L);
    worst = std::max({worst, std::abs(num(r["probe"]["mean_r2_bottleneck"][L - 1]) - mf),
                      std::abs(num(r["probe"]["mean_r2_reader"][L - 1]) - mr)});
    EXPECT_DOUBLE_EQ(num(r["probe"]["bound"][L - 1]), std::min(1.0, 6.0 / (3.0 * L)));
    if (L == 5) {  // the sentence's own length: per position
      for (int j = 0; j < L; ++j) {
        worst = std::max({worst, std::abs(num(r["at_L"]["r2_bottleneck"][j]) - want.r2_final[static_cast<size_t>(j)]),
                          std::abs(num(r["at_L"]["r2_reader"][j]) - want.r2_reader[static_cast<size_t>(j)]),
                          std::abs(num(r["at_L"]["cos_bottleneck"][j]) - want.cos_final[static_cast<size_t>(j)])});
      }
    }
  }
  EXPECT_LE(ref::report("bottleneck scene: probe R² vs naive ridge", worst), 1e-4);
}

TEST(AppBottleneckScene, DocumentAndUrlRoundTrip) {
  PlaygroundState a, b;
  ASSERT_TRUE(ok(set_state_json(a, R"({"scene":"bottleneck","text":"我 爱 猫 , the cat","d_h":16,"gain":0.75,"seed":11,"l_max":8,"n_train":200,"n_test":64,"vocab":32,"lambda":0.01,"step":2})")));
  ASSERT_TRUE(ok(set_state_json(a, get_state_json(a, true)))) << "setState(getState()) is accepted";
  apply_url_query(b, state_to_query(a));
  EXPECT_TRUE(b.errors.empty()) << state_to_query(a);
  const json ja = state(a, false), jb = state(b, false);
  for (const char* k : {"scene", "text", "d_in", "d_h", "gain", "seed", "vocab", "l_max", "n_train", "n_test", "lambda", "step", "results"})
    EXPECT_EQ(ja[k], jb[k]) << k;
  EXPECT_EQ(ja["results"]["n"], 6);
  // every preset builds
  for (const PresetInfo& p : scene(a).presets())
    EXPECT_TRUE(ok(set_state_json(a, json{{"preset", p.id}}.dump()))) << p.id;
}

TEST(AppBottleneckScene, BadInputIsRefusedAndTheLastGoodStateStays) {
  PlaygroundState st;
  ASSERT_TRUE(ok(set_state_json(st, R"({"scene":"bottleneck","text":"Le chat noir","d_h":24})")));
  const json before = state(st, true);
  const std::string long_text = [] {
    std::string s;
    for (int i = 0; i < 40; ++i) s += "mot ";
    return s;
  }();
  const std::string too_long_for_l_max = R"({"text":"a b c d e f g h i j k l m n o p q r s t"})";  // 20 > 16
  const std::string bad[] = {
      R"({"text":""})",                       // empty
      R"({"text":"   "})",                    // no tokens
      json{{"text", long_text}}.dump(),       // 40 tokens > 32
      too_long_for_l_max,
      R"({"text":42})",                       // not a string
      R"({"d_h":0})",
      R"({"d_h":100000})",
      R"({"d_in":65})",
      R"({"gain":3})",
      R"({"gain":"high"})",
      R"({"lambda":-1})",
      R"({"l_max":0})",
      R"({"n_train":10})",                    // too few for 24 features
      R"({"d_h":128,"n_train":4096,"n_test":4096,"l_max":32})",  // over the probe budget
      R"({"seed":-1})",
      R"({"sentence":1})",                    // unknown field
      R"({"results":{"n":3}})",               // results that do not agree
  };
  for (const std::string& doc : bad) {
    const json r = parse(set_state_json(st, doc));
    EXPECT_FALSE(r.value("ok", true)) << doc;
    EXPECT_FALSE(str(r["error"]).empty()) << doc;
    EXPECT_FALSE(st.errors.empty()) << "a message on screen: " << doc;
    EXPECT_EQ(state(st, true)["results"], before["results"]) << doc;
    EXPECT_EQ(scene(st).params().text, "Le chat noir") << doc;
  }
  // the messages say what is wrong, in English and in Chinese
  json r = parse(set_state_json(st, too_long_for_l_max));
  EXPECT_NE(str(r["error"]).find("L_max"), std::string::npos) << r.dump();
  r = parse(set_state_json(st, R"({"d_h":128,"n_train":4096,"n_test":4096,"l_max":32})"));
  EXPECT_NE(str(r["error"]).find("budget"), std::string::npos) << r.dump();
  set_lang(Lang::Zh);
  EXPECT_NE(message(st, "api").find("预算"), std::string::npos) << message(st, "api");
  (void)set_state_json(st, too_long_for_l_max);
  EXPECT_NE(message(st, "api").find("句子有 20 个词元"), std::string::npos) << message(st, "api");
  set_lang(Lang::En);
  // the controls' path refuses the same way
  BottleneckParams p = scene(st).params();
  p.text = "";
  EXPECT_FALSE(scene(st).apply(p).ok);
  EXPECT_EQ(state(st, true)["results"], before["results"]);
}

TEST(AppBottleneckScene, HoverExplainsTheNumbers) {
  PlaygroundState st;
  ASSERT_TRUE(ok(set_state_json(st, R"({"scene":"bottleneck"})")));
  const BottleneckScene& sc = scene(st);
  const std::string h = sc.explain(static_cast<int>(BottleneckItem::State), 2, 0);
  EXPECT_NE(h.find("noir"), std::string::npos) << h;
  EXPECT_NE(h.find("tanh"), std::string::npos) << h;
  const std::string pos = sc.explain(static_cast<int>(BottleneckItem::Position), 0, 0);
  EXPECT_NE(pos.find("Le"), std::string::npos) << pos;
  EXPECT_NE(pos.find(fmt(sc.model().at_sentence().r2_final[0], 3)), std::string::npos) << pos;
  const std::string len = sc.explain(static_cast<int>(BottleneckItem::Length), 3, 0);
  EXPECT_NE(len.find("L = 4"), std::string::npos) << len;
  EXPECT_NE(sc.explain(static_cast<int>(BottleneckItem::Context), 0, 31), "");
  EXPECT_EQ(sc.explain(static_cast<int>(BottleneckItem::State), 12, 0), "");
  EXPECT_EQ(sc.explain(static_cast<int>(BottleneckItem::Position), 12, 0), "");
  EXPECT_EQ(sc.explain(99, 0, 0), "");
}

}  // namespace
}  // namespace ap
