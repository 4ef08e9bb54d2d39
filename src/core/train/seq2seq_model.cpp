#include "seq2seq_model.h"

#include <algorithm>
#include <cmath>

#include "core/embedding.h"
#include "gemm.h"

namespace ap {
namespace train {

const char* seq2seq_attention_name(Seq2SeqAttention a) {
  switch (a) {
    case Seq2SeqAttention::None: return "none";
    case Seq2SeqAttention::Additive: return "additive";
    case Seq2SeqAttention::Dot: return "dot";
    case Seq2SeqAttention::General: return "general";
    case Seq2SeqAttention::Concat: return "concat";
  }
  return "?";
}

bool parse_seq2seq_attention(const std::string& name, Seq2SeqAttention* out) {
  for (Seq2SeqAttention a : {Seq2SeqAttention::None, Seq2SeqAttention::Additive, Seq2SeqAttention::Dot, Seq2SeqAttention::General,
                             Seq2SeqAttention::Concat})
    if (name == seq2seq_attention_name(a)) {
      *out = a;
      return true;
    }
  return false;
}

const char* seq2seq_cell_name(Seq2SeqCell c) { return c == Seq2SeqCell::Elman ? "elman" : "gru"; }

bool parse_seq2seq_cell(const std::string& name, Seq2SeqCell* out) {
  for (Seq2SeqCell c : {Seq2SeqCell::Gru, Seq2SeqCell::Elman})
    if (name == seq2seq_cell_name(c)) {
      *out = c;
      return true;
    }
  return false;
}

namespace {
bool luong(Seq2SeqAttention a) { return a == Seq2SeqAttention::Dot || a == Seq2SeqAttention::General || a == Seq2SeqAttention::Concat; }

float sigmoid(float a) { return 1.f / (1.f + std::exp(-a)); }

// [a | b] as one row: [1, A + B].
Mat concat_row(const Mat& a, const Mat& b) {
  Mat r(1, a.cols() + b.cols());
  r << a, b;
  return r;
}

// softmax of one row, the maximum subtracted first (exponents <= 0: no overflow), the sum in double.
void softmax_row(const Mat& e, Mat* p) {
  p->resize(1, e.cols());
  const float mx = e.maxCoeff();
  double s = 0;
  for (Eigen::Index j = 0; j < e.cols(); ++j) s += ((*p)(0, j) = std::exp(e(0, j) - mx));
  *p /= static_cast<float>(s);
}

// A column [A, 1] read as the row [1, A] (row-major: the same floats in the same order), for the products below.
Eigen::Map<const Mat> as_row(const Mat& column) { return Eigen::Map<const Mat>(column.data(), 1, column.size()); }

// dscore_j = α_j (dα_j − Σ_k α_k dα_k): the softmax's backward for one row.
Mat softmax_row_backward(const Mat& alpha, const Mat& dalpha) {
  const float dot = alpha.cwiseProduct(dalpha).sum();
  return alpha.cwiseProduct((dalpha.array() - dot).matrix());
}

Status add_gru(ParamStore& s, const std::string& p, int I, int H, uint64_t seed, GruParams* g) {
  AP_TRY(s.add(p + ".Wx", I, 3 * H, Init::Gaussian, 1.0 / std::sqrt(static_cast<double>(I)), seed, &g->Wx));
  AP_TRY(s.add(p + ".Wh_zr", H, 2 * H, Init::Gaussian, 1.0 / std::sqrt(static_cast<double>(H)), seed, &g->Wh_zr));
  AP_TRY(s.add(p + ".Wh_n", H, H, Init::Gaussian, 1.0 / std::sqrt(static_cast<double>(H)), seed, &g->Wh_n));
  AP_TRY(s.add(p + ".b", 1, 3 * H, Init::Zeros, 0, seed, &g->b));
  return Status::Ok();
}

Status add_elman(ParamStore& s, const std::string& p, int I, int H, uint64_t seed, GruParams* g) {
  AP_TRY(s.add(p + ".Wx", I, H, Init::Gaussian, 1.0 / std::sqrt(static_cast<double>(I)), seed, &g->Wx));
  AP_TRY(s.add(p + ".Wh", H, H, Init::Gaussian, 1.0 / std::sqrt(static_cast<double>(H)), seed, &g->Wh_n));
  AP_TRY(s.add(p + ".b", 1, H, Init::Zeros, 0, seed, &g->b));
  return Status::Ok();
}
}  // namespace

// ---- Elman cell ------------------------------------------------------------------------------------------------
// x: [1, I]  h_prev: [1, H]  →  h' = tanh(x·Wx + h·Wh + b): [1, H]
void elman_forward(const GruParams& g, const Mat& x, const Mat& h_prev, GruStep* st) {
  st->x = x;
  st->h_prev = h_prev;
  Mat a = g.b->value;
  gemm_nn(a, x, g.Wx->value, 1.f, true);
  gemm_nn(a, h_prev, g.Wh_n->value, 1.f, true);
  st->n = a.array().tanh().matrix();
  st->h = st->n;
}

// dh: [1, H] → da = dh ⊙ (1 − h'²); dx += da·Wxᵀ, dh_prev += da·Whᵀ, and the three parameters' grads.
void elman_backward(const GruParams& g, const GruStep& st, const Mat& dh, Mat* dx, Mat* dh_prev) {
  const Mat da = dh.cwiseProduct((1.f - st.h.array().square()).matrix());
  gemm_tn(g.Wx->grad, st.x, da, 1.f, true);
  gemm_tn(g.Wh_n->grad, st.h_prev, da, 1.f, true);
  g.b->grad += da;
  gemm_nt(*dx, da, g.Wx->value, 1.f, true);
  gemm_nt(*dh_prev, da, g.Wh_n->value, 1.f, true);
}

void Seq2SeqModel::enc_forward(const GruParams& g, const Mat& x, const Mat& h_prev, GruStep* st) const {
  if (c_.cell == Seq2SeqCell::Elman) elman_forward(g, x, h_prev, st);
  else gru_forward(g, x, h_prev, st);
}

void Seq2SeqModel::enc_backward(const GruParams& g, const GruStep& st, const Mat& dh, Mat* dx, Mat* dh_prev) const {
  if (c_.cell == Seq2SeqCell::Elman) elman_backward(g, st, dh, dx, dh_prev);
  else gru_backward(g, st, dh, dx, dh_prev);
}

// ---- GRU cell --------------------------------------------------------------------------------------------------
// x: [1, I]  h_prev: [1, H]  →  z, r, n, h: [1, H]
void gru_forward(const GruParams& g, const Mat& x, const Mat& h_prev, GruStep* st) {
  const Eigen::Index H = h_prev.cols();
  st->x = x;
  st->h_prev = h_prev;
  // (The products are gemm.h's: a row times a small matrix, 4 lanes at a time in both builds.)
  // 0. every gate's input part at once: a = x·Wx + b                              [1, 3H]
  Mat a = g.b->value;
  gemm_nn(a, x, g.Wx->value, 1.f, true);
  // 1. the gates: [z | r] = σ(a[:, 0:2H] + h·Wh_zr)                                [1, 2H]
  gemm_nn(a.leftCols(2 * H), h_prev, g.Wh_zr->value, 1.f, true);
  st->z = a.leftCols(H).unaryExpr([](float v) { return sigmoid(v); });
  st->r = a.middleCols(H, H).unaryExpr([](float v) { return sigmoid(v); });
  // 2. the candidate reads the reset part of the old state: n = tanh(a[:, 2H:3H] + (r ⊙ h)·Wh_n)   [1, H]
  const Mat rh = st->r.cwiseProduct(h_prev);
  gemm_nn(a.rightCols(H), rh, g.Wh_n->value, 1.f, true);
  st->n = a.rightCols(H).array().tanh().matrix();
  // 3. interpolate: h' = h + z ⊙ (n − h)
  st->h = h_prev + st->z.cwiseProduct(st->n - h_prev);
}

// dh: [1, H] → dx += [1, I], dh_prev += [1, H], and the four parameters' grads.
void gru_backward(const GruParams& g, const GruStep& st, const Mat& dh, Mat* dx, Mat* dh_prev) {
  const Eigen::Index H = st.h.cols();
  const Mat& Wx = g.Wx->value;
  // 3. h' = (1 − z) ⊙ h + z ⊙ n
  const Mat dn = dh.cwiseProduct(st.z);
  const Mat dz = dh.cwiseProduct(st.n - st.h_prev);
  Mat dhp = dh.cwiseProduct((1.f - st.z.array()).matrix());
  // 2. n = tanh(a_n): da_n = dn ⊙ (1 − n²)
  const Mat da_n = dn.cwiseProduct((1.f - st.n.array().square()).matrix());
  const Mat rh = st.r.cwiseProduct(st.h_prev);
  gemm_tn(g.Wx->grad.rightCols(H), st.x, da_n, 1.f, true);  // outer products [I, H], [H, H]
  g.b->grad.rightCols(H) += da_n;
  gemm_tn(g.Wh_n->grad, rh, da_n, 1.f, true);
  Mat drh(1, H);
  gemm_nt(drh, da_n, g.Wh_n->value);
  const Mat dr = drh.cwiseProduct(st.h_prev);
  dhp += drh.cwiseProduct(st.r);
  // 1. σ' = σ(1 − σ)
  Mat da_zr(1, 2 * H);
  da_zr.leftCols(H) = dz.cwiseProduct(st.z.cwiseProduct((1.f - st.z.array()).matrix()));
  da_zr.rightCols(H) = dr.cwiseProduct(st.r.cwiseProduct((1.f - st.r.array()).matrix()));
  gemm_tn(g.Wx->grad.leftCols(2 * H), st.x, da_zr, 1.f, true);
  g.b->grad.leftCols(2 * H) += da_zr;
  gemm_tn(g.Wh_zr->grad, st.h_prev, da_zr, 1.f, true);
  gemm_nt(dhp, da_zr, g.Wh_zr->value, 1.f, true);
  gemm_nt(*dx, da_zr, Wx.leftCols(2 * H), 1.f, true);
  gemm_nt(*dx, da_n, Wx.rightCols(H), 1.f, true);
  *dh_prev += dhp;
}

// ---- the model ------------------------------------------------------------------------------------------------
Status Seq2SeqModel::init(const Seq2SeqConfig& c) {
  if (c.vocab < 3 || c.vocab > 4096) return Status::Error("vocab must be 3 … 4096, got {0}", {arg(c.vocab)});
  for (int w : {c.d_emb, c.d_h, c.d_a})
    if (w < 1 || w > 256) return Status::Error("every width must be 1 … 256, got {0}", {arg(w)});
  if (c.max_len < 1 || c.max_len > 256) return Status::Error("max_len must be 1 … 256, got {0}", {arg(c.max_len)});
  c_ = c;
  store_ = ParamStore();
  const int E = c.d_emb, Hd = c.d_h, D = d_enc(), S = D, A = c.d_a, V = c.vocab;
  const uint64_t s = c.seed;
  const auto std_of = [](int fan_in) { return 1.0 / std::sqrt(static_cast<double>(fan_in)); };
  AP_TRY(store_.add("src.emb", V, E, Init::Gaussian, 1.0, s, &src_emb_));
  AP_TRY(store_.add("tgt.emb", V, E, Init::Gaussian, 1.0, s, &tgt_emb_));
  const auto add_reader = c.cell == Seq2SeqCell::Elman ? add_elman : add_gru;
  AP_TRY(add_reader(store_, "enc.f", E, Hd, s, &enc_f_));
  if (c.bidirectional) AP_TRY(add_reader(store_, "enc.b", E, Hd, s, &enc_b_));
  AP_TRY(store_.add("init.W", D, S, Init::Gaussian, std_of(D), s, &W_init_));
  AP_TRY(store_.add("init.b", 1, S, Init::Zeros, 0, s, &b_init_));
  const bool feeds_context = c.attention == Seq2SeqAttention::None || c.attention == Seq2SeqAttention::Additive;
  AP_TRY(add_gru(store_, "dec", feeds_context ? E + D : E, S, s, &dec_));
  switch (c.attention) {
    case Seq2SeqAttention::None: break;
    case Seq2SeqAttention::Dot: break;
    case Seq2SeqAttention::General: AP_TRY(store_.add("att.W_a", S, D, Init::Gaussian, std_of(S), s, &W_a_)); break;
    case Seq2SeqAttention::Additive:
    case Seq2SeqAttention::Concat:
      AP_TRY(store_.add("att.W_a", S, A, Init::Gaussian, std_of(S), s, &W_a_));
      AP_TRY(store_.add("att.U_a", D, A, Init::Gaussian, std_of(D), s, &U_a_));
      AP_TRY(store_.add("att.v_a", A, 1, Init::Gaussian, std_of(A), s, &v_a_));
      break;
  }
  if (luong(c.attention)) {
    AP_TRY(store_.add("att.W_c", D + S, S, Init::Gaussian, std_of(D + S), s, &W_c_));
    AP_TRY(store_.add("att.b_c", 1, S, Init::Zeros, 0, s, &b_c_));
  }
  const int out_in = luong(c.attention) ? S : S + D;
  AP_TRY(store_.add("out.W", out_in, V, Init::Gaussian, std_of(out_in), s, &W_out_));
  AP_TRY(store_.add("out.b", 1, V, Init::Zeros, 0, s, &b_out_));
  return Status::Ok();
}

// Encoder: →h_j left to right, ←h_j right to left; H row j = [→h_j; ←h_j].
void Seq2SeqModel::encode(const std::vector<int>& src, Seq2SeqTrace* tr) const {
  const int n = static_cast<int>(src.size()), Hd = c_.d_h;
  tr->n = n;
  tr->enc_f.resize(static_cast<size_t>(n));
  tr->H.resize(n, d_enc());
  Mat h = Mat::Zero(1, Hd);
  for (int j = 0; j < n; ++j) {
    enc_forward(enc_f_, src_emb_->value.row(src[static_cast<size_t>(j)]), h, &tr->enc_f[static_cast<size_t>(j)]);
    h = tr->enc_f[static_cast<size_t>(j)].h;
    tr->H.row(j).leftCols(Hd) = h;
  }
  tr->h_last.resize(1, d_enc());
  tr->h_last.leftCols(Hd) = h;
  if (c_.bidirectional) {
    tr->enc_b.resize(static_cast<size_t>(n));
    h = Mat::Zero(1, Hd);
    for (int j = n - 1; j >= 0; --j) {
      enc_forward(enc_b_, src_emb_->value.row(src[static_cast<size_t>(j)]), h, &tr->enc_b[static_cast<size_t>(j)]);
      h = tr->enc_b[static_cast<size_t>(j)].h;
      tr->H.row(j).rightCols(Hd) = h;
    }
    tr->h_last.rightCols(Hd) = h;  // ←h_0: the backward reader's whole sentence
  }
  // The keys' half of an additive / concat score does not depend on the decoder step: computed once.
  if (U_a_) {
    tr->HU.resize(n, c_.d_a);
    gemm_nn(tr->HU, tr->H, U_a_->value);
  }
  // s_0 = tanh(h_last·W_init + b_init)
  tr->s0_pre = b_init_->value;
  gemm_nn(tr->s0_pre, tr->h_last, W_init_->value, 1.f, true);
  tr->s0 = tr->s0_pre.array().tanh().matrix();
}

void Seq2SeqModel::decode_step(int t, int in, const Mat& s_prev, Seq2SeqTrace* tr) const {
  const size_t k = static_cast<size_t>(t);
  const Mat e = tgt_emb_->value.row(in);
  const Mat& H = tr->H;
  // The scores of one query q against every h_j, softmax, context: α = softmax(score), c = α·H.
  const auto attend = [&](const Mat& q) {
    Mat& score = tr->score[k];
    score.resize(1, tr->n);
    switch (c_.attention) {
      case Seq2SeqAttention::Dot: gemm_nt(score, q, H); break;  // q·Hᵀ
      case Seq2SeqAttention::General: {                         // (q·W_a)·Hᵀ
        Mat qW(1, W_a_->value.cols());
        gemm_nn(qW, q, W_a_->value);
        gemm_nt(score, qW, H);
        break;
      }
      default: {  // additive / concat: u_j = tanh(q·W_a + h_j·U_a), score_j = u_j·v_a
        Mat& u = tr->u[k];
        Mat& qW = tr->query[k];
        qW.resize(1, c_.d_a);
        gemm_nn(qW, q, W_a_->value);  // [1, A], added to every row of H·U_a
        u = (tr->HU.rowwise() + qW.row(0)).array().tanh().matrix();
        gemm_nt(score, as_row(v_a_->value), u);  // (u·v_a)ᵀ = v_aᵀ·uᵀ
      }
    }
    softmax_row(score, &tr->alpha[k]);
    tr->context[k].resize(1, H.cols());
    gemm_nn(tr->context[k], tr->alpha[k], H);
  };
  Mat out_in;
  switch (c_.attention) {
    case Seq2SeqAttention::None:
      tr->context[k] = tr->h_last;
      gru_forward(dec_, concat_row(e, tr->context[k]), s_prev, &tr->dec[k]);
      out_in = concat_row(tr->dec[k].h, tr->context[k]);
      break;
    case Seq2SeqAttention::Additive:  // Bahdanau: attend with the PREVIOUS state, then update
      attend(s_prev);
      gru_forward(dec_, concat_row(e, tr->context[k]), s_prev, &tr->dec[k]);
      out_in = concat_row(tr->dec[k].h, tr->context[k]);
      break;
    default:  // Luong: update, then attend with the CURRENT state
      gru_forward(dec_, e, s_prev, &tr->dec[k]);
      attend(tr->dec[k].h);
      {
        Mat pre = b_c_->value;
        gemm_nn(pre, concat_row(tr->context[k], tr->dec[k].h), W_c_->value, 1.f, true);
        tr->htilde[k] = pre.array().tanh().matrix();
      }
      out_in = tr->htilde[k];
  }
  Mat logits = b_out_->value;
  gemm_nn(logits, out_in, W_out_->value, 1.f, true);
  softmax_row(logits, &tr->probs[k]);
}

namespace {
void size_steps(Seq2SeqTrace* tr, int T) {
  const size_t n = static_cast<size_t>(T);
  tr->T = T;
  tr->dec.resize(n);
  tr->score.resize(n);
  tr->alpha.resize(n);
  tr->context.resize(n);
  tr->query.resize(n);
  tr->u.resize(n);
  tr->htilde.resize(n);
  tr->probs.resize(n);
  tr->input.resize(n);
}

Status check_ids(const std::vector<int>& ids, int vocab, int max_len, const char* what) {
  if (ids.empty() || static_cast<int>(ids.size()) > max_len)
    return Status::Error("{0} must have 1 … {1} words, got {2}", {what, arg(max_len), arg(static_cast<long long>(ids.size()))});
  for (int id : ids)
    if (id < 0 || id >= vocab) return Status::Error("{0} has the id {1}, outside 0 … {2}", {what, arg(id), arg(vocab - 1)});
  return Status::Ok();
}
}  // namespace

Status Seq2SeqModel::forward(const Seq2SeqPair& p, Seq2SeqTrace* tr) const {
  AP_TRY(check_ids(p.src, c_.vocab, c_.max_len, "the source"));
  AP_TRY(check_ids(p.tgt, c_.vocab, c_.max_len, "the target"));
  encode(p.src, tr);
  const int T = static_cast<int>(p.tgt.size());
  size_steps(tr, T);
  tr->loss = 0;
  for (int t = 0; t < T; ++t) {
    const int in = t == 0 ? kBos : p.tgt[static_cast<size_t>(t - 1)];  // teacher forcing
    tr->input[static_cast<size_t>(t)] = in;
    decode_step(t, in, t == 0 ? tr->s0 : tr->dec[static_cast<size_t>(t - 1)].h, tr);
    // −log p(y_t), the probability floored so that an underflow to 0 gives a large finite loss, not inf
    tr->loss -= std::log(std::max(tr->probs[static_cast<size_t>(t)](0, p.tgt[static_cast<size_t>(t)]), 1e-30f));
  }
  return Status::Ok();
}

// Backward through time: the decoder from its last step to its first (ds carries dL/ds_t back), then the
// encoder's readers against their reading order. dH collects every step's gradient on the encoder states.
void Seq2SeqModel::backward(const Seq2SeqPair& p, const Seq2SeqTrace& tr, float scale) {
  const int n = tr.n, T = tr.T, Hd = c_.d_h, D = d_enc(), S = D, E = c_.d_emb;
  const Mat& H = tr.H;
  Mat dH = Mat::Zero(n, D), dh_last = Mat::Zero(1, D);
  Mat dHU = U_a_ ? Mat::Zero(n, c_.d_a) : Mat();  // every step's gradient on H·U_a, multiplied out once at the end
  Mat ds = Mat::Zero(1, S);  // dL/ds_t from the steps after t
  // The attention's backward for step k, query q (s_{t−1} or s_t), given dc: adds into dH, the score's
  // parameters and *dq.
  const auto attend_backward = [&](size_t k, const Mat& q, const Mat& dc, Mat* dq) {
    const Mat& alpha = tr.alpha[k];
    gemm_tn(dH, alpha, dc, 1.f, true);  // c = α·H: dH += αᵀ·dc
    Mat dalpha(1, n);                    // dc·Hᵀ
    gemm_nt(dalpha, dc, H);
    const Mat dscore = softmax_row_backward(alpha, dalpha);
    switch (c_.attention) {
      case Seq2SeqAttention::Dot:  // score = q·Hᵀ
        gemm_nn(*dq, dscore, H, 1.f, true);
        gemm_tn(dH, dscore, q, 1.f, true);
        break;
      case Seq2SeqAttention::General: {  // score = (q·W_a)·Hᵀ
        Mat qW(1, D), dqW(1, D);
        gemm_nn(qW, q, W_a_->value);
        gemm_nn(dqW, dscore, H);
        gemm_tn(dH, dscore, qW, 1.f, true);
        gemm_tn(W_a_->grad, q, dqW, 1.f, true);
        gemm_nt(*dq, dqW, W_a_->value, 1.f, true);
        break;
      }
      default: {  // u = tanh(1·(q·W_a) + H·U_a), score = (u·v_a)ᵀ
        const Mat& u = tr.u[k];
        const int A = c_.d_a;
        Mat dva(1, A);  // dscore·u = (uᵀ·dscoreᵀ)ᵀ, v_a's gradient as a row
        gemm_nn(dva, dscore, u);
        v_a_->grad += dva.transpose();
        Mat du(n, A);  // dscoreᵀ·v_aᵀ: an outer product [n, A]
        gemm_tn(du, dscore, as_row(v_a_->value));
        const Mat da = du.cwiseProduct((1.f - u.array().square()).matrix());  // through tanh
        dHU += da;
        const Mat dqW = da.colwise().sum();  // q·W_a is added to every row
        gemm_tn(W_a_->grad, q, dqW, 1.f, true);
        gemm_nt(*dq, dqW, W_a_->value, 1.f, true);
      }
    }
  };
  for (int t = T - 1; t >= 0; --t) {
    const size_t k = static_cast<size_t>(t);
    const Mat& s_prev = t == 0 ? tr.s0 : tr.dec[k - 1].h;
    // softmax cross-entropy: dlogits = scale · (p − onehot(y_t))
    Mat dlogits = tr.probs[k] * scale;
    dlogits(0, p.tgt[k]) -= scale;
    Mat ds_prev = Mat::Zero(1, S);
    Mat dx;  // the decoder GRU's input gradient
    if (luong(c_.attention)) {
      // logits = h̃·W_out + b_out;  h̃ = tanh([c; s]·W_c + b_c)
      const Mat& ht = tr.htilde[k];
      gemm_tn(W_out_->grad, ht, dlogits, 1.f, true);
      b_out_->grad += dlogits;
      Mat dht(1, S);
      gemm_nt(dht, dlogits, W_out_->value);
      const Mat dpre = dht.cwiseProduct((1.f - ht.array().square()).matrix());
      const Mat cs = concat_row(tr.context[k], tr.dec[k].h);
      gemm_tn(W_c_->grad, cs, dpre, 1.f, true);
      b_c_->grad += dpre;
      Mat dcs(1, D + S);
      gemm_nt(dcs, dpre, W_c_->value);
      const Mat dc = dcs.leftCols(D);
      Mat dst = ds + dcs.rightCols(S);
      attend_backward(k, tr.dec[k].h, dc, &dst);
      dx = Mat::Zero(1, E);
      gru_backward(dec_, tr.dec[k], dst, &dx, &ds_prev);
    } else {
      // logits = [s_t; c_t]·W_out + b_out
      const Mat out_in = concat_row(tr.dec[k].h, tr.context[k]);
      gemm_tn(W_out_->grad, out_in, dlogits, 1.f, true);
      b_out_->grad += dlogits;
      Mat dout_in(1, S + D);
      gemm_nt(dout_in, dlogits, W_out_->value);
      const Mat dst = ds + dout_in.leftCols(S);
      Mat dc = dout_in.rightCols(D);
      dx = Mat::Zero(1, E + D);
      gru_backward(dec_, tr.dec[k], dst, &dx, &ds_prev);
      dc += dx.rightCols(D);
      if (c_.attention == Seq2SeqAttention::None) dh_last += dc;
      else attend_backward(k, s_prev, dc, &ds_prev);
    }
    tgt_emb_->grad.row(tr.input[k]) += dx.leftCols(E);
    ds = ds_prev;
  }
  if (U_a_) {  // HU = H·U_a
    gemm_tn(U_a_->grad, H, dHU, 1.f, true);
    gemm_nt(dH, dHU, U_a_->value, 1.f, true);
  }
  // s_0 = tanh(h_last·W_init + b_init)
  const Mat dpre0 = ds.cwiseProduct((1.f - tr.s0.array().square()).matrix());
  gemm_tn(W_init_->grad, tr.h_last, dpre0, 1.f, true);
  b_init_->grad += dpre0;
  gemm_nt(dh_last, dpre0, W_init_->value, 1.f, true);
  // Encoder: h_last = [→h_{n−1}; ←h_0]
  dH.row(n - 1).leftCols(Hd) += dh_last.leftCols(Hd);
  if (c_.bidirectional) dH.row(0).rightCols(Hd) += dh_last.rightCols(Hd);
  Mat carry = Mat::Zero(1, Hd), dx(1, E);
  for (int j = n - 1; j >= 0; --j) {  // the forward reader, against its order
    const Mat dh = dH.row(j).leftCols(Hd) + carry;
    carry.setZero();
    dx.setZero();
    enc_backward(enc_f_, tr.enc_f[static_cast<size_t>(j)], dh, &dx, &carry);
    src_emb_->grad.row(p.src[static_cast<size_t>(j)]) += dx;
  }
  if (c_.bidirectional) {
    carry.setZero();
    for (int j = 0; j < n; ++j) {  // the backward reader read n−1 … 0: its backward runs 0 … n−1
      const Mat dh = dH.row(j).rightCols(Hd) + carry;
      carry.setZero();
      dx.setZero();
      enc_backward(enc_b_, tr.enc_b[static_cast<size_t>(j)], dh, &dx, &carry);
      src_emb_->grad.row(p.src[static_cast<size_t>(j)]) += dx;
    }
  }
}

Status Seq2SeqModel::train_step(const std::vector<Seq2SeqPair>& batch, Adam& adam, double* loss) {
  if (batch.empty()) return Status::Error("an empty batch");
  size_t tokens = 0;
  for (const Seq2SeqPair& p : batch) tokens += p.tgt.size();
  store_.zero_grad();
  Seq2SeqTrace tr;
  double sum = 0;
  for (const Seq2SeqPair& p : batch) {
    AP_TRY(forward(p, &tr));
    sum += tr.loss;
    backward(p, tr, 1.f / static_cast<float>(tokens));
  }
  if (!std::isfinite(sum)) return Status::Error("the loss is not finite: the training diverged");
  adam.step(store_);
  if (loss) *loss = sum / static_cast<double>(tokens);
  return Status::Ok();
}

Status Seq2SeqModel::greedy(const std::vector<int>& src, int max_out, std::vector<int>* out, Seq2SeqTrace* tr) const {
  AP_TRY(check_ids(src, c_.vocab, c_.max_len, "the source"));
  max_out = std::clamp(max_out, 1, c_.max_len);
  encode(src, tr);
  size_steps(tr, max_out);
  out->clear();
  int in = kBos, t = 0;
  for (; t < max_out; ++t) {
    tr->input[static_cast<size_t>(t)] = in;
    decode_step(t, in, t == 0 ? tr->s0 : tr->dec[static_cast<size_t>(t - 1)].h, tr);
    Eigen::Index best;
    tr->probs[static_cast<size_t>(t)].row(0).maxCoeff(&best);
    if (best == kEos) break;
    out->push_back(static_cast<int>(best));
    in = static_cast<int>(best);
  }
  size_steps(tr, std::min(t + 1, max_out));  // the steps decoded (the EOS step included)
  return Status::Ok();
}

Seq2SeqPair reversal_pair(int vocab, int min_len, int max_len, uint64_t seed, uint64_t index) {
  SeededRng rng(seed, 0x5E95E9000ULL + index);
  const int symbols = std::max(1, vocab - 2);
  const int n = min_len + static_cast<int>(rng.next_u64() % static_cast<uint64_t>(std::max(1, max_len - min_len + 1)));
  Seq2SeqPair p;
  for (int j = 0; j < n; ++j) p.src.push_back(2 + static_cast<int>(rng.next_u64() % static_cast<uint64_t>(symbols)));
  p.tgt.assign(p.src.rbegin(), p.src.rend());
  p.tgt.push_back(kEos);
  return p;
}

void tally_held_out(const Seq2SeqModel& m, const Seq2SeqPair* first, size_t n, HeldOutTally* c,
                    const std::function<void(size_t, const std::vector<int>&, const Seq2SeqTrace&)>& each) {
  Seq2SeqTrace tr;
  std::vector<int> out;
  for (size_t k = 0; k < n; ++k) {
    const Seq2SeqPair& p = first[k];
    if (!m.greedy(p.src, static_cast<int>(p.tgt.size()), &out, &tr).ok) continue;
    out.push_back(kEos);
    long long here = 0;
    for (size_t t = 0; t < p.tgt.size(); ++t) here += t < out.size() && out[t] == p.tgt[t];
    c->right += here;
    c->total += static_cast<long long>(p.tgt.size());
    c->sentences_right += here == static_cast<long long>(p.tgt.size()) && out.size() == p.tgt.size();
    ++c->sentences;
    if (each) each(k, out, tr);
  }
}

bool tally_slice(const Seq2SeqModel& m, const Seq2SeqPair* pairs, size_t count, size_t slice, HeldOutProgress* p,
                 const std::function<void(size_t, const std::vector<int>&, const Seq2SeqTrace&)>& each) {
  const size_t at = p->next, n = std::min(slice, count - at);
  tally_held_out(m, pairs + at, n, &p->tally, each ? [&](size_t k, const std::vector<int>& out, const Seq2SeqTrace& tr) { each(at + k, out, tr); }
                                               : std::function<void(size_t, const std::vector<int>&, const Seq2SeqTrace&)>());
  p->next += n;
  return p->next >= count;
}

double token_accuracy(const Seq2SeqModel& m, const std::vector<Seq2SeqPair>& pairs) {
  HeldOutTally c;
  tally_held_out(m, pairs.data(), pairs.size(), &c);
  return c.tokens();
}

void held_out_scores(const Seq2SeqModel& m, const std::vector<Seq2SeqPair>& pairs, double* tokens, double* sentences) {
  HeldOutTally c;
  tally_held_out(m, pairs.data(), pairs.size(), &c);
  *tokens = c.tokens();
  *sentences = c.sentence_share();
}

LengthAccuracy accuracy_by_length(const Seq2SeqModel& m, const std::vector<int>& lengths, int per_length,
                                  const std::function<Seq2SeqPair(int length, uint64_t k)>& make) {
  LengthAccuracy out;
  std::vector<Seq2SeqPair> pairs;
  for (int L : lengths) {
    pairs.clear();
    for (int k = 0; k < per_length; ++k) pairs.push_back(make(L, static_cast<uint64_t>(k)));
    HeldOutTally c;
    tally_held_out(m, pairs.data(), pairs.size(), &c);
    out.lengths.push_back(L);
    out.token.push_back(c.tokens());
    out.sentence.push_back(c.sentence_share());
  }
  return out;
}

}  // namespace train
}  // namespace ap
