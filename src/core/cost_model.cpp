#include "cost_model.h"

#include <algorithm>
#include <cmath>

#include "matrix.h"  // check_size, format_number

namespace ap {

const char* layer_kind_name(LayerKind k) {
  switch (k) {
    case LayerKind::Recurrent: return "recurrent";
    case LayerKind::Convolutional: return "convolutional";
    default: return "self-attention";
  }
}

long long attention_score_macs(long long n, long long d) { return n * n * d; }
long long attention_mix_macs(long long n, long long d) { return n * n * d; }
long long attention_macs(long long n, long long d) { return attention_score_macs(n, d) + attention_mix_macs(n, d); }
long long attention_projection_macs(long long n, long long d) { return 3 * n * d * d; }
long long elman_macs(long long n, long long d_in, long long hidden) { return n * hidden * (d_in + hidden); }
long long gru_macs(long long n, long long d_in, long long hidden) { return 3 * n * hidden * (d_in + hidden); }
long long conv_macs(long long n, long long d, long long k) { return k * n * d * d; }
long long score_matrix_bytes(long long n) { return 4 * n * n; }

long long sequential_ops(LayerKind kind, long long n) { return kind == LayerKind::Recurrent ? n : 1; }

long long max_path_length(LayerKind kind, long long n, long long k) {
  if (kind == LayerKind::SelfAttention) return 1;
  if (kind == LayerKind::Recurrent) return n;
  // smallest L >= 1 with k^L >= n, in integers (no log rounding): reach < n <= 2^20 and k <= 4096 keep
  // reach·k below 2^32
  long long layers = 1, reach = k;
  while (reach < n) {
    reach *= k;
    ++layers;
  }
  return layers;
}

Status check_cost_inputs(long long n, long long d, long long k) {
  AP_TRY(check_size(n, "n", cost::kMaxN));
  AP_TRY(check_size(d, "d", cost::kMaxD));
  if (k < cost::kMinK || k > cost::kMaxK)
    return Status::Error("{0} must be between {1} and {2}, got {3}",
                         {"k (kernel width)", arg(cost::kMinK), arg(cost::kMaxK), arg(k)});
  return Status::Ok();
}

Status layer_cost(LayerKind kind, long long n, long long d, long long k, LayerCost* out) {
  AP_TRY(check_cost_inputs(n, d, k));
  LayerCost c;
  switch (kind) {
    case LayerKind::SelfAttention:
      c.macs = attention_macs(n, d);
      c.projection_macs = attention_projection_macs(n, d);
      c.score_bytes = score_matrix_bytes(n);
      break;
    case LayerKind::Recurrent: c.macs = elman_macs(n, d, d); break;
    case LayerKind::Convolutional: c.macs = conv_macs(n, d, k); break;
  }
  c.sequential_ops = sequential_ops(kind, n);
  c.max_path_length = max_path_length(kind, n, k);
  *out = c;
  return Status::Ok();
}

namespace {
Status check_nonnegative(double v, const char* name) {
  if (!std::isfinite(v) || v < 0.0)
    return Status::Error("{0} must be a finite number of at least 0, got {1}", {name, format_number(v)});
  return Status::Ok();
}
}  // namespace

Status work_depth_time(const WorkDepthInputs& in, WorkDepthTime* out) {
  AP_TRY(check_nonnegative(in.work_macs, "work (multiply-adds)"));
  AP_TRY(check_nonnegative(in.depth, "depth (sequential steps)"));
  AP_TRY(check_size(in.lanes, "P (lanes)", cost::kMaxLanes));
  if (!std::isfinite(in.ns_per_mac) || in.ns_per_mac <= 0.0)
    return Status::Error("{0} must be a finite number greater than 0, got {1}",
                         {"time per multiply-add (ns)", format_number(in.ns_per_mac)});
  AP_TRY(check_nonnegative(in.ns_per_step, "time per sequential step (ns)"));
  WorkDepthTime t;
  t.work_ns = in.work_macs * in.ns_per_mac / static_cast<double>(in.lanes);
  t.depth_ns = in.depth * in.ns_per_step;
  t.depth_bound = t.depth_ns > t.work_ns;
  t.time_ns = t.depth_bound ? t.depth_ns : t.work_ns;
  *out = t;
  return Status::Ok();
}

Status layer_time(LayerKind kind, long long n, long long d, long long k, long long lanes, double ns_per_mac,
                  double ns_per_step, WorkDepthTime* out) {
  LayerCost c;
  AP_TRY(layer_cost(kind, n, d, k, &c));
  WorkDepthInputs in;
  in.work_macs = static_cast<double>(c.macs);
  in.depth = static_cast<double>(c.sequential_ops);
  in.lanes = lanes;
  in.ns_per_mac = ns_per_mac;
  in.ns_per_step = ns_per_step;
  return work_depth_time(in, out);
}

namespace {
int ceil_log2(long long v) {
  int r = 0;
  while (r < 62 && (1LL << r) < v) ++r;
  return r;
}
}  // namespace

Status compare_on_lanes(long long n, long long d, long long k, long long lanes, double ns_per_mac_attention,
                        double ns_per_mac_rnn, double sync_ns, LanesComparison* out) {
  if (!(sync_ns >= 0) || !std::isfinite(sync_ns)) return Status::Error("the hand-off time must be at least 0, got {0}", {format_number(sync_ns)});
  LanesComparison c;
  c.ns_per_step_attention = sync_ns + (ceil_log2(d) + ceil_log2(n)) * ns_per_mac_attention;
  c.ns_per_step_rnn = sync_ns + ceil_log2(2 * d) * ns_per_mac_rnn;
  AP_TRY(layer_time(LayerKind::SelfAttention, n, d, k, lanes, ns_per_mac_attention, c.ns_per_step_attention, &c.attention));
  AP_TRY(layer_time(LayerKind::Recurrent, n, d, k, lanes, ns_per_mac_rnn, c.ns_per_step_rnn, &c.recurrent));
  *out = c;
  return Status::Ok();
}

long long attention_crossover_lanes(long long n, long long d, long long k, double ns_per_mac_attention,
                                    double ns_per_mac_rnn, double sync_ns) {
  const auto faster = [&](long long P) {
    LanesComparison c;
    return compare_on_lanes(n, d, k, P, ns_per_mac_attention, ns_per_mac_rnn, sync_ns, &c).ok &&
           c.attention.time_ns < c.recurrent.time_ns;
  };
  // 1. The powers of two (and kMaxLanes) bracket the least P: lo slower, hi faster.
  long long lo = 0, hi = 0;
  for (long long P = 1;; P = std::min(P * 2, cost::kMaxLanes)) {
    if (faster(P)) { hi = P; break; }
    lo = P;
    if (P == cost::kMaxLanes) return 0;
  }
  // 2. Bisection inside (lo, hi].
  while (hi - lo > 1) {
    const long long mid = lo + (hi - lo) / 2;
    (faster(mid) ? hi : lo) = mid;
  }
  return hi;
}

Status fit_loglog_slope(const std::vector<double>& xs, const std::vector<double>& ys, LogLogFit* out) {
  if (xs.size() != ys.size())
    return Status::Error("a slope fit got {0} x values but {1} y values",
                         {arg(static_cast<long long>(xs.size())), arg(static_cast<long long>(ys.size()))});
  if (xs.size() < 2)
    return Status::Error("a slope fit needs at least 2 points, got {0}", {arg(static_cast<long long>(xs.size()))});
  for (size_t i = 0; i < xs.size(); ++i) {
    if (!std::isfinite(xs[i]) || xs[i] <= 0.0)
      return Status::Error("{0}[{1}] is {2}; a log–log fit needs positive finite values",
                           {"x", arg(static_cast<long long>(i)), format_number(xs[i])});
    if (!std::isfinite(ys[i]) || ys[i] <= 0.0)
      return Status::Error("{0}[{1}] is {2}; a log–log fit needs positive finite values",
                           {"y", arg(static_cast<long long>(i)), format_number(ys[i])});
  }
  const double cnt = static_cast<double>(xs.size());
  double mx = 0.0, my = 0.0;
  for (size_t i = 0; i < xs.size(); ++i) {
    mx += std::log(xs[i]);
    my += std::log(ys[i]);
  }
  mx /= cnt;
  my /= cnt;
  // centred sums: numerically better than Σx², Σxy when the logs are large and close together
  double sxx = 0.0, sxy = 0.0, syy = 0.0;
  for (size_t i = 0; i < xs.size(); ++i) {
    const double dx = std::log(xs[i]) - mx, dy = std::log(ys[i]) - my;
    sxx += dx * dx;
    sxy += dx * dy;
    syy += dy * dy;
  }
  if (!(sxx > 0.0)) return Status::Error("a slope fit needs at least two different x values");
  LogLogFit f;
  f.slope = sxy / sxx;
  f.intercept = my - f.slope * mx;
  f.points = static_cast<int>(xs.size());
  // r² = 1 - residual / total; with all y equal the line fits exactly (residual 0): report 1
  const double resid = syy - f.slope * sxy;
  f.r2 = syy > 0.0 ? 1.0 - std::max(0.0, resid) / syy : 1.0;
  *out = f;
  return Status::Ok();
}

}  // namespace ap
