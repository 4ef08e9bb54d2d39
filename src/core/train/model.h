// Training engine, part 4: an attention model assembled from the ops of ops.h, trained with Adam.
//
// The idea in one line: embedding → L × (attention with residual [→ feed-forward with residual]) → a loss
// read either from the last layer's attention weights (pointer) or from one position's vector (classifier).
//
//   x_0 = wte[ids] + wpe[positions]                                    [B·T, C]
//   layer l (l = 1 … L):
//     h   = LN(x) if layer_norm, else x                                 [B·T, C]
//     q, k, v = h·W^Q + b^Q, h·W^K + b^K, h·W^V + b^V                  [B·T, C] each
//     a   = MultiHead(q, k, v, M)   (H heads of d = C/H, concatenated)  [B·T, C];  weights [B·H·T, T]
//     x'  = x + a·W^O + b^O                                             [B·T, C]   (residual)
//     if ffn_hidden > 0:  x'' = x' + ReLU(LN(x')·W1 + b1)·W2 + b2         [B·T, F] inside, [B·T, C] out
//   readout:
//     Pointer:    loss = −mean_b log A_L,head[row_b, target_b]      (target_b = a position)
//     Classifier: logits = x_L[row_{b,r}]·W^C + b^C  [B·R, K];  loss = mean over the B·R rows of
//                 cross-entropy(logits, target_{b,r})   (R readout rows per sequence: 1 for a sentence's
//                 answer, several for a next-token loss on many positions)
// The mask M: [B·T, T], −inf at padding keys (and above the diagonal when causal), 0 elsewhere.
//
// Parameter names: "wte", "wpe", "l1.ln.g", "l1.Wq", "l1.bq", …, "l1.Wo", "l1.ffn.W1", …, "cls.W", "cls.b".
// Everything a backward pass needs is kept in the activation arena (arena.h), planned for max_batch
// sequences in init(): after the first step, a step allocates nothing.
// Deterministic: the same config, data order and Adam settings give bitwise the same weights (single thread,
// fixed summation orders, own seeded RNG).
#pragma once
#include <cstdint>
#include <vector>

#include "arena.h"
#include "param_store.h"

namespace ap {
namespace train {

enum class Readout { Pointer, Classifier };

struct ModelConfig {
  int vocab = 0;            // V
  int seq_len = 0;          // T: every batch is padded to T tokens
  int d_model = 32;         // C
  int layers = 2;           // L >= 1
  int heads = 1;            // H per layer, divides C
  bool layer_norm = false;  // pre-LN before attention (and before the feed-forward block)
  int ffn_hidden = 0;       // F; 0 = no feed-forward block
  bool causal = false;      // also hide keys j > i
  // With causal: the bug "mask after softmax" — the future is zeroed in the weights after the softmax instead of
  // hidden from it (ops.h, attention_forward's after_softmax; the masks scene's bug lab).
  bool mask_after_softmax = false;
  Readout readout = Readout::Pointer;
  int pointer_head = 0;     // which head of layer L the pointer loss reads
  int classes = 2;          // K, classifier only
  int readout_rows = 1;     // R: the classifier's rows per sequence (the pointer reads 1)
  int max_batch = 32;
  double embed_std = 0.5;   // wte, wpe ~ N(0, embed_std²); weight matrices ~ N(0, 1/fan_in); biases 0, γ 1, β 0
  uint64_t seed = 1;
};

// One minibatch. Vectors are reused by the caller between steps (resizing to the same size allocates nothing).
struct Batch {
  int B = 0;
  std::vector<int> ids;          // [B·T] token ids
  std::vector<uint8_t> pad;      // [B·T] 1 = padding: hidden as a KEY from every query
  std::vector<int> row;          // [B·R] the query rows that are read out (the "it" position), sequence-major
  std::vector<int> target;       // [B·R] pointer: a position in [0, T); classifier: a class in [0, K)
};

class AttentionModel {
 public:
  Status init(const ModelConfig& c);
  const ModelConfig& config() const { return c_; }

  // Forward pass; validates the batch (sizes, ids, rows, targets; a pointer target must be a visible key).
  Status forward(const Batch& batch, double* loss);
  // Backward pass of the last forward: ADDS the loss's gradient into params().grad (zero it first).
  void backward();
  // zero_grad → forward → backward → Adam (with its clipping). grad_norm: before clipping (may be null).
  Status train_step(const Batch& batch, Adam& adam, double* loss, double* grad_norm = nullptr);

  ParamStore& params() { return params_; }
  const ParamStore& params() const { return params_; }

  // Views into the last forward pass (valid until the next one), batch size = that of the last forward.
  CMatMap attention(int layer) const;   // layer in [0, L): weights [B·H·T, T], row (b·H + h)·T + i
  CMatMap residual(int layer) const;    // layer in [0, L]: x_layer [B·T, C] (0 = the embeddings)
  // layer in [0, L), which 'q', 'k' or 'v': h·W + b of that layer [B·T, C] (head h: columns h·C/H …)
  CMatMap projection(int layer, char which) const;
  CMatMap class_probs() const;          // classifier: [B·R, K], row b·R + r
  int last_batch() const { return B_; }
  const Arena& activations() const { return acts_; }
  const Arena& activation_grads() const { return grads_; }

 private:
  struct Layer {
    Param *ln_g = nullptr, *ln_b = nullptr, *Wq, *bq, *Wk, *bk, *Wv, *bv, *Wo, *bo;
    Param *ln2_g = nullptr, *ln2_b = nullptr, *W1 = nullptr, *b1 = nullptr, *W2 = nullptr, *b2 = nullptr;
    int x_in, h, ln_mean = -1, ln_rstd = -1, q, k, v, preatt, att, probs = -1, a, o, x_mid;
    int h2 = -1, ln2_mean = -1, ln2_rstd = -1, f1 = -1, f1r = -1, f2 = -1, x_out;
  };
  ModelConfig c_;
  ParamStore params_;
  Arena acts_, grads_;  // same plan: activations and their gradients
  Param *wte_ = nullptr, *wpe_ = nullptr, *cls_W_ = nullptr, *cls_b_ = nullptr;
  std::vector<Layer> layers_;
  int emb_ = -1, mask_ = -1, gather_ = -1, logits_ = -1, probs_ = -1;
  int B_ = 0;
  const Batch* batch_ = nullptr;
};

}  // namespace train
}  // namespace ap
