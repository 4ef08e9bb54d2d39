// The Luong scene's trained view (app/scenes/luong_scene.h, weights "trained"): the build's three GRU
// encoder–decoders (luong.apsq: dot, general, concat, one file) on the notes' sentence — each score's rows from
// its own model, equal to the core's run (Seq2SeqTrainer::align), the alignments crossing where the word orders
// differ, the label with the measured held-out figures of all three; the document round-trips; words outside
// the vocabulary are refused by name; a damaged or incomplete file leaves a message and the seeded view. And the
// race of the last stage: the three trained here, driven by setState({training}).
#include <gtest/gtest.h>

#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/scenes/luong_scene.h"
#include "app/seq2seq_race.h"
#include "core/train/checkpoint_bytes.h"
#include "core/train/seq2seq_checkpoint.h"
#include "helpers.h"

namespace ap {
namespace AP_UNITY_ID {  // this file's own namespace in a unity build (CMakeLists.txt, AP_UNITY)

using namespace ::ap::test;
using nlohmann::json;

const char* kSource = "le chat noir est assis sur le tapis rouge dans le salon";
const char* kTarget = "the black cat is sitting on the red carpet in the living room";

json trained_doc() { return json{{"weights", "trained"}, {"source", kSource}, {"target", kTarget}}; }
std::vector<unsigned char> bytes_of(const std::vector<uint8_t>& b) { return std::vector<unsigned char>(b.begin(), b.end()); }

// The source word with the largest weight in row t of score run k.
std::string read_at(const LuongModel& m, int k, int t) {
  Eigen::Index best;
  m.run.runs[static_cast<size_t>(k)].alignment.row(t).maxCoeff(&best);
  return m.source_tokens[static_cast<size_t>(best)];
}

TEST(AppLuongTrained, TheTrainedViewShowsEachScoresOwnModel) {
  LuongScene s;
  const int gen = s.generation();
  ASSERT_TRUE(prepare_commit(s, trained_doc()).ok);
  EXPECT_TRUE(s.trained_pending());
  EXPECT_EQ(s.generation(), gen);  // the seeded view stays until the models are here
  EXPECT_EQ(scene_doc(s)["weights"], "trained");
  const std::vector<uint8_t>& b = luong_checkpoint_bytes();
  test::deliver_checkpoint(s, bytes_of(b));
  ASSERT_FALSE(s.trained_pending());
  const LuongModel& m = s.model();
  ASSERT_TRUE(m.trained) << s.checkpoint_error().message;
  ASSERT_EQ(m.run.runs.size(), 3u);
  EXPECT_EQ(m.run.n, 12);
  EXPECT_EQ(m.run.T, 14);  // 13 words and the step that ends the sentence
  // Each score's rows are its own model's run, bit for bit.
  std::vector<std::unique_ptr<train::Seq2SeqTrainer>> models;
  ASSERT_TRUE(train::read_seq2seq_checkpoints(b.data(), b.size(), &models).ok);
  ASSERT_EQ(models.size(), 3u);
  const std::vector<std::string> target(m.target_tokens.begin(), m.target_tokens.end() - 1);
  const char* names[] = {"dot", "general", "concat"};
  for (int k = 0; k < 3; ++k) {
    EXPECT_STREQ(train::seq2seq_attention_name(models[static_cast<size_t>(k)]->recipe().attention), names[k]);
    train::Seq2SeqAlignment a;
    ASSERT_TRUE(models[static_cast<size_t>(k)]->align(m.source_tokens, target, &a).ok);
    EXPECT_EQ((m.run.runs[static_cast<size_t>(k)].alignment - a.alpha).cwiseAbs().maxCoeff(), 0.f) << names[k];
    for (int t = 0; t < m.run.T; ++t) EXPECT_NEAR(m.run.runs[static_cast<size_t>(k)].alignment.row(t).sum(), 1.f, 1e-5f);
    // The alignments cross where the orders differ: "black" reads "noir", "cat" reads "chat", "red" reads "rouge".
    EXPECT_EQ(read_at(m, k, 1), "noir") << names[k];
    EXPECT_EQ(read_at(m, k, 2), "chat") << names[k];
    EXPECT_EQ(read_at(m, k, 7), "rouge") << names[k];
    if (k == 0) {
      EXPECT_EQ((m.encoder.H - a.H).cwiseAbs().maxCoeff(), 0.f);  // "all": the dot model's states
    }
  }
  // Labelled with what they are, measured on held-out sentences.
  const std::string label = s.weights_label(false);
  std::printf("label: %s\n", label.c_str());
  EXPECT_NE(label.find("trained on the toy translation (French → English), 600 steps each; held-out words right: dot "), std::string::npos) << label;
  json doc = scene_doc(s, true);
  EXPECT_EQ(doc["results"]["trained"], true);
  EXPECT_EQ(doc["results"]["label"], label);
  EXPECT_EQ(doc["results"]["checkpoint"], "loaded");
  EXPECT_TRUE(doc["results"]["alignments"].contains("general"));
  EXPECT_TRUE(doc["results"]["translations"].contains("concat"));
  // The score chosen shows its own model's states.
  ASSERT_TRUE(prepare_commit(s, json{{"score", "general"}}).ok);
  train::Seq2SeqAlignment g;
  ASSERT_TRUE(models[1]->align(s.model().source_tokens, target, &g).ok);
  EXPECT_EQ((s.model().encoder.H - g.H).cwiseAbs().maxCoeff(), 0.f);
  EXPECT_NE(s.explain(static_cast<int>(LuongItem::Encoder), 2, 3).find("z = "), std::string::npos);
  EXPECT_NE(s.explain(kLuongAlignItem + 1, 1, 2).find("“noir”"), std::string::npos);
  EXPECT_EQ(s.explain(static_cast<int>(LuongItem::Encoder), 12, 0), "");  // past the sentence
  // setState(getState()) keeps it.
  doc = scene_doc(s, true);
  ASSERT_TRUE(prepare_commit(s, doc).ok);
  EXPECT_EQ(scene_doc(s, true), doc);
  // Back to the seeded weights.
  ASSERT_TRUE(prepare_commit(s, json{{"weights", "random"}, {"score", "all"}}).ok);
  EXPECT_FALSE(s.model().trained);
  EXPECT_EQ(s.weights_label(false), "random, seed 42");
}

TEST(AppLuongTrained, WordsOutsideTheVocabularyAreRefusedByName) {
  LuongScene s;
  test::deliver_checkpoint(s, bytes_of(luong_checkpoint_bytes()));
  ASSERT_TRUE(prepare_commit(s, trained_doc()).ok);
  if (s.trained_pending()) test::deliver_checkpoint(s, bytes_of(luong_checkpoint_bytes()));
  ASSERT_TRUE(s.model().trained);
  const json before = scene_doc(s, true);
  const Status r = prepare_commit(s, json{{"source", "le chat violet dort sur la lune"}});
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.message.find("'violet', 'lune'"), std::string::npos) << r.message;
  EXPECT_EQ(scene_doc(s, true), before);
}

// The three models are read a slice a frame (each one's set-up, then its held-out measurement): the frame that
// receives the file only checks it, the page keeps drawing while the rest is read, and the view waits till then.
TEST(AppLuongTrained, TheModelsAreReadAcrossFrames) {
  LuongScene s;
  ASSERT_TRUE(prepare_commit(s, trained_doc()).ok);
  const int gen = s.generation();
  s.receive_checkpoint(bytes_of(luong_checkpoint_bytes()));
  EXPECT_EQ(s.checkpoint(), LuongScene::Checkpoint::Reading);
  EXPECT_TRUE(s.trained_pending());
  EXPECT_TRUE(s.wants_time());
  EXPECT_EQ(s.generation(), gen);
  EXPECT_EQ(scene_doc(s)["results"]["checkpoint"], "loading");
  int frames = 0;
  while (s.checkpoint() == LuongScene::Checkpoint::Reading && frames < 100000) {
    s.poll();
    ++frames;
  }
  std::printf("read in %d frames\n", frames);
  EXPECT_GE(frames, 2);  // 600 held-out pairs decoded: milliseconds natively, more than a frame's 4
  ASSERT_TRUE(s.model().trained) << s.checkpoint_error().message;
  EXPECT_FALSE(s.trained_pending());
  EXPECT_FALSE(s.wants_time());
  EXPECT_EQ(scene_doc(s)["results"]["checkpoint"], "loaded");
  // The units, one per slice when the budget is nothing: a set-up and ⌈held-out pairs / 20⌉ measuring units per model.
  CheckpointSlot slot(BuildCheckpoint::Luong);
  ASSERT_TRUE(slot.receive(bytes_of(luong_checkpoint_bytes())).ok);
  int units = 1;
  while (!slot.read_slice(0.0) && units < 100000) ++units;
  EXPECT_EQ(units, 3 * (1 + (train::kSeq2SeqHeldout + train::kRaceEvalPairs - 1) / train::kRaceEvalPairs));
  EXPECT_EQ(slot.state(), CheckpointSlot::State::Ready) << slot.error().message;
  EXPECT_EQ(slot.seq2seq_count(), 3u);
}

// Before the models have arrived too: refused at once, by name, and the models are still wanted (a refusal once
// they arrived would have counted as the checkpoint's failure and left the trained view out of reach).
TEST(AppLuongTrained, WordsOutsideTheVocabularyAreRefusedBeforeTheModelsArrive) {
  LuongScene s;  // the seeded view, on its own sentence ("mat" is not a toy word)
  const json before = scene_doc(s, true);
  const Status r = prepare_commit(s, json{{"weights", "trained"}});
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.message.find("words outside the toy vocabulary"), std::string::npos) << r.message;
  EXPECT_EQ(scene_doc(s, true), before);
  EXPECT_FALSE(s.trained_pending());
  EXPECT_NE(s.checkpoint(), LuongScene::Checkpoint::Failed);
  const Status v = prepare_commit(s, json{{"weights", "trained"}, {"source", "le chat violet"}, {"target", "the violet cat"}});
  EXPECT_NE(v.message.find("'violet'"), std::string::npos) << v.message;
  // The notes' sentence waits for the models, then shows them.
  ASSERT_TRUE(prepare_commit(s, trained_doc()).ok);
  EXPECT_TRUE(s.trained_pending());
  test::deliver_checkpoint(s, bytes_of(luong_checkpoint_bytes()));
  EXPECT_TRUE(s.model().trained) << s.checkpoint_error().message;
  EXPECT_EQ(s.checkpoint_failures(), 0);
}

TEST(AppLuongTrained, ADamagedOrIncompleteFileLeavesAMessageAndTheSeededView) {
  std::vector<uint8_t> cut = luong_checkpoint_bytes();
  cut.resize(cut.size() - 100);  // the third model cut short
  std::vector<uint8_t> two;      // two whole models: the file holds too few
  std::vector<std::pair<const uint8_t*, size_t>> parts;
  ASSERT_TRUE(train::split_checkpoints(luong_checkpoint_bytes().data(), luong_checkpoint_bytes().size(), &parts).ok);
  ASSERT_EQ(parts.size(), 3u);
  for (int k = 0; k < 2; ++k) two.insert(two.end(), parts[static_cast<size_t>(k)].first, parts[static_cast<size_t>(k)].first + parts[static_cast<size_t>(k)].second);
  std::vector<uint8_t> swapped;  // general where dot belongs
  for (int k : {1, 0, 2}) swapped.insert(swapped.end(), parts[static_cast<size_t>(k)].first, parts[static_cast<size_t>(k)].first + parts[static_cast<size_t>(k)].second);
  const struct { std::vector<uint8_t> bytes; const char* says; } cases[] = {
      {cut, "truncated"}, {two, "holds 2 models; this view shows 3"}, {swapped, "another model"}, {{}, "too short"}};
  for (const auto& c : cases) {
    LuongScene s;
    const LuongModel seeded = s.model();
    ASSERT_TRUE(prepare_commit(s, trained_doc()).ok);
    test::deliver_checkpoint(s, bytes_of(c.bytes));
    EXPECT_EQ(s.checkpoint(), LuongScene::Checkpoint::Failed);
    EXPECT_NE(s.checkpoint_error().message.find(c.says), std::string::npos) << s.checkpoint_error().message;
    EXPECT_FALSE(s.model().trained);
    EXPECT_EQ((s.model().run.runs[0].alignment - seeded.run.runs[0].alignment).cwiseAbs().maxCoeff(), 0.f);
    EXPECT_FALSE(prepare_commit(s, trained_doc()).ok);  // what it said stays true
  }
}

// The three trained here (a race, app/seq2seq_race.h): setState's commands, the figures in getState. Shortened
// recipes (the build's take seconds: the browser test trains them).
TEST(AppLuongTrained, TheRaceTrainsTheThreeScoresSideBySide) {
  LuongScene s;
  std::vector<train::Seq2SeqRecipe> short_recipes;
  for (train::Seq2SeqAttention a : {train::Seq2SeqAttention::Dot, train::Seq2SeqAttention::General, train::Seq2SeqAttention::Concat}) {
    train::Seq2SeqRecipe r = train::luong_recipe(a);
    r.steps = 100;
    short_recipes.push_back(r);
  }
  ASSERT_TRUE(s.race().configure(short_recipes).ok);
  EXPECT_EQ(scene_doc(s)["training"]["state"], "idle");
  EXPECT_FALSE(prepare_commit(s, json{{"training", "go"}}).ok);
  ASSERT_TRUE(prepare_commit(s, json{{"training", "start"}}).ok);
  EXPECT_TRUE(s.wants_time());
  int slices = 0;
  while (s.wants_time() && slices < 100000) {
    s.run_slice(5.0);
    ++slices;
  }
  const json t = scene_doc(s)["training"];
  EXPECT_EQ(t["state"], "done");
  EXPECT_EQ(t["step"], 300);
  ASSERT_EQ(t["runs"].size(), 3u);
  for (const json& r : t["runs"]) {
    EXPECT_EQ(r["step"], 100);
    ASSERT_EQ(r["curve"].size(), 3u);  // steps 0, 50, 100
    EXPECT_GT(r["heldout_accuracy"].get<double>(), r["curve"][0][2].get<double>() + 0.1) << r.dump();  // it learned
    EXPECT_TRUE(r.contains("steps_to_95"));
  }
  // getState's training object comes back in setState: accepted, nothing restarts.
  ASSERT_TRUE(prepare_commit(s, scene_doc(s)).ok);
  EXPECT_EQ(scene_doc(s)["training"]["state"], "done");
  ASSERT_TRUE(prepare_commit(s, json{{"training", "reset"}}).ok);
  EXPECT_EQ(scene_doc(s)["training"]["state"], "idle");
  EXPECT_EQ(scene_doc(s)["training"]["step"], 0);
}

// The page's scene opens on the three trained models; the seeded view shows while they come.
TEST(AppLuongTrained, ThePagesSceneOpensTrained) {
  LuongScene s(true);
  s.ensure_built();
  EXPECT_TRUE(s.trained_pending());
  EXPECT_FALSE(s.model().trained);
  EXPECT_EQ(scene_doc(s)["weights"], "trained");
  test::deliver_checkpoint(s, bytes_of(luong_checkpoint_bytes()));
  ASSERT_TRUE(s.model().trained) << s.checkpoint_error().message;
  EXPECT_EQ(s.model().run.runs.size(), 3u);
  LuongScene now;
  EXPECT_FALSE(now.trained_pending());
}

}  // namespace
}  // namespace ap
