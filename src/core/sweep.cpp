#include "sweep.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>

#include "embedding.h"  // SeededRng
#include "matrix.h"     // check_size, format_number

namespace ap {

double median_of(std::vector<double> v) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  const size_t h = v.size() / 2;
  return v.size() % 2 ? v[h] : 0.5 * (v[h - 1] + v[h]);
}

// ---- FloatBuffer and KernelWorkload ----------------------------------------------------------------------------

bool FloatBuffer::resize_uninitialized(size_t count) {
  if (count <= capacity_) {
    size_ = count;
    return true;
  }
  reset();  // free first: the contents are rewritten anyway, and the peak stays at the new size
  if (count > SIZE_MAX / sizeof(float)) return false;
  p_ = static_cast<float*>(std::malloc(count * sizeof(float)));
  if (!p_) return false;
  size_ = capacity_ = count;
  return true;
}

void FloatBuffer::reset() {
  std::free(p_);
  p_ = nullptr;
  size_ = capacity_ = 0;
}

namespace {
void fill_uniform(FloatBuffer* v, SeededRng* rng, double scale) {
  for (size_t i = 0; i < v->size(); ++i) (*v)[i] = static_cast<float>((2.0 * rng->uniform01() - 1.0) * scale);
}
size_t sz(long long v) { return static_cast<size_t>(v); }
std::string megabytes(double bytes) { return format_number(bytes / 1048576.0); }
}  // namespace

long long KernelWorkload::bytes_held() const {
  size_t floats = 0;
  for (const FloatBuffer* v : {&a_, &b_, &c_, &out_, &ws_, &w1_, &w2_, &b1_, &b2_}) floats += v->capacity();
  return static_cast<long long>(floats * sizeof(float));
}

bool KernelWorkload::allocate(FloatBuffer* b, size_t count) {
  if (alloc_limit_bytes_ >= 0 && count > b->capacity()) {
    const long long held_elsewhere = bytes_held() - static_cast<long long>(b->capacity() * sizeof(float));
    const long long after = held_elsewhere + static_cast<long long>(count * sizeof(float));
    if (after > alloc_limit_bytes_) {
      b->reset();  // what resize_uninitialized leaves after a failed malloc
      return false;
    }
  }
  return b->resize_uninitialized(count);
}

Status KernelWorkload::prepare(const SweepCurve& curve, int n) {
  curve_ = curve;
  n_ = 0;  // not runnable until every buffer is in place
  last_ = Status::Ok();
  const long long d = curve.d, h = curve.hidden > 0 ? curve.hidden : curve.d;
  const bool attention = curve.kind == KernelKind::AttentionNaive || curve.kind == KernelKind::AttentionTiled;
  const long long g = curve.kind == KernelKind::Gru ? 3 : 1;  // RNN gate blocks
  // Every buffer of the point, then the inputs in a fixed order (the same seeded values as ever).
  struct Need {
    FloatBuffer* buf;
    long long floats;
  };
  Need needs[6];
  int count = 0;
  if (attention) {
    const long long ws = curve.kind == KernelKind::AttentionNaive ? attention_naive_workspace_floats(n, n)
                                                                   : attention_tiled_workspace_floats(curve.tile);
    for (FloatBuffer* b : {&a_, &b_, &c_, &out_}) needs[count++] = {b, n * d};
    needs[count++] = {&ws_, ws};
  } else {
    needs[count++] = {&a_, n * d};
    needs[count++] = {&w1_, g * h * d};
    needs[count++] = {&w2_, g * h * h};
    needs[count++] = {&b1_, g * h};
    needs[count++] = {&b2_, g * h};
    needs[count++] = {&out_, n * h};
  }
  long long total = 0;
  for (int i = 0; i < count; ++i) total += needs[i].floats * static_cast<long long>(sizeof(float));
  for (int i = 0; i < count; ++i) {
    if (needs[i].floats < 0 || !allocate(needs[i].buf, sz(needs[i].floats))) {
      release();  // give back what the heap has: the next point (another curve) may fit
      return Status::Error("{0} at n = {1} needs {2} MB, but that memory could not be allocated",
                           {kernel_kind_name(curve.kind), arg(n), megabytes(static_cast<double>(total))});
    }
  }
  SeededRng rng(seed_, static_cast<uint64_t>(curve.kind) + 1);
  if (attention) {
    fill_uniform(&a_, &rng, 1.0);
    fill_uniform(&b_, &rng, 1.0);
    fill_uniform(&c_, &rng, 1.0);
  } else {
    const double ws = 1.0 / std::sqrt(static_cast<double>(d + h));
    fill_uniform(&a_, &rng, 1.0);   // X
    fill_uniform(&w1_, &rng, ws);   // W_x
    fill_uniform(&w2_, &rng, ws);   // W_h
    fill_uniform(&b1_, &rng, 0.1);
    fill_uniform(&b2_, &rng, 0.1);
  }
  std::fill(out_.data(), out_.data() + out_.size(), 0.0f);
  n_ = n;
  return Status::Ok();
}

int KernelWorkload::units(const SweepCurve& curve, int n) const {
  (void)curve;  // attention: query rows; RNN: time steps. Both n.
  return std::max(1, n);
}

void KernelWorkload::run_call_units(int u0, int u1) {
  const int n = n_, d = curve_.d, h = curve_.hidden > 0 ? curve_.hidden : curve_.d;
  switch (curve_.kind) {
    case KernelKind::AttentionNaive:
      last_ = attention_forward_rows(a_.data(), b_.data(), c_.data(), n, d, u0, u1, out_.data(), ws_.data(),
                                     ws_.size(), curve_.impl);
      break;
    case KernelKind::AttentionTiled:
      last_ = attention_tiled_rows(a_.data(), b_.data(), c_.data(), n, d, u0, u1, curve_.tile, out_.data(),
                                   ws_.data(), ws_.size(), curve_.impl);
      break;
    case KernelKind::Elman:
    case KernelKind::Gru: {
      // time steps [u0, u1): x from row u0, h from row u0 − 1 of H (zeros at the start), as the full loop does
      if (u0 < 0) {
        last_ = Status::Error("{0} must be a finite number of at least 0, got {1}", {"u0", arg(u0)});
        break;
      }
      if (u0 > u1 || u1 > n) {
        last_ = u0 > u1 ? Status::Error("{0} ({1}) must not be larger than {2} ({3})", {"u0", arg(u0), "u1", arg(u1)})
                        : Status::Error("{0} ({1}) must not be larger than {2} ({3})", {"u1", arg(u1), "n", arg(n)});
        break;
      }
      if (u0 == u1 && n > 0) {  // an empty range of a prepared call (unprepared: the kernel reports n = 0)
        last_ = Status::Ok();
        break;
      }
      const float* X = a_.data() + sz(static_cast<long long>(u0) * d);
      float* H = out_.data() + sz(static_cast<long long>(u0) * h);
      const float* h0 = u0 > 0 ? out_.data() + sz(static_cast<long long>(u0 - 1) * h) : nullptr;
      if (curve_.kind == KernelKind::Elman) {
        ElmanWeights w;
        w.Wx = w1_.data();
        w.Wh = w2_.data();
        w.b = b1_.data();
        last_ = elman_forward(w, X, u1 - u0, d, h, h0, H, curve_.impl);
      } else {
        GruWeights w;
        w.Wx = w1_.data();
        w.Wh = w2_.data();
        w.bx = b1_.data();
        w.bh = b2_.data();
        last_ = gru_forward(w, X, u1 - u0, d, h, h0, H, curve_.impl);
      }
      break;
    }
  }
}

void KernelWorkload::run(long long reps) {
  for (long long i = 0; i < reps; ++i) run_call_units(0, n_);
}

void KernelWorkload::run_units(int u0, int u1) { run_call_units(u0, u1); }

void KernelWorkload::release() {
  for (FloatBuffer* v : {&a_, &b_, &c_, &out_, &ws_, &w1_, &w2_, &b1_, &b2_}) v->reset();
  n_ = 0;
}

// ---- Sweep ----------------------------------------------------------------------------------------------------

namespace {
// Rule 4: a part of a split call is planned to take at most this share of the slice budget.
constexpr double kPartShareOfBudget = 0.6;

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
  split_ = Split{};
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
  split_ = Split{};
}

void Sweep::count_calls(const Job& job, long long reps) {
  SweepPoint& pt = results_[job.curve].points[job.point];
  pt.calls += reps;
  pt.macs += reps * pt.macs_per_call;
  calls_ += reps;
  macs_ += reps * pt.macs_per_call;
}

void Sweep::calibrate(const Job& job, long long reps, double ms) {
  if (ms <= 0.0) return;  // the clock did not move: nothing learnt
  call_ms_ = ms / static_cast<double>(reps);
  const long long macs = results_[job.curve].points[job.point].macs_per_call;
  if (macs > 0) curve_ms_per_mac_[job.curve] = call_ms_ / static_cast<double>(macs);
}

void Sweep::record_sample(const Job& job, long long reps, double ms, int parts, SliceReport* rep) {
  SweepPoint& pt = results_[job.curve].points[job.point];
  pt.samples.push_back(SweepSample{reps, ms, parts});
  ++rep->samples;
  if (static_cast<int>(pt.samples.size()) >= config_.runs) {
    finish_point(job);
    advance();
  }
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
      if (!s.ok) {  // rule 7: e.g. the heap could not grow; the other curves go on
        skip_rest(job.curve, std::move(s));
        continue;
      }
      if (pt.memory_bytes > 0) prepare_ms_per_byte_ = (t1 - t0) / static_cast<double>(pt.memory_bytes);
      const double call = estimate_call_ms(job);
      reps_ = call > 0.0 ? static_cast<long long>(std::ceil(1.1 * config_.min_sample_ms / call)) : 1;
      reps_ = std::max(1LL, std::min(reps_, config_.max_reps));
      phase_ = Phase::Sample;
      continue;
    }
    // Phase::Sample. A call longer than the budget runs in parts (rule 4): continue the one in progress, or
    // plan one. A new plan is only kept once its first part starts, so a slice that cannot start it leaves the
    // next slice to plan with its own budget.
    const double call = estimate_call_ms(job);
    Split plan = split_;
    if (plan.parts == 0 && call > budget_ms) {
      const int units = workload_->units(config_.curves[job.curve], pt.n);
      if (units > 1) {
        // the fewest parts of at most `per_part` units, the units a part may hold to stay within its share
        const double fit = std::floor(kPartShareOfBudget * budget_ms * units / call);
        const long long per_part = std::max(1LL, static_cast<long long>(std::min(fit, static_cast<double>(units))));
        plan.units = units;
        plan.parts = static_cast<int>((units + per_part - 1) / per_part);
        plan.call_est_ms = call;
        plan.done = 0;
        plan.ms = 0.0;
      }
    }
    if (plan.parts > 0) {
      const int u0 = plan.unit_begin(plan.done), u1 = plan.unit_begin(plan.done + 1);
      // ms per unit: measured by this call's earlier parts when there are any, else from the estimate
      const double per_unit = u0 > 0 && plan.ms > 0.0 ? plan.ms / u0 : plan.call_est_ms / plan.units;
      if (!may_start(per_unit * (u1 - u0))) break;
      split_ = plan;
      const double t0 = clock_();
      workload_->run_units(u0, u1);
      const double ms = clock_() - t0;
      ++rep.steps;
      ++rep.parts;
      split_.ms += ms;
      if (++split_.done == split_.parts) {  // the call is complete: one call, one sample (rules 4, 9)
        const Split done = split_;
        split_ = Split{};
        count_calls(job, 1);
        calibrate(job, 1, done.ms);
        record_sample(job, 1, done.ms, done.parts, &rep);
      }
      continue;
    }
    // A batch of reps_ whole calls.
    if (!may_start(call < 0.0 ? -1.0 : call * static_cast<double>(reps_))) break;
    const double t0 = clock_();
    workload_->run(reps_);
    const double ms = clock_() - t0;
    ++rep.steps;
    count_calls(job, reps_);
    calibrate(job, reps_, ms);
    if (ms >= config_.min_sample_ms || reps_ >= config_.max_reps) {
      record_sample(job, reps_, ms, 1, &rep);
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
