#include "split_work.h"

#include <algorithm>
#include <cmath>

#include "embedding.h"  // SeededRng

namespace ap {

namespace {
void fill_uniform(std::vector<float>* v, long long count, SeededRng* rng, double scale) {
  v->resize(static_cast<size_t>(count));
  for (float& x : *v) x = static_cast<float>((2.0 * rng->uniform01() - 1.0) * scale);
}
Status check_range(const char* what, long long v, long long lo, long long hi) {
  if (v < lo || v > hi) return Status::Error("{0} must be between {1} and {2}, got {3}", {what, arg(lo), arg(hi), arg(v)});
  return Status::Ok();
}
}  // namespace

std::vector<UnitRange> split_even(int count, int parts) {
  if (count <= 0) return {UnitRange{}};
  parts = std::max(1, std::min(parts, count));
  std::vector<UnitRange> out;
  const int base = count / parts, extra = count % parts;
  int at = 0;
  for (int p = 0; p < parts; ++p) {
    const int len = base + (p < extra ? 1 : 0);
    out.push_back({at, at + len});
    at += len;
  }
  return out;
}

// ---- attention rows --------------------------------------------------------------------------------------------

Status SplitAttention::prepare(bool tiled, int n, int d, int r0, int r1, uint64_t seed) {
  AP_TRY(check_range("n", n, 1, kernel_limits::kMaxTokens));
  AP_TRY(check_range("d", d, 1, kernel_limits::kMaxWidth));
  AP_TRY(check_range("r0", r0, 0, n));
  AP_TRY(check_range("r1", r1, r0, n));
  tiled_ = tiled;
  n_ = n;
  d_ = d;
  r0_ = r0;
  r1_ = r1;
  // One stream per matrix: Q, K and V are the same in every worker whatever its rows.
  SeededRng rq(seed, 1), rk(seed, 2), rv(seed, 3);
  fill_uniform(&q_, 1LL * n * d, &rq, 1.0);
  fill_uniform(&k_, 1LL * n * d, &rk, 1.0);
  fill_uniform(&v_, 1LL * n * d, &rv, 1.0);
  out_.assign(static_cast<size_t>(1LL * n * d), 0.0f);
  // Naive: the score rows of this worker only ((r1 − r0) × n), not the whole n × n matrix.
  ws_.resize(static_cast<size_t>(tiled ? attention_tiled_workspace_floats(TileSizes{})
                                       : std::max(1LL, attention_naive_workspace_floats(r1 - r0, n))));
  last_ = Status::Ok();
  return Status::Ok();
}

double SplitAttention::run(long long reps) {
  for (long long i = 0; i < reps; ++i) {
    last_ = tiled_ ? attention_tiled_rows(q_.data(), k_.data(), v_.data(), n_, d_, r0_, r1_, TileSizes{}, out_.data(),
                                          ws_.data(), ws_.size(), KernelImpl::Simd)
                   : attention_forward_rows(q_.data(), k_.data(), v_.data(), n_, d_, r0_, r1_, out_.data(), ws_.data(),
                                            ws_.size(), KernelImpl::Simd);
    if (!last_.ok) return 0.0;
  }
  double sum = 0.0;
  for (long long i = 1LL * r0_ * d_; i < 1LL * r1_ * d_; ++i) sum += out_[static_cast<size_t>(i)];
  return sum;
}

// ---- GRU units -------------------------------------------------------------------------------------------------

Status SplitGru::prepare(int n, int d, int hidden, int u0, int u1, uint64_t seed) {
  AP_TRY(check_range("n", n, 1, kernel_limits::kMaxTokens));
  AP_TRY(check_range("d", d, 1, kernel_limits::kMaxWidth));
  AP_TRY(check_range("hidden", hidden, 1, kernel_limits::kMaxWidth));
  AP_TRY(check_range("u0", u0, 0, hidden));
  AP_TRY(check_range("u1", u1, u0, hidden));
  n_ = n;
  d_ = d;
  hidden_ = hidden;
  u0_ = u0;
  u1_ = u1;
  // Weights scaled by 1/√(d + hidden) so the gates' sums stay O(1) and tanh / σ do not saturate.
  const double ws = 1.0 / std::sqrt(static_cast<double>(d + hidden));
  SeededRng rx(seed, 11), rw(seed, 12), ru(seed, 13), rb(seed, 14), rc(seed, 15);
  fill_uniform(&x_, 1LL * n * d, &rx, 1.0);
  fill_uniform(&wx_, 3LL * hidden * d, &rw, ws);
  fill_uniform(&wh_, 3LL * hidden * hidden, &ru, ws);
  fill_uniform(&bx_, 3LL * hidden, &rb, 0.1);
  fill_uniform(&bh_, 3LL * hidden, &rc, 0.1);
  prev_.assign(static_cast<size_t>(hidden), 0.0f);
  next_.assign(static_cast<size_t>(hidden), 0.0f);
  return Status::Ok();
}

void SplitGru::reset() {
  std::fill(prev_.begin(), prev_.end(), 0.0f);
  std::fill(next_.begin(), next_.end(), 0.0f);
}

Status SplitGru::step(int t) {
  AP_TRY(check_range("t", t, 0, n_ - 1));
  GruWeights w;
  w.Wx = wx_.data();
  w.Wh = wh_.data();
  w.bx = bx_.data();
  w.bh = bh_.data();
  return gru_step_units(w, d_, hidden_, x_.data() + 1LL * t * d_, prev_.data(), u0_, u1_, next_.data(),
                        KernelImpl::Simd);
}

double SplitGru::run_all() {
  reset();
  for (int t = 0; t < n_; ++t) {
    if (!step(t).ok) return 0.0;
    advance();
  }
  return checksum();
}

double SplitGru::checksum() const {
  double sum = 0.0;
  for (float v : prev_) sum += v;
  return sum;
}

}  // namespace ap
