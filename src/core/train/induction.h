// The task "induction" (Olsson et al. 2022, "In-context learning and induction heads"): a segment of random
// tokens occurs twice in a sequence; on its second occurrence the model predicts each next token by finding
// where the current token occurred before and copying the token that followed it there.
//
//   positions  0 … s1−1   s1 … s1+N−1   …      s2 … s2+N−1     …  T−1
//   tokens     fillers    S_0 … S_{N−1}  fillers S_0 … S_{N−1}  fillers      (S: N distinct tokens)
//   readout    the rows s2 + k, k = 0 … N−2, each predicts S_{k+1}   (R = N − 1 rows a sequence)
//
// The idea in one line: no single attention layer can do it — the key at s1+k+1 holds S_{k+1}, not "the token
// before me was S_k" — so two layers are needed: a PREVIOUS-TOKEN head in layer 1 writes S_k into position
// s1+k+1, and an INDUCTION head in layer 2 matches the query S_k against that and copies S_{k+1}.
//
// Why this generator: the segment's start s1 and the distance s2 − s1 are random, so no head can find the
// answer by position alone; the fillers never hold a token of S, so the previous occurrence is unique; the
// tokens are random, so no bigram statistics help. A one-layer model can only guess among the tokens already
// seen (measured: it stays far below the two-layer model).
//
// The model (induction_model_config): attention only (no feed-forward, no layer norm), causal, learned
// positions, a linear readout over the V tokens on R rows of each sequence:
//   x_0 = wte[ids] + wpe[positions]                           [B·T, C]
//   x_l = x_{l−1} + MultiHead(x_{l−1} W^Q, x_{l−1} W^K, x_{l−1} W^V, causal M) W^O        l = 1 … L
//   logits = x_L[rows s2 … s2+N−2] · W^C + b^C                [B·R, V];  loss = mean cross-entropy
//
// Held-out: a fixed, seeded set of sequences; training sequences are drawn fresh every step (seeded by the
// recipe) and any whose segment S equals a held-out one is drawn again, so no held-out segment is ever trained on.
#pragma once
#include <cstdint>
#include <string>
#include <unordered_set>
#include <vector>

#include "core/embedding.h"
#include "core/status.h"
#include "model.h"
#include "recipe.h"

namespace ap {
namespace train {

constexpr const char* kInductionTask = "induction";
constexpr int kInductionVocab = 24;    // V: the tokens "A" … "X"
constexpr int kInductionSeqLen = 20;   // T
constexpr int kInductionSegment = 6;   // N: the repeated segment's length
constexpr int kInductionRows = kInductionSegment - 1;  // R: predicted tokens a sequence
constexpr int kInductionHeldout = 1024;

struct InductionSequence {
  int ids[kInductionSeqLen];
  int s1 = 0, s2 = 0;  // where the segment starts, the first and the second time
  // Readout row r (r = 0 … R−1): position s2 + r; its answer: the token at s1 + r + 1 (= at s2 + r + 1).
  int row(int r) const { return s2 + r; }
  int target(int r) const { return ids[s1 + r + 1]; }
  int source(int r) const { return s1 + r + 1; }  // where the induction head should look from row r
};

const std::vector<std::string>& induction_vocabulary();  // "A" … "X"
int induction_token(const std::string& w);  // its id, −1 when it is not one of the tokens
// A sequence the trained model can read: 2 … kInductionSeqLen tokens of induction_vocabulary(); the first
// token outside it is named.
Status check_induction_tokens(const std::vector<std::string>& words);

// The experiment's recipe: task "induction", 2 layers of 1 head, d_model 16, 600 steps, learning rate 0.01,
// batch 32 (measured: the loss stays near ln 24 for about 200 steps, then falls within about 100 to below 0.1).
Recipe induction_recipe(int layers = 2, uint64_t seed = 1);

// One sequence from rng (see the top of this file). Segments in `excluded` (segment_key) are drawn again.
void sample_induction(SeededRng& rng, const std::unordered_set<uint64_t>* excluded, InductionSequence* out);
uint64_t segment_key(const InductionSequence& s);  // the N segment tokens, 5 bits each

struct InductionDataset {
  std::vector<InductionSequence> heldout;
  std::unordered_set<uint64_t> heldout_segments;
};
// kInductionHeldout sequences of distinct segments, seeded by split_seed.
void make_induction_dataset(uint64_t split_seed, InductionDataset* out);

// The model of `layers` layers of `heads` heads over the task (see the top of this file).
ModelConfig induction_model_config(int layers, int heads, int d_model, int max_batch, uint64_t seed);

// The batch of set[idx[0 … B)]: ids, no padding, rows and targets R per sequence. Reuses the batch's vectors.
void fill_induction_batch(const std::vector<InductionSequence>& set, const int* idx, int B, Batch* batch);

// What each head does, averaged over the sequences of the forward passes added:
//   previous: the weight of row i on i − 1 (rows 1 … T−1)          — a previous-token head: near 1
//   induction: the weight of readout row s2 + r on s1 + r + 1       — an induction head: near 1
//   same_token: the weight of readout row s2 + r on s1 + r (the earlier copy of its own token)
//   self: the weight of a row on itself (rows 0 … T−1)
struct InductionHeadScore {
  int layer = 0, head = 0;
  double previous = 0, induction = 0, same_token = 0, self = 0;
};
// "previous token", "induction", "same token", "itself": the first score above 0.5; otherwise "spread".
const char* induction_relation(const InductionHeadScore& s);

struct InductionScores {
  std::vector<InductionHeadScore> heads;  // [layer · H + head]
  long long right = 0, predictions = 0;   // argmax of the readout == the answer
  long long sequences = 0;
  double accuracy() const { return predictions ? static_cast<double>(right) / predictions : 0.0; }
};
// Adds the last forward pass of `model` (batch rows b = 0 … B−1 hold set[idx[b]]) into *scores;
// finish_induction_scores divides by the counts.
void add_induction_scores(const AttentionModel& model, const std::vector<InductionSequence>& set, const int* idx,
                          int B, InductionScores* scores);
void finish_induction_scores(InductionScores* scores);

}  // namespace train
}  // namespace ap
