#include "report.h"

#include <cmath>

namespace ap {
namespace train {

TrainReport make_report(const Trainer& t, const SentenceAttention& shown) {
  TrainReport r;
  r.step = t.step();
  r.steps = t.recipe().steps;
  r.loss = t.last_loss();
  r.heldout_accuracy = t.heldout_accuracy();
  r.referent_argmax = t.referent_argmax();
  r.evaluated_on_all = t.evaluated_on_all();
  r.curve_sentences = t.curve_sentences();
  r.heldout_sentences = static_cast<int>(t.heldout_size());
  r.diverged_step = t.diverged_step();
  r.diverged_loss = t.diverged_loss();
  r.kept_step = t.step();
  r.curve = t.curve();
  r.head_patterns = t.head_patterns();
  r.induction_heads = t.induction_scores().heads;
  r.attention = shown;
  return r;
}

void encode_report(const TrainReport& r, std::vector<double>* out) {
  std::vector<double>& v = *out;
  v.clear();
  v.insert(v.end(), {kReportVersion, double(r.step), double(r.steps), r.loss, r.heldout_accuracy, r.referent_argmax,
                     r.evaluated_on_all ? 1.0 : 0.0, double(r.curve_sentences), double(r.diverged_step), r.diverged_loss,
                     double(r.kept_step), double(r.heldout_sentences), double(r.curve.size())});
  for (const CurvePoint& p : r.curve) v.insert(v.end(), {double(p.step), p.loss, p.heldout_accuracy, p.referent_argmax});
  v.push_back(double(r.head_patterns.size()));
  for (const HeadPattern& p : r.head_patterns) {
    v.insert(v.end(), {double(p.layer), double(p.head), p.referent, p.other_noun, p.after_noun, p.after_noun_other});
    for (const RowShares* x : {&p.when_animal, &p.when_place})
      v.insert(v.end(), {x->animal, x->place, x->adjective, x->previous, x->self, x->entropy});
  }
  v.push_back(double(r.induction_heads.size()));
  for (const InductionHeadScore& h : r.induction_heads)
    v.insert(v.end(), {double(h.layer), double(h.head), h.previous, h.induction, h.same_token, h.self});
  const SentenceAttention& a = r.attention;
  const int n = static_cast<int>(a.maps.empty() ? 0 : a.maps[0].rows());
  v.insert(v.end(), {double(a.layers), double(a.heads), double(n), double(a.it_pos)});
  for (const Mat& m : a.maps)
    for (Eigen::Index i = 0; i < m.size(); ++i) v.push_back(m.data()[i]);
}

namespace {
bool whole(double x, double lo, double hi) { return std::isfinite(x) && x == std::floor(x) && x >= lo && x <= hi; }
}  // namespace

Status decode_report(const double* v, size_t n, TrainReport* out) {
  const Status bad = Status::Error("the training worker sent a report this page cannot read");
  constexpr size_t kHead = 13;
  if (!v || n < kHead + 4 || v[0] != kReportVersion) return bad;
  TrainReport r;
  if (!whole(v[1], 0, 1e6) || !whole(v[2], 1, 1e6) || !whole(v[7], 0, 1e7) || !whole(v[8], -1, 1e6) ||
      !whole(v[10], 0, 1e6) || !whole(v[11], 0, 1e7) || !whole(v[12], 0, 1e6))
    return bad;
  r.step = int(v[1]);
  r.steps = int(v[2]);
  r.loss = v[3];
  r.heldout_accuracy = v[4];
  r.referent_argmax = v[5];
  r.evaluated_on_all = v[6] != 0;
  r.curve_sentences = int(v[7]);
  r.diverged_step = int(v[8]);
  r.diverged_loss = v[9];
  r.kept_step = int(v[10]);
  r.heldout_sentences = int(v[11]);
  const size_t P = size_t(v[12]);
  if (n < kHead + 4 * P + 4) return bad;
  for (size_t i = 0; i < P; ++i) {
    const double* p = v + kHead + 4 * i;
    if (!whole(p[0], 0, 1e6)) return bad;
    r.curve.push_back({int(p[0]), p[1], p[2], p[3]});
  }
  // the head patterns: Q × 18 numbers, shares in [0, 1], entropies in [0, ln 4096]
  const double* q = v + kHead + 4 * P;
  if (!whole(q[0], 0, 4096)) return bad;
  const size_t Q = size_t(q[0]);
  constexpr size_t kPattern = 18;
  if (n < kHead + 4 * P + 1 + kPattern * Q + 4) return bad;
  for (size_t i = 0; i < Q; ++i) {
    const double* x = q + 1 + kPattern * i;
    if (!whole(x[0], 0, 63) || !whole(x[1], 0, 63)) return bad;
    for (size_t k = 2; k < kPattern; ++k) {
      const bool entropy = k == 11 || k == 17;
      if (!std::isfinite(x[k]) || x[k] < 0 || x[k] > (entropy ? 8.32 : 1.0 + 1e-6)) return bad;
    }
    HeadPattern p;
    p.layer = int(x[0]), p.head = int(x[1]), p.referent = x[2], p.other_noun = x[3], p.after_noun = x[4],
      p.after_noun_other = x[5];
    RowShares* s2[2] = {&p.when_animal, &p.when_place};
    for (int j = 0; j < 2; ++j) {
      const double* y = x + 6 + 6 * j;
      *s2[j] = RowShares{y[0], y[1], y[2], y[3], y[4], y[5]};
    }
    r.head_patterns.push_back(p);
  }
  // the induction head scores: Z × 6 numbers, shares in [0, 1]
  const double* z = q + 1 + kPattern * Q;
  if (!whole(z[0], 0, 4096)) return bad;
  const size_t Z = size_t(z[0]);
  constexpr size_t kScore = 6;
  if (n < size_t(z - v) + 1 + kScore * Z + 4) return bad;
  for (size_t i = 0; i < Z; ++i) {
    const double* x = z + 1 + kScore * i;
    if (!whole(x[0], 0, 63) || !whole(x[1], 0, 63)) return bad;
    for (size_t k = 2; k < kScore; ++k)
      if (!std::isfinite(x[k]) || x[k] < 0 || x[k] > 1.0 + 1e-6) return bad;
    InductionHeadScore h;
    h.layer = int(x[0]), h.head = int(x[1]), h.previous = x[2], h.induction = x[3], h.same_token = x[4], h.self = x[5];
    r.induction_heads.push_back(h);
  }
  const double* a = z + 1 + kScore * Z;
  if (!whole(a[0], 1, 64) || !whole(a[1], 1, 64) || !whole(a[2], 0, 4096) || !whole(a[3], -1, a[2])) return bad;
  SentenceAttention& s = r.attention;
  s.layers = int(a[0]);
  s.heads = int(a[1]);
  const int w = int(a[2]);
  s.it_pos = int(a[3]);
  const size_t maps = size_t(s.layers) * size_t(s.heads);
  if (n != size_t(a - v) + 4 + maps * size_t(w) * size_t(w)) return bad;
  const double* m = a + 4;
  for (size_t k = 0; k < maps && w > 0; ++k) {
    Mat x(w, w);
    for (int i = 0; i < w * w; ++i) {
      if (!std::isfinite(m[i]) || m[i] < 0 || m[i] > 1) return bad;
      x.data()[i] = static_cast<float>(m[i]);
    }
    s.maps.push_back(std::move(x));
    m += size_t(w) * size_t(w);
  }
  *out = std::move(r);
  return Status::Ok();
}

}  // namespace train
}  // namespace ap
