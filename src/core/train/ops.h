// Training engine, part 3: the layers, each with its forward and its backward pass side by side (llm.c style).
//
// Conventions (all of them, so that a model is just a sequence of calls):
//   * Row-major matrices. A batch of B sequences of T tokens is stacked: row b·T + t is token t of sequence b.
//     Shapes in comments: x: [B·T, C] means B·T rows, C columns.
//   * Inputs are `In` (a const reference to any row-major float matrix: ap::Mat, an arena map, a block);
//     outputs are `Out` (a writable one). Nothing here allocates.
//   * Forward passes WRITE their outputs and whatever their backward needs (layer norm's mean and 1/σ,
//     attention's pre-softmax scores and weights).
//   * Backward passes ADD (+=) into every gradient they produce, inputs' and parameters' alike. The caller
//     zeroes the gradients once per step. Accumulating makes a residual branch, a tensor used twice, or a
//     weight shared over time steps (a future GRU) correct without special cases.
#pragma once
#include "core/matrix.h"

namespace ap {
namespace train {

using In = const Eigen::Ref<const Mat>&;
using Out = Eigen::Ref<Mat>;

// ---- token + position embedding ---------------------------------------------------------------------------
// out[b·T+t, :] = wte[ids[b·T+t], :] + wpe[t, :]
//   ids: [B·T] (0 <= id < V, checked by the caller)   wte: [V, C]   wpe: [T_max >= T, C]   out: [B·T, C]
void embedding_forward(Out out, const int* ids, int B, int T, In wte, In wpe);
// dwte[id, :] += dout[row, :] for every row with that id;  dwpe[t, :] += Σ_b dout[b·T+t, :]
void embedding_backward(Out dwte, Out dwpe, In dout, const int* ids, int B, int T);

// ---- affine: out = x·W + b --------------------------------------------------------------------------------
//   x: [N, C]   W: [C, OC]   b: [1, OC]   out: [N, OC]
void affine_forward(Out out, In x, In W, In b);
//   dx += dout·Wᵀ: [N, C]     dW += xᵀ·dout: [C, OC]     db += Σ_rows dout: [1, OC]
void affine_backward(Out dx, Out dW, Out db, In dout, In x, In W);

// ---- elementwise nonlinearities (any shape) ---------------------------------------------------------------
void tanh_forward(Out out, In x);                  // out = tanh(x)
void tanh_backward(Out dx, In dout, In out);       // dx += dout · (1 − out²)   (uses the OUTPUT)
void relu_forward(Out out, In x);                  // out = max(x, 0)
void relu_backward(Out dx, In dout, In x);         // dx += dout · [x > 0]     (subgradient 0 at x = 0)

// ---- residual add: out = a + b (same shape) ---------------------------------------------------------------
void residual_forward(Out out, In a, In b);
void residual_backward(Out da, Out db, In dout);   // da += dout, db += dout

// ---- layer norm over each row ----------------------------------------------------------------------------
//   μ = mean(x_row), σ² = mean((x_row − μ)²), x̂ = (x − μ) / √(σ² + ε), out = x̂ ⊙ γ + β
//   x: [N, C]   γ, β: [1, C]   out: [N, C]   mean, rstd: [N, 1] (kept for the backward: rstd = 1/√(σ² + ε))
// ε = 1e-5: a constant row has σ² = 0, and ε keeps 1/√(σ² + ε) finite (x̂ = 0 instead of 0/0).
constexpr float kLayerNormEps = 1e-5f;
void layernorm_forward(Out out, Out mean, Out rstd, In x, In gamma, In beta);
//   dx̂ = dout ⊙ γ;  dx += rstd · (dx̂ − mean(dx̂) − x̂ · mean(dx̂ ⊙ x̂));  dγ += Σ_rows dout ⊙ x̂;  dβ += Σ_rows dout
void layernorm_backward(Out dx, Out dgamma, Out dbeta, In dout, In x, In mean, In rstd, In gamma);

// ---- scaled dot-product attention, H heads (H = 1: single head) --------------------------------------------
// The same mathematics as core/attention.h's scaled_dot_product_attention, per sequence b and head h:
//   split:  Q_bh = q[b·T .. b·T+T−1, h·d .. h·d+d−1] (d = C/H; likewise K_bh, V_bh)
//   Z_bh = Q_bh·K_bhᵀ / √d + M_b        A_bh = softmax_rows(Z_bh)        out_bh = A_bh·V_bh
//   concat: out_bh is written to the same rows/columns of out. (W^Q, W^K, W^V, W^O are affine layers around.)
//   q, k, v: [B·T, C]   mask: [B·T, T] additive, 0 (visible) or −inf (hidden), row b·T+i = query i of sequence b
//   preatt (Z, −inf where hidden), att (A): [B·H·T, T], row (b·H + h)·T + i      out: [B·T, C]
// Softmax as in core/attention.cpp: the row maximum over visible entries is subtracted before exp (exponents
// <= 0: no overflow, the largest term is exactly 1 so the sum is >= 1), sums in double. A row whose keys are
// ALL hidden has no maximum: its weights are defined as 0 (not 0/0 = NaN), its output row is 0, and no
// gradient flows through it.
//
// after_softmax (the masks scene's bug "mask after softmax", non-null only there): P = softmax(Z) is taken with the
// future keys still visible (the mask holds the padding only), kept in after_softmax ([B·H·T, T], contiguous
// row-major, as att), and the weights are A = P ⊙ C with C_ij = [j <= i]: the future is zeroed AFTER the
// normaliser summed over it, so each row sums to less than 1 by an amount that depends on the future.
void attention_forward(Out out, Out preatt, Out att, In q, In k, In v, In mask, int B, int T, int H,
                       float* after_softmax = nullptr);
// Backward, per (b, h):
//   dA = dout_bh·V_bhᵀ                      [T, T]   (into datt)
//   dV_bh += A_bhᵀ·dout_bh                  [T, d]
//   dZ_ij = A_ij·(dA_ij − Σ_k A_ik·dA_ik)   softmax backward (into dpreatt, which may already hold a gradient
//                                           from a loss on Z itself: pointer_loss_backward)
//   dQ_bh += dZ·K_bh / √d     dK_bh += dZᵀ·Q_bh / √d     (the mask is a constant: no gradient)
// Hidden entries have A = 0, hence dZ = 0 there: the mask needs no special case in the backward.
// after_softmax (the forward's P): A = P ⊙ C, so dP = dA ⊙ C, and the softmax's backward runs on P:
//   dZ_ij = P_ij·(dP_ij − Σ_k P_ik·dP_ik)   (non-zero on the future keys too: they moved the normaliser)
void attention_backward(Out dq, Out dk, Out dv, Out dpreatt, Out datt, In dout, In q, In k, In v, In att, int B,
                        int T, int H, const float* after_softmax = nullptr);

// ---- softmax cross-entropy, mean over the N rows ------------------------------------------------------------
//   logits: [N, V]   targets: [N]   probs: [N, V]   loss = −(1/N) Σ_n log softmax(logits_n)[target_n]
// log p is computed as z_t − max − log Σ exp(z − max) (the max-subtraction again), never as log(p): a
// probability that underflows to 0 would give −inf.
double softmax_xent_forward(Out probs, In logits, const int* targets, int N);
//   dlogits += (probs − onehot(target)) / N
void softmax_xent_backward(Out dlogits, In probs, const int* targets, int N);

// ---- pointer loss: cross-entropy on one query row's attention weights over positions -------------------------
// For sequence b: the row of head `head` at query position rows[b] is a distribution over the T positions;
// loss = −(1/B) Σ_b log A[(b·H + head)·T + rows[b], targets[b]], computed from Z as above (log-sum-exp).
// The target position must be visible (Z finite there); a row with its target hidden returns +inf.
double pointer_loss_forward(In preatt, const int* rows, const int* targets, int B, int T, int H, int head);
// The gradient is taken with respect to Z (not A): dZ_row += (A_row − onehot(target)) / B. Going through A
// would divide by A_target, which may be tiny.
void pointer_loss_backward(Out dpreatt, In att, const int* rows, const int* targets, int B, int T, int H, int head);

// ---- gather rows: out[b·R + r, :] = x[b·T + rows[b·R + r], :]  (a classifier reads R positions per sequence) --
//   x: [B·T, C]   rows: [B·R]   out: [B·R, C]
void gather_rows_forward(Out out, In x, const int* rows, int B, int T, int R = 1);
// dx[b·T + rows[b·R + r], :] += dout[b·R + r, :]  (a position read twice gets both gradients)
void gather_rows_backward(Out dx, In dout, const int* rows, int B, int T, int R = 1);

}  // namespace train
}  // namespace ap
