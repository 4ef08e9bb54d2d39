// The SDPA scene's trained view (preset "it-trained"): nothing is fetched until it is asked for; the
// checkpoint's arrival installs the deciding layer's Q, K, V; the "it" row points at "animal" and moves to
// "street" with "wide"; an unknown word is named and changes nothing; the document and the link restore the
// view; a damaged or foreign checkpoint leaves a message and the weights the scene had.
#include <gtest/gtest.h>

#include <cstdio>
#include <nlohmann/json.hpp>

#include "app/api.h"
#include "app/scenes/sdpa_scene.h"
#include "app/state.h"
#include "app/url.h"
#include "core/checkpoint_bytes.h"
#include "core/train/checkpoint.h"
#include "helpers.h"
#include "train_helpers.h"

namespace ap {
namespace AP_UNITY_ID {  // this file's own namespace in a unity build (CMakeLists.txt, AP_UNITY)

using nlohmann::json;
using test::it_argmax;


Status set(SdpaScene& s, const json& doc) { return test::prepare_commit(s, doc); }
std::vector<unsigned char> bytes() { return test::checkpoint_vector(); }

TEST(SdpaTrained, APlainSceneWantsNoCheckpoint) {
  SdpaScene s;
  EXPECT_EQ(s.checkpoint(), SdpaScene::Checkpoint::None);
  json doc;
  s.write_results(doc, false);
  EXPECT_EQ(doc["weights"], "random");
  EXPECT_EQ(doc["checkpoint"], "none");
  EXPECT_EQ(doc["label"], "random, seed 42");
  EXPECT_EQ(s.presets().front().id, std::string("it-trained"));  // the headline preset
}

TEST(SdpaTrained, ThePresetWaitsForTheCheckpointThenShowsTheDecidingLayer) {
  SdpaScene s;
  const int gen = s.generation();
  ASSERT_TRUE(s.load_preset("it-trained").ok);
  EXPECT_EQ(s.checkpoint(), SdpaScene::Checkpoint::Wanted);
  EXPECT_TRUE(s.trained_pending());
  EXPECT_FALSE(s.trained());
  EXPECT_EQ(s.generation(), gen);  // the model on screen stays until it arrives
  test::deliver_checkpoint(s, bytes());
  ASSERT_TRUE(s.trained()) << s.checkpoint_error().message;
  EXPECT_EQ(s.trained_layer(), 1);
  EXPECT_EQ(s.model().query_tokens[1], "animal");
  EXPECT_EQ(it_argmax(s), 1);  // "it" → "animal"
  EXPECT_EQ(s.model().trace.d_k, 16);
  EXPECT_EQ(s.model().params.mask, MaskKind::None);
  json doc;
  s.write_params(doc);
  s.write_results(doc, true);
  EXPECT_EQ(doc["weights"], "trained");
  EXPECT_EQ(doc["layer"], 2);
  EXPECT_EQ(doc["recipe"]["steps"], 1500);
  EXPECT_EQ(doc["trained"]["step"], 1500);
  EXPECT_NE(doc["label"].get<std::string>().find("trained on coreference, 1500 steps, held-out accuracy"), std::string::npos);
  // The matrices as today: the model's Q, K, V (with biases) and the weights computed from them.
  EXPECT_EQ(doc["matrices"]["Q"].size(), 11u);
  EXPECT_EQ(doc["matrices"]["Q"][0].size(), 16u);
  // setState(getState()) is accepted and changes nothing.
  ASSERT_TRUE(set(s, doc).ok);
  EXPECT_EQ(s.trained_layer(), 1);
  EXPECT_EQ(it_argmax(s), 1);
}

TEST(SdpaTrained, TheRowFollowsTheAdjectiveAndTheOtherLayerIsOneFieldAway) {
  SdpaScene s;
  test::deliver_checkpoint(s, bytes());
  ASSERT_TRUE(set(s, {{"preset", "it-trained"}}).ok);
  ASSERT_TRUE(set(s, {{"text", "The animal didn't cross the street because it was too wide"}}).ok);
  EXPECT_TRUE(s.trained());
  EXPECT_EQ(it_argmax(s), 5);  // "street"
  ASSERT_TRUE(set(s, {{"layer", 1}}).ok);
  EXPECT_EQ(s.trained_layer(), 0);
  EXPECT_EQ(s.model().query_tokens.back(), "wide");
  EXPECT_FALSE(set(s, {{"layer", 3}}).ok);
  // A field of seeded weights leaves the trained view.
  ASSERT_TRUE(set(s, {{"weights", "random"}}).ok);
  EXPECT_FALSE(s.trained());
  EXPECT_EQ(s.model().params.source, QkvSource::Projection);
}

TEST(SdpaTrained, AWordOutsideTheVocabularyIsNamedAndNothingChanges) {
  SdpaScene s;
  test::deliver_checkpoint(s, bytes());
  ASSERT_TRUE(set(s, {{"preset", "it-trained"}}).ok);
  const int gen = s.generation();
  const Status st = set(s, {{"text", "the zebra didn't cross the street because it was too tired"}});
  ASSERT_FALSE(st.ok);
  EXPECT_NE(st.message.find("\"zebra\""), std::string::npos) << st.message;
  EXPECT_EQ(s.generation(), gen);
  EXPECT_EQ(it_argmax(s), 1);
  EXPECT_FALSE(set(s, {{"weights", "trained"}, {"d_model", 8}}).ok);
  EXPECT_FALSE(set(s, {{"weights", "trained"}, {"recipe", {{"task", "coref"}, {"steps", 10}}}}).ok);
}

// A whole, readable checkpoint of another task (heads: a classifier, not the pointer model the view explains).
std::vector<unsigned char> heads_checkpoint() {
  train::Recipe r = train::heads_recipe(2);
  r.steps = 25;
  train::Trainer t;
  EXPECT_TRUE(t.init(r).ok);
  t.advance(r.steps);
  std::vector<uint8_t> b;
  train::write_checkpoint(t, &b);
  return std::vector<unsigned char>(b.begin(), b.end());
}

// The build's model with every weight zeroed, still claiming the accuracy the trained weights gave: whole and
// readable, refused only once its weights are measured.
std::vector<unsigned char> overclaiming_checkpoint() {
  const std::vector<unsigned char> good = bytes();
  train::Trainer t;
  EXPECT_TRUE(train::read_checkpoint(good.data(), good.size(), &t).ok);
  for (size_t i = 0; i < t.model().params().size(); ++i) t.model().params()[i].value.setZero();
  std::vector<uint8_t> b;
  train::write_checkpoint(t, &b);
  return std::vector<unsigned char>(b.begin(), b.end());
}

TEST(SdpaTrained, TheCheckpointIsReadAcrossFramesAsTheWholeReadWouldReadIt) {
  SdpaScene s;
  ASSERT_TRUE(s.load_preset("it-trained").ok);
  const int gen = s.generation();
  s.receive_checkpoint(bytes());
  // The frame that receives it only checks the head: the weights are measured in later frames (poll).
  EXPECT_EQ(s.checkpoint(), SdpaScene::Checkpoint::Reading);
  EXPECT_TRUE(s.trained_pending());
  EXPECT_TRUE(s.wants_time());  // the page keeps drawing until it is read
  EXPECT_EQ(s.generation(), gen);
  json doc;
  s.write_results(doc, false);
  EXPECT_EQ(doc["checkpoint"], "loading");
  int frames = 0;
  while (s.checkpoint() == SdpaScene::Checkpoint::Reading && frames < 100000) {
    s.poll();
    ++frames;
  }
  // The set-up and 125 batches of 64 held-out sentences, 4 ms a frame: never one frame.
  EXPECT_GE(frames, 2);
  std::printf("read in %d frames\n", frames);
  ASSERT_TRUE(s.trained()) << s.checkpoint_error().message;
  EXPECT_FALSE(s.wants_time());
  EXPECT_EQ(it_argmax(s), 1);  // "it" → "animal"
  // The model is the one read at once: weights, step and measured accuracy.
  const std::vector<unsigned char> b = bytes();
  train::Trainer whole;
  ASSERT_TRUE(train::read_checkpoint(b.data(), b.size(), &whole).ok);
  const train::Trainer* slot = s.checkpoint_slot().trainer();
  ASSERT_TRUE(slot);
  EXPECT_EQ(slot->step(), whole.step());
  EXPECT_EQ(slot->heldout_accuracy(), whole.heldout_accuracy());
  ASSERT_EQ(slot->model().params().size(), whole.model().params().size());
  for (size_t i = 0; i < whole.model().params().size(); ++i)
    EXPECT_TRUE(slot->model().params()[i].value == whole.model().params()[i].value) << whole.model().params()[i].name;
}

TEST(SdpaTrained, ADamagedOrForeignCheckpointLeavesAMessageAndTheWeights) {
  for (int kind = 0; kind < 5; ++kind) {
    SdpaScene s;
    ASSERT_TRUE(set(s, {{"text", "I love cats"}}).ok);
    const Mat before = s.model().trace.weights();
    ASSERT_TRUE(s.load_preset("it-trained").ok);
    std::vector<unsigned char> b = bytes();
    if (kind == 0) b.resize(b.size() / 2);       // truncated
    if (kind == 1) b[4] = 9;                     // another version
    if (kind == 2) b.assign({'n', 'o', 'p', 'e'});  // not one at all
    if (kind == 3) b = heads_checkpoint();          // another task
    if (kind == 4) b = overclaiming_checkpoint();   // weights that do not give what the file says
    const int frames = test::deliver_checkpoint(s, b);
    if (kind == 4) {  // found out by the measurement, frames later
      EXPECT_GE(frames, 2);
      EXPECT_NE(s.checkpoint_error().message.find("held-out accuracy"), std::string::npos) << s.checkpoint_error().message;
    }
    EXPECT_EQ(s.checkpoint(), SdpaScene::Checkpoint::Failed);
    EXPECT_FALSE(s.trained());
    EXPECT_FALSE(s.trained_pending());
    EXPECT_EQ(s.checkpoint_failures(), 1);
    EXPECT_TRUE(s.model().trace.weights() == before);
    EXPECT_FALSE(s.checkpoint_error().message.empty());
    // Asked again: refused with the same message, nothing changes.
    const Status again = s.load_preset("it-trained");
    EXPECT_FALSE(again.ok);
    EXPECT_EQ(again.message, s.checkpoint_error().message);
  }
}

TEST(SdpaTrained, ALinkRestoresTheTrainedView) {
  PlaygroundState st;
  SdpaScene* s = st.get<SdpaScene>();
  ASSERT_TRUE(s);
  test::deliver_checkpoint(*s, bytes());
  apply_url_query(st, "scene=sdpa&preset=it-trained");
  ASSERT_TRUE(s->trained());
  ASSERT_TRUE(s->show_trained("the animal didn't cross the street because it was too wide", 0).ok);
  const std::string q = state_to_query(st);
  EXPECT_NE(q.find("weights=trained"), std::string::npos) << q;
  PlaygroundState other;
  SdpaScene* o = other.get<SdpaScene>();
  apply_url_query(other, q);
  EXPECT_TRUE(o->trained_pending());  // the link asks for the checkpoint; it arrives later
  test::deliver_checkpoint(*o, bytes());
  ASSERT_TRUE(o->trained());
  EXPECT_EQ(o->trained_layer(), 0);
  EXPECT_EQ(o->model().query_tokens.back(), "wide");
  EXPECT_TRUE(o->model().trace.weights() == s->model().trace.weights());
}

}  // namespace
}  // namespace ap
