#include "sweep.h"

#include <algorithm>
#include <cmath>

#include "embedding.h"  // SeededRng
#include "matrix.h"     // check_size, format_number

namespace ap {

double median_of(std::vector<double> v) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  const size_t h = v.size() / 2;
  return v.size() % 2 ? v[h] : 0.5 * (v[h - 1] + v[h]);
}

// ---- KernelWorkload ---------------------------------------------------------------------------------------------

namespace {
void fill_uniform(std::vector<float>* v, size_t count, SeededRng* rng, double scale) {
  v->resize(count);
  for (size_t i = 0; i < count; ++i) (*v)[i] = static_cast<float>((2.0 * rng->uniform01() - 1.0) * scale);
}
size_t sz(long long v) { return static_cast<size_t>(v); }
}  // namespace

Status KernelWorkload::prepare(const SweepCurve& curve, int n) {
  curve_ = curve;
  n_ = n;
  const long long d = curve.d, h = curve.hidden > 0 ? curve.hidden : curve.d;
  SeededRng rng(seed_, static_cast<uint64_t>(curve.kind) + 1);
  switch (curve.kind) {
    case KernelKind::AttentionNaive:
    case KernelKind::AttentionTiled:
      fill_uniform(&a_, sz(n * d), &rng, 1.0);
      fill_uniform(&b_, sz(n * d), &rng, 1.0);
      fill_uniform(&c_, sz(n * d), &rng, 1.0);
      out_.assign(sz(n * d), 0.0f);
      ws_.resize(sz(curve.kind == KernelKind::AttentionNaive ? attention_naive_workspace_floats(n, n)
                                                              : attention_tiled_workspace_floats(curve.tile)));
      break;
    case KernelKind::Elman:
    case KernelKind::Gru: {
      const long long g = curve.kind == KernelKind::Gru ? 3 : 1;  // gate blocks
      const double ws = 1.0 / std::sqrt(static_cast<double>(d + h));
      fill_uniform(&a_, sz(n * d), &rng, 1.0);     // X
      fill_uniform(&w1_, sz(g * h * d), &rng, ws);  // W_x
      fill_uniform(&w2_, sz(g * h * h), &rng, ws);  // W_h
      fill_uniform(&b1_, sz(g * h), &rng, 0.1);
      fill_uniform(&b2_, sz(g * h), &rng, 0.1);
      out_.assign(sz(n * h), 0.0f);
      break;
    }
  }
  last_ = Status::Ok();
  return Status::Ok();
}

void KernelWorkload::run(long long reps) {
  const int n = n_, d = curve_.d, h = curve_.hidden > 0 ? curve_.hidden : curve_.d;
  for (long long i = 0; i < reps; ++i) {
    switch (curve_.kind) {
      case KernelKind::AttentionNaive:
        last_ = attention_forward(a_.data(), b_.data(), c_.data(), n, d, out_.data(), ws_.data(), ws_.size(),
                                  curve_.impl);
        break;
      case KernelKind::AttentionTiled:
        last_ = attention_tiled(a_.data(), b_.data(), c_.data(), n, d, curve_.tile, out_.data(), ws_.data(),
                                ws_.size(), curve_.impl);
        break;
      case KernelKind::Elman: {
        ElmanWeights w;
        w.Wx = w1_.data();
        w.Wh = w2_.data();
        w.b = b1_.data();
        last_ = elman_forward(w, a_.data(), n, d, h, nullptr, out_.data(), curve_.impl);
        break;
      }
      case KernelKind::Gru: {
        GruWeights w;
        w.Wx = w1_.data();
        w.Wh = w2_.data();
        w.bx = b1_.data();
        w.bh = b2_.data();
        last_ = gru_forward(w, a_.data(), n, d, h, nullptr, out_.data(), curve_.impl);
        break;
      }
    }
  }
}

void KernelWorkload::release() {
  for (std::vector<float>* v : {&a_, &b_, &c_, &out_, &ws_, &w1_, &w2_, &b1_, &b2_}) {
    v->clear();
    v->shrink_to_fit();
  }
  n_ = 0;
}

// ---- Sweep ----------------------------------------------------------------------------------------------------

namespace {
Status check_positive(double v, const char* name) {
  if (!std::isfinite(v) || v <= 0.0)
    return Status::Error("{0} must be a finite number greater than 0, got {1}", {name, format_number(v)});
  return Status::Ok();
}

Status check_curve(const SweepCurve& c, int index) {
  if (c.ns.empty()) return Status::Error("curve {0} has no sequence lengths", {arg(index)});
  for (size_t i = 0; i < c.ns.size(); ++i) {
    AP_TRY(check_size(c.ns[i], "n (tokens)", kernel_limits::kMaxTokens));
    if (i > 0 && c.ns[i] <= c.ns[i - 1])
      return Status::Error("curve {0}: sequence lengths must increase, but {1} follows {2}",
                           {arg(index), arg(c.ns[i]), arg(c.ns[i - 1])});
  }
  AP_TRY(check_size(c.d, "d (width)", kernel_limits::kMaxWidth));
  if (c.hidden > 0) AP_TRY(check_size(c.hidden, "hidden size", kernel_limits::kMaxWidth));
  if (c.kind == KernelKind::AttentionTiled) {
    AP_TRY(check_size(c.tile.keys, "key tile", kernel_limits::kMaxKeyTile));
    AP_TRY(check_size(c.tile.queries, "query tile", kernel_limits::kMaxQueryTile));
  }
  return Status::Ok();
}

std::string megabytes(double bytes) { return format_number(bytes / 1048576.0); }
}  // namespace

Status Sweep::start(const SweepConfig& config, SweepClock clock, SweepWorkload* workload) {
  if (!clock) return Status::Error("{0} is a null pointer", {"clock"});
  if (config.curves.empty()) return Status::Error("a sweep needs at least one curve");
  for (size_t i = 0; i < config.curves.size(); ++i) AP_TRY(check_curve(config.curves[i], static_cast<int>(i)));
  AP_TRY(check_size(config.runs, "runs", 99));
  AP_TRY(check_positive(config.min_sample_ms, "min_sample_ms"));
  AP_TRY(check_positive(config.memory_budget_bytes, "memory_budget_bytes"));
  AP_TRY(check_positive(config.max_call_ms, "max_call_ms"));
  AP_TRY(check_size(config.max_reps, "max_reps", 1LL << 30));

  if (workload_) workload_->release();
  config_ = config;
  clock_ = std::move(clock);
  if (workload) {
    workload_ = workload;
    own_workload_.reset();
  } else {
    own_workload_.reset(new KernelWorkload());
    workload_ = own_workload_.get();
  }
  results_.assign(config_.curves.size(), SweepCurveResult{});
  jobs_.clear();
  for (size_t c = 0; c < config_.curves.size(); ++c) {
    const SweepCurve& cv = config_.curves[c];
    for (size_t p = 0; p < cv.ns.size(); ++p) {
      SweepPoint pt;
      pt.n = cv.ns[p];
      pt.macs_per_call = kernel_macs(cv.kind, pt.n, cv.d, cv.hidden);
      pt.memory_bytes = kernel_memory(cv.kind, pt.n, cv.d, cv.hidden, cv.tile).total();
      results_[c].points.push_back(pt);
      jobs_.push_back(Job{static_cast<int>(c), static_cast<int>(p)});
    }
  }
  std::stable_sort(jobs_.begin(), jobs_.end(), [this](const Job& a, const Job& b) {
    return results_[a.curve].points[a.point].n < results_[b.curve].points[b.point].n;
  });
  next_ = 0;
  phase_ = Phase::Prepare;
  reps_ = 1;
  call_ms_ = -1.0;
  curve_ms_per_mac_.assign(config_.curves.size(), -1.0);
  prepare_ms_per_byte_ = -1.0;
  calls_ = macs_ = 0;
  cancel_ = false;
  state_ = SweepState::Running;
  return Status::Ok();
}

void Sweep::cancel() { cancel_ = true; }

SweepState Sweep::state() const {
  if (state_ == SweepState::Running && cancel_) return SweepState::Cancelled;
  return state_;
}

SweepProgress Sweep::progress() const {
  SweepProgress p;
  for (const SweepCurveResult& c : results_)
    for (const SweepPoint& pt : c.points) {
      ++p.points_total;
      p.samples_total += config_.runs;
      if (pt.state == PointState::Measured) ++p.points_done;
      if (pt.state == PointState::Skipped) {
        ++p.points_done;
        ++p.points_skipped;
        p.samples_done += config_.runs;
      } else {
        p.samples_done += static_cast<int>(pt.samples.size());
      }
    }
  return p;
}

double Sweep::estimate_call_ms(const Job& job) const {
  if (call_ms_ >= 0.0) return call_ms_;
  const double rate = curve_ms_per_mac_[job.curve];
  if (rate < 0.0) return -1.0;
  return rate * static_cast<double>(results_[job.curve].points[job.point].macs_per_call);
}

void Sweep::skip_rest(int curve, Status reason) {
  SweepCurveResult& r = results_[curve];
  r.stopped = true;
  r.reason = std::move(reason);
  for (SweepPoint& pt : r.points)
    if (pt.state == PointState::Pending) pt.state = PointState::Skipped;
}

bool Sweep::stop_curve_if_needed(const Job& job) {
  const SweepCurve& cv = config_.curves[job.curve];
  const SweepPoint& pt = results_[job.curve].points[job.point];
  if (static_cast<double>(pt.memory_bytes) > config_.memory_budget_bytes) {
    if (cv.kind == KernelKind::AttentionNaive)
      skip_rest(job.curve,
                Status::Error("naive attention at n = {0} needs a {0}×{0} score matrix of {1} MB; the memory budget is {2} MB",
                              {arg(pt.n), megabytes(static_cast<double>(score_matrix_bytes(pt.n))),
                               megabytes(config_.memory_budget_bytes)}));
    else
      skip_rest(job.curve, Status::Error("{0} at n = {1} needs {2} MB; the memory budget is {3} MB",
                                         {kernel_kind_name(cv.kind), arg(pt.n),
                                          megabytes(static_cast<double>(pt.memory_bytes)),
                                          megabytes(config_.memory_budget_bytes)}));
    return true;
  }
  const double est = estimate_call_ms(job);
  if (est > config_.max_call_ms) {
    skip_rest(job.curve, Status::Error("{0} at n = {1} would take about {2} ms per call; the limit is {3} ms",
                                       {kernel_kind_name(cv.kind), arg(pt.n), format_number(est),
                                        format_number(config_.max_call_ms)}));
    return true;
  }
  return false;
}

void Sweep::advance() {
  ++next_;
  phase_ = Phase::Prepare;
  reps_ = 1;
  call_ms_ = -1.0;
}

void Sweep::finish_point(const Job& job) {
  SweepPoint& pt = results_[job.curve].points[job.point];
  std::vector<double> per_call;
  for (const SweepSample& s : pt.samples) per_call.push_back(s.ms / static_cast<double>(s.reps));
  pt.median_ms = median_of(per_call);
  pt.state = PointState::Measured;
  if (pt.macs_per_call > 0) curve_ms_per_mac_[job.curve] = pt.median_ms / static_cast<double>(pt.macs_per_call);
}

SliceReport Sweep::run_slice(double budget_ms) {
  SliceReport rep;
  if (state_ == SweepState::Idle) {
    rep.status = Status::Error("the sweep has not been started");
    return rep;
  }
  if (!std::isfinite(budget_ms) || budget_ms <= 0.0) {
    rep.status = Status::Error("{0} must be a finite number greater than 0, got {1}",
                               {"budget_ms", format_number(budget_ms)});
    rep.state = state();
    return rep;
  }
  const double t_start = clock_();
  // May a step with estimate `est` (< 0: unknown) start now?
  auto may_start = [&](double est) {
    if (rep.steps == 0) return true;  // a slice always makes progress
    if (est < 0.0) return false;      // unknown cost: only as a slice's first step
    return (clock_() - t_start) + est <= budget_ms;
  };
  while (state_ == SweepState::Running) {
    if (cancel_) {
      state_ = SweepState::Cancelled;
      workload_->release();
      break;
    }
    // skip points of stopped curves, finish when every job is done
    while (next_ < jobs_.size() &&
           results_[jobs_[next_].curve].points[jobs_[next_].point].state != PointState::Pending)
      advance();
    if (next_ >= jobs_.size()) {
      state_ = SweepState::Finished;
      workload_->release();
      break;
    }
    const Job job = jobs_[next_];
    SweepPoint& pt = results_[job.curve].points[job.point];
    if (phase_ == Phase::Prepare) {
      if (stop_curve_if_needed(job)) continue;
      const double est =
          prepare_ms_per_byte_ < 0.0 ? -1.0 : prepare_ms_per_byte_ * static_cast<double>(pt.memory_bytes);
      if (!may_start(est)) break;
      const double t0 = clock_();
      Status s = workload_->prepare(config_.curves[job.curve], pt.n);
      const double t1 = clock_();
      ++rep.steps;
      if (pt.memory_bytes > 0) prepare_ms_per_byte_ = (t1 - t0) / static_cast<double>(pt.memory_bytes);
      if (!s.ok) {
        skip_rest(job.curve, std::move(s));
        continue;
      }
      const double call = estimate_call_ms(job);
      reps_ = call > 0.0 ? static_cast<long long>(std::ceil(1.1 * config_.min_sample_ms / call)) : 1;
      reps_ = std::max(1LL, std::min(reps_, config_.max_reps));
      phase_ = Phase::Sample;
      continue;
    }
    // Phase::Sample: one batch of reps_ calls
    const double call = estimate_call_ms(job);
    if (!may_start(call < 0.0 ? -1.0 : call * static_cast<double>(reps_))) break;
    const double t0 = clock_();
    workload_->run(reps_);
    const double ms = clock_() - t0;
    ++rep.steps;
    pt.calls += reps_;
    pt.macs += reps_ * pt.macs_per_call;
    calls_ += reps_;
    macs_ += reps_ * pt.macs_per_call;
    if (ms > 0.0) {
      call_ms_ = ms / static_cast<double>(reps_);
      if (pt.macs_per_call > 0) curve_ms_per_mac_[job.curve] = call_ms_ / static_cast<double>(pt.macs_per_call);
    }
    if (ms >= config_.min_sample_ms || reps_ >= config_.max_reps) {
      pt.samples.push_back(SweepSample{reps_, ms});
      ++rep.samples;
      if (static_cast<int>(pt.samples.size()) >= config_.runs) {
        finish_point(job);
        advance();
      }
    } else {
      // too short to trust: calibration only; grow the batch
      const double grown = ms > 0.0 ? std::ceil(1.2 * static_cast<double>(reps_) * config_.min_sample_ms / ms)
                                    : 10.0 * static_cast<double>(reps_);
      reps_ = static_cast<long long>(std::min(grown, static_cast<double>(config_.max_reps)));
      reps_ = std::max(reps_, 1LL);
    }
  }
  rep.used_ms = clock_() - t_start;
  rep.overran = rep.used_ms > budget_ms;
  rep.state = state();
  return rep;
}

}  // namespace ap
