#include "scaling.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "embedding.h"
#include "matrix.h"

namespace ap {

namespace {

// N(0, 1) draws from one SeededRng stream, made in pairs by Marsaglia's polar method:
//   u = 2·uniform01() − 1,  v = 2·uniform01() − 1,  s = u² + v²;  draw again while s >= 1;
//   then u·f and v·f, f = √(−2 ln s / s), are two independent N(0, 1) values (first u·f, then v·f).
// Why not SeededRng::gaussian(): Box–Muller spends a log, a sqrt and a cosine on ONE value (it drops the
// sine). The draws are the dominant cost here; the polar method needs one log, one sqrt and one division
// per TWO values and no trigonometry (about 21% of (u, v) pairs fall outside the unit disc and are drawn
// again), which measured 2× faster than Box–Muller pairs. s is never 0: uniform01() is (k + ½)/2^53, so
// u and v are odd multiples of 2^-53, never 0, and the log is finite.
struct NormalStream {
  SeededRng rng;
  double spare = 0.0;
  bool has_spare = false;
  NormalStream(uint64_t seed, uint64_t stream) : rng(seed, stream) {}
  float next() {
    if (has_spare) {
      has_spare = false;
      return static_cast<float>(spare);
    }
    double u, v, s;
    do {
      u = 2.0 * rng.uniform01() - 1.0;
      v = 2.0 * rng.uniform01() - 1.0;
      s = u * u + v * v;
    } while (s >= 1.0);
    const double f = std::sqrt(-2.0 * std::log(s) / s);
    spare = v * f;
    has_spare = true;
    return static_cast<float>(u * f);
  }
};

// Sample mean and variance with n - 1 (two passes: the second sums squared deviations from the mean,
// which cannot cancel catastrophically the way Σx² − n·mean² can).
void mean_var(const std::vector<float>& x, double* mean, double* var) {
  double s = 0.0;
  for (float v : x) s += v;
  const double m = s / static_cast<double>(x.size());
  double s2 = 0.0;
  for (float v : x) s2 += (v - m) * (v - m);
  *mean = m;
  *var = x.size() > 1 ? s2 / static_cast<double>(x.size() - 1) : 0.0;
}

Histogram make_histogram(const std::vector<float>& x, double half_width) {
  Histogram h;
  h.lo = -half_width;
  h.hi = half_width;
  h.counts.assign(kHistBins, 0);
  const double inv_w = kHistBins / (h.hi - h.lo);
  for (float v : x) {
    // floor((v - lo) / w), then clip into [0, bins - 1]: v = hi lands in the last bin, outliers in the end bins
    int j = static_cast<int>(std::floor((v - h.lo) * inv_w));
    if (v < h.lo) ++h.under;
    if (v > h.hi) ++h.over;
    j = std::min(std::max(j, 0), kHistBins - 1);
    ++h.counts[j];
  }
  return h;
}

// Largest weight and entropy (nats) of softmax(z), in double, for z = row · scale.
//   m = max z,  e_j = exp(z_j - m) (≤ 1, the largest is exactly 1),  sum = Σ e_j  (≥ 1)
//   largest weight = 1 / sum                        (the max entry's e is exp(0) = 1)
//   entropy        = -Σ w_j ln w_j = ln(sum) - Σ e_j (z_j - m) / sum
// Why this form: ln w_j = (z_j - m) - ln(sum) is computed without ever taking the log of a weight, so an
// e_j that underflows to 0 (raw scores at d_k = 1024 differ by hundreds) contributes 0 · finite = 0: the
// convention 0 · ln 0 = 0 holds by construction, with no log(0) = -inf and no 0 · inf = NaN.
void softmax_stats(const float* row, int n, double scale, double* max_w, double* entropy) {
  double m = -HUGE_VAL;
  for (int j = 0; j < n; ++j) m = std::max(m, row[j] * scale);
  double sum = 0.0, ez = 0.0;
  for (int j = 0; j < n; ++j) {
    const double d = row[j] * scale - m;  // ≤ 0: exp cannot overflow
    const double e = std::exp(d);
    sum += e;
    ez += e * d;
  }
  *max_w = 1.0 / sum;
  // Rounding can leave the entropy a few ulps outside its exact range [0, ln n] (one-hot or uniform rows);
  // clamp so that the scene's "fraction of the maximum" never reads -0.0000 or 1.0000001.
  *entropy = std::min(std::max(std::log(sum) - ez / sum, 0.0), std::log(static_cast<double>(n)));
}

Status check_params(const ScalingParams& p) {
  using namespace scaling_limits;
  if (p.d_k < 1 || p.d_k > kMaxDk)
    return Status::Error("d_k must be between {0} and {1}, got {2}", {arg(1), arg(kMaxDk), arg(p.d_k)});
  if (p.samples < kMinSamples || p.samples > kMaxSamples)
    return Status::Error("the number of samples must be between {0} and {1}, got {2}",
                         {arg(kMinSamples), arg(kMaxSamples), arg(p.samples)});
  if (p.n_keys < kMinKeys || p.n_keys > kMaxKeys)
    return Status::Error("the number of keys must be between {0} and {1}, got {2}",
                         {arg(kMinKeys), arg(kMaxKeys), arg(p.n_keys)});
  const long long work = static_cast<long long>(p.samples) * p.d_k;
  if (work > kMaxWork)
    return Status::Error("samples × d_k = {0} × {1} = {2} is more than the limit of {3}; lower the samples or d_k",
                         {arg(p.samples), arg(p.d_k), arg(work), arg(kMaxWork)});
  return Status::Ok();
}

}  // namespace

Status compute_scaling(const ScalingParams& p, ScalingResult* out) {
  // 0) validate (before any work, so a refused call costs nothing and leaves *out as it was)
  AP_TRY(check_params(p));
  ScalingResult r;
  const double sqrt_dk = std::sqrt(static_cast<double>(p.d_k));

  // 1) the dots: x_s = q_s · k_s, one fresh q and k per sample.                          d_k · d_k -> 1
  //    Entries are float (as in every Mat); the sum of products is accumulated in double, then stored
  //    as float: the stored value is the exact dot of the float vectors, rounded once.
  {
    NormalStream gq(p.seed, kScalingStreamQ), gk(p.seed, kScalingStreamK);
    std::vector<float> q(p.d_k), k(p.d_k);
    r.dots_raw.resize(p.samples);
    r.dots_scaled.resize(p.samples);
    for (int s = 0; s < p.samples; ++s) {
      for (int c = 0; c < p.d_k; ++c) q[c] = gq.next();
      for (int c = 0; c < p.d_k; ++c) k[c] = gk.next();
      double dot = 0.0;
      for (int c = 0; c < p.d_k; ++c) dot += static_cast<double>(q[c]) * k[c];
      r.dots_raw[s] = static_cast<float>(dot);
      r.dots_scaled[s] = static_cast<float>(dot / sqrt_dk);  // from the double dot: one rounding, not two
    }
  }

  // 2) their mean and variance (expected 0 and d_k raw, 0 and 1 scaled), computed from the stored floats
  //    so they describe exactly the values the scene plots
  mean_var(r.dots_raw, &r.mean_raw, &r.var_raw);
  mean_var(r.dots_scaled, &r.mean_scaled, &r.var_scaled);

  // 3) histograms over ±4 expected standard deviations (√d_k raw, 1 scaled); see ScalingResult
  r.hist_raw = make_histogram(r.dots_raw, kHistSigmas * sqrt_dk);
  r.hist_scaled = make_histogram(r.dots_scaled, kHistSigmas);

  // 4) the sweep. Each block: Q_b, K_b with n_keys rows of 1024 entries; the scores at d are the dots of
  //    the first d entries. Why prefixes: one draw of 1024-long vectors serves all 11 values of d
  //    (S at 2d = S at d + the products of entries d … 2d-1), so the sweep costs what d = 1024 alone costs,
  //    and neighbouring points share their draws, which keeps the curves smooth rather than noisy.
  //    Why n_keys queries per block (the keys shared by the block's queries): draws then grow with the
  //    number of queries, 2 · 1024 per query, instead of (1 + n_keys) · 1024 for a fresh key set each.
  //    Each row is still exactly "one N(0,1) query against n_keys N(0,1) keys"; rows of a block are
  //    dependent through the shared keys, which only widens the error bars a little (see the tests).
  const int n = p.n_keys;
  const int target = std::min(std::max(p.samples / kSweepQueriesPerSample, kSweepMinQueries), kSweepMaxQueries);
  const int blocks = std::max(1, (target + n / 2) / n);  // nearest whole number of blocks
  r.sweep_queries = blocks * n;
  r.max_entropy = std::log(static_cast<double>(n));

  double sum_raw[kSweepPoints] = {}, sq_raw[kSweepPoints] = {}, sq_scaled[kSweepPoints] = {};
  double sum_scaled[kSweepPoints] = {}, mw_raw[kSweepPoints] = {}, mw_scaled[kSweepPoints] = {};
  double h_raw[kSweepPoints] = {}, h_scaled[kSweepPoints] = {};
  Mat Q(n, kSweepMaxDk), K(n, kSweepMaxDk), S(n, n);
  for (int b = 0; b < blocks; ++b) {
    NormalStream gq(p.seed, kScalingStreamSweepQ + static_cast<uint64_t>(b));
    NormalStream gk(p.seed, kScalingStreamSweepK + static_cast<uint64_t>(b));
    for (int i = 0; i < n; ++i)
      for (int c = 0; c < kSweepMaxDk; ++c) Q(i, c) = gq.next();
    for (int i = 0; i < n; ++i)
      for (int c = 0; c < kSweepMaxDk; ++c) K(i, c) = gk.next();
    S.setZero();
    int done = 0;  // entries already summed into S
    for (int pt = 0; pt < kSweepPoints; ++pt) {
      const int d = 1 << pt;
      // 4a) S += Q[:, done:d] · K[:, done:d]ᵀ                         n × (d-done) · (d-done) × n -> n × n
      S.noalias() += Q.middleCols(done, d - done) * K.middleCols(done, d - done).transpose();
      done = d;
      // 4b) per query (row): largest weight and entropy of softmax(S row) and softmax(S row / √d)
      const double inv_sqrt_d = 1.0 / std::sqrt(static_cast<double>(d));
      for (int i = 0; i < n; ++i) {
        const float* row = S.data() + static_cast<Eigen::Index>(i) * n;  // row-major: row i is contiguous
        double w, h;
        softmax_stats(row, n, 1.0, &w, &h);
        mw_raw[pt] += w;
        h_raw[pt] += h;
        softmax_stats(row, n, inv_sqrt_d, &w, &h);
        mw_scaled[pt] += w;
        h_scaled[pt] += h;
        // 4c) sums for the variances. One pass (Σx, Σx²) because the values arrive block by block; safe
        //     here because the mean is ≈ 0 next to the spread, so Σx² − N·mean² cancels nothing.
        for (int j = 0; j < n; ++j) {
          const double x = row[j], xs = x * inv_sqrt_d;
          sum_raw[pt] += x;
          sq_raw[pt] += x * x;
          sum_scaled[pt] += xs;
          sq_scaled[pt] += xs * xs;
        }
      }
    }
  }
  // 5) averages over the sweep_queries rows (and variances over their sweep_queries · n_keys scores)
  const double rows = r.sweep_queries, cnt = static_cast<double>(r.sweep_queries) * n;
  r.sweep.resize(kSweepPoints);
  for (int pt = 0; pt < kSweepPoints; ++pt) {
    ScalingSweepPoint& sp = r.sweep[pt];
    sp.d_k = 1 << pt;
    sp.var_raw = (sq_raw[pt] - sum_raw[pt] * sum_raw[pt] / cnt) / (cnt - 1.0);
    sp.var_scaled = (sq_scaled[pt] - sum_scaled[pt] * sum_scaled[pt] / cnt) / (cnt - 1.0);
    sp.max_weight_raw = mw_raw[pt] / rows;
    sp.max_weight_scaled = mw_scaled[pt] / rows;
    sp.entropy_raw = h_raw[pt] / rows;
    sp.entropy_scaled = h_scaled[pt] / rows;
  }

  *out = std::move(r);
  return Status::Ok();
}

}  // namespace ap
