// Training engine, part 6: a trainable encoder–decoder (Seq2Seq) with GRUs, with or without attention.
//
// The idea in one line: a GRU encoder reads the source into states h_j; a GRU decoder writes the target one
// word at a time, reading either ONE fixed vector c (the notes' bottleneck) or a new context c_t = Σ_j α_tj h_j
// at every step (Bahdanau: scores from s_{t−1}; Luong: from s_t).
//
// Shapes (one sequence; row vectors, as everywhere in the engine: a vector is [1, d]):
//   source ids x_0 … x_{n−1}, target ids y_0 … y_{T−1} (the last one EOS); y_{−1} = BOS
//   E   embedding width (source and target)        d_h  encoder GRU width per direction
//   d_enc = d_h (one direction) or 2·d_h (bidirectional: h_j = [→h_j; ←h_j])
//   d_s = d_enc   decoder state width (equal, so that the dot score s_tᵀ h_j is defined)
//   d_a   width of the additive / concat score's hidden layer            V  target vocabulary
//
//   encoder:   →h_j = GRU_f(emb_src[x_j], →h_{j−1}),  ←h_j = GRU_b(emb_src[x_j], ←h_{j+1})   H: [n, d_enc]
//   summary:   h_last = →h_{n−1} (or [→h_{n−1}; ←h_0])                  s_0 = tanh(h_last·W_init + b_init)
//   decoder step t (e_t = emb_tgt[y_{t−1}]):
//     None:      c_t = h_last (the same vector every step)
//                s_t = GRU_d([e_t; c_t], s_{t−1})        logits_t = [s_t; c_t]·W_out + b_out
//     Additive:  score_tj = v_aᵀ tanh(s_{t−1}·W_a + h_j·U_a)   α_t = softmax(score_t)   c_t = α_t·H
//                s_t = GRU_d([e_t; c_t], s_{t−1})        logits_t = [s_t; c_t]·W_out + b_out
//     Dot / General / Concat (Luong):  s_t = GRU_d(e_t, s_{t−1}), then
//                score_tj = s_t·h_jᵀ | s_t·W_a·h_jᵀ | v_aᵀ tanh(s_t·W_a + h_j·U_a)   α_t, c_t as above
//                h̃_t = tanh([c_t; s_t]·W_c + b_c)       logits_t = h̃_t·W_out + b_out
//   loss = mean over every target token of −log softmax(logits_t)[y_t]      (teacher forcing)
//
// The encoder's cell is a GRU, or the Elman RNN the bottleneck scene draws (cell = Elman):
//   h' = tanh(x·Wx + h·Wh + b)                          Wx: [I, H], Wh: [H, H], b: [1, H]
// The decoder is always a GRU.
//
// GRU cell (x: [1, I], h: [1, H]; Cho et al. 2014, the candidate reads r ⊙ h):
//   [z | r] = σ(x·Wx[:, 0:2H] + h·Wh_zr + b[0:2H])      z: update gate, r: reset gate
//   n = tanh(x·Wx[:, 2H:3H] + (r ⊙ h)·Wh_n + b[2H:3H])  the candidate
//   h' = (1 − z) ⊙ h + z ⊙ n
//
// Deterministic: parameters are seeded by name (ParamStore), sums have a fixed order, one thread.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/status.h"
#include "param_store.h"

namespace ap {
namespace train {

enum class Seq2SeqAttention { None, Additive, Dot, General, Concat };
const char* seq2seq_attention_name(Seq2SeqAttention a);  // "none", "additive", "dot", "general", "concat"
bool parse_seq2seq_attention(const std::string& name, Seq2SeqAttention* out);  // false: not one of those

enum class Seq2SeqCell { Gru, Elman };
const char* seq2seq_cell_name(Seq2SeqCell c);                        // "gru", "elman"
bool parse_seq2seq_cell(const std::string& name, Seq2SeqCell* out);  // false: not one of those

constexpr int kBos = 0, kEos = 1;  // target ids; the source uses the same vocabulary, without them

struct Seq2SeqConfig {
  int vocab = 0;  // V: ids 0 … V−1, shared by source and target
  int d_emb = 16;
  int d_h = 32;
  bool bidirectional = false;
  Seq2SeqAttention attention = Seq2SeqAttention::Additive;
  Seq2SeqCell cell = Seq2SeqCell::Gru;  // the encoder's (the decoder is a GRU)
  int d_a = 32;
  int max_len = 64;  // longest source or target the model accepts
  uint64_t seed = 1;
};

struct Seq2SeqPair {
  std::vector<int> src, tgt;  // tgt ends with kEos
};

// One GRU's parameters (in the store) and its per-step record for the backward pass.
// An Elman encoder's cell keeps its three in the same record: Wx [I, H], Wh_n as its Wh [H, H], b [1, H]; Wh_zr
// null (and its steps' z, r empty; n = h).
struct GruParams {
  Param *Wx = nullptr, *Wh_zr = nullptr, *Wh_n = nullptr, *b = nullptr;  // [I, 3H], [H, 2H], [H, H], [1, 3H]
};
struct GruStep {
  Mat x, h_prev, z, r, n, h;  // [1, I], [1, H] × 5
};

// Everything one sequence's forward pass computed, kept for its backward pass and for the scenes.
struct Seq2SeqTrace {
  int n = 0, T = 0;
  std::vector<GruStep> enc_f, enc_b;  // n steps each (enc_b in reading order: enc_b[j] made ←h_j)
  Mat H;                              // [n, d_enc] encoder states
  Mat HU;                             // [n, d_a] H·U_a (additive / concat): the keys' half of the score, once
  Mat h_last;                         // [1, d_enc]
  Mat s0_pre, s0;                     // [1, d_s]
  std::vector<GruStep> dec;           // T steps
  std::vector<Mat> score;             // T × [1, n] the scores before the softmax (empty for None)
  std::vector<Mat> alpha;             // T × [1, n] attention weights (empty rows for None)
  std::vector<Mat> context;           // T × [1, d_enc]
  std::vector<Mat> query;             // T × [1, d_a] the query's half of additive / concat: q·W_a
  std::vector<Mat> u;                 // T × [n, d_a] tanh(…) of additive / concat
  std::vector<Mat> htilde;            // T × [1, d_s] Luong's attentional state
  std::vector<Mat> probs;             // T × [1, V] softmax(logits)
  std::vector<int> input;             // T: the decoder's input ids (BOS, y_0, …)
  double loss = 0;                    // Σ_t −log p(y_t) (a sum: the caller divides)
};

class Seq2SeqModel {
 public:
  // Fails on sizes out of range (vocab 3 … 4096, widths 1 … 256, max_len 1 … 256) or Dot with d_s ≠ d_enc
  // (never: d_s = d_enc by construction).
  Status init(const Seq2SeqConfig& c);
  const Seq2SeqConfig& config() const { return c_; }
  ParamStore& params() { return store_; }
  const ParamStore& params() const { return store_; }
  int d_enc() const { return c_.d_h * (c_.bidirectional ? 2 : 1); }

  // Teacher-forced forward pass of one pair; fills `tr` (reused between calls). Checks ids and lengths.
  Status forward(const Seq2SeqPair& p, Seq2SeqTrace* tr) const;
  // Adds d(scale · tr.loss)/dθ into every parameter's grad (the caller zeroes them once per step).
  void backward(const Seq2SeqPair& p, const Seq2SeqTrace& tr, float scale);
  // One Adam step on a batch: zero_grad, forward + backward of each pair (loss averaged over all target
  // tokens), the update. Returns the mean loss per token in *loss.
  Status train_step(const std::vector<Seq2SeqPair>& batch, Adam& adam, double* loss);
  // Greedy decoding: the decoder reads its own argmax, until EOS or max_out words. Fills tr (its alpha rows are
  // the alignment) and *out (without the EOS).
  Status greedy(const std::vector<int>& src, int max_out, std::vector<int>* out, Seq2SeqTrace* tr) const;

 private:
  // The decoder's step t from input id `in` and s_prev; writes row t of the trace. teacher: y known.
  void decode_step(int t, int in, const Mat& s_prev, Seq2SeqTrace* tr) const;
  void encode(const std::vector<int>& src, Seq2SeqTrace* tr) const;
  // One step of an encoder reader, GRU or Elman (the config's cell), forward and backward.
  void enc_forward(const GruParams& g, const Mat& x, const Mat& h_prev, GruStep* st) const;
  void enc_backward(const GruParams& g, const GruStep& st, const Mat& dh, Mat* dx, Mat* dh_prev) const;

  Seq2SeqConfig c_;
  ParamStore store_;
  GruParams enc_f_, enc_b_, dec_;
  Param *src_emb_ = nullptr, *tgt_emb_ = nullptr, *W_init_ = nullptr, *b_init_ = nullptr;
  Param *W_a_ = nullptr, *U_a_ = nullptr, *v_a_ = nullptr, *W_c_ = nullptr, *b_c_ = nullptr;
  Param *W_out_ = nullptr, *b_out_ = nullptr;
};

// ---- the GRU cell, forward and backward side by side ------------------------------------------------------
// Forward: fills st (x and h_prev copied in, the gates, the candidate and h).
void gru_forward(const GruParams& g, const Mat& x, const Mat& h_prev, GruStep* st);
// Backward from dh (the gradient of h'): adds into the parameters' grads, *dx and *dh_prev (both += ).
void gru_backward(const GruParams& g, const GruStep& st, const Mat& dh, Mat* dx, Mat* dh_prev);
// The Elman cell, the same way (st->n = st->h = h'; z and r untouched).
void elman_forward(const GruParams& g, const Mat& x, const Mat& h_prev, GruStep* st);
void elman_backward(const GruParams& g, const GruStep& st, const Mat& dh, Mat* dx, Mat* dh_prev);

// ---- tasks --------------------------------------------------------------------------------------------------
// Sequence reversal: a random string of symbols (ids 2 … vocab−1), length uniform in [min_len, max_len]; the
// target is the same string reversed, then EOS. The simplest alignment: target word t reads source word
// n−1−t (the anti-diagonal). Seeded: the same (seed, index) gives the same pair.
Seq2SeqPair reversal_pair(int vocab, int min_len, int max_len, uint64_t seed, uint64_t index);

// Held-out token accuracy of greedy decoding: the share of target positions (EOS included) whose word is right
// (a decoded sentence shorter than the target counts its missing words wrong; longer ones are cut).
double token_accuracy(const Seq2SeqModel& m, const std::vector<Seq2SeqPair>& pairs);
// What those shares are made of: counts, which add up, so a set measured in parts (a slice per frame) gives
// the same figures, bit for bit, as the set measured at once.
struct HeldOutTally {
  long long right = 0, total = 0;               // target tokens decoded right, of all
  long long sentences_right = 0, sentences = 0;  // whole sentences (EOS in its place)
  double tokens() const { return total ? static_cast<double>(right) / static_cast<double>(total) : 0.0; }
  double sentence_share() const { return sentences ? static_cast<double>(sentences_right) / static_cast<double>(sentences) : 0.0; }
};
// Greedy-decodes the n pairs from `first` and adds their counts to *c. `each` (may be empty) is shown every pair
// decoded, with its index in the range, the words decoded (EOS appended) and the trace: a second measurement
// (translation.h: count_aligned) from the same decoding.
void tally_held_out(const Seq2SeqModel& m, const Seq2SeqPair* first, size_t n, HeldOutTally* c,
                    const std::function<void(size_t, const std::vector<int>&, const Seq2SeqTrace&)>& each = {});
// A set counted a slice at a time (a frame's share of an evaluation): the first pair not counted yet, and the
// counts so far.
struct HeldOutProgress {
  size_t next = 0;
  HeldOutTally tally;
};
// Counts up to `slice` more of the `count` pairs from `pairs` (`each` as tally_held_out's, with the pair's index
// in the whole set); true once every pair is counted.
bool tally_slice(const Seq2SeqModel& m, const Seq2SeqPair* pairs, size_t count, size_t slice, HeldOutProgress* p,
                 const std::function<void(size_t, const std::vector<int>&, const Seq2SeqTrace&)>& each = {});
// The same and, in one pass, the share of whole sentences decoded right (EOS in its place).
void held_out_scores(const Seq2SeqModel& m, const std::vector<Seq2SeqPair>& pairs, double* tokens, double* sentences);

// Held-out accuracy against source length (the shape of Bahdanau et al.'s Figure 2): for each length L of
// `lengths`, `per_length` pairs made by make(L, k), greedy-decoded; token accuracy as token_accuracy, and the
// share of whole sentences decoded right.
struct LengthAccuracy {
  std::vector<int> lengths;
  std::vector<double> token, sentence;
};
LengthAccuracy accuracy_by_length(const Seq2SeqModel& m, const std::vector<int>& lengths, int per_length,
                                  const std::function<Seq2SeqPair(int length, uint64_t k)>& make);

}  // namespace train
}  // namespace ap
