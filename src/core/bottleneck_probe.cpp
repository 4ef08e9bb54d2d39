#include "bottleneck_probe.h"

#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>

#include "embedding.h"

namespace ap {

using s2s_streams::kGroupProbe;
using s2s_streams::stream_of;

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
  AP_TRY(check_in_range(c.gain, "the recurrent gain", 0.0, s2s_limits::kMaxGain));
  AP_TRY(check_in_range(c.lambda, "λ (ridge)", 0.0, probe_limits::kMaxLambda));
  const long long work = probe_work(c);
  if (work > probe_limits::kMaxProbeWork)
    return Status::Error("the probe would take {0} million multiply-adds; the budget is {1} million",
                         {arg(work / 1000000), arg(probe_limits::kMaxProbeWork / 1000000)});
  return Status::Ok();
}

Status check_probe_data(const ProbeConfig& c, const ProbeData& d) {
  AP_TRY(check_matrix(d.embeddings, "the embeddings", c.vocab, c.d_in, probe_limits::kMaxVocab,
                      probe_limits::kMaxInput));
  AP_TRY(check_rnn_weights(d.encoder, "W_x", "W_h", "b"));
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
