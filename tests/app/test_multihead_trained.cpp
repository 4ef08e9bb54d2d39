// The multi-head scene's trained view (preset "trained", weights "trained"): the layer of the build's heads
// experiment (heads.aptc: 2 heads that learned to name the referent of "it"). Nothing is fetched until it is
// asked for; the checkpoint's arrival installs its X and its learned weights with biases; every head's map is
// the model's own (within 1e-6); the results carry the label and each head's pattern as the trainer measured
// it on the held-out set; the document and the link restore the view; the sizes the layer fixes are refused;
// the coreference checkpoint (another task) and a damaged one leave a message and the weights the scene had.
#include <gtest/gtest.h>

#include <cstdio>
#include <nlohmann/json.hpp>

#include "app/api.h"
#include "app/scenes/multihead_scene.h"
#include "app/url.h"
#include "core/checkpoint_bytes.h"
#include "core/train/trained_qkv.h"
#include "core/row_argmax.h"
#include "helpers.h"

namespace ap {
namespace AP_UNITY_ID {  // this file's own namespace in a unity build (CMakeLists.txt, AP_UNITY)

using nlohmann::json;

Status set(MultiheadScene& s, const json& doc) { return test::prepare_commit(s, doc); }
std::vector<unsigned char> heads_bytes() {
  const auto& b = heads_checkpoint_bytes();
  return std::vector<unsigned char>(b.begin(), b.end());
}

json state(const MultiheadScene& s, bool with_matrices = false) { return test::scene_doc(s, with_matrices); }

void open_trained(MultiheadScene& s) {
  ASSERT_TRUE(set(s, {{"preset", "trained"}}).ok);
  test::deliver_checkpoint(s, heads_bytes());
  ASSERT_TRUE(s.model().trained) << s.checkpoint_error().message;
}

TEST(MultiheadTrained, APlainSceneWantsNoCheckpointAndSaysItsWeightsAreRandom) {
  MultiheadScene s;
  EXPECT_EQ(s.checkpoint(), MultiheadScene::Checkpoint::None);
  const json doc = state(s);
  EXPECT_EQ(doc["weights"], "random");
  EXPECT_EQ(doc["results"]["label"], "random, seed 42");
  EXPECT_EQ(doc["results"]["checkpoint"], "none");
  EXPECT_FALSE(doc["results"]["weights_trained"].get<bool>());
  EXPECT_FALSE(doc["results"].contains("trained"));
  EXPECT_EQ(doc["results"]["param_count"]["biases"], 0);
}

TEST(MultiheadTrained, ThePresetWaitsThenShowsTheTrainedHeadsAndWhatEachReads) {
  MultiheadScene s;
  const int gen = s.generation();
  ASSERT_TRUE(set(s, {{"preset", "trained"}}).ok);
  EXPECT_EQ(s.checkpoint(), MultiheadScene::Checkpoint::Wanted);
  EXPECT_EQ(std::string(s.checkpoint_slot().asset()), "checkpoints/heads.aptc");
  EXPECT_TRUE(s.trained_pending());
  EXPECT_EQ(s.generation(), gen);              // the model on screen stays until it arrives
  EXPECT_EQ(state(s)["weights"], "trained");  // the document already names the view it waits for
  test::deliver_checkpoint(s, heads_bytes());
  ASSERT_TRUE(s.model().trained) << s.checkpoint_error().message;
  EXPECT_FALSE(s.trained_pending());
  const MultiheadModel& m = s.model();
  ASSERT_EQ(m.n(), 11);
  EXPECT_EQ(m.weights.heads, 2);
  EXPECT_EQ(m.d_k(), 8);
  // Every head's map is the model's own forward pass.
  train::Trainer t;
  const auto& b = heads_checkpoint_bytes();
  ASSERT_TRUE(train::read_checkpoint(b.data(), b.size(), &t).ok);
  train::SentenceAttention a;
  ASSERT_TRUE(t.attention_of(m.tokens, &a).ok);
  double worst = 0;
  for (int h = 0; h < 2; ++h) worst = std::max(worst, static_cast<double>((m.trace.heads[h].weights() - a.maps[h]).cwiseAbs().maxCoeff()));
  std::printf("trained heads' weights vs the model's forward pass: %.3g\n", worst);
  EXPECT_LT(worst, 1e-6);
  // The results: the label, the recipe, each head's measured pattern (as the trainer measured it).
  const json r = state(s, true)["results"];
  EXPECT_EQ(r["label"].get<std::string>().find("trained on naming the referent, 1500 steps, held-out accuracy"), 0u) << r["label"];
  EXPECT_EQ(r["trained"]["task"], "heads");
  EXPECT_EQ(r["trained"]["recipe"]["heads"], 2);
  ASSERT_EQ(r["trained"]["head_patterns"].size(), 2u);
  for (int h = 0; h < 2; ++h) {
    EXPECT_EQ(r["trained"]["head_patterns"][h]["reads"], train::head_relation(t.head_patterns()[static_cast<size_t>(h)]));
    std::printf("head %d reads %s; \"it\" → \"%s\"\n", h + 1, r["trained"]["head_patterns"][h]["reads"].get<std::string>().c_str(),
                m.tokens[static_cast<size_t>(row_argmax(m.trace.heads[h].weights(), 7))].c_str());
  }
  EXPECT_TRUE(r["weights_trained"].get<bool>());
  EXPECT_EQ(r["param_count"]["biases"], 64);
  EXPECT_EQ(r["param_count"]["total"], 4 * 16 * 16 + 64);
  EXPECT_EQ(r["weights"].size(), 2u);
}

TEST(MultiheadTrained, TheAdjectiveMovesTheHeadsRowsAtIt) {
  MultiheadScene s;
  open_trained(s);
  const Mat tired0 = s.model().trace.heads[0].weights(), tired1 = s.model().trace.heads[1].weights();
  ASSERT_TRUE(set(s, {{"text", "the animal didn't cross the street because it was too wide"}}).ok);
  const Mat& wide0 = s.model().trace.heads[0].weights();
  const Mat& wide1 = s.model().trace.heads[1].weights();
  const double moved = std::max((tired0.row(7) - wide0.row(7)).cwiseAbs().maxCoeff(), (tired1.row(7) - wide1.row(7)).cwiseAbs().maxCoeff());
  std::printf("largest change of an \"it\" row, tired → wide: %.3f\n", moved);
  EXPECT_GT(moved, 0.1);
}

TEST(MultiheadTrained, TheDocumentAndTheLinkRestoreTheTrainedView) {
  PlaygroundState a, b;
  ASSERT_TRUE(test::parse(set_state_json(a, R"({"scene":"multihead","preset":"trained"})")).value("ok", false));
  test::deliver_checkpoint(*a.get<MultiheadScene>(), heads_bytes());
  ASSERT_TRUE(a.get<MultiheadScene>()->model().trained);
  const std::string doc = get_state_json(a, true);
  ASSERT_TRUE(test::parse(set_state_json(a, doc)).value("ok", false)) << "setState(getState()) is accepted";
  const std::string query = state_to_query(a);
  EXPECT_NE(query.find("weights=trained"), std::string::npos) << query;
  apply_url_query(b, query);
  EXPECT_TRUE(b.errors.empty()) << query;
  MultiheadScene& mb = *b.get<MultiheadScene>();
  EXPECT_TRUE(mb.trained_pending());
  test::deliver_checkpoint(mb, heads_bytes());
  ASSERT_TRUE(mb.model().trained);
  const json ja = test::parse(get_state_json(a, true)), jb = test::parse(get_state_json(b, true));
  for (const char* k : {"scene", "text", "d_model", "h", "weights", "results"}) EXPECT_EQ(ja[k], jb[k]) << k;
}

// A document saved from another view (its results included) restores that view: its label is of its own
// parameters, not of the view installed when it comes back.
TEST(MultiheadTrained, ADocumentOfAnotherViewRestoresWithItsResults) {
  MultiheadScene s;
  ASSERT_TRUE(set(s, {{"seed", 9}}).ok);
  const json seed9 = state(s, true);
  ASSERT_TRUE(set(s, {{"seed", 42}}).ok);
  const Status back = set(s, seed9);
  ASSERT_TRUE(back.ok) << back.message;
  EXPECT_EQ(state(s)["results"]["label"], "random, seed 9");
  open_trained(s);
  const json trained = state(s, true);
  ASSERT_TRUE(set(s, {{"preset", "h1"}}).ok);
  EXPECT_FALSE(s.model().trained);
  const Status again = set(s, trained);
  ASSERT_TRUE(again.ok) << again.message;
  EXPECT_TRUE(s.model().trained);
  EXPECT_EQ(state(s, true), trained);
}

TEST(MultiheadTrained, SizesTheLayerFixesAreRefusedAndChangeNothing) {
  MultiheadScene s;
  open_trained(s);
  const json before = state(s, true);
  for (const json& bad : {json{{"h", 4}}, json{{"d_model", 32}}, json{{"mask", "causal"}}, json{{"text", "the zebra was tired"}},
                          json{{"text", "the animal was tired"}}, json{{"weights", "learned"}}}) {
    std::unique_ptr<SceneChange> c;
    const Status st = s.prepare(bad, &c);
    EXPECT_FALSE(st.ok) << bad.dump();
    EXPECT_FALSE(st.message.empty()) << bad.dump();
    EXPECT_EQ(state(s, true), before) << bad.dump();
  }
  // weights "random" leaves the trained view, with the seeded weights of the same sizes.
  ASSERT_TRUE(set(s, {{"weights", "random"}}).ok);
  EXPECT_FALSE(s.model().trained);
  EXPECT_EQ(state(s)["results"]["label"], "random, seed 42");
}

TEST(MultiheadTrained, TheCoreferenceCheckpointIsRefusedByName) {
  MultiheadScene s;
  const json before = state(s, true);
  ASSERT_TRUE(set(s, {{"preset", "trained"}}).ok);
  test::deliver_checkpoint(s, test::checkpoint_vector());  // the coreference model: another task
  EXPECT_EQ(s.checkpoint(), MultiheadScene::Checkpoint::Failed);
  EXPECT_NE(s.checkpoint_error().message.find("\"coref\""), std::string::npos) << s.checkpoint_error().message;
  EXPECT_FALSE(s.model().trained);
  EXPECT_FALSE(s.trained_pending());
}

TEST(MultiheadTrained, ADamagedCheckpointLeavesAMessageAndTheWeights) {
  MultiheadScene s;
  const json before = state(s, true);
  ASSERT_TRUE(set(s, {{"preset", "trained"}}).ok);
  std::vector<unsigned char> b = heads_bytes();
  b[b.size() / 2] ^= 0x5a;
  test::deliver_checkpoint(s, b);
  EXPECT_EQ(s.checkpoint(), MultiheadScene::Checkpoint::Failed);
  EXPECT_EQ(s.checkpoint_failures(), 1);
  EXPECT_FALSE(s.model().trained);
  json after = state(s, true), was = before;
  EXPECT_EQ(after["results"]["checkpoint"], "failed");
  for (json* j : {&after, &was}) {
    (*j)["results"].erase("checkpoint");
    (*j)["results"].erase("checkpoint_error");
  }
  EXPECT_EQ(after, was);
  std::unique_ptr<SceneChange> c;
  EXPECT_FALSE(s.prepare({{"weights", "trained"}}, &c).ok);
}

}  // namespace
}  // namespace ap
