// "Why √d_k": what dividing attention scores by √d_k does to their spread, and to softmax.
//
// Shapes (one call of compute_scaling):
//   1) dots:  for s = 0 … samples-1:  q_s, k_s: d_k, entries N(0, 1)        x_s = q_s · k_s   (samples values)
//   2) sweep: for each block b:  Q_b: n_keys × 1024,  K_b: n_keys × 1024, entries N(0, 1)
//             for d = 1, 2, 4, …, 1024:  S = Q_b[:, :d] · K_b[:, :d]ᵀ    n_keys × n_keys
//             row i of S = one query against n_keys keys; softmax(S row) and softmax(S row / √d)
//
// Idea: q·k adds d_k independent products of mean 0 and variance 1, so it has mean 0 and variance d_k;
// divided by √d_k it has variance 1 whatever d_k is, and softmax stays soft instead of turning one-hot.
//
// Work budget (the scene recomputes on every parameter change, in wasm, single thread). The cost is the
// normal draws (one log and one sqrt per two draws) and, for many keys, the sweep's products and exps:
//   dots:  2 · samples · d_k draws                         default 4000 · 64: 512 Ki draws
//   sweep: 2 · sweep_queries · 1024 draws (≤ ~800 Ki)      default 256 queries: 512 Ki draws
//          + sweep_queries · n_keys · 1024 multiply-adds   default 4 M, at most 67 M (n_keys = 256)
// samples · d_k is capped at kMaxWork (1 Mi, 4× the default): past that the call is refused rather than
// stalling the page. Measured natively (g++ -O2, thread CPU time, best of 5-7): ≈ 12 ms at the defaults
// (≈ 6 ms of it the sweep); the worst allowed cases ≈ 50 ms (d_k 1024 × 1024 samples or d_k 10 × 100000
// samples, with 256 keys). Expect wasm to take 1.5-2× that.
//
// Determinism: every value follows from (seed, parameters) through SeededRng (embedding.h) on fixed
// streams, in the draw order documented below, so a test or a tool can re-derive each number.
#pragma once
#include <cstdint>
#include <vector>

#include "status.h"

namespace ap {

namespace scaling_limits {
constexpr int kMaxDk = 1024;            // d_k: 1 … 1024
constexpr int kMinSamples = 10;         // samples: 10 … 100000
constexpr int kMaxSamples = 100000;
constexpr int kMinKeys = 2;             // n_keys: 2 … 256 (one key gives weight 1 always: nothing to show)
constexpr int kMaxKeys = 256;
constexpr long long kMaxWork = 1 << 20;  // samples · d_k (each dot costs 2 · d_k normal draws)
}  // namespace scaling_limits

struct ScalingParams {
  int d_k = 64;        // length of q and k in part 1 (the dots and their histograms)
  int samples = 4000;  // number of dots in part 1; also sets how many queries the sweep averages over
  int n_keys = 16;     // keys per softmax in the sweep (a "sentence" of n_keys tokens)
  uint64_t seed = 1;
};

// Equal-width bins over [lo, hi]: bin j covers [lo + j·w, lo + (j+1)·w), w = (hi - lo) / counts.size();
// the last bin also holds hi. Values outside [lo, hi] are clipped into the end bins, so the counts always
// sum to the number of values; `under` and `over` say how many of counts[0] and counts.back() were clipped
// (the scene can draw those bins as "≤ lo" / "≥ hi").
struct Histogram {
  double lo = 0, hi = 0;
  std::vector<int> counts;
  int under = 0, over = 0;
};

struct ScalingSweepPoint {
  int d_k = 0;                                   // 1, 2, 4, …, 1024
  double var_raw = 0, var_scaled = 0;            // sample variance of the sweep's q·k, and of q·k / √d_k
  double max_weight_raw = 0, max_weight_scaled = 0;  // mean over queries of the largest softmax weight
  double entropy_raw = 0, entropy_scaled = 0;    // mean over queries of the softmax entropy, nats
};

struct ScalingResult {
  // part 1: the dots
  std::vector<float> dots_raw;     // samples values of q·k, q and k with independent N(0, 1) entries, length d_k
  std::vector<float> dots_scaled;  // the same / √d_k
  double mean_raw = 0, var_raw = 0;        // sample mean and variance (n - 1) of dots_raw:    expect 0 and d_k
  double mean_scaled = 0, var_scaled = 0;  // the same of dots_scaled:                      expect 0 and 1
  // kHistBins bins each, over ±kHistSigmas expected standard deviations: [-4√d_k, 4√d_k] and [-4, 4].
  // Each range follows the theory, not the data, so the axes stay put when the seed changes; both
  // histograms therefore have the same shape and differ only in their axis: that IS the lesson (the raw
  // axis grows with √d_k, the scaled one does not). The bin count is odd so that 0 is a bin centre.
  Histogram hist_raw, hist_scaled;
  // part 2: d_k = 1, 2, 4, …, 1024 (kSweepPoints points)
  std::vector<ScalingSweepPoint> sweep;
  int sweep_queries = 0;  // softmax rows averaged per sweep point (whole blocks of n_keys queries)
  double max_entropy = 0;  // ln(n_keys): the entropy of a uniform softmax (the upper bound)
};

// Histogram and sweep constants.
constexpr int kHistBins = 41;
constexpr double kHistSigmas = 4.0;
constexpr int kSweepPoints = 11;                 // d = 2^0 … 2^10
constexpr int kSweepMaxDk = 1 << (kSweepPoints - 1);  // 1024
constexpr int kSweepQueriesPerSample = 16;       // sweep target: samples / 16 queries, clamped to 16 … 256
constexpr int kSweepMinQueries = 16;
constexpr int kSweepMaxQueries = 256;

// Draw order (the specification a test re-derives; all normals are stored as float, like every Mat):
//   Normals come in pairs from a stream of SeededRng(seed, stream) by Marsaglia's polar method:
//   u = 2·uniform01() − 1, v = 2·uniform01() − 1, s = u² + v², redrawn while s >= 1; then u·f and v·f with
//   f = √(−2 ln s / s), in that order; an unused last value is dropped.
//   part 1: stream kScalingStreamQ gives q_0[0 … d_k-1], q_1[…], …; stream kScalingStreamK gives the k_s.
//   part 2: block b = 0 … blocks-1: stream kScalingStreamSweepQ + b gives Q_b row by row (1024 per row),
//           stream kScalingStreamSweepK + b gives K_b. blocks = max(1, ⌊target / n_keys + ½⌋),
//           target = clamp(samples / 16, 16, 256), sweep_queries = blocks · n_keys.
constexpr uint64_t kScalingStreamQ = 0x5CA1E00000000001ull;
constexpr uint64_t kScalingStreamK = 0x5CA1E00000000002ull;
constexpr uint64_t kScalingStreamSweepQ = 0x5CA1E10000000000ull;
constexpr uint64_t kScalingStreamSweepK = 0x5CA1E20000000000ull;

// Validates p (d_k 1 … 1024, samples 10 … 100000, n_keys 2 … 256, samples · d_k ≤ kMaxWork), then fills
// *out. On error *out is left untouched.
Status compute_scaling(const ScalingParams& p, ScalingResult* out);

}  // namespace ap
