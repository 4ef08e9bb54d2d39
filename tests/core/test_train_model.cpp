// The training engine's model (core/train/model.h): end-to-end gradient checks, Adam, determinism, and the
// coreference experiment (2 attention layers learn it, 1 layer cannot).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

#include "core/embedding.h"
#include "core/train/coref.h"
#include "core/train/model.h"
#include "reference.h"
#include "train_check.h"
#include "test_mode.h"

namespace ap {
namespace AP_UNITY_ID {  // this file's own namespace in a unity build (CMakeLists.txt, AP_UNITY)

using namespace train;
using traintest::max_rel_error;
using traintest::report_rel;

// A small batch: B = 3 sequences of T = 6 tokens from a vocabulary of 9, the last sequence padded at 4 and 5.
Batch small_batch(Readout readout) {
  Batch b;
  b.B = 3;
  b.ids = {1, 4, 2, 8, 3, 5, /**/ 7, 0, 6, 2, 1, 4, /**/ 3, 3, 8, 5, 0, 0};
  b.pad = {0, 0, 0, 0, 0, 0, /**/ 0, 0, 0, 0, 0, 0, /**/ 0, 0, 0, 0, 1, 1};
  b.row = {3, 1, 2};
  b.target = readout == Readout::Pointer ? std::vector<int>{5, 4, 0} : std::vector<int>{1, 0, 2};
  return b;
}

// Every parameter of the model, entry by entry, against central differences of the model's loss.
void check_model_gradients(const ModelConfig& c, const char* tag, const Batch* given = nullptr) {
  AttentionModel m;
  ASSERT_TRUE(m.init(c).ok);
  // Move off the symmetric start (zero biases, γ = 1) so that every parameter has a generic gradient.
  for (size_t i = 0; i < m.params().size(); ++i) {
    Param& p = m.params()[i];
    p.value += ref::random_mat(static_cast<int>(p.value.rows()), static_cast<int>(p.value.cols()), 100 + i, -0.2, 0.2);
  }
  const Batch batch = given ? *given : small_batch(c.readout);
  double loss = 0;
  ASSERT_TRUE(m.forward(batch, &loss).ok);
  ASSERT_TRUE(std::isfinite(loss));
  m.params().zero_grad();
  m.backward();
  auto f = [&] {
    double l = 0;
    EXPECT_TRUE(m.forward(batch, &l).ok);
    return l;
  };
  // The floor of the relative error: 1e-2 of the largest gradient anywhere in the model.
  double gmax = 0;
  for (size_t i = 0; i < m.params().size(); ++i)
    gmax = std::max(gmax, static_cast<double>(m.params()[i].grad.cwiseAbs().maxCoeff()));
  const double floor = 1e-2 * gmax;
  double worst = 0, worst_norm = 0;
  std::string worst_name;
  for (size_t i = 0; i < m.params().size(); ++i) {
    Param& p = m.params()[i];
    const Mat g = p.grad;
    const Mat n = traintest::numeric_gradient(p.value, f);
    const double e = traintest::max_rel_error(g, n, floor), en = traintest::norm_rel_error(g, n, floor);
    if (e > worst) worst = e, worst_name = p.name;
    worst_norm = std::max(worst_norm, en);
    EXPECT_LE(e, 5e-2) << tag << " " << p.name;
    EXPECT_LE(en, 1e-2) << tag << " " << p.name;
    // A key bias adds q_i·b_k to every score of row i: softmax ignores that shift, so its gradient is 0
    // (Σ_j dZ_ij = 0 in the attention backward).
    if (p.name.size() > 3 && p.name.compare(p.name.size() - 3, 3, ".bk") == 0) {
      EXPECT_LE(g.cwiseAbs().maxCoeff(), 1e-6 * gmax) << p.name;
    }
  }
  std::printf("    %s: loss %.4f, %lld parameters in %zu tensors, largest gradient %.3f, worst entry in %s\n", tag, loss,
              m.params().count(), m.params().size(), gmax, worst_name.c_str());
  report_rel(std::string(tag) + ": entrywise", worst);
  report_rel(std::string(tag) + ": norm-wise", worst_norm);
}

// embedding → 2 attention layers (2 heads) with residuals → pointer loss on layer 2's head 1.
// The small model both gradient checks start from: V = 9, T = 6, C = 8, 2 layers of 2 heads, batches of 3.
ModelConfig small_two_layer_config() {
  ModelConfig c;
  c.vocab = 9;
  c.seq_len = 6;
  c.d_model = 8;
  c.layers = 2;
  c.heads = 2;
  c.max_batch = 3;
  return c;
}

TEST(CoreTrainModel, GradientCheckPointerModel) {
  ModelConfig c = small_two_layer_config();
  c.seed = 5;
  check_model_gradients(c, "pointer model (2 layers, 2 heads)");
}

// embedding → 2 × (pre-LN attention + residual, pre-LN ReLU feed-forward + residual) → linear readout → CE.
TEST(CoreTrainModel, GradientCheckClassifierModel) {
  ModelConfig c = small_two_layer_config();
  c.layer_norm = true;
  c.ffn_hidden = 12;
  c.causal = true;
  c.readout = Readout::Classifier;
  c.classes = 3;
  c.seed = 6;
  check_model_gradients(c, "classifier model (2 layers, LN, FFN)");
}

// A next-token loss on R = 3 rows of each sequence (the induction task's readout): causal, attention only; its
// batch of 3 rows per sequence.
ModelConfig next_token_config(uint64_t seed) {
  ModelConfig c = small_two_layer_config();
  c.causal = true;
  c.readout = Readout::Classifier;
  c.classes = 9;
  c.readout_rows = 3;
  c.seed = seed;
  return c;
}
Batch next_token_batch() {
  Batch b = small_batch(Readout::Classifier);
  b.row = {3, 4, 5, /**/ 1, 2, 5, /**/ 1, 2, 3};
  b.target = {8, 3, 5, /**/ 6, 2, 1, /**/ 8, 5, 0};
  return b;
}

TEST(CoreTrainModel, GradientCheckClassifierOnManyRowsPerSequence) {
  const ModelConfig c = next_token_config(7);
  const Batch b = next_token_batch();
  check_model_gradients(c, "classifier on 3 rows per sequence (2 layers, causal)", &b);
  // The batch must hold B·R rows and targets.
  AttentionModel m;
  ASSERT_TRUE(m.init(c).ok);
  double loss = 0;
  Batch short_rows = b;
  short_rows.row.resize(8);
  EXPECT_FALSE(m.forward(short_rows, &loss).ok);
  ModelConfig pointer = c;
  pointer.readout = Readout::Pointer;
  EXPECT_FALSE(m.init(pointer).ok);  // the pointer reads one row
}

// The masks scene's bug "mask after softmax" (ops.h, after_softmax): the same next-token model with the future
// zeroed after the softmax. Its backward is checked like every other; the weights keep the future at exactly 0
// while the rows sum to less than 1, and a future token changes the output of an earlier row (the leak), which
// the correct causal mask never lets happen.
TEST(CoreTrainModel, GradientCheckMaskAfterSoftmaxBug) {
  ModelConfig c = next_token_config(8);
  c.mask_after_softmax = true;
  const Batch b = next_token_batch();
  check_model_gradients(c, "classifier on 3 rows, mask after softmax (2 layers)", &b);
  const int T = c.seq_len;
  const auto leak = [&](bool after) {  // |Δ probs| of sequence 0's first readout row (position 3) when token 4 changes
    ModelConfig k = c;
    k.mask_after_softmax = after;
    AttentionModel m;
    EXPECT_TRUE(m.init(k).ok);
    double loss = 0;
    EXPECT_TRUE(m.forward(b, &loss).ok);
    const CMatMap att = m.attention(0);
    double future = 0, row_sum_gap = 0;
    for (int i = 0; i < T; ++i) {
      for (int j = i + 1; j < T; ++j) future = std::max(future, static_cast<double>(std::fabs(att(i, j))));
      row_sum_gap = std::max(row_sum_gap, 1.0 - att.row(i).sum());
    }
    EXPECT_EQ(future, 0.0);  // the future's weights are exactly 0 either way
    const Mat before = m.class_probs();
    Batch changed = b;
    changed.ids[4] = (changed.ids[4] + 1) % c.vocab;  // after position 3: its future
    EXPECT_TRUE(m.forward(changed, &loss).ok);
    const double moved = (m.class_probs().row(0) - before.row(0)).cwiseAbs().maxCoeff();
    std::printf("%s: largest 1 − row sum %.3g, the row at position 3 moved by %.3g when token 4 changed\n",
                after ? "mask after softmax" : "causal mask", row_sum_gap, moved);
    return std::make_pair(row_sum_gap, moved);
  };
  const auto correct = leak(false), bug = leak(true);
  EXPECT_LT(correct.first, 1e-6);
  EXPECT_EQ(correct.second, 0.0);  // the correct mask: the future cannot move an earlier row
  EXPECT_GT(bug.first, 1e-3);      // the bug: rows sum to less than 1
  EXPECT_GT(bug.second, 1e-6);     // and the future leaks in through the normaliser
}

TEST(CoreTrainModel, RefusesBadBatchesAndConfigs) {
  ModelConfig c;
  c.vocab = 9;
  c.seq_len = 6;
  c.d_model = 8;
  c.max_batch = 3;
  AttentionModel m;
  ModelConfig bad = c;
  bad.heads = 3;  // does not divide 8
  EXPECT_FALSE(m.init(bad).ok);
  ASSERT_TRUE(m.init(c).ok);
  double loss = 0;
  Batch b = small_batch(Readout::Pointer);
  b.target[2] = 5;  // a padding position
  EXPECT_FALSE(m.forward(b, &loss).ok);
  b = small_batch(Readout::Pointer);
  b.ids[0] = 9;
  EXPECT_FALSE(m.forward(b, &loss).ok);
  b = small_batch(Readout::Pointer);
  b.B = 4;
  EXPECT_FALSE(m.forward(b, &loss).ok);
  EXPECT_TRUE(m.forward(small_batch(Readout::Pointer), &loss).ok);
}

// Adam against the textbook formula in double, and clipping by the global norm.
TEST(CoreTrainAdam, MatchesTheFormulaWithBiasCorrectionAndClipping) {
  ParamStore store;
  Param *a = nullptr, *b = nullptr;
  ASSERT_TRUE(store.add("a", 2, 3, Init::Gaussian, 1.0, 9, &a).ok);
  ASSERT_TRUE(store.add("b", 1, 2, Init::Zeros, 0, 9, &b).ok);
  EXPECT_FALSE(store.add("a", 1, 1, Init::Zeros, 0, 9, nullptr).ok);
  AdamConfig cfg;
  cfg.lr = 0.01;
  cfg.clip_norm = 1.0;
  Adam adam(cfg);
  std::vector<double> w, m, v;
  for (size_t k = 0; k < store.size(); ++k)
    for (Eigen::Index i = 0; i < store[k].value.size(); ++i) w.push_back(store[k].value.data()[i]);
  m.assign(w.size(), 0.0);
  v.assign(w.size(), 0.0);
  double worst = 0;
  for (int t = 1; t <= 5; ++t) {
    // gradient of size ~3 (clipped to norm 1) on odd steps, ~0.3 (not clipped) on even ones
    const double scale = t % 2 ? 3.0 : 0.3;
    std::vector<double> g;
    for (size_t k = 0; k < store.size(); ++k) {
      Param& p = store[k];
      p.grad = ref::random_mat(static_cast<int>(p.grad.rows()), static_cast<int>(p.grad.cols()), 40 + t + k, -scale, scale);
      for (Eigen::Index i = 0; i < p.grad.size(); ++i) g.push_back(p.grad.data()[i]);
    }
    double norm = 0;
    for (double x : g) norm += x * x;
    norm = std::sqrt(norm);
    const double clip = norm > 1.0 ? 1.0 / norm : 1.0;
    EXPECT_NEAR(adam.step(store), norm, 1e-5 * norm);
    for (size_t i = 0; i < w.size(); ++i) {
      const double gi = g[i] * clip;
      m[i] = 0.9 * m[i] + 0.1 * gi;
      v[i] = 0.999 * v[i] + 0.001 * gi * gi;
      const double mh = m[i] / (1 - std::pow(0.9, t)), vh = v[i] / (1 - std::pow(0.999, t));
      w[i] -= 0.01 * mh / (std::sqrt(vh) + 1e-8);
    }
    size_t i = 0;
    for (size_t k = 0; k < store.size(); ++k)
      for (Eigen::Index j = 0; j < store[k].value.size(); ++j, ++i)
        worst = std::max(worst, std::fabs(store[k].value.data()[j] - w[i]));
  }
  ref::report("Adam (5 steps, clipped and not) vs formula in double", worst);
  EXPECT_LE(worst, 1e-5);
}

// ---- the coreference experiment ----------------------------------------------------------------------------

struct CorefRun {
  int steps = 0;
  double seconds = 0, final_loss = 0;
  double heldout_acc = 0;     // weight on the referent > weight on the other noun
  double heldout_argmax = 0;  // the "it" row's largest weight (over all positions) is on the referent
  double train_acc = 0;
};

ModelConfig coref_config(const CorefDataset& d, int layers, uint64_t seed) {
  ModelConfig c;
  c.vocab = d.vocab.size();
  c.seq_len = d.seq_len;
  c.d_model = 16;
  c.layers = layers;
  c.heads = 1;
  c.max_batch = 64;
  c.seed = seed;
  return c;
}

// Accuracy of the pointer row ("it", last layer, pointer head) over a whole set.
void evaluate(AttentionModel& m, const CorefDataset& d, const std::vector<CorefSentence>& set, double* acc,
              double* argmax_acc) {
  const int T = d.seq_len, H = m.config().heads, head = m.config().pointer_head, L = m.config().layers;
  Batch batch;
  std::vector<int> idx(m.config().max_batch);
  int right = 0, argmax_right = 0;
  for (size_t start = 0; start < set.size(); start += idx.size()) {
    const int B = static_cast<int>(std::min(idx.size(), set.size() - start));
    for (int b = 0; b < B; ++b) idx[b] = static_cast<int>(start) + b;
    fill_coref_batch(d, set, idx.data(), B, &batch);
    double loss;
    ASSERT_TRUE(m.forward(batch, &loss).ok);
    const CMatMap att = m.attention(L - 1);
    for (int b = 0; b < B; ++b) {
      const CorefSentence& s = set[idx[b]];
      const auto row = att.row((b * H + head) * T + s.it_pos);
      right += row(s.target_pos()) > row(s.distractor_pos());
      Eigen::Index best;
      row.maxCoeff(&best);
      argmax_right += best == s.target_pos();
    }
  }
  *acc = static_cast<double>(right) / set.size();
  *argmax_acc = static_cast<double>(argmax_right) / set.size();
}

CorefRun train_coref(const CorefDataset& d, int layers, int steps, uint64_t seed, AttentionModel* model) {
  CorefRun r;
  AttentionModel& m = *model;
  EXPECT_TRUE(m.init(coref_config(d, layers, seed)).ok);
  AdamConfig ac;
  ac.lr = 1e-2;
  ac.clip_norm = 1.0;
  Adam adam(ac);
  const int B = 32;
  SeededRng rng(seed, 0xBA7C4ull);
  Batch batch;
  std::vector<int> idx(B);
  const auto t0 = std::chrono::steady_clock::now();
  double loss_avg = 0;
  for (int s = 0; s < steps; ++s) {
    for (int b = 0; b < B; ++b) idx[b] = static_cast<int>(rng.next_u64() % d.train.size());
    fill_coref_batch(d, d.train, idx.data(), B, &batch);
    double loss = 0;
    EXPECT_TRUE(m.train_step(batch, adam, &loss).ok);
    loss_avg = s == 0 ? loss : 0.98 * loss_avg + 0.02 * loss;
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  r.steps = steps;
  r.final_loss = loss_avg;
  double unused;
  evaluate(m, d, d.heldout, &r.heldout_acc, &r.heldout_argmax);
  std::vector<CorefSentence> train_sample(d.train.begin(), d.train.begin() + std::min<size_t>(4000, d.train.size()));
  evaluate(m, d, train_sample, &r.train_acc, &unused);
  std::printf("    %d-layer model: %d steps of %d sentences in %.2f s (%.3f ms/step), loss %.4f, train acc %.3f,\n"
              "      held-out acc %.3f (%zu sentences), held-out \"it\" rows with the largest weight on the referent %.3f\n",
              layers, steps, B, r.seconds, 1e3 * r.seconds / steps, r.final_loss, r.train_acc, r.heldout_acc,
              d.heldout.size(), r.heldout_argmax);
  return r;
}

TEST(CoreTrainCorefTraining, TwoAttentionLayersResolveItOnHeldOutPairs) {
  TRAINED_TARGET_ASSERTED_IN_RELEASE();
  CorefDataset d;
  ASSERT_TRUE(make_coref_dataset(7, &d).ok);
  AttentionModel m;
  const CorefRun r = train_coref(d, 2, 1500, 1, &m);
  ::testing::Test::RecordProperty("heldout_accuracy", std::to_string(r.heldout_acc));
  EXPECT_GE(r.heldout_acc, 0.95);
  EXPECT_GE(r.heldout_argmax, 0.95);
}

TEST(CoreTrainCorefTraining, OneAttentionLayerCannotReadTheAdjective) {
  TRAINED_TARGET_ASSERTED_IN_RELEASE();
  CorefDataset d;
  ASSERT_TRUE(make_coref_dataset(7, &d).ok);
  AttentionModel m;
  const CorefRun r = train_coref(d, 1, 1500, 1, &m);
  ::testing::Test::RecordProperty("heldout_accuracy", std::to_string(r.heldout_acc));
  // Layer 1's query at "it" is wte[it] + wpe[pos]·W^Q: the same for every sentence of a frame, so its weights
  // over the two nouns cannot depend on the adjective. Both answers are equally frequent per (frame, animal,
  // place): about 50 %.
  EXPECT_LE(r.heldout_acc, 0.65);
  EXPECT_GE(r.heldout_acc, 0.35);
}

}  // namespace
}  // namespace ap
