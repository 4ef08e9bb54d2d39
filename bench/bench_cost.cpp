// Cost scene kernels (core/kernels.h), native speed: attention naive and tiled at n = 64 … 4096, d = 64, and the
// Elman and GRU recurrences over the same n with hidden = input = 64 and 256, each on the scalar and the SIMD
// path. MAC/s = the kernel's multiply-adds (kernel_macs) per second.
#include <benchmark/benchmark.h>

#include <cmath>
#include <vector>

#include "core/embedding.h"
#include "core/kernels.h"

namespace {

std::vector<float> seeded(long long count, uint64_t stream, double scale = 1.0) {
  ap::SeededRng rng(2024, stream);
  std::vector<float> v(static_cast<size_t>(count));
  for (float& x : v) x = static_cast<float>((2.0 * rng.uniform01() - 1.0) * scale);
  return v;
}

ap::KernelImpl impl_of(const benchmark::State& state) {
  return state.range(1) ? ap::KernelImpl::Simd : ap::KernelImpl::Scalar;
}

void set_counters(benchmark::State& state, ap::KernelKind kind, long long n, long long d, long long hidden) {
  state.counters["MAC/s"] = benchmark::Counter(static_cast<double>(ap::kernel_macs(kind, n, d, hidden)),
                                               benchmark::Counter::kIsIterationInvariantRate);
  state.counters["MB"] = static_cast<double>(ap::kernel_memory(kind, n, d, hidden).total()) / 1048576.0;
  state.SetComplexityN(n);
}

void BM_AttentionNaive(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0)), d = 64;
  const std::vector<float> Q = seeded(1LL * n * d, 1), K = seeded(1LL * n * d, 2), V = seeded(1LL * n * d, 3);
  std::vector<float> out(static_cast<size_t>(n) * d), ws(static_cast<size_t>(ap::attention_naive_workspace_floats(n, n)));
  for (auto _ : state) {
    ap::Status s = ap::attention_forward(Q.data(), K.data(), V.data(), n, d, out.data(), ws.data(), ws.size(),
                                         impl_of(state));
    benchmark::DoNotOptimize(s.ok);
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  set_counters(state, ap::KernelKind::AttentionNaive, n, d, 0);
}

void BM_AttentionTiled(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0)), d = 64;
  const std::vector<float> Q = seeded(1LL * n * d, 1), K = seeded(1LL * n * d, 2), V = seeded(1LL * n * d, 3);
  const ap::TileSizes tile;  // 64 keys × 16 queries
  std::vector<float> out(static_cast<size_t>(n) * d), ws(static_cast<size_t>(ap::attention_tiled_workspace_floats(tile)));
  for (auto _ : state) {
    ap::Status s = ap::attention_tiled(Q.data(), K.data(), V.data(), n, d, tile, out.data(), ws.data(), ws.size(),
                                       impl_of(state));
    benchmark::DoNotOptimize(s.ok);
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  set_counters(state, ap::KernelKind::AttentionTiled, n, d, 0);
}

// range(0) = n, range(1) = SIMD?, range(2) = hidden (= input width)
void BM_Elman(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0)), h = static_cast<int>(state.range(2)), d = h;
  const double w = 1.0 / std::sqrt(static_cast<double>(d + h));
  const std::vector<float> X = seeded(1LL * n * d, 4), Wx = seeded(1LL * h * d, 5, w), Wh = seeded(1LL * h * h, 6, w),
                           b = seeded(h, 7, 0.1);
  std::vector<float> H(static_cast<size_t>(n) * h);
  ap::ElmanWeights weights;
  weights.Wx = Wx.data();
  weights.Wh = Wh.data();
  weights.b = b.data();
  for (auto _ : state) {
    ap::Status s = ap::elman_forward(weights, X.data(), n, d, h, nullptr, H.data(), impl_of(state));
    benchmark::DoNotOptimize(s.ok);
    benchmark::DoNotOptimize(H.data());
    benchmark::ClobberMemory();
  }
  set_counters(state, ap::KernelKind::Elman, n, d, h);
}

void BM_Gru(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0)), h = static_cast<int>(state.range(2)), d = h;
  const double w = 1.0 / std::sqrt(static_cast<double>(d + h));
  const std::vector<float> X = seeded(1LL * n * d, 8), Wx = seeded(3LL * h * d, 9, w), Wh = seeded(3LL * h * h, 10, w),
                           bx = seeded(3LL * h, 11, 0.1), bh = seeded(3LL * h, 12, 0.1);
  std::vector<float> H(static_cast<size_t>(n) * h);
  ap::GruWeights weights;
  weights.Wx = Wx.data();
  weights.Wh = Wh.data();
  weights.bx = bx.data();
  weights.bh = bh.data();
  for (auto _ : state) {
    ap::Status s = ap::gru_forward(weights, X.data(), n, d, h, nullptr, H.data(), impl_of(state));
    benchmark::DoNotOptimize(s.ok);
    benchmark::DoNotOptimize(H.data());
    benchmark::ClobberMemory();
  }
  set_counters(state, ap::KernelKind::Gru, n, d, h);
}

void attention_args(benchmark::internal::Benchmark* b) {
  b->ArgNames({"n", "simd"});
  for (int simd : {0, 1})
    for (int n = 64; n <= 4096; n *= 2) b->Args({n, simd});
}

void rnn_args(benchmark::internal::Benchmark* b) {
  b->ArgNames({"n", "simd", "hidden"});
  for (int hidden : {64, 256})
    for (int simd : {0, 1})
      for (int n = 64; n <= 4096; n *= 2) b->Args({n, simd, hidden});
}

BENCHMARK(BM_AttentionNaive)->Apply(attention_args)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_AttentionTiled)->Apply(attention_args)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Elman)->Apply(rnn_args)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Gru)->Apply(rnn_args)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
