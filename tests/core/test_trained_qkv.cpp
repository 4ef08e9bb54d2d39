// The build's checkpoint (tools/make_checkpoint.cpp) and a trained model's Q, K, V per layer
// (core/train/trained_qkv.h): the file reads back as the default recipe trained to its end; the scene's
// scaled dot-product attention over those Q, K, V gives the model's own weights; the deciding layer's "it" row
// points at the referent of the notes' sentence and moves with the adjective; unknown words are named.
#include <gtest/gtest.h>

#include <cstdio>

#include "checkpoint_bytes.h"
#include "row_argmax.h"
#include "core/attention.h"
#include "core/train/coref.h"
#include "core/train/trained_qkv.h"

namespace ap {
namespace AP_UNITY_ID {  // this file's own namespace in a unity build (CMakeLists.txt, AP_UNITY)

using namespace train;

std::vector<std::string> words_of(const std::string& s) {
  std::vector<std::string> w;
  size_t i = 0;
  while (i < s.size()) {
    const size_t j = s.find(' ', i);
    w.push_back(s.substr(i, j == std::string::npos ? std::string::npos : j - i));
    if (j == std::string::npos) break;
    i = j + 1;
  }
  return w;
}

Trainer& loaded() {
  static Trainer t;
  static const bool ok = [] {
    const auto& b = default_checkpoint_bytes();
    const Status s = read_checkpoint(b.data(), b.size(), &t);
    EXPECT_TRUE(s.ok) << s.message;
    return s.ok;
  }();
  (void)ok;
  return t;
}

TEST(TrainedCheckpoint, TheToolsFileReadsBackAsTheDefaultRecipeTrainedToItsEnd) {
  const auto& b = default_checkpoint_bytes();
  ASSERT_GT(b.size(), 100u);
  Trainer& t = loaded();
  EXPECT_TRUE(t.recipe() == Recipe{});
  EXPECT_EQ(t.step(), Recipe{}.steps);
  EXPECT_GE(t.heldout_accuracy(), 0.95);  // measured again on the held-out set by read_checkpoint
  std::printf("checkpoint: %zu bytes, step %d, held-out accuracy %.2f %%\n", b.size(), t.step(), 100 * t.heldout_accuracy());
  std::vector<uint8_t> again;
  write_checkpoint(t, &again);
  EXPECT_EQ(again, b);  // what was read is what was written, bit for bit
}

TEST(TrainedQkv, TheScenesAttentionOverTheModelsQKVIsTheModelsOwn) {
  Trainer& t = loaded();
  const auto words = words_of("the animal didn't cross the street because it was too tired");
  TrainedQkv q;
  ASSERT_TRUE(trained_qkv(t, words, &q).ok);
  SentenceAttention a;
  ASSERT_TRUE(t.attention_of(words, &a).ok);
  ASSERT_EQ(q.layers, 2);
  EXPECT_EQ(q.n, 11);
  EXPECT_EQ(q.d, 16);
  EXPECT_EQ(q.it_pos, 7);
  float worst = 0;
  for (int l = 0; l < q.layers; ++l) {
    AttentionTrace tr;
    ASSERT_TRUE(scaled_dot_product_attention(q.Q[l], q.K[l], q.V[l], MaskSpec{}, &tr).ok);
    EXPECT_FLOAT_EQ(tr.sqrt_dk, 4.f);  // 1/√d with d = d_model / heads = 16, as the model scales
    const Mat& mine = tr.weights();
    const Mat& model = a.maps[static_cast<size_t>(l * a.heads)];
    ASSERT_EQ(mine.rows(), model.rows());
    worst = std::max(worst, (mine - model).cwiseAbs().maxCoeff());
  }
  std::printf("largest difference between the scene's weights and AttentionModel::attention: %.3g\n", worst);
  EXPECT_LT(worst, 1e-5f);
}

TEST(TrainedQkv, TheDecidingRowPointsAtTheReferentAndFollowsTheAdjective) {
  Trainer& t = loaded();
  auto words = words_of("the animal didn't cross the street because it was too tired");
  const auto last_row_argmax = [&](const std::vector<std::string>& w) {
    TrainedQkv q;
    EXPECT_TRUE(trained_qkv(t, w, &q).ok);
    AttentionTrace tr;
    EXPECT_TRUE(scaled_dot_product_attention(q.Q.back(), q.K.back(), q.V.back(), MaskSpec{}, &tr).ok);
    return row_argmax(tr.weights(), q.it_pos);
  };
  EXPECT_EQ(last_row_argmax(words), 1);  // "animal"
  ASSERT_TRUE(flip_coref_adjective(&words));
  EXPECT_EQ(words.back(), "wide");
  EXPECT_EQ(last_row_argmax(words), 5);  // "street"
  ASSERT_TRUE(flip_coref_adjective(&words));
  EXPECT_EQ(words.back(), "tired");
}

TEST(TrainedQkv, WordsOutsideTheVocabularyAreNamed) {
  Trainer& t = loaded();
  TrainedQkv q;
  const Status s = trained_qkv(t, words_of("the zebra didn't cross the street because it was too tired"), &q);
  ASSERT_FALSE(s.ok);
  EXPECT_NE(s.message.find("\"zebra\""), std::string::npos) << s.message;
  EXPECT_FALSE(trained_qkv(t, words_of("the animal didn't cross the street because was too tired"), &q).ok);  // no "it"
  std::vector<std::string> none = {"the", "cat"};
  EXPECT_FALSE(flip_coref_adjective(&none));
}

}  // namespace
}  // namespace ap
