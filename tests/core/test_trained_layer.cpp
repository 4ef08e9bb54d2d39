// One trained layer with every head (core/train/trained_qkv.h: trained_layer), from the build's heads checkpoint
// (heads.aptc: one layer of 2 heads naming the referent): the scene's multi_head_attention over its X and
// weights (biases included) gives the model's own weights for every head (and X + output is the model's
// residual), its biased projections equal a naive loop, the parameter count holds the 4·d_model biases, the
// two heads read different words; the coreference model's layers have one head; bad layers and words are refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "checkpoint_bytes.h"
#include "core/multihead.h"
#include "core/train/trained_qkv.h"

namespace ap {
namespace AP_UNITY_ID {  // this file's own namespace in a unity build (CMakeLists.txt, AP_UNITY)

using namespace train;

const std::vector<std::string> kWords = {"the", "animal", "didn't", "cross", "the", "street", "because", "it", "was", "too", "tired"};

Trainer& heads_model() {
  static Trainer t;
  static const bool ok = [] {
    const auto& b = heads_checkpoint_bytes();
    const Status s = read_checkpoint(b.data(), b.size(), &t);
    EXPECT_TRUE(s.ok) << s.message;
    return s.ok;
  }();
  (void)ok;
  return t;
}

TEST(TrainedLayer, TheHeadsCheckpointIsTheTwoHeadRecipeTrainedToItsEndWithItsPatterns) {
  Trainer& t = heads_model();
  EXPECT_EQ(t.recipe().task, "heads");
  EXPECT_EQ(t.recipe().heads, 2);
  EXPECT_EQ(t.recipe().layers, 1);
  EXPECT_EQ(t.step(), t.recipe().steps);
  EXPECT_TRUE(t.evaluated_on_all());
  std::printf("heads checkpoint: %zu bytes, held-out accuracy %.4f, some head's argmax on the referent %.4f\n",
              heads_checkpoint_bytes().size(), t.heldout_accuracy(), t.referent_argmax());
  EXPECT_GE(t.heldout_accuracy(), 0.95);
  ASSERT_EQ(t.head_patterns().size(), 2u);  // measured again when the checkpoint is read
  for (const HeadPattern& p : t.head_patterns()) std::printf("head %d reads %s\n", p.head + 1, head_relation(p).c_str());
  EXPECT_NE(head_relation(t.head_patterns()[0]), head_relation(t.head_patterns()[1]));
}

TEST(TrainedLayer, MultiHeadAttentionOverTheLayerIsTheModelsOwnForEveryHead) {
  Trainer& t = heads_model();
  TrainedLayer L;
  ASSERT_TRUE(trained_layer(t, kWords, 0, &L).ok);
  const int n = static_cast<int>(kWords.size()), C = t.recipe().d_model, H = t.recipe().heads, d = C / H;
  ASSERT_EQ(L.X.rows(), n);
  ASSERT_EQ(L.X.cols(), C);
  ASSERT_TRUE(L.weights.has_biases());
  MultiHeadTrace tr;
  ASSERT_TRUE(multi_head_attention(L.X, L.X, L.weights, MaskSpec{}, &tr).ok);
  SentenceAttention a;
  ASSERT_TRUE(t.attention_of(kWords, &a).ok);
  // 1) every head's weights against the model's forward pass
  double worst_w = 0;
  for (int h = 0; h < H; ++h) worst_w = std::max(worst_w, static_cast<double>((tr.heads[h].weights() - a.maps[h]).cwiseAbs().maxCoeff()));
  // 2) the biased projections against a naive loop: Q_h[i][c] = Σ_k X[i][k]·W^Q[k][h·d + c] + b^Q[h·d + c]
  const Mat& Wq = t.model().params().find("l1.Wq")->value;
  const Mat& bq = t.model().params().find("l1.bq")->value;
  double worst_q = 0;
  for (int h = 0; h < H; ++h)
    for (int i = 0; i < n; ++i)
      for (int c = 0; c < d; ++c) {
        double s = bq(0, h * d + c);
        for (int k = 0; k < C; ++k) s += static_cast<double>(L.X(i, k)) * Wq(k, h * d + c);
        worst_q = std::max(worst_q, std::abs(s - tr.Q[h](i, c)));
      }
  // 3) X + output = the layer's residual x_1 (the model's own forward pass)
  (void)t.attention_of(kWords, &a);
  const Mat x1 = t.model().residual(1).block(0, 0, n, C);
  const double worst_r = (L.X + tr.output - x1).cwiseAbs().maxCoeff();
  std::printf("largest difference: weights %.3g, Q vs naive %.3g, X + output vs residual %.3g\n", worst_w, worst_q, worst_r);
  EXPECT_LT(worst_w, 1e-6);
  EXPECT_LT(worst_q, 1e-5);
  EXPECT_LT(worst_r, 1e-5);
  // 4) the count from the matrices: 4·C² weights and 4·C biases
  const MultiHeadParamCount cnt = count_multihead_params(L.weights);
  EXPECT_EQ(cnt.wq + cnt.wk + cnt.wv + cnt.wo, 4LL * C * C);
  EXPECT_EQ(cnt.biases, 4LL * C);
  EXPECT_EQ(cnt.total(), 4LL * C * C + 4LL * C);
}

TEST(TrainedLayer, SeededWeightsHaveNoBiasesAndTheirCountIsUnchanged) {
  MultiHeadWeights w;
  ASSERT_TRUE(make_multihead_weights(16, 4, 42, &w).ok);
  EXPECT_FALSE(w.has_biases());
  EXPECT_EQ(count_multihead_params(w).biases, 0);
  EXPECT_EQ(count_multihead_params(w).total(), 4LL * 16 * 16);
}

TEST(TrainedLayer, BiasesOfTheWrongShapeAreRefused) {
  Trainer& t = heads_model();
  TrainedLayer L;
  ASSERT_TRUE(trained_layer(t, kWords, 0, &L).ok);
  MultiHeadWeights w = L.weights;
  w.bq[1] = Mat::Zero(1, 3);
  MultiHeadTrace tr;
  EXPECT_FALSE(multi_head_attention(L.X, L.X, w, MaskSpec{}, &tr).ok);
  w = L.weights;
  w.bv.pop_back();
  EXPECT_FALSE(multi_head_attention(L.X, L.X, w, MaskSpec{}, &tr).ok);
}

TEST(TrainedLayer, TheCoreferenceModelsLayersHaveOneHead) {
  Trainer t;
  const auto& b = default_checkpoint_bytes();
  ASSERT_TRUE(read_checkpoint(b.data(), b.size(), &t).ok);
  for (int l = 0; l < t.recipe().layers; ++l) {
    TrainedLayer L;
    ASSERT_TRUE(trained_layer(t, kWords, l, &L).ok);
    EXPECT_EQ(L.weights.heads, 1);
    EXPECT_EQ(L.layer, l);
  }
}

TEST(TrainedLayer, BadLayersAndWordsAreRefusedAndLeaveTheOutputAlone) {
  Trainer& t = heads_model();
  TrainedLayer L;
  L.layer = 7;
  EXPECT_FALSE(trained_layer(t, kWords, 1, &L).ok);
  EXPECT_FALSE(trained_layer(t, kWords, -1, &L).ok);
  std::vector<std::string> bad = kWords;
  bad[1] = "unicorn";
  const Status s = trained_layer(t, bad, 0, &L);
  EXPECT_FALSE(s.ok);
  EXPECT_NE(s.message.find("unicorn"), std::string::npos) << s.message;
  EXPECT_EQ(L.layer, 7);
}

}  // namespace
}  // namespace ap
