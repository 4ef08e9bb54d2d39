#include "heads.h"

#include <algorithm>
#include <cmath>

#include "core/embedding.h"
#include "param_store.h"
#include "recipe.h"
#include "trainer.h"

namespace ap {
namespace train {

namespace {
constexpr int kEvalBatch = 64;
constexpr int kLossWindow = 100;

// Accuracy of the classifier (argmax of the 40 logits = the referent) on the first `count` of `set`; with
// `patterns`, also adds every head's "it"-row measures into it (sums, divided by the caller).
double measure(AttentionModel& model, const CorefDataset& data, const std::vector<CorefSentence>& set, size_t count,
               std::vector<HeadPattern>* patterns) {
  const int T = data.seq_len, H = model.config().heads, K = model.config().classes;
  std::vector<int> idx(kEvalBatch);
  Batch batch;
  size_t right = 0;
  for (size_t start = 0; start < count; start += kEvalBatch) {
    const int B = static_cast<int>(std::min<size_t>(kEvalBatch, count - start));
    for (int b = 0; b < B; ++b) idx[static_cast<size_t>(b)] = static_cast<int>(start) + b;
    fill_referent_batch(data, set, idx.data(), B, &batch);
    double loss;
    if (!model.forward(batch, &loss).ok) return 0;
    const CMatMap probs = model.class_probs();  // [B, K]
    const CMatMap att = model.attention(0);     // [B·H·T, T]
    for (int b = 0; b < B; ++b) {
      const CorefSentence& s = set[static_cast<size_t>(idx[static_cast<size_t>(b)])];
      Eigen::Index best;
      probs.row(b).head(K).maxCoeff(&best);
      right += best == referent_class(s);
      if (!patterns) continue;
      const int n = static_cast<int>(s.ids.size());
      for (int h = 0; h < H; ++h) {
        const auto row = att.row((b * H + h) * T + s.it_pos);
        HeadPattern& p = (*patterns)[static_cast<size_t>(h)];
        RowShares& r = s.refers_to_animal ? p.when_animal : p.when_place;
        p.referent += row(s.target_pos());
        p.other_noun += row(s.distractor_pos());
        r.animal += row(s.animal_pos);
        r.place += row(s.place_pos);
        r.adjective += row(s.adj_pos);
        r.previous += row(s.it_pos - 1);
        r.self += row(s.it_pos);
        // entropy −Σ p ln p over the n visible keys (0 · ln 0 = 0: padding keys hold exactly 0)
        double e = 0;
        for (int j = 0; j < n; ++j)
          if (row(j) > 0) e -= row(j) * std::log(static_cast<double>(row(j)));
        r.entropy += e;
      }
    }
  }
  return count ? static_cast<double>(right) / static_cast<double>(count) : 0.0;
}
}  // namespace

const char* row_relation(const RowShares& s) {
  if (s.animal > 0.5) return "animal";
  if (s.place > 0.5) return "place";
  if (s.adjective > 0.5) return "adjective";
  if (s.previous > 0.5) return "previous token";
  if (s.self > 0.5) return "itself";
  if (s.animal + s.place > 0.5) return "nouns";
  return "spread";
}

std::string head_relation(const HeadPattern& p) {
  const std::string a = row_relation(p.when_animal), b = row_relation(p.when_place);
  return a == b ? a : a + " | " + b;
}

Recipe heads_recipe(int heads, uint64_t seed) {
  Recipe r;  // d_model 16, 1500 steps, learning rate 0.01, batch 32
  r.layers = 1;
  r.heads = heads;
  r.seed = seed;
  return r;
}

int referent_class(const CorefSentence& s) {
  return s.refers_to_animal ? s.animal : static_cast<int>(coref_animals().size()) + s.place;
}

void fill_referent_batch(const CorefDataset& data, const std::vector<CorefSentence>& sentences, const int* indices,
                         int B, Batch* batch) {
  fill_coref_batch(data, sentences, indices, B, batch);  // ids, padding, row = "it"
  for (int b = 0; b < B; ++b) batch->target[static_cast<size_t>(b)] = referent_class(sentences[static_cast<size_t>(indices[b])]);
}

Status train_heads(const Recipe& r, HeadsResult* out) {
  // 0) the recipe, checked as the coreference recipes are, with one layer
  if (r.layers != 1)
    return Status::Error("{0} must be between {1} and {2}, got {3}", {"layers", arg(1), arg(1), arg(r.layers)});
  AP_TRY(validate_recipe(r, coref_seq_len()));
  // 1) the data: the coreference task's sentences and split
  CorefDataset data;
  AP_TRY(make_coref_dataset(kTaskSplitSeed, &data));
  // 2) one attention layer, H heads, a classifier over the 40 nouns on the "it" row
  ModelConfig c = coref_model_config(r, data, kEvalBatch);
  c.readout = Readout::Classifier;
  c.classes = static_cast<int>(coref_animals().size() + coref_places().size());
  AttentionModel model;
  AP_TRY(model.init(c));
  AdamConfig ac;
  ac.lr = r.learning_rate;
  ac.clip_norm = 1.0;
  Adam adam(ac);
  // 3) the run: seeded minibatches of training sentences
  SeededRng rng(r.seed, 0xBA7C4ull);
  std::vector<int> idx(static_cast<size_t>(r.batch));
  Batch batch;
  double window = 0;
  int in_window = 0;
  for (int step = 0; step < r.steps; ++step) {
    for (int b = 0; b < r.batch; ++b) idx[static_cast<size_t>(b)] = static_cast<int>(rng.next_u64() % data.train.size());
    fill_referent_batch(data, data.train, idx.data(), r.batch, &batch);
    double loss = 0, norm = 0;
    AP_TRY(model.train_step(batch, adam, &loss, &norm));
    if (!std::isfinite(loss) || !std::isfinite(norm) || loss > kExplodingLoss)
      return divergence_status(step + 1, loss, 0);
    if (step >= r.steps - kLossWindow) window += loss, ++in_window;
  }
  // 4) the measures: accuracy on every held-out sentence (and on training ones), each head's "it" row
  HeadsResult res;
  res.recipe = r;
  res.steps = r.steps;
  res.final_loss = in_window ? window / in_window : std::nan("");
  res.heads.assign(static_cast<size_t>(r.heads), HeadPattern{});
  res.heldout_accuracy = measure(model, data, data.heldout, data.heldout.size(), &res.heads);
  size_t n_animal = 0;
  for (const CorefSentence& x : data.heldout) n_animal += x.refers_to_animal;
  const double na = static_cast<double>(n_animal), np = static_cast<double>(data.heldout.size() - n_animal);
  for (HeadPattern& p : res.heads) {
    for (auto [r, n] : {std::pair<RowShares*, double>{&p.when_animal, na}, {&p.when_place, np}})
      r->animal /= n, r->place /= n, r->adjective /= n, r->previous /= n, r->self /= n, r->entropy /= n;
    p.referent /= na + np, p.other_noun /= na + np;
  }
  res.train_accuracy = measure(model, data, data.train, data.train.size(), nullptr);
  *out = std::move(res);
  return Status::Ok();
}

}  // namespace train
}  // namespace ap
