// Before self-attention: the Seq2Seq bottleneck, Bahdanau (additive) and Luong (multiplicative) attention
// over the states of an RNN encoder. The numeric core of the lesson path's first scenes.
//
//   Seq2Seq:   h_t = tanh(W_x x_t + W_h h_{t-1} + b),  c = last h       the whole source in ONE vector
//   Bahdanau:  e_tj = v_aᵀ tanh(W_a s_{t-1} + U_a h_j)                   attend with the PREVIOUS state
//   Luong:     e_tj = s_tᵀ h_j | s_tᵀ W_a h_j | v_aᵀ tanh(W_a [s_t; h_j]) attend with the CURRENT state
//   both:      α_t = softmax(e_t),  c_t = Σ_j α_tj h_j                    a new context vector every step
//
// NOTHING HERE IS TRAINED. Every weight is a seeded Gaussian (seeded_gaussian, embedding.h): the same seed
// gives the same numbers on every platform. The scenes show how these models *compute*; an untrained
// alignment is not a translation alignment, and there is no output layer (nothing to predict words with).
//
// Conventions
//   Formulas use column vectors; sequences are matrices whose row t is step t's vector (Mat is row-major,
//   matrix.h), so H.row(j) is h_jᵀ. Arrays count from 0: array row k is the lecture's step t = k+1.
//   Sizes: n source tokens, d_in source embedding width, d_h encoder RNN width, d_enc width of an encoder
//   state h_j (d_h, or 2·d_h when bidirectional), T decoder steps, d_y target embedding width, d_s decoder
//   state width, d_a width of the attention's hidden layer.
//   Every entry point validates its inputs (sizes, shapes, finite values within limits::kMaxAbsValue) and
//   returns a Status; on error its output is left untouched.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "matrix.h"

namespace ap {

// The seeded streams of the sequence models (here and core/bottleneck_probe.h), far from projection_weights'
// ('Q' << 32 | head) ^ 0xA5A5A5A5 streams: group g's k-th draw.
namespace s2s_streams {
constexpr uint64_t kStreamBase = 0x5E25E0000000ull;
constexpr uint64_t stream_of(uint64_t group, uint64_t k) { return kStreamBase + group * 64 + k; }
constexpr uint64_t kGroupBahdanau = 1u << 20, kGroupLuong = 2u << 20, kGroupProbe = 3u << 20;
}  // namespace s2s_streams

namespace s2s_limits {
constexpr int kMaxHidden = 256;     // d_h, d_s, d_a. A bidirectional state (2·d_h) stays within kMaxModelDim.
constexpr double kMaxGain = 2.0;    // recurrent gain g of W_h (see make_rnn_weights)
}  // namespace s2s_limits

// One learnable parameter as a scene lists it: "U_a  16 × 32".
struct ParamShape {
  std::string name;
  int rows = 0, cols = 0;
};

// ---- Elman RNN encoder ---------------------------------------------------------------------------------------

struct RnnWeights {
  int d_in = 0, d_h = 0;
  Mat Wx;  // d_h × d_in
  Mat Wh;  // d_h × d_h
  Vec b;   // d_h
};

// Seeded weights, `stream` separating independent RNNs built from one seed (forward / backward):
//   W_x ~ N(0, 1/d_in)     W_x x has unit-variance entries when x has them
//   W_h ~ N(0, g²/d_h)     a random d_h × d_h matrix with this variance has spectral radius ≈ g (circular
//                          law): g < 1 makes old inputs fade step by step (the RNN "forgets the beginning"),
//                          g > 1 drives units into tanh saturation. 0 <= g <= kMaxGain.
//   b   ~ N(0, 0.1²)
Status make_rnn_weights(int d_in, int d_h, double gain, uint64_t seed, uint64_t stream, RnnWeights* w);

// X: n × d_in (row t = x_t).  h_{-1} = 0.
//   forward:  t = 0, 1, …, n-1:   a_t = W_x x_t + W_h h_{t-1} + b,   h_t = tanh(a_t)
//   reverse:  t = n-1, …, 0, with h_{t+1} in place of h_{t-1}: row j is ←h_j, the state after reading
//             x_{n-1} … x_j (the backward half of a bidirectional encoder).
struct RnnTrace {
  int n = 0, d_in = 0, d_h = 0;
  bool reverse = false;
  Mat pre;  // n × d_h   a_t, before tanh
  Mat H;    // n × d_h   h_t = tanh(a_t)
  Vec last; // d_h       the state after the last step read: h_{n-1} forward (Seq2Seq's c), ←h_0 reverse
};
// Every matrix of `w` has the sizes it declares (a scene may edit weights by hand), finite; the names are used
// in the message (W_x, →W_x …).
Status check_rnn_weights(const RnnWeights& w, const char* wx, const char* wh, const char* b);
Status rnn_encode(const Mat& X, const RnnWeights& w, bool reverse, RnnTrace* out);

// Bidirectional: two independent RNNs, one reading left to right, one right to left; h_j = [→h_j; ←h_j],
// so each position's state sees the whole sentence, centred on x_j (Bahdanau et al.'s encoder).
struct BiRnnWeights {
  RnnWeights fwd, bwd;  // same d_in and d_h
};
Status make_birnn_weights(int d_in, int d_h, double gain, uint64_t seed, BiRnnWeights* w);

struct BiRnnTrace {
  RnnTrace fwd, bwd;  // bwd.reverse == true
  Mat H;              // n × 2·d_h   row j = [→h_j, ←h_j]
};
Status birnn_encode(const Mat& X, const BiRnnWeights& w, BiRnnTrace* out);

// ---- shared by both decoders ---------------------------------------------------------------------------------
//
// Teacher forcing: the decoder reads the REFERENCE target words, not its own guesses (it has no output layer
// to guess with). Y_prev: T × d_y, row k = y_{t-1} for step t = k+1, i.e. the embedding of the target word
// before that step (row 0: a start-of-sentence token).
// Initial state: s_0 = tanh(W_init · h̄), h̄ = mean_j h_j, a summary of the source. (Bahdanau et al. use the
// backward state ←h_1; the mean works for any H, bidirectional or not.)

// ---- Bahdanau (additive) attention ---------------------------------------------------------------------------

// The four widths of an attention decoder: encoder states h_j (d_enc), target embeddings y (d_y), decoder
// state s (d_s), the attention's hidden layer (d_a).
struct DecoderSizes {
  int d_enc = 0, d_y = 0, d_s = 0, d_a = 0;
};

struct BahdanauWeights : DecoderSizes {
  Mat Wa;      // d_a × d_s              query side: W_a s_{t-1}
  Mat Ua;      // d_a × d_enc            key side:   U_a h_j
  Vec va;      // d_a                    e_tj = v_aᵀ tanh(W_a s_{t-1} + U_a h_j)
  Mat W_init;  // d_s × d_enc            s_0 = tanh(W_init h̄)
  Mat Ws;      // d_s × d_s              decoder recurrence
  Mat Win;     // d_s × (d_y + d_enc)    decoder input [y_{t-1}; c_t]: first d_y columns read y, the rest c
  Vec bs;      // d_s
};

// Seeded: W_a ~ N(0, 1/d_s), U_a ~ N(0, 1/d_enc), W_init ~ N(0, 1/d_enc), W_in ~ N(0, 1/(d_y + d_enc)),
// W_s ~ N(0, 0.9²/d_s), b_s ~ N(0, 0.1²), v_a ~ N(0, 4/d_a): tanh outputs have |·| < 1, so with this v_a
// the scores e_tj have a standard deviation near 1 whatever d_a (the same reason as 1/√d_k): soft but not
// uniform weights.
Status make_bahdanau_weights(int d_enc, int d_y, int d_s, int d_a, uint64_t seed, BahdanauWeights* w);

// W_a, U_a, v_a, W_init, W_s, W_in, b_s with their shapes (vectors as d × 1).
std::vector<ParamShape> bahdanau_param_shapes(const BahdanauWeights& w);

// One attention step for a given previous state s_{t-1} (d_s) over H (n × d_enc).
struct BahdanauAttend {
  Vec query;   // W_a s_{t-1}                                          d_a
  Mat keys;    // U_a h_j, row j                                       n × d_a
  Mat hidden;  // tanh(W_a s_{t-1} + U_a h_j), row j                   n × d_a
  Vec e;       // e_tj = v_aᵀ hidden_j                                 n
  Vec alpha;   // softmax(e): >= 0, sums to 1                          n
  float e_max = 0, exp_sum = 0;  // max_j e_j and Σ_j exp(e_j − max): α_j = exp(e_j − max) / exp_sum
  Vec c;       // Σ_j α_tj h_j: a convex combination of the rows of H  d_enc
};
Status bahdanau_attend(const Vec& s_prev, const Mat& H, const BahdanauWeights& w, BahdanauAttend* out);

// A whole decoding run. Step t = k+1 (array row k):
//   1) attend with s_{t-1}: e_t, α_t, c_t       (the keys U_a h_j are computed once for all steps)
//   2) s_t = tanh(W_s s_{t-1} + W_in [y_{t-1}; c_t] + b_s)
struct BahdanauRun {
  int n = 0, T = 0;
  Vec s0;                          // d_s
  Mat queries;                     // T × d_s     row k = s_{t-1}, the state step t attends with
  Mat scores;                      // T × n       row k = e_t
  Mat alignment;                   // T × n       row k = α_t (the alignment heatmap)
  Vec score_max, exp_sum;          // T           max_j e_tj and Σ_j exp(e_tj − max): α_t's softmax
  Mat contexts;                    // T × d_enc   row k = c_t
  Mat states;                      // T × d_s     row k = s_t
  std::vector<ParamShape> params;  // bahdanau_param_shapes(w)
};
Status bahdanau_decode(const Mat& H, const Mat& Y_prev, const BahdanauWeights& w, BahdanauRun* out);

// ---- Luong (multiplicative) attention ------------------------------------------------------------------------

enum class LuongScore { Dot, General, Concat };
const char* luong_score_name(LuongScore k);  // "dot", "general", "concat"
bool parse_luong_score_name(const std::string& s, LuongScore* out);
// The score functions defined for these sizes: dot needs d_s == d_enc (s_tᵀ h_j); general and concat always.
std::vector<LuongScore> luong_available_scores(int d_s, int d_enc);

struct LuongWeights : DecoderSizes {
  Mat Wa_general;  // d_s × d_enc              e_tj = s_tᵀ W_a h_j
  Mat Wa_concat;   // d_a × (d_s + d_enc)      e_tj = v_aᵀ tanh(W_a [s_t; h_j]): first d_s columns read s_t
  Vec va_concat;   // d_a
  Mat Wc;          // d_s × (d_enc + d_s)      attentional state h̃_t = tanh(W_c [c_t; s_t])
  Mat W_init;      // d_s × d_enc              s_0 = tanh(W_init h̄)
  Mat Ws;          // d_s × d_s                decoder recurrence
  Mat Wy;          // d_s × d_y                decoder input y_{t-1}
  Vec bs;          // d_s
};

// Seeded like Bahdanau's: W_a(general) ~ N(0, 1/d_enc) (scores on the scale of the dot score),
// W_a(concat) ~ N(0, 1/(d_s + d_enc)), v_a ~ N(0, 4/d_a), W_c ~ N(0, 1/(d_enc + d_s)), W_init ~ N(0, 1/d_enc),
// W_s ~ N(0, 0.9²/d_s), W_y ~ N(0, 1/d_y), b_s ~ N(0, 0.1²).
Status make_luong_weights(int d_enc, int d_y, int d_s, int d_a, uint64_t seed, LuongWeights* w);
std::vector<ParamShape> luong_param_shapes(const LuongWeights& w);

// One attention step for a given current state s_t (d_s) over H (n × d_enc), for one score function.
struct LuongAttend {
  LuongScore kind = LuongScore::Dot;
  Vec query;   // what meets h_j: dot s_t (d_s = d_enc); general W_aᵀ s_t (d_enc); concat W_a^s s_t (d_a)
  Mat hidden;  // concat only: tanh(W_a [s_t; h_j]), row j    n × d_a (empty otherwise)
  Vec e;       // n
  Vec alpha;   // n, sums to 1
  float e_max = 0, exp_sum = 0;  // max_j e_j and Σ_j exp(e_j − max)
  Vec c;       // d_enc
};
// `kinds` lists the score functions to compute, in that order (at least one; dot only if d_s == d_enc).
Status luong_attend(const Vec& s, const Mat& H, const LuongWeights& w, const std::vector<LuongScore>& kinds,
                    std::vector<LuongAttend>* out);

// A whole decoding run. Step t = k+1 (array row k):
//   1) s_t = tanh(W_s s_{t-1} + W_y y_{t-1} + b_s)   compute the state FIRST (no input feeding: the states
//                                                    do not depend on the score, so the alignments of the
//                                                    score functions differ only by the score)
//   2) then, for each score function: attend with s_t: e_t, α_t, c_t, and h̃_t = tanh(W_c [c_t; s_t])
struct LuongScoreRun {
  LuongScore kind = LuongScore::Dot;
  Mat scores;       // T × n       row k = e_t
  Mat alignment;    // T × n       row k = α_t
  Vec score_max;    // T           max_j e_tj
  Vec exp_sum;      // T           Σ_j exp(e_tj − max): α_tj = exp(e_tj − max) / exp_sum
  Mat contexts;     // T × d_enc   row k = c_t
  Mat attentional;  // T × d_s     row k = h̃_t
};
struct LuongRun {
  int n = 0, T = 0;
  Vec s0;                          // d_s
  Mat states;                      // T × d_s   row k = s_t (also the query of step t)
  std::vector<LuongScoreRun> runs; // one per requested score function, in the order given
  std::vector<ParamShape> params;  // luong_param_shapes(w)
};
Status luong_decode(const Mat& H, const Mat& Y_prev, const LuongWeights& w, const std::vector<LuongScore>& kinds,
                    LuongRun* out);

}  // namespace ap
