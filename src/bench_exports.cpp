// For ./build.sh bench (not part of window.playground): the core's speed inside the page.
#ifdef __EMSCRIPTEN__
#include <emscripten.h>

#include <algorithm>
#include <vector>

#include "core/attention.h"
#include "core/embedding.h"

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
}
#endif
