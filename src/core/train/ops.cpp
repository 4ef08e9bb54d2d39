#include "ops.h"

#include "gemm.h"

#include <cmath>
#include <limits>

namespace ap {
namespace train {

namespace {
// Head h's columns of sequence b in a [B·T, H·d] matrix: rows b·T …, columns h·d …   → [T, d]
template <typename M>
auto head_cols(M& x, int b, int h, int T, int d) {
  return x.block(b * T, h * d, T, d);
}
}

// ---- token + position embedding ---------------------------------------------------------------------------

void embedding_forward(Out out, const int* ids, int B, int T, In wte, In wpe) {
  for (int b = 0; b < B; ++b)
    for (int t = 0; t < T; ++t) out.row(b * T + t) = wte.row(ids[b * T + t]) + wpe.row(t);
}

void embedding_backward(Out dwte, Out dwpe, In dout, const int* ids, int B, int T) {
  for (int b = 0; b < B; ++b)
    for (int t = 0; t < T; ++t) {
      dwte.row(ids[b * T + t]) += dout.row(b * T + t);
      dwpe.row(t) += dout.row(b * T + t);
    }
}

// ---- affine -----------------------------------------------------------------------------------------------

void affine_forward(Out out, In x, In W, In b) {
  gemm_nn(out, x, W);            // [N, C]·[C, OC] → [N, OC]
  out.rowwise() += b.row(0);     // broadcast the bias over rows
}

void affine_backward(Out dx, Out dW, Out db, In dout, In x, In W) {
  gemm_nt(dx, dout, W, 1.f, true);       // [N, OC]·[OC, C] → [N, C]
  gemm_tn(dW, x, dout, 1.f, true);       // [C, N]·[N, OC] → [C, OC]
  db.row(0) += dout.colwise().sum();     // [1, OC]
}

// ---- nonlinearities ---------------------------------------------------------------------------------------

void tanh_forward(Out out, In x) { out = x.array().tanh().matrix(); }
void tanh_backward(Out dx, In dout, In out) {
  dx.array() += dout.array() * (1.f - out.array().square());
}
void relu_forward(Out out, In x) { out = x.cwiseMax(0.f); }
void relu_backward(Out dx, In dout, In x) {
  dx.array() += (x.array() > 0.f).select(dout.array(), 0.f);
}

// ---- residual ---------------------------------------------------------------------------------------------

void residual_forward(Out out, In a, In b) { out = a + b; }
void residual_backward(Out da, Out db, In dout) {
  da += dout;
  db += dout;
}

// ---- layer norm -------------------------------------------------------------------------------------------

void layernorm_forward(Out out, Out mean, Out rstd, In x, In gamma, In beta) {
  const Eigen::Index N = x.rows(), C = x.cols();
  for (Eigen::Index n = 0; n < N; ++n) {
    // 1) mean and variance of the row, in double (C terms)
    double s = 0.0;
    for (Eigen::Index c = 0; c < C; ++c) s += x(n, c);
    const double mu = s / C;
    double s2 = 0.0;
    for (Eigen::Index c = 0; c < C; ++c) s2 += (x(n, c) - mu) * (x(n, c) - mu);
    // 2) 1/√(σ² + ε): ε keeps a constant row (σ² = 0) finite
    const float r = static_cast<float>(1.0 / std::sqrt(s2 / C + kLayerNormEps));
    const float m = static_cast<float>(mu);
    // 3) normalise, scale, shift
    for (Eigen::Index c = 0; c < C; ++c) out(n, c) = (x(n, c) - m) * r * gamma(0, c) + beta(0, c);
    mean(n, 0) = m;
    rstd(n, 0) = r;
  }
}

void layernorm_backward(Out dx, Out dgamma, Out dbeta, In dout, In x, In mean, In rstd, In gamma) {
  const Eigen::Index N = x.rows(), C = x.cols();
  for (Eigen::Index n = 0; n < N; ++n) {
    const float m = mean(n, 0), r = rstd(n, 0);
    // 1) the two row means the formula needs: mean(dx̂) and mean(dx̂ ⊙ x̂)
    double s_d = 0.0, s_dx = 0.0;
    for (Eigen::Index c = 0; c < C; ++c) {
      const float xhat = (x(n, c) - m) * r;
      const float dxhat = dout(n, c) * gamma(0, c);
      s_d += dxhat;
      s_dx += static_cast<double>(dxhat) * xhat;
    }
    const float mean_d = static_cast<float>(s_d / C), mean_dx = static_cast<float>(s_dx / C);
    // 2) accumulate the gradients
    for (Eigen::Index c = 0; c < C; ++c) {
      const float xhat = (x(n, c) - m) * r;
      const float dxhat = dout(n, c) * gamma(0, c);
      dx(n, c) += r * (dxhat - mean_d - xhat * mean_dx);
      dgamma(0, c) += dout(n, c) * xhat;
      dbeta(0, c) += dout(n, c);
    }
  }
}

// ---- attention --------------------------------------------------------------------------------------------

void attention_forward(Out out, Out preatt, Out att, In q, In k, In v, In mask, int B, int T, int H,
                       float* after_softmax) {
  const int d = static_cast<int>(q.cols()) / H;
  const float sqrt_d = static_cast<float>(std::sqrt(static_cast<double>(d)));  // as core/attention.cpp
  for (int b = 0; b < B; ++b)
    for (int h = 0; h < H; ++h) {
      const int r0 = (b * H + h) * T;
      // 1) split: this head's columns of q, k, v                                Q, K, V: [T, d]
      const auto Q = head_cols(q, b, h, T, d), K = head_cols(k, b, h, T, d), V = head_cols(v, b, h, T, d);
      auto Z = preatt.block(r0, 0, T, T);
      auto A = att.block(r0, 0, T, T);
      // 2) scores, scaled by 1/√d (unit-variance q·k stays unit variance), plus the additive mask  Z: [T, T]
      gemm_nt(Z, Q, K);
      Z /= sqrt_d;
      Z += mask.block(b * T, 0, T, T);
      // 3) softmax over each row (the keys)
      for (int i = 0; i < T; ++i) {
        float mx = kNegInf;
        for (int j = 0; j < T; ++j) mx = std::max(mx, Z(i, j));
        if (mx == kNegInf) {  // every key hidden: weights 0, not 0/0
          A.row(i).setZero();
          continue;
        }
        double sum = 0.0;  // >= 1: the maximum contributes exp(0)
        for (int j = 0; j < T; ++j) {
          const float e = Z(i, j) == kNegInf ? 0.f : std::exp(Z(i, j) - mx);
          A(i, j) = e;
          sum += e;
        }
        const double inv = 1.0 / sum;
        for (int j = 0; j < T; ++j) A(i, j) = static_cast<float>(A(i, j) * inv);
        if (after_softmax) {  // the bug: P kept, then the future zeroed (the row is not normalised again)
          float* P = after_softmax + static_cast<size_t>(r0 + i) * static_cast<size_t>(T);
          for (int j = 0; j < T; ++j) P[j] = A(i, j);
          for (int j = i + 1; j < T; ++j) A(i, j) = 0.f;
        }
      }
      // 4) weighted sum of values, written to this head's columns (concat)     out_bh: [T, d]
      gemm_nn(out.block(b * T, h * d, T, d), A, V);
    }
}

void attention_backward(Out dq, Out dk, Out dv, Out dpreatt, Out datt, In dout, In q, In k, In v, In att, int B,
                        int T, int H, const float* after_softmax) {
  const int d = static_cast<int>(q.cols()) / H;
  const float inv_sqrt_d = 1.f / static_cast<float>(std::sqrt(static_cast<double>(d)));
  for (int b = 0; b < B; ++b)
    for (int h = 0; h < H; ++h) {
      const int r0 = (b * H + h) * T;
      const auto Q = head_cols(q, b, h, T, d), K = head_cols(k, b, h, T, d), V = head_cols(v, b, h, T, d);
      const auto A = att.block(r0, 0, T, T);
      const auto dO = dout.block(b * T, h * d, T, d);
      auto dA = datt.block(r0, 0, T, T);
      auto dZ = dpreatt.block(r0, 0, T, T);
      // 1) through out = A·V
      gemm_nt(dA, dO, V, 1.f, true);                            // [T, d]·[d, T] → [T, T]
      gemm_tn(dv.block(b * T, h * d, T, d), A, dO, 1.f, true);  // [T, T]·[T, d] → [T, d]
      // 2) through the softmax: dZ_ij = A_ij (dA_ij − Σ_k A_ik dA_ik)
      //    (the bug: through A = P ⊙ C first, dP = dA on j <= i and 0 on the future, then the softmax on P)
      if (after_softmax) {
        for (int i = 0; i < T; ++i) {
          const float* P = after_softmax + static_cast<size_t>(r0 + i) * static_cast<size_t>(T);
          double s = 0.0;
          for (int j = 0; j <= i; ++j) s += static_cast<double>(P[j]) * dA(i, j);
          const float sf = static_cast<float>(s);
          for (int j = 0; j < T; ++j) dZ(i, j) += P[j] * ((j <= i ? dA(i, j) : 0.f) - sf);
        }
      } else
      for (int i = 0; i < T; ++i) {
        double s = 0.0;
        for (int j = 0; j < T; ++j) s += static_cast<double>(A(i, j)) * dA(i, j);
        const float sf = static_cast<float>(s);
        for (int j = 0; j < T; ++j) dZ(i, j) += A(i, j) * (dA(i, j) - sf);
      }
      // 3) through Z = Q·Kᵀ/√d (+ M, a constant)
      gemm_nn(dq.block(b * T, h * d, T, d), dZ, K, inv_sqrt_d, true);  // [T, T]·[T, d]
      gemm_tn(dk.block(b * T, h * d, T, d), dZ, Q, inv_sqrt_d, true);  // [T, T]ᵀ·[T, d]
    }
}

// ---- softmax cross-entropy --------------------------------------------------------------------------------

double softmax_xent_forward(Out probs, In logits, const int* targets, int N) {
  const Eigen::Index V = logits.cols();
  double loss = 0.0;
  for (int n = 0; n < N; ++n) {
    // 1) max-subtraction: exponents <= 0, no overflow; 2) log-sum-exp; 3) −log p_target = lse − z_target
    const float mx = logits.row(n).maxCoeff();
    double sum = 0.0;
    for (Eigen::Index j = 0; j < V; ++j) sum += std::exp(static_cast<double>(logits(n, j) - mx));
    for (Eigen::Index j = 0; j < V; ++j)
      probs(n, j) = static_cast<float>(std::exp(static_cast<double>(logits(n, j) - mx)) / sum);
    loss += (mx + std::log(sum)) - logits(n, targets[n]);
  }
  return loss / N;
}

void softmax_xent_backward(Out dlogits, In probs, const int* targets, int N) {
  const float inv = 1.f / static_cast<float>(N);
  for (int n = 0; n < N; ++n) {
    dlogits.row(n) += probs.row(n) * inv;
    dlogits(n, targets[n]) -= inv;
  }
}

// ---- pointer loss -----------------------------------------------------------------------------------------

double pointer_loss_forward(In preatt, const int* rows, const int* targets, int B, int T, int H, int head) {
  double loss = 0.0;
  for (int b = 0; b < B; ++b) {
    const auto z = preatt.row((b * H + head) * T + rows[b]);
    const float zt = z(targets[b]);
    if (zt == kNegInf) return std::numeric_limits<double>::infinity();  // target hidden: no finite loss
    const float mx = z.maxCoeff();  // finite: the target is visible
    double sum = 0.0;
    for (int j = 0; j < T; ++j)
      if (z(j) != kNegInf) sum += std::exp(static_cast<double>(z(j) - mx));
    loss += (mx + std::log(sum)) - zt;
  }
  return loss / B;
}

void pointer_loss_backward(Out dpreatt, In att, const int* rows, const int* targets, int B, int T, int H,
                           int head) {
  const float inv = 1.f / static_cast<float>(B);
  for (int b = 0; b < B; ++b) {
    const int r = (b * H + head) * T + rows[b];
    dpreatt.row(r) += att.row(r) * inv;
    dpreatt(r, targets[b]) -= inv;
  }
}

// ---- gather rows ------------------------------------------------------------------------------------------

void gather_rows_forward(Out out, In x, const int* rows, int B, int T, int R) {
  for (int b = 0; b < B; ++b)
    for (int r = 0; r < R; ++r) out.row(b * R + r) = x.row(b * T + rows[b * R + r]);
}
void gather_rows_backward(Out dx, In dout, const int* rows, int B, int T, int R) {
  for (int b = 0; b < B; ++b)
    for (int r = 0; r < R; ++r) dx.row(b * T + rows[b * R + r]) += dout.row(b * R + r);
}

}  // namespace train
}  // namespace ap
