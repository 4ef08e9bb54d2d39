#include "induction.h"

#include <algorithm>

namespace ap {
namespace train {

const std::vector<std::string>& induction_vocabulary() {
  static const std::vector<std::string> v = [] {
    std::vector<std::string> w;
    for (int i = 0; i < kInductionVocab; ++i) w.push_back(std::string(1, static_cast<char>('A' + i)));
    return w;
  }();
  return v;
}

int induction_token(const std::string& w) {
  return w.size() == 1 && w[0] >= 'A' && w[0] < 'A' + kInductionVocab ? w[0] - 'A' : -1;
}

Status check_induction_tokens(const std::vector<std::string>& words) {
  if (words.size() < 2 || words.size() > static_cast<size_t>(kInductionSeqLen))
    return Status::Error("a sequence of this model holds 2 to {0} tokens, got {1}",
                         {arg(kInductionSeqLen), arg(static_cast<long long>(words.size()))});
  for (const std::string& w : words)
    if (induction_token(w) < 0)
      return Status::Error("{0} is not a token of this model (its tokens: the capital letters A to {1})",
                           {"\"" + w + "\"", std::string(1, static_cast<char>('A' + kInductionVocab - 1))});
  return Status::Ok();
}

Recipe induction_recipe(int layers, uint64_t seed) {
  Recipe r;
  r.task = kInductionTask;
  r.layers = layers;
  r.heads = 1;
  r.d_model = 16;
  r.seed = seed;
  r.steps = 600;
  r.learning_rate = 1e-2;
  r.batch = 32;
  return r;
}

uint64_t segment_key(const InductionSequence& s) {
  uint64_t k = 0;
  for (int i = 0; i < kInductionSegment; ++i) k = (k << 5) | static_cast<uint64_t>(s.ids[s.s1 + i]);
  return k;
}

namespace {
int below(SeededRng& rng, int n) { return static_cast<int>(rng.next_u64() % static_cast<uint64_t>(n)); }
}  // namespace

void sample_induction(SeededRng& rng, const std::unordered_set<uint64_t>* excluded, InductionSequence* out) {
  constexpr int T = kInductionSeqLen, N = kInductionSegment, V = kInductionVocab;
  InductionSequence& s = *out;
  for (;;) {
    // 1) the segment: N distinct tokens (a partial Fisher–Yates shuffle of the vocabulary)
    int perm[V];
    for (int i = 0; i < V; ++i) perm[i] = i;
    for (int i = 0; i < N; ++i) std::swap(perm[i], perm[i + below(rng, V - i)]);
    // 2) where it occurs: s1 in [0, T − 2N], s2 in [s1 + N, T − N] (random gap: position alone cannot tell)
    s.s1 = below(rng, T - 2 * N + 1);
    s.s2 = s.s1 + N + below(rng, T - N - (s.s1 + N) + 1);
    // 3) fillers from the other V − N tokens, so the segment's tokens occur exactly twice
    for (int t = 0; t < T; ++t) s.ids[t] = perm[N + below(rng, V - N)];
    for (int i = 0; i < N; ++i) s.ids[s.s1 + i] = s.ids[s.s2 + i] = perm[i];
    if (!excluded || !excluded->count(segment_key(s))) return;
  }
}

void make_induction_dataset(uint64_t split_seed, InductionDataset* out) {
  InductionDataset d;
  SeededRng rng(split_seed, 0x1D0C7ull);
  while (d.heldout.size() < static_cast<size_t>(kInductionHeldout)) {
    InductionSequence s;
    sample_induction(rng, &d.heldout_segments, &s);  // distinct segments
    d.heldout_segments.insert(segment_key(s));
    d.heldout.push_back(s);
  }
  *out = std::move(d);
}

ModelConfig induction_model_config(int layers, int heads, int d_model, int max_batch, uint64_t seed) {
  ModelConfig c;
  c.vocab = kInductionVocab;
  c.seq_len = kInductionSeqLen;
  c.d_model = d_model;
  c.layers = layers;
  c.heads = heads;
  c.causal = true;
  c.readout = Readout::Classifier;
  c.classes = kInductionVocab;
  c.readout_rows = kInductionRows;
  c.max_batch = max_batch;
  c.seed = seed;
  return c;
}

void fill_induction_batch(const std::vector<InductionSequence>& set, const int* idx, int B, Batch* batch) {
  constexpr int T = kInductionSeqLen, R = kInductionRows;
  batch->B = B;
  batch->ids.resize(static_cast<size_t>(B) * T);
  batch->pad.assign(static_cast<size_t>(B) * T, 0);
  batch->row.resize(static_cast<size_t>(B) * R);
  batch->target.resize(static_cast<size_t>(B) * R);
  for (int b = 0; b < B; ++b) {
    const InductionSequence& s = set[static_cast<size_t>(idx[b])];
    std::copy(s.ids, s.ids + T, batch->ids.begin() + static_cast<std::ptrdiff_t>(b) * T);
    for (int r = 0; r < R; ++r) {
      batch->row[static_cast<size_t>(b * R + r)] = s.row(r);
      batch->target[static_cast<size_t>(b * R + r)] = s.target(r);
    }
  }
}

const char* induction_relation(const InductionHeadScore& s) {
  if (s.previous > 0.5) return "previous token";
  if (s.induction > 0.5) return "induction";
  if (s.same_token > 0.5) return "same token";
  if (s.self > 0.5) return "itself";
  return "spread";
}

void add_induction_scores(const AttentionModel& model, const std::vector<InductionSequence>& set, const int* idx,
                          int B, InductionScores* scores) {
  constexpr int T = kInductionSeqLen, R = kInductionRows;
  const int H = model.config().heads, L = model.config().layers;
  scores->heads.resize(static_cast<size_t>(L) * H);
  // 1) the heads: every layer's weights [B·H·T, T], row (b·H + h)·T + i
  for (int l = 0; l < L; ++l) {
    const CMatMap att = model.attention(l);
    for (int h = 0; h < H; ++h) {
      InductionHeadScore& hs = scores->heads[static_cast<size_t>(l * H + h)];
      hs.layer = l, hs.head = h;
      for (int b = 0; b < B; ++b) {
        const InductionSequence& s = set[static_cast<size_t>(idx[b])];
        const int base = (b * H + h) * T;
        double prev = 0, self = 0, ind = 0, same = 0;
        for (int i = 0; i < T; ++i) self += att(base + i, i);
        for (int i = 1; i < T; ++i) prev += att(base + i, i - 1);
        for (int r = 0; r < R; ++r) {
          ind += att(base + s.row(r), s.source(r));
          same += att(base + s.row(r), s.source(r) - 1);
        }
        hs.previous += prev / (T - 1);
        hs.self += self / T;
        hs.induction += ind / R;
        hs.same_token += same / R;
      }
    }
  }
  // 2) the predictions: the largest of the V probabilities on each readout row
  const CMatMap probs = model.class_probs();  // [B·R, V]
  for (int b = 0; b < B; ++b) {
    const InductionSequence& s = set[static_cast<size_t>(idx[b])];
    for (int r = 0; r < R; ++r) {
      Eigen::Index best;
      probs.row(b * R + r).maxCoeff(&best);
      scores->right += best == s.target(r);
    }
  }
  scores->predictions += static_cast<long long>(B) * R;
  scores->sequences += B;
}

void finish_induction_scores(InductionScores* scores) {
  if (!scores->sequences) return;
  const double n = static_cast<double>(scores->sequences);
  for (InductionHeadScore& h : scores->heads) h.previous /= n, h.induction /= n, h.same_token /= n, h.self /= n;
}

}  // namespace train
}  // namespace ap
