#include "attention.h"

#include <cmath>
#include <limits>

namespace ap {

const char* mask_name(MaskKind k) {
  switch (k) {
    case MaskKind::Padding: return "padding";
    case MaskKind::Causal: return "causal";
    default: return "none";
  }
}

bool parse_mask_name(const std::string& s, MaskKind* out) {
  if (s == "none") *out = MaskKind::None;
  else if (s == "padding") *out = MaskKind::Padding;
  else if (s == "causal") *out = MaskKind::Causal;
  else return false;
  return true;
}

Status build_mask(const MaskSpec& spec, int n, int m, Mat* additive) {
  AP_TRY(check_size(n, "n (queries)", limits::kMaxTokens));
  AP_TRY(check_size(m, "m (keys)", limits::kMaxTokens));
  if (spec.kind == MaskKind::Padding && static_cast<int>(spec.key_is_pad.size()) != m)
    return Status::Error("padding mask: {0} padding flags for {1} keys",
                         {arg(static_cast<long long>(spec.key_is_pad.size())), arg(m)});
  Mat M = Mat::Zero(n, m);
  if (spec.kind == MaskKind::Padding) {
    for (int j = 0; j < m; ++j)
      if (spec.key_is_pad[j]) M.col(j).setConstant(kNegInf);
  } else if (spec.kind == MaskKind::Causal) {
    const int offset = m - n;  // query i stands at sequence position i + offset
    for (int i = 0; i < n; ++i)
      for (int j = std::max(0, i + offset + 1); j < m; ++j) M(i, j) = kNegInf;
  }
  *additive = std::move(M);
  return Status::Ok();
}

Status softmax_rows(const Mat& z, SoftmaxTrace* out) {
  if (z.rows() == 0 || z.cols() == 0) return Status::Error("softmax of an empty matrix");
  for (Eigen::Index i = 0; i < z.rows(); ++i)
    for (Eigen::Index j = 0; j < z.cols(); ++j)
      if (std::isnan(z(i, j)) || z(i, j) == std::numeric_limits<float>::infinity())
        return Status::Error("softmax input has NaN or +inf at [{0}][{1}]", {arg(i), arg(j)});
  const Eigen::Index n = z.rows(), m = z.cols();
  SoftmaxTrace t;
  t.row_max.resize(n);
  t.row_sum.resize(n);
  t.exps.resize(n, m);
  t.weights.resize(n, m);
  t.fully_masked.assign(n, 0);
  for (Eigen::Index i = 0; i < n; ++i) {
    // 1) row maximum over the visible (finite) entries. Subtracting it changes nothing mathematically
    //    (the factor e^-max cancels in the ratio) but keeps every exponent <= 0, so exp() cannot
    //    overflow to inf (exp(89) already does in float) and the largest term is exactly 1.
    float mx = kNegInf;
    for (Eigen::Index j = 0; j < m; ++j) mx = std::max(mx, z(i, j));
    if (mx == kNegInf) {
      // Every key hidden: there is nothing to attend to. 0/0 would be NaN, so we define the row as zeros
      // and raise the flag for the caller to show.
      t.fully_masked[i] = 1;
      t.row_max[i] = 0.f;
      t.row_sum[i] = 0.f;
      t.exps.row(i).setZero();
      t.weights.row(i).setZero();
      continue;
    }
    // 2) exponentials, accumulated in double so that long rows (m up to 1024) sum without drift
    double sum = 0.0;
    for (Eigen::Index j = 0; j < m; ++j) {
      const float e = z(i, j) == kNegInf ? 0.f : std::exp(z(i, j) - mx);
      t.exps(i, j) = e;
      sum += e;
    }
    // 3) normalise: sum >= 1 because the maximum contributes exp(0) = 1, so no division by zero
    t.row_max[i] = mx;
    t.row_sum[i] = static_cast<float>(sum);
    const double inv = 1.0 / sum;
    for (Eigen::Index j = 0; j < m; ++j) t.weights(i, j) = static_cast<float>(t.exps(i, j) * inv);
  }
  *out = std::move(t);
  return Status::Ok();
}

Status scaled_dot_product_attention(const Mat& Q, const Mat& K, const Mat& V, const MaskSpec& mask,
                                    AttentionTrace* out) {
  // 0) validate: Q n×d_k, K m×d_k, V m×d_v, all finite and within the stated limits
  AP_TRY(check_matrix(Q, "Q", -1, -1, limits::kMaxTokens, limits::kMaxHeadDim));
  AP_TRY(check_matrix(K, "K", -1, static_cast<int>(Q.cols()), limits::kMaxTokens, limits::kMaxHeadDim));
  AP_TRY(check_matrix(V, "V", static_cast<int>(K.rows()), -1, limits::kMaxTokens, limits::kMaxHeadDim));
  const int n = static_cast<int>(Q.rows()), m = static_cast<int>(K.rows());
  const int d_k = static_cast<int>(Q.cols()), d_v = static_cast<int>(V.cols());

  AttentionTrace t;
  t.n = n; t.m = m; t.d_k = d_k; t.d_v = d_v;
  AP_TRY(build_mask(mask, n, m, &t.mask));

  // 1) scores: S(i,j) = q_i · k_j, how well query i matches key j.              n×d_k · d_k×m -> n×m
  t.scores.noalias() = Q * K.transpose();
  // 2) scale by 1/√d_k: if q and k have unit-variance entries, q·k has variance d_k; dividing by √d_k
  //    brings it back to 1, so softmax does not saturate into a one-hot row as d_k grows.
  t.sqrt_dk = static_cast<float>(std::sqrt(static_cast<double>(d_k)));
  t.scaled = t.scores / t.sqrt_dk;
  // 3) mask: add 0 (visible) or -inf (hidden) before softmax, never after (after would break sum = 1)
  t.masked = t.scaled + t.mask;
  // 4) softmax over each row (over the keys): weights A(i,·) >= 0 and sum to 1 (or all 0 if fully hidden)
  AP_TRY(softmax_rows(t.masked, &t.softmax));
  for (uint8_t f : t.softmax.fully_masked) t.fully_masked_rows += f;
  // 5) weighted sum: output row i = Σ_j A(i,j) · v_j, a mix of value rows.       n×m · m×d_v -> n×d_v
  t.output.noalias() = t.softmax.weights * V;

  *out = std::move(t);
  return Status::Ok();
}

}  // namespace ap
