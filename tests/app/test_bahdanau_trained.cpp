// The Bahdanau scene's trained view (app/scenes/bahdanau_scene.h, weights "trained"): the view waits for the
// build's checkpoint (bahdanau.apsq), then shows the notes' sentence through the trained GRU encoder–decoder —
// every quantity equal to the core's own run (Seq2SeqTrainer::align), the alignment crossing where the word orders
// differ ("black" → "noir", "cat" → "chat"), labelled with the model's measured held-out figures; the document
// round-trips; a word outside the model's vocabulary is refused by name and the last good view stays; a damaged
// checkpoint leaves a message and the seeded view.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/scenes/bahdanau_scene.h"
#include "core/train/seq2seq_checkpoint.h"
#include "helpers.h"
#include "test_mode.h"

namespace ap {
namespace AP_UNITY_ID {  // this file's own namespace in a unity build (CMakeLists.txt, AP_UNITY)

using namespace ::ap::test;
using nlohmann::json;

const char* kSource = "le chat noir est assis sur le tapis rouge dans le salon";
const char* kTarget = "the black cat is sitting on the red carpet in the living room";

json trained_doc() { return json{{"weights", "trained"}, {"source", kSource}, {"target", kTarget}}; }

std::vector<unsigned char> bytes_of(const std::vector<uint8_t>& b) { return std::vector<unsigned char>(b.begin(), b.end()); }

// The source word with the largest weight in row t of the alignment.
std::string read_at(const BahdanauModel& m, int t) {
  Eigen::Index best;
  m.run.alignment.row(t).maxCoeff(&best);
  return m.source_tokens[static_cast<size_t>(best)];
}

TEST(AppBahdanauTrained, TheTrainedViewShowsTheBuildsModelOnTheNotesSentence) {
  BahdanauScene s;
  const int gen = s.generation();
  ASSERT_TRUE(prepare_commit(s, trained_doc()).ok);
  EXPECT_TRUE(s.trained_pending());
  EXPECT_EQ(s.checkpoint(), BahdanauScene::Checkpoint::Wanted);
  EXPECT_EQ(s.generation(), gen);                  // the seeded view stays until the model is here
  EXPECT_EQ(scene_doc(s)["weights"], "trained");   // the document already names what it waits for
  test::deliver_checkpoint(s, bytes_of(bahdanau_checkpoint_bytes()));
  ASSERT_FALSE(s.trained_pending());
  const BahdanauModel& m = s.model();
  ASSERT_TRUE(m.trained) << s.checkpoint_error().message;
  EXPECT_EQ(m.run.n, 12);
  EXPECT_EQ(m.run.T, 14);  // 13 words and the step that ends the sentence
  EXPECT_EQ(m.target_tokens.back(), "</s>");
  // The view's numbers are the core's own run, bit for bit.
  train::Seq2SeqTrainer t;
  const auto& b = bahdanau_checkpoint_bytes();
  ASSERT_TRUE(train::read_seq2seq_checkpoint(b.data(), b.size(), &t).ok);
  train::Seq2SeqAlignment a;
  ASSERT_TRUE(t.align(m.source_tokens, std::vector<std::string>(m.target_tokens.begin(), m.target_tokens.end() - 1), &a).ok);
  EXPECT_EQ((m.run.alignment - a.alpha).cwiseAbs().maxCoeff(), 0.f);
  EXPECT_EQ((m.run.contexts - a.contexts).cwiseAbs().maxCoeff(), 0.f);
  EXPECT_EQ((m.encoded.H - a.H).cwiseAbs().maxCoeff(), 0.f);
  for (int k = 0; k < m.run.T; ++k) EXPECT_NEAR(m.run.alignment.row(k).sum(), 1.f, 1e-5f);
  // The alignment crosses where the orders differ.
  EXPECT_EQ(read_at(m, 1), "noir");   // black
  EXPECT_EQ(read_at(m, 2), "chat");   // cat
  EXPECT_EQ(read_at(m, 7), "rouge");  // red
  EXPECT_EQ(read_at(m, 8), "tapis");  // carpet
  // Labelled with what it is, measured on held-out sentences.
  const std::string label = s.weights_label(false);
  std::printf("label: %s\n", label.c_str());
  EXPECT_NE(label.find("trained on the toy translation (French → English), 600 steps: held-out"), std::string::npos) << label;
  json doc = scene_doc(s, true);
  EXPECT_EQ(doc["results"]["trained"], true);
  EXPECT_EQ(doc["results"]["label"], label);
  EXPECT_EQ(doc["results"]["checkpoint"], "loaded");
  EXPECT_EQ(doc["results"]["translation"], json(std::vector<std::string>(m.target_tokens.begin(), m.target_tokens.end() - 1)));
  // Every parameter of the trained model is listed with its shape and role.
  EXPECT_EQ(m.params.size(), t.model().params().size());
  for (const BahdanauParamRow& r : m.params) EXPECT_STRNE(r.role, "") << r.shape.name;
  // setState(getState()) keeps it, and another scene restores it from the document.
  ASSERT_TRUE(prepare_commit(s, doc).ok);
  EXPECT_EQ(scene_doc(s, true), doc);
  BahdanauScene other;
  test::deliver_checkpoint(other, bytes_of(b));  // the platform keeps the fetched bytes: the second scene reads at once
  ASSERT_TRUE(prepare_commit(other, doc).ok);
  if (other.trained_pending()) test::deliver_checkpoint(other, bytes_of(b));
  EXPECT_EQ(scene_doc(other, true), doc);
  // Hovering explains the trained numbers: a GRU state with its gates, a score with its terms, a context.
  EXPECT_NE(s.explain(static_cast<int>(BahdanauItem::Forward), 2, 3).find("GRU: z = "), std::string::npos);
  EXPECT_NE(s.explain(static_cast<int>(BahdanauItem::Joined), 11, 20).find("←h_12"), std::string::npos);
  EXPECT_NE(s.explain(static_cast<int>(BahdanauItem::Alignment), 1, 2).find("“noir”"), std::string::npos);
  EXPECT_NE(s.explain(static_cast<int>(BahdanauItem::Context), 1, 5).find("c_2[6]"), std::string::npos);
  EXPECT_EQ(s.explain(static_cast<int>(BahdanauItem::Forward), 12, 0), "");  // past the sentence
  // Back to the seeded weights: the Elman model of the seed, labelled random.
  ASSERT_TRUE(prepare_commit(s, json{{"weights", "random"}}).ok);
  EXPECT_FALSE(s.model().trained);
  EXPECT_EQ(s.weights_label(false), "random, seed 42");
}

TEST(AppBahdanauTrained, WordsOutsideTheModelsVocabularyAreRefusedByName) {
  BahdanauScene s;
  test::deliver_checkpoint(s, bytes_of(bahdanau_checkpoint_bytes()));
  ASSERT_TRUE(prepare_commit(s, trained_doc()).ok);
  if (s.trained_pending()) test::deliver_checkpoint(s, bytes_of(bahdanau_checkpoint_bytes()));
  ASSERT_TRUE(s.model().trained);
  const json before = scene_doc(s, true);
  const Status r = prepare_commit(s, json{{"source", "le chat violet dort sur la lune"}});
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.message.find("'violet', 'lune'"), std::string::npos) << r.message;
  EXPECT_EQ(scene_doc(s, true), before);
}

// Before the model has arrived too: refused at once, by name; the model is still wanted and then shown.
TEST(AppBahdanauTrained, WordsOutsideTheVocabularyAreRefusedBeforeTheModelArrives) {
  BahdanauScene s;
  const json before = scene_doc(s, true);
  const Status r = prepare_commit(s, json{{"weights", "trained"}, {"source", "le chat violet"}, {"target", "the violet cat"}});
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.message.find("'violet'"), std::string::npos) << r.message;
  EXPECT_EQ(scene_doc(s, true), before);
  EXPECT_FALSE(s.trained_pending());
  EXPECT_NE(s.checkpoint(), BahdanauScene::Checkpoint::Failed);
  ASSERT_TRUE(prepare_commit(s, trained_doc()).ok);
  EXPECT_TRUE(s.trained_pending());
  test::deliver_checkpoint(s, bytes_of(bahdanau_checkpoint_bytes()));
  EXPECT_TRUE(s.model().trained) << s.checkpoint_error().message;
  EXPECT_EQ(s.checkpoint_failures(), 0);
}

TEST(AppBahdanauTrained, ADamagedCheckpointLeavesAMessageAndTheSeededView) {
  BahdanauScene s;
  const BahdanauModel seeded = s.model();
  ASSERT_TRUE(prepare_commit(s, trained_doc()).ok);
  std::vector<uint8_t> bad = bahdanau_checkpoint_bytes();
  bad[bad.size() / 2] ^= 0x21;
  test::deliver_checkpoint(s, bytes_of(bad));
  EXPECT_EQ(s.checkpoint(), BahdanauScene::Checkpoint::Failed);
  EXPECT_NE(s.checkpoint_error().message.find("checksum"), std::string::npos) << s.checkpoint_error().message;
  EXPECT_FALSE(s.model().trained);
  EXPECT_EQ((s.model().run.alignment - seeded.run.alignment).cwiseAbs().maxCoeff(), 0.f);
  EXPECT_FALSE(prepare_commit(s, trained_doc()).ok);  // what it said stays true
}

// The page's scene (built when first used) opens on the trained model: the seeded one shows while it comes; a
// document with fields of its own before then is what the learner asked for (the wait is over).
TEST(AppBahdanauTrained, ThePagesSceneOpensTrained) {
  BahdanauScene s(true);
  s.ensure_built();
  EXPECT_TRUE(s.trained_pending());
  EXPECT_FALSE(s.model().trained);  // the seeded view meanwhile
  EXPECT_EQ(s.checkpoint(), BahdanauScene::Checkpoint::Wanted);
  EXPECT_EQ(scene_doc(s)["weights"], "trained");
  test::deliver_checkpoint(s, bytes_of(bahdanau_checkpoint_bytes()));
  ASSERT_TRUE(s.model().trained) << s.checkpoint_error().message;
  EXPECT_EQ(s.model().source_tokens.front(), "le");
  BahdanauScene other(true);
  other.ensure_built();
  ASSERT_TRUE(prepare_commit(other, json{{"d_h", 4}}).ok);
  EXPECT_FALSE(other.trained_pending());
  EXPECT_EQ(scene_doc(other)["weights"], "random");
  test::deliver_checkpoint(other, bytes_of(bahdanau_checkpoint_bytes()));
  EXPECT_FALSE(other.model().trained);  // the learner's view stays
  BahdanauScene now;                    // built now (the tests): seeded, nothing asked for
  EXPECT_FALSE(now.trained_pending());
  EXPECT_EQ(now.checkpoint(), BahdanauScene::Checkpoint::None);
}

// The build's recipe trained in the page (the training panel: a race of one, in slices): once done the trained
// view shows the page's model, labelled as such, with the same figures as the build's (the same recipe, the same
// weights natively); reset brings the build's model back.
TEST(AppBahdanauTrained, TheRecipeTrainedInThePageBecomesTheTrainedView) {
  // (the build's recipe trained to its end in slices: natively, and in wasm where the page trains so; the race's
  // slices run here in test_seq2seq_race.cpp)
  LARGE_SIZES_NOT_UNDER_SANITIZERS();
  BahdanauScene s;
  test::deliver_checkpoint(s, bytes_of(bahdanau_checkpoint_bytes()));
  ASSERT_TRUE(prepare_commit(s, trained_doc()).ok);
  if (s.trained_pending()) test::deliver_checkpoint(s, bytes_of(bahdanau_checkpoint_bytes()));
  ASSERT_TRUE(s.model().trained);
  const Mat build_alpha = s.model().run.alignment;
  const std::string build_label = s.weights_label(false);
  EXPECT_EQ(scene_doc(s)["training"]["state"], "idle");
  ASSERT_TRUE(prepare_commit(s, json{{"training", "start"}}).ok);
  for (int k = 0; k < 1000000 && s.wants_time(); ++k) s.run_slice(20.0);
  EXPECT_EQ(scene_doc(s)["training"]["state"], "done");
  // The frames after: the page's model is set up and measured a slice a frame (no frame measures it whole),
  // then installed.
  s.poll();
  EXPECT_TRUE(s.checkpoint_slot().updating());
  EXPECT_TRUE(s.wants_time());
  EXPECT_FALSE(s.checkpoint_slot().from_run());
  int frames = 1;
  for (; frames < 10000 && s.checkpoint_slot().updating(); ++frames) s.poll();
  std::printf("the page's model installed after %d frames\n", frames);
  ASSERT_TRUE(s.training_error().ok) << s.training_error().message;
  ASSERT_TRUE(s.model().trained);
  EXPECT_TRUE(s.checkpoint_slot().from_run());
  const std::string label = s.weights_label(false);
  std::printf("%s\n", label.c_str());
  EXPECT_EQ(label.rfind("trained in this page on the toy translation (French → English), 600 steps: held-out", 0), 0u) << label;
#ifndef __EMSCRIPTEN__  // the build's model was trained natively: the same bits here (wasm rounds its sums otherwise)
  EXPECT_EQ(label.substr(label.find("600 steps")), build_label.substr(build_label.find("600 steps")));  // the same figures
  EXPECT_EQ((s.model().run.alignment - build_alpha).cwiseAbs().maxCoeff(), 0.f);  // the same weights, natively
#endif
  // Reset: the build's model is asked for again (the platform's bytes), and shown when it comes.
  ASSERT_TRUE(prepare_commit(s, json{{"training", "reset"}}).ok);
  s.poll();
  EXPECT_TRUE(s.trained_pending());
  test::deliver_checkpoint(s, bytes_of(bahdanau_checkpoint_bytes()));
  ASSERT_TRUE(s.model().trained);
  EXPECT_FALSE(s.checkpoint_slot().from_run());
  EXPECT_EQ(s.weights_label(false), build_label);
}

}  // namespace
}  // namespace ap
