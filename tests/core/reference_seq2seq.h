// Naive references for core/seq2seq.h: Elman RNN, Bahdanau and Luong attention, and the bottleneck probe.
//
// Written independently of src/core: plain loops in double precision, no Eigen arithmetic, std::tanh and
// std::exp in double, the ridge probe solved by Gaussian elimination with partial pivoting (the core uses
// Eigen's LDLT). Kept in ref::s2s so that names cannot clash with the other reference headers.
#pragma once
#include <algorithm>
#include <cmath>
#include <vector>

#include "core/bottleneck_probe.h"
#include "core/seq2seq.h"
#include "reference.h"

namespace ap {
namespace ref {
namespace s2s {

using DVec = std::vector<double>;

inline DVec from_vec(const Vec& v) {
  DVec d(static_cast<size_t>(v.size()));
  for (size_t i = 0; i < d.size(); ++i) d[i] = v(static_cast<Eigen::Index>(i));
  return d;
}

inline DVec row(const DMat& M, int i) {
  DVec r(M.cols);
  for (int j = 0; j < M.cols; ++j) r[j] = M(i, j);
  return r;
}

// y = A x
inline DVec matvec(const DMat& A, const DVec& x) {
  DVec y(A.rows, 0.0);
  for (int i = 0; i < A.rows; ++i)
    for (int k = 0; k < A.cols; ++k) y[i] += A(i, k) * x[k];
  return y;
}

inline DVec add(DVec a, const DVec& b) {
  for (size_t i = 0; i < a.size(); ++i) a[i] += b[i];
  return a;
}

inline DVec tanh_all(DVec a) {
  for (double& x : a) x = std::tanh(x);
  return a;
}

inline DVec concat(const DVec& a, const DVec& b) {
  DVec c = a;
  c.insert(c.end(), b.begin(), b.end());
  return c;
}

inline double dot(const DVec& a, const DVec& b) {
  double s = 0.0;
  for (size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
  return s;
}

inline DVec softmax(const DVec& e) {
  double mx = e[0];
  for (double x : e) mx = std::max(mx, x);
  DVec p(e.size());
  double sum = 0.0;
  for (size_t j = 0; j < e.size(); ++j) sum += p[j] = std::exp(e[j] - mx);
  for (double& x : p) x /= sum;
  return p;
}

// c = Σ_j α_j h_j
inline DVec weighted_rows(const DMat& H, const DVec& alpha) {
  DVec c(H.cols, 0.0);
  for (int j = 0; j < H.rows; ++j)
    for (int k = 0; k < H.cols; ++k) c[k] += alpha[j] * H(j, k);
  return c;
}

inline void set_row(DMat* M, int i, const DVec& v) {
  for (int j = 0; j < M->cols; ++j) (*M)(i, j) = v[j];
}

// ---- Elman RNN -----------------------------------------------------------------------------------------------

struct Rnn {
  DMat pre, H;
  DVec last;
};

// Forward only: reverse is done by the caller by reversing X (an independent path from the core's loop).
inline Rnn rnn_forward(const DMat& X, const DMat& Wx, const DMat& Wh, const DVec& b) {
  Rnn r;
  const int n = X.rows, d_h = Wx.rows;
  r.pre = DMat(n, d_h);
  r.H = DMat(n, d_h);
  DVec h(d_h, 0.0);
  for (int t = 0; t < n; ++t) {
    const DVec a = add(add(matvec(Wx, row(X, t)), matvec(Wh, h)), b);
    h = tanh_all(a);
    set_row(&r.pre, t, a);
    set_row(&r.H, t, h);
  }
  r.last = h;
  return r;
}

inline DMat reverse_rows(const DMat& X) {
  DMat R(X.rows, X.cols);
  for (int i = 0; i < X.rows; ++i)
    for (int j = 0; j < X.cols; ++j) R(i, j) = X(X.rows - 1 - i, j);
  return R;
}

// Backward RNN = forward RNN over the reversed sentence, its rows reversed back.
inline Rnn rnn_backward(const DMat& X, const DMat& Wx, const DMat& Wh, const DVec& b) {
  Rnn f = rnn_forward(reverse_rows(X), Wx, Wh, b);
  f.pre = reverse_rows(f.pre);
  f.H = reverse_rows(f.H);
  return f;
}

inline DVec column_mean(const DMat& H) {
  DVec m(H.cols, 0.0);
  for (int j = 0; j < H.rows; ++j)
    for (int k = 0; k < H.cols; ++k) m[k] += H(j, k) / H.rows;
  return m;
}

// ---- Bahdanau ------------------------------------------------------------------------------------------------

struct Step {
  DVec e, alpha, c;
};

// e_j = v_aᵀ tanh(W_a s_prev + U_a h_j), straight from the formula (U_a h_j recomputed every time).
inline Step bahdanau_step(const DVec& s_prev, const DMat& H, const DMat& Wa, const DMat& Ua, const DVec& va) {
  Step st;
  const DVec q = matvec(Wa, s_prev);
  st.e.resize(H.rows);
  for (int j = 0; j < H.rows; ++j) st.e[j] = dot(va, tanh_all(add(q, matvec(Ua, row(H, j)))));
  st.alpha = softmax(st.e);
  st.c = weighted_rows(H, st.alpha);
  return st;
}

struct Run {
  DVec s0;
  DMat queries, scores, alignment, contexts, states, attentional;
};

inline Run bahdanau_run(const DMat& H, const DMat& Y, const BahdanauWeights& w) {
  const DMat Wa = from_mat(w.Wa), Ua = from_mat(w.Ua), W0 = from_mat(w.W_init), Ws = from_mat(w.Ws),
             Win = from_mat(w.Win);
  const DVec va = from_vec(w.va), bs = from_vec(w.bs);
  Run r;
  const int T = Y.rows, n = H.rows;
  r.queries = DMat(T, w.d_s);
  r.scores = DMat(T, n);
  r.alignment = DMat(T, n);
  r.contexts = DMat(T, w.d_enc);
  r.states = DMat(T, w.d_s);
  r.s0 = tanh_all(matvec(W0, column_mean(H)));
  DVec s = r.s0;
  for (int t = 0; t < T; ++t) {
    const Step st = bahdanau_step(s, H, Wa, Ua, va);
    set_row(&r.queries, t, s);
    set_row(&r.scores, t, st.e);
    set_row(&r.alignment, t, st.alpha);
    set_row(&r.contexts, t, st.c);
    s = tanh_all(add(add(matvec(Ws, s), matvec(Win, concat(row(Y, t), st.c))), bs));
    set_row(&r.states, t, s);
  }
  return r;
}

// ---- Luong ---------------------------------------------------------------------------------------------------

// dot: s ᵀ h_j;  general: s ᵀ (W_a h_j);  concat: v_aᵀ tanh(W_a [s; h_j]) — each as written in the notes.
inline Step luong_step(LuongScore kind, const DVec& s, const DMat& H, const LuongWeights& w) {
  Step st;
  st.e.resize(H.rows);
  const DMat Wg = from_mat(w.Wa_general), Wc = from_mat(w.Wa_concat);
  const DVec v = from_vec(w.va_concat);
  for (int j = 0; j < H.rows; ++j) {
    const DVec h = row(H, j);
    if (kind == LuongScore::Dot) st.e[j] = dot(s, h);
    else if (kind == LuongScore::General) st.e[j] = dot(s, matvec(Wg, h));
    else st.e[j] = dot(v, tanh_all(matvec(Wc, concat(s, h))));
  }
  st.alpha = softmax(st.e);
  st.c = weighted_rows(H, st.alpha);
  return st;
}

inline Run luong_run(LuongScore kind, const DMat& H, const DMat& Y, const LuongWeights& w) {
  const DMat W0 = from_mat(w.W_init), Ws = from_mat(w.Ws), Wy = from_mat(w.Wy), Wc = from_mat(w.Wc);
  const DVec bs = from_vec(w.bs);
  Run r;
  const int T = Y.rows, n = H.rows;
  r.scores = DMat(T, n);
  r.alignment = DMat(T, n);
  r.contexts = DMat(T, w.d_enc);
  r.states = DMat(T, w.d_s);
  r.attentional = DMat(T, w.d_s);
  r.s0 = tanh_all(matvec(W0, column_mean(H)));
  DVec s = r.s0;
  for (int t = 0; t < T; ++t) {
    s = tanh_all(add(add(matvec(Ws, s), matvec(Wy, row(Y, t))), bs));  // s_t first …
    const Step st = luong_step(kind, s, H, w);                         // … then attend with it
    set_row(&r.states, t, s);
    set_row(&r.scores, t, st.e);
    set_row(&r.alignment, t, st.alpha);
    set_row(&r.contexts, t, st.c);
    set_row(&r.attentional, t, tanh_all(matvec(Wc, concat(st.c, s))));
  }
  return r;
}

// ---- bottleneck probe ----------------------------------------------------------------------------------------

// Solves A x = B (A: d × d, B: d × k) by Gaussian elimination with partial pivoting.
inline DMat solve(DMat A, DMat B) {
  const int d = A.rows;
  for (int c = 0; c < d; ++c) {
    int p = c;
    for (int r = c + 1; r < d; ++r)
      if (std::fabs(A(r, c)) > std::fabs(A(p, c))) p = r;
    for (int k = 0; k < d; ++k) std::swap(A(c, k), A(p, k));
    for (int k = 0; k < B.cols; ++k) std::swap(B(c, k), B(p, k));
    for (int r = c + 1; r < d; ++r) {
      const double f = A(r, c) / A(c, c);
      for (int k = c; k < d; ++k) A(r, k) -= f * A(c, k);
      for (int k = 0; k < B.cols; ++k) B(r, k) -= f * B(c, k);
    }
  }
  DMat X(d, B.cols);
  for (int k = 0; k < B.cols; ++k)
    for (int r = d - 1; r >= 0; --r) {
      double s = B(r, k);
      for (int c = r + 1; c < d; ++c) s -= A(r, c) * X(c, k);
      X(r, k) = s / A(r, r);
    }
  return X;
}

struct Probe {
  DVec r2_final, r2_reader, cos_final, cos_reader;
};

// Features F_tr → targets Y_tr by ridge on centred features, scored on (F_te, Y_te) per block of `width`.
inline void ridge_score(const DMat& Ftr, const DMat& Ytr, const DMat& Fte, const DMat& Yte, double lambda, int width,
                        DVec* r2, DVec* cosine) {
  const int d = Ftr.cols, N = Ftr.rows;
  DVec fm(d, 0.0), ym(Ytr.cols, 0.0);
  for (int i = 0; i < N; ++i) {
    for (int k = 0; k < d; ++k) fm[k] += Ftr(i, k) / N;
    for (int k = 0; k < Ytr.cols; ++k) ym[k] += Ytr(i, k) / N;
  }
  DMat G(d, d), R(d, Ytr.cols);
  for (int i = 0; i < N; ++i)
    for (int a = 0; a < d; ++a) {
      const double fa = Ftr(i, a) - fm[a];
      for (int b = 0; b < d; ++b) G(a, b) += fa * (Ftr(i, b) - fm[b]);
      for (int k = 0; k < Ytr.cols; ++k) R(a, k) += fa * (Ytr(i, k) - ym[k]);
    }
  for (int a = 0; a < d; ++a) G(a, a) += lambda * N;
  const DMat W = solve(G, R);
  const int M = Fte.rows, blocks = Yte.cols / width;
  DMat P(M, Yte.cols);
  for (int i = 0; i < M; ++i)
    for (int k = 0; k < Yte.cols; ++k) {
      double s = ym[k];
      for (int a = 0; a < d; ++a) s += (Fte(i, a) - fm[a]) * W(a, k);
      P(i, k) = s;
    }
  r2->assign(blocks, 0.0);
  cosine->assign(blocks, 0.0);
  for (int b = 0; b < blocks; ++b) {
    double sse = 0.0, sst = 0.0, cs = 0.0;
    for (int k = b * width; k < (b + 1) * width; ++k) {
      double mean = 0.0;
      for (int i = 0; i < M; ++i) mean += Yte(i, k) / M;
      for (int i = 0; i < M; ++i) {
        sse += (P(i, k) - Yte(i, k)) * (P(i, k) - Yte(i, k));
        sst += (Yte(i, k) - mean) * (Yte(i, k) - mean);
      }
    }
    for (int i = 0; i < M; ++i) {
      double yy = 0.0, pp = 0.0, yp = 0.0;
      for (int k = b * width; k < (b + 1) * width; ++k) {
        yy += Yte(i, k) * Yte(i, k);
        pp += P(i, k) * P(i, k);
        yp += Yte(i, k) * P(i, k);
      }
      if (yy > 0.0 && pp > 0.0) cs += yp / std::sqrt(yy * pp);
    }
    (*r2)[b] = 1.0 - sse / sst;
    (*cosine)[b] = cs / M;
  }
}

// The whole probe at length L, sentence by sentence, from the data the core generated.
inline Probe probe(const ProbeConfig& cfg, const ProbeData& data, int L) {
  const DMat E = from_mat(data.embeddings), Wx = from_mat(data.encoder.Wx), Wh = from_mat(data.encoder.Wh);
  const DVec b = from_vec(data.encoder.b);
  // per split: states[t] (N × d_h) and inputs[t] (N × d_in), and all inputs side by side (N × L·d_in)
  auto encode = [&](const std::vector<int>& ids, int N, std::vector<DMat>* S, std::vector<DMat>* X, DMat* Xall) {
    S->assign(L, DMat(N, cfg.d_h));
    X->assign(L, DMat(N, cfg.d_in));
    *Xall = DMat(N, L * cfg.d_in);
    for (int i = 0; i < N; ++i) {
      DMat sent(L, cfg.d_in);
      for (int t = 0; t < L; ++t)
        for (int k = 0; k < cfg.d_in; ++k) sent(t, k) = E(ids[static_cast<size_t>(i) * cfg.l_max + t], k);
      const Rnn r = rnn_forward(sent, Wx, Wh, b);
      for (int t = 0; t < L; ++t) {
        for (int k = 0; k < cfg.d_h; ++k) (*S)[t](i, k) = r.H(t, k);
        for (int k = 0; k < cfg.d_in; ++k) (*X)[t](i, k) = (*Xall)(i, t * cfg.d_in + k) = sent(t, k);
      }
    }
  };
  std::vector<DMat> Str, Xtr, Ste, Xte;
  DMat Ytr, Yte;
  encode(data.train_ids, cfg.n_train, &Str, &Xtr, &Ytr);
  encode(data.test_ids, cfg.n_test, &Ste, &Xte, &Yte);
  Probe p;
  ridge_score(Str[L - 1], Ytr, Ste[L - 1], Yte, cfg.lambda, cfg.d_in, &p.r2_final, &p.cos_final);
  for (int j = 0; j < L; ++j) {
    DVec r2, cs;
    ridge_score(Str[j], Xtr[j], Ste[j], Xte[j], cfg.lambda, cfg.d_in, &r2, &cs);
    p.r2_reader.push_back(r2[0]);
    p.cos_reader.push_back(cs[0]);
  }
  return p;
}

inline double max_abs_diff(const std::vector<double>& got, const DVec& want) {
  if (got.size() != want.size()) return kInf;
  double m = 0.0;
  for (size_t i = 0; i < got.size(); ++i) m = std::max(m, std::isnan(got[i]) ? kInf : std::fabs(got[i] - want[i]));
  return m;
}

}  // namespace s2s
}  // namespace ref
}  // namespace ap
