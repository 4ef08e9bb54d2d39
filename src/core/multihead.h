// Multi-head attention: h heads, each a scaled dot-product attention in its own d_k-dimensional subspace.
//
//   head_i = Attention(X_q W_i^Q, X_kv W_i^K, X_kv W_i^V)          X_q: n × d_model, X_kv: m × d_model
//   MultiHead = Concat(head_1, …, head_h) · W^O                     concat: n × (h·d_v), W^O: h·d_v × d_model
// with d_k = d_v = d_model / h, so the parameter count (4·d_model²) matches one full-width head.
#pragma once
#include <vector>

#include "attention.h"

namespace ap {

struct MultiHeadWeights {
  int d_model = 0, heads = 0, d_head = 0;
  std::vector<Mat> Wq, Wk, Wv;  // each d_model × d_head, one per head
  Mat Wo;                       // (heads·d_head) × d_model
};

// Seeded weights. Fails unless 1 <= heads <= kMaxHeads and heads divides d_model.
Status make_multihead_weights(int d_model, int heads, uint64_t seed, MultiHeadWeights* w);

struct MultiHeadTrace {
  std::vector<Mat> Q, K, V;           // per head: n × d_head, m × d_head, m × d_head
  std::vector<AttentionTrace> heads;  // per head: every intermediate
  Mat concat;                         // n × (heads·d_head)
  Mat output;                         // n × d_model
};

Status multi_head_attention(const Mat& Xq, const Mat& Xkv, const MultiHeadWeights& w, const MaskSpec& mask,
                            MultiHeadTrace* out);

}  // namespace ap
