// The cost lab's measured parallel speed-up (CostScene::start_workers, app/worker_pool.h): the job list, the
// calls per run set by the calibration run, medians, speed-ups, the GRU's hand-off per step, output checks,
// failures and cancelling — driven by a fake pool whose "times" are a formula, so nothing depends on wall
// time. Then the desktop's real thread pool, checked for equal outputs (never for speed).
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "app/api.h"
#include "app/scenes/cost_scene.h"
#include "app/worker_pool.h"
#include "helpers.h"

namespace ap {
namespace AP_UNITY_ID {  // this file's own namespace in a unity build (CMakeLists.txt, AP_UNITY)

using namespace ::ap::test;
using nlohmann::json;

// Attention: W workers take 12/W ms per call (perfect split). GRU: 3/W ms of work per sequence plus
// 0.05 ms per step for each hand-off when W > 1.
struct FakePool final : WorkerPool {
  int max = 4;
  std::vector<WorkerJob> jobs;
  bool pending = false;
  int cancels = 0;
  int fail_at = -1;            // the index of a job that fails
  int wrong_checksum_at = -1;  // the index of a job whose output differs
  int max_workers() const override { return max; }
  const char* name() const override { return "fake"; }
  bool submit(const WorkerJob& job) override {
    if (pending) return false;
    jobs.push_back(job);
    pending = true;
    return true;
  }
  static double ms_of(const WorkerJob& j) {
    if (j.kind == WorkerJobKind::Attention) return 12.0 / j.workers;
    return 3.0 / j.workers + (j.workers > 1 ? 0.05 * j.n : 0.0);
  }
  bool poll(WorkerResult* out) override {
    if (!pending) return false;
    pending = false;
    const int index = static_cast<int>(jobs.size()) - 1;
    *out = WorkerResult{};
    if (index == fail_at) {
      out->error = "worker 2 ran out of memory";
      return true;
    }
    out->ok = true;
    out->ms = ms_of(jobs.back());
    out->checksum = (jobs.back().kind == WorkerJobKind::Attention ? 41.5 : -3.25) + (index == wrong_checksum_at ? 1.0 : 0.0);
    return true;
  }
  void cancel() override {
    ++cancels;
    pending = false;
  }
};

CostScene& cost(PlaygroundState& st) { return *st.get<CostScene>(); }

// The playground with the cost scene on screen (getState describes the current scene).
void open_cost(PlaygroundState& st) { ASSERT_TRUE(parse(set_state_json(st, R"({"scene":"cost"})")).value("ok", false)); }

void drive(CostScene& c, int polls = 100) {
  for (int i = 0; i < polls && c.workers_running(); ++i) c.poll();
}

TEST(AppCostWorkers, WarmsCalibratesThenRunsEveryWorkerCountThreeTimesInterleaved) {
  PlaygroundState st;
  FakePool pool;
  cost(st).set_worker_pool(&pool);
  ASSERT_TRUE(cost(st).start_workers().ok);
  drive(cost(st));
  const WorkerMeasure& m = cost(st).workers();
  ASSERT_EQ(m.state, WorkerMeasure::State::Finished) << m.error.message;
  // W = 1, 2, 4 for each layer: a warm-up on all 4 workers, a calibration on one, 3 × 3 timed runs.
  ASSERT_EQ(pool.jobs.size(), 22u);
  EXPECT_EQ(m.jobs_total, 22);
  EXPECT_EQ(m.jobs_done, 22);
  EXPECT_EQ(pool.jobs[0].workers, 4);
  // The warm-up: about 2^31 multiply-adds (n = 512, d = 64: 2^25 per call, so 64 calls).
  EXPECT_EQ(pool.jobs[0].reps, 64);
  EXPECT_EQ(pool.jobs[1].workers, 1);
  EXPECT_EQ(pool.jobs[1].reps, 1);
  EXPECT_EQ(pool.jobs[0].kind, WorkerJobKind::Attention);
  // 12 ms per call at W = 1: ceil(kAttentionSpanMs / 12) calls per timed run.
  const long long reps = static_cast<long long>(std::ceil(cost_limits::kAttentionSpanMs / 12.0));
  EXPECT_GT(reps, 1);
  EXPECT_EQ(m.reps_attention, reps);
  std::vector<int> order;
  for (size_t i = 2; i < 11; ++i) {
    EXPECT_EQ(pool.jobs[i].reps, reps);
    order.push_back(pool.jobs[i].workers);
  }
  EXPECT_EQ(order, (std::vector<int>{1, 2, 4, 1, 2, 4, 1, 2, 4})) << "interleaved";
  EXPECT_EQ(pool.jobs[11].kind, WorkerJobKind::Gru);
  EXPECT_EQ(pool.jobs[11].reps, 8) << "the GRU's warm-up: at most 4096 steps (8 sequences of 512)";
  EXPECT_EQ(pool.jobs[12].reps, 1);
  // 3 ms per sequence at W = 1, n = 512: ceil(kGruSpanMs / 3) sequences per run (cap 8192 / 512 = 16).
  EXPECT_EQ(m.reps_gru, std::min(16LL, static_cast<long long>(std::ceil(cost_limits::kGruSpanMs / 3.0))));
  ASSERT_EQ(m.attention.size(), 3u);
  for (const WorkerPoint& p : m.attention) {
    EXPECT_EQ(p.samples.size(), 3u);
    EXPECT_NEAR(p.speedup, p.workers, 1e-12) << "a perfect split";
    EXPECT_TRUE(p.same_output);
  }
  ASSERT_EQ(m.gru.size(), 3u);
  EXPECT_LT(m.gru[2].speedup, 0.2) << "n hand-offs swamp the split work";
  // Hand-off per step at W = 4: (3/4 + 0.05·512 − 3/4) ms / 512 steps = 50 µs.
  EXPECT_NEAR(m.handoff_us, 50.0, 1e-9);
}

TEST(AppCostWorkers, WorkerCountsAreThePowersOfTwoAndTheMaximum) {
  PlaygroundState st;
  FakePool pool;
  pool.max = 6;
  cost(st).set_worker_pool(&pool);
  ASSERT_TRUE(cost(st).start_workers().ok);
  drive(cost(st));
  std::vector<int> ws;
  for (const WorkerPoint& p : cost(st).workers().attention) ws.push_back(p.workers);
  EXPECT_EQ(ws, (std::vector<int>{1, 2, 4, 6}));
}

TEST(AppCostWorkers, ADifferentOutputIsReported) {
  PlaygroundState st;
  open_cost(st);
  FakePool pool;
  pool.wrong_checksum_at = 6;  // an attention run at W = 2 (warm, calibrate, 1, 2, 4, 1, 2)
  cost(st).set_worker_pool(&pool);
  ASSERT_TRUE(cost(st).start_workers().ok);
  drive(cost(st));
  const WorkerMeasure& m = cost(st).workers();
  EXPECT_TRUE(m.attention[0].same_output);
  EXPECT_FALSE(m.attention[1].same_output);
  EXPECT_FALSE(state(st, false)["measured"]["workers"]["attention"][1]["same_output"].get<bool>());
}

TEST(AppCostWorkers, AFailedJobStopsTheMeasurementWithItsMessage) {
  PlaygroundState st;
  open_cost(st);
  FakePool pool;
  pool.fail_at = 4;
  cost(st).set_worker_pool(&pool);
  ASSERT_TRUE(cost(st).start_workers().ok);
  drive(cost(st));
  const WorkerMeasure& m = cost(st).workers();
  EXPECT_EQ(m.state, WorkerMeasure::State::Failed);
  EXPECT_NE(m.error.message.find("ran out of memory"), std::string::npos) << m.error.message;
  EXPECT_EQ(pool.jobs.size(), 5u) << "nothing is submitted after a failure";
  const json w = state(st, false)["measured"]["workers"];
  EXPECT_EQ(str(w["state"]), "failed");
  EXPECT_NE(str(w["error"]).find("ran out of memory"), std::string::npos);
}

TEST(AppCostWorkers, PageApiStartsAndCancels) {
  PlaygroundState st;
  FakePool pool;
  cost(st).set_worker_pool(&pool);
  ASSERT_TRUE(parse(set_state_json(st, R"({"scene":"cost","workers":"start"})")).value("ok", false));
  EXPECT_TRUE(cost(st).workers_running());
  cost(st).poll();
  EXPECT_EQ(str(state(st, false)["measured"]["workers"]["state"]), "running");
  ASSERT_TRUE(parse(set_state_json(st, R"({"workers":"cancel"})")).value("ok", false));
  EXPECT_EQ(pool.cancels, 1);
  EXPECT_EQ(str(state(st, false)["measured"]["workers"]["state"]), "cancelled");
  const json bad = parse(set_state_json(st, R"({"workers":"faster"})"));
  EXPECT_FALSE(bad.value("ok", true));
  EXPECT_NE(str(bad["error"]).find("workers must be"), std::string::npos) << bad.dump();
}

TEST(AppCostWorkers, WithoutAPoolStartIsRefusedAndTheStateStays) {
  PlaygroundState st;
  cost(st).set_worker_pool(nullptr);
  ASSERT_TRUE(parse(set_state_json(st, R"({"scene":"cost","n":1024})")).value("ok", false));
  const json bad = parse(set_state_json(st, R"({"n":64,"workers":"start"})"));
  EXPECT_FALSE(bad.value("ok", true));
  EXPECT_NE(str(bad["error"]).find("not available"), std::string::npos) << bad.dump();
  EXPECT_EQ(cost(st).params().n, 1024) << "the last good state stays";
  EXPECT_FALSE(cost(st).start_workers().ok);
}

TEST(AppCostWorkers, LargeAttentionIsShrunkBelowTwoToTheThirtyOneMultiplyAdds) {
  PlaygroundState st;
  FakePool pool;
  cost(st).set_worker_pool(&pool);
  CostParams p = cost(st).params();
  p.n = 65536;
  p.d = 4096;
  ASSERT_TRUE(cost(st).apply(p).ok);
  ASSERT_TRUE(cost(st).start_workers().ok);
  const WorkerMeasure& m = cost(st).workers();
  EXPECT_EQ(m.d, 512);
  EXPECT_LE(kernel_macs(KernelKind::AttentionNaive, m.n_attention, m.d), 1LL << 31);
  EXPECT_EQ(m.n_gru, 4096);
}

#ifndef __EMSCRIPTEN__
// The desktop's threads: every W gives the one-thread output (never checks speed).
TEST(AppCostWorkers, ThreadPoolGivesTheSameOutputForEveryWorkerCount) {
  std::unique_ptr<WorkerPool> pool = make_thread_pool();
  ASSERT_TRUE(pool);
  ASSERT_GE(pool->max_workers(), 1);
  auto run = [&](WorkerJobKind kind, int W) {
    WorkerJob j;
    j.kind = kind;
    j.n = 96;
    j.d = 24;
    j.workers = W;
    j.reps = 2;
    EXPECT_TRUE(pool->submit(j));
    EXPECT_FALSE(pool->submit(j)) << "one job at a time";
    WorkerResult r;
    for (int i = 0; i < 20000 && !pool->poll(&r); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    EXPECT_TRUE(r.ok) << r.error;
    EXPECT_GT(r.ms, 0.0);
    return r.checksum;
  };
  const double a1 = run(WorkerJobKind::Attention, 1);
  for (int W : {2, 3}) EXPECT_NEAR(run(WorkerJobKind::Attention, W), a1, 1e-5 * std::abs(a1) + 1e-9) << W;
  const double g1 = run(WorkerJobKind::Gru, 1);
  for (int W : {2, 3}) EXPECT_EQ(run(WorkerJobKind::Gru, W), g1) << W;
}
#endif

}  // namespace
}  // namespace ap
