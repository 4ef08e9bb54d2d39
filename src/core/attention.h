// Scaled dot-product attention, with every intermediate kept so that a scene can animate it.
//
//   Attention(Q, K, V) = softmax(Q·Kᵀ / √d_k + M) · V
//
// Shapes (n queries, m keys/values; n ≠ m is allowed, e.g. cross-attention or one query):
//   Q: n × d_k    K: m × d_k    V: m × d_v    M (additive mask): n × m    output: n × d_v
#pragma once
#include <cstdint>
#include <vector>

#include "matrix.h"

namespace ap {

enum class MaskKind { None, Padding, Causal };

const char* mask_name(MaskKind k);                 // "none", "padding", "causal"
bool parse_mask_name(const std::string& s, MaskKind* out);

// Which keys the mask hides.
//   Padding: key j is hidden from every query when key_is_pad[j] (size m).
//   Causal:  query i sees keys j <= i + (m - n). With n == m that is j <= i: the upper triangle is hidden.
//            (With n < m the queries are the last n positions of the sequence, as in decoding with a cache.)
struct MaskSpec {
  MaskKind kind = MaskKind::None;
  std::vector<uint8_t> key_is_pad;  // only read for Padding; size m
};

// Builds the additive mask M (n × m): 0 where attention is allowed, -inf where it is hidden.
// -inf rather than a large negative number: exp(-inf) is exactly 0, so hidden weights are exactly 0.
Status build_mask(const MaskSpec& spec, int n, int m, Mat* additive);

// Row-wise softmax of z (n × m), entries may be -inf (hidden).
//   row_max[i]  = max over the finite entries of row i (0 for a fully hidden row)
//   exps(i,j)   = exp(z(i,j) - row_max[i])   (0 where z is -inf)
//   row_sum[i]  = Σ_j exps(i,j)              (>= 1 whenever the row has a finite entry)
//   weights     = exps / row_sum
//   fully_masked[i] = 1 when every entry of row i is -inf: that row's weights are all 0 (never NaN).
struct SoftmaxTrace {
  Vec row_max, row_sum;
  Mat exps, weights;
  std::vector<uint8_t> fully_masked;
};
Status softmax_rows(const Mat& z, SoftmaxTrace* out);

struct AttentionTrace {
  int n = 0, m = 0, d_k = 0, d_v = 0;
  float sqrt_dk = 1.f;     // √d_k
  Mat scores;              // S = Q·Kᵀ                 n × m
  Mat scaled;              // S / √d_k                 n × m
  Mat mask;                // M: 0 or -inf             n × m
  Mat masked;              // S / √d_k + M             n × m
  SoftmaxTrace softmax;    // row_max, exps, row_sum, weights (= A), fully_masked
  Mat output;              // A · V                    n × d_v
  int fully_masked_rows = 0;

  const Mat& weights() const { return softmax.weights; }
};

// Validates shapes, sizes (limits::kMaxTokens, kMaxHeadDim) and values (finite, |x| <= kMaxAbsValue),
// then computes every step. On error `out` is left untouched.
Status scaled_dot_product_attention(const Mat& Q, const Mat& K, const Mat& V, const MaskSpec& mask,
                                    AttentionTrace* out);

}  // namespace ap
