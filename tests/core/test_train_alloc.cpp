// The training engine's promises about memory and reproducibility: a step allocates nothing after the first
// (the activations live in the arena), and the same recipe gives bitwise the same weights.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "core/embedding.h"
#include "core/train/coref.h"
#include "core/train/model.h"

// Counting heap allocations: with glibc, the executable's own malloc takes precedence over libc's (operator
// new and Eigen's aligned_malloc both end in malloc), so it can count calls made on this thread and hand
// them on to glibc's allocator. Not under AddressSanitizer (it replaces malloc itself) nor in wasm.
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define AP_TRAIN_NO_MALLOC_COUNT 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || !defined(__GLIBC__) || defined(__EMSCRIPTEN__)
#define AP_TRAIN_NO_MALLOC_COUNT 1
#endif

#ifndef AP_TRAIN_NO_MALLOC_COUNT
namespace {
thread_local bool g_counting = false;
thread_local long g_mallocs = 0;
}  // namespace
extern "C" void* __libc_malloc(size_t n);
extern "C" void* malloc(size_t n) {
  if (g_counting) ++g_mallocs;
  return __libc_malloc(n);
}
#endif

namespace ap {
namespace {

using namespace train;

struct Recipe {
  CorefDataset data;
  ModelConfig config;
  AdamConfig adam;
};

Recipe recipe(int layers, int heads, bool layer_norm) {
  Recipe r;
  EXPECT_TRUE(make_coref_dataset(3, &r.data).ok);
  r.config.vocab = r.data.vocab.size();
  r.config.seq_len = r.data.seq_len;
  r.config.d_model = 16;
  r.config.layers = layers;
  r.config.heads = heads;
  r.config.layer_norm = layer_norm;
  r.config.ffn_hidden = layer_norm ? 24 : 0;
  r.config.max_batch = 16;
  r.config.seed = 42;
  r.adam.lr = 1e-2;
  return r;
}

// Trains `steps` steps; batch indices drawn from a seeded generator.
void run(const Recipe& r, int steps, AttentionModel* m, long* mallocs_after_first = nullptr) {
  ASSERT_TRUE(m->init(r.config).ok);
  Adam adam(r.adam);
  SeededRng rng(r.config.seed, 77);
  Batch batch;
  std::vector<int> idx(r.config.max_batch);
  for (int s = 0; s < steps; ++s) {
    for (int& i : idx) i = static_cast<int>(rng.next_u64() % r.data.train.size());
    fill_coref_batch(r.data, r.data.train, idx.data(), r.config.max_batch, &batch);
    double loss = 0;
#ifndef AP_TRAIN_NO_MALLOC_COUNT
    if (s == 1) g_mallocs = 0, g_counting = true;
#endif
    const Status st = m->train_step(batch, adam, &loss);
#ifndef AP_TRAIN_NO_MALLOC_COUNT
    g_counting = false;
#endif
    ASSERT_TRUE(st.ok) << st.message;
    ASSERT_TRUE(std::isfinite(loss));
  }
#ifndef AP_TRAIN_NO_MALLOC_COUNT
  if (mallocs_after_first) *mallocs_after_first = g_mallocs;
#endif
}

TEST(CoreTrainModel, SameRecipeGivesBitwiseSameWeights) {
  for (bool ln : {false, true}) {
    const Recipe r = recipe(2, 2, ln);
    AttentionModel a, b;
    run(r, 60, &a);
    run(r, 60, &b);
    size_t differing = 0, total = 0;
    ASSERT_EQ(a.params().size(), b.params().size());
    for (size_t i = 0; i < a.params().size(); ++i) {
      const Mat& x = a.params()[i].value;
      const Mat& y = b.params()[i].value;
      ASSERT_EQ(x.size(), y.size());
      for (Eigen::Index j = 0; j < x.size(); ++j) differing += std::memcmp(&x.data()[j], &y.data()[j], sizeof(float)) != 0;
      total += x.size();
    }
    // ... and training moved them (so the comparison is not between two untouched initialisations).
    AttentionModel fresh;
    ASSERT_TRUE(fresh.init(r.config).ok);
    const float moved = (a.params()[2].value - fresh.params()[2].value).cwiseAbs().maxCoeff();
    std::printf("    %s: %zu of %zu weights differ bitwise between two runs of 60 steps; %s moved by up to %.3f\n",
                ln ? "pre-LN + FFN" : "plain", differing, total, a.params()[2].name.c_str(), moved);
    EXPECT_EQ(differing, 0u);
    EXPECT_GT(moved, 0.01f);
  }
}

TEST(CoreTrainModel, StepAllocatesNothingAfterTheFirst) {
#ifdef AP_TRAIN_NO_MALLOC_COUNT
  GTEST_SKIP() << "malloc cannot be counted in this build (sanitizer or non-glibc)";
#else
  for (bool ln : {false, true}) {
    const Recipe r = recipe(2, 2, ln);
    AttentionModel m;
    long mallocs = -1;
    run(r, 20, &m, &mallocs);
    // The counter itself works: a vector's buffer is one malloc.
    g_mallocs = 0;
    g_counting = true;
    std::vector<float>* probe = new std::vector<float>(1000);
    g_counting = false;
    const long probe_mallocs = g_mallocs;
    delete probe;
    std::printf("    %s: heap allocations in steps 2-20: %ld (arena: %zu floats of activations, as many of gradients;"
                " a test vector: %ld)\n", ln ? "pre-LN + FFN" : "plain", mallocs, m.activations().floats(),
                probe_mallocs);
    EXPECT_EQ(probe_mallocs, 2);
    EXPECT_EQ(mallocs, 0);
  }
#endif
}

}  // namespace
}  // namespace ap
