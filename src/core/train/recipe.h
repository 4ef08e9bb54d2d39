// Training engine, part 6: a recipe — everything that decides a training run — and its validation.
//
// The idea in one line: a run is a pure function of its recipe (task, sizes, seed, steps, learning rate, batch),
// so a recipe is what a link, a document and a checkpoint carry, and what is refused before any work starts.
//
// Refused (each with a message naming the field and the allowed range):
//   * a learning rate that is not a finite number in (0, kMaxLearningRate]: lr <= 0 does not learn, NaN poisons
//     every weight, and above 1 Adam's steps (about lr per weight per step) jump far past any minimum;
//   * sizes out of range, heads that do not divide d_model;
//   * a recipe whose work (multiply-adds, recipe_work) exceeds what the page trains within its time budget.
#pragma once
#include <cstdint>
#include <string>

#include "core/matrix.h"
#include "core/status.h"

namespace ap {
namespace train {

struct Recipe {
  std::string task = "coref";  // "coref": which noun "it" is, read from the weights (coref.h); "heads": name it
                               // (heads.h); "induction": copy what followed the earlier occurrence (induction.h)
  int layers = 2;              // attention layers: 2 solve the task, 1 cannot (the adjective comes after "it")
  int d_model = 16;
  int heads = 1;
  uint64_t seed = 1;           // initial weights and minibatch order (the task's split is fixed: kTaskSplitSeed)
  int steps = 1500;            // Adam steps of `batch` training sentences each
  double learning_rate = 1e-2;
  int batch = 32;
  bool operator==(const Recipe& o) const {
    return task == o.task && layers == o.layers && d_model == o.d_model && heads == o.heads && seed == o.seed &&
           steps == o.steps && learning_rate == o.learning_rate && batch == o.batch;
  }
  bool operator!=(const Recipe& o) const { return !(*this == o); }
};

namespace recipe_limits {
constexpr int kMaxLayers = 4;
constexpr int kMaxDModel = 64;
constexpr int kMaxHeads = 8;
constexpr int kMaxSteps = 20000;
constexpr int kMaxBatch = 128;
constexpr double kMaxLearningRate = 1.0;
constexpr long long kMaxSeed = limits::kMaxSeed;
// Multiply-adds one run may take: about a minute in the page on this project's 2-core machine class
// (the default recipe is about 4·10⁹ and trains in a few seconds).
constexpr double kMaxWork = 6e10;
}  // namespace recipe_limits

// The import scene's example (a multi-layer, multi-head model, as a file of the learner's would hold): the
// coreference task with 2 layers of 2 heads, the default recipe otherwise.
inline Recipe attention_example_recipe() {
  Recipe r;
  r.heads = 2;
  return r;
}

// The split of the coreference task's sentences (coref.h) is part of the task, not of the recipe.
constexpr uint64_t kTaskSplitSeed = 7;

// Multiply-adds of the whole run, per step and sentence of T tokens and per layer:
//   forward: 4 projections T·C² each + scores and weighted sum 2·T²·C;  backward ≈ 2 × forward.
double recipe_work(const Recipe& r, int seq_len);

// The task's padded sequence length (for recipe_work); 0 for an unknown task.
int task_seq_len(const std::string& task);

// Validates every field (see the top of this file). seq_len: the task's padded length (for recipe_work).
Status validate_recipe(const Recipe& r, int seq_len);

}  // namespace train
}  // namespace ap
