// Time-sliced measurement of kernel cost curves (time per call against n), for a page that must keep drawing.
//
// The sweep is a list of curves (a kernel, scalar or SIMD, widths, and the sequence lengths n to measure).
// Each point (curve, n) is measured `runs` times and the median per-call time is reported. The caller calls
// run_slice(budget_ms) once per frame; the slice does work until its budget is spent and returns, so the page
// stays responsive, and cancel() stops the sweep between two calls.
//
// Time comes from an INJECTED clock (milliseconds from any origin, never decreasing), and the work from an
// injected SweepWorkload, so tests can drive the scheduler with a fake clock and a fake workload without any
// wall time. KernelWorkload (below) is the real one: it runs the kernels of kernels.h.
//
// Scheduling rules
//  * Order: points in increasing n; at equal n, in curve order. All curves grow together.
//  * Batching: a timed sample is a batch of `reps` calls timed by two clock reads, and it is recorded only if it
//    lasted at least min_sample_ms (default 5 ms: browsers coarsen performance.now() to about 0.1 ms, so a
//    single fast call would read as 0 or 0.1). A shorter batch counts as calibration: it is discarded and reps
//    is raised to ceil(1.2 · reps · min_sample_ms / measured) (× 10 when the clock did not move), at most
//    max_reps; a batch of max_reps calls is recorded however short it is.
//  * Estimates: a point's per-call time is known after its first batch; before that it is extrapolated from
//    the curve's previous point by the multiply-add count (time ∝ kernel_macs). The first reps of a point are
//    ceil(1.1 · min_sample_ms / estimate), or 1 when there is no estimate yet. Input preparation is estimated
//    from the ms per byte of earlier preparations.
//  * Budget: a step (prepare, or one batch) whose estimate would end after budget_ms is not started: the slice
//    returns and the step becomes the next slice's first. A slice's FIRST step always runs, even if its
//    estimate exceeds the budget (otherwise a sample longer than a slice could never run): that slice overruns
//    by at most one batch and reports overran = true. A step with no estimate (a curve's first point) only runs
//    as a slice's first step. So a slice never starts a step it expects to overrun, except as its first, and
//    never starts an unknown one after other work.
//  * Memory: before a point is prepared, kernel_memory(...).total() must fit memory_budget_bytes, or the curve
//    stops with a message and its remaining points are skipped. Naive attention stops first, on its n×n score
//    matrix, while tiled attention (workspace independent of n) goes on.
//  * Time limit: a point whose estimated single call exceeds max_call_ms stops its curve the same way.
//  * Work: every kernel call is counted (calibration included): calls and multiply-adds (calls × kernel_macs),
//    per point and in total, so tests can check the work done without looking at time.
//
// Warm-up: V8 first runs WebAssembly with its baseline compiler and swaps in optimised code for hot functions
// a little later (compiled on a background thread), so in a fresh page the first points can read slow. Seen
// under Node 20 on a busy 2-core machine: a first sweep measured naive scalar attention at n = 64 as 1.95 ms per
// call, a second sweep in the same process 0.37 ms. A scene should keep kernels busy for a moment (untimed
// calls at a small n) before the sweep, or repeat the first points; the sweep itself does not warm up.
//
// Independent of ImGui and JSON; single-threaded (cancel() may also be called from the clock or the workload).
#pragma once
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "kernels.h"
#include "status.h"

namespace ap {

using SweepClock = std::function<double()>;  // milliseconds, never decreasing

struct SweepCurve {
  std::string label;  // shown next to the curve; not interpreted
  KernelKind kind = KernelKind::AttentionNaive;
  KernelImpl impl = KernelImpl::Simd;
  int d = 64;          // attention: d = d_k = d_v; RNN: input width
  int hidden = 0;      // RNN hidden size; <= 0 means the same as d
  TileSizes tile;      // tiled attention only
  std::vector<int> ns; // sequence lengths, strictly increasing, each 1 .. 2^20
};

struct SweepConfig {
  std::vector<SweepCurve> curves;
  int runs = 5;                                  // recorded samples per point, 1 .. 99; the median is reported
  double min_sample_ms = 5.0;                    // a recorded sample lasts at least this long (> 0)
  double memory_budget_bytes = 256.0 * 1048576;  // kernel_memory(...).total() of a point must fit (> 0)
  double max_call_ms = 2000.0;                   // a point whose one call is estimated longer stops its curve
  long long max_reps = 1 << 20;                  // calls per sample, at most (1 .. 2^30)
};

// Makes the inputs of one point and runs its kernel. prepare() may allocate; run() must not.
class SweepWorkload {
 public:
  virtual ~SweepWorkload() = default;
  virtual Status prepare(const SweepCurve& curve, int n) = 0;
  virtual void run(long long reps) = 0;  // `reps` calls of the prepared kernel
  virtual void release() {}              // frees the buffers (called when the sweep ends or is cancelled)
};

// The real workload: seeded inputs in [-1, 1) (RNN weights scaled by 1/√(d + hidden)), buffers kept between
// points (they only grow), naive attention with the full n × n workspace.
class KernelWorkload : public SweepWorkload {
 public:
  explicit KernelWorkload(uint64_t seed = 1) : seed_(seed) {}
  Status prepare(const SweepCurve& curve, int n) override;
  void run(long long reps) override;
  void release() override;
  const std::vector<float>& output() const { return out_; }  // the last call's output (n × d or n × hidden)
  Status last_status() const { return last_; }               // the kernel's Status of the last call

 private:
  uint64_t seed_;
  SweepCurve curve_;
  int n_ = 0;
  std::vector<float> a_, b_, c_, out_, ws_, w1_, w2_, b1_, b2_;
  Status last_;
};

enum class PointState { Pending, Measured, Skipped };

struct SweepSample {
  long long reps = 0;  // calls in the batch
  double ms = 0.0;     // duration of the whole batch (>= min_sample_ms unless reps == max_reps)
};

struct SweepPoint {
  int n = 0;
  PointState state = PointState::Pending;
  std::vector<SweepSample> samples;  // recorded samples, at most `runs`
  double median_ms = 0.0;            // median over samples of ms / reps: one call (Measured only)
  long long calls = 0;               // kernel calls made for this point, calibration included
  long long macs_per_call = 0;       // kernel_macs
  long long macs = 0;                // calls × macs_per_call
  long long memory_bytes = 0;        // kernel_memory(...).total()
};

struct SweepCurveResult {
  std::vector<SweepPoint> points;  // one per curve.ns, same order
  bool stopped = false;            // remaining points skipped; `reason` says why
  Status reason;                   // ok unless stopped
};

struct SweepProgress {
  int points_done = 0;   // measured + skipped
  int points_total = 0;
  int points_skipped = 0;
  int samples_done = 0;  // recorded samples (skipped points count `runs` each)
  int samples_total = 0; // points_total · runs
  double fraction() const { return samples_total ? static_cast<double>(samples_done) / samples_total : 1.0; }
};

enum class SweepState { Idle, Running, Finished, Cancelled };

struct SliceReport {
  Status status;           // an invalid budget or a sweep that was never started: nothing ran
  double used_ms = 0.0;    // clock time from the slice's start to its end
  int steps = 0;           // prepares + batches run in this slice
  int samples = 0;         // samples recorded in this slice
  bool overran = false;    // used_ms > budget_ms
  SweepState state = SweepState::Idle;
};

class Sweep {
 public:
  Sweep() = default;
  // Validates the configuration and starts a new sweep (discarding any previous one). `workload` may be
  // nullptr (a KernelWorkload is used) and must outlive the sweep otherwise. On error nothing changes.
  Status start(const SweepConfig& config, SweepClock clock, SweepWorkload* workload = nullptr);
  // Does work for about budget_ms (> 0, finite) following the rules above.
  SliceReport run_slice(double budget_ms);
  void cancel();  // takes effect before the next step; results so far stay
  SweepState state() const;
  SweepProgress progress() const;
  const SweepConfig& config() const { return config_; }
  const std::vector<SweepCurveResult>& results() const { return results_; }
  long long calls_done() const { return calls_; }
  long long macs_done() const { return macs_; }

 private:
  struct Job {
    int curve = 0, point = 0;
  };
  enum class Phase { Prepare, Sample };
  bool stop_curve_if_needed(const Job& job);  // memory / time checks before a point; true when stopped
  void skip_rest(int curve, Status reason);
  void advance();
  void finish_point(const Job& job);
  double estimate_call_ms(const Job& job) const;  // < 0: unknown

  SweepConfig config_;
  SweepClock clock_;
  SweepWorkload* workload_ = nullptr;
  std::unique_ptr<KernelWorkload> own_workload_;
  std::vector<SweepCurveResult> results_;
  std::vector<Job> jobs_;
  size_t next_ = 0;
  Phase phase_ = Phase::Prepare;
  long long reps_ = 1;
  double call_ms_ = -1.0;               // current point's measured per-call time (< 0: none yet)
  std::vector<double> curve_ms_per_mac_;  // last measured per curve (< 0: none)
  double prepare_ms_per_byte_ = -1.0;
  long long calls_ = 0, macs_ = 0;
  SweepState state_ = SweepState::Idle;
  std::atomic<bool> cancel_{false};
};

// Median of values (mean of the two middle ones for an even count); 0 for none.
double median_of(std::vector<double> values);

}  // namespace ap
