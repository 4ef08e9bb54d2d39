// Unit tests for the time-sliced sweep (core/sweep.h). No wall time: a fake clock that only moves when the
// fake workload "works" (time = multiply-adds × a fixed rate), so every duration, estimate and median is exact.
// Also: KernelWorkload's split calls (parts give the same output as one call) and its failed allocations.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "core/sweep.h"
#include "reference.h"

namespace ap {
namespace AP_UNITY_ID {  // this file's own namespace in a unity build (CMakeLists.txt, AP_UNITY)

struct FakeClock {
  double now = 0.0;
  SweepClock fn() {
    return [this] { return now; };
  }
};

// Advances the fake clock: a call costs ms_per_mac · kernel_macs · jitter[batch % size], preparing a point costs
// ms_per_byte · kernel_memory(...).total(). Logs what it was asked to do. With `splittable`, a call has n units
// (like KernelWorkload) and a part costs its share of the call; otherwise the SweepWorkload defaults apply (a
// call cannot be split).
class FakeWorkload : public SweepWorkload {
 public:
  FakeWorkload(FakeClock* clock, double ms_per_mac, double ms_per_byte)
      : clock_(clock), ms_per_mac_(ms_per_mac), ms_per_byte_(ms_per_byte) {}

  Status prepare(const SweepCurve& curve, int n) override {
    curve_ = curve;
    n_ = n;
    prepared.push_back(curve.label + "@" + std::to_string(n));
    steps_in_slice++;
    clock_->now += ms_per_byte_ * static_cast<double>(kernel_memory(curve.kind, n, curve.d, curve.hidden, curve.tile).total());
    return Status::Ok();
  }
  void run(long long reps) override {
    const double per_call = ms_per_mac_ * static_cast<double>(kernel_macs(curve_.kind, n_, curve_.d, curve_.hidden));
    const double f = jitter[static_cast<size_t>(batches) % jitter.size()];
    if (!seen(curve_.label)) {
      first_run_step_in_slice.push_back(steps_in_slice);
      seen_labels.push_back(curve_.label);
    }
    clock_->now += static_cast<double>(reps) * per_call * f;
    calls += reps;
    ++batches;
    ++steps_in_slice;
    if (on_run) on_run();
  }
  int units(const SweepCurve& c, int n) const override { return splittable ? n : SweepWorkload::units(c, n); }
  void run_units(int u0, int u1) override {
    if (!splittable) {
      SweepWorkload::run_units(u0, u1);
      return;
    }
    if (u0 != next_unit_ || u1 <= u0 || u1 > n_) parts_in_order = false;
    const double per_call = ms_per_mac_ * static_cast<double>(kernel_macs(curve_.kind, n_, curve_.d, curve_.hidden));
    const double f = jitter[static_cast<size_t>(batches) % jitter.size()];
    const double ms = per_call * f * static_cast<double>(u1 - u0) / static_cast<double>(n_);
    clock_->now += ms;
    part_ms.push_back(ms);
    ++parts_run;
    ++steps_in_slice;
    next_unit_ = u1;
    if (u1 == n_) {  // the call is complete
      next_unit_ = 0;
      ++calls;
      ++batches;
    }
    if (on_part) on_part(u0, u1);
  }
  void release() override {
    ++releases;
    next_unit_ = 0;
  }

  bool seen(const std::string& label) const {
    for (const std::string& s : seen_labels)
      if (s == label) return true;
    return false;
  }

  std::vector<double> jitter = {1.0};
  std::function<void()> on_run;
  bool splittable = false;
  std::function<void(int, int)> on_part;  // after each part, with its units [u0, u1)
  std::vector<double> part_ms;            // clock time of each part
  int parts_run = 0;
  bool parts_in_order = true;             // every part started where the previous one ended
  std::vector<std::string> prepared;
  std::vector<std::string> seen_labels;
  std::vector<int> first_run_step_in_slice;  // index of the step within its slice at each curve's first batch
  long long calls = 0;
  int batches = 0;
  int releases = 0;
  int steps_in_slice = 0;

 private:
  FakeClock* clock_;
  double ms_per_mac_, ms_per_byte_;
  SweepCurve curve_;
  int n_ = 0;
  int next_unit_ = 0;
};

SweepCurve curve(const std::string& label, KernelKind kind, std::vector<int> ns, KernelImpl impl = KernelImpl::Simd,
                 int d = 64, int hidden = 0) {
  SweepCurve c;
  c.label = label;
  c.kind = kind;
  c.impl = impl;
  c.d = d;
  c.hidden = hidden;
  c.ns = std::move(ns);
  return c;
}

// Runs slices until the sweep ends (at most `max_slices`), returning every report.
std::vector<SliceReport> run_all(Sweep* sweep, FakeWorkload* work, double budget, int max_slices = 10000) {
  std::vector<SliceReport> reports;
  for (int i = 0; i < max_slices && sweep->state() == SweepState::Running; ++i) {
    if (work) work->steps_in_slice = 0;
    reports.push_back(sweep->run_slice(budget));
  }
  return reports;
}

constexpr double kMsPerMac = 1e-7;  // 10 GMAC/s

// ---- batching and medians -------------------------------------------------------------------------------------

TEST(CoreSweep, BatchingReachesMinSampleAndMediansAreExact) {
  FakeClock clock;
  FakeWorkload work(&clock, kMsPerMac, 0.0);
  SweepConfig cfg;
  cfg.curves = {curve("naive", KernelKind::AttentionNaive, {64, 128, 256})};
  cfg.runs = 3;
  Sweep sweep;
  ASSERT_TRUE(sweep.start(cfg, clock.fn(), &work).ok);
  run_all(&sweep, &work, 10.0);
  ASSERT_EQ(sweep.state(), SweepState::Finished);
  double worst = 0.0;
  for (const SweepPoint& pt : sweep.results()[0].points) {
    ASSERT_EQ(pt.state, PointState::Measured);
    ASSERT_EQ(pt.samples.size(), 3u);
    for (const SweepSample& s : pt.samples) EXPECT_GE(s.ms, cfg.min_sample_ms) << pt.n;
    const double per_call = kMsPerMac * static_cast<double>(attention_macs(pt.n, 64));
    worst = std::max(worst, std::fabs(pt.median_ms / per_call - 1.0));
  }
  EXPECT_LE(ref::report("sweep medians vs exact per-call time (relative)", worst), 1e-9);
  // n = 64: one call takes 2·64²·64·1e-7 = 0.0524288 ms. The first batch (1 call) is too short and is discarded;
  // reps = ceil(1.2 · 1 · 5 / 0.0524288) = ceil(114.4) = 115, then 3 samples of 115 calls (6.03 ms each).
  const SweepPoint& p64 = sweep.results()[0].points[0];
  EXPECT_EQ(p64.samples[0].reps, 115);
  EXPECT_EQ(p64.calls, 1 + 3 * 115);
  // n = 128 starts from the extrapolated estimate 4 × 0.0524288 = 0.2097152 ms: reps = ceil(1.1 · 5 / 0.2097) = 27,
  // no calibration batch needed.
  const SweepPoint& p128 = sweep.results()[0].points[1];
  EXPECT_EQ(p128.samples[0].reps, 27);
  EXPECT_EQ(p128.calls, 3 * 27);
}

struct MedianCase {
  const char* name;
  int runs;
  std::vector<double> jitter;
  double median;
};

class CoreSweepMedian : public ::testing::TestWithParam<MedianCase> {};

TEST_P(CoreSweepMedian, IsTheMiddleSample) {
  const MedianCase& c = GetParam();
  FakeClock clock;
  FakeWorkload work(&clock, 1.0 / static_cast<double>(elman_macs(10, 8, 8)), 0.0);  // one call = 1 ms
  work.jitter = c.jitter;
  SweepConfig cfg;
  cfg.curves = {curve("elman", KernelKind::Elman, {10}, KernelImpl::Scalar, 8)};
  cfg.runs = c.runs;
  cfg.min_sample_ms = 0.5;  // every batch of one call (>= 0.9 ms) is a sample
  Sweep sweep;
  ASSERT_TRUE(sweep.start(cfg, clock.fn(), &work).ok);
  run_all(&sweep, &work, 100.0);
  const SweepPoint& pt = sweep.results()[0].points[0];
  ASSERT_EQ(pt.state, PointState::Measured);
  ASSERT_EQ(static_cast<int>(pt.samples.size()), c.runs);
  EXPECT_NEAR(pt.median_ms, c.median, 1e-9);
}

INSTANTIATE_TEST_SUITE_P(CoreSweep, CoreSweepMedian,
                         ::testing::Values(MedianCase{"odd_five", 5, {1.0, 3.0, 0.9, 1.1, 2.0}, 1.1},
                                           MedianCase{"even_four", 4, {1.0, 3.0, 0.9, 1.1}, 1.05},
                                           MedianCase{"single", 1, {2.5}, 2.5},
                                           MedianCase{"outlier_ignored", 3, {1.0, 50.0, 1.0}, 1.0}),
                         [](const ::testing::TestParamInfo<MedianCase>& info) { return std::string(info.param.name); });

TEST(CoreSweep, MedianOf) {
  EXPECT_EQ(median_of({}), 0.0);
  EXPECT_EQ(median_of({3.0}), 3.0);
  EXPECT_EQ(median_of({5.0, 1.0, 3.0}), 3.0);
  EXPECT_EQ(median_of({4.0, 1.0, 3.0, 2.0}), 2.5);
}

// A clock that never moves (timer too coarse): batches grow ×10 until max_reps, which is then recorded.
TEST(CoreSweep, FrozenClockStopsGrowingAtMaxReps) {
  FakeClock clock;
  FakeWorkload work(&clock, 0.0, 0.0);
  SweepConfig cfg;
  cfg.curves = {curve("tiled", KernelKind::AttentionTiled, {16})};
  cfg.runs = 2;
  cfg.max_reps = 1000;
  Sweep sweep;
  ASSERT_TRUE(sweep.start(cfg, clock.fn(), &work).ok);
  run_all(&sweep, &work, 5.0);
  const SweepPoint& pt = sweep.results()[0].points[0];
  ASSERT_EQ(pt.state, PointState::Measured);
  ASSERT_EQ(pt.samples.size(), 2u);
  EXPECT_EQ(pt.samples[0].reps, 1000);
  EXPECT_EQ(pt.calls, 1 + 10 + 100 + 2 * 1000);
  EXPECT_EQ(pt.median_ms, 0.0);
}

// ---- the slice budget -----------------------------------------------------------------------------------------

TEST(CoreSweep, SlicesRespectTheBudget) {
  FakeClock clock;
  FakeWorkload work(&clock, kMsPerMac, 1e-7);
  SweepConfig cfg;
  cfg.curves = {curve("naive", KernelKind::AttentionNaive, {64, 256, 1024, 2048}),
                curve("tiled", KernelKind::AttentionTiled, {64, 256, 1024, 2048}, KernelImpl::Scalar),
                curve("gru", KernelKind::Gru, {64, 256, 1024, 2048}, KernelImpl::Simd, 64, 256)};
  cfg.runs = 3;
  Sweep sweep;
  ASSERT_TRUE(sweep.start(cfg, clock.fn(), &work).ok);
  const double budget = 8.0;
  const std::vector<SliceReport> reports = run_all(&sweep, &work, budget);
  ASSERT_EQ(sweep.state(), SweepState::Finished);
  int overruns = 0, multi = 0;
  for (const SliceReport& r : reports) {
    EXPECT_TRUE(r.status.ok);
    EXPECT_GE(r.steps, 1);
    // within budget, or a single step that could not be split (its own estimate exceeded the budget)
    if (r.used_ms > budget + 1e-9) {
      EXPECT_EQ(r.steps, 1) << r.used_ms;
      EXPECT_TRUE(r.overran);
      ++overruns;
    } else {
      EXPECT_FALSE(r.overran);
    }
    if (r.steps > 1) ++multi;
  }
  // naive n = 2048: one call 2·2048²·64·1e-7 = 53.7 ms > 8 ms, so those samples overran alone
  EXPECT_GE(overruns, 3);
  EXPECT_GT(multi, 0);  // small points were packed several to a slice
  // a curve's first batch has no estimate: it only ever runs as the first step of a slice
  ASSERT_EQ(work.first_run_step_in_slice.size(), 3u);
  for (int step : work.first_run_step_in_slice) EXPECT_EQ(step, 0);
  // the total is the time of every step
  double total = 0.0;
  for (const SliceReport& r : reports) total += r.used_ms;
  EXPECT_NEAR(total, clock.now, 1e-6);
}

TEST(CoreSweep, OrderIsIncreasingNThenCurve) {
  FakeClock clock;
  FakeWorkload work(&clock, kMsPerMac, 0.0);
  SweepConfig cfg;
  cfg.curves = {curve("a", KernelKind::Elman, {8, 32}), curve("b", KernelKind::Gru, {16, 32})};
  cfg.runs = 1;
  Sweep sweep;
  ASSERT_TRUE(sweep.start(cfg, clock.fn(), &work).ok);
  run_all(&sweep, &work, 50.0);
  EXPECT_EQ(work.prepared, (std::vector<std::string>{"a@8", "b@16", "a@32", "b@32"}));
}

// ---- progress and cancel -------------------------------------------------------------------------------------

TEST(CoreSweep, ProgressCountsSamplesAndReachesOne) {
  FakeClock clock;
  FakeWorkload work(&clock, kMsPerMac, 0.0);
  SweepConfig cfg;
  cfg.curves = {curve("naive", KernelKind::AttentionNaive, {64, 128, 256}),
                curve("elman", KernelKind::Elman, {64, 128, 256}, KernelImpl::Scalar)};
  cfg.runs = 3;
  Sweep sweep;
  ASSERT_TRUE(sweep.start(cfg, clock.fn(), &work).ok);
  SweepProgress p = sweep.progress();
  EXPECT_EQ(p.points_total, 6);
  EXPECT_EQ(p.samples_total, 18);
  EXPECT_EQ(p.points_done, 0);
  EXPECT_EQ(p.fraction(), 0.0);
  int last = 0;
  while (sweep.state() == SweepState::Running) {
    const SliceReport r = sweep.run_slice(7.0);
    p = sweep.progress();
    EXPECT_GE(p.samples_done, last);
    EXPECT_EQ(p.samples_done - last, r.samples);
    last = p.samples_done;
  }
  EXPECT_EQ(p.points_done, 6);
  EXPECT_EQ(p.samples_done, 18);
  EXPECT_EQ(p.fraction(), 1.0);
  EXPECT_EQ(work.releases, 1);
}

TEST(CoreSweep, CancelBetweenSlicesKeepsResults) {
  FakeClock clock;
  FakeWorkload work(&clock, kMsPerMac, 0.0);
  SweepConfig cfg;
  cfg.curves = {curve("naive", KernelKind::AttentionNaive, {64, 128, 256, 512})};
  Sweep sweep;
  ASSERT_TRUE(sweep.start(cfg, clock.fn(), &work).ok);
  for (int i = 0; i < 4; ++i) (void)sweep.run_slice(10.0);
  const SweepProgress before = sweep.progress();
  EXPECT_GT(before.samples_done, 0);
  EXPECT_LT(before.samples_done, before.samples_total);
  sweep.cancel();
  EXPECT_EQ(sweep.state(), SweepState::Cancelled);
  const double t = clock.now;
  const SliceReport r = sweep.run_slice(10.0);
  EXPECT_EQ(r.steps, 0);
  EXPECT_EQ(r.state, SweepState::Cancelled);
  EXPECT_EQ(clock.now, t);  // no work after cancel
  EXPECT_EQ(sweep.progress().samples_done, before.samples_done);
  EXPECT_EQ(work.releases, 1);
  EXPECT_EQ(sweep.run_slice(10.0).steps, 0);
}

TEST(CoreSweep, CancelDuringASliceStopsBeforeTheNextStep) {
  FakeClock clock;
  FakeWorkload work(&clock, kMsPerMac, 0.0);
  SweepConfig cfg;
  cfg.curves = {curve("elman", KernelKind::Elman, {4, 8, 16, 32})};
  cfg.min_sample_ms = 0.001;
  Sweep sweep;
  ASSERT_TRUE(sweep.start(cfg, clock.fn(), &work).ok);
  work.on_run = [&] {
    if (work.batches == 3) sweep.cancel();
  };
  // slice 1: the prepare (the first batch has no estimate yet, so it waits for the next slice);
  // slice 2: batches 1, 2, 3, then the cancel is seen before a 4th step
  const SliceReport r1 = sweep.run_slice(1e6);
  EXPECT_EQ(r1.steps, 1);
  EXPECT_EQ(r1.state, SweepState::Running);
  const SliceReport r2 = sweep.run_slice(1e6);
  EXPECT_EQ(work.batches, 3);
  EXPECT_EQ(r2.state, SweepState::Cancelled);
  EXPECT_EQ(r2.steps, 3);
  EXPECT_EQ(sweep.results()[0].points[0].samples.size(), 3u);
  EXPECT_EQ(work.releases, 1);
}

// ---- memory and time limits ----------------------------------------------------------------------------------

TEST(CoreSweep, NaiveCurveStopsAtTheMemoryBudgetWhileTiledGoesOn) {
  FakeClock clock;
  FakeWorkload work(&clock, kMsPerMac, 0.0);
  SweepConfig cfg;
  cfg.curves = {curve("naive", KernelKind::AttentionNaive, {256, 512, 1024, 2048, 4096}),
                curve("tiled", KernelKind::AttentionTiled, {256, 512, 1024, 2048, 4096})};
  cfg.runs = 1;
  cfg.memory_budget_bytes = 12.0 * 1048576;  // naive n = 1024: 4 MiB scores + 1 MiB in/out; n = 2048: 18 MiB
  cfg.max_call_ms = 1e9;
  Sweep sweep;
  ASSERT_TRUE(sweep.start(cfg, clock.fn(), &work).ok);
  run_all(&sweep, &work, 100.0);
  ASSERT_EQ(sweep.state(), SweepState::Finished);
  const SweepCurveResult& naive = sweep.results()[0];
  const SweepCurveResult& tiled = sweep.results()[1];
  EXPECT_TRUE(naive.stopped);
  EXPECT_STREQ(naive.reason.code,
               "naive attention at n = {0} needs a {0}×{0} score matrix of {1} MB; the memory budget is {2} MB");
  EXPECT_EQ(naive.reason.message,
            "naive attention at n = 2048 needs a 2048×2048 score matrix of 16 MB; the memory budget is 12 MB");
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(naive.points[i].state, i < 3 ? PointState::Measured : PointState::Skipped) << i;
    EXPECT_EQ(tiled.points[i].state, PointState::Measured) << i;
  }
  EXPECT_FALSE(tiled.stopped);
  EXPECT_TRUE(tiled.reason.ok);
  for (const std::string& p : work.prepared) EXPECT_TRUE(p != "naive@2048" && p != "naive@4096") << p;
  const SweepProgress pr = sweep.progress();
  EXPECT_EQ(pr.points_skipped, 2);
  EXPECT_EQ(pr.points_done, 10);
  EXPECT_EQ(pr.fraction(), 1.0);
}

TEST(CoreSweep, TiledCurveStopsOnlyWhenItsInputsDoNotFit) {
  FakeClock clock;
  FakeWorkload work(&clock, kMsPerMac, 0.0);
  SweepConfig cfg;
  cfg.curves = {curve("tiled", KernelKind::AttentionTiled, {256, 512, 1024})};
  cfg.runs = 1;
  cfg.memory_budget_bytes = 1048576;  // n = 1024: 4·1024·64·4 + 16·67·4 = 1,052,864 bytes
  Sweep sweep;
  ASSERT_TRUE(sweep.start(cfg, clock.fn(), &work).ok);
  run_all(&sweep, &work, 100.0);
  const SweepCurveResult& r = sweep.results()[0];
  EXPECT_TRUE(r.stopped);
  EXPECT_STREQ(r.reason.code, "{0} at n = {1} needs {2} MB; the memory budget is {3} MB");
  EXPECT_EQ(r.reason.message, "attention-tiled at n = 1024 needs 1.004 MB; the memory budget is 1 MB");
  EXPECT_EQ(r.points[1].state, PointState::Measured);
  EXPECT_EQ(r.points[2].state, PointState::Skipped);
}

TEST(CoreSweep, CurveStopsWhenOneCallWouldBeTooSlow) {
  FakeClock clock;
  FakeWorkload work(&clock, kMsPerMac, 0.0);
  SweepConfig cfg;
  cfg.curves = {curve("naive", KernelKind::AttentionNaive, {256, 512, 1024, 2048}),
                curve("elman", KernelKind::Elman, {256, 512, 1024, 2048})};
  cfg.runs = 1;
  cfg.max_call_ms = 10.0;  // naive n = 1024 extrapolates to 2·1024²·64·1e-7 = 13.42 ms
  Sweep sweep;
  ASSERT_TRUE(sweep.start(cfg, clock.fn(), &work).ok);
  run_all(&sweep, &work, 100.0);
  const SweepCurveResult& naive = sweep.results()[0];
  EXPECT_TRUE(naive.stopped);
  EXPECT_EQ(naive.reason.message, "attention-naive at n = 1024 would take about 13.42 ms per call; the limit is 10 ms");
  EXPECT_EQ(naive.points[1].state, PointState::Measured);
  EXPECT_EQ(naive.points[2].state, PointState::Skipped);
  EXPECT_FALSE(sweep.results()[1].stopped);  // Elman n = 2048: 2048·2·64²·1e-7 = 1.7 ms
}

// ---- operation counts ------------------------------------------------------------------------------------------

TEST(CoreSweep, CountsEveryMultiplyAdd) {
  FakeClock clock;
  FakeWorkload work(&clock, kMsPerMac, 0.0);
  SweepConfig cfg;
  cfg.curves = {curve("naive", KernelKind::AttentionNaive, {64, 128}),
                curve("gru", KernelKind::Gru, {64, 128}, KernelImpl::Scalar, 32, 48)};
  cfg.runs = 2;
  Sweep sweep;
  ASSERT_TRUE(sweep.start(cfg, clock.fn(), &work).ok);
  run_all(&sweep, &work, 10.0);
  long long macs = 0, calls = 0;
  for (size_t c = 0; c < 2; ++c)
    for (const SweepPoint& pt : sweep.results()[c].points) {
      EXPECT_EQ(pt.macs_per_call, kernel_macs(cfg.curves[c].kind, pt.n, cfg.curves[c].d, cfg.curves[c].hidden));
      EXPECT_EQ(pt.macs, pt.calls * pt.macs_per_call);
      long long sampled = 0;
      for (const SweepSample& s : pt.samples) sampled += s.reps;
      EXPECT_GE(pt.calls, sampled);
      macs += pt.macs;
      calls += pt.calls;
    }
  EXPECT_EQ(sweep.macs_done(), macs);
  EXPECT_EQ(sweep.calls_done(), calls);
  EXPECT_EQ(work.calls, calls);
  // GRU n = 64, d = 32, hidden 48: 3·64·48·80 = 737,280 multiply-adds per call
  EXPECT_EQ(sweep.results()[1].points[0].macs_per_call, 737280);
  // and the fake clock moved exactly by that work
  EXPECT_NEAR(clock.now, static_cast<double>(macs) * kMsPerMac, 1e-6);
}

// The real kernels, timed by a clock that advances by their multiply-adds: no wall time involved.
class MacClockWorkload : public SweepWorkload {
 public:
  explicit MacClockWorkload(FakeClock* clock) : clock_(clock) {}
  Status prepare(const SweepCurve& c, int n) override {
    curve_ = c;
    n_ = n;
    return real.prepare(c, n);
  }
  void run(long long reps) override {
    real.run(reps);
    ok = ok && real.last_status().ok;
    clock_->now += 1e-6 * static_cast<double>(reps * kernel_macs(curve_.kind, n_, curve_.d, curve_.hidden));
    for (float v : real.output()) finite = finite && std::isfinite(v);
  }
  int units(const SweepCurve& c, int n) const override { return real.units(c, n); }
  void run_units(int u0, int u1) override {
    real.run_units(u0, u1);
    ok = ok && real.last_status().ok;
    clock_->now += 1e-6 * static_cast<double>(kernel_macs(curve_.kind, n_, curve_.d, curve_.hidden)) *
                   static_cast<double>(u1 - u0) / static_cast<double>(n_);
    ++parts;
    if (u1 == n_)
      for (float v : real.output()) finite = finite && std::isfinite(v);
  }
  void release() override { real.release(); }
  KernelWorkload real{7};
  bool ok = true, finite = true;
  int parts = 0;

 private:
  FakeClock* clock_;
  SweepCurve curve_;
  int n_ = 0;
};

TEST(CoreSweep, RealKernelsUnderAFakeClock) {
  FakeClock clock;
  MacClockWorkload work(&clock);
  SweepConfig cfg;
  cfg.curves = {curve("naive", KernelKind::AttentionNaive, {8, 24}, KernelImpl::Simd, 16),
                curve("tiled", KernelKind::AttentionTiled, {8, 24}, KernelImpl::Scalar, 16),
                curve("elman", KernelKind::Elman, {8, 24}, KernelImpl::Simd, 16, 8),
                curve("gru", KernelKind::Gru, {8, 24}, KernelImpl::Scalar, 16, 8)};
  cfg.curves[1].tile = TileSizes{5, 3};
  cfg.runs = 2;
  cfg.min_sample_ms = 0.2;
  Sweep sweep;
  ASSERT_TRUE(sweep.start(cfg, clock.fn(), &work).ok);
  for (int i = 0; i < 1000 && sweep.state() == SweepState::Running; ++i) (void)sweep.run_slice(1.0);
  ASSERT_EQ(sweep.state(), SweepState::Finished);
  EXPECT_TRUE(work.ok);
  EXPECT_TRUE(work.finite);
  for (size_t c = 0; c < cfg.curves.size(); ++c)
    for (const SweepPoint& pt : sweep.results()[c].points) {
      EXPECT_EQ(pt.state, PointState::Measured);
      // time = 1e-6 ms per multiply-add exactly, so the median is known
      EXPECT_NEAR(pt.median_ms, 1e-6 * static_cast<double>(pt.macs_per_call), 1e-12);
    }
  EXPECT_NEAR(clock.now, 1e-6 * static_cast<double>(sweep.macs_done()), 1e-6);
}

// ---- calls split into parts (rule 4) -------------------------------------------------------------------------

// KernelWorkload: running a call as parts gives exactly the output of one run(1), for every kernel and path.
// Cuts of 1 unit, odd sizes and tile-unaligned starts (tiles of 3 query rows, SIMD blocks of 2 rows).
TEST(CoreSweepKernelWorkload, PartsGiveTheOutputOfOneCall) {
  const int n = 37;
  const std::vector<int> cuts = {0, 1, 6, 17, 18, 30, 37};
  for (KernelKind kind : {KernelKind::AttentionNaive, KernelKind::AttentionTiled, KernelKind::Elman, KernelKind::Gru})
    for (KernelImpl impl : {KernelImpl::Scalar, KernelImpl::Simd}) {
      const std::string name = std::string(kernel_kind_name(kind)) + " " + kernel_impl_name(impl);
      SCOPED_TRACE(name);
      SweepCurve c = curve("k", kind, {n}, impl, 16, 12);
      c.tile = TileSizes{5, 3};
      KernelWorkload w(11);
      ASSERT_TRUE(w.prepare(c, n).ok);
      EXPECT_EQ(w.units(c, n), n);
      w.run(1);
      ASSERT_TRUE(w.last_status().ok) << w.last_status().message;
      const std::vector<float> whole(w.output().begin(), w.output().end());
      ASSERT_TRUE(w.prepare(c, n).ok);  // same seed: the same inputs, the output zeroed again
      for (size_t i = 0; i + 1 < cuts.size(); ++i) {
        w.run_units(cuts[i], cuts[i + 1]);
        ASSERT_TRUE(w.last_status().ok) << cuts[i] << ".." << cuts[i + 1] << ": " << w.last_status().message;
      }
      ASSERT_EQ(w.output().size(), whole.size());
      double worst = 0.0;
      int nonzero = 0;
      for (size_t i = 0; i < whole.size(); ++i) {
        worst = std::max(worst, std::fabs(static_cast<double>(w.output()[i]) - whole[i]));
        nonzero += whole[i] != 0.0f;
      }
      EXPECT_GT(nonzero, static_cast<int>(whole.size()) / 2);  // a row left at 0 by the parts would show
      EXPECT_EQ(ref::report(name + " parts vs one call", worst), 0.0);
    }
}

TEST(CoreSweepKernelWorkload, RefusesUnitRangesOutsideTheCall) {
  struct Case {
    KernelKind kind;
    int u0, u1;
    const char* message;
  };
  const Case cases[] = {
      {KernelKind::AttentionNaive, 5, 3, "query rows [5, 3) are not a range within the 8 queries"},
      {KernelKind::AttentionTiled, 0, 9, "query rows [0, 9) are not a range within the 8 queries"},
      {KernelKind::Elman, 5, 3, "u0 (5) must not be larger than u1 (3)"},
      {KernelKind::Gru, 0, 9, "u1 (9) must not be larger than n (8)"},
      {KernelKind::Gru, -1, 2, "u0 must be a finite number of at least 0, got -1"},
  };
  for (const Case& k : cases) {
    KernelWorkload w;
    ASSERT_TRUE(w.prepare(curve("k", k.kind, {8}, KernelImpl::Scalar, 4), 8).ok);
    w.run_units(k.u0, k.u1);
    EXPECT_EQ(w.last_status().message, k.message);
    w.run_units(3, 3);  // an empty range is allowed
    EXPECT_TRUE(w.last_status().ok) << kernel_kind_name(k.kind);
  }
  KernelWorkload unprepared;
  unprepared.run_units(0, 0);
  EXPECT_FALSE(unprepared.last_status().ok);
}

// Runs slices like the page: one per frame, with `draw_ms` of drawing between them (the clock moves, the
// workload does not), so a sample timed from its first part to its last would include the drawing.
std::vector<SliceReport> run_frames(Sweep* sweep, FakeClock* clock, FakeWorkload* work, double budget,
                                    double draw_ms, int max_slices = 100000) {
  std::vector<SliceReport> reports;
  for (int i = 0; i < max_slices && sweep->state() == SweepState::Running; ++i) {
    work->steps_in_slice = 0;
    reports.push_back(sweep->run_slice(budget));
    clock->now += draw_ms;
  }
  return reports;
}

TEST(CoreSweep, LongCallsRunInPartsAndNoSliceOverrunsTheBudget) {
  FakeClock clock;
  FakeWorkload work(&clock, kMsPerMac, 5e-8);
  work.splittable = true;
  SweepConfig cfg;
  cfg.curves = {curve("naive", KernelKind::AttentionNaive, {64, 512, 2048, 4096}),
                curve("gru", KernelKind::Gru, {64, 1024, 4096}, KernelImpl::Simd, 64, 256),
                curve("cold", KernelKind::AttentionNaive, {2048})};  // first call 53.7 ms with no estimate
  cfg.runs = 3;
  Sweep sweep;
  ASSERT_TRUE(sweep.start(cfg, clock.fn(), &work).ok);
  const double budget = 12.0, draw = 4.0;
  const std::vector<SliceReport> reports = run_frames(&sweep, &clock, &work, budget, draw);
  ASSERT_EQ(sweep.state(), SweepState::Finished);
  EXPECT_TRUE(work.parts_in_order);

  // Only one slice overran: the cold curve's first call, which had no estimate and so ran whole, alone.
  int overruns = 0, with_parts = 0;
  double used = 0.0;
  for (const SliceReport& r : reports) {
    used += r.used_ms;
    if (r.parts > 0) ++with_parts;
    if (r.used_ms > budget + 1e-9) {
      ++overruns;
      EXPECT_TRUE(r.overran);
      EXPECT_EQ(r.steps, 1);
      EXPECT_EQ(r.parts, 0);
      EXPECT_NEAR(r.used_ms, kMsPerMac * static_cast<double>(attention_macs(2048, 64)), 1e-9);
    } else {
      EXPECT_FALSE(r.overran) << r.used_ms;
    }
  }
  EXPECT_EQ(overruns, 1);
  EXPECT_GT(with_parts, 100);
  EXPECT_NEAR(used + draw * static_cast<double>(reports.size()), clock.now, 1e-6);
  // every part was planned to take at most 0.6 × budget, and with exact estimates it did
  ASSERT_FALSE(work.part_ms.empty());
  for (double ms : work.part_ms) EXPECT_LE(ms, 0.6 * budget + 1e-9);

  // A split sample is one call; its time is the sum of its parts (the drawing between them is not counted).
  const SweepPoint& naive2048 = sweep.results()[0].points[2];
  const double call2048 = kMsPerMac * static_cast<double>(attention_macs(2048, 64));
  ASSERT_EQ(naive2048.samples.size(), 3u);
  for (const SweepSample& smp : naive2048.samples) {
    EXPECT_EQ(smp.reps, 1);
    EXPECT_EQ(smp.parts, 8);  // 0.6 × 12 ms / (53.69 ms / 2048 rows) = 274.7 → at most 274 rows a part
    EXPECT_NEAR(smp.ms, call2048, 1e-9);
  }
  EXPECT_EQ(naive2048.calls, 3);
  const SweepPoint& cold = sweep.results()[2].points[0];
  ASSERT_EQ(cold.samples.size(), 3u);
  EXPECT_EQ(cold.samples[0].parts, 1);  // the unknown first call
  EXPECT_EQ(cold.samples[1].parts, 8);
  EXPECT_EQ(cold.samples[2].parts, 8);
  EXPECT_EQ(cold.calls, 3);
  for (size_t c = 0; c < cfg.curves.size(); ++c)
    for (const SweepPoint& pt : sweep.results()[c].points) {
      ASSERT_EQ(pt.state, PointState::Measured);
      const double per_call = kMsPerMac * static_cast<double>(pt.macs_per_call);
      EXPECT_NEAR(pt.median_ms / per_call, 1.0, 1e-9) << cfg.curves[c].label << "@" << pt.n;
      for (const SweepSample& smp : pt.samples)
        if (smp.parts > 1) {
          EXPECT_EQ(smp.reps, 1);
          EXPECT_GT(per_call, budget);  // only calls longer than the budget are split
        }
    }
  EXPECT_EQ(sweep.results()[0].points[3].samples[0].parts, 30);  // naive 4096: 214.7 ms, ≤ 137 rows a part
  EXPECT_EQ(sweep.calls_done(), work.calls);
}

// Without parts (a workload whose calls cannot be split) the same sweep overruns on every long call.
TEST(CoreSweep, UnsplittableWorkloadOverrunsOnLongCalls) {
  FakeClock clock;
  FakeWorkload work(&clock, kMsPerMac, 5e-8);
  SweepConfig cfg;
  cfg.curves = {curve("naive", KernelKind::AttentionNaive, {64, 512, 2048})};
  cfg.runs = 3;
  Sweep sweep;
  ASSERT_TRUE(sweep.start(cfg, clock.fn(), &work).ok);
  const std::vector<SliceReport> reports = run_frames(&sweep, &clock, &work, 12.0, 4.0);
  ASSERT_EQ(sweep.state(), SweepState::Finished);
  int overruns = 0;
  for (const SliceReport& r : reports) {
    overruns += r.overran;
    EXPECT_EQ(r.parts, 0);
  }
  EXPECT_EQ(overruns, 3);
  EXPECT_EQ(work.parts_run, 0);
  for (const SweepSample& smp : sweep.results()[0].points[2].samples) EXPECT_EQ(smp.parts, 1);
}

TEST(CoreSweep, SplitCallIsCountedOnceWhenItsLastPartEnds) {
  FakeClock clock;
  FakeWorkload work(&clock, kMsPerMac, 0.0);
  work.splittable = true;
  SweepConfig cfg;
  cfg.curves = {curve("naive", KernelKind::AttentionNaive, {512, 2048})};
  cfg.runs = 1;
  Sweep sweep;
  ASSERT_TRUE(sweep.start(cfg, clock.fn(), &work).ok);
  // during the parts, the counters still read what they read before the call
  std::vector<long long> calls_seen_in_parts;
  work.on_part = [&](int, int) { calls_seen_in_parts.push_back(sweep.calls_done()); };
  long long calls_before_2048 = -1;
  int slices_with_parts = 0;
  while (sweep.state() == SweepState::Running) {
    const long long calls = sweep.calls_done(), macs = sweep.macs_done();
    const SliceReport r = sweep.run_slice(12.0);
    if (r.parts == 0) continue;
    ++slices_with_parts;
    if (calls_before_2048 < 0) calls_before_2048 = calls;
    if (r.samples == 0) {
      EXPECT_EQ(sweep.calls_done(), calls);
      EXPECT_EQ(sweep.macs_done(), macs);
    } else {
      EXPECT_EQ(sweep.calls_done(), calls + 1);
      EXPECT_EQ(sweep.macs_done(), macs + attention_macs(2048, 64));
    }
  }
  ASSERT_EQ(sweep.state(), SweepState::Finished);
  EXPECT_EQ(slices_with_parts, 8);
  EXPECT_EQ(work.parts_run, 8);
  ASSERT_EQ(calls_seen_in_parts.size(), 8u);
  for (long long c : calls_seen_in_parts) EXPECT_EQ(c, calls_before_2048);
  const SweepPoint& pt = sweep.results()[0].points[1];
  EXPECT_EQ(pt.calls, 1);
  EXPECT_EQ(pt.macs, pt.macs_per_call);
  EXPECT_EQ(sweep.calls_done(), calls_before_2048 + 1);
  EXPECT_EQ(sweep.calls_done(), work.calls);
}

// cancel() between two parts of one call, in a slice with room for both: the second does not run, and the
// cut call is neither counted nor recorded.
TEST(CoreSweep, CancelTakesEffectBetweenParts) {
  // budget 40 ms: naive n = 2048 (53.7 ms) runs as 3 parts of ~17.9 ms, so two fit in one slice
  auto setup = [](FakeClock* clock, FakeWorkload* work, Sweep* sweep) {
    work->splittable = true;
    SweepConfig cfg;
    cfg.curves = {curve("naive", KernelKind::AttentionNaive, {512, 2048})};
    cfg.runs = 3;
    ASSERT_TRUE(sweep->start(cfg, clock->fn(), work).ok);
  };
  // Without cancel: the slice that runs the first part also runs the second.
  {
    FakeClock clock;
    FakeWorkload work(&clock, kMsPerMac, 0.0);
    Sweep sweep;
    setup(&clock, &work, &sweep);
    int parts_in_first_slice = -1;
    while (sweep.state() == SweepState::Running && parts_in_first_slice < 0) {
      const SliceReport r = sweep.run_slice(40.0);
      if (r.parts > 0) parts_in_first_slice = r.parts;
    }
    EXPECT_EQ(parts_in_first_slice, 2);
  }
  FakeClock clock;
  FakeWorkload work(&clock, kMsPerMac, 0.0);
  Sweep sweep;
  setup(&clock, &work, &sweep);
  work.on_part = [&](int, int) { sweep.cancel(); };
  long long calls_before = 0;
  SliceReport r;
  while (sweep.state() == SweepState::Running) {
    calls_before = sweep.calls_done();
    r = sweep.run_slice(40.0);
  }
  EXPECT_EQ(sweep.state(), SweepState::Cancelled);
  EXPECT_EQ(r.state, SweepState::Cancelled);
  EXPECT_EQ(r.parts, 1);
  EXPECT_EQ(work.parts_run, 1);
  const SweepPoint& pt = sweep.results()[0].points[1];
  EXPECT_EQ(pt.state, PointState::Pending);
  EXPECT_TRUE(pt.samples.empty());
  EXPECT_EQ(pt.calls, 0);
  EXPECT_EQ(sweep.calls_done(), calls_before);
  EXPECT_EQ(sweep.results()[0].points[0].state, PointState::Measured);  // results so far stay
  EXPECT_EQ(work.releases, 1);
  const double t = clock.now;
  EXPECT_EQ(sweep.run_slice(40.0).steps, 0);
  EXPECT_EQ(clock.now, t);
  EXPECT_EQ(work.parts_run, 1);
}

// The real kernels in parts, timed by a clock that advances by their multiply-adds.
TEST(CoreSweep, RealKernelsInPartsUnderAFakeClock) {
  FakeClock clock;
  MacClockWorkload work(&clock);
  SweepConfig cfg;
  cfg.curves = {curve("naive", KernelKind::AttentionNaive, {8, 40, 96}, KernelImpl::Simd, 16),
                curve("tiled", KernelKind::AttentionTiled, {8, 40, 96}, KernelImpl::Scalar, 16),
                curve("elman", KernelKind::Elman, {8, 40, 96}, KernelImpl::Simd, 16, 24),
                curve("gru", KernelKind::Gru, {8, 40, 96}, KernelImpl::Scalar, 16, 24)};
  cfg.curves[1].tile = TileSizes{5, 3};
  cfg.runs = 2;
  cfg.min_sample_ms = 0.05;
  Sweep sweep;
  ASSERT_TRUE(sweep.start(cfg, clock.fn(), &work).ok);
  // budget 0.1 ms: naive n = 96 (2·96²·16 = 294,912 multiply-adds = 0.29 ms) runs in parts
  for (int i = 0; i < 10000 && sweep.state() == SweepState::Running; ++i) (void)sweep.run_slice(0.1);
  ASSERT_EQ(sweep.state(), SweepState::Finished);
  EXPECT_TRUE(work.ok);
  EXPECT_TRUE(work.finite);
  EXPECT_GT(work.parts, 0);
  int split_samples = 0;
  for (size_t c = 0; c < cfg.curves.size(); ++c)
    for (const SweepPoint& pt : sweep.results()[c].points) {
      EXPECT_EQ(pt.state, PointState::Measured);
      EXPECT_NEAR(pt.median_ms / (1e-6 * static_cast<double>(pt.macs_per_call)), 1.0, 1e-9);
      for (const SweepSample& smp : pt.samples) split_samples += smp.parts > 1;
    }
  EXPECT_GT(split_samples, 0);
}

// ---- failed allocation (rule 7) -------------------------------------------------------------------------------

TEST(CoreSweepKernelWorkload, ReportsAFailedAllocationInsteadOfAborting) {
  const SweepCurve c = curve("naive", KernelKind::AttentionNaive, {512}, KernelImpl::Scalar, 64);
  KernelWorkload w;
  w.set_allocation_limit_for_testing(1 << 20);
  ASSERT_TRUE(w.prepare(c, 256).ok);  // 4·256·64·4 + 256²·4 bytes = 0.5 MB
  EXPECT_EQ(w.bytes_held(), 4 * 256 * 64 * 4 + 256 * 256 * 4);
  const Status s = w.prepare(c, 512);  // 0.5 MB + 1 MB of scores
  EXPECT_FALSE(s.ok);
  EXPECT_STREQ(s.code, "{0} at n = {1} needs {2} MB, but that memory could not be allocated");
  EXPECT_EQ(s.message, "attention-naive at n = 512 needs 1.5 MB, but that memory could not be allocated");
  EXPECT_EQ(w.bytes_held(), 0);  // everything given back
  w.run(1);                      // not runnable after a failed prepare: the kernel says so, nothing crashes
  EXPECT_FALSE(w.last_status().ok);
  w.set_allocation_limit_for_testing(-1);
  ASSERT_TRUE(w.prepare(c, 512).ok);
  w.run(1);
  EXPECT_TRUE(w.last_status().ok) << w.last_status().message;
}

TEST(CoreSweep, FailedAllocationStopsTheCurveWhileOthersFinish) {
  FakeClock clock;
  MacClockWorkload work(&clock);
  // 1.25 MB, as if the heap could not grow further: naive n = 512 needs 1.5 MB (1 MB of scores), tiled n = 1024
  // 1.004 MB, Elman n = 1024 0.53 MB (buffers are shared between curves and freed after the failure)
  work.real.set_allocation_limit_for_testing(1310720);
  SweepConfig cfg;
  cfg.curves = {curve("naive", KernelKind::AttentionNaive, {64, 256, 512, 1024}),
                curve("tiled", KernelKind::AttentionTiled, {64, 256, 512, 1024}),
                curve("elman", KernelKind::Elman, {64, 256, 512, 1024})};
  cfg.runs = 1;
  cfg.min_sample_ms = 1.0;
  Sweep sweep;
  ASSERT_TRUE(sweep.start(cfg, clock.fn(), &work).ok);  // the memory budget (256 MB) is not what stops it
  for (int i = 0; i < 10000 && sweep.state() == SweepState::Running; ++i) (void)sweep.run_slice(20.0);
  ASSERT_EQ(sweep.state(), SweepState::Finished);
  EXPECT_TRUE(work.ok);
  const SweepCurveResult& naive = sweep.results()[0];
  EXPECT_TRUE(naive.stopped);
  EXPECT_STREQ(naive.reason.code, "{0} at n = {1} needs {2} MB, but that memory could not be allocated");
  EXPECT_EQ(naive.reason.message, "attention-naive at n = 512 needs 1.5 MB, but that memory could not be allocated");
  const PointState want[] = {PointState::Measured, PointState::Measured, PointState::Skipped, PointState::Skipped};
  for (int i = 0; i < 4; ++i) EXPECT_EQ(naive.points[i].state, want[i]) << i;
  EXPECT_EQ(naive.points[2].calls, 0);
  for (int c = 1; c < 3; ++c) {
    SCOPED_TRACE(cfg.curves[c].label);
    EXPECT_FALSE(sweep.results()[c].stopped);
    for (const SweepPoint& pt : sweep.results()[c].points) EXPECT_EQ(pt.state, PointState::Measured) << pt.n;
  }
  EXPECT_EQ(sweep.progress().points_skipped, 2);
}

// ---- validation ----------------------------------------------------------------------------------------------

struct BadConfig {
  const char* name;
  std::function<void(SweepConfig*)> edit;
  const char* message;
};

class CoreSweepRefuses : public ::testing::TestWithParam<BadConfig> {};

TEST_P(CoreSweepRefuses, WithAMessage) {
  const BadConfig& b = GetParam();
  SweepConfig cfg;
  cfg.curves = {curve("naive", KernelKind::AttentionNaive, {64, 128})};
  b.edit(&cfg);
  FakeClock clock;
  FakeWorkload work(&clock, kMsPerMac, 0.0);
  Sweep sweep;
  const Status s = sweep.start(cfg, clock.fn(), &work);
  EXPECT_FALSE(s.ok);
  EXPECT_EQ(s.message, b.message);
  EXPECT_EQ(sweep.state(), SweepState::Idle);
}

INSTANTIATE_TEST_SUITE_P(
    CoreSweep, CoreSweepRefuses,
    ::testing::Values(
        BadConfig{"no_curves", [](SweepConfig* c) { c->curves.clear(); }, "a sweep needs at least one curve"},
        BadConfig{"no_lengths", [](SweepConfig* c) { c->curves[0].ns.clear(); }, "curve 0 has no sequence lengths"},
        BadConfig{"not_increasing", [](SweepConfig* c) { c->curves[0].ns = {64, 64}; },
                  "curve 0: sequence lengths must increase, but 64 follows 64"},
        BadConfig{"n_zero", [](SweepConfig* c) { c->curves[0].ns = {0, 4}; },
                  "n (tokens) must be between 1 and 1048576, got 0"},
        BadConfig{"d_too_large", [](SweepConfig* c) { c->curves[0].d = 5000; },
                  "d (width) must be between 1 and 4096, got 5000"},
        BadConfig{"hidden_too_large", [](SweepConfig* c) { c->curves[0].hidden = 4097; },
                  "hidden size must be between 1 and 4096, got 4097"},
        BadConfig{"tile_zero",
                  [](SweepConfig* c) {
                    c->curves[0].kind = KernelKind::AttentionTiled;
                    c->curves[0].tile.keys = 0;
                  },
                  "key tile must be between 1 and 4096, got 0"},
        BadConfig{"runs_zero", [](SweepConfig* c) { c->runs = 0; }, "runs must be between 1 and 99, got 0"},
        BadConfig{"runs_100", [](SweepConfig* c) { c->runs = 100; }, "runs must be between 1 and 99, got 100"},
        BadConfig{"min_sample_zero", [](SweepConfig* c) { c->min_sample_ms = 0.0; },
                  "min_sample_ms must be a finite number greater than 0, got 0"},
        BadConfig{"min_sample_nan", [](SweepConfig* c) { c->min_sample_ms = std::nan(""); },
                  "min_sample_ms must be a finite number greater than 0, got NaN"},
        BadConfig{"memory_negative", [](SweepConfig* c) { c->memory_budget_bytes = -1.0; },
                  "memory_budget_bytes must be a finite number greater than 0, got -1"},
        BadConfig{"max_call_zero", [](SweepConfig* c) { c->max_call_ms = 0.0; },
                  "max_call_ms must be a finite number greater than 0, got 0"},
        BadConfig{"max_reps_zero", [](SweepConfig* c) { c->max_reps = 0; },
                  "max_reps must be between 1 and 1073741824, got 0"}),
    [](const ::testing::TestParamInfo<BadConfig>& info) { return std::string(info.param.name); });

TEST(CoreSweep, RefusesNullClockBadBudgetAndSlicesBeforeStart) {
  Sweep sweep;
  SliceReport r = sweep.run_slice(5.0);
  EXPECT_FALSE(r.status.ok);
  EXPECT_EQ(r.status.message, "the sweep has not been started");
  SweepConfig cfg;
  cfg.curves = {curve("naive", KernelKind::AttentionNaive, {64})};
  EXPECT_EQ(sweep.start(cfg, SweepClock{}, nullptr).message, "clock is a null pointer");
  FakeClock clock;
  FakeWorkload work(&clock, kMsPerMac, 0.0);
  ASSERT_TRUE(sweep.start(cfg, clock.fn(), &work).ok);
  r = sweep.run_slice(0.0);
  EXPECT_EQ(r.status.message, "budget_ms must be a finite number greater than 0, got 0");
  EXPECT_EQ(r.steps, 0);
  r = sweep.run_slice(std::nan(""));
  EXPECT_EQ(r.status.message, "budget_ms must be a finite number greater than 0, got NaN");
  EXPECT_EQ(clock.now, 0.0);
  EXPECT_EQ(sweep.state(), SweepState::Running);
}

}  // namespace
}  // namespace ap
