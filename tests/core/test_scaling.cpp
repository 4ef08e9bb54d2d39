// Unit tests for compute_scaling (core/scaling.h), the numbers behind the "Why √d_k" scene: comparison with a
// naive double-precision reference, the statistics the lesson claims (var q·k ≈ d_k, var q·k/√d_k ≈ 1,
// unscaled softmax saturates, scaled does not), histogram bookkeeping, determinism and validation.
//
// The reference re-derives the random draws from the specification in scaling.h ("Draw order"): SeededRng
// streams, polar-method pairs, float storage. That shared specification is the only thing it takes from the
// core; it is checked on its own for giving standard normal values. Everything downstream is recomputed
// here with plain loops in double and a different structure: the draws of a stream are made in one go and
// sliced, each sweep point's scores are summed from scratch (no prefix reuse, no Eigen), the softmax is the
// textbook one with 0·ln 0 = 0 written out, histogram bins are found by comparing with the bin edges rather
// than by floor().
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <limits>
#include <string>
#include <vector>

#include "core/embedding.h"
#include "core/scaling.h"
#include "reference.h"

namespace ap {
namespace AP_UNITY_ID {  // this file's own namespace in a unity build (CMakeLists.txt, AP_UNITY)

// ---- the reference -------------------------------------------------------------------------------------------

// `count` N(0, 1) draws of stream (seed, stream), as the scaling.h draw order specifies (polar method),
// stored as float.
std::vector<float> ref_normals(uint64_t seed, uint64_t stream, size_t count) {
  SeededRng rng(seed, stream);
  std::vector<float> v;
  v.reserve(count + 1);
  while (v.size() < count) {
    const double u = 2.0 * rng.uniform01() - 1.0, w = 2.0 * rng.uniform01() - 1.0;
    const double s = u * u + w * w;
    if (s >= 1.0) continue;  // outside the unit disc: draw again
    const double f = std::sqrt(-2.0 * std::log(s) / s);
    v.push_back(static_cast<float>(u * f));
    v.push_back(static_cast<float>(w * f));
  }
  v.resize(count);  // an unused last value is dropped
  return v;
}

struct RefSweepPoint {
  double var_raw, var_scaled, max_weight_raw, max_weight_scaled, entropy_raw, entropy_scaled;
};

struct RefScaling {
  std::vector<double> dots;  // exact dots of the float vectors, in double
  double mean_raw, var_raw, mean_scaled, var_scaled;
  std::vector<int> hist_raw, hist_scaled;
  int under_raw = 0, over_raw = 0, under_scaled = 0, over_scaled = 0;
  int sweep_queries = 0;
  std::vector<RefSweepPoint> sweep;
};

void ref_mean_var(const std::vector<double>& x, double* mean, double* var) {
  double s = 0.0;
  for (double v : x) s += v;
  *mean = s / x.size();
  double s2 = 0.0;
  for (double v : x) s2 += (v - *mean) * (v - *mean);
  *var = s2 / (x.size() - 1);
}

// Bin j holds lo + j·w <= x < lo + (j+1)·w; outside [lo, hi] goes to the end bins and is counted.
std::vector<int> ref_histogram(const std::vector<float>& x, double lo, double hi, int bins, int* under, int* over) {
  std::vector<int> c(bins, 0);
  const double w = (hi - lo) / bins;
  for (float v : x) {
    if (v < lo) {
      ++c[0];
      ++*under;
      continue;
    }
    if (v > hi) {
      ++c[bins - 1];
      ++*over;
      continue;
    }
    int j = 0;
    while (j + 1 < bins && lo + (j + 1) * w <= v) ++j;
    ++c[j];
  }
  return c;
}

// Largest weight and entropy of the textbook softmax, 0·ln 0 taken as 0.
void ref_softmax(const std::vector<double>& z, double* max_w, double* entropy) {
  double mx = z[0];
  for (double v : z) mx = std::max(mx, v);
  std::vector<double> w(z.size());
  double sum = 0.0;
  for (size_t j = 0; j < z.size(); ++j) sum += w[j] = std::exp(z[j] - mx);
  *max_w = 0.0;
  *entropy = 0.0;
  for (double& v : w) {
    v /= sum;
    *max_w = std::max(*max_w, v);
    if (v > 0.0) *entropy -= v * std::log(v);
  }
}

RefScaling ref_scaling(const ScalingParams& p) {
  RefScaling r;
  const int d = p.d_k, N = p.samples;
  // part 1: all q entries from one stream, all k entries from the other, sliced per sample
  const std::vector<float> qs = ref_normals(p.seed, kScalingStreamQ, static_cast<size_t>(N) * d);
  const std::vector<float> ks = ref_normals(p.seed, kScalingStreamK, static_cast<size_t>(N) * d);
  std::vector<double> scaled(N);
  std::vector<float> raw_f(N), scaled_f(N);
  r.dots.resize(N);
  for (int s = 0; s < N; ++s) {
    double dot = 0.0;
    const size_t at = static_cast<size_t>(s) * d;
    for (int c = 0; c < d; ++c) dot += static_cast<double>(qs[at + c]) * ks[at + c];
    r.dots[s] = dot;
    scaled[s] = dot / std::sqrt(static_cast<double>(d));
    raw_f[s] = static_cast<float>(dot);
    scaled_f[s] = static_cast<float>(scaled[s]);
  }
  ref_mean_var(r.dots, &r.mean_raw, &r.var_raw);
  ref_mean_var(scaled, &r.mean_scaled, &r.var_scaled);
  const double half = 4.0 * std::sqrt(static_cast<double>(d));
  r.hist_raw = ref_histogram(raw_f, -half, half, 41, &r.under_raw, &r.over_raw);
  r.hist_scaled = ref_histogram(scaled_f, -4.0, 4.0, 41, &r.under_scaled, &r.over_scaled);

  // part 2: blocks of n queries against n keys, every d summed from scratch
  const int n = p.n_keys;
  const int target = std::min(std::max(p.samples / 16, 16), 256);
  const int blocks = std::max(1, static_cast<int>(std::floor(static_cast<double>(target) / n + 0.5)));
  r.sweep_queries = blocks * n;
  std::vector<std::vector<double>> raw_scores(11), scaled_scores(11);
  std::vector<RefSweepPoint> acc(11, RefSweepPoint{0, 0, 0, 0, 0, 0});
  for (int b = 0; b < blocks; ++b) {
    const std::vector<float> Q = ref_normals(p.seed, kScalingStreamSweepQ + b, static_cast<size_t>(n) * 1024);
    const std::vector<float> K = ref_normals(p.seed, kScalingStreamSweepK + b, static_cast<size_t>(n) * 1024);
    for (int pt = 0; pt < 11; ++pt) {
      const int dd = 1 << pt;
      for (int i = 0; i < n; ++i) {
        std::vector<double> z(n), zs(n);
        for (int j = 0; j < n; ++j) {
          double s = 0.0;
          const size_t qi = static_cast<size_t>(i) * 1024, kj = static_cast<size_t>(j) * 1024;
          for (int c = 0; c < dd; ++c) s += static_cast<double>(Q[qi + c]) * K[kj + c];
          z[j] = s;
          zs[j] = s / std::sqrt(static_cast<double>(dd));
          raw_scores[pt].push_back(z[j]);
          scaled_scores[pt].push_back(zs[j]);
        }
        double w, h;
        ref_softmax(z, &w, &h);
        acc[pt].max_weight_raw += w;
        acc[pt].entropy_raw += h;
        ref_softmax(zs, &w, &h);
        acc[pt].max_weight_scaled += w;
        acc[pt].entropy_scaled += h;
      }
    }
  }
  for (int pt = 0; pt < 11; ++pt) {
    RefSweepPoint sp = acc[pt];
    for (double* v : {&sp.max_weight_raw, &sp.entropy_raw, &sp.max_weight_scaled, &sp.entropy_scaled})
      *v /= r.sweep_queries;
    double mean;
    ref_mean_var(raw_scores[pt], &mean, &sp.var_raw);
    ref_mean_var(scaled_scores[pt], &mean, &sp.var_scaled);
    r.sweep.push_back(sp);
  }
  return r;
}

// The draw specification the reference shares with the core does give N(0, 1) values: over 2^20 draws the
// mean (SE 1e-3), the variance (SE 1.4e-3), the fourth moment (3, SE 9e-3) and P(|x| < 1) = 0.682689
// (SE 4.5e-4) are each within 5 standard errors, and the stream is different for a different seed/stream.
TEST(CoreScalingReference, DrawsAreStandardNormal) {
  const size_t N = 1 << 20;
  const std::vector<float> v = ref_normals(77, kScalingStreamQ, N);
  double s1 = 0, s2 = 0, s4 = 0, inside = 0;
  for (float x : v) {
    s1 += x;
    s2 += static_cast<double>(x) * x;
    s4 += static_cast<double>(x) * x * x * x;
    inside += std::fabs(x) < 1.0f;
  }
  std::printf("    2^20 draws: mean %.5f, E x² %.5f, E x⁴ %.4f, P(|x| < 1) %.5f\n", s1 / N, s2 / N, s4 / N,
              inside / N);
  EXPECT_NEAR(s1 / N, 0.0, 5 * 1e-3);
  EXPECT_NEAR(s2 / N, 1.0, 5 * 1.4e-3);
  EXPECT_NEAR(s4 / N, 3.0, 5 * 9.2e-3);  // Var(x⁴) = E x⁸ − 9 = 96
  EXPECT_NEAR(inside / N, 0.682689, 5 * 4.6e-4);
  EXPECT_NE(ref_normals(77, kScalingStreamK, 8), ref_normals(77, kScalingStreamQ, 8));
  EXPECT_NE(ref_normals(78, kScalingStreamQ, 8), ref_normals(77, kScalingStreamQ, 8));
  // an odd count is the even count with its last value dropped
  const std::vector<float> odd = ref_normals(77, kScalingStreamQ, 1001);
  EXPECT_EQ(odd, std::vector<float>(v.begin(), v.begin() + 1001));
}

// ---- comparison with the reference ---------------------------------------------------------------------------

struct Case {
  const char* name;
  ScalingParams p;
};

class CoreScalingVsReference : public ::testing::TestWithParam<Case> {};

TEST_P(CoreScalingVsReference, EveryOutputMatches) {
  const ScalingParams p = GetParam().p;
  ScalingResult got;
  ASSERT_TRUE(compute_scaling(p, &got).ok);
  const RefScaling want = ref_scaling(p);
  const std::string tag = GetParam().name;

  // dots: same float inputs, both summed in double; the core's float is the double rounded once
  ASSERT_EQ(got.dots_raw.size(), static_cast<size_t>(p.samples));
  ASSERT_EQ(got.dots_scaled.size(), static_cast<size_t>(p.samples));
  const double sq = std::sqrt(static_cast<double>(p.d_k));
  double worst_raw = 0.0, worst_scaled = 0.0;
  for (int s = 0; s < p.samples; ++s) {
    worst_raw = std::max(worst_raw, std::fabs(got.dots_raw[s] - want.dots[s]) / std::max(1.0, std::fabs(want.dots[s])));
    worst_scaled = std::max(worst_scaled, std::fabs(got.dots_scaled[s] - want.dots[s] / sq) /
                                              std::max(1.0, std::fabs(want.dots[s] / sq)));
  }
  // float rounding of one value: relative 2^-24 ≈ 6e-8
  EXPECT_LE(ref::report(tag + " dots_raw (relative)", worst_raw), 1e-7);
  EXPECT_LE(ref::report(tag + " dots_scaled (relative)", worst_scaled), 1e-7);

  // mean and variance: the core's come from the rounded floats, the reference's from the doubles;
  // rounding each value by ≤ 6e-8 relative moves them by about as much
  const double tol_m = 1e-6 * std::sqrt(want.var_raw);
  EXPECT_LE(ref::report(tag + " mean_raw", std::fabs(got.mean_raw - want.mean_raw)), tol_m);
  EXPECT_LE(ref::report(tag + " var_raw (relative)", std::fabs(got.var_raw / want.var_raw - 1.0)), 1e-6);
  EXPECT_LE(ref::report(tag + " mean_scaled", std::fabs(got.mean_scaled - want.mean_scaled)), 1e-6);
  EXPECT_LE(ref::report(tag + " var_scaled (relative)", std::fabs(got.var_scaled / want.var_scaled - 1.0)), 1e-6);

  // histograms: exact. The edges lo + j·w are rationals with denominator 41 times √d_k; a float lies far
  // (relative ~1e-8) from any of them compared with double rounding (1e-16), so floor() and comparison agree.
  EXPECT_EQ(got.hist_raw.counts, want.hist_raw);
  EXPECT_EQ(got.hist_scaled.counts, want.hist_scaled);
  EXPECT_EQ(got.hist_raw.under, want.under_raw);
  EXPECT_EQ(got.hist_raw.over, want.over_raw);
  EXPECT_EQ(got.hist_scaled.under, want.under_scaled);
  EXPECT_EQ(got.hist_scaled.over, want.over_scaled);
  EXPECT_DOUBLE_EQ(got.hist_raw.hi, 4.0 * sq);
  EXPECT_DOUBLE_EQ(got.hist_raw.lo, -4.0 * sq);
  EXPECT_DOUBLE_EQ(got.hist_scaled.hi, 4.0);
  EXPECT_DOUBLE_EQ(got.hist_scaled.lo, -4.0);

  // sweep. The core sums scores in float (Eigen, by chunks of d); the reference in double. A raw score at
  // d = 1024 (|S| up to ~120) is then off by ≲ 1e-4; a softmax weight moves by at most 1/4 of a score
  // change (|∂w_i/∂z_j| ≤ 1/4), the entropy by at most ~ln n times the largest score change.
  EXPECT_EQ(got.sweep_queries, want.sweep_queries);
  ASSERT_EQ(got.sweep.size(), static_cast<size_t>(kSweepPoints));
  EXPECT_DOUBLE_EQ(got.max_entropy, std::log(static_cast<double>(p.n_keys)));
  double d_var = 0.0, d_w = 0.0, d_h = 0.0;
  for (int pt = 0; pt < kSweepPoints; ++pt) {
    const ScalingSweepPoint& g = got.sweep[pt];
    const RefSweepPoint& w = want.sweep[pt];
    EXPECT_EQ(g.d_k, 1 << pt);
    d_var = std::max({d_var, std::fabs(g.var_raw / w.var_raw - 1.0), std::fabs(g.var_scaled / w.var_scaled - 1.0)});
    d_w = std::max({d_w, std::fabs(g.max_weight_raw - w.max_weight_raw),
                    std::fabs(g.max_weight_scaled - w.max_weight_scaled)});
    d_h = std::max({d_h, std::fabs(g.entropy_raw - w.entropy_raw), std::fabs(g.entropy_scaled - w.entropy_scaled)});
  }
  EXPECT_LE(ref::report(tag + " sweep variances (relative)", d_var), 1e-6);
  EXPECT_LE(ref::report(tag + " sweep mean max weight", d_w), 1e-5);
  EXPECT_LE(ref::report(tag + " sweep mean entropy", d_h), 1e-5);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, CoreScalingVsReference,
    ::testing::Values(Case{"Defaults", ScalingParams{}},                 // 64, 4000, 16, seed 1
                      Case{"Dk1", ScalingParams{1, 4000, 16, 7}},        // heavy tails: clipped outliers
                      Case{"Dk1024AtWorkLimit", ScalingParams{1024, 1024, 16, 3}},
                      Case{"TwoKeys", ScalingParams{16, 500, 2, 11}},
                      Case{"SevenKeysOddDk", ScalingParams{33, 3001, 7, 5}},
                      Case{"MaxKeysMinSamples", ScalingParams{8, 10, 256, 9}},
                      Case{"MaxSamples", ScalingParams{10, 100000, 5, 12}}),
    [](const ::testing::TestParamInfo<Case>& info) { return std::string(info.param.name); });

// ---- the statistics the lesson claims -----------------------------------------------------------------------

// For q, k with independent N(0, 1) entries, x = q·k: given q, x ~ N(0, |q|²), so E x = 0, E x² = d and
// E x⁴ = 3 E|q|⁴ = 3(d² + 2d): Var(x²) = 2d² + 6d. Over N independent dots the sample variance then has
// standard error d·√((2 + 6/d) / N) and the mean √(d / N). We allow 5 standard errors (a false alarm is a
// ~1e-6 event, and with fixed seeds the outcome is reproducible anyway).
struct StatCase {
  int d_k;
  uint64_t seed;
};

class CoreScalingStatistics : public ::testing::TestWithParam<StatCase> {};

TEST_P(CoreScalingStatistics, VarianceIsDkRawAndOneScaled) {
  const StatCase c = GetParam();
  ScalingParams p;
  p.d_k = c.d_k;
  p.samples = static_cast<int>(std::min<long long>(scaling_limits::kMaxSamples, scaling_limits::kMaxWork / c.d_k));
  p.seed = c.seed;
  ScalingResult r;
  ASSERT_TRUE(compute_scaling(p, &r).ok);
  const double d = c.d_k, N = p.samples;
  const double se_rel = std::sqrt((2.0 + 6.0 / d) / N);  // of var / d
  std::printf("    d_k = %4d, %6d samples: mean %8.4f var %9.3f (var/d_k %.4f, 5 SE = %.4f); scaled var %.4f\n",
              c.d_k, p.samples, r.mean_raw, r.var_raw, r.var_raw / d, 5 * se_rel, r.var_scaled);
  EXPECT_NEAR(r.mean_raw, 0.0, 5.0 * std::sqrt(d / N));
  EXPECT_NEAR(r.var_raw / d, 1.0, 5.0 * se_rel);
  EXPECT_NEAR(r.mean_scaled, 0.0, 5.0 * std::sqrt(1.0 / N));
  EXPECT_NEAR(r.var_scaled, 1.0, 5.0 * se_rel);

  // The sweep's scores: N = sweep_queries · n_keys values, but those in one row share a query and those in
  // one column share a key. Two such values x, y have Cov(x², y²) = E|q|⁴ − d² = 2d (uncorrelated, yet
  // dependent), each value has 2(n−1) such partners, so Var(s²) ≈ (2d² + 6d + 4d(n−1)) / N.
  const double n = p.n_keys, Ns = static_cast<double>(r.sweep_queries) * p.n_keys;
  for (const ScalingSweepPoint& sp : r.sweep) {
    const double dd = sp.d_k;
    const double se = std::sqrt((2.0 + (6.0 + 4.0 * (n - 1.0)) / dd) / Ns);
    EXPECT_NEAR(sp.var_raw / dd, 1.0, 5.0 * se) << "sweep d = " << sp.d_k;
    EXPECT_NEAR(sp.var_scaled, 1.0, 5.0 * se) << "sweep d = " << sp.d_k;
  }
}

INSTANTIATE_TEST_SUITE_P(Dims, CoreScalingStatistics,
                         ::testing::Values(StatCase{1, 1}, StatCase{1, 2}, StatCase{2, 1}, StatCase{16, 1},
                                           StatCase{16, 2}, StatCase{64, 1}, StatCase{64, 2}, StatCase{64, 3},
                                           StatCase{256, 1}, StatCase{1024, 1}, StatCase{1024, 2}),
                         [](const ::testing::TestParamInfo<StatCase>& info) {
                           return "Dk" + std::to_string(info.param.d_k) + "Seed" + std::to_string(info.param.seed);
                         });

// Unscaled, the scores' spread grows like √d, so softmax over n keys tends to one-hot: the largest weight
// → 1 and the entropy → 0. Scaled, the spread is 1 at every d: the softmax sees the same kind of scores
// (a product of two normals at d = 1, tending to a normal), so both stay roughly where they are.
// Thresholds: from the measured curves (printed) with wide margins; the claims are about direction and size.
struct SatCase {
  int n_keys;
  uint64_t seed;
};

class CoreScalingSaturation : public ::testing::TestWithParam<SatCase> {};

TEST_P(CoreScalingSaturation, RawSaturatesScaledStaysSoft) {
  ScalingParams p;
  p.n_keys = GetParam().n_keys;
  p.seed = GetParam().seed;
  p.d_k = 8;  // part 1 is not what this test is about: keep it cheap
  ScalingResult r;
  ASSERT_TRUE(compute_scaling(p, &r).ok);
  const double n = p.n_keys, Hmax = std::log(n);
  EXPECT_DOUBLE_EQ(r.max_entropy, Hmax);
  for (const ScalingSweepPoint& sp : r.sweep) {
    std::printf("    n = %3d  d = %4d: max weight raw %.3f scaled %.3f | entropy raw %.3f scaled %.3f (ln n %.3f)\n",
                p.n_keys, sp.d_k, sp.max_weight_raw, sp.max_weight_scaled, sp.entropy_raw, sp.entropy_scaled, Hmax);
    // bounds that hold for every softmax: 1/n <= largest weight <= 1, 0 <= entropy <= ln n
    for (double w : {sp.max_weight_raw, sp.max_weight_scaled}) {
      EXPECT_GE(w, 1.0 / n);
      EXPECT_LE(w, 1.0);
    }
    for (double h : {sp.entropy_raw, sp.entropy_scaled}) {
      EXPECT_GE(h, 0.0);
      EXPECT_LE(h, Hmax);
    }
  }
  const ScalingSweepPoint &first = r.sweep.front(), &last = r.sweep.back();
  // at d = 1, √d = 1: raw and scaled are the same computation
  EXPECT_EQ(first.max_weight_raw, first.max_weight_scaled);
  EXPECT_EQ(first.entropy_raw, first.entropy_scaled);
  // raw: grows toward one-hot, step by step (allowing a little noise between neighbouring points)
  for (int pt = 1; pt < kSweepPoints; ++pt) {
    EXPECT_GE(r.sweep[pt].max_weight_raw, r.sweep[pt - 1].max_weight_raw - 0.02) << r.sweep[pt].d_k;
    EXPECT_LE(r.sweep[pt].entropy_raw, r.sweep[pt - 1].entropy_raw + 0.02 * Hmax) << r.sweep[pt].d_k;
  }
  EXPECT_GT(last.max_weight_raw, 0.85);
  EXPECT_LT(last.entropy_raw, 0.2 * Hmax);
  // scaled: flat. Every point within 0.1 of the d = 1024 value, and far from one-hot
  for (const ScalingSweepPoint& sp : r.sweep) {
    EXPECT_NEAR(sp.max_weight_scaled, last.max_weight_scaled, 0.1) << sp.d_k;
    EXPECT_NEAR(sp.entropy_scaled, last.entropy_scaled, 0.1 * Hmax) << sp.d_k;
  }
  EXPECT_LT(last.max_weight_scaled, last.max_weight_raw - 0.2);
  EXPECT_GT(last.entropy_scaled, 0.5 * Hmax);
}

INSTANTIATE_TEST_SUITE_P(Keys, CoreScalingSaturation,
                         ::testing::Values(SatCase{2, 1}, SatCase{16, 1}, SatCase{16, 2}, SatCase{64, 1},
                                           SatCase{256, 1}),
                         [](const ::testing::TestParamInfo<SatCase>& info) {
                           return "Keys" + std::to_string(info.param.n_keys) + "Seed" + std::to_string(info.param.seed);
                         });

// ---- histograms ----------------------------------------------------------------------------------------------

TEST(CoreScaling, HistogramsCountEverySampleAndClipOutliers) {
  for (int d_k : {1, 3, 64, 1024}) {
    ScalingParams p;
    p.d_k = d_k;
    p.samples = d_k == 1024 ? 1024 : 4000;
    p.seed = 21;
    ScalingResult r;
    ASSERT_TRUE(compute_scaling(p, &r).ok);
    for (const Histogram* h : {&r.hist_raw, &r.hist_scaled}) {
      ASSERT_EQ(h->counts.size(), static_cast<size_t>(kHistBins));
      long long total = 0;
      for (int c : h->counts) total += c;
      EXPECT_EQ(total, p.samples) << d_k;  // outliers are clipped into the end bins, never dropped
      EXPECT_GE(h->counts.front(), h->under);
      EXPECT_GE(h->counts.back(), h->over);
      EXPECT_DOUBLE_EQ(h->lo, -h->hi);
    }
    // The scaled histogram is the raw one with its axis divided by √d_k: the same counts, except that
    // rounding to float can move a value sitting on a bin edge to the neighbouring bin.
    int moved = 0;
    for (int j = 0; j < kHistBins; ++j) moved += std::abs(r.hist_raw.counts[j] - r.hist_scaled.counts[j]);
    EXPECT_LE(moved, 2) << d_k;
    // Outliers beyond 4 standard deviations: at d_k = 1, q·k is a product of two normals, heavy-tailed:
    // P(|x| > 4) ≈ 0.65 %, so about 26 of 4000 are expected (none is a ~1e-11 event).
    const int out = r.hist_scaled.under + r.hist_scaled.over;
    std::printf("    d_k = %4d: %d of %d dots beyond ±4 SD, clipped into the end bins\n", d_k, out, p.samples);
    if (d_k == 1) {
      EXPECT_GT(out, 5);
    }
  }
}

// ---- determinism ---------------------------------------------------------------------------------------------

bool same(const ScalingResult& a, const ScalingResult& b) {
  if (a.dots_raw != b.dots_raw || a.dots_scaled != b.dots_scaled) return false;
  if (a.mean_raw != b.mean_raw || a.var_raw != b.var_raw || a.mean_scaled != b.mean_scaled ||
      a.var_scaled != b.var_scaled)
    return false;
  if (a.hist_raw.counts != b.hist_raw.counts || a.hist_scaled.counts != b.hist_scaled.counts) return false;
  if (a.sweep_queries != b.sweep_queries || a.max_entropy != b.max_entropy || a.sweep.size() != b.sweep.size())
    return false;
  for (size_t i = 0; i < a.sweep.size(); ++i) {
    const ScalingSweepPoint &x = a.sweep[i], &y = b.sweep[i];
    if (x.d_k != y.d_k || x.var_raw != y.var_raw || x.var_scaled != y.var_scaled ||
        x.max_weight_raw != y.max_weight_raw || x.max_weight_scaled != y.max_weight_scaled ||
        x.entropy_raw != y.entropy_raw || x.entropy_scaled != y.entropy_scaled)
      return false;
  }
  return true;
}

TEST(CoreScaling, SameSeedSameResultsBitForBit) {
  const ScalingParams p{48, 2000, 12, 123456789};
  ScalingResult a, b;
  ASSERT_TRUE(compute_scaling(p, &a).ok);
  ASSERT_TRUE(compute_scaling(p, &b).ok);
  EXPECT_TRUE(same(a, b));
}

TEST(CoreScaling, DifferentSeedsDifferentDraws) {
  ScalingParams p{48, 2000, 12, 1};
  ScalingResult a, b;
  ASSERT_TRUE(compute_scaling(p, &a).ok);
  p.seed = 2;
  ASSERT_TRUE(compute_scaling(p, &b).ok);
  int equal = 0;
  for (int s = 0; s < p.samples; ++s) equal += a.dots_raw[s] == b.dots_raw[s];
  EXPECT_LE(equal, 2);  // continuous values: a coincidence is essentially impossible
  EXPECT_NE(a.var_raw, b.var_raw);
  EXPECT_NE(a.sweep[5].max_weight_raw, b.sweep[5].max_weight_raw);
  EXPECT_NE(a.sweep[5].entropy_scaled, b.sweep[5].entropy_scaled);
  // and the streams are distinct: q's draws are not k's (else every dot at d_k = 1 would be a square ≥ 0)
  p.d_k = 1;
  ASSERT_TRUE(compute_scaling(p, &a).ok);
  int negative = 0;
  for (float x : a.dots_raw) negative += x < 0;
  EXPECT_GT(negative, p.samples / 4);
}

// ---- limits and validation -----------------------------------------------------------------------------------

ScalingResult sentinel_result() {
  ScalingResult r;
  r.dots_raw = {42.f};
  r.mean_raw = -7.0;
  r.var_scaled = -8.0;
  r.hist_raw.counts = {1, 2, 3};
  r.sweep_queries = -9;
  r.max_entropy = -10.0;
  r.sweep.resize(2);
  return r;
}

void expect_sentinel(const ScalingResult& r) {
  EXPECT_EQ(r.dots_raw, std::vector<float>{42.f});
  EXPECT_TRUE(r.dots_scaled.empty());
  EXPECT_EQ(r.mean_raw, -7.0);
  EXPECT_EQ(r.var_scaled, -8.0);
  EXPECT_EQ(r.hist_raw.counts, (std::vector<int>{1, 2, 3}));
  EXPECT_EQ(r.sweep_queries, -9);
  EXPECT_EQ(r.max_entropy, -10.0);
  EXPECT_EQ(r.sweep.size(), 2u);
}

struct BadCase {
  const char* name;
  ScalingParams p;
  const char* code;     // the template expected
  const char* mention;  // a piece of the English message
};

constexpr const char* kDkTmpl = "d_k must be between {0} and {1}, got {2}";
constexpr const char* kSamplesTmpl = "the number of samples must be between {0} and {1}, got {2}";
constexpr const char* kKeysTmpl = "the number of keys must be between {0} and {1}, got {2}";
constexpr const char* kWorkTmpl =
    "samples × d_k = {0} × {1} = {2} is more than the limit of {3}; lower the samples or d_k";

class CoreScalingValidation : public ::testing::TestWithParam<BadCase> {};

TEST_P(CoreScalingValidation, RefusedWithTemplateAndOutputUntouched) {
  const BadCase c = GetParam();
  ScalingResult r = sentinel_result();
  const Status s = compute_scaling(c.p, &r);
  EXPECT_FALSE(s.ok);
  ASSERT_NE(s.code, nullptr);
  EXPECT_STREQ(s.code, c.code);
  EXPECT_NE(s.message.find(c.mention), std::string::npos) << s.message;
  EXPECT_EQ(s.message.find('{'), std::string::npos) << "unfilled placeholder: " << s.message;
  std::printf("    %-18s -> %s\n", c.name, s.message.c_str());
  expect_sentinel(r);
}

INSTANTIATE_TEST_SUITE_P(
    Bad, CoreScalingValidation,
    ::testing::Values(
        BadCase{"DkZero", {0, 4000, 16, 1}, kDkTmpl, "got 0"},
        BadCase{"DkNegative", {-5, 4000, 16, 1}, kDkTmpl, "got -5"},
        BadCase{"DkTooLarge", {1025, 100, 16, 1}, kDkTmpl, "between 1 and 1024, got 1025"},
        BadCase{"DkIntMax", {std::numeric_limits<int>::max(), 100, 16, 1}, kDkTmpl, "got 2147483647"},
        BadCase{"SamplesZero", {64, 0, 16, 1}, kSamplesTmpl, "got 0"},
        BadCase{"SamplesNegative", {64, -1, 16, 1}, kSamplesTmpl, "got -1"},
        BadCase{"SamplesBelowMin", {64, 9, 16, 1}, kSamplesTmpl, "between 10 and 100000, got 9"},
        BadCase{"SamplesTooLarge", {1, 100001, 16, 1}, kSamplesTmpl, "got 100001"},
        BadCase{"SamplesIntMin", {1, std::numeric_limits<int>::min(), 16, 1}, kSamplesTmpl, "got -2147483648"},
        BadCase{"KeysZero", {64, 4000, 0, 1}, kKeysTmpl, "got 0"},
        BadCase{"KeysOne", {64, 4000, 1, 1}, kKeysTmpl, "between 2 and 256, got 1"},
        BadCase{"KeysNegative", {64, 4000, -16, 1}, kKeysTmpl, "got -16"},
        BadCase{"KeysTooLarge", {64, 4000, 257, 1}, kKeysTmpl, "got 257"},
        BadCase{"WorkTooLarge", {1024, 1025, 16, 1}, kWorkTmpl, "1025 × 1024 = 1049600"},
        BadCase{"WorkAtMaxParams", {1024, 100000, 256, 1}, kWorkTmpl, "limit of 1048576"}),
    [](const ::testing::TestParamInfo<BadCase>& info) { return std::string(info.param.name); });

TEST(CoreScalingValidation, AcceptsEveryLimitItself) {
  for (const ScalingParams& p : {ScalingParams{1, 10, 2, 0}, ScalingParams{1024, 1024, 256, 1},
                                 ScalingParams{10, 100000, 16, 2}, ScalingParams{1, 100000, 256, 3},
                                 ScalingParams{64, 4000, 16, ~0ull}}) {
    ScalingResult r;
    const Status s = compute_scaling(p, &r);
    EXPECT_TRUE(s.ok) << p.d_k << " " << p.samples << " " << p.n_keys << ": " << s.message;
    EXPECT_EQ(r.dots_raw.size(), static_cast<size_t>(p.samples));
    EXPECT_EQ(r.sweep.size(), static_cast<size_t>(kSweepPoints));
    EXPECT_GE(r.sweep_queries, p.n_keys);
    for (const ScalingSweepPoint& sp : r.sweep)
      for (double v :
           {sp.var_raw, sp.var_scaled, sp.max_weight_raw, sp.max_weight_scaled, sp.entropy_raw, sp.entropy_scaled})
        EXPECT_TRUE(std::isfinite(v));
  }
}

// ---- cost ----------------------------------------------------------------------------------------------------

// Prints the time of one call at the defaults (best of 3), wall clock and process CPU time (std::clock: on
// a busy machine the wall time includes waiting for a core), the figures scaling.h budgets. Not asserted:
// they depend on the machine, the build type and what else runs.
TEST(CoreScalingTiming, DefaultsPrintTime) {
  ScalingResult r;
  double wall = 1e30, cpu = 1e30;
  for (int i = 0; i < 3; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    const std::clock_t c0 = std::clock();
    ASSERT_TRUE(compute_scaling(ScalingParams{}, &r).ok);
    cpu = std::min(cpu, 1000.0 * static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC);
    wall = std::min(wall, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  std::printf("    compute_scaling at the defaults (d_k 64, 4000 samples, 16 keys, %d sweep queries): "
              "%.2f ms wall, %.2f ms CPU\n", r.sweep_queries, wall, cpu);
  ::testing::Test::RecordProperty("defaults_ms_wall", std::to_string(wall));
  ::testing::Test::RecordProperty("defaults_ms_cpu", std::to_string(cpu));
}

}  // namespace
}  // namespace ap
