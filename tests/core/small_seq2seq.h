// A small reversal recipe for the tests of races and runs: the bottleneck's recipe shape (reversal, 4 … 24
// symbols, 32 units) cut to 16 units and strings of 3 … 8, so that a run of a hundred steps takes a fraction of
// a second; its rate raised to 1e-2 to learn something in so few steps.
#pragma once
#include "core/train/seq2seq_trainer.h"

namespace ap {
namespace test {

inline train::Seq2SeqRecipe small_reversal(train::Seq2SeqAttention a, int steps = 100) {
  train::Seq2SeqRecipe r = train::reversal_recipe(a);
  r.d_h = 16;
  r.min_len = 3;
  r.max_len = 8;
  r.steps = steps;
  r.learning_rate = 1e-2;
  return r;
}

}  // namespace test
}  // namespace ap
