// Self-attention and cross-attention from sentences, and the notes' argument for three matrices, measured.
// Scenes read a SelfAttnModel; they never compute.
//
//   self:  X: m × d_model ──·W^Q, ·W^K, ·W^V──> Q: m × d_k, K: m × d_k, V: m × d_k     (n = m)
//   cross: X₂: n × d_model ──·W^Q──> Q: n × d_k;   X: m × d_model ──·W^K, ·W^V──> K, V: m × d_k
//   identity (no projections): Q = X (self) or X₂ (cross), K = V = X, so d_k = d_model
//   Q, K, V ──scaled_dot_product_attention──> scores, weights A: n × m, output A·V: n × d_v
//
// Self-weight: the mean of diag(A) of a sequence's self-attention, the weight each token puts on itself.
// The notes: with Q = K = V = X each token attends mostly to itself (xᵢ·xᵢ = |xᵢ|² beats xᵢ·xⱼ); one shared
// matrix W^Q = W^K keeps that (qᵢ·kᵢ = |W^T xᵢ|² ≥ 0); separate W^Q and W^K remove it. Weights are seeded, not
// trained: the numbers show the mechanism, not what a trained model learns.
#pragma once
#include <string>
#include <vector>

#include "attention.h"

namespace ap {

// Q = Xq·W^Q (n × d_k), K = Xkv·W^K (m × d_k), V = Xkv·W^V (m × d_v). Xq and Xkv may have different lengths
// (cross-attention), but each must have as many columns as its W has rows; W^Q and W^K the same width d_k.
// On error the outputs are untouched.
Status project_qkv(const Mat& Xq, const Mat& Xkv, const Mat& Wq, const Mat& Wk, const Mat& Wv, Mat* Q, Mat* K, Mat* V);

// The diagonal of a square weight matrix A (n × n, rows sum to 1), measured.
struct SelfWeight {
  std::vector<double> diagonal;  // A(i, i) per token
  double mean = 0;               // mean of the diagonal ("diagonal mass" per row)
  double argmax_self = 0;        // fraction of rows whose largest weight is their own (ties count)
  double uniform = 0;            // 1 / n: the mean diagonal of uniform weights
};
Status measure_self_weight(const Mat& A, SelfWeight* out);

// The three ways of making Q and K from X that the notes' argument compares.
enum class QkSetting { Identity = 0, Shared, Separate, Count };
const char* qk_setting_name(QkSetting s);  // "identity", "shared", "separate"

struct SelfAttnParams {
  std::string text = "The animal didn't cross the street because it was too tired";  // keys and values (and queries in self)
  std::string text2 = "动物没有过马路因为它太累了";  // queries in cross-attention (the decoder side)
  bool cross = false;     // Q from text2, K and V from text
  bool identity = false;  // Q = K = V = X (no projections; d_k = d_model)
  int d_model = 16;
  int d_k = 4;            // d_v = d_k
  uint64_t seed = 42;
  bool positional = true;
  int max_tokens = 1024;  // per sentence (limits::kMaxTokens at most)
};

struct SelfAttnModel {
  std::vector<std::string> key_tokens;    // the tokens of text: rows of X, K, V (m)
  std::vector<std::string> query_tokens;  // rows of Q (n): text's in self-attention, text2's in cross
  Mat X;                                  // m × d_model
  Mat X2;                                 // n × d_model (cross only; else empty)
  Mat Wq, Wk, Wv;                         // d_model × d_k (seeded)
  Mat Q, K, V;                            // the setting shown
  AttentionTrace trace;                   // softmax(Q·Kᵀ/√d_k)·V: weights n × m, output n × d_v
  int d_k = 0;                            // effective: d_model with identity
  // The notes' argument, on the self-attention of X whatever is shown: [QkSetting] identity, shared, separate.
  SelfWeight self_weight[static_cast<int>(QkSetting::Count)];
  Mat self_weights[static_cast<int>(QkSetting::Count)];  // their A (m × m)
  // The trained view (build_self_attention_trained): X, Q, K, V are a trained layer's; self_weights[Separate]
  // are the seeded matrices' on the same X, shown beside the trained weights (trace).
  bool trained = false;
  SelfWeight trained_weight;              // the diagonal of the trained weights (trace.weights())
};

// Builds everything or nothing: on error `out` is untouched and the message says what to fix.
Status build_self_attention(const SelfAttnParams& p, SelfAttnModel* out);

// The notes' "why three matrices" with matrices that learned something (a trained model's layer):
//
//   X: n × C  the layer's input (a trained model's embeddings + positions, or the residual stream)
//   Q, K, V: n × d  what the layer's learned W^Q, W^K, W^V (and biases) made of X
//   trained:  A = softmax(Q·Kᵀ/√d)                                  → trace, trained_weight
//   beside it, the SAME X through seeded matrices of the same shape C × d (seed):
//             identity, shared W^Q = W^K, separate W^Q, W^K          → self_weights[], self_weight[]
// so the two weight maps differ only in what the projections learned. All or nothing, like the above.
struct SelfTrainedLayer {
  std::vector<std::string> tokens;  // n
  Mat X;                            // n × C
  Mat Q, K, V;                      // n × d (V: n × d_v)
};
Status build_self_attention_trained(const SelfTrainedLayer& layer, uint64_t seed, SelfAttnModel* out);

}  // namespace ap
