// CostScene, part 2 of 2: the measurement. The sweep of one thread timed in slices of the frame loop
// (run_slice), the fits of its slopes, the P-lane model at another P, and the measured parallel speed-up with
// the worker pool (Web Workers in the browser, threads on the desktop). The document, presets and hover texts
// are in cost_scene.cpp.
#include "cost_scene.h"

#include <algorithm>
#include <cmath>

#include "core/matrix.h"

namespace ap {

namespace {

// The measured curves, in this order (the view and the document follow it).
SweepConfig make_config(const CostParams& p) {
  SweepConfig c;
  const std::vector<int> ns = CostScene::sweep_ns(p.sweep_max_n);
  const KernelKind kinds[] = {KernelKind::AttentionNaive, KernelKind::AttentionTiled, KernelKind::Elman, KernelKind::Gru};
  for (KernelKind k : kinds) {
    SweepCurve cv;
    cv.label = kernel_kind_name(k);
    cv.kind = k;
    cv.impl = KernelImpl::Simd;
    cv.d = p.d;
    cv.hidden = p.d;
    cv.ns = ns;
    c.curves.push_back(cv);
  }
  c.runs = p.sweep_runs;
  return c;
}

}  // namespace

// ---- the measurement -------------------------------------------------------------------------------------------

Status CostScene::start_sweep() { return begin_sweep(make_config(params_), warmup_ms_, false); }

Status CostScene::start_quick_sweep() {
  CostParams p = params_;
  p.sweep_max_n = cost_limits::kQuickMaxN;
  p.sweep_runs = 1;
  SweepConfig c = make_config(p);
  c.min_sample_ms = cost_limits::kQuickMinSampleMs;
  return begin_sweep(std::move(c), std::min(warmup_ms_, cost_limits::kQuickWarmupMs), true);
}

Status CostScene::begin_sweep(SweepConfig config, double warmup_ms, bool quick) {
  cancel_sweep();
  pending_ = std::move(config);
  SweepWorkload* w = injected_workload_;
  if (!w) {
    if (!workload_) workload_ = std::make_unique<KernelWorkload>();
    w = workload_.get();
  }
  // Validate now (the sweep starts for real after the warm-up): a bad configuration is refused here.
  Sweep probe;
  AP_TRY(probe.start(pending_, clock_, w));
  probe.cancel();
  measured_d_ = params_.d;
  started_ = true;
  quick_ = quick;
  warm_target_ms_ = warmup_ms;
  warming_ = warmup_ms > 0;
  warm_curve_ = 0;
  warm_curve_ms_ = 0;
  warm_reps_ = 1;
  longest_slice_ms_ = 0;
  fits_.clear();
  if (!warming_) AP_TRY(sweep_.start(pending_, clock_, w));
  refresh_parallel();
  return Status::Ok();
}

void CostScene::cancel_sweep() {
  if (warming_) {
    warming_ = false;
    SweepWorkload* w = injected_workload_ ? injected_workload_ : workload_.get();
    if (w) w->release();
    // A sweep cancelled during its warm-up has measured nothing: it reads as cancelled with no points.
    (void)sweep_.start(pending_, clock_, w);
  }
  if (sweep_.state() == SweepState::Running) {
    sweep_.cancel();
    (void)sweep_.run_slice(1.0);  // takes effect now: state Cancelled, buffers released
  }
  refresh_fits();
  refresh_parallel();
}

SweepState CostScene::sweep_state() const {
  if (!started_) return SweepState::Idle;
  if (warming_) return SweepState::Running;
  return sweep_.state();
}

double CostScene::sweep_fraction() const {
  if (!started_) return 0.0;
  const double warm_share = 0.05;
  const int curves = static_cast<int>(pending_.curves.size());
  if (warming_) return warm_share * (warm_curve_ + std::min(1.0, warm_curve_ms_ / std::max(1e-9, warm_target_ms_))) / std::max(1, curves);
  if (sweep_.state() == SweepState::Finished) return 1.0;
  return warm_share + (1.0 - warm_share) * sweep_.progress().fraction();
}

// A pool that wakes the page when its job ends (the browser's) needs no frames meanwhile, so the workers
// have the processor to themselves; the desktop's thread pool is polled at every frame.
bool CostScene::wants_time() const {
  const WorkerPool* p = workers_running() ? pool() : nullptr;
  return warming_ || sweep_.state() == SweepState::Running || (p && !p->wakes_page());
}

void CostScene::run_slice(double budget_ms) {
  if (!wants_time()) return;
  // The quick measurement takes a larger share of its frames, so that it is done in about a second; its calls
  // (n <= 1024) stay short enough that such a frame stays under 50 ms.
  if (quick_) budget_ms = std::max(budget_ms, cost_limits::kQuickSliceMs);
  const double t0 = clock_();
  SweepWorkload* w = injected_workload_ ? injected_workload_ : workload_.get();
  if (warming_) {
    // Untimed calls of each curve's kernel at a small n, so that the browser has compiled optimised code
    // before the first timed sample (core/sweep.h, "Warm-up").
    const int n_warm = std::min(128, params_.sweep_max_n);
    for (int guard = 0; warming_ && guard < 256 && clock_() - t0 < budget_ms * 0.8; ++guard) {
      const SweepCurve& cv = pending_.curves[static_cast<size_t>(warm_curve_)];
      if (warm_curve_ms_ == 0 && warm_reps_ == 1) {
        if (!w->prepare(cv, n_warm)) { warm_curve_ms_ = warm_target_ms_; }
      }
      if (warm_curve_ms_ < warm_target_ms_) {
        const double a = clock_();
        w->run(warm_reps_);
        const double ms = clock_() - a;
        warm_curve_ms_ += std::max(ms, 1e-3);
        if (ms < 2.0) warm_reps_ = std::min<long long>(warm_reps_ * 2, 1 << 16);
      }
      if (warm_curve_ms_ >= warm_target_ms_) {
        ++warm_curve_;
        warm_curve_ms_ = 0;
        warm_reps_ = 1;
        if (warm_curve_ >= static_cast<int>(pending_.curves.size())) {
          warming_ = false;
          Status s = sweep_.start(pending_, clock_, w);
          (void)s;  // validated in start_sweep
        }
      }
    }
  } else {
    const SweepState before = sweep_.state();
    (void)sweep_.run_slice(budget_ms);
    if (before != sweep_.state() || sweep_.progress().points_done > 0) refresh_fits();
    refresh_parallel();
  }
  longest_slice_ms_ = std::max(longest_slice_ms_, clock_() - t0);
}

void CostScene::refresh_fits() {
  fits_.clear();
  if (!started_ || warming_) return;
  for (const SweepCurveResult& r : sweep_.results()) {
    CostCurveFit f;
    std::vector<double> xs, ys;
    const SweepPoint* last = nullptr;
    for (const SweepPoint& pt : r.points) {
      if (pt.state != PointState::Measured || pt.median_ms <= 0) continue;
      last = &pt;
      if (pt.n < cost_limits::kMinFitN) continue;
      xs.push_back(pt.n);
      ys.push_back(pt.median_ms);
    }
    f.ok = fit_loglog_slope(xs, ys, &f.fit).ok;
    if (last && last->macs_per_call > 0) f.ns_per_mac = last->median_ms * 1e6 / static_cast<double>(last->macs_per_call);
    fits_.push_back(f);
  }
}

// ---- the P-lane model ------------------------------------------------------------------------------------------

// The measured curves' places in fits_ (make_config's order): the per-MAC times of the P-lane model.
constexpr size_t kNaiveAttentionFit = 0, kElmanFit = 2;

CostParallel CostScene::parallel_at(long long lanes) const {
  CostParallel p;
  // Per-MAC times: from the last measurement (naive attention and Elman at their largest measured n).
  if (fits_.size() > kElmanFit && fits_[kNaiveAttentionFit].ns_per_mac > 0 && fits_[kElmanFit].ns_per_mac > 0) {
    p.measured = true;
    p.ns_per_mac_attention = fits_[kNaiveAttentionFit].ns_per_mac;
    p.ns_per_mac_rnn = fits_[kElmanFit].ns_per_mac;
  }
  LanesComparison c;  // the model (core/cost_model.h); the scene's sizes are within its limits
  if (compare_on_lanes(params_.n, params_.d, params_.k, lanes, p.ns_per_mac_attention, p.ns_per_mac_rnn, cost_limits::kSyncNs, &c)) {
    p.attention = c.attention;
    p.recurrent = c.recurrent;
    p.ns_per_step_attention = c.ns_per_step_attention;
    p.ns_per_step_rnn = c.ns_per_step_rnn;
  }
  return p;
}

void CostScene::refresh_parallel() {
  CostParallel p = parallel_at(params_.lanes);
  p.crossover_lanes = attention_crossover_lanes(params_.n, params_.d, params_.k, p.ns_per_mac_attention, p.ns_per_mac_rnn,
                                                cost_limits::kSyncNs);
  parallel_ = p;
}

// ---- the measured parallel speed-up -------------------------------------------------------------------------------

WorkerPool* CostScene::pool() const { return use_override_ ? pool_override_ : worker_pool(); }

Status CostScene::start_workers() {
  WorkerPool* p = pool();
  if (!p || p->max_workers() < 1) return Status::Error("parallel workers are not available here");
  cancel_workers();
  WorkerMeasure m;
  m.pool = p->name();
  m.max_workers = std::min(p->max_workers(), cost_limits::kMaxWorkers);
  m.d = std::min(params_.d, 512);
  // Attention: n from the controls, made smaller while one call would exceed 2^31 multiply-adds (about a
  // second on one core); the GRU: n steps of the same width.
  m.n_attention = std::max(64, std::min(params_.n, 4096));
  while (m.n_attention > 64 && kernel_macs(KernelKind::AttentionNaive, m.n_attention, m.d) > (1LL << 31)) m.n_attention /= 2;
  m.n_gru = std::max(16, std::min(params_.n, 4096));
  m.state = WorkerMeasure::State::Running;
  std::vector<int> ws;
  for (int w = 1; w <= m.max_workers; w *= 2) ws.push_back(w);
  if (ws.back() != m.max_workers) ws.push_back(m.max_workers);
  // Per layer: one run on every worker, untimed (each worker's module gets compiled and tiered up before it is
  // timed); one run on one worker that sets the calls per timed run; then the timed runs, the worker counts
  // interleaved (1, 2, 4, 1, 2, 4 …) so that a drift of the machine's speed touches them all alike.
  worker_steps_.clear();
  using Role = WorkerStep::Role;
  for (WorkerJobKind kind : {WorkerJobKind::Attention, WorkerJobKind::Gru}) {
    worker_steps_.push_back({kind, ws.back(), Role::Warm});
    worker_steps_.push_back({kind, 1, Role::Calibrate});
    for (int r = 0; r < cost_limits::kWorkerRuns; ++r)
      for (int w : ws) worker_steps_.push_back({kind, w, Role::Timed});
    auto& pts = kind == WorkerJobKind::Attention ? m.attention : m.gru;
    for (int w : ws) {
      WorkerPoint pt;
      pt.workers = w;
      pts.push_back(pt);
    }
  }
  m.jobs_total = static_cast<int>(worker_steps_.size());
  workers_ = std::move(m);
  worker_next_ = 0;
  submit_next_worker_job();
  return workers_.state == WorkerMeasure::State::Failed ? workers_.error : Status::Ok();
}

void CostScene::cancel_workers() {
  if (workers_.state != WorkerMeasure::State::Running) return;
  if (WorkerPool* p = pool()) p->cancel();
  workers_.state = WorkerMeasure::State::Cancelled;
}

void CostScene::submit_next_worker_job() {
  WorkerPool* p = pool();
  if (worker_next_ >= worker_steps_.size()) {
    finish_worker_measure();
    return;
  }
  const WorkerStep& s = worker_steps_[worker_next_];
  WorkerJob job;
  job.kind = s.kind;
  job.n = s.kind == WorkerJobKind::Attention ? workers_.n_attention : workers_.n_gru;
  job.d = workers_.d;
  job.workers = s.workers;
  if (s.role == WorkerStep::Role::Timed) {
    job.reps = s.kind == WorkerJobKind::Attention ? workers_.reps_attention : workers_.reps_gru;
  } else if (s.role == WorkerStep::Role::Warm) {
    // Long enough for the browser to swap its baseline wasm code for optimised code (V8 tiers a function up
    // only after it has run for a while; a 15 ms warm-up left the workers at half speed): about 2^31
    // multiply-adds, and for the GRU at most 4096 steps in all (every step is a hand-off when W > 1).
    const long long macs = s.kind == WorkerJobKind::Attention ? kernel_macs(KernelKind::AttentionNaive, job.n, job.d)
                                                              : kernel_macs(KernelKind::Gru, job.n, job.d, job.d);
    job.reps = std::max(1LL, std::min(64LL, (1LL << 31) / std::max(1LL, macs)));
    if (s.kind == WorkerJobKind::Gru) job.reps = std::min(job.reps, std::max(1LL, 4096LL / job.n));
  } else {
    job.reps = 1;
  }
  job.seed = 7;
  if (!p || !p->submit(job)) {
    workers_.state = WorkerMeasure::State::Failed;
    workers_.error = Status::Error("the parallel workers are busy or gone");
    return;
  }
  worker_job_started_ = clock_();
}

void CostScene::poll() {
  if (workers_.state != WorkerMeasure::State::Running) return;
  WorkerPool* p = pool();
  WorkerResult r;
  if (!p || !p->poll(&r)) {
    if (p && clock_() - worker_job_started_ > cost_limits::kWorkerJobTimeoutMs) {
      p->cancel();
      workers_.state = WorkerMeasure::State::Failed;
      workers_.error = Status::Error("a parallel job took longer than {0} s and was stopped",
                                     {arg(static_cast<long long>(cost_limits::kWorkerJobTimeoutMs / 1000))});
    }
    return;
  }
  const WorkerStep s = worker_steps_[worker_next_];
  if (!r.ok || !(r.ms > 0) || !std::isfinite(r.ms)) {
    workers_.state = WorkerMeasure::State::Failed;
    workers_.error = r.ok ? Status::Error("a parallel job reported no time")
                          : Status::Error("a parallel worker failed: {0}", {r.error});
    return;
  }
  ++workers_.jobs_done;
  ++worker_next_;
  auto& pts = s.kind == WorkerJobKind::Attention ? workers_.attention : workers_.gru;
  if (s.role == WorkerStep::Role::Warm) {
    // nothing to keep
  } else if (s.role == WorkerStep::Role::Calibrate) {
    // One call's time at W = 1 sets the calls per timed run: long enough that the browser's coarse clock
    // (0.1 ms) and the message latency (~0.1 ms) are small against it. The GRU is capped lower because with
    // W > 1 each sequence adds n hand-offs.
    if (s.kind == WorkerJobKind::Attention)
      workers_.reps_attention = std::max(1LL, std::min(256LL, static_cast<long long>(std::ceil(cost_limits::kAttentionSpanMs / r.ms))));
    else
      workers_.reps_gru = std::max(1LL, std::min<long long>(std::max(1, 8192 / workers_.n_gru),
                                                           static_cast<long long>(std::ceil(cost_limits::kGruSpanMs / r.ms))));
    (s.kind == WorkerJobKind::Attention ? workers_.checksum_attention : workers_.checksum_gru) = r.checksum;
  } else {
    // Splitting changes no arithmetic (core/split_work.h), so every W must give the calibration run's
    // checksum; attention's row sums are added in another order, hence the relative tolerance.
    const double want = s.kind == WorkerJobKind::Attention ? workers_.checksum_attention : workers_.checksum_gru;
    for (WorkerPoint& pt : pts)
      if (pt.workers == s.workers) {
        pt.samples.push_back(r.ms);
        pt.ms = median_of(pt.samples);
        pt.same_output = pt.same_output && std::abs(r.checksum - want) <= 1e-5 * std::max(1.0, std::abs(want));
      }
  }
  submit_next_worker_job();
}

void CostScene::finish_worker_measure() {
  workers_.state = WorkerMeasure::State::Finished;
  for (auto* pts : {&workers_.attention, &workers_.gru}) {
    const double base = pts->empty() ? 0 : pts->front().ms;
    for (WorkerPoint& pt : *pts) pt.speedup = pt.ms > 0 ? base / pt.ms : 0;
  }
  // The GRU's hand-off: at the largest W, the time beyond an ideal W-fold split of the one-worker time,
  // per time step. What the notes call O(n) sequential operations, priced on this device.
  if (workers_.gru.size() > 1) {
    const WorkerPoint& one = workers_.gru.front();
    const WorkerPoint& most = workers_.gru.back();
    workers_.handoff_us = std::max(0.0, (most.ms - one.ms / most.workers) * 1000.0 / workers_.n_gru);
  }
}

}  // namespace ap
