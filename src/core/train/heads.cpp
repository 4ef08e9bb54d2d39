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

const char* after_noun_relation(const HeadPattern& p) {
  if (p.after_noun > 0.5) return "previous token";
  if (p.after_noun + p.after_noun_other > 0.5) return "nouns";
  return "spread";
}

Recipe heads_recipe(int heads, uint64_t seed) {
  Recipe r;
  r.task = kHeadsTask;
  r.layers = 1;
  r.heads = heads;
  r.seed = seed;
  return r;
}

namespace {
int place_class(const CorefSentence& s) { return static_cast<int>(coref_animals().size()) + s.place; }

// The two rows after the nouns, with their targets: (position after the animal, animal class), (after the place,
// place class); a noun followed by "it" gives its row to the other noun (heads.h).
void after_noun_rows(const CorefSentence& s, int row[2], int target[2]) {
  row[0] = s.animal_pos + 1, target[0] = s.animal;
  row[1] = s.place_pos + 1, target[1] = place_class(s);
  if (row[0] == s.it_pos) row[0] = row[1], target[0] = target[1];
  if (row[1] == s.it_pos) row[1] = row[0], target[1] = target[0];
}
}  // namespace

int referent_class(const CorefSentence& s) { return s.refers_to_animal ? s.animal : place_class(s); }

void fill_referent_batch(const CorefDataset& data, const std::vector<CorefSentence>& sentences, const int* indices,
                         int B, Batch* batch) {
  fill_coref_batch(data, sentences, indices, B, batch);  // ids and padding (and one row per sentence, replaced)
  const size_t R = kHeadsRows;
  batch->row.resize(static_cast<size_t>(B) * R);
  batch->target.resize(static_cast<size_t>(B) * R);
  for (size_t b = 0; b < static_cast<size_t>(B); ++b) {
    const CorefSentence& s = sentences[static_cast<size_t>(indices[b])];
    batch->row[b * R] = s.it_pos;
    batch->target[b * R] = referent_class(s);
    after_noun_rows(s, &batch->row[b * R + 1], &batch->target[b * R + 1]);
  }
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
        // the rows the loss reads after a noun (after_noun_rows: never "it"): the weight on that noun and on the
        // other one (a row that stands in twice counts twice, which leaves the mean as it is)
        int rows[2], targets[2];
        after_noun_rows(s, rows, targets);
        double on = 0, other = 0;
        for (int r : rows) {
          const int noun = r - 1, other_pos = noun == s.animal_pos ? s.place_pos : s.animal_pos;
          on += att((b * H + h) * T + r, noun), other += att((b * H + h) * T + r, other_pos);
        }
        p.after_noun += on / 2, p.after_noun_other += other / 2;
      }
    }
  }
}

void finish_head_patterns(size_t animal_sentences, size_t place_sentences, std::vector<HeadPattern>* patterns) {
  const double na = static_cast<double>(animal_sentences), np = static_cast<double>(place_sentences);
  for (HeadPattern& p : *patterns) {
    for (auto [r, n] : {std::pair<RowShares*, double>{&p.when_animal, na}, {&p.when_place, np}})
      if (n > 0) r->animal /= n, r->place /= n, r->adjective /= n, r->previous /= n, r->self /= n, r->entropy /= n;
    if (na + np > 0) {
      const double n = na + np;
      p.referent /= n, p.other_noun /= n, p.after_noun /= n, p.after_noun_other /= n;
    }
  }
}

}  // namespace train
}  // namespace ap
