// The scene "Cost: attention vs RNN" (app/scenes/cost_scene.h): its table against core/cost_model.h, the document
// round trip, refusals that keep the last good state, and the measurement driven through the scene with a fake
// clock and a fake workload (time ∝ n² for attention, ∝ n for the RNNs), so that scheduling, slopes and the
// P-lane model are checked without any wall time.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <string>

#include "app/api.h"
#include "app/scenes/cost_scene.h"
#include "app/url.h"
#include "helpers.h"

namespace ap {
namespace AP_UNITY_ID {  // this file's own namespace in a unity build (CMakeLists.txt, AP_UNITY)

using namespace ::ap::test;
using nlohmann::json;

CostScene& cost(PlaygroundState& st) { return *st.get<CostScene>(); }

json view_of(const PlaygroundState& st) {
  json j = state(st, false);
  for (const char* k : {"errors", "frames", "view", "hover"}) j.erase(k);
  return j;
}

bool ok(const std::string& reply) { return parse(reply).value("ok", false); }

// A fake device: every call of a kernel advances the fake clock by its modelled time.
struct FakeDevice final : SweepWorkload {
  double now = 0;
  KernelKind kind = KernelKind::AttentionNaive;
  int n = 0;
  long long calls = 0;
  int prepares = 0;
  int releases = 0;
  double call_ms() const {
    const double x = n;
    switch (kind) {
      case KernelKind::AttentionNaive: return 1e-5 * x * x + 0.01;
      case KernelKind::AttentionTiled: return 1.2e-5 * x * x + 0.01;
      case KernelKind::Elman: return 2e-3 * x + 0.005;
      case KernelKind::Gru: return 6e-3 * x + 0.005;
    }
    return 1;
  }
  Status prepare(const SweepCurve& c, int n_) override {
    kind = c.kind;
    n = n_;
    ++prepares;
    now += 0.05;
    return Status::Ok();
  }
  void run(long long reps) override {
    calls += reps;
    now += call_ms() * static_cast<double>(reps);
  }
  void release() override { ++releases; }
};

struct Driven {
  PlaygroundState st;
  FakeDevice dev;
  Driven() {
    cost(st).set_clock([this] { return dev.now; });
    cost(st).set_workload(&dev);
  }
  ~Driven() { cost(st).set_workload(nullptr); cost(st).set_clock(nullptr); }
  // Frames of 12 ms until the scene stops asking for time; returns the number of slices.
  int run(int max_slices = 100000) {
    int k = 0;
    while (cost(st).wants_time() && k < max_slices) {
      cost(st).run_slice(12.0);
      dev.now += 4.0;  // the frame's drawing
      ++k;
    }
    return k;
  }
};

TEST(AppCost, TheSceneIsRegisteredWithSixStages) {
  PlaygroundState st;
  ASSERT_TRUE(ok(set_state_json(st, R"({"scene": "cost"})")));
  const json s = state(st);
  EXPECT_EQ(s["scene"], "cost");
  EXPECT_EQ(s["step"]["count"], 6);
  EXPECT_EQ(s["n"], 512);
  EXPECT_EQ(s["d"], 64);
  EXPECT_EQ(s["k"], 3);
  EXPECT_EQ(s["P"], 1);
  EXPECT_EQ(s["measured"]["state"], "idle");
}

TEST(AppCost, TheTableIsTheCostModels) {
  PlaygroundState st;
  for (const auto& [n, d, k] : {std::tuple{512, 64, 3}, std::tuple{32, 512, 2}, std::tuple{1048576, 4096, 4096}, std::tuple{1, 1, 2}}) {
    ASSERT_TRUE(ok(set_state_json(st, json{{"scene", "cost"}, {"n", n}, {"d", d}, {"k", k}}.dump())));
    const json t = state(st)["table"];
    EXPECT_EQ(t["attention"]["macs"].get<long long>(), attention_macs(n, d)) << n;
    EXPECT_EQ(t["attention"]["macs"].get<long long>(), 2LL * n * n * d);
    EXPECT_EQ(t["attention"]["projection_macs"].get<long long>(), 3LL * n * d * d);
    EXPECT_EQ(t["attention"]["score_bytes"].get<long long>(), 4LL * n * n);
    EXPECT_EQ(t["attention"]["sequential_ops"], 1);
    EXPECT_EQ(t["attention"]["max_path_length"], 1);
    EXPECT_EQ(t["recurrent"]["macs"].get<long long>(), 2LL * n * d * d);
    EXPECT_EQ(t["recurrent"]["sequential_ops"].get<long long>(), n);
    EXPECT_EQ(t["recurrent"]["max_path_length"].get<long long>(), n);
    EXPECT_EQ(t["recurrent"]["score_bytes"], 0);
    EXPECT_EQ(t["convolutional"]["macs"].get<long long>(), static_cast<long long>(k) * n * d * d);
    EXPECT_EQ(t["convolutional"]["sequential_ops"], 1);
    EXPECT_EQ(t["convolutional"]["max_path_length"].get<long long>(), max_path_length(LayerKind::Convolutional, n, k));
  }
  // ceil(log_3 512) = 6 (3^5 = 243 < 512 <= 729)
  ASSERT_TRUE(ok(set_state_json(st, R"({"n": 512, "d": 64, "k": 3})")));
  EXPECT_EQ(state(st)["table"]["convolutional"]["max_path_length"], 6);
}

TEST(AppCost, SetStateOfGetStateRoundTripsAndAnOtherPageGetsTheSameView) {
  PlaygroundState a;
  ASSERT_TRUE(ok(set_state_json(a, R"({"scene": "cost", "n": 1000, "d": 96, "k": 5, "P": 777, "sweep_max_n": 2048, "sweep_runs": 3, "step": 3})")));
  const json want = view_of(a);
  ASSERT_TRUE(ok(set_state_json(a, get_state_json(a, true))));
  EXPECT_EQ(view_of(a), want);
  PlaygroundState b;
  ASSERT_TRUE(ok(set_state_json(b, get_state_json(a, true))));
  EXPECT_EQ(view_of(b), want);
  // the URL as well
  PlaygroundState c;
  apply_url_query(c, "?" + state_to_query(a));
  EXPECT_TRUE(c.errors.empty());
  EXPECT_EQ(view_of(c), want);
}

TEST(AppCost, BadValuesAreRefusedAndTheLastGoodStateStays) {
  PlaygroundState st;
  ASSERT_TRUE(ok(set_state_json(st, R"({"scene": "cost", "n": 300, "d": 32})")));
  const json before = view_of(st);
  for (const char* bad : {R"({"n": 0})", R"({"n": 1048577})", R"({"n": 1.5})", R"({"n": "abc"})", R"({"d": 0})",
                          R"({"d": 4097})", R"({"k": 1})", R"({"k": 4097})", R"({"P": 0})", R"({"P": 100001})",
                          R"({"sweep_max_n": 8})", R"({"sweep_runs": 10})", R"({"sweep": "go"})", R"({"sweep": 1})",
                          R"({"n": 8, "table": {"attention": {"macs": 1}}})", R"({"colour": 1})", R"({"preset": "nope"})",
                          R"({"n": 64, "d": 0})"}) {
    const json r = parse(set_state_json(st, bad));
    EXPECT_FALSE(r.value("ok", true)) << bad;
    EXPECT_FALSE(str(r["error"]).empty()) << bad;
    EXPECT_EQ(view_of(st), before) << bad;
  }
  // The message names the field and its range, and is shown in Chinese too.
  const json r = parse(set_state_json(st, R"({"P": 0})"));
  EXPECT_NE(str(r["error"]).find("P"), std::string::npos) << r.dump();
  EXPECT_NE(str(r["error"]).find("100000"), std::string::npos) << r.dump();
  set_lang(Lang::Zh);
  EXPECT_NE(message(st, "api").find("必须"), std::string::npos) << message(st, "api");
  set_lang(Lang::En);
  // The controls' way: apply() refuses too and keeps the state.
  CostParams p = cost(st).params();
  p.k = 1;
  EXPECT_FALSE(cost(st).apply(p).ok);
  EXPECT_EQ(view_of(st), before);
}

TEST(AppCost, PresetsSetTheirParameters) {
  PlaygroundState st;
  ASSERT_TRUE(ok(set_state_json(st, R"({"scene": "cost", "preset": "short"})")));
  EXPECT_EQ(state(st)["n"], 32);
  EXPECT_EQ(state(st)["d"], 512);
  EXPECT_LT(state(st)["table"]["attention"]["macs"].get<long long>(), state(st)["table"]["recurrent"]["macs"].get<long long>());
  ASSERT_TRUE(ok(set_state_json(st, R"({"preset": "gpu"})")));
  EXPECT_EQ(state(st)["P"], 10000);
  EXPECT_EQ(state(st)["n"], 4096);
}

TEST(AppCost, ASweepStartedThroughSetStateRunsInSlicesAndFitsSlopes) {
  Driven t;
  ASSERT_TRUE(ok(set_state_json(t.st, R"({"scene": "cost", "sweep_max_n": 2048, "sweep_runs": 3, "sweep": "start"})")));
  EXPECT_TRUE(cost(t.st).wants_time());
  EXPECT_EQ(state(t.st)["measured"]["state"], "running");
  EXPECT_TRUE(state(t.st)["measured"]["warming_up"].get<bool>());
  // the command is not a parameter: the document does not carry it back
  EXPECT_FALSE(state(t.st).contains("sweep"));
  const int slices = t.run();
  EXPECT_GT(slices, 10);
  EXPECT_FALSE(cost(t.st).wants_time());
  const json m = state(t.st)["measured"];
  EXPECT_EQ(m["state"], "finished");
  EXPECT_DOUBLE_EQ(m["fraction"].get<double>(), 1.0);
  EXPECT_EQ(m["d"], 64);
  ASSERT_EQ(m["curves"].size(), 4u);
  const char* kinds[] = {"attention-naive", "attention-tiled", "elman", "gru"};
  for (size_t c = 0; c < 4; ++c) {
    const json& cv = m["curves"][c];
    EXPECT_EQ(cv["kind"], kinds[c]);
    EXPECT_EQ(cv["impl"], "simd");
    ASSERT_EQ(cv["points"].size(), 8u) << c;  // 16 … 2048
    EXPECT_EQ(cv["points"][0]["n"], 16);
    EXPECT_EQ(cv["points"][7]["n"], 2048);
    for (const json& pt : cv["points"]) {
      EXPECT_EQ(pt["samples"], 3);
      EXPECT_GT(pt["memory_bytes"].get<long long>(), 0);
    }
    ASSERT_TRUE(cv["fit"].is_object()) << c;
    EXPECT_EQ(cv["fit"]["points"], 4);  // 256, 512, 1024, 2048
  }
  // time ∝ n² (plus a small constant) and ∝ n: slopes near 2 and 1
  EXPECT_NEAR(m["curves"][0]["fit"]["slope"].get<double>(), 2.0, 0.05);
  EXPECT_NEAR(m["curves"][1]["fit"]["slope"].get<double>(), 2.0, 0.05);
  EXPECT_NEAR(m["curves"][2]["fit"]["slope"].get<double>(), 1.0, 0.05);
  EXPECT_NEAR(m["curves"][3]["fit"]["slope"].get<double>(), 1.0, 0.05);
  // naive attention's memory holds the n×n score matrix
  EXPECT_GE(m["curves"][0]["points"][7]["memory_bytes"].get<long long>(), 4LL * 2048 * 2048);
  EXPECT_LT(m["curves"][1]["points"][7]["memory_bytes"].get<long long>(), 4LL * 2048 * 2048 / 4);  // Q, K, V, out: 4·n·d floats
  // the work was done and counted
  EXPECT_GT(t.dev.calls, 0);
  EXPECT_EQ(cost(t.st).sweep().calls_done() + 0 <= t.dev.calls, true);
  // The P-lane model now uses the measured per-MAC times.
  EXPECT_TRUE(m["parallel"]["measured"].get<bool>());
  // a finished measurement is a result: setState(getState()) still accepted and changes nothing
  const json before = view_of(t.st);
  ASSERT_TRUE(ok(set_state_json(t.st, get_state_json(t.st, true))));
  EXPECT_EQ(view_of(t.st), before);
}

// Stage 3 starts this by itself (views/cost_view.cpp): n = 16 … 1024, one run per point, a short warm-up, far
// under a second of measuring work on the fake device and no slice past one batch; the full sweep afterwards
// uses the parameters again.
TEST(AppCost, TheQuickMeasurementIsShortAndTheFullSweepFollowsTheParameters) {
  Driven t;
  ASSERT_TRUE(ok(set_state_json(t.st, R"({"scene": "cost", "sweep_max_n": 2048, "sweep_runs": 3})")));
  ASSERT_TRUE(cost(t.st).start_quick_sweep().ok);
  EXPECT_TRUE(cost(t.st).quick());
  const double t0 = t.dev.now;
  int slices = 0;
  double worst = 0;
  while (cost(t.st).wants_time()) {
    const double a = t.dev.now;
    cost(t.st).run_slice(12.0);
    worst = std::max(worst, t.dev.now - a);
    ++slices;
  }
  const double work_ms = t.dev.now - t0;
  EXPECT_LT(work_ms, 600.0) << slices << " slices";
  EXPECT_LT(worst, cost_limits::kQuickSliceMs + 13.0) << "a slice overruns by at most one batch (a call at n = 1024 lasts < 12 ms)";
  json m = state(t.st)["measured"];
  EXPECT_EQ(m["state"], "finished");
  EXPECT_TRUE(m["quick"].get<bool>());
  for (const json& cv : m["curves"]) {
    ASSERT_EQ(cv["points"].size(), 7u);  // 16 … 1024
    EXPECT_EQ(cv["points"][6]["n"], 1024);
    EXPECT_EQ(cv["points"][0]["samples"], 1);
    ASSERT_TRUE(cv["fit"].is_object()) << "256, 512 and 1024: a slope already";
    EXPECT_EQ(cv["fit"]["points"], 3);
  }
  EXPECT_NEAR(m["curves"][0]["fit"]["slope"].get<double>(), 2.0, 0.2);
  EXPECT_NEAR(m["curves"][3]["fit"]["slope"].get<double>(), 1.0, 0.1);
  EXPECT_TRUE(m["parallel"]["measured"].get<bool>());
  // The parameters are untouched; the full sweep uses them.
  EXPECT_EQ(state(t.st)["sweep_max_n"], 2048);
  ASSERT_TRUE(ok(set_state_json(t.st, R"({"sweep": "start"})")));
  EXPECT_FALSE(cost(t.st).quick());
  t.run();
  m = state(t.st)["measured"];
  EXPECT_FALSE(m["quick"].get<bool>());
  EXPECT_EQ(m["curves"][0]["points"].size(), 8u);  // 16 … 2048
  EXPECT_EQ(m["curves"][0]["points"][0]["samples"], 3);
}

TEST(AppCost, NoSliceStartsAStepItExpectsToOverrun) {
  Driven t;
  ASSERT_TRUE(ok(set_state_json(t.st, R"({"scene": "cost", "sweep_max_n": 1024, "sweep_runs": 3, "sweep": "start"})")));
  double worst = 0;
  int over = 0;
  while (cost(t.st).wants_time()) {
    const double a = t.dev.now;
    cost(t.st).run_slice(12.0);
    const double used = t.dev.now - a;
    worst = std::max(worst, used);
    if (used > 12.0 + 1e-9) ++over;
    t.dev.now += 4.0;
  }
  // Every fake call at n <= 1024 lasts at most 12.6 ms, a prepare 0.05 ms: a slice overruns by at most one batch.
  EXPECT_LT(worst, 12.0 + 13.0 + 5.0) << worst;
  EXPECT_LE(cost(t.st).longest_slice_ms(), worst + 1e-9);
}

TEST(AppCost, CancelStopsTheSweepAndKeepsItsPoints) {
  Driven t;
  ASSERT_TRUE(ok(set_state_json(t.st, R"({"scene": "cost", "sweep_max_n": 4096, "sweep": "start"})")));
  t.run(60);
  ASSERT_TRUE(cost(t.st).wants_time());
  ASSERT_TRUE(ok(set_state_json(t.st, R"({"sweep": "cancel"})")));
  EXPECT_FALSE(cost(t.st).wants_time());
  const json m = state(t.st)["measured"];
  EXPECT_EQ(m["state"], "cancelled");
  EXPECT_LT(m["fraction"].get<double>(), 1.0);
  EXPECT_GE(t.dev.releases, 1);
  // a cancel with nothing running is harmless
  EXPECT_TRUE(ok(set_state_json(t.st, R"({"sweep": "cancel"})")));
  // and a new start starts over
  ASSERT_TRUE(ok(set_state_json(t.st, R"({"sweep": "start", "sweep_max_n": 64})")));
  t.run();
  EXPECT_EQ(state(t.st)["measured"]["state"], "finished");
  EXPECT_EQ(state(t.st)["measured"]["curves"][0]["points"].size(), 3u);  // 16, 32, 64
}

TEST(AppCost, CancelDuringTheWarmUpMeasuresNothing) {
  Driven t;
  ASSERT_TRUE(ok(set_state_json(t.st, R"({"scene": "cost", "sweep": "start"})")));
  cost(t.st).run_slice(12.0);
  ASSERT_TRUE(cost(t.st).warming());
  cost(t.st).cancel_sweep();
  EXPECT_FALSE(cost(t.st).wants_time());
  const json m = state(t.st)["measured"];
  EXPECT_EQ(m["state"], "cancelled");
  for (const json& cv : m["curves"]) EXPECT_TRUE(cv["points"].empty());
}

TEST(AppCost, NaiveAttentionStopsAtTheMemoryBudgetAndTiledGoesOn) {
  Driven t;
  // 16384²·4 bytes = 1 GB: far over the 256 MB budget; tiled needs only O(n·d).
  ASSERT_TRUE(ok(set_state_json(t.st, R"({"scene": "cost", "d": 8, "sweep_max_n": 16384, "sweep_runs": 1, "sweep": "start"})")));
  t.run();
  const json m = state(t.st)["measured"];
  EXPECT_TRUE(m["curves"][0]["stopped"].get<bool>());
  EXPECT_NE(str(m["curves"][0]["reason"]).find("score matrix"), std::string::npos) << m["curves"][0]["reason"];
  EXPECT_LT(m["curves"][0]["points"].back()["n"].get<int>(), 16384);
  EXPECT_GT(m["curves"][1]["points"].back()["n"].get<int>(), m["curves"][0]["points"].back()["n"].get<int>());
}

TEST(AppCost, ThePLaneModelFollowsP) {
  PlaygroundState st;
  ASSERT_TRUE(ok(set_state_json(st, R"({"scene": "cost", "n": 4096, "d": 64, "P": 1})")));
  json par = state(st)["measured"]["parallel"];
  EXPECT_FALSE(par["measured"].get<bool>());
  // one lane: attention's 2·n²·d work against the RNN's 2·n·d²: the RNN is faster (n > d)
  EXPECT_GT(par["attention_ms"].get<double>(), par["rnn_ms"].get<double>());
  const long long cross = par["crossover_P"].get<long long>();
  EXPECT_GT(cross, 1);
  EXPECT_LE(cross, 100000);
  // at the crossover attention is faster, one lane below it is not
  const CostParallel at = cost(st).parallel_at(cross), below = cost(st).parallel_at(cross - 1);
  EXPECT_LT(at.attention.time_ns, at.recurrent.time_ns);
  EXPECT_GE(below.attention.time_ns, below.recurrent.time_ns);
  ASSERT_TRUE(ok(set_state_json(st, R"({"P": 100000})")));
  par = state(st)["measured"]["parallel"];
  EXPECT_LT(par["attention_ms"].get<double>(), par["rnn_ms"].get<double>());
  EXPECT_TRUE(par["rnn_depth_bound"].get<bool>());
  // the model's terms are the cost model's: W·t_mac / P
  const CostParallel q = cost(st).parallel_at(100000);
  EXPECT_NEAR(q.attention.work_ns, 2.0 * 4096 * 4096 * 64 * q.ns_per_mac_attention / 100000, 1e-6 * q.attention.work_ns);
  EXPECT_NEAR(q.recurrent.depth_ns, 4096 * q.ns_per_step_rnn, 1e-6 * q.recurrent.depth_ns);
  // short sequences (n < d): attention is faster even on one lane
  ASSERT_TRUE(ok(set_state_json(st, R"({"preset": "short"})")));
  EXPECT_EQ(state(st)["measured"]["parallel"]["crossover_P"], 1);
}

TEST(AppCost, TheAnimationHasOneSubStepPerDrawnToken) {
  PlaygroundState st;
  ASSERT_TRUE(ok(set_state_json(st, R"({"scene": "cost", "n": 4, "step": 4})")));
  EXPECT_EQ(state(st)["step"]["sub_count"], 4);
  ASSERT_TRUE(ok(set_state_json(st, R"({"n": 5000})")));
  EXPECT_EQ(state(st)["step"]["sub_count"], cost_limits::kAnimTokens);
  ASSERT_TRUE(ok(set_state_json(st, R"({"n": 1})")));
  EXPECT_EQ(state(st)["step"]["sub_count"], 2);
}

TEST(AppCost, SweepLengthsArePowersOfTwoUpToTheLimit) {
  EXPECT_EQ(CostScene::sweep_ns(16), (std::vector<int>{16}));
  EXPECT_EQ(CostScene::sweep_ns(128), (std::vector<int>{16, 32, 64, 128}));
  EXPECT_EQ(CostScene::sweep_ns(100), (std::vector<int>{16, 32, 64, 100}));
}

}  // namespace
}  // namespace ap
