// The masks bug lab: the correct masked attention next to real bugs, each with its damage measured.
//
//   correct:  A = softmax(Q·Kᵀ/√d_k + M) row by row,  O = A·V        M: 0 visible, -inf hidden, added BEFORE
//                                                                   softmax, so hidden weights are exactly 0
//   Shapes (one sentence, one head, self-attention): Q, K: L × d_k   V: L × d_v   M, A: L × L   O: L × d_v
//
// A padded batch holds B sentences of different lengths padded with "[PAD]" to one length L. Its padding
// mask hides, per sentence, the keys that are "[PAD]" (the 填充掩码); with the causal mask (因果掩码) on,
// query i also cannot see keys j > i. A key is HIDDEN from a query when either mask hides it.
// Padding QUERY rows are computed like any other but their outputs are thrown away downstream, so every
// measure below covers the real (non-padding) query rows only.
//
// The bugs (each reproduces code that has shipped):
//   mask-after-softmax   A = softmax(S/√d_k), then hidden weights set to 0 — and not renormalised:
//                        rows sum to less than 1, and hidden keys still shaped the softmax's denominator
//   scale-after-softmax  A = softmax(S + M) / √d_k: rows sum to 1/√d_k, and underneath the softmax saw
//                        unscaled scores: sharper rows, closer to one-hot (the saturation √d_k prevents)
//   softmax-over-columns softmax over the queries (each COLUMN sums to 1): rows do not sum to 1, and every
//                        weight's denominator mixes in other queries — padding and future ones included
//   scale-by-d_model     ÷√d_model instead of the head's ÷√d_k (d_model = heads·d_k): scores shrink by
//                        √heads, weights flatten (higher entropy, lower peaks). No damage with one head.
//   causal-omitted       the padding mask only: every query sees the future
//   causal-transposed    tril/triu swapped: query i sees j >= i, the future and itself instead of the past
//   causal-diagonal      off by one (triu with diagonal 0): query i sees j < i only; the first token sees
//                        nothing (its row is all zeros and flagged here; NaN in most frameworks)
// The three causal bugs need the causal mask on.
//
// Nothing is trained: the batch's embeddings and W^Q, W^K, W^V are seeded (embedding.h).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "matrix.h"

namespace ap {

// A run computes each sentence six times (correct and variant, each again for the two leak probes):
// about 12·B·L²·d_k multiply-adds. The lesson batch (4 × 8, d_k = 16) takes 0.2 ms; the worst case
// allowed (16 × 64, d_k = 512) about 0.3 s natively.
namespace lab_limits {
constexpr int kMaxBatch = 16;   // B
constexpr int kMaxLength = 64;  // L: the lab shows every weight of every sentence
}  // namespace lab_limits

enum class MaskBug {
  None,  // the correct computation
  MaskAfterSoftmax,
  ScaleAfterSoftmax,
  SoftmaxOverColumns,
  ScaleByDModel,
  CausalOmitted,
  CausalTransposed,
  CausalDiagonal,
};
constexpr int kMaskBugCount = 8;

const char* mask_bug_name(MaskBug b);  // "none", "mask-after-softmax", … (as listed above)
bool parse_mask_bug_name(const std::string& s, MaskBug* out);
bool mask_bug_needs_causal(MaskBug b);
std::vector<MaskBug> all_mask_bugs();  // None first, then the bugs in the order above

// B sentences padded to L, and one head's projections of each.
struct PaddedBatch {
  int L = 0, d_model = 0, heads = 0, d_k = 0;    // d_k = d_model / heads (and d_v = d_k)
  std::vector<std::vector<std::string>> tokens;  // B × L, "[PAD]" after each sentence
  std::vector<int> lengths;                      // B: tokens before padding
  std::vector<std::vector<uint8_t>> key_is_pad;  // B × L: 1 where the token is "[PAD]"
  std::vector<Mat> Q, K, V;                      // B × (L × d_k): X_b·W^Q, X_b·W^K, X_b·W^V of head 0
};

// X_b = embed_tokens(padded sentence b, d_model, seed, with position codes), W = projection_weights(d_model,
// d_k, seed, 'Q'/'K'/'V', head 0). pad_to = L (0: the longest sentence). Fails on an empty batch or
// sentence, a sentence longer than pad_to or made only of "[PAD]", or heads not dividing d_model.
Status make_padded_batch(const std::vector<std::vector<std::string>>& sentences, int pad_to, int d_model, int heads,
                         uint64_t seed, PaddedBatch* out);

// One sentence, one variant.
struct LabAttention {
  Mat hidden;   // L × L   1 where the CORRECT masks hide key j from query i (padding or future), else 0
  Mat logits;   // L × L   what the variant's softmax reads (-inf where its own mask hides)
  Mat weights;  // L × L   the variant's A
  Mat output;   // L × d_v A·V
};
// Q, K: L × d_k, V: L × d_v, key_is_pad: L flags; d_model >= d_k is only read by scale-by-d_model.
Status lab_attention(const Mat& Q, const Mat& K, const Mat& V, const std::vector<uint8_t>& key_is_pad, bool causal,
                     int d_model, MaskBug bug, LabAttention* out);

// The damage of one variant. Rows are the real query rows; "hidden" as defined above.
struct MaskDamage {
  double max_row_sum_dev = 0;   // max_i |Σ_j A_ij − 1|
  double max_hidden_mass = 0;   // max_i Σ_{j hidden} A_ij: weight on keys the query must not see
  double mean_hidden_mass = 0;  // the same, averaged over rows
  double max_pad_mass = 0;      // max_i Σ_{j padding} A_ij
  double max_future_mass = 0;   // max_i Σ_{j > i} A_ij (0 unless the causal mask is on)
  double max_weight = 0;        // max_ij A_ij
  double mean_peak = 0;         // mean_i max_j p_ij, p_i = A_i / Σ_j A_ij: sharpness whatever the row sum
  double mean_entropy = 0;      // mean_i −Σ_j p_ij ln p_ij (nats): ln(visible keys) if uniform, 0 if one-hot
  double max_output_diff = 0;   // max |O − O_correct|
  double max_abs_output = 0;    // max |O| over the real rows: the scale that |ΔO| and the leaks are read against
  double pad_leak = 0;          // max |ΔO| when the padding tokens' Q, K, V rows are replaced by others
  double future_leak = 0;       // causal on: max |ΔO| of the rows before a sentence's last real token when
                                // that token's Q, K, V rows are replaced (the past must not read the future)
  int empty_rows = 0;           // rows whose weights are all 0 (left out of mean_peak and mean_entropy)
};

// A whole batch under one variant, with the correct computation alongside.
struct MaskLabRun {
  MaskBug bug = MaskBug::None;
  bool causal = false;
  std::vector<LabAttention> correct, variant;  // per sentence
  std::vector<MaskDamage> per_sentence;        // the variant's damage in each sentence
  MaskDamage damage;                           // over the batch: maxima of maxima, means over all real rows
  MaskDamage baseline;                         // the same measures for the correct computation
  double entropy_change = 0;                   // damage.mean_entropy − baseline.mean_entropy
  double peak_change = 0;                      // damage.mean_peak − baseline.mean_peak
  double max_weight_change = 0;                // damage.max_weight − baseline.max_weight
};
Status run_mask_lab(const PaddedBatch& batch, bool causal, MaskBug bug, MaskLabRun* out);

}  // namespace ap
