#include "heads.h"

#include <cmath>
#include <cstring>

namespace ap {
namespace train {

const char* row_relation(const RowShares& s) {
  if (s.animal > 0.5) return "animal";
  if (s.place > 0.5) return "place";
  if (s.adjective > 0.5) return "adjective";
  if (s.previous > 0.5) return "previous token";
  if (s.self > 0.5) return "itself";
  if (s.animal + s.place > 0.5) return "nouns";
  return "spread";
}

std::string head_relation(const HeadPattern& p, const char* (*name)(const char*)) {
  const char *a = row_relation(p.when_animal), *b = row_relation(p.when_place);
  if (std::strcmp(a, b) == 0) return name ? name(a) : a;
  return std::string(name ? name(a) : a) + " | " + (name ? name(b) : b);
}

Recipe heads_recipe(int heads, uint64_t seed) {
  Recipe r;
  r.task = kHeadsTask;
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

void add_head_patterns(const AttentionModel& model, const std::vector<CorefSentence>& set, const int* idx, int B,
                       std::vector<HeadPattern>* patterns) {
  const int T = model.config().seq_len, H = model.config().heads, L = model.config().layers;
  patterns->resize(static_cast<size_t>(L) * H);
  for (int l = 0; l < L; ++l) {
    const CMatMap att = model.attention(l);  // [B·H·T, T]
    for (int b = 0; b < B; ++b) {
      const CorefSentence& s = set[static_cast<size_t>(idx[b])];
      const int n = static_cast<int>(s.ids.size());
      for (int h = 0; h < H; ++h) {
        const auto row = att.row((b * H + h) * T + s.it_pos);
        HeadPattern& p = (*patterns)[static_cast<size_t>(l * H + h)];
        p.layer = l, p.head = h;
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
}

void finish_head_patterns(size_t animal_sentences, size_t place_sentences, std::vector<HeadPattern>* patterns) {
  const double na = static_cast<double>(animal_sentences), np = static_cast<double>(place_sentences);
  for (HeadPattern& p : *patterns) {
    for (auto [r, n] : {std::pair<RowShares*, double>{&p.when_animal, na}, {&p.when_place, np}})
      if (n > 0) r->animal /= n, r->place /= n, r->adjective /= n, r->previous /= n, r->self /= n, r->entropy /= n;
    if (na + np > 0) p.referent /= na + np, p.other_noun /= na + np;
  }
}

}  // namespace train
}  // namespace ap
