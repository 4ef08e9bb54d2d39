#include "seq2seq.h"

#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>

#include "attention.h"
#include "embedding.h"

namespace ap {

namespace {

// Seeded streams of this unit, far from projection_weights' ('Q' << 32 | head) ^ 0xA5A5A5A5 streams.
constexpr uint64_t kStreamBase = 0x5E25E0000000ull;
uint64_t stream_of(uint64_t group, uint64_t k) { return kStreamBase + group * 64 + k; }
constexpr uint64_t kGroupBahdanau = 1u << 20, kGroupLuong = 2u << 20, kGroupProbe = 3u << 20;

double inv_sqrt(int d) { return 1.0 / std::sqrt(static_cast<double>(d)); }

Vec seeded_vec(int n, uint64_t seed, uint64_t stream, double stddev) {
  return seeded_gaussian(n, 1, seed, stream, stddev).col(0);
}

Status check_range(double v, const char* name, double lo, double hi) {
  if (!(v >= lo && v <= hi))  // also refuses NaN
    return Status::Error("{0} must be between {1} and {2}, got {3}",
                         {name, format_number(lo), format_number(hi), format_number(v)});
  return Status::Ok();
}

Status check_vec(const Vec& v, const char* name, int expect, int max) {
  return check_matrix(Mat(v), name, expect, 1, max, 1);
}

// All rows of a weight struct must match the sizes it declares (a scene may edit weights by hand).
Status check_rnn(const RnnWeights& w, const char* wx, const char* wh, const char* b) {
  AP_TRY(check_size(w.d_in, "d_in", limits::kMaxModelDim));
  AP_TRY(check_size(w.d_h, "d_h", s2s_limits::kMaxHidden));
  AP_TRY(check_matrix(w.Wx, wx, w.d_h, w.d_in, s2s_limits::kMaxHidden, limits::kMaxModelDim));
  AP_TRY(check_matrix(w.Wh, wh, w.d_h, w.d_h, s2s_limits::kMaxHidden, s2s_limits::kMaxHidden));
  AP_TRY(check_vec(w.b, b, w.d_h, s2s_limits::kMaxHidden));
  return Status::Ok();
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

Status check_bahdanau(const BahdanauWeights& w) {
  AP_TRY(check_size(w.d_enc, "d_enc", limits::kMaxModelDim));
  AP_TRY(check_size(w.d_y, "d_y", limits::kMaxModelDim));
  AP_TRY(check_size(w.d_s, "d_s", s2s_limits::kMaxHidden));
  AP_TRY(check_size(w.d_a, "d_a", s2s_limits::kMaxHidden));
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
  AP_TRY(check_size(w.d_enc, "d_enc", limits::kMaxModelDim));
  AP_TRY(check_size(w.d_y, "d_y", limits::kMaxModelDim));
  AP_TRY(check_size(w.d_s, "d_s", s2s_limits::kMaxHidden));
  AP_TRY(check_size(w.d_a, "d_a", s2s_limits::kMaxHidden));
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

Status make_rnn_weights(int d_in, int d_h, double gain, uint64_t seed, uint64_t stream, RnnWeights* w) {
  AP_TRY(check_size(d_in, "d_in", limits::kMaxModelDim));
  AP_TRY(check_size(d_h, "d_h", s2s_limits::kMaxHidden));
  AP_TRY(check_range(gain, "the recurrent gain", 0.0, s2s_limits::kMaxGain));
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
  AP_TRY(check_rnn(w, "W_x", "W_h", "b"));
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
  AP_TRY(check_rnn(w.fwd, "→W_x", "→W_h", "→b"));
  AP_TRY(check_rnn(w.bwd, "←W_x", "←W_h", "←b"));
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
  AP_TRY(check_size(d_enc, "d_enc", limits::kMaxModelDim));
  AP_TRY(check_size(d_y, "d_y", limits::kMaxModelDim));
  AP_TRY(check_size(d_s, "d_s", s2s_limits::kMaxHidden));
  AP_TRY(check_size(d_a, "d_a", s2s_limits::kMaxHidden));
  BahdanauWeights out;
  out.d_enc = d_enc;
  out.d_y = d_y;
  out.d_s = d_s;
  out.d_a = d_a;
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
  AP_TRY(check_size(d_enc, "d_enc", limits::kMaxModelDim));
  AP_TRY(check_size(d_y, "d_y", limits::kMaxModelDim));
  AP_TRY(check_size(d_s, "d_s", s2s_limits::kMaxHidden));
  AP_TRY(check_size(d_a, "d_a", s2s_limits::kMaxHidden));
  LuongWeights out;
  out.d_enc = d_enc;
  out.d_y = d_y;
  out.d_s = d_s;
  out.d_a = d_a;
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

// ---- bottleneck probe ----------------------------------------------------------------------------------------

long long probe_work(const ProbeConfig& c) {
  // in double, then clamped: any config, however absurd, gives a number (no integer overflow)
  const double N = static_cast<double>(c.n_train) + c.n_test, dh = c.d_h, din = c.d_in;
  const double fit = c.n_train * dh * dh + dh * dh * dh;  // Gram FᵀF + LDLT factorisation
  double work = N * c.l_max * dh * (din + dh);             // encoding, once
  const double lengths = std::max(0.0, static_cast<double>(c.l_max) - std::max(1, c.l_min) + 1);
  const double sum_L = lengths * (std::max(1, c.l_min) + static_cast<double>(c.l_max)) / 2;
  work += lengths * fit + N * dh * din * sum_L;            // bottleneck: fit, Fᵀ Y and predictions, per L
  work += c.l_max * (fit + N * dh * din);                  // reader: one fit per position
  return static_cast<long long>(std::min(std::max(work, 0.0), 9e18));
}

namespace {

Status check_probe_config(const ProbeConfig& c) {
  AP_TRY(check_size(c.d_in, "d_in", probe_limits::kMaxInput));
  AP_TRY(check_size(c.d_h, "d_h", probe_limits::kMaxHidden));
  AP_TRY(check_size(c.vocab, "the vocabulary size", probe_limits::kMaxVocab));
  AP_TRY(check_size(c.l_max, "L_max", probe_limits::kMaxLength));
  AP_TRY(check_size(c.l_min, "L_min", probe_limits::kMaxLength));
  if (c.l_min > c.l_max)
    return Status::Error("{0} ({1}) must not be larger than {2} ({3})", {"L_min", arg(c.l_min), "L_max", arg(c.l_max)});
  AP_TRY(check_size(c.n_train, "the number of training sentences", probe_limits::kMaxSentences));
  AP_TRY(check_size(c.n_test, "the number of held-out sentences", probe_limits::kMaxSentences));
  // with fewer than two sentences per fitted weight a probe mostly memorises its training sentences
  if (c.n_train < 2 * (c.d_h + 1))
    return Status::Error("{0} training sentences are too few for a probe with {1} features; use at least {2}",
                         {arg(c.n_train), arg(c.d_h), arg(2 * (c.d_h + 1))});
  AP_TRY(check_range(c.gain, "the recurrent gain", 0.0, s2s_limits::kMaxGain));
  AP_TRY(check_range(c.lambda, "λ (ridge)", 0.0, probe_limits::kMaxLambda));
  const long long work = probe_work(c);
  if (work > probe_limits::kMaxProbeWork)
    return Status::Error("the probe would take {0} million multiply-adds; the budget is {1} million",
                         {arg(work / 1000000), arg(probe_limits::kMaxProbeWork / 1000000)});
  return Status::Ok();
}

Status check_probe_data(const ProbeConfig& c, const ProbeData& d) {
  AP_TRY(check_matrix(d.embeddings, "the embeddings", c.vocab, c.d_in, probe_limits::kMaxVocab,
                      probe_limits::kMaxInput));
  AP_TRY(check_rnn(d.encoder, "W_x", "W_h", "b"));
  if (d.encoder.d_in != c.d_in || d.encoder.d_h != c.d_h)
    return Status::Error("the encoder is {0} × {1}; the probe expects {2} × {3}",
                         {arg(d.encoder.d_h), arg(d.encoder.d_in), arg(c.d_h), arg(c.d_in)});
  const long long want_train = static_cast<long long>(c.n_train) * c.l_max;
  const long long want_test = static_cast<long long>(c.n_test) * c.l_max;
  const long long have_train = static_cast<long long>(d.train_ids.size());
  const long long have_test = static_cast<long long>(d.test_ids.size());
  if (have_train != want_train || have_test != want_test)
    return Status::Error("the probe data has {0} + {1} token ids; expected {2} + {3}",
                         {arg(have_train), arg(have_test), arg(want_train), arg(want_test)});
  for (const std::vector<int>* ids : {&d.train_ids, &d.test_ids})
    for (int id : *ids)
      if (id < 0 || id >= c.vocab)
        return Status::Error("{0} must be between {1} and {2}, got {3}",
                             {"a token id", "0", arg(c.vocab - 1), arg(id)});
  return Status::Ok();
}

using MatD = Eigen::MatrixXd;
using RefD = Eigen::Ref<const MatD>;

// Ridge fit of already centred features F (N × d) to targets Y (N × outputs): W (d × outputs).
//   1) normal equations (FᵀF + λN I) W = Fᵀ Y: only d × d, however many sentences. Fᵀ Y equals
//      Fᵀ (Y − ȳ) because F's columns sum to 0, so the targets need no centring.
//   2) LDLT (Cholesky without square roots, pivoted) of the symmetric positive definite matrix; one
//      factorisation serves every output column.
MatD fit_ridge(const RefD& F, const RefD& Y, double lambda) {
  const Eigen::Index d = F.cols();
  MatD G = MatD::Zero(d, d);
  G.selfadjointView<Eigen::Lower>().rankUpdate(F.transpose());  // FᵀF, one triangle: half the work
  G.diagonal().array() += lambda * static_cast<double>(F.rows());
  return G.selfadjointView<Eigen::Lower>().ldlt().solve(F.transpose() * Y);
}

// Held-out R² and mean cosine of each block of `width` target columns (one block per source position);
// the prediction is F·W plus the training mean of the targets.
void score_blocks(const RefD& F, const MatD& W, const RefD& Y, const Eigen::RowVectorXd& y_mean, int width,
                  std::vector<double>* r2, std::vector<double>* cos) {
  MatD pred = F * W;
  pred.rowwise() += y_mean;
  const int blocks = static_cast<int>(Y.cols()) / width;
  r2->assign(blocks, 0.0);
  cos->assign(blocks, 0.0);
  const double N = static_cast<double>(Y.rows());
  for (int j = 0; j < blocks; ++j) {
    const auto y = Y.middleCols(j * width, width);
    const auto p = pred.middleCols(j * width, width);
    const double sse = (p - y).squaredNorm();
    const double sst = y.squaredNorm() - N * y.colwise().mean().squaredNorm();  // Σ‖y − ȳ_test‖²
    (*r2)[j] = sst > 0.0 ? 1.0 - sse / sst : 0.0;
    double c = 0.0;
    for (Eigen::Index i = 0; i < y.rows(); ++i) {
      const double ny = y.row(i).norm(), np = p.row(i).norm();
      if (ny > 0.0 && np > 0.0) c += y.row(i).dot(p.row(i)) / (ny * np);
    }
    (*cos)[j] = c / N;
  }
}

double mean_of(const std::vector<double>& v, int count) {
  double s = 0.0;
  for (int i = 0; i < count; ++i) s += v[i];
  return count > 0 ? s / count : 0.0;
}

// The first L tokens of every sentence, encoded all at once: step t of all N sentences is one matrix
// product, H_t = tanh(X_t W_xᵀ + H_{t-1} W_hᵀ + 1 bᵀ) (N × d_h), not N matrix-vector products.
//   states: N × (L·d_h), columns [t·d_h, (t+1)·d_h) = h_t      inputs: N × (L·d_in), block t = x_t
void encode_prefixes(const ProbeData& d, const std::vector<int>& ids, int l_max, int L, MatD* states, MatD* inputs) {
  const RnnWeights& w = d.encoder;
  const int N = static_cast<int>(ids.size()) / l_max;
  states->resize(N, static_cast<Eigen::Index>(L) * w.d_h);
  inputs->resize(N, static_cast<Eigen::Index>(L) * w.d_in);
  Mat h = Mat::Zero(N, w.d_h), Xt(N, w.d_in), pre(N, w.d_h);
  for (int t = 0; t < L; ++t) {
    for (int i = 0; i < N; ++i) Xt.row(i) = d.embeddings.row(ids[static_cast<size_t>(i) * l_max + t]);
    pre.noalias() = Xt * w.Wx.transpose();
    pre.noalias() += h * w.Wh.transpose();
    pre.rowwise() += w.b.transpose();
    h = pre.array().tanh().matrix();
    states->middleCols(static_cast<Eigen::Index>(t) * w.d_h, w.d_h) = h.cast<double>();
    inputs->middleCols(static_cast<Eigen::Index>(t) * w.d_in, w.d_in) = Xt.cast<double>();
  }
}

// Encoded sentences. The states are centred ONCE by their training means (test states by the same
// means): centring stands in for an intercept column, which would be nearly collinear with the non-zero
// means of tanh states and worsen the normal equations' conditioning.
struct Encoded {
  MatD Htr, Xtr, Hte, Xte;     // states centred, inputs raw
  Eigen::RowVectorXd x_mean;   // training mean of every input column
};

Encoded encode_all(const ProbeConfig& c, const ProbeData& d, int L) {
  Encoded e;
  encode_prefixes(d, d.train_ids, c.l_max, L, &e.Htr, &e.Xtr);
  encode_prefixes(d, d.test_ids, c.l_max, L, &e.Hte, &e.Xte);
  const Eigen::RowVectorXd h_mean = e.Htr.colwise().mean();
  e.Htr.rowwise() -= h_mean;
  e.Hte.rowwise() -= h_mean;
  e.x_mean = e.Xtr.colwise().mean();
  return e;
}

// The bottleneck probe for length L: c = h_{L-1} → [x_0 … x_{L-1}], one fit.
void probe_final(const ProbeConfig& c, const Encoded& e, int L, ProbeLength* r) {
  const Eigen::Index dh = c.d_h, cols = static_cast<Eigen::Index>(L) * c.d_in, at = (L - 1) * dh;
  const MatD W = fit_ridge(e.Htr.middleCols(at, dh), e.Xtr.leftCols(cols), c.lambda);
  score_blocks(e.Hte.middleCols(at, dh), W, e.Xte.leftCols(cols), e.x_mean.head(cols), c.d_in, &r->r2_final,
               &r->cos_final);
}

// The reader for positions 0 … L-1: h_j → x_j, one fit each.
void probe_reader(const ProbeConfig& c, const Encoded& e, int L, std::vector<double>* r2, std::vector<double>* cos) {
  const Eigen::Index dh = c.d_h, din = c.d_in;
  r2->resize(L);
  cos->resize(L);
  for (int j = 0; j < L; ++j) {
    const MatD W = fit_ridge(e.Htr.middleCols(j * dh, dh), e.Xtr.middleCols(j * din, din), c.lambda);
    std::vector<double> a, b;
    score_blocks(e.Hte.middleCols(j * dh, dh), W, e.Xte.middleCols(j * din, din), e.x_mean.segment(j * din, din),
                 c.d_in, &a, &b);
    (*r2)[j] = a[0];
    (*cos)[j] = b[0];
  }
}

ProbeLength assemble(const ProbeConfig& c, const Encoded& e, int L, const std::vector<double>& r2_reader,
                     const std::vector<double>& cos_reader) {
  ProbeLength r;
  r.L = L;
  probe_final(c, e, L, &r);
  r.r2_reader.assign(r2_reader.begin(), r2_reader.begin() + L);
  r.cos_reader.assign(cos_reader.begin(), cos_reader.begin() + L);
  r.mean_r2_final = mean_of(r.r2_final, L);
  r.mean_r2_reader = mean_of(r.r2_reader, L);
  r.mean_cos_final = mean_of(r.cos_final, L);
  r.mean_cos_reader = mean_of(r.cos_reader, L);
  return r;
}

}  // namespace

Status make_probe_data(const ProbeConfig& cfg, ProbeData* out) {
  AP_TRY(check_probe_config(cfg));
  ProbeData d;
  const uint64_t g = kGroupProbe;
  d.embeddings = seeded_gaussian(cfg.vocab, cfg.d_in, cfg.seed, stream_of(g, 0), 1.0);
  AP_TRY(make_rnn_weights(cfg.d_in, cfg.d_h, cfg.gain, cfg.seed, stream_of(g, 1), &d.encoder));
  // token ids, training sentences first; `% vocab` is biased by less than vocab/2^64: invisible
  SeededRng rng(cfg.seed, stream_of(g, 2));
  d.train_ids.resize(static_cast<size_t>(cfg.n_train) * cfg.l_max);
  d.test_ids.resize(static_cast<size_t>(cfg.n_test) * cfg.l_max);
  for (int& id : d.train_ids) id = static_cast<int>(rng.next_u64() % static_cast<uint64_t>(cfg.vocab));
  for (int& id : d.test_ids) id = static_cast<int>(rng.next_u64() % static_cast<uint64_t>(cfg.vocab));
  *out = std::move(d);
  return Status::Ok();
}

Status probe_length(const ProbeConfig& cfg, const ProbeData& data, int L, ProbeLength* out) {
  AP_TRY(check_probe_config(cfg));
  AP_TRY(check_probe_data(cfg, data));
  if (L < cfg.l_min || L > cfg.l_max)
    return Status::Error("{0} must be between {1} and {2}, got {3}", {"L", arg(cfg.l_min), arg(cfg.l_max), arg(L)});
  const Encoded e = encode_all(cfg, data, L);
  std::vector<double> r2, cs;
  probe_reader(cfg, e, L, &r2, &cs);
  *out = assemble(cfg, e, L, r2, cs);
  return Status::Ok();
}

Status bottleneck_probe(const ProbeConfig& cfg, BottleneckProbe* out) {
  AP_TRY(check_probe_config(cfg));
  ProbeData d;
  AP_TRY(make_probe_data(cfg, &d));
  BottleneckProbe b;
  b.config = cfg;
  b.work = probe_work(cfg);
  // 1) encode once, L_max steps: a prefix's states are the first L of them
  const Encoded e = encode_all(cfg, d, cfg.l_max);
  // 2) reader: one fit per position, shared by every L
  std::vector<double> r2, cs;
  probe_reader(cfg, e, cfg.l_max, &r2, &cs);
  // 3) bottleneck: one fit per L, from c = h_{L-1}
  for (int L = cfg.l_min; L <= cfg.l_max; ++L) b.lengths.push_back(assemble(cfg, e, L, r2, cs));
  *out = std::move(b);
  return Status::Ok();
}

}  // namespace ap
