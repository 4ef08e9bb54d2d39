// The trainer (core/train/trainer.h): the default recipe reaches the target on held-out pairs, one layer does
// not; bitwise determinism whatever the chunk sizes; divergence stops the run and keeps the last good weights;
// a sentence's attention equals the model's forward pass; words outside the vocabulary are refused.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstring>
#include <vector>

#include "core/train/trainer.h"
#include "test_mode.h"

namespace ap {
namespace AP_UNITY_ID {  // this file's own namespace in a unity build (CMakeLists.txt, AP_UNITY)

using namespace train;

std::vector<float> all_weights(const Trainer& t) {
  std::vector<float> w;
  t.model().params().save_values(&w);
  return w;
}

const std::vector<std::string> kSentence = {"the", "cat", "didn't", "cross", "the", "road", "because", "it", "was", "too", "tired"};

TEST(CoreTrainTrainer, DefaultRecipeReachesTheTargetAndOneLayerDoesNot) {
  TRAINED_TARGET_ASSERTED_IN_RELEASE();
  Trainer t;
  ASSERT_TRUE(t.init(Recipe{}).ok);
  EXPECT_EQ(t.curve().size(), 1u);  // step 0: the untrained model
  const auto t0 = std::chrono::steady_clock::now();
  while (!t.finished()) ASSERT_GT(t.advance(100), 0);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  int first = -1;
  for (const CurvePoint& p : t.curve())
    if (first < 0 && p.heldout_accuracy >= 0.95) first = p.step;
  std::printf("    2 layers: %d steps in %.2f s (%.0f steps/s), held-out accuracy %.4f, argmax %.4f (all %zu sentences);\n"
              "      the curve (on %d held-out sentences) first at >= 0.95 at step %d\n",
              t.step(), s, t.step() / s, t.heldout_accuracy(), t.referent_argmax(), t.data().heldout.size(),
              t.curve_sentences(), first);
  EXPECT_FALSE(t.diverged());
  EXPECT_TRUE(t.evaluated_on_all());
  EXPECT_GE(t.heldout_accuracy(), 0.95);
  EXPECT_GE(t.referent_argmax(), 0.90);
  EXPECT_EQ(t.curve().back().step, Recipe{}.steps);
  EXPECT_EQ(static_cast<int>(t.curve().size()), 1 + Recipe{}.steps / kEvalEvery);
  EXPECT_LT(t.curve().back().loss, t.curve()[1].loss);
  // The deciding row follows the adjective: "tired" → the cat, "wide" → the road.
  SentenceAttention a;
  ASSERT_TRUE(t.attention_of(kSentence, &a).ok);
  const Mat& last = a.maps.back();
  EXPECT_GT(last(7, 1), last(7, 5));
  std::vector<std::string> wide = kSentence;
  wide.back() = "wide";
  ASSERT_TRUE(t.attention_of(wide, &a).ok);
  EXPECT_GT(a.maps.back()(7, 5), a.maps.back()(7, 1));

  Recipe one;
  one.layers = 1;
  Trainer u;
  ASSERT_TRUE(u.init(one).ok);
  while (!u.finished()) u.advance(500);
  std::printf("    1 layer: held-out accuracy %.4f\n", u.heldout_accuracy());
  EXPECT_LE(u.heldout_accuracy(), 0.65);
}

TEST(CoreTrainTrainer, SameRecipeSameBitsWhateverTheChunks) {
  Recipe r;
  r.steps = test::full_or_short(120, 40);
  Trainer a, b;
  ASSERT_TRUE(a.init(r).ok);
  ASSERT_TRUE(b.init(r).ok);
  EXPECT_EQ(a.advance(1000), r.steps);
  for (int chunk : {1, 7, 13, 24, 1000}) b.advance(chunk);
  while (!b.finished()) b.advance(5);
  const std::vector<float> wa = all_weights(a), wb = all_weights(b);
  ASSERT_EQ(wa.size(), wb.size());
  EXPECT_EQ(std::memcmp(wa.data(), wb.data(), wa.size() * sizeof(float)), 0);
  EXPECT_EQ(a.curve().size(), b.curve().size());
  for (size_t i = 1; i < a.curve().size(); ++i) EXPECT_TRUE(a.curve()[i] == b.curve()[i]) << i;
  // Another seed: other weights.
  r.seed = 2;
  Trainer c;
  ASSERT_TRUE(c.init(r).ok);
  c.advance(1000);
  const std::vector<float> wc = all_weights(c);
  EXPECT_NE(std::memcmp(wa.data(), wc.data(), wa.size() * sizeof(float)), 0);
}

TEST(CoreTrainTrainer, DivergenceStopsAndKeepsTheLastGoodWeights) {
  Recipe r;
  r.steps = 200;
  Trainer t;
  ASSERT_TRUE(t.init(r).ok);
  ASSERT_EQ(t.advance(60), 60);  // last evaluation at step 50
  Trainer ref;
  ASSERT_TRUE(ref.init(r).ok);
  ref.advance(50);
  const std::vector<float> good = all_weights(ref);
  // A weight becomes NaN (what an exploding update leaves): the next step's loss is NaN.
  t.model().params()[0].value(3, 2) = std::nanf("");
  EXPECT_EQ(t.advance(100), 1);
  EXPECT_TRUE(t.diverged());
  EXPECT_EQ(t.step(), 50);
  EXPECT_NE(t.divergence().message.find("diverged at step 61"), std::string::npos) << t.divergence().message;
  EXPECT_NE(t.divergence().message.find("step 50 are kept"), std::string::npos) << t.divergence().message;
  const std::vector<float> kept = all_weights(t);
  EXPECT_EQ(std::memcmp(kept.data(), good.data(), good.size() * sizeof(float)), 0);
  EXPECT_EQ(t.advance(10), 0);  // stopped
  // An exploding (finite) loss stops it too: the scores' scale blown up by a huge W^Q, W^K.
  Trainer e;
  ASSERT_TRUE(e.init(r).ok);
  for (const char* name : {"l2.Wq", "l2.Wk", "l1.Wv", "wte"}) e.model().params().find(name)->value *= 300.f;
  e.advance(5);
  EXPECT_TRUE(e.diverged()) << e.last_loss();
  EXPECT_EQ(e.step(), 0);
}

TEST(CoreTrainTrainer, SentenceAttentionIsTheModelsForwardPass) {
  Trainer t;
  ASSERT_TRUE(t.init(Recipe{}).ok);
  t.advance(30);
  SentenceAttention a;
  ASSERT_TRUE(t.attention_of(kSentence, &a).ok);
  ASSERT_EQ(a.maps.size(), 2u);
  EXPECT_EQ(a.it_pos, 7);
  const int n = 11;
  for (const Mat& m : a.maps) {
    ASSERT_EQ(m.rows(), n);
    for (int i = 0; i < n; ++i) EXPECT_NEAR(m.row(i).sum(), 1.0, 1e-5);
  }
  // The same sentence inside a batch of the model gives the same rows.
  const CorefSentence& s = t.data().train[0];
  std::vector<std::string> words;
  for (int id : s.ids) words.push_back(t.data().vocab.word(id));
  ASSERT_TRUE(t.attention_of(words, &a).ok);
  Batch b;
  int idx = 0;
  fill_coref_batch(t.data(), t.data().train, &idx, 1, &b);
  double loss;
  ASSERT_TRUE(t.model().forward(b, &loss).ok);
  const int w = static_cast<int>(words.size());
  for (int l = 0; l < 2; ++l)
    EXPECT_LE((t.model().attention(l).block(0, 0, w, w) - a.maps[static_cast<size_t>(l)]).cwiseAbs().maxCoeff(), 0.f);
  // Refused: a word outside the vocabulary (named), no "it", two "it", too long.
  std::vector<std::string> bad = kSentence;
  bad[1] = "unicorn";
  Status st = t.attention_of(bad, &a);
  EXPECT_FALSE(st.ok);
  EXPECT_NE(st.message.find("\"unicorn\""), std::string::npos) << st.message;
  bad = kSentence;
  bad[7] = "cat";
  EXPECT_FALSE(t.attention_of(bad, &a).ok);
  bad = kSentence;
  bad[1] = "it";
  EXPECT_FALSE(t.attention_of(bad, &a).ok);
  bad = kSentence;
  bad.insert(bad.end(), {"and", "the", "cat"});
  EXPECT_FALSE(t.attention_of(bad, &a).ok);
  EXPECT_FALSE(t.attention_of({"<pad>", "it"}, &a).ok);
}

}  // namespace
}  // namespace ap
