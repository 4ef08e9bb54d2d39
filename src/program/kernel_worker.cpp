// The wasm module of one Web Worker of the cost lab (web/kernel_worker.js loads it): the core's split kernels
// (core/split_work.h) behind a few C functions, and nothing else, so every worker instantiates a small module
// of its own. No memory is shared with the page or the other workers: each worker seeds the same inputs.
//
// Attention: kw_attention_prepare, then kw_attention_run(reps) (returns the checksum of this worker's rows).
// GRU:       kw_gru_prepare; one worker alone: kw_gru_run_all(); several: per step kw_gru_step(t), copy this
//            worker's slice out of kw_gru_next(), receive the others' slices into it, kw_gru_advance().
// Errors: a function returns 0 on failure and kw_error() says why (English).
#include <emscripten.h>

#include <string>

#include "core/split_work.h"
#include "program/worker_status.h"

namespace {
ap::SplitAttention g_attention;
ap::SplitGru g_gru;
std::string g_error;

int result(const ap::Status& s) { return ap::worker_answer(s, &g_error); }
}  // namespace

extern "C" {
EMSCRIPTEN_KEEPALIVE const char* kw_error() { return g_error.c_str(); }

EMSCRIPTEN_KEEPALIVE int kw_attention_prepare(int tiled, int n, int d, int r0, int r1, int seed) {
  return result(g_attention.prepare(tiled != 0, n, d, r0, r1, static_cast<uint64_t>(seed)));
}
EMSCRIPTEN_KEEPALIVE double kw_attention_run(int reps) {
  const double sum = g_attention.run(reps);
  (void)result(g_attention.last_status());
  return sum;
}

EMSCRIPTEN_KEEPALIVE int kw_gru_prepare(int n, int d, int hidden, int u0, int u1, int seed) {
  return result(g_gru.prepare(n, d, hidden, u0, u1, static_cast<uint64_t>(seed)));
}
EMSCRIPTEN_KEEPALIVE void kw_gru_reset() { g_gru.reset(); }
EMSCRIPTEN_KEEPALIVE int kw_gru_step(int t) { return result(g_gru.step(t)); }
EMSCRIPTEN_KEEPALIVE float* kw_gru_next() { return g_gru.next(); }
EMSCRIPTEN_KEEPALIVE void kw_gru_advance() { g_gru.advance(); }
EMSCRIPTEN_KEEPALIVE double kw_gru_run_all() { return g_gru.run_all(); }
EMSCRIPTEN_KEEPALIVE double kw_gru_checksum() { return g_gru.checksum(); }
}
