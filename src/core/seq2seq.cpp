#include "seq2seq.h"

#include <algorithm>
#include <cmath>

#include "attention.h"
#include "embedding.h"

namespace ap {

namespace {

using s2s_streams::kGroupBahdanau;
using s2s_streams::kGroupLuong;
using s2s_streams::stream_of;

double inv_sqrt(int d) { return 1.0 / std::sqrt(static_cast<double>(d)); }

Vec seeded_vec(int n, uint64_t seed, uint64_t stream, double stddev) {
  return seeded_gaussian(n, 1, seed, stream, stddev).col(0);
}

Status check_vec(const Vec& v, const char* name, int expect, int max) {
  return check_matrix(Mat(v), name, expect, 1, max, 1);
}

// The recurrence itself, inputs already validated. XW = X·W_xᵀ for all steps at once (one matrix product
// instead of n matrix-vector products); only W_h h_{t-1} must wait for the previous step — the O(n)
// sequential operations of an RNN.
RnnTrace run_rnn(const Mat& X, const RnnWeights& w, bool reverse) {
  const int n = static_cast<int>(X.rows());
  RnnTrace t;
  t.n = n;
  t.d_in = w.d_in;
  t.d_h = w.d_h;
  t.reverse = reverse;
  Mat XW;
  XW.noalias() = X * w.Wx.transpose();  // n × d_in · d_in × d_h -> n × d_h
  t.pre.resize(n, w.d_h);
  t.H.resize(n, w.d_h);
  Vec h = Vec::Zero(w.d_h);
  for (int k = 0; k < n; ++k) {
    const int s = reverse ? n - 1 - k : k;
    Vec a = XW.row(s).transpose() + w.b;
    a.noalias() += w.Wh * h;
    h = a.array().tanh().matrix();  // tanh keeps every state in (-1, 1): no blow-up however long the input
    t.pre.row(s) = a.transpose();
    t.H.row(s) = h.transpose();
  }
  t.last = h;
  return t;
}

// α = softmax(e), with what it was made of: max_j e_j and Σ_j exp(e_j − max) (a hovered weight shows them).
Vec softmax_vec(const Vec& e, float* e_max, float* exp_sum) {
  // softmax_rows subtracts the maximum first, so exp never overflows whatever the scores' scale
  SoftmaxTrace sm;
  const Status s = softmax_rows(Mat(e.transpose()), &sm);
  (void)s;  // cannot fail: e is finite and non-empty (checked by every caller)
  *e_max = sm.row_max(0);
  *exp_sum = sm.row_sum(0);
  return sm.weights.row(0).transpose();
}

Vec source_summary(const Mat& H) { return H.colwise().mean().transpose(); }  // h̄ = mean_j h_j

// The decoder's widths, each checked against its limit (the embeddings' and encoder's kMaxModelDim, the
// recurrent and attention layers' kMaxHidden) before any weight is drawn or read.
Status check_sizes(const DecoderSizes& w) {
  AP_TRY(check_size(w.d_enc, "d_enc", limits::kMaxModelDim));
  AP_TRY(check_size(w.d_y, "d_y", limits::kMaxModelDim));
  AP_TRY(check_size(w.d_s, "d_s", s2s_limits::kMaxHidden));
  AP_TRY(check_size(w.d_a, "d_a", s2s_limits::kMaxHidden));
  return Status::Ok();
}

Status check_bahdanau(const BahdanauWeights& w) {
  AP_TRY(check_sizes(w));
  const int big = limits::kMaxModelDim + s2s_limits::kMaxHidden;
  AP_TRY(check_matrix(w.Wa, "W_a", w.d_a, w.d_s, big, big));
  AP_TRY(check_matrix(w.Ua, "U_a", w.d_a, w.d_enc, big, big));
  AP_TRY(check_vec(w.va, "v_a", w.d_a, big));
  AP_TRY(check_matrix(w.W_init, "W_init", w.d_s, w.d_enc, big, big));
  AP_TRY(check_matrix(w.Ws, "W_s", w.d_s, w.d_s, big, big));
  AP_TRY(check_matrix(w.Win, "W_in", w.d_s, w.d_y + w.d_enc, big, 2 * limits::kMaxModelDim));
  AP_TRY(check_vec(w.bs, "b_s", w.d_s, big));
  return Status::Ok();
}

Status check_luong(const LuongWeights& w) {
  AP_TRY(check_sizes(w));
  const int big = limits::kMaxModelDim + s2s_limits::kMaxHidden;
  AP_TRY(check_matrix(w.Wa_general, "W_a (general)", w.d_s, w.d_enc, big, big));
  AP_TRY(check_matrix(w.Wa_concat, "W_a (concat)", w.d_a, w.d_s + w.d_enc, big, big));
  AP_TRY(check_vec(w.va_concat, "v_a (concat)", w.d_a, big));
  AP_TRY(check_matrix(w.Wc, "W_c", w.d_s, w.d_enc + w.d_s, big, big));
  AP_TRY(check_matrix(w.W_init, "W_init", w.d_s, w.d_enc, big, big));
  AP_TRY(check_matrix(w.Ws, "W_s", w.d_s, w.d_s, big, big));
  AP_TRY(check_matrix(w.Wy, "W_y", w.d_s, w.d_y, big, big));
  AP_TRY(check_vec(w.bs, "b_s", w.d_s, big));
  return Status::Ok();
}

Status check_encoder_states(const Mat& H, int d_enc) {
  return check_matrix(H, "H", -1, d_enc, limits::kMaxTokens, limits::kMaxModelDim);
}

// One Bahdanau step with the keys U_a h_j given (computed once per run).
BahdanauAttend additive_step(const Vec& s_prev, const Mat& H, const Mat& keys, const BahdanauWeights& w) {
  BahdanauAttend a;
  // 1) query side, once per step: W_a s_{t-1}                               d_a × d_s · d_s -> d_a
  a.query.noalias() = w.Wa * s_prev;
  // 2) add to every key and squash: hidden_j = tanh(W_a s_{t-1} + U_a h_j)   n × d_a
  a.hidden = (keys.rowwise() + a.query.transpose()).array().tanh().matrix();
  // 3) score: e_j = v_aᵀ hidden_j                                             n × d_a · d_a -> n
  a.e.noalias() = a.hidden * w.va;
  // 4) weights: softmax over the source positions
  a.alpha = softmax_vec(a.e, &a.e_max, &a.exp_sum);
  // 5) context: c = Σ_j α_j h_j = Hᵀ α                                         d_enc × n · n -> d_enc
  a.c.noalias() = H.transpose() * a.alpha;
  a.keys = keys;
  return a;
}

// One Luong step (inputs validated). dot/general reduce to one matrix-vector product over H by moving the
// weight to the query side once: s_tᵀ W_a h_j = (W_aᵀ s_t)ᵀ h_j, O(d_s·d_enc + n·d_enc) instead of
// O(n·d_s·d_enc). concat splits W_a = [W_a^s | W_a^h] so W_a [s_t; h_j] = W_a^s s_t + W_a^h h_j, and
// W_a^h h_j (keys_concat) does not depend on t.
LuongAttend luong_step(const Vec& s, const Mat& H, const LuongWeights& w, LuongScore kind,
                       const Mat& keys_concat) {
  LuongAttend a;
  a.kind = kind;
  if (kind == LuongScore::Dot) {
    a.query = s;
    a.e.noalias() = H * s;  // e_j = s_tᵀ h_j            n × d_enc · d_enc -> n
  } else if (kind == LuongScore::General) {
    a.query.noalias() = w.Wa_general.transpose() * s;  // W_aᵀ s_t   d_enc × d_s · d_s -> d_enc
    a.e.noalias() = H * a.query;                       // e_j = (W_aᵀ s_t)ᵀ h_j
  } else {
    a.query.noalias() = w.Wa_concat.leftCols(w.d_s) * s;  // W_a^s s_t   d_a
    a.hidden = (keys_concat.rowwise() + a.query.transpose()).array().tanh().matrix();  // n × d_a
    a.e.noalias() = a.hidden * w.va_concat;  // e_j = v_aᵀ tanh(W_a [s_t; h_j])
  }
  a.alpha = softmax_vec(a.e, &a.e_max, &a.exp_sum);
  a.c.noalias() = H.transpose() * a.alpha;
  return a;
}

Status check_kinds(const std::vector<LuongScore>& kinds, const LuongWeights& w) {
  if (kinds.empty()) return Status::Error("choose at least one score function");
  for (LuongScore k : kinds)
    if (k == LuongScore::Dot && w.d_s != w.d_enc)
      return Status::Error("the dot score needs the decoder state and the encoder states to have the same size, got d_s = {0} and d_enc = {1}",
                           {arg(w.d_s), arg(w.d_enc)});
  return Status::Ok();
}

Mat concat_keys(const Mat& H, const LuongWeights& w) {
  Mat keys;
  keys.noalias() = H * w.Wa_concat.rightCols(w.d_enc).transpose();  // row j = (W_a^h h_j)ᵀ   n × d_a
  return keys;
}

}  // namespace

// ---- encoder -------------------------------------------------------------------------------------------------

Status check_rnn_weights(const RnnWeights& w, const char* wx, const char* wh, const char* b) {
  AP_TRY(check_size(w.d_in, "d_in", limits::kMaxModelDim));
  AP_TRY(check_size(w.d_h, "d_h", s2s_limits::kMaxHidden));
  AP_TRY(check_matrix(w.Wx, wx, w.d_h, w.d_in, s2s_limits::kMaxHidden, limits::kMaxModelDim));
  AP_TRY(check_matrix(w.Wh, wh, w.d_h, w.d_h, s2s_limits::kMaxHidden, s2s_limits::kMaxHidden));
  AP_TRY(check_vec(w.b, b, w.d_h, s2s_limits::kMaxHidden));
  return Status::Ok();
}


Status make_rnn_weights(int d_in, int d_h, double gain, uint64_t seed, uint64_t stream, RnnWeights* w) {
  AP_TRY(check_size(d_in, "d_in", limits::kMaxModelDim));
  AP_TRY(check_size(d_h, "d_h", s2s_limits::kMaxHidden));
  AP_TRY(check_in_range(gain, "the recurrent gain", 0.0, s2s_limits::kMaxGain));
  RnnWeights out;
  out.d_in = d_in;
  out.d_h = d_h;
  out.Wx = seeded_gaussian(d_h, d_in, seed, stream_of(stream, 0), inv_sqrt(d_in));
  out.Wh = seeded_gaussian(d_h, d_h, seed, stream_of(stream, 1), gain * inv_sqrt(d_h));
  out.b = seeded_vec(d_h, seed, stream_of(stream, 2), 0.1);
  *w = std::move(out);
  return Status::Ok();
}

Status rnn_encode(const Mat& X, const RnnWeights& w, bool reverse, RnnTrace* out) {
  AP_TRY(check_rnn_weights(w, "W_x", "W_h", "b"));
  AP_TRY(check_matrix(X, "X", -1, w.d_in, limits::kMaxTokens, limits::kMaxModelDim));
  *out = run_rnn(X, w, reverse);
  return Status::Ok();
}

Status make_birnn_weights(int d_in, int d_h, double gain, uint64_t seed, BiRnnWeights* w) {
  BiRnnWeights out;
  AP_TRY(make_rnn_weights(d_in, d_h, gain, seed, 1, &out.fwd));
  AP_TRY(make_rnn_weights(d_in, d_h, gain, seed, 2, &out.bwd));
  *w = std::move(out);
  return Status::Ok();
}

Status birnn_encode(const Mat& X, const BiRnnWeights& w, BiRnnTrace* out) {
  AP_TRY(check_rnn_weights(w.fwd, "→W_x", "→W_h", "→b"));
  AP_TRY(check_rnn_weights(w.bwd, "←W_x", "←W_h", "←b"));
  if (w.fwd.d_in != w.bwd.d_in || w.fwd.d_h != w.bwd.d_h)
    return Status::Error("the two directions differ in size: {0} × {1} forward, {2} × {3} backward",
                         {arg(w.fwd.d_h), arg(w.fwd.d_in), arg(w.bwd.d_h), arg(w.bwd.d_in)});
  AP_TRY(check_matrix(X, "X", -1, w.fwd.d_in, limits::kMaxTokens, limits::kMaxModelDim));
  BiRnnTrace t;
  // 1) two independent passes over the same X: left to right, right to left
  t.fwd = run_rnn(X, w.fwd, false);
  t.bwd = run_rnn(X, w.bwd, true);
  // 2) join per position: h_j = [→h_j; ←h_j]                                  n × 2·d_h
  const int d_h = w.fwd.d_h;
  t.H.resize(X.rows(), 2 * d_h);
  t.H.leftCols(d_h) = t.fwd.H;
  t.H.rightCols(d_h) = t.bwd.H;
  *out = std::move(t);
  return Status::Ok();
}

// ---- Bahdanau ------------------------------------------------------------------------------------------------

Status make_bahdanau_weights(int d_enc, int d_y, int d_s, int d_a, uint64_t seed, BahdanauWeights* w) {
  BahdanauWeights out;
  static_cast<DecoderSizes&>(out) = DecoderSizes{d_enc, d_y, d_s, d_a};
  AP_TRY(check_sizes(out));
  const uint64_t g = kGroupBahdanau;
  out.Wa = seeded_gaussian(d_a, d_s, seed, stream_of(g, 0), inv_sqrt(d_s));
  out.Ua = seeded_gaussian(d_a, d_enc, seed, stream_of(g, 1), inv_sqrt(d_enc));
  out.va = seeded_vec(d_a, seed, stream_of(g, 2), 2.0 * inv_sqrt(d_a));
  out.W_init = seeded_gaussian(d_s, d_enc, seed, stream_of(g, 3), inv_sqrt(d_enc));
  out.Ws = seeded_gaussian(d_s, d_s, seed, stream_of(g, 4), 0.9 * inv_sqrt(d_s));
  out.Win = seeded_gaussian(d_s, d_y + d_enc, seed, stream_of(g, 5), inv_sqrt(d_y + d_enc));
  out.bs = seeded_vec(d_s, seed, stream_of(g, 6), 0.1);
  *w = std::move(out);
  return Status::Ok();
}

std::vector<ParamShape> bahdanau_param_shapes(const BahdanauWeights& w) {
  return {{"W_a", w.d_a, w.d_s},       {"U_a", w.d_a, w.d_enc}, {"v_a", w.d_a, 1},
          {"W_init", w.d_s, w.d_enc},  {"W_s", w.d_s, w.d_s},   {"W_in", w.d_s, w.d_y + w.d_enc},
          {"b_s", w.d_s, 1}};
}

Status bahdanau_attend(const Vec& s_prev, const Mat& H, const BahdanauWeights& w, BahdanauAttend* out) {
  AP_TRY(check_bahdanau(w));
  AP_TRY(check_vec(s_prev, "s_{t-1}", w.d_s, s2s_limits::kMaxHidden));
  AP_TRY(check_encoder_states(H, w.d_enc));
  Mat keys;
  keys.noalias() = H * w.Ua.transpose();  // row j = (U_a h_j)ᵀ      n × d_enc · d_enc × d_a -> n × d_a
  *out = additive_step(s_prev, H, keys, w);
  return Status::Ok();
}

Status bahdanau_decode(const Mat& H, const Mat& Y_prev, const BahdanauWeights& w, BahdanauRun* out) {
  AP_TRY(check_bahdanau(w));
  AP_TRY(check_encoder_states(H, w.d_enc));
  AP_TRY(check_matrix(Y_prev, "Y_prev", -1, w.d_y, limits::kMaxTokens, limits::kMaxModelDim));
  const int n = static_cast<int>(H.rows()), T = static_cast<int>(Y_prev.rows());
  BahdanauRun r;
  r.n = n;
  r.T = T;
  r.queries.resize(T, w.d_s);
  r.scores.resize(T, n);
  r.alignment.resize(T, n);
  r.score_max.resize(T);
  r.exp_sum.resize(T);
  r.contexts.resize(T, w.d_enc);
  r.states.resize(T, w.d_s);
  r.params = bahdanau_param_shapes(w);
  // 1) keys U_a h_j: they do not depend on the step, so once per run (saves T·n·d_a·d_enc multiply-adds)
  Mat keys;
  keys.noalias() = H * w.Ua.transpose();
  // 2) initial state from the source summary: s_0 = tanh(W_init h̄)
  r.s0 = (w.W_init * source_summary(H)).array().tanh().matrix();
  Vec s = r.s0;
  Vec input(w.d_y + w.d_enc);
  for (int k = 0; k < T; ++k) {
    // 3) attend with the PREVIOUS state s_{t-1}: e_t, α_t, c_t
    const BahdanauAttend a = additive_step(s, H, keys, w);
    r.queries.row(k) = s.transpose();
    r.scores.row(k) = a.e.transpose();
    r.alignment.row(k) = a.alpha.transpose();
    r.score_max(k) = a.e_max;
    r.exp_sum(k) = a.exp_sum;
    r.contexts.row(k) = a.c.transpose();
    // 4) update the state from [y_{t-1}; c_t]: s_t = tanh(W_s s_{t-1} + W_in [y_{t-1}; c_t] + b_s)
    input.head(w.d_y) = Y_prev.row(k).transpose();
    input.tail(w.d_enc) = a.c;
    Vec pre = w.bs;
    pre.noalias() += w.Ws * s;
    pre.noalias() += w.Win * input;
    s = pre.array().tanh().matrix();
    r.states.row(k) = s.transpose();
  }
  *out = std::move(r);
  return Status::Ok();
}

// ---- Luong ---------------------------------------------------------------------------------------------------

const char* luong_score_name(LuongScore k) {
  switch (k) {
    case LuongScore::General: return "general";
    case LuongScore::Concat: return "concat";
    default: return "dot";
  }
}

bool parse_luong_score_name(const std::string& s, LuongScore* out) {
  if (s == "dot") *out = LuongScore::Dot;
  else if (s == "general") *out = LuongScore::General;
  else if (s == "concat") *out = LuongScore::Concat;
  else return false;
  return true;
}

std::vector<LuongScore> luong_available_scores(int d_s, int d_enc) {
  std::vector<LuongScore> v;
  if (d_s == d_enc) v.push_back(LuongScore::Dot);
  v.push_back(LuongScore::General);
  v.push_back(LuongScore::Concat);
  return v;
}

Status make_luong_weights(int d_enc, int d_y, int d_s, int d_a, uint64_t seed, LuongWeights* w) {
  LuongWeights out;
  static_cast<DecoderSizes&>(out) = DecoderSizes{d_enc, d_y, d_s, d_a};
  AP_TRY(check_sizes(out));
  const uint64_t g = kGroupLuong;
  out.Wa_general = seeded_gaussian(d_s, d_enc, seed, stream_of(g, 0), inv_sqrt(d_enc));
  out.Wa_concat = seeded_gaussian(d_a, d_s + d_enc, seed, stream_of(g, 1), inv_sqrt(d_s + d_enc));
  out.va_concat = seeded_vec(d_a, seed, stream_of(g, 2), 2.0 * inv_sqrt(d_a));
  out.Wc = seeded_gaussian(d_s, d_enc + d_s, seed, stream_of(g, 3), inv_sqrt(d_enc + d_s));
  out.W_init = seeded_gaussian(d_s, d_enc, seed, stream_of(g, 4), inv_sqrt(d_enc));
  out.Ws = seeded_gaussian(d_s, d_s, seed, stream_of(g, 5), 0.9 * inv_sqrt(d_s));
  out.Wy = seeded_gaussian(d_s, d_y, seed, stream_of(g, 6), inv_sqrt(d_y));
  out.bs = seeded_vec(d_s, seed, stream_of(g, 7), 0.1);
  *w = std::move(out);
  return Status::Ok();
}

std::vector<ParamShape> luong_param_shapes(const LuongWeights& w) {
  return {{"W_a (general)", w.d_s, w.d_enc}, {"W_a (concat)", w.d_a, w.d_s + w.d_enc},
          {"v_a (concat)", w.d_a, 1},        {"W_c", w.d_s, w.d_enc + w.d_s},
          {"W_init", w.d_s, w.d_enc},        {"W_s", w.d_s, w.d_s},
          {"W_y", w.d_s, w.d_y},             {"b_s", w.d_s, 1}};
}

Status luong_attend(const Vec& s, const Mat& H, const LuongWeights& w, const std::vector<LuongScore>& kinds,
                    std::vector<LuongAttend>* out) {
  AP_TRY(check_luong(w));
  AP_TRY(check_kinds(kinds, w));
  AP_TRY(check_vec(s, "s_t", w.d_s, s2s_limits::kMaxHidden));
  AP_TRY(check_encoder_states(H, w.d_enc));
  const Mat keys = concat_keys(H, w);
  std::vector<LuongAttend> v;
  for (LuongScore k : kinds) v.push_back(luong_step(s, H, w, k, keys));
  *out = std::move(v);
  return Status::Ok();
}

Status luong_decode(const Mat& H, const Mat& Y_prev, const LuongWeights& w, const std::vector<LuongScore>& kinds,
                    LuongRun* out) {
  AP_TRY(check_luong(w));
  AP_TRY(check_kinds(kinds, w));
  AP_TRY(check_encoder_states(H, w.d_enc));
  AP_TRY(check_matrix(Y_prev, "Y_prev", -1, w.d_y, limits::kMaxTokens, limits::kMaxModelDim));
  const int n = static_cast<int>(H.rows()), T = static_cast<int>(Y_prev.rows());
  LuongRun r;
  r.n = n;
  r.T = T;
  r.params = luong_param_shapes(w);
  // 1) the decoder states first: s_0 = tanh(W_init h̄), s_t = tanh(W_s s_{t-1} + W_y y_{t-1} + b_s)
  r.s0 = (w.W_init * source_summary(H)).array().tanh().matrix();
  r.states.resize(T, w.d_s);
  Vec s = r.s0;
  for (int k = 0; k < T; ++k) {
    Vec pre = w.bs;
    pre.noalias() += w.Ws * s;
    pre.noalias() += w.Wy * Y_prev.row(k).transpose();
    s = pre.array().tanh().matrix();
    r.states.row(k) = s.transpose();
  }
  // 2) then attend with each CURRENT state s_t, once per score function
  const Mat keys = concat_keys(H, w);  // W_a^h h_j, shared by every step
  Vec joined(w.d_enc + w.d_s);
  for (LuongScore kind : kinds) {
    LuongScoreRun sr;
    sr.kind = kind;
    sr.scores.resize(T, n);
    sr.alignment.resize(T, n);
    sr.score_max.resize(T);
    sr.exp_sum.resize(T);
    sr.contexts.resize(T, w.d_enc);
    sr.attentional.resize(T, w.d_s);
    for (int k = 0; k < T; ++k) {
      const Vec st = r.states.row(k).transpose();
      const LuongAttend a = luong_step(st, H, w, kind, keys);
      sr.scores.row(k) = a.e.transpose();
      sr.alignment.row(k) = a.alpha.transpose();
      sr.score_max(k) = a.e_max;
      sr.exp_sum(k) = a.exp_sum;
      sr.contexts.row(k) = a.c.transpose();
      // 3) attentional state h̃_t = tanh(W_c [c_t; s_t]): what Luong et al. predict y_t from
      joined.head(w.d_enc) = a.c;
      joined.tail(w.d_s) = st;
      sr.attentional.row(k) = (w.Wc * joined).array().tanh().matrix().transpose();
    }
    r.runs.push_back(std::move(sr));
  }
  *out = std::move(r);
  return Status::Ok();
}

}  // namespace ap
