// Unit tests for the lean kernels (core/kernels.h), both paths (Scalar and Simd), against plain double loops
// (reference_rnn.h) and the teaching SDPA, with fixed seeds. Each comparison prints its largest difference.
//
// Tolerances (absolute; inputs in [-1, 1] unless stated, float accumulation over d or d + hidden terms):
//   attention output vs double reference    2e-5   (V in [-3, 3]; the fast exp adds <= 4e-7 relative per weight)
//   tiled vs naive, same path               2e-6   (different summation order and rescaling only)
//   Elman / GRU vs double reference          5e-6   (over up to 40 steps; tanh/σ of the SIMD path <= 2e-7)
//   row ranges and unit ranges               exact  (same operations per row / per unit)
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "core/attention.h"
#include "core/kernels.h"
#include "reference.h"
#include "reference_rnn.h"

namespace ap {
namespace AP_UNITY_ID {  // this file's own namespace in a unity build (CMakeLists.txt, AP_UNITY)

constexpr float kSentinel = 12345.0f;

std::string impl_tag(KernelImpl impl) { return impl == KernelImpl::Simd ? "Simd" : "Scalar"; }

bool all_finite(const std::vector<float>& v) {
  for (float x : v)
    if (!std::isfinite(x)) return false;
  return true;
}

// ---- fast math of the SIMD path ------------------------------------------------------------------------------

TEST(CoreKernels, FastExpRelativeErrorOnADenseGrid) {
  double worst = 0.0;
  std::vector<float> xs;
  for (double x = -87.0; x <= 88.0; x += 1.0 / 4096.0) xs.push_back(static_cast<float>(x));
  for (float x : {0.0f, -0.0f, 1e-8f, -1e-8f, 0.34657359f, -0.34657359f}) xs.push_back(x);
  std::vector<float> ys(xs.size());
  fast_exp_array(xs.data(), ys.data(), xs.size());
  for (size_t i = 0; i < xs.size(); ++i) {
    const double want = std::exp(static_cast<double>(xs[i]));
    worst = std::max(worst, std::fabs(ys[i] - want) / want);
    ASSERT_EQ(ys[i], fast_exp(xs[i])) << "lane result differs from the single-value function at " << xs[i];
  }
  EXPECT_LE(ref::report("fast_exp relative error on [-87, 88]", worst), kFastExpMaxRelError);
  EXPECT_EQ(fast_exp(0.0f), 1.0f);
  // clamped ends: finite, no NaN
  EXPECT_TRUE(std::isfinite(fast_exp(1000.0f)));
  EXPECT_GE(fast_exp(-1000.0f), 0.0f);
  EXPECT_LT(fast_exp(-1000.0f), 1.2e-38f);
  EXPECT_EQ(fast_exp(-std::numeric_limits<float>::infinity()), fast_exp(-1000.0f));
}

TEST(CoreKernels, FastTanhAndSigmoidAbsoluteError) {
  double worst_t = 0.0, worst_s = 0.0;
  std::vector<float> xs;
  for (double x = -12.0; x <= 12.0; x += 1.0 / 8192.0) xs.push_back(static_cast<float>(x));
  for (float x : {0.0f, -0.0f, 0.625f, -0.625f, 0.62499994f, 1e-30f, 40.0f, -40.0f, 200.0f, -200.0f})
    xs.push_back(x);
  std::vector<float> t(xs.size()), s(xs.size());
  fast_tanh_array(xs.data(), t.data(), xs.size());
  fast_sigmoid_array(xs.data(), s.data(), xs.size());
  for (size_t i = 0; i < xs.size(); ++i) {
    const double x = xs[i];
    worst_t = std::max(worst_t, std::fabs(t[i] - std::tanh(x)));
    worst_s = std::max(worst_s, std::fabs(s[i] - 1.0 / (1.0 + std::exp(-x))));
    ASSERT_EQ(t[i], fast_tanh(xs[i])) << xs[i];
    ASSERT_EQ(s[i], fast_sigmoid(xs[i])) << xs[i];
    ASSERT_LE(std::fabs(t[i]), 1.0f);
    ASSERT_GE(s[i], 0.0f);
    ASSERT_LE(s[i], 1.0f);
  }
  EXPECT_LE(ref::report("fast_tanh absolute error on [-12, 12]", worst_t), kFastTanhMaxAbsError);
  EXPECT_LE(ref::report("fast_sigmoid absolute error on [-12, 12]", worst_s), kFastSigmoidMaxAbsError);
  EXPECT_EQ(fast_tanh(0.0f), 0.0f);
  EXPECT_TRUE(std::signbit(fast_tanh(-0.0f)));
  EXPECT_EQ(fast_tanh(50.0f), 1.0f);
  EXPECT_EQ(fast_tanh(-50.0f), -1.0f);
  // relative error stays small near 0 too (the polynomial branch), where 1 − 2/(e^2x + 1) would cancel
  EXPECT_NEAR(fast_tanh(1e-4f) / 1e-4, 1.0, 1e-6);
}

TEST(CoreKernels, SimdBackendIsReported) {
#if defined(__wasm_simd128__)
  EXPECT_TRUE(simd_available());
  EXPECT_STREQ(simd_backend(), "wasm-simd128");
#elif defined(__SSE2__)
  EXPECT_TRUE(simd_available());
  EXPECT_STREQ(simd_backend(), "sse2");
#else
  EXPECT_FALSE(simd_available());
  EXPECT_STREQ(simd_backend(), "none");
#endif
  EXPECT_STREQ(kernel_impl_name(KernelImpl::Scalar), "scalar");
  EXPECT_STREQ(kernel_impl_name(KernelImpl::Simd), "simd");
  EXPECT_STREQ(kernel_kind_name(KernelKind::AttentionTiled), "attention-tiled");
}

// ---- attention against the double reference -------------------------------------------------------------------

struct AttnCase {
  int n, d;
  KernelImpl impl;
  double amplitude;  // Q and K entries in [-amplitude, amplitude]
};

std::string attn_name(const ::testing::TestParamInfo<AttnCase>& info) {
  const AttnCase& c = info.param;
  return "n" + std::to_string(c.n) + "_d" + std::to_string(c.d) + "_" + impl_tag(c.impl) + "_amp" +
         std::to_string(static_cast<int>(c.amplitude));
}

class CoreKernelsAttention : public ::testing::TestWithParam<AttnCase> {};

TEST_P(CoreKernelsAttention, NaiveAndTiledMatchTheDoubleReference) {
  const AttnCase c = GetParam();
  const size_t nd = static_cast<size_t>(c.n) * c.d;
  const uint64_t seed = 7000 + c.n * 13 + c.d;
  const std::vector<float> Q = ref::random_floats(nd, seed, -c.amplitude, c.amplitude);
  const std::vector<float> K = ref::random_floats(nd, seed + 1, -c.amplitude, c.amplitude);
  const std::vector<float> V = ref::random_floats(nd, seed + 2, -3.0, 3.0);
  const ref::DBuf want = ref::attention(Q.data(), K.data(), V.data(), c.n, c.d);

  std::vector<float> out(nd, kSentinel), ws(static_cast<size_t>(attention_naive_workspace_floats(c.n, c.n)));
  const Status s = attention_forward(Q.data(), K.data(), V.data(), c.n, c.d, out.data(), ws.data(), ws.size(), c.impl);
  ASSERT_TRUE(s.ok) << s.message;
  const std::string tag = "n" + std::to_string(c.n) + " d" + std::to_string(c.d) + " " + impl_tag(c.impl) +
                          " amp" + std::to_string(static_cast<int>(c.amplitude));
  EXPECT_LE(ref::report(tag + " naive vs double", ref::max_abs_diff(out.data(), want)), 2e-5);

  TileSizes tile;
  tile.keys = 32;
  tile.queries = 5;
  std::vector<float> out_t(nd, kSentinel), ws_t(static_cast<size_t>(attention_tiled_workspace_floats(tile)));
  ASSERT_TRUE(
      attention_tiled(Q.data(), K.data(), V.data(), c.n, c.d, tile, out_t.data(), ws_t.data(), ws_t.size(), c.impl).ok);
  EXPECT_LE(ref::report(tag + " tiled vs double", ref::max_abs_diff(out_t.data(), want)), 2e-5);
}

INSTANTIATE_TEST_SUITE_P(
    CoreKernels, CoreKernelsAttention,
    ::testing::Values(AttnCase{1, 1, KernelImpl::Scalar, 1}, AttnCase{1, 1, KernelImpl::Simd, 1},
                      AttnCase{2, 3, KernelImpl::Scalar, 1}, AttnCase{2, 3, KernelImpl::Simd, 1},
                      AttnCase{3, 4, KernelImpl::Simd, 1}, AttnCase{7, 5, KernelImpl::Simd, 1},
                      AttnCase{7, 5, KernelImpl::Scalar, 1}, AttnCase{33, 16, KernelImpl::Simd, 1},
                      AttnCase{64, 64, KernelImpl::Scalar, 1}, AttnCase{64, 64, KernelImpl::Simd, 1},
                      AttnCase{100, 67, KernelImpl::Simd, 1}, AttnCase{100, 67, KernelImpl::Scalar, 1},
                      AttnCase{257, 20, KernelImpl::Simd, 1}, AttnCase{129, 64, KernelImpl::Simd, 4},
                      AttnCase{129, 64, KernelImpl::Scalar, 4},
                      // scores up to 30·30·16/4 = 3600: exp without subtracting the row max would overflow
                      AttnCase{40, 16, KernelImpl::Simd, 30}, AttnCase{40, 16, KernelImpl::Scalar, 30}),
    attn_name);

// Same inputs through the teaching SDPA (every intermediate kept, Eigen, double row sums).
TEST(CoreKernels, NaiveEqualsTheTeachingSdpa) {
  const int n = 50, d = 8;
  const Mat Q = ref::random_mat(n, d, 91), K = ref::random_mat(n, d, 92), V = ref::random_mat(n, d, 93);
  AttentionTrace t;
  ASSERT_TRUE(scaled_dot_product_attention(Q, K, V, MaskSpec{}, &t).ok);
  for (KernelImpl impl : {KernelImpl::Scalar, KernelImpl::Simd}) {
    Mat out(n, d);
    std::vector<float> ws(static_cast<size_t>(n) * n);
    ASSERT_TRUE(attention_forward(Q.data(), K.data(), V.data(), n, d, out.data(), ws.data(), ws.size(), impl).ok);
    EXPECT_LE(ref::report("naive " + impl_tag(impl) + " vs teaching SDPA",
                          ref::max_abs_diff(out, ref::from_mat(t.output))),
              1e-5);
  }
}

// ---- tiled == naive for many tile shapes --------------------------------------------------------------------

struct TileCase {
  int n, d, keys, queries;
  KernelImpl impl;
};

std::string tile_name(const ::testing::TestParamInfo<TileCase>& info) {
  const TileCase& c = info.param;
  return "n" + std::to_string(c.n) + "_d" + std::to_string(c.d) + "_k" + std::to_string(c.keys) + "_q" +
         std::to_string(c.queries) + "_" + impl_tag(c.impl);
}

class CoreKernelsTiled : public ::testing::TestWithParam<TileCase> {};

TEST_P(CoreKernelsTiled, EqualsNaive) {
  const TileCase c = GetParam();
  const size_t nd = static_cast<size_t>(c.n) * c.d;
  const uint64_t seed = 500 + c.n + c.keys * 3 + c.queries;
  const std::vector<float> Q = ref::random_floats(nd, seed, -2, 2), K = ref::random_floats(nd, seed + 1, -2, 2),
                           V = ref::random_floats(nd, seed + 2);
  std::vector<float> naive(nd), ws(static_cast<size_t>(c.n) * c.n);
  ASSERT_TRUE(attention_forward(Q.data(), K.data(), V.data(), c.n, c.d, naive.data(), ws.data(), ws.size(), c.impl).ok);
  TileSizes tile{c.keys, c.queries};
  std::vector<float> tiled(nd, kSentinel), ws_t(static_cast<size_t>(attention_tiled_workspace_floats(tile)));
  const Status s =
      attention_tiled(Q.data(), K.data(), V.data(), c.n, c.d, tile, tiled.data(), ws_t.data(), ws_t.size(), c.impl);
  ASSERT_TRUE(s.ok) << s.message;
  EXPECT_TRUE(all_finite(tiled));
  EXPECT_LE(ref::report(tile_name(::testing::TestParamInfo<TileCase>(c, 0)) + " tiled vs naive",
                        ref::max_abs_diff(tiled, naive)),
            2e-6);
}

INSTANTIATE_TEST_SUITE_P(CoreKernels, CoreKernelsTiled,
                         ::testing::Values(TileCase{100, 64, 64, 16, KernelImpl::Simd},   // 100 = 64 + 36
                                           TileCase{100, 64, 64, 16, KernelImpl::Scalar},
                                           TileCase{257, 32, 32, 16, KernelImpl::Simd},   // 257 = 8·32 + 1
                                           TileCase{257, 32, 32, 16, KernelImpl::Scalar},
                                           TileCase{64, 64, 64, 64, KernelImpl::Simd},    // one tile exactly
                                           TileCase{1, 8, 64, 16, KernelImpl::Simd},      // tile larger than n
                                           TileCase{50, 7, 1, 1, KernelImpl::Simd},       // one key at a time
                                           TileCase{50, 7, 1, 1, KernelImpl::Scalar},
                                           TileCase{61, 13, 6, 3, KernelImpl::Simd},      // odd tiles and widths
                                           TileCase{61, 13, 7, 2, KernelImpl::Scalar},
                                           TileCase{300, 64, 128, 7, KernelImpl::Simd},
                                           TileCase{200, 3, 4096, 1024, KernelImpl::Simd}),  // largest tiles
                         tile_name);

// ---- row ranges ----------------------------------------------------------------------------------------------

class CoreKernelsRows : public ::testing::TestWithParam<KernelImpl> {};

TEST_P(CoreKernelsRows, RangesEqualTheMatchingRowsOfTheFullCall) {
  const KernelImpl impl = GetParam();
  const int n = 45, d = 19;
  const size_t nd = static_cast<size_t>(n) * d;
  const std::vector<float> Q = ref::random_floats(nd, 31), K = ref::random_floats(nd, 32), V = ref::random_floats(nd, 33);
  std::vector<float> full(nd), full_t(nd), ws(static_cast<size_t>(n) * n);
  const TileSizes tile{8, 4};
  std::vector<float> ws_t(static_cast<size_t>(attention_tiled_workspace_floats(tile)));
  ASSERT_TRUE(attention_forward(Q.data(), K.data(), V.data(), n, d, full.data(), ws.data(), ws.size(), impl).ok);
  ASSERT_TRUE(attention_tiled(Q.data(), K.data(), V.data(), n, d, tile, full_t.data(), ws_t.data(), ws_t.size(), impl).ok);
  // three "workers" with odd boundaries, and an empty range
  const int cuts[][2] = {{0, 7}, {7, 30}, {30, 45}, {12, 12}};
  std::vector<float> split(nd, kSentinel), split_t(nd, kSentinel);
  for (const auto& cut : cuts) {
    std::vector<float> wsr(static_cast<size_t>(attention_naive_workspace_floats(cut[1] - cut[0], n)) + 1);
    ASSERT_TRUE(attention_forward_rows(Q.data(), K.data(), V.data(), n, d, cut[0], cut[1], split.data(), wsr.data(),
                                       wsr.size(), impl).ok);
    ASSERT_TRUE(attention_tiled_rows(Q.data(), K.data(), V.data(), n, d, cut[0], cut[1], tile, split_t.data(),
                                     ws_t.data(), ws_t.size(), impl).ok);
  }
  EXPECT_EQ(ref::report("naive rows split " + impl_tag(impl) + " vs full", ref::max_abs_diff(split, full)), 0.0);
  EXPECT_EQ(ref::report("tiled rows split " + impl_tag(impl) + " vs full", ref::max_abs_diff(split_t, full_t)), 0.0);

  // one range leaves every other row untouched
  std::vector<float> part(nd, kSentinel);
  std::vector<float> wsr(static_cast<size_t>(5 * n));
  ASSERT_TRUE(attention_forward_rows(Q.data(), K.data(), V.data(), n, d, 20, 25, part.data(), wsr.data(), wsr.size(), impl).ok);
  for (int i = 0; i < n; ++i)
    for (int c = 0; c < d; ++c) {
      const size_t k = static_cast<size_t>(i) * d + c;
      if (i >= 20 && i < 25) ASSERT_EQ(part[k], full[k]) << i << "," << c;
      else ASSERT_EQ(part[k], kSentinel) << i << "," << c;
    }
}

INSTANTIATE_TEST_SUITE_P(CoreKernels, CoreKernelsRows, ::testing::Values(KernelImpl::Scalar, KernelImpl::Simd),
                         [](const ::testing::TestParamInfo<KernelImpl>& info) { return impl_tag(info.param); });

// ---- recurrent networks ----------------------------------------------------------------------------------------

struct RnnCase {
  int n, d_in, hidden;
  bool with_h0;
  KernelImpl impl;
};

std::string rnn_name(const ::testing::TestParamInfo<RnnCase>& info) {
  const RnnCase& c = info.param;
  return "n" + std::to_string(c.n) + "_in" + std::to_string(c.d_in) + "_h" + std::to_string(c.hidden) +
         (c.with_h0 ? "_h0" : "_zero") + "_" + impl_tag(c.impl);
}

struct RnnData {
  std::vector<float> X, Wx, Wh, bx, bh, h0;
  RnnData(const RnnCase& c, int gates, uint64_t seed) {
    const double ws = 1.5 / std::sqrt(static_cast<double>(c.d_in + c.hidden));
    X = ref::random_floats(static_cast<size_t>(c.n) * c.d_in, seed);
    Wx = ref::random_floats(static_cast<size_t>(gates) * c.hidden * c.d_in, seed + 1, -ws, ws);
    Wh = ref::random_floats(static_cast<size_t>(gates) * c.hidden * c.hidden, seed + 2, -ws, ws);
    bx = ref::random_floats(static_cast<size_t>(gates) * c.hidden, seed + 3, -0.5, 0.5);
    bh = ref::random_floats(static_cast<size_t>(gates) * c.hidden, seed + 4, -0.5, 0.5);
    h0 = ref::random_floats(static_cast<size_t>(c.hidden), seed + 5, -0.9, 0.9);
  }
};

class CoreKernelsRnn : public ::testing::TestWithParam<RnnCase> {};

TEST_P(CoreKernelsRnn, ElmanMatchesTheDoubleReference) {
  const RnnCase c = GetParam();
  const RnnData in(c, 1, 300 + c.n + c.hidden);
  ElmanWeights w;
  w.Wx = in.Wx.data();
  w.Wh = in.Wh.data();
  w.b = in.bx.data();
  const float* h0 = c.with_h0 ? in.h0.data() : nullptr;
  std::vector<float> H(static_cast<size_t>(c.n) * c.hidden, kSentinel);
  const Status s = elman_forward(w, in.X.data(), c.n, c.d_in, c.hidden, h0, H.data(), c.impl);
  ASSERT_TRUE(s.ok) << s.message;
  const ref::DBuf want = ref::elman(w.Wx, w.Wh, w.b, in.X.data(), c.n, c.d_in, c.hidden, h0);
  EXPECT_LE(ref::report("elman " + rnn_name(::testing::TestParamInfo<RnnCase>(c, 0)),
                        ref::max_abs_diff(H.data(), want)),
            5e-6);
}

TEST_P(CoreKernelsRnn, GruMatchesTheDoubleReference) {
  const RnnCase c = GetParam();
  const RnnData in(c, 3, 900 + c.n + c.hidden);
  GruWeights w;
  w.Wx = in.Wx.data();
  w.Wh = in.Wh.data();
  w.bx = in.bx.data();
  w.bh = in.bh.data();
  const float* h0 = c.with_h0 ? in.h0.data() : nullptr;
  std::vector<float> H(static_cast<size_t>(c.n) * c.hidden, kSentinel);
  const Status s = gru_forward(w, in.X.data(), c.n, c.d_in, c.hidden, h0, H.data(), c.impl);
  ASSERT_TRUE(s.ok) << s.message;
  const ref::DBuf want = ref::gru(w.Wx, w.Wh, w.bx, w.bh, in.X.data(), c.n, c.d_in, c.hidden, h0);
  EXPECT_LE(ref::report("gru " + rnn_name(::testing::TestParamInfo<RnnCase>(c, 0)), ref::max_abs_diff(H.data(), want)),
            5e-6);
}

// Units split over "workers" at odd boundaries give exactly the full step, for every step of a sequence.
TEST_P(CoreKernelsRnn, GruUnitRangesEqualTheMatchingUnits) {
  const RnnCase c = GetParam();
  const RnnData in(c, 3, 1700 + c.n + c.hidden);
  GruWeights w;
  w.Wx = in.Wx.data();
  w.Wh = in.Wh.data();
  w.bx = in.bx.data();
  w.bh = in.bh.data();
  const float* h0 = c.with_h0 ? in.h0.data() : nullptr;
  std::vector<float> H(static_cast<size_t>(c.n) * c.hidden);
  ASSERT_TRUE(gru_forward(w, in.X.data(), c.n, c.d_in, c.hidden, h0, H.data(), c.impl).ok);
  // four "workers": [0, 1), [1, h/3), [h/3, 2h/3 + 1), [2h/3 + 1, h), clamped (some may be empty)
  std::vector<int> bounds = {0, 1, c.hidden / 3, 2 * c.hidden / 3 + 1, c.hidden};
  for (int& b : bounds) b = std::min(b, c.hidden);
  std::sort(bounds.begin(), bounds.end());
  std::vector<float> prev(h0 ? in.h0 : std::vector<float>()), next(static_cast<size_t>(c.hidden));
  double worst = 0.0;
  for (int t = 0; t < c.n; ++t) {
    std::fill(next.begin(), next.end(), kSentinel);
    for (int b = 0; b + 1 < 5; ++b) {
      const Status s = gru_step_units(w, c.d_in, c.hidden, in.X.data() + static_cast<size_t>(t) * c.d_in,
                                      prev.empty() ? nullptr : prev.data(), bounds[b], bounds[b + 1], next.data(), c.impl);
      ASSERT_TRUE(s.ok) << s.message;
    }
    const std::vector<float> row(H.begin() + static_cast<long>(t) * c.hidden, H.begin() + static_cast<long>(t + 1) * c.hidden);
    worst = std::max(worst, ref::max_abs_diff(next, row));
    prev = next;
  }
  EXPECT_EQ(ref::report("gru unit split " + rnn_name(::testing::TestParamInfo<RnnCase>(c, 0)), worst), 0.0);
}

INSTANTIATE_TEST_SUITE_P(CoreKernels, CoreKernelsRnn,
                         ::testing::Values(RnnCase{1, 1, 1, false, KernelImpl::Scalar},
                                           RnnCase{1, 1, 1, true, KernelImpl::Simd},
                                           RnnCase{12, 8, 8, false, KernelImpl::Scalar},
                                           RnnCase{12, 8, 8, false, KernelImpl::Simd},
                                           RnnCase{20, 5, 11, true, KernelImpl::Simd},   // hidden ≠ input, odd
                                           RnnCase{20, 5, 11, true, KernelImpl::Scalar},
                                           RnnCase{9, 17, 6, true, KernelImpl::Simd},
                                           RnnCase{40, 64, 64, true, KernelImpl::Simd},
                                           RnnCase{40, 64, 64, false, KernelImpl::Scalar},
                                           RnnCase{6, 32, 130, true, KernelImpl::Simd}),
                         rnn_name);

// ---- memory and work -----------------------------------------------------------------------------------------

TEST(CoreKernels, MemoryAndMultiplyAddsHandValues) {
  // naive n = 1024, d = 64: Q,K,V 3·1024·64·4 = 786,432; out 262,144; scores 1024²·4 = 4,194,304
  KernelMemory m = kernel_memory(KernelKind::AttentionNaive, 1024, 64);
  EXPECT_EQ(m.inputs, 786432);
  EXPECT_EQ(m.outputs, 262144);
  EXPECT_EQ(m.weights, 0);
  EXPECT_EQ(m.workspace, 4194304);
  EXPECT_EQ(m.workspace, score_matrix_bytes(1024));
  EXPECT_EQ(m.total(), 5242880);
  // tiled, default tiles 64 keys × 16 queries: 16·(64 + 3)·4 = 4,288 bytes whatever n is
  m = kernel_memory(KernelKind::AttentionTiled, 1024, 64);
  EXPECT_EQ(m.workspace, 4288);
  EXPECT_EQ(kernel_memory(KernelKind::AttentionTiled, 1048576, 64).workspace, 4288);
  EXPECT_EQ(attention_tiled_workspace_floats(TileSizes{10, 3}), 39);
  EXPECT_EQ(attention_naive_workspace_floats(5, 1000), 5000);
  // Elman n = 10, d = 3, hidden 5: X 120; weights (15 + 25 + 5)·4 = 180; H 200
  m = kernel_memory(KernelKind::Elman, 10, 3, 5);
  EXPECT_EQ(m.inputs, 120);
  EXPECT_EQ(m.weights, 180);
  EXPECT_EQ(m.outputs, 200);
  EXPECT_EQ(m.workspace, 0);
  // GRU: weights (45 + 75 + 30)·4 = 600
  EXPECT_EQ(kernel_memory(KernelKind::Gru, 10, 3, 5).weights, 600);
  // hidden <= 0 means hidden = d
  EXPECT_EQ(kernel_memory(KernelKind::Elman, 10, 4, 0).weights, (16 + 16 + 4) * 4);

  EXPECT_EQ(kernel_macs(KernelKind::AttentionNaive, 1024, 64), 134217728);
  EXPECT_EQ(kernel_macs(KernelKind::AttentionTiled, 1024, 64), 134217728);
  EXPECT_EQ(kernel_macs(KernelKind::Elman, 1024, 64), 8388608);
  EXPECT_EQ(kernel_macs(KernelKind::Elman, 10, 3, 5), 400);
  EXPECT_EQ(kernel_macs(KernelKind::Gru, 10, 3, 5), 1200);
  EXPECT_EQ(kernel_macs(KernelKind::Gru, 1024, 256, 256), gru_macs(1024, 256, 256));
}

// ---- validation ----------------------------------------------------------------------------------------------

TEST(CoreKernels, AttentionRefusesBadArgumentsAndWritesNothing) {
  const int n = 6, d = 4;
  const std::vector<float> Q = ref::random_floats(n * d, 1), K = ref::random_floats(n * d, 2), V = ref::random_floats(n * d, 3);
  std::vector<float> out(n * d, kSentinel), ws(n * n);
  struct Bad {
    Status s;
    const char* code;
    const char* message;
  };
  const TileSizes tile{4, 2};
  const Bad bad[] = {
      {attention_forward(Q.data(), K.data(), V.data(), 0, d, out.data(), ws.data(), ws.size(), KernelImpl::Simd),
       "{0} must be between 1 and {1}, got {2}", "n (tokens) must be between 1 and 1048576, got 0"},
      {attention_forward(Q.data(), K.data(), V.data(), n, 5000, out.data(), ws.data(), ws.size(), KernelImpl::Simd),
       "{0} must be between 1 and {1}, got {2}", "d (width) must be between 1 and 4096, got 5000"},
      {attention_forward(nullptr, K.data(), V.data(), n, d, out.data(), ws.data(), ws.size(), KernelImpl::Simd),
       "{0} is a null pointer", "Q is a null pointer"},
      {attention_forward(Q.data(), K.data(), V.data(), n, d, out.data(), nullptr, 0, KernelImpl::Scalar),
       "{0} is a null pointer", "workspace is a null pointer"},
      {attention_forward(Q.data(), K.data(), V.data(), n, d, out.data(), ws.data(), 35, KernelImpl::Simd),
       "the workspace holds {0} floats; this kernel needs {1}", "the workspace holds 35 floats; this kernel needs 36"},
      {attention_forward_rows(Q.data(), K.data(), V.data(), n, d, 4, 2, out.data(), ws.data(), ws.size(),
                              KernelImpl::Simd),
       "query rows [{0}, {1}) are not a range within the {2} queries",
       "query rows [4, 2) are not a range within the 6 queries"},
      {attention_forward_rows(Q.data(), K.data(), V.data(), n, d, 3, 7, out.data(), ws.data(), ws.size(),
                              KernelImpl::Simd),
       "query rows [{0}, {1}) are not a range within the {2} queries",
       "query rows [3, 7) are not a range within the 6 queries"},
      {attention_tiled(Q.data(), K.data(), V.data(), n, d, TileSizes{0, 2}, out.data(), ws.data(), ws.size(),
                       KernelImpl::Simd),
       "{0} must be between 1 and {1}, got {2}", "key tile must be between 1 and 4096, got 0"},
      {attention_tiled(Q.data(), K.data(), V.data(), n, d, TileSizes{4, 2000}, out.data(), ws.data(), ws.size(),
                       KernelImpl::Simd),
       "{0} must be between 1 and {1}, got {2}", "query tile must be between 1 and 1024, got 2000"},
      {attention_tiled(Q.data(), K.data(), V.data(), n, d, tile, out.data(), ws.data(), 13, KernelImpl::Simd),
       "the workspace holds {0} floats; this kernel needs {1}", "the workspace holds 13 floats; this kernel needs 14"},
      {attention_tiled_rows(Q.data(), K.data(), V.data(), n, d, -1, 2, tile, out.data(), ws.data(), ws.size(),
                            KernelImpl::Simd),
       "query rows [{0}, {1}) are not a range within the {2} queries",
       "query rows [-1, 2) are not a range within the 6 queries"},
  };
  for (const Bad& b : bad) {
    EXPECT_FALSE(b.s.ok) << b.message;
    EXPECT_STREQ(b.s.code, b.code);
    EXPECT_EQ(b.s.message, b.message);
  }
  for (float v : out) ASSERT_EQ(v, kSentinel);
}

TEST(CoreKernels, RnnRefusesBadArguments) {
  const std::vector<float> X = ref::random_floats(12, 1), W = ref::random_floats(3 * 4 * 4, 2), b = ref::random_floats(12, 3);
  std::vector<float> H(12, kSentinel), h(4, 0.5f), hn(4, kSentinel);
  ElmanWeights e;
  e.Wx = W.data();
  e.Wh = W.data();
  e.b = b.data();
  GruWeights g;
  g.Wx = W.data();
  g.Wh = W.data();
  g.bx = b.data();
  g.bh = b.data();
  EXPECT_EQ(elman_forward(e, X.data(), 3, 4, 0, nullptr, H.data(), KernelImpl::Simd).message,
            "hidden size must be between 1 and 4096, got 0");
  EXPECT_EQ(elman_forward(e, X.data(), 3, 4097, 4, nullptr, H.data(), KernelImpl::Simd).message,
            "d (input width) must be between 1 and 4096, got 4097");
  ElmanWeights e_bad = e;
  e_bad.b = nullptr;
  EXPECT_EQ(elman_forward(e_bad, X.data(), 3, 4, 4, nullptr, H.data(), KernelImpl::Simd).message, "b is a null pointer");
  EXPECT_EQ(gru_forward(g, nullptr, 3, 4, 4, nullptr, H.data(), KernelImpl::Scalar).message, "X is a null pointer");
  GruWeights g_bad = g;
  g_bad.Wh = nullptr;
  EXPECT_EQ(gru_forward(g_bad, X.data(), 3, 4, 4, nullptr, H.data(), KernelImpl::Scalar).message, "W_h is a null pointer");
  EXPECT_EQ(gru_step_units(g, 4, 4, X.data(), h.data(), 3, 5, hn.data(), KernelImpl::Simd).message,
            "hidden units [3, 5) are not a range within the 4 units");
  EXPECT_EQ(gru_step_units(g, 4, 4, X.data(), h.data(), 2, 1, hn.data(), KernelImpl::Simd).message,
            "hidden units [2, 1) are not a range within the 4 units");
  const Status same = gru_step_units(g, 4, 4, X.data(), h.data(), 0, 4, h.data(), KernelImpl::Simd);
  EXPECT_STREQ(same.code, "{0} must not be the same array as {1}");
  EXPECT_EQ(same.message, "h_next must not be the same array as h_prev");
  for (float v : H) ASSERT_EQ(v, kSentinel);
  for (float v : hn) ASSERT_EQ(v, kSentinel);
  EXPECT_EQ(h[0], 0.5f);
  // an empty unit range is allowed and writes nothing
  EXPECT_TRUE(gru_step_units(g, 4, 4, X.data(), h.data(), 2, 2, hn.data(), KernelImpl::Simd).ok);
  for (float v : hn) ASSERT_EQ(v, kSentinel);
}

}  // namespace
}  // namespace ap
