// For ./build.sh bench (not part of window.playground): the core's speed inside the page.
#ifdef __EMSCRIPTEN__
#include <emscripten.h>

#include <algorithm>
#include <vector>

#include "core/attention.h"
#include "core/embedding.h"
#include "core/sweep.h"
#include "core/train/seq2seq_trainer.h"

extern "C" {
// Milliseconds per scaled dot-product attention of n tokens with d_k = d_v = d in this wasm build, every
// intermediate kept, median of `reps` runs.
EMSCRIPTEN_KEEPALIVE double ap_bench_sdpa(int n, int d, int reps) {
  if (n < 1 || n > ap::limits::kMaxTokens || d < 1 || d > ap::limits::kMaxHeadDim || reps < 1 || reps > 100) return -1;
  const ap::Mat Q = ap::seeded_gaussian(n, d, 1, 1, 1.0), K = ap::seeded_gaussian(n, d, 1, 2, 1.0),
                V = ap::seeded_gaussian(n, d, 1, 3, 1.0);
  ap::AttentionTrace t;
  std::vector<double> ms;
  for (int r = 0; r < reps; ++r) {
    const double t0 = emscripten_get_now();
    if (!ap::scaled_dot_product_attention(Q, K, V, ap::MaskSpec{}, &t)) return -1;
    ms.push_back(emscripten_get_now() - t0);
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

// Milliseconds per call of a cost-scene kernel (core/kernels.h) in this wasm build: kind 0 naive attention,
// 1 tiled attention, 2 Elman, 3 GRU; simd 0/1; d = input width (attention: d_k), hidden for the RNNs (<= 0: d).
// Inputs as the scene's sweep makes them (KernelWorkload). A few untimed calls first (the browser compiles hot
// wasm functions again, optimised, a little after they start running); then each sample is a batch lasting at
// least 5 ms (timers are coarsened), and the median of `samples` per-call times is returned. -1 on bad input.
EMSCRIPTEN_KEEPALIVE double ap_bench_kernel(int kind, int simd, int n, int d, int hidden, int samples) {
  if (kind < 0 || kind > 3 || n < 1 || n > 65536 || d < 1 || d > 4096 || hidden > 4096 || samples < 1 || samples > 99) return -1;
  ap::SweepCurve c;
  c.kind = static_cast<ap::KernelKind>(kind);
  c.impl = simd ? ap::KernelImpl::Simd : ap::KernelImpl::Scalar;
  c.d = d;
  c.hidden = hidden;
  ap::KernelWorkload w;
  if (!w.prepare(c, n).ok) return -1;
  double t0 = emscripten_get_now();
  long long warm = 0;
  while (emscripten_get_now() - t0 < 100.0 || warm < 1) { w.run(1); ++warm; }
  if (!w.last_status().ok) return -1;
  long long reps = 1;
  std::vector<double> per_call;
  while (static_cast<int>(per_call.size()) < samples) {
    t0 = emscripten_get_now();
    w.run(reps);
    const double ms = emscripten_get_now() - t0;
    if (ms < 5.0 && reps < (1LL << 20)) { reps = ms > 0 ? static_cast<long long>(reps * 6.0 / ms) + 1 : reps * 10; continue; }
    per_call.push_back(ms / static_cast<double>(reps));
  }
  return ap::median_of(per_call);
}

// Milliseconds per 100 training steps of an encoder–decoder in this module, where the page trains them (the
// scenes' races, in slices of the frame loop): seq2seq_bench_recipe(which); as bench/bench_train.cpp's
// seq2seq_100_steps (steps 20000 so that no call reaches the end, one untimed call first), median of `calls`
// calls. -1 on bad input.
EMSCRIPTEN_KEEPALIVE double ap_bench_seq2seq(int which, int calls) {
  if (which < 0 || which >= ap::train::kSeq2SeqBenchRecipes || calls < 1 || calls > 20) return -1;
  ap::train::Seq2SeqRecipe r = ap::train::seq2seq_bench_recipe(which);
  r.steps = 20000;
  ap::train::Seq2SeqTrainer t;
  if (!t.init(r).ok) return -1;
  t.advance(100);
  std::vector<double> ms;
  for (int c = 0; c < calls; ++c) {
    const double t0 = emscripten_get_now();
    t.advance(100);
    ms.push_back(emscripten_get_now() - t0);
  }
  return ap::median_of(ms);
}
}
#endif
