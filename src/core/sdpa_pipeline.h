// The whole computation behind the "Scaled dot-product attention" scene, from a sentence (or from
// matrices given cell by cell) to every intermediate. Scenes read an SdpaModel; they never compute.
//
//   text ──tokenize──> tokens (n) ──embed──> X: n × d_model ──·W^Q, ·W^K, ·W^V──> Q, K: n × d_k, V: n × d_v
//   Q, K, V ──scaled_dot_product_attention──> scores, scaled, mask, masked, softmax, output
#pragma once
#include <string>
#include <vector>

#include "attention.h"

namespace ap {

enum class QkvSource { Projection, Custom };

struct SdpaParams {
  std::string text = "The animal didn't cross the street because it was too tired";
  int d_model = 16;
  int d_k = 4;          // d_v = d_k in projection mode
  uint64_t seed = 42;
  bool positional = true;
  int pad_to = 0;       // append "[PAD]" tokens until there are pad_to tokens (0: no padding)
  MaskKind mask = MaskKind::None;
  QkvSource source = QkvSource::Projection;
  // Custom source: Q (n × d_k), K (m × d_k), V (m × d_v) as given, with row labels.
  Mat Q, K, V;
  std::vector<std::string> query_labels, key_labels;
};

struct SdpaModel {
  SdpaParams params;
  std::vector<std::string> query_tokens, key_tokens;  // row labels of Q and of K/V
  Mat X, Wq, Wk, Wv;                                   // projection mode only (empty in custom mode)
  Mat Q, K, V;
  AttentionTrace trace;
  int pad_count = 0;                                   // keys that are "[PAD]"
};

// Parameters that reproduce `m` with Q, K, V given by hand (the starting point of cell editing);
// labels are the current tokens.
SdpaParams as_custom(const SdpaModel& m);

// Builds everything or nothing: on error `out` is untouched and the message says what to fix.
Status build_sdpa(const SdpaParams& params, SdpaModel* out);

}  // namespace ap
