// Time-sliced measurement of kernel cost curves (time per call against n), for a page that must keep drawing.
//
// The sweep is a list of curves (a kernel, scalar or SIMD, widths, and the sequence lengths n to measure).
// Each point (curve, n) is measured `runs` times and the median per-call time is reported. The caller calls
// run_slice(budget_ms) once per frame; the slice does work until its budget is spent and returns, so the page
// stays responsive, and cancel() stops the sweep between two steps.
//
// Time comes from an INJECTED clock (milliseconds from any origin, never decreasing), and the work from an
// injected SweepWorkload, so tests can drive the scheduler with a fake clock and a fake workload without any
// wall time. KernelWorkload (below) is the real one: it runs the kernels of kernels.h.
//
// Scheduling rules. A STEP is the smallest piece of work the scheduler starts and times: a prepare, a batch of
// whole calls, or one part of a split call (rule 4).
//  1. Order: points in increasing n; at equal n, in curve order. All curves grow together, so a sweep cut short
//     still shows every curve over the same range of n.
//  2. Batching: a timed sample is a batch of `reps` calls timed by two clock reads, and it is recorded only if
//     it lasted at least min_sample_ms (default 5 ms: browsers coarsen performance.now() to about 0.1 ms, so a
//     single fast call would read as 0 or 0.1). A shorter batch counts as calibration: it is discarded and reps
//     is raised to ceil(1.2 · reps · min_sample_ms / measured) (× 10 when the clock did not move), at most
//     max_reps; a batch of max_reps calls is recorded however short it is (the clock may be frozen).
//  3. Estimates: a point's per-call time is known after its first sample (or calibration batch); before that it
//     is extrapolated from the curve's previous point by the multiply-add count (time ∝ kernel_macs). The first
//     reps of a point are ceil(1.1 · min_sample_ms / estimate), or 1 when there is no estimate yet. Input
//     preparation is estimated from the ms per byte of earlier successful preparations. Estimates are what
//     lets a slice stop BEFORE a step that would not fit, rather than notice it after.
//  4. Split calls: when a sample is about to start, its call's estimate exceeds the slice's budget_ms, and the
//     workload can split a call (units() > 1: attention query rows, RNN time steps), the sample is ONE call
//     (reps = 1) run as PARTS: the fewest runs of consecutive units, as even as possible, each expected to take
//     at most 0.6 × budget_ms (the rest of the frame is the page's drawing and room for estimate error; a part
//     holds at least one unit, so a unit longer than that runs alone). Why: without parts, one call of naive
//     attention at n = 2048 (~537M multiply-adds, 40–70 ms in wasm) was one step, and frames took 55–72 ms.
//       - Each part is a step timed by its own two clock reads; the sample's time is the SUM of the parts'
//         durations, since the time between parts (the page drawing, other slices) is not the kernel's.
//       - The plan is made when the first part starts and kept to the call's end. Parts run in order; a part
//         after the first is estimated from the ms per unit measured so far in this call.
//       - A split sample is recorded whatever its length: it is longer than the budget by construction, so at
//         the page's 12 ms budget it is longer than min_sample_ms too.
//  5. Budget: a step whose estimate would end after budget_ms is not started: the slice returns and the step
//     becomes the next slice's first. A slice's FIRST step always runs, even if its estimate exceeds the budget
//     (otherwise a step longer than a slice could never run): that slice overruns by that one step and reports
//     overran = true. A step with no estimate (the sweep's first prepare, a curve's first call) only runs as a
//     slice's first step. Since rule 4 makes every long call a series of parts, a slice overruns only when
//       - a single part overruns (one unit too long, or the estimate was low),
//       - a curve's first call overruns (no estimate yet, so it cannot be split: keep the first n small),
//       - a call cannot be split (units() == 1), or
//       - a batch of whole calls does: it lasts < 1.2 · min_sample_ms + one call, and has reps > 1 only when a
//         call is < 1.2 · min_sample_ms, so it fits any budget >= 2.4 × min_sample_ms (12 ms by default).
//  6. Memory: before a point is prepared, kernel_memory(...).total() must fit memory_budget_bytes, or the curve
//     stops with a message and its remaining points are skipped. Naive attention stops first, on its n×n score
//     matrix, while tiled attention (workspace independent of n) goes on.
//  7. Failed preparation: when prepare() fails (KernelWorkload: the heap could not grow to hold the buffers) the
//     curve stops the same way, with the workload's message, and the other curves go on. The sweep never
//     aborts: the wasm build cannot catch exceptions (-sDISABLE_EXCEPTION_CATCHING=1), so a std::bad_alloc would
//     end the page; KernelWorkload allocates with malloc and checks for nullptr instead.
//  8. Time limit: a point whose estimated single call exceeds max_call_ms stops its curve the same way (splitting
//     keeps frames short, not the sweep: a 2-second call still costs 2 seconds of parts).
//  9. Work: every kernel call is counted (calibration included): calls and multiply-adds (calls × kernel_macs),
//     per point and in total, so tests can check the work done without looking at time. A split call counts
//     once, when its last part finishes.
// 10. Cancel: cancel() takes effect before the next step, so between two parts of a split call too. A call cut
//     short by it is neither counted nor recorded; results so far stay.
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
#include <cstddef>
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

// Makes the inputs of one point and runs its kernel. prepare() may allocate; run() and run_units() must not.
class SweepWorkload {
 public:
  virtual ~SweepWorkload() = default;
  virtual Status prepare(const SweepCurve& curve, int n) = 0;
  virtual void run(long long reps) = 0;  // `reps` calls of the prepared kernel
  // Splitting one call (rule 4). A call is `units(curve, n)` units of work of about equal cost that run in
  // order; run_units(u0, u1) runs units [u0, u1) of ONE call of the prepared kernel. The scheduler calls it
  // only when units() > 1, with consecutive ranges 0 = u0 < u1 = u0' < … = units, after prepare() of that
  // curve and n, and it requires that the parts together do exactly what run(1) does.
  // The defaults describe a call that cannot be split: units() is 1, so the scheduler never splits, and
  // run_units() runs the whole call at the part that starts it (u0 == 0) and nothing for later parts (a
  // workload that overrides units() alone still does one call's work per call, timed in its first part).
  virtual int units(const SweepCurve& curve, int n) const {
    (void)curve;
    (void)n;
    return 1;
  }
  virtual void run_units(int u0, int u1) {
    if (u0 == 0 && u1 > 0) run(1);
  }
  virtual void release() {}  // frees the buffers (called when the sweep ends or is cancelled)
};

// A float array that reports a failed allocation instead of throwing. Under -sDISABLE_EXCEPTION_CATCHING=1
// (the wasm build) a std::vector that cannot grow the heap aborts the page, since std::bad_alloc cannot be
// caught; std::malloc returns nullptr instead (Emscripten with ALLOW_MEMORY_GROWTH: ABORTING_MALLOC is 0), and
// so does a native malloc. Growing frees the old block first (contents are not kept), so that the peak is
// the new size, not old + new.
class FloatBuffer {
 public:
  FloatBuffer() = default;
  ~FloatBuffer() { reset(); }
  FloatBuffer(const FloatBuffer&) = delete;
  FloatBuffer& operator=(const FloatBuffer&) = delete;
  // Makes the buffer `count` floats long (contents unspecified), allocating only when the capacity is
  // smaller. false when the memory cannot be had: the buffer is then empty, with no capacity.
  bool resize_uninitialized(size_t count);
  void reset();  // frees the memory
  float* data() { return p_; }
  const float* data() const { return p_; }
  size_t size() const { return size_; }
  size_t capacity() const { return capacity_; }
  float& operator[](size_t i) { return p_[i]; }
  float operator[](size_t i) const { return p_[i]; }
  const float* begin() const { return p_; }
  const float* end() const { return p_ + size_; }

 private:
  float* p_ = nullptr;
  size_t size_ = 0, capacity_ = 0;
};

// The real workload: seeded inputs in [-1, 1) (RNN weights scaled by 1/√(d + hidden)), buffers kept between
// points (they only grow), naive attention with the full n × n workspace. A call splits into n units: query
// rows for attention (attention_forward_rows / attention_tiled_rows: row results identical to the full call),
// time steps for the RNNs (steps [t0, t1) start from h = row t0 − 1 of H, so the parts give the full call's H).
// prepare() returns an error, never aborts, when a buffer cannot be allocated (rule 7); the buffers are then
// all freed, so that the next point starts from an empty heap share.
class KernelWorkload : public SweepWorkload {
 public:
  explicit KernelWorkload(uint64_t seed = 1) : seed_(seed) {}
  Status prepare(const SweepCurve& curve, int n) override;
  void run(long long reps) override;
  int units(const SweepCurve& curve, int n) const override;  // n
  void run_units(int u0, int u1) override;
  void release() override;
  const FloatBuffer& output() const { return out_; }  // the last call's output (n × d or n × hidden)
  Status last_status() const { return last_; }        // the kernel's Status of the last call or part
  long long bytes_held() const;                       // capacity of every buffer, in bytes
  // Tests only: an allocation that would make bytes_held() exceed `bytes` fails as if malloc had returned
  // nullptr (< 0: no limit, the default). Lets a test reach the failure path without exhausting the heap.
  void set_allocation_limit_for_testing(long long bytes) { alloc_limit_bytes_ = bytes; }

 private:
  bool allocate(FloatBuffer* b, size_t count);  // resize_uninitialized within the test limit
  void run_call_units(int u0, int u1);           // units [u0, u1) of one call, status in last_

  uint64_t seed_;
  SweepCurve curve_;
  int n_ = 0;
  FloatBuffer a_, b_, c_, out_, ws_, w1_, w2_, b1_, b2_;
  Status last_;
  long long alloc_limit_bytes_ = -1;
};

enum class PointState { Pending, Measured, Skipped };

struct SweepSample {
  long long reps = 0;  // calls in the batch (1 for a split call)
  double ms = 0.0;     // duration of the whole batch (>= min_sample_ms unless reps == max_reps or split);
                       // for a split call, the sum of its parts' durations
  int parts = 1;       // > 1: one call run in this many parts over several slices (rule 4)
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
  int steps = 0;           // prepares + batches + parts run in this slice
  int parts = 0;           // of these, parts of split calls
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
  void cancel();  // takes effect before the next step (also between two parts); results so far stay
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
  // A call being run in parts (rule 4); parts == 0: none.
  struct Split {
    int parts = 0, done = 0;  // planned parts, parts finished
    int units = 0;            // units of the call
    double call_est_ms = 0;   // estimate of the whole call when the plan was made
    double ms = 0;            // sum of the finished parts' durations
    int unit_begin(int part) const {
      return static_cast<int>(static_cast<long long>(part) * units / parts);
    }
  };
  bool stop_curve_if_needed(const Job& job);  // memory / time checks before a point; true when stopped
  void skip_rest(int curve, Status reason);
  void advance();
  void finish_point(const Job& job);
  void count_calls(const Job& job, long long reps);                // rule 9
  void calibrate(const Job& job, long long reps, double ms);       // call_ms_ and the curve's ms per mac
  void record_sample(const Job& job, long long reps, double ms, int parts, SliceReport* rep);
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
  Split split_;
  std::vector<double> curve_ms_per_mac_;  // last measured per curve (< 0: none)
  double prepare_ms_per_byte_ = -1.0;
  long long calls_ = 0, macs_ = 0;
  SweepState state_ = SweepState::Idle;
  std::atomic<bool> cancel_{false};
};

// Median of values (mean of the two middle ones for an even count); 0 for none.
double median_of(std::vector<double> values);

}  // namespace ap
