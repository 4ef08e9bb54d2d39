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
  // Biases, a trained layer's (core/train/trained_qkv.h): empty for seeded weights, else one 1 × d_head row
  // per head for each of b^Q, b^K, b^V, and b^O: 1 × d_model. Q_i = X·W_i^Q + b_i^Q (every row), and so on.
  std::vector<Mat> bq, bk, bv;
  Mat bo;
  bool has_biases() const { return !bq.empty(); }
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

// ---- what the multi-head scene measures (app/scenes/multihead_scene.h) ----------------------------------------

// The parameters of a layer, counted entry by entry from its actual matrices (no biases):
//   W_i^Q, W_i^K, W_i^V: h matrices of d_model × d_k each;  W^O: (h·d_k) × d_model.
// With d_k = d_model / h each of the four groups holds d_model² entries: 4·d_model² whatever h is.
struct MultiHeadParamCount {
  int heads = 0, d_head = 0;
  long long wq = 0, wk = 0, wv = 0, wo = 0;  // Σ_i rows·cols of W_i^Q (…), and rows·cols of W^O
  long long biases = 0;                      // entries of b^Q, b^K, b^V, b^O (0 without biases: 4·d_model with)
  long long total() const { return wq + wk + wv + wo + biases; }
};
MultiHeadParamCount count_multihead_params(const MultiHeadWeights& w);

// One row per head count h in 1 … kMaxHeads that divides d_model: that layer's weights are built (same seed)
// and counted. Fails as make_multihead_weights does for d_model; on error `out` is untouched.
Status multihead_param_table(int d_model, uint64_t seed, std::vector<MultiHeadParamCount>* out);

// How each head spreads its weights A (n × m), over the rows that see at least one key:
//   mean_entropy     mean of −Σ_j A_ij ln A_ij  (nats: ln m when uniform, 0 when one-hot)
//   mean_max_weight  mean of max_j A_ij
//   top_key[i]       argmax_j A_ij (the first on a tie; −1 for a row with every key hidden)
struct HeadFocus {
  double mean_entropy = 0, mean_max_weight = 0;
  std::vector<int> top_key;
};
std::vector<HeadFocus> head_focus(const MultiHeadTrace& t);

}  // namespace ap
