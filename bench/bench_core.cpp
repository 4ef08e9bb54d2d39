// Core speed: one head of scaled dot-product attention at several sequence lengths, d_k = 64,
// with every intermediate kept (what the playground computes on each change).
#include <benchmark/benchmark.h>

#include "core/attention.h"
#include "core/embedding.h"
#include "core/sdpa_pipeline.h"

namespace {

void BM_Sdpa(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0)), d = 64;
  const ap::Mat Q = ap::seeded_gaussian(n, d, 1, 1, 1.0), K = ap::seeded_gaussian(n, d, 1, 2, 1.0),
                V = ap::seeded_gaussian(n, d, 1, 3, 1.0);
  ap::MaskSpec mask;
  ap::AttentionTrace t;
  for (auto _ : state) {
    ap::Status s = ap::scaled_dot_product_attention(Q, K, V, mask, &t);
    benchmark::DoNotOptimize(s.ok);
    benchmark::DoNotOptimize(t.output.data());
  }
  state.SetComplexityN(n);
}
BENCHMARK(BM_Sdpa)->Arg(64)->Arg(256)->Arg(512)->Arg(1024)->Unit(benchmark::kMillisecond);

// The whole scene pipeline from a 512-token sentence: tokenize, embed, project, attend.
void BM_Pipeline512(benchmark::State& state) {
  ap::SdpaParams p;
  std::string text;
  for (int i = 0; i < 512; ++i) text += "word" + std::to_string(i % 50) + " ";
  p.text = text;
  p.d_model = 64;
  p.d_k = 64;
  ap::SdpaModel m;
  for (auto _ : state) {
    ap::Status s = ap::build_sdpa(p, &m);
    benchmark::DoNotOptimize(s.ok);
  }
}
BENCHMARK(BM_Pipeline512)->Unit(benchmark::kMillisecond);

}  // namespace


