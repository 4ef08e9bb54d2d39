// The self-attention scene's trained view (preset "trained", weights "trained"): random against trained
// matrices side by side on the same X. Nothing is fetched until it is asked for; the checkpoint's arrival
// installs the chosen layer's X and its learned Q, K, V; the seeded matrices act on that same X; the trained
// layer's weights are the model's own (within 1e-6 of a naive loop over its Q, K) and its "it" row points at
// "animal"; the document and the link restore the view; fields of seeded weights are refused; a damaged
// checkpoint leaves a message and the weights the scene had.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "app/scenes/self_scene.h"
#include "app/url.h"
#include "core/checkpoint_bytes.h"
#include "core/row_argmax.h"
#include "helpers.h"
#include "core/train/trained_qkv.h"

namespace ap {
namespace AP_UNITY_ID {  // this file's own namespace in a unity build (CMakeLists.txt, AP_UNITY)

using nlohmann::json;

Status set(SelfScene& s, const json& doc) { return test::prepare_commit(s, doc); }
std::vector<unsigned char> bytes() { return test::checkpoint_vector(); }

json state(const SelfScene& s, bool with_matrices = false) { return test::scene_doc(s, with_matrices); }

// The preset, arrived: the scene on the notes' sentence at the last layer.
void open_trained(SelfScene& s) {
  ASSERT_TRUE(set(s, {{"preset", "trained"}}).ok);
  test::deliver_checkpoint(s, bytes());
  ASSERT_TRUE(s.model().trained) << s.checkpoint_error().message;
}

TEST(SelfTrained, APlainSceneWantsNoCheckpoint) {
  SelfScene s;
  EXPECT_EQ(s.checkpoint(), SelfScene::Checkpoint::None);
  const json doc = state(s);
  EXPECT_EQ(doc["weights"], "random");
  EXPECT_EQ(doc["results"]["checkpoint"], "none");
  EXPECT_EQ(doc["results"]["label"], "random, seed 42");
  EXPECT_FALSE(doc["results"]["self_weight"].contains("trained"));
}

TEST(SelfTrained, ThePresetWaitsForTheCheckpointThenShowsRandomAndTrainedOnTheSameX) {
  SelfScene s;
  const int gen = s.generation();
  ASSERT_TRUE(set(s, {{"preset", "trained"}}).ok);
  EXPECT_EQ(s.checkpoint(), SelfScene::Checkpoint::Wanted);
  EXPECT_TRUE(s.trained_pending());
  EXPECT_FALSE(s.model().trained);
  EXPECT_EQ(s.generation(), gen);  // the model on screen stays until it arrives
  EXPECT_EQ(state(s)["weights"], "trained");  // the document already names the view it waits for
  test::deliver_checkpoint(s, bytes());
  ASSERT_TRUE(s.model().trained) << s.checkpoint_error().message;
  EXPECT_FALSE(s.trained_pending());
  EXPECT_NE(s.generation(), gen);
  const SelfAttnModel& m = s.model();
  EXPECT_EQ(m.key_tokens.size(), 11u);
  EXPECT_EQ(m.key_tokens[1], "animal");
  EXPECT_EQ(m.X.cols(), 16);
  EXPECT_EQ(m.d_k, 16);
  EXPECT_EQ(m.Wq.rows(), 16);
  EXPECT_EQ(m.Wq.cols(), 16);
  // The trained layer is the model's own: X, Q, K, V equal trained_qkv's for the same sentence and layer.
  train::Trainer t;
  const auto& b = default_checkpoint_bytes();
  ASSERT_TRUE(train::read_checkpoint(b.data(), b.size(), &t).ok);
  train::TrainedQkv q;
  ASSERT_TRUE(train::trained_qkv(t, m.key_tokens, &q).ok);
  EXPECT_EQ((m.X - q.X[1]).cwiseAbs().maxCoeff(), 0.0);
  EXPECT_EQ((m.Q - q.Q[1]).cwiseAbs().maxCoeff(), 0.0);
  // Its weights against a naive loop: softmax(q_i·k_j / √d) row by row.
  double worst = 0, worst_random = 0;
  const Mat& A = m.trace.weights();
  const Mat& R = m.self_weights[static_cast<int>(QkSetting::Separate)];
  const int n = static_cast<int>(A.rows()), d = static_cast<int>(m.Q.cols());
  for (int i = 0; i < n; ++i) {
    std::vector<double> e(static_cast<size_t>(n)), er(static_cast<size_t>(n));
    double mx = -1e300, mxr = -1e300, sum = 0, sumr = 0;
    for (int j = 0; j < n; ++j) {
      double dot = 0, dotr = 0;
      for (int k = 0; k < d; ++k) {
        dot += static_cast<double>(m.Q(i, k)) * m.K(j, k);
        double qi = 0, kj = 0;  // the seeded side: (X·W^Q)(i, k), (X·W^K)(j, k) on the SAME X
        for (int c = 0; c < m.X.cols(); ++c) {
          qi += static_cast<double>(m.X(i, c)) * m.Wq(c, k);
          kj += static_cast<double>(m.X(j, c)) * m.Wk(c, k);
        }
        dotr += qi * kj;
      }
      e[static_cast<size_t>(j)] = dot / std::sqrt(static_cast<double>(d));
      er[static_cast<size_t>(j)] = dotr / std::sqrt(static_cast<double>(d));
      mx = std::max(mx, e[static_cast<size_t>(j)]);
      mxr = std::max(mxr, er[static_cast<size_t>(j)]);
    }
    for (int j = 0; j < n; ++j) {
      sum += std::exp(e[static_cast<size_t>(j)] - mx);
      sumr += std::exp(er[static_cast<size_t>(j)] - mxr);
    }
    for (int j = 0; j < n; ++j) {
      worst = std::max(worst, std::abs(A(i, j) - std::exp(e[static_cast<size_t>(j)] - mx) / sum));
      worst_random = std::max(worst_random, std::abs(R(i, j) - std::exp(er[static_cast<size_t>(j)] - mxr) / sumr));
    }
  }
  std::printf("trained weights vs naive: %.3g; random W on the same X vs naive: %.3g\n", worst, worst_random);
  EXPECT_LT(worst, 1e-6);
  EXPECT_LT(worst_random, 1e-6);
  // "it" (position 7) → "animal" (1): the pattern the model learned, not the seeded matrices'.
  EXPECT_EQ(row_argmax(A, 7), 1);
  // The diagonal, measured for both, in the results.
  const json doc = state(s, true);
  std::printf("mean self-weight: identity %.3f, shared %.3f, separate random %.3f, trained %.3f (uniform %.3f)\n",
              m.self_weight[0].mean, m.self_weight[1].mean, m.self_weight[2].mean, m.trained_weight.mean, m.trained_weight.uniform);
  EXPECT_DOUBLE_EQ(doc["results"]["self_weight_trained"].get<double>(), m.trained_weight.mean);
  EXPECT_EQ(doc["results"]["self_weight"]["trained"]["diagonal"].size(), 11u);
  EXPECT_EQ(doc["results"]["random_weights"].size(), 11u);
  EXPECT_NE(doc["results"]["label"].get<std::string>().find("trained on coreference, 1500 steps, held-out accuracy"), std::string::npos);
  EXPECT_EQ(doc["results"]["trained"]["step"], 1500);
  EXPECT_EQ(doc["layer"], 2);
  EXPECT_EQ(doc["d_k"], 16);
}

TEST(SelfTrained, TheDocumentAndTheLinkRestoreTheTrainedView) {
  SelfScene s;
  open_trained(s);
  ASSERT_TRUE(set(s, {{"layer", 1}}).ok);
  const json doc = state(s, true);
  // setState(getState()) is accepted (results included) and changes nothing.
  const int gen = s.generation();
  ASSERT_TRUE(set(s, doc).ok);
  EXPECT_EQ(state(s, true), doc);
  (void)gen;
  // A second scene from the document: it waits, then shows the same numbers.
  SelfScene t;
  ASSERT_TRUE(set(t, doc).ok);
  EXPECT_TRUE(t.trained_pending());
  test::deliver_checkpoint(t, bytes());
  ASSERT_TRUE(t.model().trained);
  EXPECT_EQ(state(t, true), doc);
  // The link carries weights and layer.
  bool has_weights = false, has_layer = false;
  for (const auto& p : s.url_params()) {
    has_weights = has_weights || std::string(p.name) == "weights";
    has_layer = has_layer || std::string(p.name) == "layer";
  }
  EXPECT_TRUE(has_weights);
  EXPECT_TRUE(has_layer);
}

// A document of the trained view, saved, comes back after the scene moved to seeded weights (its results
// included: their label is of the document's parameters, not of the view installed when it arrives).
TEST(SelfTrained, ASavedTrainedDocumentRestoresAfterARandomView) {
  SelfScene s;
  open_trained(s);
  const json trained = state(s, true);
  ASSERT_TRUE(set(s, {{"preset", "notes"}}).ok);
  EXPECT_FALSE(s.model().trained);
  const Status back = set(s, trained);
  ASSERT_TRUE(back.ok) << back.message;
  EXPECT_TRUE(s.model().trained);
  EXPECT_EQ(state(s, true), trained);
}

TEST(SelfTrained, FieldsOfSeededWeightsAreRefusedAndChangeNothing) {
  SelfScene s;
  open_trained(s);
  const json before = state(s, true);
  for (const json& bad : {json{{"cross", true}}, json{{"identity", true}}, json{{"d_k", 4}}, json{{"d_model", 32}},
                          json{{"positional", false}}, json{{"layer", 3}}, json{{"layer", 0}}, json{{"text", "the zebra was tired"}},
                          json{{"text", "the animal was tired"}}, json{{"weights", "learned"}}}) {
    std::unique_ptr<SceneChange> c;
    const Status st = s.prepare(bad, &c);
    EXPECT_FALSE(st.ok) << bad.dump();
    EXPECT_FALSE(st.message.empty()) << bad.dump();
    EXPECT_EQ(state(s, true), before) << bad.dump();
  }
  // The sentence and the seed of the random side may change; the adjective flips the referent.
  ASSERT_TRUE(set(s, {{"text", "the animal didn't cross the street because it was too wide"}}).ok);
  EXPECT_EQ(row_argmax(s.model().trace.weights(), 7), 5);  // "it" → "street"
  ASSERT_TRUE(set(s, {{"seed", 7}}).ok);
  EXPECT_TRUE(s.model().trained);
  EXPECT_EQ(state(s)["results"]["label"].get<std::string>().find("trained on"), 0u);
  // weights "random" leaves the trained view (the shapes stay valid for seeded matrices).
  ASSERT_TRUE(set(s, {{"weights", "random"}}).ok);
  EXPECT_FALSE(s.model().trained);
  EXPECT_EQ(state(s)["results"]["label"], "random, seed 7");
}

TEST(SelfTrained, TheControlsPathFixesTheTrainedShapes) {
  SelfScene s;
  test::deliver_checkpoint(s, bytes());  // arrived before it was asked for (the SDPA scene fetched it)
  SelfSceneParams p = s.params();
  p.trained = true;
  p.text = "The Animal didn't cross the street because it was too tired";
  ASSERT_TRUE(s.apply(p).ok);
  EXPECT_TRUE(s.model().trained);
  EXPECT_EQ(s.params().d_k, 16);
  EXPECT_EQ(s.params().text, "the animal didn't cross the street because it was too tired");
}

TEST(SelfTrained, ADamagedCheckpointLeavesAMessageAndTheWeights) {
  SelfScene s;
  const json before = state(s, true);
  ASSERT_TRUE(set(s, {{"preset", "trained"}}).ok);
  std::vector<unsigned char> b = bytes();
  b[b.size() / 2] ^= 0x5a;
  test::deliver_checkpoint(s, b);
  EXPECT_EQ(s.checkpoint(), SelfScene::Checkpoint::Failed);
  EXPECT_FALSE(s.checkpoint_error().message.empty());
  EXPECT_EQ(s.checkpoint_failures(), 1);
  EXPECT_FALSE(s.model().trained);
  EXPECT_FALSE(s.trained_pending());
  json after = state(s, true);
  EXPECT_EQ(after["results"]["checkpoint"], "failed");
  after["results"].erase("checkpoint");
  after["results"].erase("checkpoint_error");
  json was = before;
  was["results"].erase("checkpoint");
  EXPECT_EQ(after, was);
  // Asked again: the same message, nothing changes.
  std::unique_ptr<SceneChange> c;
  EXPECT_FALSE(s.prepare({{"weights", "trained"}}, &c).ok);
}

}  // namespace
}  // namespace ap
