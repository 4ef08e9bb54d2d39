// The scene "Masks and a bug lab" (app/scenes/masks_scene.h): its numbers are core/mask_lab.h's (the scene
// computes no attention of its own), every bug shows damage and the correct computation none, the document and
// the URL round-trip, and bad input is refused with a message while the last good state stays.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "app/api.h"
#include "app/scenes/masks_scene.h"
#include "app/url.h"
#include "core/tokenizer.h"
#include "helpers.h"

namespace ap {
namespace AP_UNITY_ID {  // this file's own namespace in a unity build (CMakeLists.txt, AP_UNITY)

using namespace ::ap::test;
using nlohmann::json;

MasksScene& masks(PlaygroundState& st) { return *st.get<MasksScene>(); }
bool ok(const std::string& reply) { return parse(reply).value("ok", false); }

TEST(AppMasksScene, WeightsAreTheCoreLabsOnTheSameBatch) {
  PlaygroundState st;
  ASSERT_TRUE(ok(set_state_json(st, R"({"scene":"masks","bug":"softmax-over-columns","sentence":2})")));
  const MasksScene& sc = masks(st);
  // The same batch built directly from the core.
  std::vector<std::vector<std::string>> tokens;
  for (const std::string& s : sc.params().sentences) {
    std::vector<std::string> t;
    ASSERT_TRUE(tokenize(s, lab_limits::kMaxLength, &t).ok);
    tokens.push_back(t);
  }
  PaddedBatch b;
  ASSERT_TRUE(make_padded_batch(tokens, 0, 64, 4, 42, &b).ok);
  MaskLabRun run;
  ASSERT_TRUE(run_mask_lab(b, true, MaskBug::SoftmaxOverColumns, &run).ok);
  EXPECT_EQ(sc.model().batch.L, b.L);
  EXPECT_EQ(sc.model().batch.lengths, (std::vector<int>{3, 6, 6, 1}));
  const json doc = state(st, true);
  const json& A = doc["results"]["weights_bug"];
  ASSERT_EQ(static_cast<int>(A.size()), b.L);
  double worst = 0;
  for (int i = 0; i < b.L; ++i)
    for (int j = 0; j < b.L; ++j) worst = std::max(worst, std::abs(A[i][j].get<double>() - run.variant[2].weights(i, j)));
  EXPECT_EQ(worst, 0.0);
  EXPECT_DOUBLE_EQ(doc["results"]["damage"]["max_row_sum_dev"].get<double>(), run.damage.max_row_sum_dev);
}

TEST(AppMasksScene, EveryBugShowsDamageAndTheCorrectComputationNone) {
  PlaygroundState st;
  ASSERT_TRUE(ok(set_state_json(st, R"({"scene":"masks"})")));
  const json bugs = state(st, false)["results"]["bugs"];
  ASSERT_EQ(bugs.size(), 8u) << "causal on: all seven bugs and the correct computation";
  for (const json& b : bugs) {
    const json& d = b["damage"];
    const double harm = d["max_row_sum_dev"].get<double>() + d["max_hidden_mass"].get<double>() + d["future_leak"].get<double>() +
                        d["pad_leak"].get<double>() + std::abs(b["entropy_change"].get<double>()) + d["empty_rows"].get<double>();
    if (str(b["bug"]) == "none") EXPECT_LT(harm, 1e-5) << b.dump();
    else EXPECT_GT(harm, 1e-3) << str(b["bug"]) << " shows no damage: " << b.dump();
  }
  // Without the causal mask the three causal bugs are not offered.
  ASSERT_TRUE(ok(set_state_json(st, R"({"causal":false,"bug":"none"})")));
  EXPECT_EQ(state(st, false)["results"]["bugs"].size(), 5u);
}

// The default teaches the correct computation first, on a padded sentence: no bug chosen, the sentence shown
// (the first) has padding, so the default walk's mask stage hides [PAD] keys; the bugs are presets (one click).
TEST(AppMasksScene, DefaultIsCorrectOnAPaddedSentence) {
  PlaygroundState st;
  ASSERT_TRUE(ok(set_state_json(st, R"({"scene":"masks"})")));
  const MasksScene& sc = masks(st);
  EXPECT_EQ(sc.params().bug, MaskBug::None);
  EXPECT_STREQ(MasksScene::bug_title(MaskBug::None), "no bug");
  EXPECT_EQ(sc.params().sentence, 0);
  const json doc = state(st, true);
  EXPECT_EQ(str(doc["bug"]), "none");
  const int L = doc["results"]["L"].get<int>(), len = doc["results"]["lengths"][0].get<int>();
  EXPECT_LT(len, L) << "the first sentence is padded";
  EXPECT_EQ(doc["results"]["damage"]["max_row_sum_dev"].get<double>(), doc["results"]["baseline"]["max_row_sum_dev"].get<double>())
      << "no bug: the weights shown are the correct ones";
  // Every padding key of the sentence shown is hidden in its mask.
  const json& hidden = doc["results"]["hidden"];
  for (int i = 0; i < len; ++i)
    for (int j = len; j < L; ++j) EXPECT_EQ(hidden[i][j].get<double>(), 1.0) << i << "," << j;
  int bug_presets = 0;
  for (const PresetInfo& p : sc.presets()) bug_presets += std::string(p.id) != "none";
  EXPECT_EQ(bug_presets, 7) << "every bug one click away";
}

TEST(AppMasksScene, DocumentAndUrlRoundTrip) {
  PlaygroundState a, b;
  ASSERT_TRUE(ok(set_state_json(a, R"({"scene":"masks","sentences":["我 爱 猫","the cat sat","hi"],"bug":"causal-diagonal","pad_to":5,"heads":2,"seed":7,"sentence":1,"step":2})")));
  ASSERT_TRUE(ok(set_state_json(a, get_state_json(a, true)))) << "setState(getState()) is accepted";
  apply_url_query(b, state_to_query(a));
  EXPECT_TRUE(b.errors.empty()) << state_to_query(a);
  const json ja = state(a, false), jb = state(b, false);
  for (const char* k : {"scene", "sentences", "bug", "pad_to", "heads", "seed", "sentence", "causal", "d_model", "step", "results"})
    EXPECT_EQ(ja[k], jb[k]) << k;
  EXPECT_EQ(ja["results"]["L"], 5);
}

TEST(AppMasksScene, BadInputIsRefusedAndTheLastGoodStateStays) {
  PlaygroundState st;
  ASSERT_TRUE(ok(set_state_json(st, R"({"scene":"masks","bug":"scale-after-softmax"})")));
  const json before = state(st, true);
  const char* bad[] = {
      R"({"sentences":["the cat",""]})",                 // an empty sentence
      R"({"sentences":[]})",                             // no sentence
      R"({"sentences":["a","b","c","d","e","f","g","h","i","j","k","l","m","n","o","p","q"]})",  // 17 > 16
      R"({"pad_to":2})",                                 // shorter than the longest sentence
      R"({"heads":3})",                                  // does not divide 64
      R"({"d_model":0})",
      R"({"bug":"mask-before-softmax"})",                // no such bug
      R"({"causal":false,"bug":"causal-omitted"})",      // needs the causal mask
      R"({"sentence":4})",                               // only 4 sentences (0 … 3)
      R"({"seed":-1})",
      R"({"results":{"L":3}})",                          // results that do not agree
      R"({"sentences":"the cat"})",                      // not a list
  };
  for (const char* doc : bad) {
    const json r = parse(set_state_json(st, doc));
    EXPECT_FALSE(r.value("ok", true)) << doc;
    EXPECT_FALSE(str(r["error"]).empty()) << doc;
    EXPECT_EQ(state(st, true)["results"], before["results"]) << doc;
    EXPECT_EQ(masks(st).params().bug, MaskBug::ScaleAfterSoftmax) << doc;
  }
  EXPECT_FALSE(masks(st).apply(MasksParams{{"  "}}).ok) << "whitespace only";
}

TEST(AppMasksScene, HoverExplainsWhyACellIsHidden) {
  PlaygroundState st;
  ASSERT_TRUE(ok(set_state_json(st, R"({"scene":"masks","sentence":0})")));  // "I love cats" + 3 [PAD]
  const std::string pad = masks(st).explain(static_cast<int>(MasksItem::Correct), 0, 4);
  EXPECT_NE(pad.find("[PAD]"), std::string::npos) << pad;
  const std::string later = masks(st).explain(static_cast<int>(MasksItem::Correct), 0, 2);
  EXPECT_NE(later.find("later"), std::string::npos) << later;
  const std::string seen = masks(st).explain(static_cast<int>(MasksItem::Correct), 2, 1);
  EXPECT_NE(seen.find("visible"), std::string::npos) << seen;
  EXPECT_EQ(masks(st).explain(0, 99, 0), "");
}

}  // namespace
}  // namespace ap
