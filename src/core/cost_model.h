// Cost model of one sequence layer: the analytic table of "Attention Is All You Need" (Table 1), made
// countable, plus a work–depth estimate of running time and a log–log slope fit for measured curves.
//
//   layer            multiply-adds per layer   sequential operations   maximum path length
//   self-attention   O(n²·d)                   O(1)                    O(1)
//   recurrent        O(n·d²)                   O(n)                    O(n)
//   convolutional    O(k·n·d²)                 O(1)                    O(log_k n)
//
//   n: sequence length (tokens), d: model width (= d_k = d_v = hidden size), k: convolution kernel width.
//
// What is counted ("MAC" = one multiply-add a += x·y):
//   self-attention  Q·Kᵀ: n·n dot products of length d = n²·d, and A·V: n output rows, each a sum of n rows of
//                   width d = n²·d; together 2·n²·d. NOT counted: the scaling by 1/√d (n² multiplies), the
//                   softmax (n² exponentials, n² divisions or n·d with a deferred division) and the Q/K/V
//                   projections X·W^Q, X·W^K, X·W^V: 3·n·d², given separately (attention_projection_macs);
//                   an output projection W^O would add another n·d². The table's O(n²·d) is the first part.
//   recurrent       Elman cell h_t = tanh(W_x x_t + W_h h_{t-1} + b): per step W_x x_t (h·d_in MACs) and
//                   W_h h_{t-1} (h·h MACs); over n steps n·h·(d_in + h) = n·2d² when h = d_in = d. Bias adds
//                   and tanh not counted. A GRU has three such gate blocks: 3·n·h·(d_in + h) (gru_macs).
//   convolutional   a 1-D convolution with d input and d output channels, kernel width k, output as long as
//                   the input ("same" padding, padded zeros are multiplied like any other value): each of the n
//                   outputs needs k·d·d MACs: k·n·d².
//   score bytes     the n×n score matrix in fp32: 4·n² bytes (what naive attention must hold at once).
//   sequential ops  steps that must run one after another however many lanes there are: attention 1 (every
//                   score and every output row is independent once Q, K, V exist), recurrent n (h_t needs
//                   h_{t-1}), convolutional 1 (every output position is independent).
//   max path length the number of layer-internal hops from input position 1 to output position n: attention 1
//                   (one weight connects any pair), recurrent n (x_1 reaches h_n through n cell updates),
//                   convolutional ceil(log_k n): a stack of kernel-k (dilated) convolutions needs L layers with
//                   k^L >= n to connect the two ends; computed in integers, and at least 1 (n = 1 still takes
//                   one layer to reach the output, as for the other two rows).
//
// Every count is a long long: within the validated ranges the largest, k·n·d² = 4096·2^20·4096², is 2^56.
#pragma once
#include <vector>

#include "status.h"

namespace ap {

namespace cost {
constexpr long long kMaxN = 1048576;   // n: 1 .. 2^20 tokens
constexpr long long kMaxD = 4096;      // d (and hidden, input widths): 1 .. 4096
constexpr long long kMinK = 2;         // k: a kernel of width 1 would never connect two positions
constexpr long long kMaxK = 4096;      // k may exceed n: the kernel then covers the whole (padded) sequence
constexpr long long kMaxLanes = 100000;  // P in the work–depth model
}  // namespace cost

enum class LayerKind { SelfAttention, Recurrent, Convolutional };
const char* layer_kind_name(LayerKind k);  // "self-attention", "recurrent", "convolutional"

// ---- single formulas (pure; preconditions: arguments inside the ranges above, unchecked) --------------------
long long attention_score_macs(long long n, long long d);       // Q·Kᵀ: n²·d
long long attention_mix_macs(long long n, long long d);         // A·V:  n²·d
long long attention_macs(long long n, long long d);             // 2·n²·d
long long attention_projection_macs(long long n, long long d);  // X·W^Q, X·W^K, X·W^V: 3·n·d²
long long elman_macs(long long n, long long d_in, long long hidden);  // n·h·(d_in + h)
long long gru_macs(long long n, long long d_in, long long hidden);    // 3·n·h·(d_in + h)
long long conv_macs(long long n, long long d, long long k);           // k·n·d²
long long score_matrix_bytes(long long n);                            // 4·n²
long long sequential_ops(LayerKind kind, long long n);                // 1, n, 1
long long max_path_length(LayerKind kind, long long n, long long k);  // 1, n, max(1, ceil(log_k n))

// ---- the table row for one layer, validated -------------------------------------------------------------------
struct LayerCost {
  long long macs = 0;             // attention: 2·n²·d; recurrent (Elman, h = d): 2·n·d²; conv: k·n·d²
  long long projection_macs = 0;  // attention only: 3·n·d² (not included in macs); 0 for the others
  long long score_bytes = 0;      // attention only: 4·n²; 0 for the others
  long long sequential_ops = 0;
  long long max_path_length = 0;
};

// Checks 1 <= n <= kMaxN, 1 <= d <= kMaxD, kMinK <= k <= kMaxK (k is checked for every kind, so a scene can
// keep one k for all three rows). On error `out` is left untouched.
Status check_cost_inputs(long long n, long long d, long long k);
Status layer_cost(LayerKind kind, long long n, long long d, long long k, LayerCost* out);

// ---- work–depth model -----------------------------------------------------------------------------------------
// Time on P lanes ≈ max(W·t_mac / P, D·t_step)
//   W  work_macs   total multiply-adds of the layer (e.g. LayerCost::macs)
//   D  depth       steps on the critical path that cannot overlap (e.g. LayerCost::sequential_ops)
//   P  lanes       multiply-adds that can run at the same time (SIMD lanes × cores × …), 1 .. kMaxLanes
//   t_mac          time of one multiply-add on one lane, ns (> 0)
//   t_step         least time of one dependent step, ns (>= 0): its latency plus hand-off/synchronisation, paid
//                  even when the step has little work. With t_step = 0 only the work term remains.
// The two terms are the work bound (lanes are never idle) and the depth bound (the chain of dependent steps).
// The real time lies between this max and their sum (Brent: T_P <= W/P + D); the model returns the max.
struct WorkDepthInputs {
  double work_macs = 0.0;
  double depth = 0.0;
  long long lanes = 1;
  double ns_per_mac = 1.0;
  double ns_per_step = 0.0;
};
struct WorkDepthTime {
  double work_ns = 0.0;   // W·t_mac / P
  double depth_ns = 0.0;  // D·t_step
  double time_ns = 0.0;   // max of the two
  bool depth_bound = false;  // true when depth_ns > work_ns: more lanes would not help
};
Status work_depth_time(const WorkDepthInputs& in, WorkDepthTime* out);

// The layer's own W and D: work = LayerCost::macs, depth = LayerCost::sequential_ops.
Status layer_time(LayerKind kind, long long n, long long d, long long k, long long lanes, double ns_per_mac,
                  double ns_per_step, WorkDepthTime* out);

// ---- self-attention against a recurrent layer on P lanes ----------------------------------------------------
// Both layers of width d over n tokens (k: the convolution's, unused here) on the same P lanes. One dependent
// step on many lanes is a tree sum (⌈log₂⌉ of the terms summed) plus one hand-off `sync_ns` between lanes:
//   attention's one step sums over d (scores) and over n (softmax, A·V): t_step = sync + (⌈log₂ d⌉ + ⌈log₂ n⌉)·t_mac
//   the RNN's n steps each sum over 2d (W_x x + W_h h):                  t_step = sync + ⌈log₂ 2d⌉·t_mac
struct LanesComparison {
  WorkDepthTime attention, recurrent;
  double ns_per_step_attention = 0, ns_per_step_rnn = 0;
};
Status compare_on_lanes(long long n, long long d, long long k, long long lanes, double ns_per_mac_attention,
                        double ns_per_mac_rnn, double sync_ns, LanesComparison* out);
// The least P in 1 … kMaxLanes at which attention is faster than the RNN, 0 when none is. Both times fall as
// P grows, so the powers of two bracket it and a bisection finds it: O(log kMaxLanes) evaluations.
long long attention_crossover_lanes(long long n, long long d, long long k, double ns_per_mac_attention,
                                    double ns_per_mac_rnn, double sync_ns);

// ---- log–log slope ------------------------------------------------------------------------------------------
// Least-squares line through (ln x_i, ln y_i):  ln y ≈ slope·ln x + intercept  (natural logs; the slope does not
// depend on the base, the intercept does: y ≈ e^intercept · x^slope). A measured time ∝ n² gives slope ≈ 2.
// Refuses fewer than 2 points, different lengths, non-positive or non-finite values, and x values that are all
// equal (no slope). `r2` is the coefficient of determination in log space (1 when every point is on the line;
// 1 as well when all y are equal). On error `out` is left untouched.
struct LogLogFit {
  double slope = 0.0;
  double intercept = 0.0;
  double r2 = 0.0;
  int points = 0;
};
Status fit_loglog_slope(const std::vector<double>& xs, const std::vector<double>& ys, LogLogFit* out);

}  // namespace ap
