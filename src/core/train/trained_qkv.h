// Training engine, part 10: a trained model's Q, K and V, layer by layer — what the SDPA scene animates.
//
// The idea in one line: run a sentence through the trained model and keep, for every layer, the queries, keys
// and values that layer computed from its own input; the scene then computes softmax(Q·Kᵀ/√d + M)·V with the
// same code as for seeded weights (core/attention.h), and gets the model's own weights (tests say within 1e-6).
//
//   words (n, the task's vocabulary) ──Trainer::attention_of: one forward pass, padded to T──> for layer l:
//     h_l = x_l                      (the layer's input: embeddings + positions for l = 0, else the residual;
//                                     the coreference recipe has no layer norm, so h_l is x_l itself)
//     Q_l = h_l·W^Q_l + b^Q_l        [n, d]   the first n rows, the pointer head's d = C/H columns
//     K_l = h_l·W^K_l + b^K_l        [n, d]
//     V_l = h_l·W^V_l + b^V_l        [n, d]
//     A_l = softmax(Q_l·K_lᵀ / √d)   [n, n]   no mask: the padding (rows n … T−1) is hidden as a key from every
//                                             query, so no word reads it, and over the n words the weights are
//                                             those of the padded pass
#pragma once
#include <string>
#include <vector>

#include "core/multihead.h"
#include "trainer.h"

namespace ap {
namespace train {

struct TrainedQkv {
  std::vector<std::string> words;  // n
  int layers = 0, n = 0, d = 0;
  int it_pos = -1;
  int head = 0;                    // the head shown: the pointer head
  std::vector<Mat> X;              // [layer]: n × C, the layer's input h_l (what its W^Q, W^K, W^V multiply)
  std::vector<Mat> Q, K, V;        // [layer]: n × d
  Recipe recipe;
  int step = 0;
  double heldout_accuracy = 0;
};

// Q, K, V of every layer for `words` under the trainer's current weights (check_coref_sentence's rules).
Status trained_qkv(Trainer& t, const std::vector<std::string>& words, TrainedQkv* out);

// One layer of a trained model, every head, as the multi-head scene shows seeded weights: the layer's input X
// and its learned W_i^Q, W_i^K, W_i^V (head i: columns i·d … (i+1)·d of the layer's C × C matrices), W^O and
// the biases, so that core/multihead.h's multi_head_attention(X, X, weights, no mask) computes that layer's
// heads — the weights the model's own forward pass gave (tests: within 1e-6), and X + output = its residual.
//
//   X      = h_l, rows 0 … n−1                   [n, C]   (no layer norm: the recipes here have none)
//   W_i^Q  = W^Q_l[:, i·d : (i+1)·d]             [C, d]   b_i^Q = b^Q_l[i·d : (i+1)·d]   [1, d]   (K, V alike)
//   W^O    = W^O_l, b^O = b^O_l                  [C, C], [1, C]
struct TrainedLayer {
  std::vector<std::string> words;  // n
  int layer = 0;                   // 0-based
  int it_pos = -1;
  Mat X;                           // n × C
  MultiHeadWeights weights;        // with biases
  Recipe recipe;
  int step = 0;
  double heldout_accuracy = 0;
};

// `layer` in [0, layers): fails on words outside the task's vocabulary (check_coref_sentence's rules) or on a
// model with layer norm (its X would not be what W^Q multiplies).
Status trained_layer(Trainer& t, const std::vector<std::string>& words, int layer, TrainedLayer* out);

}  // namespace train
}  // namespace ap
