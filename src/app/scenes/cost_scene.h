// Scene "Cost: attention vs RNN" (id "cost"): the notes' complexity table for the learner's n, d and k
// (core/cost_model.h), the same counts as curves over n, a measurement of the real kernels on this device
// (core/kernels.h, driven by the time-sliced core/sweep.h, one slice per frame), the work–depth model on P
// lanes fed with the measured times, an animation of the RNN's n dependent steps against attention's one,
// and the memory of naive against tiled attention.
//
// Document: parameters n, d, k, P, sweep_max_n, sweep_runs; results `table` (checked when given back) and
// `measured` (this device's measurement and the P-lane model fed by it: a report, ignored by setState, since a
// measurement can be redone but not restored). `sweep: "start"` / `sweep: "cancel"` in setState is a command.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "app/scene.h"
#include "app/worker_pool.h"
#include "core/cost_model.h"
#include "core/sweep.h"

namespace ap {

enum class CostStage { Table = 0, Curves, Measured, Parallel, Animation, Memory, Count };
// What a hovered item is (Scene::explain's `what`).
// MeasuredPoint / MemoryPoint: i = curve, j = point index. CurvePoint: i = 0..2 multiply-adds of attention,
// RNN, convolution, 3..5 their sequential operations / path length; j = n. ParallelPoint: i = 0 attention,
// 1 RNN; j = P. WorkerPoint: i = 0 attention, 1 GRU; j = workers.
enum class CostItem { MeasuredPoint = 0, CurvePoint, ParallelPoint, MemoryPoint, WorkerPoint };

struct CostParams {
  int n = 512;             // sequence length, 1 .. 2^20
  int d = 64;              // model width = d_k = hidden size, 1 .. 4096
  int k = 3;               // convolution kernel width, 2 .. 4096
  int lanes = 1;           // P, 1 .. 100,000
  int sweep_max_n = 16384; // the sweep measures n = 16, 32, … up to this (16 .. 65536)
  int sweep_runs = 5;      // recorded samples per point (1 .. 9)
  bool operator==(const CostParams& o) const {
    return n == o.n && d == o.d && k == o.k && lanes == o.lanes && sweep_max_n == o.sweep_max_n && sweep_runs == o.sweep_runs;
  }
};

namespace cost_limits {
constexpr int kMinSweepN = 16;
constexpr int kMaxSweepN = 65536;
constexpr int kMaxRuns = 9;
constexpr int kMinFitN = 256;          // slopes are fitted over n >= this
constexpr double kSyncNs = 1000.0;     // assumed hand-off between lanes per dependent step (one barrier)
constexpr double kAssumedNsPerMac = 1.0;  // before anything is measured
constexpr int kAnimTokens = 10;        // tokens drawn in the animation, at most
// The quick measurement stage 3 runs by itself when first opened: n = 16 … 1024 (three points for the slopes
// over n >= 256), one run of at least 2 ms per point and 20 ms of warm-up per curve, about half a second of
// measuring work in 12 ms slices.
constexpr int kQuickMaxN = 1024;
constexpr double kQuickMinSampleMs = 2.0;
constexpr double kQuickWarmupMs = 20.0;
constexpr double kQuickSliceMs = 24.0;  // its slice per frame (the full sweep takes the page's 12 ms)
}  // namespace cost_limits

struct CostTable {
  LayerCost attention, recurrent, convolutional;
};

// One measured curve as the scene reports it.
struct CostCurveFit {
  bool ok = false;        // at least two measured points with n >= kMinFitN
  LogLogFit fit;
  double ns_per_mac = 0;  // at the largest measured n
};

// The work–depth model for one layer at P lanes.
struct CostParallel {
  WorkDepthTime attention, recurrent;
  double ns_per_mac_attention = cost_limits::kAssumedNsPerMac, ns_per_mac_rnn = cost_limits::kAssumedNsPerMac;
  double ns_per_step_attention = 0, ns_per_step_rnn = 0;
  bool measured = false;     // per-MAC times from this device's sweep (else assumed)
  long long crossover_lanes = 0;  // the least P at which attention is faster (0: not within 1 .. 100,000)
};

// The measured parallel speed-up (Web Workers or threads, app/worker_pool.h): attention split by query rows,
// a GRU split by hidden units, over W = 1, 2, 4 … workers; each W timed `runs` times, the median kept.
struct WorkerPoint {
  int workers = 1;
  double ms = 0;          // median wall time of one call (attention) or one sequence (GRU)
  double speedup = 0;     // ms at W = 1 / ms at W
  bool same_output = true;  // the checksum equals W = 1's (relative 1e-5)
  std::vector<double> samples;  // every timed run, ms
};
struct WorkerMeasure {
  enum class State { Idle, Running, Finished, Cancelled, Failed } state = State::Idle;
  std::string pool;       // "Web Workers", "threads"; empty: none
  int max_workers = 0;
  int n_attention = 0, n_gru = 0, d = 0;
  long long reps_attention = 0, reps_gru = 0;
  std::vector<WorkerPoint> attention, gru;  // by increasing W
  double checksum_attention = 0, checksum_gru = 0;  // of the W = 1 calibration runs
  double handoff_us = 0;  // GRU: extra time per step at the largest W beyond its share of the work, µs
  Status error;
  int jobs_done = 0, jobs_total = 0;
};

namespace cost_limits {
constexpr int kWorkerRuns = 3;            // timed runs per W
constexpr int kMaxWorkers = 8;
constexpr double kWorkerJobTimeoutMs = 60000.0;
constexpr double kAttentionSpanMs = 60.0; // a timed attention run lasts about this long (reps × one call)
constexpr double kGruSpanMs = 20.0;
}  // namespace cost_limits

class CostScene final : public Scene {
 public:
  // defer: build the first model when first used (make_scenes), not now (Scene::ensure_built).
  explicit CostScene(bool defer = false);
  void build_first() override;  // the default model, now or when first used

  const char* id() const override { return "cost"; }
  const char* title() const override;
  LessonInfo lesson() const override;
  const std::vector<StageInfo>& stages() const override;
  const std::vector<PresetInfo>& presets() const override;
  const TrPair* translations(size_t* count) const override;
  void write_params(nlohmann::json& doc) const override;
  void write_results(nlohmann::json& doc, bool with_matrices) const override;
  Status prepare(const nlohmann::json& doc, std::unique_ptr<SceneChange>* change) const override;
  void commit(std::unique_ptr<SceneChange> change) override;
  const std::vector<UrlParam>& url_params() const override;
  std::vector<int> substeps() const override;
  std::string explain(int what, int i, int j) const override;
  bool wants_time() const override;
  void run_slice(double budget_ms) override;

  const CostParams& params() const { return params_; }
  const CostTable& table() const { return table_; }
  Status apply(const CostParams& p);  // what the controls do: validated, last good state kept

  // ---- the measurement ----
  Status start_sweep();        // the full sweep: n up to sweep_max_n, sweep_runs runs per point
  Status start_quick_sweep();  // the quick one (cost_limits::kQuick*), whatever sweep_max_n and sweep_runs say
  bool quick() const { return quick_; }  // the last measurement started was the quick one
  void cancel_sweep();
  bool sweep_running() const { return warming_ || sweep_.state() == SweepState::Running; }
  bool warming() const { return warming_; }
  SweepState sweep_state() const;   // Idle before the first start
  double sweep_fraction() const;    // 0 .. 1, warm-up included
  const Sweep& sweep() const { return sweep_; }
  const std::vector<CostCurveFit>& fits() const { return fits_; }
  int measured_d() const { return measured_d_; }  // the d the last sweep ran with
  double longest_slice_ms() const { return longest_slice_ms_; }
  // Tests: a clock (ms) and a workload of their own; nullptr / empty restore the real ones.
  void set_clock(SweepClock clock);
  void set_workload(SweepWorkload* w) { injected_workload_ = w; }
  void set_warmup_ms(double ms) { warmup_ms_ = ms; }

  // ---- the measured parallel speed-up ----
  Status start_workers();
  void cancel_workers();
  bool workers_running() const { return workers_.state == WorkerMeasure::State::Running; }
  const WorkerMeasure& workers() const { return workers_; }
  void poll() override;
  void set_worker_pool(WorkerPool* pool) { pool_override_ = pool; use_override_ = true; }  // tests; nullptr: none

  // ---- derived, for the view ----
  const CostParallel& parallel() const { return parallel_; }
  CostParallel parallel_at(long long lanes) const;  // the model at another P (same n, d)
  static std::vector<int> sweep_ns(int max_n);

 private:
  void refresh_fits();
  void refresh_parallel();
  Status begin_sweep(SweepConfig config, double warmup_ms, bool quick);

  CostParams params_;
  CostTable table_;
  CostParallel parallel_;
  Sweep sweep_;
  bool started_ = false;
  std::vector<CostCurveFit> fits_;
  int measured_d_ = 0;
  SweepClock clock_;
  SweepWorkload* injected_workload_ = nullptr;
  std::unique_ptr<KernelWorkload> workload_;
  // Warm-up before timing: untimed calls of each curve at a small n.
  bool warming_ = false;
  int warm_curve_ = 0;
  double warm_curve_ms_ = 0;
  long long warm_reps_ = 1;
  double warmup_ms_ = 120.0;  // per curve (the full sweep)
  double warm_target_ms_ = 0; // per curve, of the measurement under way
  bool quick_ = false;
  SweepConfig pending_;
  double longest_slice_ms_ = 0;
  // Worker measurement: the job list and where it stands.
  struct WorkerStep {
    WorkerJobKind kind;
    int workers;
    enum class Role { Warm, Calibrate, Timed } role;  // Warm: result unused; Calibrate: sets reps and the checksum
  };
  WorkerPool* pool() const;
  void submit_next_worker_job();
  void finish_worker_measure();
  WorkerMeasure workers_;
  std::vector<WorkerStep> worker_steps_;
  size_t worker_next_ = 0;
  double worker_job_started_ = 0;
  WorkerPool* pool_override_ = nullptr;
  bool use_override_ = false;
};

Status cost_table(int n, int d, int k, CostTable* out);

}  // namespace ap
