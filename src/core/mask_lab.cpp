#include "mask_lab.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "attention.h"
#include "embedding.h"
#include "tokenizer.h"

namespace ap {

namespace {

struct BugInfo {
  MaskBug bug;
  const char* name;
  bool needs_causal;
};
constexpr BugInfo kBugs[kMaskBugCount] = {
    {MaskBug::None, "none", false},
    {MaskBug::MaskAfterSoftmax, "mask-after-softmax", false},
    {MaskBug::ScaleAfterSoftmax, "scale-after-softmax", false},
    {MaskBug::SoftmaxOverColumns, "softmax-over-columns", false},
    {MaskBug::ScaleByDModel, "scale-by-d_model", false},
    {MaskBug::CausalOmitted, "causal-omitted", true},
    {MaskBug::CausalTransposed, "causal-transposed", true},
    {MaskBug::CausalDiagonal, "causal-diagonal", true},
};

bool valid_bug(MaskBug b) { return static_cast<int>(b) >= 0 && static_cast<int>(b) < kMaskBugCount; }

// Does the CORRECT computation hide key j from query i?
bool truly_hidden(const std::vector<uint8_t>& pad, bool causal, int i, int j) {
  return pad[j] != 0 || (causal && j > i);
}

// What the variant's own mask hides before its softmax.
bool variant_hides(MaskBug bug, const std::vector<uint8_t>& pad, bool causal, int i, int j) {
  switch (bug) {
    case MaskBug::MaskAfterSoftmax: return false;  // nothing before softmax: the mask comes after
    case MaskBug::CausalOmitted: return pad[j] != 0;
    case MaskBug::CausalTransposed: return pad[j] != 0 || j < i;   // tril/triu swapped
    case MaskBug::CausalDiagonal: return pad[j] != 0 || j >= i;    // diagonal hidden too
    default: return truly_hidden(pad, causal, i, j);
  }
}

// The variant, inputs already validated.
LabAttention compute(const Mat& Q, const Mat& K, const Mat& V, const std::vector<uint8_t>& pad, bool causal,
                     int d_model, MaskBug bug) {
  const int L = static_cast<int>(Q.rows()), d_k = static_cast<int>(Q.cols());
  const float sqrt_dk = static_cast<float>(std::sqrt(static_cast<double>(d_k)));
  LabAttention a;
  // 1) scores S = Q·Kᵀ                                                       L × d_k · d_k × L -> L × L
  Mat S;
  S.noalias() = Q * K.transpose();
  // 2) the scale this variant divides by BEFORE softmax
  float scale = sqrt_dk;
  if (bug == MaskBug::ScaleAfterSoftmax) scale = 1.f;  // forgotten here, applied after softmax (step 5)
  if (bug == MaskBug::ScaleByDModel) scale = static_cast<float>(std::sqrt(static_cast<double>(d_model)));
  // 3) logits: scaled scores, -inf where the variant's own mask hides (exp(-inf) is exactly 0)
  a.hidden.resize(L, L);
  a.logits.resize(L, L);
  for (int i = 0; i < L; ++i)
    for (int j = 0; j < L; ++j) {
      a.hidden(i, j) = truly_hidden(pad, causal, i, j) ? 1.f : 0.f;
      a.logits(i, j) = variant_hides(bug, pad, causal, i, j) ? kNegInf : S(i, j) / scale;
    }
  // 4) softmax over each row (max-subtracted, so exp cannot overflow) — or, for that bug, over each column
  SoftmaxTrace sm;
  Status s;
  if (bug == MaskBug::SoftmaxOverColumns) {
    s = softmax_rows(Mat(a.logits.transpose()), &sm);
    a.weights = sm.weights.transpose();
  } else {
    s = softmax_rows(a.logits, &sm);
    a.weights = std::move(sm.weights);
  }
  (void)s;  // cannot fail: logits are finite or -inf, never NaN or +inf (inputs are validated)
  // 5) what some variants do after softmax
  if (bug == MaskBug::MaskAfterSoftmax)
    for (int i = 0; i < L; ++i)
      for (int j = 0; j < L; ++j)
        if (a.hidden(i, j) != 0.f) a.weights(i, j) = 0.f;  // zeroed, never renormalised
  if (bug == MaskBug::ScaleAfterSoftmax) a.weights /= sqrt_dk;
  // 6) output O = A·V                                                         L × L · L × d_v -> L × d_v
  a.output.noalias() = a.weights * V;
  return a;
}

// Sums over the real rows, so a batch can be averaged over all its rows at once.
struct Tally {
  MaskDamage d;
  double hidden_sum = 0, peak_sum = 0, entropy_sum = 0;
  int rows = 0, shaped_rows = 0;
  void add(const Tally& o) {
    d.max_row_sum_dev = std::max(d.max_row_sum_dev, o.d.max_row_sum_dev);
    d.max_hidden_mass = std::max(d.max_hidden_mass, o.d.max_hidden_mass);
    d.max_pad_mass = std::max(d.max_pad_mass, o.d.max_pad_mass);
    d.max_future_mass = std::max(d.max_future_mass, o.d.max_future_mass);
    d.max_weight = std::max(d.max_weight, o.d.max_weight);
    d.max_output_diff = std::max(d.max_output_diff, o.d.max_output_diff);
    d.max_abs_output = std::max(d.max_abs_output, o.d.max_abs_output);
    d.pad_leak = std::max(d.pad_leak, o.d.pad_leak);
    d.future_leak = std::max(d.future_leak, o.d.future_leak);
    d.empty_rows += o.d.empty_rows;
    hidden_sum += o.hidden_sum;
    peak_sum += o.peak_sum;
    entropy_sum += o.entropy_sum;
    rows += o.rows;
    shaped_rows += o.shaped_rows;
  }
  MaskDamage finish() const {
    MaskDamage out = d;
    out.mean_hidden_mass = rows > 0 ? hidden_sum / rows : 0.0;
    out.mean_peak = shaped_rows > 0 ? peak_sum / shaped_rows : 0.0;
    out.mean_entropy = shaped_rows > 0 ? entropy_sum / shaped_rows : 0.0;
    return out;
  }
};

// Measures of one sentence (leaks are filled in by the caller). Sums in double.
Tally measure(const LabAttention& a, const LabAttention& correct, const std::vector<uint8_t>& pad, bool causal) {
  Tally t;
  const int L = static_cast<int>(a.weights.rows());
  for (int i = 0; i < L; ++i) {
    if (pad[i]) continue;  // padding query: its output is thrown away
    double sum = 0, hidden = 0, padm = 0, future = 0, peak = 0;
    for (int j = 0; j < L; ++j) {
      const double w = a.weights(i, j);
      sum += w;
      if (a.hidden(i, j) != 0.f) hidden += w;
      if (pad[j]) padm += w;
      if (causal && j > i) future += w;
      peak = std::max(peak, w);
    }
    ++t.rows;
    t.d.max_row_sum_dev = std::max(t.d.max_row_sum_dev, std::fabs(sum - 1.0));
    t.d.max_hidden_mass = std::max(t.d.max_hidden_mass, hidden);
    t.d.max_pad_mass = std::max(t.d.max_pad_mass, padm);
    t.d.max_future_mass = std::max(t.d.max_future_mass, future);
    t.d.max_weight = std::max(t.d.max_weight, peak);
    t.hidden_sum += hidden;
    if (sum > 0.0) {
      // the row's SHAPE, p = A_i / Σ_j A_ij: sharpness comparable even when the row does not sum to 1
      double h = 0.0;
      for (int j = 0; j < L; ++j) {
        const double p = a.weights(i, j) / sum;
        if (p > 0.0) h -= p * std::log(p);  // 0·ln 0 = 0
      }
      t.peak_sum += peak / sum;
      t.entropy_sum += h;
      ++t.shaped_rows;
    } else {
      ++t.d.empty_rows;
    }
    for (Eigen::Index c = 0; c < a.output.cols(); ++c) {
      t.d.max_output_diff =
          std::max(t.d.max_output_diff, std::fabs(static_cast<double>(a.output(i, c)) - correct.output(i, c)));
      t.d.max_abs_output = std::max(t.d.max_abs_output, std::fabs(static_cast<double>(a.output(i, c))));
    }
  }
  return t;
}

// Largest |ΔO| over the real rows i < before (before = L: every real row).
double max_change(const Mat& a, const Mat& b, const std::vector<uint8_t>& pad, int before) {
  double m = 0.0;
  for (int i = 0; i < before; ++i)
    if (!pad[i])
      for (Eigen::Index c = 0; c < a.cols(); ++c) m = std::max(m, std::fabs(static_cast<double>(a(i, c)) - b(i, c)));
  return m;
}

// Replaces the rows `which` of Q, K, V by other seeded values (scale 2, so that they differ clearly from
// what was there), runs the variant again and returns its output.
Mat rerun_with(const Mat& Q, const Mat& K, const Mat& V, const std::vector<uint8_t>& pad, bool causal, int d_model,
               MaskBug bug, const std::vector<int>& which, uint64_t stream) {
  Mat Q2 = Q, K2 = K, V2 = V;
  const int L = static_cast<int>(Q.rows());
  const Mat rq = seeded_gaussian(L, static_cast<int>(Q.cols()), 0x1ab, stream, 2.0);
  const Mat rk = seeded_gaussian(L, static_cast<int>(K.cols()), 0x1ab, stream + 1, 2.0);
  const Mat rv = seeded_gaussian(L, static_cast<int>(V.cols()), 0x1ab, stream + 2, 2.0);
  for (int r : which) {
    Q2.row(r) = rq.row(r);
    K2.row(r) = rk.row(r);
    V2.row(r) = rv.row(r);
  }
  return compute(Q2, K2, V2, pad, causal, d_model, bug).output;
}

// pad_leak and future_leak of one variant in one sentence.
void leaks(const Mat& Q, const Mat& K, const Mat& V, const std::vector<uint8_t>& pad, bool causal, int d_model,
           MaskBug bug, const Mat& output, MaskDamage* d) {
  const int L = static_cast<int>(Q.rows());
  std::vector<int> pads;
  int last_real = -1;
  for (int i = 0; i < L; ++i) {
    if (pad[i]) pads.push_back(i);
    else last_real = i;
  }
  // 1) padding: change what the [PAD] tokens hold; no real row may move
  if (!pads.empty())
    d->pad_leak = max_change(rerun_with(Q, K, V, pad, causal, d_model, bug, pads, 11), output, pad, L);
  // 2) future: change the last real token; no earlier row may move
  if (causal && last_real > 0)
    d->future_leak =
        max_change(rerun_with(Q, K, V, pad, causal, d_model, bug, {last_real}, 21), output, pad, last_real);
}

Status check_bug(MaskBug bug, bool causal) {
  if (!valid_bug(bug)) return Status::Error("unknown bug number {0}", {arg(static_cast<int>(bug))});
  if (mask_bug_needs_causal(bug) && !causal)
    return Status::Error("the bug \"{0}\" needs the causal mask on", {mask_bug_name(bug)});
  return Status::Ok();
}

Status check_sentence(const Mat& Q, const Mat& K, const Mat& V, const std::vector<uint8_t>& pad, int d_model,
                      const std::string& q, const std::string& k, const std::string& v) {
  AP_TRY(check_matrix(Q, q.c_str(), -1, -1, lab_limits::kMaxLength, limits::kMaxHeadDim));
  const int L = static_cast<int>(Q.rows()), d_k = static_cast<int>(Q.cols());
  AP_TRY(check_matrix(K, k.c_str(), L, d_k, lab_limits::kMaxLength, limits::kMaxHeadDim));
  AP_TRY(check_matrix(V, v.c_str(), L, -1, lab_limits::kMaxLength, limits::kMaxHeadDim));
  if (static_cast<int>(pad.size()) != L)
    return Status::Error("padding mask: {0} padding flags for {1} keys",
                         {arg(static_cast<long long>(pad.size())), arg(L)});
  AP_TRY(check_size(d_model, "d_model", limits::kMaxModelDim));
  if (d_model < d_k) return Status::Error("d_model ({0}) must be at least d_k ({1})", {arg(d_model), arg(d_k)});
  return Status::Ok();
}

}  // namespace

const char* mask_bug_name(MaskBug b) { return valid_bug(b) ? kBugs[static_cast<int>(b)].name : "none"; }

bool parse_mask_bug_name(const std::string& s, MaskBug* out) {
  for (const BugInfo& b : kBugs)
    if (s == b.name) {
      *out = b.bug;
      return true;
    }
  return false;
}

bool mask_bug_needs_causal(MaskBug b) { return valid_bug(b) && kBugs[static_cast<int>(b)].needs_causal; }

std::vector<MaskBug> all_mask_bugs() {
  std::vector<MaskBug> v;
  for (const BugInfo& b : kBugs) v.push_back(b.bug);
  return v;
}

Status make_padded_batch(const std::vector<std::vector<std::string>>& sentences, int pad_to, int d_model, int heads,
                         uint64_t seed, PaddedBatch* out) {
  AP_TRY(check_size(static_cast<long long>(sentences.size()), "the number of sentences", lab_limits::kMaxBatch));
  AP_TRY(check_size(d_model, "d_model", limits::kMaxModelDim));
  AP_TRY(check_size(heads, "heads", limits::kMaxHeads));
  if (d_model % heads != 0) return Status::Error("heads ({0}) must divide d_model ({1})", {arg(heads), arg(d_model)});
  if (pad_to < 0 || pad_to > lab_limits::kMaxLength)
    return Status::Error("{0} must be between {1} and {2}, got {3}",
                         {"pad_to", "0", arg(lab_limits::kMaxLength), arg(pad_to)});
  int longest = 0;
  for (size_t b = 0; b < sentences.size(); ++b) {
    const auto& s = sentences[b];
    const long long num = static_cast<long long>(b) + 1;
    if (s.empty()) return Status::Error("sentence {0} is empty", {arg(num)});
    if (std::all_of(s.begin(), s.end(), [](const std::string& t) { return t == kPadToken; }))
      return Status::Error("sentence {0} is only padding", {arg(num)});
    if (pad_to > 0 && static_cast<int>(s.size()) > pad_to)
      return Status::Error("sentence {0} has {1} tokens, more than the padded length {2}",
                           {arg(num), arg(static_cast<long long>(s.size())), arg(pad_to)});
    longest = std::max(longest, static_cast<int>(s.size()));
  }
  const int L = pad_to > 0 ? pad_to : longest;
  AP_TRY(check_size(L, "the padded length", lab_limits::kMaxLength));

  PaddedBatch p;
  p.L = L;
  p.d_model = d_model;
  p.heads = heads;
  p.d_k = d_model / heads;
  const Mat Wq = projection_weights(d_model, p.d_k, seed, 'Q', 0);
  const Mat Wk = projection_weights(d_model, p.d_k, seed, 'K', 0);
  const Mat Wv = projection_weights(d_model, p.d_k, seed, 'V', 0);
  for (const auto& s : sentences) {
    // 1) pad with "[PAD]" to L; the padding mask hides exactly the "[PAD]" keys
    std::vector<std::string> tokens = s;
    tokens.resize(L, kPadToken);
    std::vector<uint8_t> pad(L);
    for (int j = 0; j < L; ++j) pad[j] = tokens[j] == kPadToken;
    // 2) embed (seeded, with position codes: padding rows differ from one another), then project
    Mat X;
    AP_TRY(embed_tokens(tokens, d_model, seed, true, &X));
    p.Q.push_back(X * Wq);
    p.K.push_back(X * Wk);
    p.V.push_back(X * Wv);
    p.tokens.push_back(std::move(tokens));
    p.lengths.push_back(static_cast<int>(s.size()));
    p.key_is_pad.push_back(std::move(pad));
  }
  *out = std::move(p);
  return Status::Ok();
}

Status lab_attention(const Mat& Q, const Mat& K, const Mat& V, const std::vector<uint8_t>& key_is_pad, bool causal,
                     int d_model, MaskBug bug, LabAttention* out) {
  AP_TRY(check_bug(bug, causal));
  AP_TRY(check_sentence(Q, K, V, key_is_pad, d_model, "Q", "K", "V"));
  *out = compute(Q, K, V, key_is_pad, causal, d_model, bug);
  return Status::Ok();
}

Status run_mask_lab(const PaddedBatch& batch, bool causal, MaskBug bug, MaskLabRun* out) {
  AP_TRY(check_bug(bug, causal));
  const size_t B = batch.Q.size();
  AP_TRY(check_size(static_cast<long long>(B), "the number of sentences", lab_limits::kMaxBatch));
  if (batch.K.size() != B || batch.V.size() != B || batch.key_is_pad.size() != B)
    return Status::Error("the batch is inconsistent: {0} Q, {1} K, {2} V and {3} padding masks",
                         {arg(static_cast<long long>(B)), arg(static_cast<long long>(batch.K.size())),
                          arg(static_cast<long long>(batch.V.size())),
                          arg(static_cast<long long>(batch.key_is_pad.size()))});
  for (size_t b = 0; b < B; ++b) {
    const std::string num = arg(static_cast<long long>(b) + 1);
    AP_TRY(check_sentence(batch.Q[b], batch.K[b], batch.V[b], batch.key_is_pad[b], batch.d_model, "Q" + num,
                          "K" + num, "V" + num));
    if (std::all_of(batch.key_is_pad[b].begin(), batch.key_is_pad[b].end(), [](uint8_t f) { return f != 0; }))
      return Status::Error("sentence {0} is only padding", {num});
  }
  MaskLabRun r;
  r.bug = bug;
  r.causal = causal;
  Tally all, base;
  for (size_t b = 0; b < B; ++b) {
    const Mat &Q = batch.Q[b], &K = batch.K[b], &V = batch.V[b];
    const std::vector<uint8_t>& pad = batch.key_is_pad[b];
    // 1) the correct computation and the variant, side by side
    LabAttention good = compute(Q, K, V, pad, causal, batch.d_model, MaskBug::None);
    LabAttention bad = compute(Q, K, V, pad, causal, batch.d_model, bug);
    // 2) measures of both (the correct one's are the baseline: zero mass on hidden keys, sums of 1)
    Tally tb = measure(bad, good, pad, causal), tg = measure(good, good, pad, causal);
    // 3) leaks: change hidden tokens and watch the rows that must not see them
    leaks(Q, K, V, pad, causal, batch.d_model, bug, bad.output, &tb.d);
    leaks(Q, K, V, pad, causal, batch.d_model, MaskBug::None, good.output, &tg.d);
    r.per_sentence.push_back(tb.finish());
    all.add(tb);
    base.add(tg);
    r.correct.push_back(std::move(good));
    r.variant.push_back(std::move(bad));
  }
  r.damage = all.finish();
  r.baseline = base.finish();
  r.entropy_change = r.damage.mean_entropy - r.baseline.mean_entropy;
  r.peak_change = r.damage.mean_peak - r.baseline.mean_peak;
  r.max_weight_change = r.damage.max_weight - r.baseline.max_weight;
  *out = std::move(r);
  return Status::Ok();
}

}  // namespace ap
