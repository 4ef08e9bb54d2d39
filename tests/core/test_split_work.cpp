// Unit tests for core/split_work.h: one layer's work split over W workers gives exactly the one-worker output
// (attention by query rows, GRU by hidden units with the slices of h_t exchanged after every step), and that
// output matches the double reference loops (reference_rnn.h). Fixed seeds; each comparison prints its largest
// difference.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/split_work.h"
#include "reference.h"
#include "reference_rnn.h"

namespace ap {
namespace AP_UNITY_ID {  // this file's own namespace in a unity build (CMakeLists.txt, AP_UNITY)

TEST(CoreSplitWork, SplitEvenCoversEveryItemOnceWithSizesDifferingByAtMostOne) {
  for (int count : {1, 2, 7, 64, 1000})
    for (int parts : {1, 2, 3, 8, 2000}) {
      const std::vector<UnitRange> r = split_even(count, parts);
      ASSERT_EQ(static_cast<int>(r.size()), std::min(parts, count)) << count << " over " << parts;
      int at = 0, lo = count, hi = 0;
      for (const UnitRange& u : r) {
        EXPECT_EQ(u.begin, at);
        at = u.end;
        lo = std::min(lo, u.end - u.begin);
        hi = std::max(hi, u.end - u.begin);
      }
      EXPECT_EQ(at, count);
      EXPECT_LE(hi - lo, 1);
      EXPECT_GE(lo, 1);
    }
  EXPECT_EQ(split_even(0, 4).size(), 1u);
  EXPECT_EQ(split_even(5, 0).size(), 1u);
}

class SplitAttentionTest : public ::testing::TestWithParam<bool> {};

TEST_P(SplitAttentionTest, RowsSplitOverWorkersEqualOneWorkerAndTheReference) {
  const bool tiled = GetParam();
  const int n = 67, d = 24;
  const uint64_t seed = 5;
  SplitAttention one;
  ASSERT_TRUE(one.prepare(tiled, n, d, 0, n, seed).ok);
  const double sum_one = one.run(2);
  ASSERT_TRUE(one.last_status().ok) << one.last_status().message;
  const double ref = ref::max_abs_diff(one.output().data(), ref::attention(one.q().data(), one.k().data(), one.v().data(), n, d));
  ref::report(tiled ? "tiled, one worker vs reference" : "naive, one worker vs reference", ref);
  EXPECT_LT(ref, 2e-5);
  for (int workers : {2, 3, 5}) {
    std::vector<float> joined(static_cast<size_t>(n * d), 0.0f);
    double sum = 0.0;
    for (const UnitRange& r : split_even(n, workers)) {
      SplitAttention w;
      ASSERT_TRUE(w.prepare(tiled, n, d, r.begin, r.end, seed).ok);
      sum += w.run(1);
      for (int i = r.begin * d; i < r.end * d; ++i) joined[static_cast<size_t>(i)] = w.output()[static_cast<size_t>(i)];
    }
    const double diff = ref::max_abs_diff(joined, one.output());
    ref::report("W = " + std::to_string(workers) + " joined vs one worker", diff);
    EXPECT_EQ(diff, 0.0) << "splitting rows must not change any arithmetic";
    EXPECT_NEAR(sum, sum_one, 1e-6 * n * d);
  }
}
INSTANTIATE_TEST_SUITE_P(Kinds, SplitAttentionTest, ::testing::Values(false, true),
                         [](const auto& info) { return info.param ? std::string("Tiled") : std::string("Naive"); });

TEST(CoreSplitWork, AttentionRefusesBadRanges) {
  SplitAttention a;
  EXPECT_FALSE(a.prepare(false, 0, 8, 0, 0, 1).ok);
  EXPECT_FALSE(a.prepare(false, 8, 8, 5, 4, 1).ok);
  EXPECT_FALSE(a.prepare(false, 8, 8, 0, 9, 1).ok);
  EXPECT_TRUE(a.prepare(false, 8, 8, 3, 3, 1).ok);  // an empty share is allowed (more workers than rows)
  EXPECT_EQ(a.run(1), 0.0);
}

// Simulates W workers exchanging their slices of h_t after every step, as the Web Workers do.
std::vector<float> gru_with_hand_offs(int n, int d, int hidden, int workers, uint64_t seed, int* hand_offs) {
  const std::vector<UnitRange> ranges = split_even(hidden, workers);
  std::vector<SplitGru> w(ranges.size());
  for (size_t i = 0; i < w.size(); ++i) EXPECT_TRUE(w[i].prepare(n, d, hidden, ranges[i].begin, ranges[i].end, seed).ok);
  *hand_offs = 0;
  for (int t = 0; t < n; ++t) {
    for (SplitGru& g : w) EXPECT_TRUE(g.step(t).ok);
    // Every worker receives every other worker's slice of h_t.
    for (size_t to = 0; to < w.size(); ++to)
      for (size_t from = 0; from < w.size(); ++from) {
        if (to == from) continue;
        for (int u = ranges[from].begin; u < ranges[from].end; ++u) w[to].next()[u] = w[from].next()[u];
      }
    if (w.size() > 1) ++*hand_offs;
    for (SplitGru& g : w) g.advance();
  }
  return std::vector<float>(w[0].prev(), w[0].prev() + hidden);
}

TEST(CoreSplitWork, GruSplitOverUnitsEqualsOneWorkerAndTheReference) {
  const int n = 30, d = 12, hidden = 20;
  const uint64_t seed = 9;
  SplitGru one;
  ASSERT_TRUE(one.prepare(n, d, hidden, 0, hidden, seed).ok);
  const double sum_one = one.run_all();
  const std::vector<float> h_one(one.prev(), one.prev() + hidden);
  const GruWeights wt = one.weights();
  const ref::DBuf H = ref::gru(wt.Wx, wt.Wh, wt.bx, wt.bh, one.x().data(), n, d, hidden, nullptr);
  double worst = 0.0;
  for (int u = 0; u < hidden; ++u) worst = std::max(worst, std::abs(h_one[static_cast<size_t>(u)] - H.at(n - 1, u)));
  ref::report("GRU one worker, h_n vs reference", worst);
  EXPECT_LT(worst, 5e-6);
  for (int workers : {2, 3, 7}) {
    int hand_offs = 0;
    const std::vector<float> h = gru_with_hand_offs(n, d, hidden, workers, seed, &hand_offs);
    const double diff = ref::max_abs_diff(h, h_one);
    ref::report("GRU W = " + std::to_string(workers) + " vs one worker", diff);
    EXPECT_EQ(diff, 0.0);
    EXPECT_EQ(hand_offs, n) << "one hand-off per time step";
  }
  // A second run of the same object starts again from h = 0.
  EXPECT_EQ(one.run_all(), sum_one);
}

TEST(CoreSplitWork, GruRefusesBadSizesAndSteps) {
  SplitGru g;
  EXPECT_FALSE(g.prepare(4, 0, 8, 0, 8, 1).ok);
  EXPECT_FALSE(g.prepare(4, 4, 8, 6, 5, 1).ok);
  ASSERT_TRUE(g.prepare(4, 4, 8, 0, 8, 1).ok);
  EXPECT_FALSE(g.step(4).ok);
  EXPECT_FALSE(g.step(-1).ok);
  EXPECT_TRUE(g.step(0).ok);
}

}  // namespace
}  // namespace ap
