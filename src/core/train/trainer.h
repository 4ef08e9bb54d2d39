// Training engine, part 7: a trainer — one run of a recipe, advanced a few steps at a time.
//
// The idea in one line: the trainer owns the task's data, the model and Adam; advance(n) takes up to n Adam
// steps, measures the held-out accuracy every kEvalEvery steps (the curve), stops by itself at the recipe's
// last step or when the loss diverges (keeping the last good weights), and shows any sentence's attention.
//
//   init(recipe):  data (fixed split, kTaskSplitSeed) → model (seeded by recipe.seed) → Adam(lr, clip 1)
//   advance(n):    for each step: batch of `batch` training sentences (seeded order) → train_step → loss
//                  every kEvalEvery steps, and at the last: evaluate → curve point {step, loss, acc, argmax}
//   evaluate:      task "coref": pointer accuracy — on the "it" row of the last layer's pointer head, the weight
//                  on the referent exceeds the weight on the other noun — and the argmax rate — the row's largest
//                  weight (over every position) is on the referent. Task "heads" (heads.h): the classifier's
//                  largest logit is the referent's noun, and the argmax rate — SOME head of the last layer puts
//                  its row's largest weight on the referent. Task "induction" (induction.h): the share of the
//                  second occurrence's next tokens predicted right, and the argmax rate — some head of the last
//                  layer puts its row's largest weight on the token after the earlier occurrence. During the run
//                  on the first kCurveSentences of a seeded shuffle of the held-out set, at the last step on all
//                  of it. (The induction task draws its training sequences fresh each step: no training set.)
//   divergence:    a loss or gradient norm that is not finite, or a loss above kExplodingLoss (the untrained
//                  loss is about ln T ≈ 2.4): the run stops, the weights of the last evaluation come back.
// Deterministic: the same recipe gives bitwise the same weights and curve, whatever the chunk sizes of advance.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/embedding.h"
#include "coref.h"
#include "heads.h"
#include "induction.h"
#include "model.h"
#include "param_store.h"
#include "recipe.h"

namespace ap {
namespace train {

constexpr int kEvalEvery = 25;
constexpr int kCurveSentences = 512;
constexpr double kExplodingLoss = 100.0;

struct CurvePoint {
  int step = 0;
  double loss = 0;               // mean training loss over the steps since the previous point
  double heldout_accuracy = 0;   // referent above the other noun
  double referent_argmax = 0;    // largest weight of the row on the referent
  bool operator==(const CurvePoint& o) const {
    return step == o.step && loss == o.loss && heldout_accuracy == o.heldout_accuracy && referent_argmax == o.referent_argmax;
  }
};

// A sentence's attention under the current weights: every layer's and head's n × n weights.
struct SentenceAttention {
  std::vector<std::string> words;  // n
  int it_pos = -1;                 // the position of "it"
  int layers = 0, heads = 0;
  std::vector<Mat> maps;           // [layer · heads + head]: n × n, row i = query i
};

// The model of a recipe on the coreference sentences: r.layers layers of r.heads heads over the task's
// vocabulary and padded length, seeded by r.seed, planned for max(r.batch, eval_batch) sequences (the pointer
// readout for "coref", the classifier over the 40 nouns for "heads").
ModelConfig coref_model_config(const Recipe& r, const CorefDataset& data, int eval_batch);

// Whether the model of `task` can read `words` (attention_of's check): a coreference sentence for "coref" and
// "heads" (check_coref_sentence), 2 … T tokens "A" … "X" for "induction" (check_induction_tokens).
Status check_task_words(const std::string& task, const std::vector<std::string>& words);

// "training diverged at step 412 (loss NaN): stopped, the weights of step 400 are kept"
Status divergence_status(int step, double loss, int kept_step);

class Trainer {
 public:
  // The task's data and a seeded model of `r`, measured untrained (the curve's step 0). measure_untrained false:
  // weights are about to be set (read_checkpoint, a checkpoint read in slices): that measurement, some 60 ms in
  // wasm, would be thrown away; the curve starts at the set weights' own.
  Status init(const Recipe& r, bool measure_untrained = true);
  const Recipe& recipe() const { return recipe_; }

  // Up to n more steps (fewer at the recipe's end or on divergence). Returns the steps taken.
  int advance(int n);
  int step() const { return step_; }
  bool finished() const { return step_ >= recipe_.steps; }
  bool diverged() const { return !divergence_.ok; }
  const Status& divergence() const { return divergence_; }  // the message when diverged()
  int diverged_step() const { return diverged_step_; }        // -1: none
  double diverged_loss() const { return diverged_loss_; }

  double last_loss() const { return last_loss_; }  // the last step's loss (NaN before the first)
  const std::vector<CurvePoint>& curve() const { return curve_; }
  // The last evaluation (step 0: the untrained model on the curve's sentences).
  double heldout_accuracy() const { return acc_; }
  double referent_argmax() const { return argmax_; }
  // The weights of the last evaluation (every parameter, in the model's order, concatenated) and its step: what
  // heldout_accuracy() was measured on (the current weights have moved on when step() is between evaluations).
  const std::vector<float>& evaluated_weights() const { return good_; }
  int evaluated_step() const { return good_step_; }
  bool evaluated_on_all() const { return evaluated_all_; }  // the last evaluation used the whole held-out set
  int curve_sentences() const;

  // The attention of `words`: for "coref" and "heads" every word in the task's vocabulary, one "it", at most
  // seq_len words; for "induction" 2 … seq_len tokens of induction_vocabulary() (it_pos = −1).
  Status attention_of(const std::vector<std::string>& words, SentenceAttention* out);

  // Every head's "it" row of every layer (heads.h: apart for animal and place referents), [layer · H + head],
  // measured by the last evaluation on the whole held-out set (in the same forward passes); empty before one.
  const std::vector<HeadPattern>& head_patterns() const { return patterns_; }
  // Task "induction": every head's scores (previous token, induction, …) and the accuracy, measured by the last
  // evaluation (on the curve's sequences during the run, on every held-out one at the end).
  const InductionScores& induction_scores() const { return induction_scores_; }
  size_t heldout_size() const;  // the task's held-out sentences (or sequences)

  const CorefDataset& data() const { return data_; }
  AttentionModel& model() { return model_; }
  const AttentionModel& model() const { return model_; }

  // Installs weights (a checkpoint's) of the same names and shapes as this recipe's model, at `step`, with
  // its measured accuracy. Adam's moments start again from 0.
  // All or nothing: weights that do not give `heldout_accuracy` leave the model as it was.
  Status set_weights(const std::vector<std::pair<std::string, Mat>>& weights, int step, double heldout_accuracy);
  // The same in slices (a run's newer weights while the page draws: the last step's are measured on every
  // held-out sentence, tens of milliseconds in wasm). stage_weights checks names, shapes, values and step and
  // begins the measurement (a newer staging replaces an older one); measure_staged measures up to `batches`
  // more batches of 64 with the staged weights swapped in, and swaps the model's own back: between calls the
  // model, its step and its accuracy are the ones before. At the end (returns true) the weights are installed
  // when they give the accuracy they claim, else dropped; *result says which. False: more to measure, or none.
  Status stage_weights(const std::vector<std::pair<std::string, Mat>>& weights, int step, double heldout_accuracy);
  bool measure_staged(size_t batches, Status* result);
  bool staging() const { return staged_.has_value(); }

 private:
  // An evaluation under way: which sentences, how far, what was counted (begin → batches → keep).
  struct Evaluation {
    bool all = false;             // every held-out sentence (else the curve's)
    size_t count = 0, next = 0;   // sentences; the first not measured yet
    long long right = 0, argmax_right = 0;
    size_t animal = 0;            // sentences whose referent is the animal
    std::vector<HeadPattern> patterns;  // coref and heads, on every held-out sentence
    InductionScores scores;       // induction
    bool failed = false;          // a forward pass failed: nothing is kept
    double acc = 0, argmax = 0;   // at the end
  };
  struct Staged {
    std::vector<Mat> weights;  // in the model's parameter order
    int step = 0;
    double claimed = 0;
    Evaluation eval;
  };
  void evaluate(bool all);  // on the curve's sentences, or on every held-out one
  void begin_evaluation(bool all, Evaluation* e) const;
  bool evaluate_batches(Evaluation* e, size_t batches);  // true at the end (or on a failure)
  void keep_evaluation(Evaluation* e);
  void evaluate_coref_batch(int B, Evaluation* e);
  void evaluate_induction_batch(int B, Evaluation* e);
  void swap_staged();
  void fill(const std::vector<CorefSentence>& set, int B, Batch* batch) const;  // the task's batch of idx_[0 … B)
  bool classifier() const { return recipe_.task == kHeadsTask; }
  bool induction() const { return recipe_.task == kInductionTask; }
  void snapshot();
  void restore();

  Recipe recipe_;
  CorefDataset data_;
  AttentionModel model_;
  Adam adam_;
  SeededRng rng_{1};
  Batch batch_, eval_batch_;
  std::vector<int> idx_;
  std::vector<CorefSentence> curve_set_;  // the first kCurveSentences of a seeded shuffle of the held-out set
  std::vector<float> good_;               // every parameter at the last good evaluation
  int good_step_ = 0;
  int step_ = 0;
  double last_loss_ = 0, loss_sum_ = 0;
  int loss_count_ = 0;
  std::vector<CurvePoint> curve_;
  double acc_ = 0, argmax_ = 0;
  std::vector<HeadPattern> patterns_;
  InductionDataset induction_;                    // task "induction": the held-out sequences
  std::vector<InductionSequence> induction_set_;  // the training batch's sequences (drawn each step)
  std::vector<InductionSequence> induction_curve_;
  InductionScores induction_scores_;
  bool evaluated_all_ = false;
  Status divergence_;
  int diverged_step_ = -1;
  double diverged_loss_ = 0;
  std::optional<Staged> staged_;
};

}  // namespace train
}  // namespace ap
