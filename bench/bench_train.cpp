// Training speed: the default recipe of "Watch attention learn" (core/train/trainer.h), 100 Adam steps of 32
// sentences each with the curve's evaluations every 25 steps, as the page's worker runs them. Reported per call
// (100 steps); tools/bench.mjs turns it into steps per second beside the wasm figure measured in the page.
#include <benchmark/benchmark.h>

#include "core/train/trainer.h"

namespace {

void BM_TrainDefault100Steps(benchmark::State& state) {
  ap::train::Recipe r;
  r.steps = 10000;  // long enough that a measurement rarely starts a new run
  ap::train::Trainer t;
  if (!t.init(r).ok) {
    state.SkipWithError("recipe refused");
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
BENCHMARK(BM_TrainDefault100Steps)->Unit(benchmark::kMillisecond);

}  // namespace
