// The bottleneck probe (the lesson's first scene): how much of a sentence survives in Seq2Seq's single
// vector c, against what an attention reader of every encoder state could get. Shapes and the method below;
// the encoder is core/seq2seq.h's Elman RNN.
#pragma once
#include <vector>

#include "seq2seq.h"

namespace ap {

// ---- the bottleneck probe ------------------------------------------------------------------------------------
//
// How much of the source survives in Seq2Seq's single vector c, and how much could an attention reader get?
//   data:    n_train + n_test sentences of L_max tokens drawn uniformly from a seeded vocabulary of `vocab`
//            random embeddings (N(0, 1)^d_in). The sentences of length L are their first L tokens: the
//            encoder reads left to right, so a prefix's states are exactly the first L states of the long
//            sentence (encode once, not once per L), and every L is measured on the same sentences.
//   encoder: one seeded unidirectional RNN (d_in → d_h, gain g).
//   probes:  ridge regression, fitted on the training sentences and scored on the held-out ones:
//            bottleneck  c = h_{L-1} → x_j   for every position j < L (one fit per L, L·d_in outputs)
//            reader      h_j → x_j           one fit per position: a reader that has every state, as
//                                            attention has. h_j does not depend on later tokens, so the
//                                            reader's score at position j is the same for every L > j.
//   score:   R²_j = 1 − Σ‖x̂_j − x_j‖² / Σ‖x_j − x̄_j‖² over held-out sentences (x̄_j their mean), and the
//            mean cosine between x̂_j and x_j. A position the probe cannot read scores slightly BELOW 0
//            (about −d_h/n_train): fitted noise does worse than the mean on new sentences.
//   why it falls: c has d_h numbers for L·d_in source numbers. A linear read-out of d_h numbers explains at
//   most d_h of the L·d_in unit variances, so the mean R² over positions is at most about d_h / (L·d_in)
//   once L·d_in > d_h (4/L with the defaults) — the 信息瓶颈 — and g < 1 fades the first words sooner still:
//   with the defaults only the last three or four words survive in c.
//
// Ridge: minimise ‖F W − Y‖² + λ·n_train·‖W‖² over centred features F (d_h columns) and targets Y, i.e.
// solve (FᵀF + λ n_train I) W = Fᵀ Y by LDLT, in double. Centring replaces the intercept column, which would
// be nearly collinear with the non-zero means of tanh states; double because the normal equations square
// the condition number. λ = 1e-3 is 0.1% of a unit-variance feature's own energy: it keeps FᵀF + λN I
// positive definite when units saturate or duplicate each other, and changes a well-posed fit by about that.
//
// Budget: probe_work() estimates the multiply-adds (encoding N·L_max·d_h·(d_in + d_h); per L the bottleneck
// fit and its predictions, n_train·d_h² + N·d_h·L·d_in; per position the reader's fit). The defaults need
// 8.6e7: about 15 ms of CPU natively on one thread (a first call in a fresh process: 40–60 ms, mostly
// first-touch page faults, on a loaded machine), so a few times that in wasm. Configurations over
// kMaxProbeWork = 4e8 are refused, so the page stays responsive.
struct ProbeConfig {
  int d_in = 8;          // token embedding width
  int d_h = 32;          // encoder width: the size of c
  int vocab = 64;        // distinct random tokens
  int l_min = 2, l_max = 16;
  int n_train = 768;     // sentences for fitting
  int n_test = 256;      // held-out sentences for scoring
  double gain = 0.9;     // recurrent gain g (make_rnn_weights)
  double lambda = 1e-3;  // ridge strength, relative to n_train
  uint64_t seed = 7;
};

namespace probe_limits {
constexpr int kMaxInput = 64;         // d_in
constexpr int kMaxHidden = 128;       // d_h
constexpr int kMaxVocab = 4096;
constexpr int kMaxLength = 32;        // l_max
constexpr int kMaxSentences = 4096;   // n_train, n_test
constexpr double kMaxLambda = 1.0;
constexpr long long kMaxProbeWork = 400000000;  // multiply-adds
}  // namespace probe_limits

long long probe_work(const ProbeConfig& cfg);  // estimated multiply-adds (no validation)

// The probe's data, exposed so that tests can recompute the probe independently.
struct ProbeData {
  Mat embeddings;             // vocab × d_in
  RnnWeights encoder;         // d_in → d_h
  std::vector<int> train_ids; // n_train·L_max token ids, sentence by sentence
  std::vector<int> test_ids;  // n_test·L_max
};
Status make_probe_data(const ProbeConfig& cfg, ProbeData* out);

struct ProbeLength {
  int L = 0;
  std::vector<double> r2_final, r2_reader;    // per position j = 0 … L-1 (held out)
  std::vector<double> cos_final, cos_reader;  // per position: mean cos(x̂_j, x_j) over held-out sentences
  double mean_r2_final = 0, mean_r2_reader = 0, mean_cos_final = 0, mean_cos_reader = 0;  // over positions
};
// One length (l_min <= L <= l_max), from the first L tokens of `data`'s sentences.
Status probe_length(const ProbeConfig& cfg, const ProbeData& data, int L, ProbeLength* out);

struct BottleneckProbe {
  ProbeConfig config;
  long long work = 0;                // probe_work(config)
  std::vector<ProbeLength> lengths;  // L = l_min … l_max; lengths[k] equals probe_length(L = l_min + k)
};
Status bottleneck_probe(const ProbeConfig& cfg, BottleneckProbe* out);

}  // namespace ap
