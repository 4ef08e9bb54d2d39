// Training engine: the masks scene's "train with the bug" — a tiny causal language model trained twice on the
// same sequences with the same budget, once with its causal mask and once with the mask forgotten, then both
// asked to write on their own.
//
// The model and the data are the induction task's (induction.h): 2 attention layers over sequences of T = 20
// tokens in which a segment of N = 6 random tokens occurs twice; the loss is the next-token cross-entropy on the
// second occurrence's rows s2 … s2+N−2 (teacher forcing: the whole sequence is in the batch).
//
// The idea in one line: without the causal mask the row of position t can read position t+1, which holds the very
// token it must predict, so the training loss falls fast and far; generation has no position t+1 yet, so the
// cheat has nothing to read.
//
//   training:    batch sequences drawn fresh each step (the run's seed), held-out segments never drawn
//   train loss:  the mean of the last kBugLabLossWindow steps' losses (each with the run's own mask)
//   generation:  each held-out sequence cut after s2 (the prompt: everything up to the second occurrence's first
//                token); then N−1 tokens written greedily one at a time, each from the prompt and the tokens written
//                before it (positions after it are padding: hidden from every query, the future is not there);
//                accuracy: the share of written tokens equal to the segment's.
//   teacher-forced accuracy: the same rows with the whole true sequence given (what the training loss measures).
#pragma once
#include <cstdint>
#include <vector>

#include "core/embedding.h"
#include "core/status.h"
#include "induction.h"
#include "model.h"
#include "param_store.h"

namespace ap {
namespace train {

constexpr int kBugLabLossWindow = 25;
constexpr int kBugLabPrompts = 256;  // held-out sequences generated from

struct BugLabRecipe {
  int layers = 2, heads = 1, d_model = 16;
  uint64_t seed = 1;
  int steps = 600;  // induction_recipe's budget: the correct model learns the task within it
  double learning_rate = 1e-2;
  int batch = 32;
  bool operator==(const BugLabRecipe& o) const {
    return layers == o.layers && heads == o.heads && d_model == o.d_model && seed == o.seed && steps == o.steps &&
           learning_rate == o.learning_rate && batch == o.batch;
  }
};
// Refused by name: sizes outside the induction recipe's limits (validate_recipe), a learning rate that is not in
// (0, 1], steps outside 1 … 20000.
Status validate_bug_lab_recipe(const BugLabRecipe& r);

// How a run masks the future: correctly (−∞ before the softmax), not at all (the bug "causal mask forgotten"), or
// after the softmax (the bug "mask after softmax": the future's weights zeroed, but the row's normaliser summed
// over them, ops.h).
enum class BugLabMask { Causal, Forgotten, AfterSoftmax };
const char* bug_lab_mask_name(BugLabMask m);  // "causal", "forgotten", "after_softmax"

struct BugLabPoint {
  int step = 0;
  double loss = 0;  // mean training loss over the steps since the previous point
};

class BugLabRun {
 public:
  // The data are the same for every mask (the recipe's seed).
  Status init(const BugLabRecipe& r, BugLabMask mask);
  const BugLabRecipe& recipe() const { return recipe_; }
  BugLabMask mask() const { return mask_; }
  int advance(int n);  // up to n Adam steps; returns how many were taken
  int step() const { return step_; }
  bool finished() const { return step_ >= recipe_.steps || diverged(); }
  bool diverged() const { return !divergence_.ok; }
  const Status& divergence() const { return divergence_; }
  double train_loss() const;  // the mean of the last kBugLabLossWindow steps (NaN before the first)
  const std::vector<BugLabPoint>& curve() const { return curve_; }  // every kBugLabLossWindow steps
  // On the first `prompts` held-out sequences (at most kInductionHeldout): greedy generation, and the same rows
  // teacher-forced. Forward passes only (not const: the model's activations are reused).
  double generation_accuracy(int prompts);
  double teacher_forced_accuracy(int prompts);
  // The same counted over held-out sequences [first, first + count) (clamped to the set), added to *t: a
  // measurement done in slices (BugTraining), one model batch a unit, adds up to the whole one above.
  struct Tally {
    long long right = 0, total = 0;
    double share() const { return total ? static_cast<double>(right) / static_cast<double>(total) : 0.0; }
  };
  void tally_generation(int first, int count, Tally* t);
  void tally_teacher_forced(int first, int count, Tally* t);
  int measure_batch() const { return model_.config().max_batch; }  // held-out sequences per forward pass
  // A sample for the view: held-out sequence k's prompt, the tokens written, and the true ones.
  struct Sample {
    std::vector<int> prompt, written, truth;
  };
  Sample generate_sample(int k);

 private:
  // Writes N−1 tokens after each prompt of held-out[first … first+B); *written: [B][N−1].
  void generate(size_t first, int B, std::vector<std::vector<int>>* written);
  BugLabRecipe recipe_;
  BugLabMask mask_ = BugLabMask::Causal;
  AttentionModel model_;
  Adam adam_;
  SeededRng rng_{1, 0};
  InductionDataset data_;
  std::vector<InductionSequence> set_;
  std::vector<int> idx_;
  Batch batch_;
  int step_ = 0;
  std::vector<double> losses_;  // every step's loss
  std::vector<BugLabPoint> curve_;
  Status divergence_;
};

}  // namespace train
}  // namespace ap
