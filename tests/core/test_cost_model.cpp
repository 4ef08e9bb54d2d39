// Unit tests for the analytic cost table, the work–depth model and the log–log slope fit (core/cost_model.h).
// Every expected number is computed by hand in the comment next to it.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "core/cost_model.h"
#include "reference.h"

namespace ap {
namespace AP_UNITY_ID {  // this file's own namespace in a unity build (CMakeLists.txt, AP_UNITY)

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// ---- the table, hand-computed -------------------------------------------------------------------------------

struct TableCase {
  const char* name;
  LayerKind kind;
  long long n, d, k;
  long long macs, projection_macs, score_bytes, sequential, path;
};

class CoreCostModelTable : public ::testing::TestWithParam<TableCase> {};

TEST_P(CoreCostModelTable, MatchesHandComputedValues) {
  const TableCase& c = GetParam();
  LayerCost got;
  const Status s = layer_cost(c.kind, c.n, c.d, c.k, &got);
  ASSERT_TRUE(s.ok) << s.message;
  EXPECT_EQ(got.macs, c.macs);
  EXPECT_EQ(got.projection_macs, c.projection_macs);
  EXPECT_EQ(got.score_bytes, c.score_bytes);
  EXPECT_EQ(got.sequential_ops, c.sequential);
  EXPECT_EQ(got.max_path_length, c.path);
}

INSTANTIATE_TEST_SUITE_P(
    CoreCostModel, CoreCostModelTable,
    ::testing::Values(
        // n = 1024, d = 64: 2·1024²·64 = 134,217,728; 3·1024·64² = 12,582,912; 4·1024² = 4,194,304
        TableCase{"attention_n1024_d64", LayerKind::SelfAttention, 1024, 64, 3, 134217728, 12582912, 4194304, 1, 1},
        // Elman, h = d = 64: 1024·64·(64 + 64) = 8,388,608; 1024 steps; path 1024
        TableCase{"recurrent_n1024_d64", LayerKind::Recurrent, 1024, 64, 3, 8388608, 0, 0, 1024, 1024},
        // k = 3: 3·1024·64² = 12,582,912; 3^6 = 729 < 1024 <= 3^7 = 2187: path 7
        TableCase{"conv_n1024_d64_k3", LayerKind::Convolutional, 1024, 64, 3, 12582912, 0, 0, 1, 7},
        // k = 2: 2^10 = 1024 exactly: path 10
        TableCase{"conv_n1024_d64_k2", LayerKind::Convolutional, 1024, 64, 2, 8388608, 0, 0, 1, 10},
        // one more token needs one more layer: 2^10 < 1025 <= 2^11
        TableCase{"conv_n1025_d64_k2", LayerKind::Convolutional, 1025, 64, 2, 8396800, 0, 0, 1, 11},
        // a single token: every path is one hop; attention 2·1·1·d = 2d; Elman 1·d·2d = 2d²
        TableCase{"attention_n1_d8", LayerKind::SelfAttention, 1, 8, 2, 16, 192, 4, 1, 1},
        TableCase{"recurrent_n1_d8", LayerKind::Recurrent, 1, 8, 2, 128, 0, 0, 1, 1},
        TableCase{"conv_n1_d8_k2", LayerKind::Convolutional, 1, 8, 2, 128, 0, 0, 1, 1},
        // kernel wider than the sequence: one layer sees everything; 4096·5·1 = 20,480
        TableCase{"conv_n5_d1_k4096", LayerKind::Convolutional, 5, 1, 4096, 20480, 0, 0, 1, 1},
        // the largest inputs: 2·2^40·2^12 = 2^53; 3·2^20·2^24 = 3·2^44; 4·2^40 = 2^42
        TableCase{"attention_max", LayerKind::SelfAttention, 1048576, 4096, 2, 9007199254740992LL,
                  52776558133248LL, 4398046511104LL, 1, 1},
        // 2^12·2^20·2^24 = 2^56 (no overflow); 4096 < 2^20 <= 4096² = 2^24: path 2
        TableCase{"conv_max", LayerKind::Convolutional, 1048576, 4096, 4096, 72057594037927936LL, 0, 0, 1, 2},
        // 2^20 tokens, k = 2: 20 layers; RNN 2^20 steps, 2^20·2·2^24 = 2^45 MACs
        TableCase{"conv_n2p20_k2", LayerKind::Convolutional, 1048576, 1, 2, 2097152, 0, 0, 1, 20},
        TableCase{"recurrent_max", LayerKind::Recurrent, 1048576, 4096, 2, 35184372088832LL, 0, 0, 1048576,
                  1048576}),
    [](const ::testing::TestParamInfo<TableCase>& info) { return std::string(info.param.name); });

TEST(CoreCostModel, SingleFormulas) {
  EXPECT_EQ(attention_score_macs(10, 3), 300);   // 10·10·3
  EXPECT_EQ(attention_mix_macs(10, 3), 300);
  EXPECT_EQ(attention_macs(10, 3), 600);
  EXPECT_EQ(attention_projection_macs(10, 3), 270);  // 3·10·9
  EXPECT_EQ(elman_macs(10, 3, 5), 400);   // hidden ≠ input: 10·5·(3 + 5)
  EXPECT_EQ(gru_macs(10, 3, 5), 1200);    // three gate blocks
  EXPECT_EQ(elman_macs(7, 4, 4), 2 * 7 * 4 * 4);  // n·2d² when hidden = input = d
  EXPECT_EQ(conv_macs(10, 3, 4), 360);    // 4·10·9
  EXPECT_EQ(score_matrix_bytes(1024), 4194304);  // 4 MiB
  EXPECT_EQ(score_matrix_bytes(65536), 17179869184LL);  // 16 GiB: why naive attention stops
  EXPECT_EQ(sequential_ops(LayerKind::SelfAttention, 500), 1);
  EXPECT_EQ(sequential_ops(LayerKind::Recurrent, 500), 500);
  EXPECT_EQ(sequential_ops(LayerKind::Convolutional, 500), 1);
  EXPECT_STREQ(layer_kind_name(LayerKind::Recurrent), "recurrent");
}

// Attention costs 2n²d, the Elman layer 2nd²: equal at n = d, attention cheaper below, the RNN above.
TEST(CoreCostModel, AttentionAndRnnCrossAtNEqualsD) {
  for (long long d : {16LL, 64LL, 512LL}) {
    EXPECT_EQ(attention_macs(d, d), elman_macs(d, d, d)) << d;
    EXPECT_LT(attention_macs(d / 2, d), elman_macs(d / 2, d, d)) << d;
    EXPECT_GT(attention_macs(2 * d, d), elman_macs(2 * d, d, d)) << d;
  }
}

TEST(CoreCostModel, ConvPathIsSmallestLayerCountThatReaches) {
  for (long long k : {2LL, 3LL, 5LL, 16LL})
    for (long long n = 1; n <= 5000; n = n * 3 + 1) {
      const long long L = max_path_length(LayerKind::Convolutional, n, k);
      long long reach = 1;
      for (long long i = 0; i < L; ++i) reach *= k;
      EXPECT_GE(reach, n) << "n " << n << " k " << k;
      EXPECT_GE(L, 1);
      if (L > 1) {
        EXPECT_LT(reach / k, n) << "n " << n << " k " << k;  // one layer fewer does not reach
      }
    }
}

// ---- validation ----------------------------------------------------------------------------------------------

struct BadInput {
  const char* name;
  long long n, d, k;
  const char* code;
  const char* message;
};

class CoreCostModelRefuses : public ::testing::TestWithParam<BadInput> {};

TEST_P(CoreCostModelRefuses, WithAMessageAndLeavesOutputAlone) {
  const BadInput& b = GetParam();
  LayerCost out;
  out.macs = -5;
  const Status s = layer_cost(LayerKind::SelfAttention, b.n, b.d, b.k, &out);
  ASSERT_FALSE(s.ok);
  EXPECT_STREQ(s.code, b.code);
  EXPECT_EQ(s.message, b.message);
  EXPECT_EQ(out.macs, -5);
  EXPECT_FALSE(check_cost_inputs(b.n, b.d, b.k).ok);
}

INSTANTIATE_TEST_SUITE_P(
    CoreCostModel, CoreCostModelRefuses,
    ::testing::Values(
        BadInput{"n_zero", 0, 64, 3, "{0} must be between 1 and {1}, got {2}", "n must be between 1 and 1048576, got 0"},
        BadInput{"n_too_large", 1048577, 64, 3, "{0} must be between 1 and {1}, got {2}",
                 "n must be between 1 and 1048576, got 1048577"},
        BadInput{"d_zero", 8, 0, 3, "{0} must be between 1 and {1}, got {2}", "d must be between 1 and 4096, got 0"},
        BadInput{"d_too_large", 8, 4097, 3, "{0} must be between 1 and {1}, got {2}",
                 "d must be between 1 and 4096, got 4097"},
        BadInput{"k_one", 8, 4, 1, "{0} must be between {1} and {2}, got {3}",
                 "k (kernel width) must be between 2 and 4096, got 1"},
        BadInput{"k_too_large", 8, 4, 4097, "{0} must be between {1} and {2}, got {3}",
                 "k (kernel width) must be between 2 and 4096, got 4097"},
        BadInput{"n_negative", -3, 4, 2, "{0} must be between 1 and {1}, got {2}", "n must be between 1 and 1048576, got -3"}),
    [](const ::testing::TestParamInfo<BadInput>& info) { return std::string(info.param.name); });

// ---- work–depth -----------------------------------------------------------------------------------------------

TEST(CoreCostModel, WorkDepthHandValues) {
  WorkDepthInputs in;
  in.work_macs = 1e6;
  in.depth = 1000;
  in.lanes = 100;
  in.ns_per_mac = 1.0;
  in.ns_per_step = 50.0;
  WorkDepthTime t;
  ASSERT_TRUE(work_depth_time(in, &t).ok);
  EXPECT_DOUBLE_EQ(t.work_ns, 1e4);   // 1e6·1 / 100
  EXPECT_DOUBLE_EQ(t.depth_ns, 5e4);  // 1000·50
  EXPECT_DOUBLE_EQ(t.time_ns, 5e4);
  EXPECT_TRUE(t.depth_bound);
  in.lanes = 1;  // one lane: the work dominates
  ASSERT_TRUE(work_depth_time(in, &t).ok);
  EXPECT_DOUBLE_EQ(t.time_ns, 1e6);
  EXPECT_FALSE(t.depth_bound);
  in.ns_per_step = 0.0;  // no step latency: only work remains
  in.lanes = 1000;
  ASSERT_TRUE(work_depth_time(in, &t).ok);
  EXPECT_DOUBLE_EQ(t.time_ns, 1e3);
}

// The lesson's point in numbers: n = 1024, d = 64, 1024 lanes, 1 ns per MAC, 1 µs per dependent step.
//   attention: work 134,217,728 / 1024 = 131,072 ns; depth 1·1000 = 1,000 ns   -> 131,072 ns, work-bound
//   Elman:     work   8,388,608 / 1024 =   8,192 ns; depth 1024·1000 = 1,024,000 -> 1,024,000 ns, depth-bound
// 16× fewer multiply-adds, yet 7.8× slower on wide hardware.
TEST(CoreCostModel, LayerTimeAttentionVsRnnOnManyLanes) {
  WorkDepthTime att, rnn;
  ASSERT_TRUE(layer_time(LayerKind::SelfAttention, 1024, 64, 3, 1024, 1.0, 1000.0, &att).ok);
  ASSERT_TRUE(layer_time(LayerKind::Recurrent, 1024, 64, 3, 1024, 1.0, 1000.0, &rnn).ok);
  EXPECT_DOUBLE_EQ(att.time_ns, 131072.0);
  EXPECT_FALSE(att.depth_bound);
  EXPECT_DOUBLE_EQ(rnn.time_ns, 1024000.0);
  EXPECT_TRUE(rnn.depth_bound);
  // on one lane the RNN wins: 8,388,608 ns against 134,217,728 ns
  ASSERT_TRUE(layer_time(LayerKind::SelfAttention, 1024, 64, 3, 1, 1.0, 1000.0, &att).ok);
  ASSERT_TRUE(layer_time(LayerKind::Recurrent, 1024, 64, 3, 1, 1.0, 1000.0, &rnn).ok);
  EXPECT_DOUBLE_EQ(att.time_ns, 134217728.0);
  EXPECT_DOUBLE_EQ(rnn.time_ns, 8388608.0);
}

// The cost lab's P-lane comparison (compare_on_lanes), by hand: n = 1024, d = 64, P = 1024, t_mac = 1 ns, a
// hand-off of 1,000 ns. Attention's step: 1000 + (⌈log₂ 64⌉ + ⌈log₂ 1024⌉)·1 = 1016 ns; work 2·1024²·64 / 1024 =
// 131,072 ns > depth 1 × 1016: work-bound. The RNN's step: 1000 + ⌈log₂ 128⌉ = 1007 ns; work 1024·64·128 / 1024 =
// 8,192 ns < depth 1024 × 1007 = 1,031,168 ns: depth-bound.
TEST(CoreCostModel, CompareOnLanesHandValues) {
  LanesComparison c;
  ASSERT_TRUE(compare_on_lanes(1024, 64, 3, 1024, 1.0, 1.0, 1000.0, &c).ok);
  EXPECT_DOUBLE_EQ(c.ns_per_step_attention, 1016.0);
  EXPECT_DOUBLE_EQ(c.ns_per_step_rnn, 1007.0);
  EXPECT_DOUBLE_EQ(c.attention.time_ns, 131072.0);
  EXPECT_FALSE(c.attention.depth_bound);
  EXPECT_DOUBLE_EQ(c.recurrent.time_ns, 1031168.0);
  EXPECT_TRUE(c.recurrent.depth_bound);
  LanesComparison untouched;
  untouched.ns_per_step_rnn = 7;
  EXPECT_FALSE(compare_on_lanes(1024, 64, 3, 1024, 1.0, 1.0, -1.0, &untouched).ok);
  EXPECT_FALSE(compare_on_lanes(1024, 64, 3, 1024, 1.0, 1.0, kNaN, &untouched).ok);
  EXPECT_FALSE(compare_on_lanes(1024, 64, 3, 0, 1.0, 1.0, 1000.0, &untouched).ok);
  EXPECT_EQ(untouched.ns_per_step_rnn, 7.0) << "a refusal leaves the output alone";
}

// The crossover's bracket and bisection against a plain scan of every P from 1 to kMaxLanes.
TEST(CoreCostModel, CrossoverLanesEqualsAScanOfEveryP) {
  const struct {
    long long n, d;
    double t_att, t_rnn, sync;
  } cases[] = {{1024, 64, 1.0, 1.0, 1000.0}, {128, 64, 1.0, 1.0, 1000.0},  {4096, 512, 0.3, 1.7, 1000.0},
               {16, 512, 1.0, 1.0, 0.0},     {1024, 64, 1.0, 1e-9, 0.0},   {65536, 8, 2.0, 0.5, 50.0}};
  int with_crossover = 0;
  for (const auto& c : cases) {
    long long scan = 0;
    for (long long P = 1; P <= cost::kMaxLanes && scan == 0; ++P) {
      LanesComparison q;
      ASSERT_TRUE(compare_on_lanes(c.n, c.d, 3, P, c.t_att, c.t_rnn, c.sync, &q).ok);
      if (q.attention.time_ns < q.recurrent.time_ns) scan = P;
    }
    EXPECT_EQ(attention_crossover_lanes(c.n, c.d, 3, c.t_att, c.t_rnn, c.sync), scan) << "n = " << c.n << ", d = " << c.d;
    with_crossover += scan > 1;
  }
  EXPECT_GE(with_crossover, 2) << "some cases cross above P = 1";
  EXPECT_EQ(attention_crossover_lanes(1024, 64, 3, 1.0, 1e-9, 0.0), 0) << "an RNN that costs nothing is never beaten";
  // By hand (the values above): the RNN is depth-bound at 1,031,168 ns from P = 9 on; attention's work
  // 134,217,728 / P falls below that for P > 130.16: the least P is 131.
  EXPECT_EQ(attention_crossover_lanes(1024, 64, 3, 1.0, 1.0, 1000.0), 131);
}

TEST(CoreCostModel, WorkDepthRefusesBadInputs) {
  struct Bad {
    WorkDepthInputs in;
    const char* message;
  };
  auto make = [](double w, double dep, long long p, double tm, double ts) {
    WorkDepthInputs i;
    i.work_macs = w;
    i.depth = dep;
    i.lanes = p;
    i.ns_per_mac = tm;
    i.ns_per_step = ts;
    return i;
  };
  const std::vector<Bad> bad = {
      {make(1, 1, 0, 1, 1), "P (lanes) must be between 1 and 100000, got 0"},
      {make(1, 1, 100001, 1, 1), "P (lanes) must be between 1 and 100000, got 100001"},
      {make(-1, 1, 1, 1, 1), "work (multiply-adds) must be a finite number of at least 0, got -1"},
      {make(kNaN, 1, 1, 1, 1), "work (multiply-adds) must be a finite number of at least 0, got NaN"},
      {make(1, -2, 1, 1, 1), "depth (sequential steps) must be a finite number of at least 0, got -2"},
      {make(1, 1, 1, 0, 1), "time per multiply-add (ns) must be a finite number greater than 0, got 0"},
      {make(1, 1, 1, 1, -0.5), "time per sequential step (ns) must be a finite number of at least 0, got -0.5"},
  };
  for (const Bad& b : bad) {
    WorkDepthTime t;
    t.time_ns = 42.0;
    const Status s = work_depth_time(b.in, &t);
    EXPECT_FALSE(s.ok);
    EXPECT_EQ(s.message, b.message);
    EXPECT_EQ(t.time_ns, 42.0);
  }
  WorkDepthTime t;
  EXPECT_EQ(layer_time(LayerKind::Recurrent, 0, 64, 3, 8, 1.0, 1.0, &t).message,
            "n must be between 1 and 1048576, got 0");
}

// ---- log–log fit ------------------------------------------------------------------------------------------------

TEST(CoreCostModel, FitRecoversAnExactPowerLaw) {
  std::vector<double> xs, ys;
  for (double n = 64; n <= 4096; n *= 2) {
    xs.push_back(n);
    ys.push_back(3.0 * n * n);  // y = 3·n²
  }
  LogLogFit f;
  ASSERT_TRUE(fit_loglog_slope(xs, ys, &f).ok);
  EXPECT_EQ(f.points, 7);
  double worst = std::fabs(f.slope - 2.0);
  worst = std::max(worst, std::fabs(f.intercept - std::log(3.0)));
  worst = std::max(worst, std::fabs(f.r2 - 1.0));
  EXPECT_LE(ref::report("power law n^2: slope, intercept, r2", worst), 1e-12);
}

// Points (1, 1), (2, 2), (4, 8). In units of ln 2: x = 0, 1, 2; y = 0, 1, 3; means 1 and 4/3;
// slope = Σdx·dy / Σdx² = (4/3 + 5/3) / 2 = 1.5; intercept = (4/3 − 1.5)·ln 2 = −ln 2 / 6;
// fit (in ln 2) −1/6, 4/3, 17/6; residuals 1/6, −1/3, 1/6: SS_res = 1/6; SS_tot = (16 + 1 + 25)/9 = 14/3;
// r² = 1 − (1/6)/(14/3) = 27/28.
TEST(CoreCostModel, FitHandComputedThreePoints) {
  LogLogFit f;
  ASSERT_TRUE(fit_loglog_slope({1, 2, 4}, {1, 2, 8}, &f).ok);
  double worst = std::fabs(f.slope - 1.5);
  worst = std::max(worst, std::fabs(f.intercept + std::log(2.0) / 6.0));
  worst = std::max(worst, std::fabs(f.r2 - 27.0 / 28.0));
  EXPECT_LE(ref::report("three points: slope, intercept, r2", worst), 1e-12);
  // all y equal: slope 0, and the flat line fits exactly
  ASSERT_TRUE(fit_loglog_slope({1, 10, 100}, {5, 5, 5}, &f).ok);
  EXPECT_NEAR(f.slope, 0.0, 1e-15);
  EXPECT_NEAR(f.intercept, std::log(5.0), 1e-15);
  EXPECT_EQ(f.r2, 1.0);
}

TEST(CoreCostModel, FitRefuses) {
  struct Bad {
    std::vector<double> xs, ys;
    const char* message;
  };
  const std::vector<Bad> bad = {
      {{}, {}, "a slope fit needs at least 2 points, got 0"},
      {{3}, {9}, "a slope fit needs at least 2 points, got 1"},
      {{1, 2, 3}, {1, 2}, "a slope fit got 3 x values but 2 y values"},
      {{1, 0, 3}, {1, 2, 3}, "x[1] is 0; a log–log fit needs positive finite values"},
      {{1, 2, -3}, {1, 2, 3}, "x[2] is -3; a log–log fit needs positive finite values"},
      {{1, 2}, {-1, 2}, "y[0] is -1; a log–log fit needs positive finite values"},
      {{1, 2}, {1, kNaN}, "y[1] is NaN; a log–log fit needs positive finite values"},
      {{1, 2}, {1, std::numeric_limits<double>::infinity()}, "y[1] is inf; a log–log fit needs positive finite values"},
      {{7, 7, 7}, {1, 2, 3}, "a slope fit needs at least two different x values"},
  };
  for (const Bad& b : bad) {
    LogLogFit f;
    f.slope = 42.0;
    const Status s = fit_loglog_slope(b.xs, b.ys, &f);
    EXPECT_FALSE(s.ok) << b.message;
    EXPECT_EQ(s.message, b.message);
    EXPECT_EQ(f.slope, 42.0);
  }
}

}  // namespace
}  // namespace ap
