// Training speed: each default recipe of the core's trainer (core/train/trainer.h) — "Watch attention learn"'s
// coreference model, the multi-head checkpoint's "heads" layer and the induction model — 100 Adam steps of 32
// sequences each with the curve's evaluations every 25 steps, as the page's worker runs them. Reported per call
// (100 steps); tools/bench.mjs turns it into steps per second beside the wasm figure measured in the page.
#include <benchmark/benchmark.h>

#include "core/train/heads.h"
#include "core/train/induction.h"
#include "core/train/seq2seq_trainer.h"
#include "core/train/trainer.h"

namespace {

void train_100_steps(benchmark::State& state, ap::train::Recipe r) {
  r.steps = 5000;  // long enough that a measurement rarely starts a new run (and within every task's work budget)
  ap::train::Trainer t;
  const ap::Status s = t.init(r);
  if (!s.ok) {
    state.SkipWithError(s.message.c_str());
    return;
  }
  t.advance(100);  // past the first allocations
  for (auto _ : state) {
    if (t.finished()) {
      state.PauseTiming();
      (void)t.init(r);
      state.ResumeTiming();
    }
    benchmark::DoNotOptimize(t.advance(100));
  }
}

void BM_TrainDefault100Steps(benchmark::State& state) { train_100_steps(state, ap::train::Recipe{}); }
void BM_TrainHeads100Steps(benchmark::State& state) { train_100_steps(state, ap::train::heads_recipe(2)); }
void BM_TrainInduction100Steps(benchmark::State& state) { train_100_steps(state, ap::train::induction_recipe()); }
BENCHMARK(BM_TrainDefault100Steps)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_TrainHeads100Steps)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_TrainInduction100Steps)->Unit(benchmark::kMillisecond);

// The encoder–decoders (core/train/seq2seq_trainer.h), 100 steps of 16 pairs with the evaluations every 50 steps:
// seq2seq_bench_recipe(k), the Bahdanau scene's translation model, and the bottleneck's reversal models with and
// without attention.
void seq2seq_100_steps(benchmark::State& state, int k) {
  ap::train::Seq2SeqRecipe r = ap::train::seq2seq_bench_recipe(k);
  r.steps = 20000;
  ap::train::Seq2SeqTrainer t;
  const ap::Status s = t.init(r);
  if (!s.ok) {
    state.SkipWithError(s.message.c_str());
    return;
  }
  t.advance(100);
  for (auto _ : state) benchmark::DoNotOptimize(t.advance(100));
}

void BM_Seq2SeqTranslation100Steps(benchmark::State& state) { seq2seq_100_steps(state, 0); }
void BM_Seq2SeqReversalAttention100Steps(benchmark::State& state) { seq2seq_100_steps(state, 1); }
void BM_Seq2SeqReversalNoAttention100Steps(benchmark::State& state) { seq2seq_100_steps(state, 2); }
BENCHMARK(BM_Seq2SeqTranslation100Steps)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Seq2SeqReversalAttention100Steps)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Seq2SeqReversalNoAttention100Steps)->Unit(benchmark::kMillisecond);

}  // namespace
