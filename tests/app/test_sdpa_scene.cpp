// Unit tests for the SDPA scene (app/scenes/sdpa_scene.h): its default model (the notes' seed sentence), apply()
// keeping the last good model with a message by key, and its presets (the lecture notes' worked examples).
// Its hover texts: test_sdpa_cell_text.cpp; its trained view: test_sdpa_trained.cpp.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstring>
#include <string>

#include "app/scenes/sdpa_cell_text.h"
#include "app/scenes/sdpa_presets.h"
#include "app/state.h"
#include "helpers.h"

namespace ap {
namespace AP_UNITY_ID {  // this file's own namespace in a unity build (CMakeLists.txt, AP_UNITY)

using namespace ::ap::test;

// Same shape and the same bytes (so NaN, -0 and -inf compare exactly too).
bool same_bits(const Mat& a, const Mat& b) {
  if (a.rows() != b.rows() || a.cols() != b.cols()) return false;
  return a.size() == 0 || std::memcmp(a.data(), b.data(), sizeof(float) * static_cast<size_t>(a.size())) == 0;
}

void expect_same_model(const SdpaModel& a, const SdpaModel& b) {
  EXPECT_TRUE(same_bits(a.X, b.X));
  EXPECT_TRUE(same_bits(a.Wq, b.Wq));
  EXPECT_TRUE(same_bits(a.Wk, b.Wk));
  EXPECT_TRUE(same_bits(a.Wv, b.Wv));
  EXPECT_TRUE(same_bits(a.Q, b.Q));
  EXPECT_TRUE(same_bits(a.K, b.K));
  EXPECT_TRUE(same_bits(a.V, b.V));
  EXPECT_TRUE(same_bits(a.trace.scores, b.trace.scores));
  EXPECT_TRUE(same_bits(a.trace.scaled, b.trace.scaled));
  EXPECT_TRUE(same_bits(a.trace.masked, b.trace.masked));
  EXPECT_TRUE(same_bits(a.trace.weights(), b.trace.weights()));
  EXPECT_TRUE(same_bits(a.trace.output, b.trace.output));
  EXPECT_EQ(a.query_tokens, b.query_tokens);
  EXPECT_EQ(a.key_tokens, b.key_tokens);
  EXPECT_EQ(a.params.text, b.params.text);
  EXPECT_EQ(a.params.d_k, b.params.d_k);
  EXPECT_EQ(a.params.d_model, b.params.d_model);
}

// ---- the default state ------------------------------------------------------------------------------------

TEST(AppState, DefaultBuildsTheSeedSentence) {
  const PlaygroundState st;
  const SdpaModel& m = model(st);
  ASSERT_EQ(m.query_tokens.size(), 11u);
  EXPECT_EQ(m.query_tokens[0], "The");
  EXPECT_EQ(m.query_tokens[1], "animal");
  EXPECT_EQ(m.query_tokens[2], "didn't");
  EXPECT_EQ(m.query_tokens[10], "tired");
  EXPECT_EQ(m.key_tokens, m.query_tokens);
  EXPECT_EQ(m.trace.n, 11);
  EXPECT_EQ(m.trace.m, 11);
  EXPECT_EQ(m.trace.d_k, 4);
  EXPECT_EQ(m.params.source, QkvSource::Projection);
  EXPECT_EQ(m.X.rows(), 11);
  EXPECT_EQ(m.X.cols(), 16);
  EXPECT_EQ(m.trace.weights().rows(), 11);
  EXPECT_EQ(m.trace.weights().cols(), 11);
  EXPECT_TRUE(st.errors.empty());
  EXPECT_EQ(sdpa(st).generation(), 0);
  EXPECT_STREQ(st.scene().id(), "sdpa");
  EXPECT_FALSE(st.embed);
  EXPECT_TRUE(st.show_controls);
}

TEST(AppState, DefaultTimelineShowsTheFinishedComputation) {
  const PlaygroundState st;
  EXPECT_EQ(st.timeline().stage(), kSdpaStageCount - 1);
  EXPECT_TRUE(st.timeline().stage_complete());
  EXPECT_FALSE(st.timeline().playing());
  EXPECT_EQ(st.timeline().substeps(static_cast<int>(SdpaStage::Scores)), 11 * 11);
}

TEST(AppState, DefaultWeightRowsSumToOne) {
  const PlaygroundState st;
  const Mat& A = model(st).trace.weights();
  for (int i = 0; i < A.rows(); ++i) EXPECT_NEAR(A.row(i).sum(), 1.0f, 1e-5f) << "row " << i;
}

// ---- apply() ------------------------------------------------------------------------------------------------

TEST(AppState, ApplySuccessReplacesTheModelAndResizesTheTimeline) {
  PlaygroundState st;
  SdpaParams p = model(st).params;
  p.text = "I love cats";
  p.d_k = 8;
  st.hover_what = static_cast<int>(MatrixId::Scores);  // S₅,₇ of the 11-token default
  st.hover_i = 4;
  st.hover_j = 6;
  ASSERT_FALSE(hover_text(st).empty());
  const Status s = apply(st, p, "text");
  ASSERT_TRUE(s.ok) << s.message;
  EXPECT_EQ(sdpa(st).generation(), 1);
  EXPECT_EQ(model(st).trace.n, 3);
  EXPECT_EQ(model(st).trace.d_k, 8);
  EXPECT_EQ(model(st).Q.cols(), 8);
  EXPECT_EQ(st.timeline().substeps(static_cast<int>(SdpaStage::Scores)), 9);
  EXPECT_LE(st.timeline().sub(), st.timeline().substeps(st.timeline().stage()));
  EXPECT_TRUE(hover_text(st).empty()) << hover_text(st);  // the hovered cell no longer exists
}

TEST(AppState, ApplyWithZeroDkKeepsTheModel) {
  PlaygroundState st;
  const SdpaModel before = model(st);
  SdpaParams p = model(st).params;
  p.d_k = 0;
  const Status s = apply(st, p, "d_k");
  EXPECT_FALSE(s.ok);
  EXPECT_NE(s.message.find("d_k"), std::string::npos) << s.message;
  expect_same_model(model(st), before);
  EXPECT_EQ(sdpa(st).generation(), 0);
  const Message* msg = find_message(st, "d_k");
  ASSERT_NE(msg, nullptr);
  EXPECT_EQ(localize(msg->text), s.message);
}

TEST(AppState, ApplyWithEmptyTextKeepsTheModel) {
  PlaygroundState st;
  const SdpaModel before = model(st);
  const Timeline tl = st.timeline();
  SdpaParams p = model(st).params;
  p.text = "";
  const Status s = apply(st, p, "text");
  EXPECT_FALSE(s.ok);
  EXPECT_FALSE(s.message.empty());
  expect_same_model(model(st), before);
  EXPECT_EQ(sdpa(st).generation(), 0);
  EXPECT_EQ(st.timeline().stage(), tl.stage());
  EXPECT_DOUBLE_EQ(st.timeline().sub(), tl.sub());
  ASSERT_NE(find_message(st, "text"), nullptr);
  EXPECT_EQ(count_key(st, "text"), 1);
}

TEST(AppState, ALaterSuccessForTheSameKeyClearsTheMessage) {
  PlaygroundState st;
  SdpaParams bad = model(st).params;
  bad.d_k = 0;
  ASSERT_FALSE(apply(st, bad, "d_k").ok);
  SdpaParams bad_text = model(st).params;
  bad_text.text = "   ";
  ASSERT_FALSE(apply(st, bad_text, "text").ok);
  ASSERT_EQ(st.errors.size(), 2u);

  SdpaParams good = model(st).params;
  good.d_k = 6;
  ASSERT_TRUE(apply(st, good, "d_k").ok);
  EXPECT_EQ(find_message(st, "d_k"), nullptr);
  EXPECT_NE(find_message(st, "text"), nullptr);  // a different key stays reported
  EXPECT_EQ(sdpa(st).generation(), 1);
  EXPECT_EQ(model(st).trace.d_k, 6);
}

TEST(AppState, RepeatedFailureKeepsOneMessagePerKey) {
  PlaygroundState st;
  SdpaParams bad = model(st).params;
  bad.d_k = 0;
  ASSERT_FALSE(apply(st, bad, "d_k").ok);
  bad.d_k = 100000;
  ASSERT_FALSE(apply(st, bad, "d_k").ok);
  EXPECT_EQ(count_key(st, "d_k"), 1);
  EXPECT_NE(message(st, "d_k").find("100000"), std::string::npos) << message(st, "d_k");
}

// ---- presets ----------------------------------------------------------------------------------------------

TEST(AppState, PresetIdsAreUniqueAndEveryPresetBuilds) {
  const auto& all = presets();
  ASSERT_FALSE(all.empty());
  for (size_t a = 0; a < all.size(); ++a) {
    for (size_t b = a + 1; b < all.size(); ++b) EXPECT_STRNE(all[a].id, all[b].id);
    EXPECT_EQ(find_preset(all[a].id), &all[a]);
    SdpaModel m;
    const Status s = build_sdpa(all[a].params, &m);
    EXPECT_TRUE(s.ok) << all[a].id << ": " << s.message;
  }
  EXPECT_EQ(find_preset("nope"), nullptr);
}

TEST(AppState, LoadPresetCats) {
  PlaygroundState st;
  st.timeline().home();
  const Status s = load_preset(st, "cats");
  ASSERT_TRUE(s.ok) << s.message;
  const SdpaModel& m = model(st);
  EXPECT_EQ(m.params.source, QkvSource::Custom);
  EXPECT_EQ(m.trace.n, 3);
  EXPECT_EQ(m.trace.m, 3);
  EXPECT_EQ(m.trace.d_k, 2);
  EXPECT_EQ(m.query_tokens, (std::vector<std::string>{"I", "love", "cats"}));
  // The notes' Q·Kᵀ.
  const float want_scores[3][3] = {{1, 0, 0.5f}, {0, 1, 0.5f}, {1, 1, 1}};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) EXPECT_FLOAT_EQ(m.trace.scores(i, j), want_scores[i][j]) << i << "," << j;
  // The correctly computed softmax row 0 (the notes' [0.43, 0.21, 0.30] does not sum to 1).
  const Mat& A = m.trace.weights();
  EXPECT_EQ(std::lround(A(0, 0) * 100.0), 46) << A(0, 0);
  EXPECT_EQ(std::lround(A(0, 1) * 100.0), 22) << A(0, 1);
  EXPECT_EQ(std::lround(A(0, 2) * 100.0), 32) << A(0, 2);
  EXPECT_NEAR(A.row(0).sum(), 1.0f, 1e-6f);
  EXPECT_EQ(sdpa(st).generation(), 1);
  EXPECT_TRUE(st.timeline().stage_complete());
  EXPECT_EQ(st.timeline().stage(), kSdpaStageCount - 1);
}

TEST(AppState, LoadPresetOneQuery) {
  PlaygroundState st;
  ASSERT_TRUE(load_preset(st, "one-query").ok);
  EXPECT_EQ(model(st).trace.n, 1);
  EXPECT_EQ(model(st).trace.m, 3);
  const Mat& A = model(st).trace.weights();
  EXPECT_NEAR(A(0, 0), 0.665, 5e-4);
  EXPECT_NEAR(A(0, 1), 0.245, 5e-4);
  EXPECT_NEAR(A(0, 2), 0.090, 5e-4);
  EXPECT_NEAR(model(st).trace.output(0, 0), 5.752, 5e-3);
}

// The hand-set "it → animal" preset: what the notes say a trained model does with "it", by hand-set Q, K.
TEST(AppState, LoadPresetItAnimal) {
  PlaygroundState st;
  ASSERT_TRUE(load_preset(st, "it-animal").ok);
  const SdpaModel& m = model(st);
  ASSERT_EQ(m.trace.n, 11);
  ASSERT_EQ(m.query_tokens[7], "it");
  const Mat& A = m.trace.weights();
  // Row "it": naive softmax of its scaled scores (animal 6/√2, tired 3/√2, others 0).
  const double a = std::exp(6 / std::sqrt(2.0)), t = std::exp(3 / std::sqrt(2.0)), sum = a + t + 9;
  EXPECT_NEAR(A(7, 1), a / sum, 1e-5);
  EXPECT_NEAR(A(7, 10), t / sum, 1e-5);
  EXPECT_GT(A(7, 1), 0.75f);
  int best = 0;
  for (int j = 1; j < 11; ++j) if (A(7, j) > A(7, best)) best = j;
  EXPECT_EQ(m.key_tokens[static_cast<size_t>(best)], "animal");
  // Every other row learnt nothing: uniform.
  for (int i = 0; i < 11; ++i) {
    if (i != 7) { EXPECT_NEAR(A(i, 0), 1.0 / 11, 1e-6) << i; }
  }
}

// A hand-set preset is recognised while its Q, K, V are untouched (the view then shows the notes' printed
// row beside the computed one); one edited cell and it is not.
TEST(AppState, HandSetPresetIsRecognisedUntilEdited) {
  PlaygroundState st;
  EXPECT_EQ(hand_set_preset(model(st).Q, model(st).K, model(st).V), nullptr);  // projection mode
  ASSERT_TRUE(load_preset(st, "cats").ok);
  const Preset* p = hand_set_preset(model(st).Q, model(st).K, model(st).V);
  ASSERT_NE(p, nullptr);
  EXPECT_STREQ(p->id, "cats");
  ASSERT_EQ(p->printed_row, 0);
  ASSERT_EQ(p->printed_weights.size(), 3u);
  float printed = 0;
  for (float w : p->printed_weights) printed += w;
  EXPECT_NEAR(printed, 0.94f, 1e-6f);  // the notes' misprint: not 1
  Mat Q = model(st).Q;
  Q(0, 0) += 0.5f;
  EXPECT_EQ(hand_set_preset(Q, model(st).K, model(st).V), nullptr);
}

TEST(AppState, LoadUnknownPresetErrorsAndKeepsTheModel) {
  PlaygroundState st;
  const SdpaModel before = model(st);
  const Status s = load_preset(st, "nope");
  EXPECT_FALSE(s.ok);
  EXPECT_NE(s.message.find("nope"), std::string::npos) << s.message;
  EXPECT_NE(s.message.find("cats"), std::string::npos) << "lists the known presets: " << s.message;
  expect_same_model(model(st), before);
  EXPECT_EQ(sdpa(st).generation(), 0);
  ASSERT_NE(find_message(st, "preset"), nullptr);
  // A later good preset clears it.
  ASSERT_TRUE(load_preset(st, "causal").ok);
  EXPECT_EQ(find_message(st, "preset"), nullptr);
  EXPECT_EQ(model(st).params.mask, MaskKind::Causal);
}

}  // namespace
}  // namespace ap
