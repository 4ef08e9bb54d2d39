#include "translation.h"

#include <algorithm>
#include <map>

#include "core/embedding.h"

namespace ap {
namespace train {

namespace {
struct Noun {
  const char* fr;
  bool fem;
  std::vector<const char*> en;  // "living room": two words, both aligned to "salon"
};
struct Adj {
  const char *m, *f, *en;
};
struct Word {
  const char *fr, *en;
};

const std::vector<Noun>& subjects() {
  static const std::vector<Noun> k = {{"chat", false, {"cat"}},  {"chien", false, {"dog"}},  {"souris", true, {"mouse"}},
                                      {"garçon", false, {"boy"}}, {"fille", true, {"girl"}}};
  return k;
}
const std::vector<Noun>& things() {
  static const std::vector<Noun> k = {
      {"tapis", false, {"carpet"}}, {"salon", false, {"living", "room"}}, {"lit", false, {"bed"}},   {"jardin", false, {"garden"}},
      {"livre", false, {"book"}},   {"table", true, {"table"}},           {"maison", true, {"house"}}, {"chaise", true, {"chair"}},
      {"fenêtre", true, {"window"}}, {"voiture", true, {"car"}},          {"porte", true, {"door"}},  {"cuisine", true, {"kitchen"}}};
  return k;
}
const std::vector<Adj>& adjectives() {
  static const std::vector<Adj> k = {{"noir", "noire", "black"}, {"rouge", "rouge", "red"}, {"blanc", "blanche", "white"},
                                     {"vert", "verte", "green"},  {"bleu", "bleue", "blue"},  {"gris", "grise", "grey"}};
  return k;
}
const std::vector<Word>& intransitive() {
  static const std::vector<Word> k = {{"dort", "sleeps"}, {"mange", "eats"}, {"attend", "waits"}};
  return k;
}
const std::vector<Word>& transitive() {
  static const std::vector<Word> k = {{"regarde", "watches"}, {"voit", "sees"}, {"aime", "likes"}};
  return k;
}
const std::vector<Word>& prepositions() {
  static const std::vector<Word> k = {{"sur", "on"}, {"sous", "under"}, {"dans", "in"}, {"derrière", "behind"}, {"avec", "with"}};
  return k;
}

// The pair being built: each English word remembers its French word's index.
struct Builder {
  TranslationPair p;
  SeededRng rng;
  explicit Builder(uint64_t seed, uint64_t stream) : rng(seed, stream) {}
  size_t pick(size_t n) { return static_cast<size_t>(rng.next_u64() % n); }
  int fr(const char* w) {
    p.fr.emplace_back(w);
    return static_cast<int>(p.fr.size()) - 1;
  }
  void en(const char* w, int from, bool content = true, int also = -1) {
    p.en.emplace_back(w);
    p.align.push_back(from);
    p.align_also.push_back(also);
    p.content.push_back(content ? 1 : 0);
  }
  // Det N [Adj] in French; Det [Adj] N in English (the crossed order). Returns the noun's gender.
  bool noun_phrase(const std::vector<Noun>& nouns) {
    const Noun& n = nouns[pick(nouns.size())];
    const bool definite = pick(3) != 0, with_adj = pick(2) == 0;
    const int det = fr(definite ? (n.fem ? "la" : "le") : (n.fem ? "une" : "un"));
    const int noun = fr(n.fr);
    const Adj* a = with_adj ? &adjectives()[pick(adjectives().size())] : nullptr;
    const int adj = a ? fr(n.fem ? a->f : a->m) : -1;
    en(definite ? "the" : "a", det, false);
    if (a) en(a->en, adj);
    for (const char* w : n.en) en(w, noun);
    return n.fem;
  }
};
}  // namespace

TranslationPair toy_translation_pair(uint64_t seed, uint64_t index, int min_len, int max_len) {
  min_len = std::clamp(min_len, 3, 30);
  max_len = std::clamp(max_len, min_len, 30);
  for (uint64_t attempt = 0;; ++attempt) {
    Builder b(seed, 0x7A45000000ULL + index * 4096 + attempt);
    const bool fem = b.noun_phrase(subjects());
    switch (b.pick(3)) {
      case 0: {
        const int est = b.fr("est"), assis = b.fr(fem ? "assise" : "assis");
        b.en("is", est, true, assis);  // one phrase: either French word is its source
        b.en("sitting", assis, true, est);
        break;
      }
      case 1: {
        const Word& v = intransitive()[b.pick(intransitive().size())];
        b.en(v.en, b.fr(v.fr));
        break;
      }
      default: {
        const Word& v = transitive()[b.pick(transitive().size())];
        b.en(v.en, b.fr(v.fr));
        b.noun_phrase(things());
      }
    }
    const size_t pps = b.pick(7);
    for (size_t k = 0; k < pps; ++k) {
      const Word& pr = prepositions()[b.pick(prepositions().size())];
      b.en(pr.en, b.fr(pr.fr));
      b.noun_phrase(things());
    }
    // Outside the lengths asked for: drawn again (a draw is cheap; 3 … 30 always fits some draw).
    const int n = static_cast<int>(b.p.fr.size());
    if (n >= min_len && n <= max_len) return b.p;
  }
}

TranslationPair toy_notes_pair() {
  TranslationPair p;
  p.fr = {"le", "chat", "noir", "est", "assis", "sur", "le", "tapis", "rouge", "dans", "le", "salon"};
  p.en = {"the", "black", "cat", "is", "sitting", "on", "the", "red", "carpet", "in", "the", "living", "room"};
  p.align = {0, 2, 1, 3, 4, 5, 6, 8, 7, 9, 10, 11, 11};
  p.align_also = {-1, -1, -1, 4, 3, -1, -1, -1, -1, -1, -1, -1, -1};
  p.content = {0, 1, 1, 1, 1, 1, 0, 1, 1, 1, 0, 1, 1};
  return p;
}

std::string words_text(const std::vector<std::string>& words) {
  std::string s;
  for (const std::string& w : words) s += (s.empty() ? "" : " ") + w;
  return s;
}

const std::vector<std::string>& toy_vocabulary() {
  static const std::vector<std::string> k = [] {
    std::vector<std::string> v = {"<s>", "</s>"};
    const auto add = [&](const std::string& w) {
      if (std::find(v.begin(), v.end(), w) == v.end()) v.push_back(w);
    };
    for (const char* w : {"le", "la", "un", "une", "the", "a", "est", "assis", "assise", "is", "sitting"}) add(w);
    for (const auto* list : {&subjects(), &things()})
      for (const Noun& n : *list) {
        add(n.fr);
        for (const char* w : n.en) add(w);
      }
    for (const Adj& a : adjectives()) {
      add(a.m);
      add(a.f);
      add(a.en);
    }
    for (const auto* list : {&intransitive(), &transitive(), &prepositions()})
      for (const Word& w : *list) {
        add(w.fr);
        add(w.en);
      }
    return v;
  }();
  return k;
}

Status toy_pair_ids(const std::vector<std::string>& source, const std::vector<std::string>& target, ToyPairIds* out) {
  const auto lower = [](std::vector<std::string> words) {
    for (std::string& w : words)
      for (char& ch : w)
        if (ch >= 'A' && ch <= 'Z') ch = static_cast<char>(ch - 'A' + 'a');
    return words;
  };
  ToyPairIds p;
  p.source = lower(source);
  p.target = lower(target);
  if (p.source.empty() || p.source.size() > 30 || p.target.size() > 30)
    return Status::Error("sentences of 1 … 30 words, got {0} and {1}", {arg(static_cast<long long>(p.source.size())), arg(static_cast<long long>(p.target.size()))});
  AP_TRY(toy_ids(p.source, &p.src));
  AP_TRY(toy_ids(p.target, &p.tgt));
  *out = std::move(p);
  return Status::Ok();
}

Status toy_ids(const std::vector<std::string>& words, std::vector<int>* ids) {
  static const std::map<std::string, int> index = [] {
    std::map<std::string, int> m;
    const auto& v = toy_vocabulary();
    for (size_t i = 2; i < v.size(); ++i) m[v[i]] = static_cast<int>(i);
    return m;
  }();
  std::vector<int> out;
  std::string unknown;
  for (const std::string& w : words) {
    const auto it = index.find(w);
    if (it == index.end()) unknown += (unknown.empty() ? "" : ", ") + ("'" + w + "'");
    else out.push_back(it->second);
  }
  if (!unknown.empty()) return Status::Error("words outside the toy vocabulary: {0}", {unknown});
  *ids = std::move(out);
  return Status::Ok();
}

Seq2SeqPair toy_seq2seq_pair(const TranslationPair& p) {
  Seq2SeqPair s;
  (void)toy_ids(p.fr, &s.src);  // the grammar's words are all in the vocabulary
  (void)toy_ids(p.en, &s.tgt);
  s.tgt.push_back(kEos);
  return s;
}

void count_aligned(const TranslationPair& p, const Seq2SeqPair& ids, const std::vector<int>& decoded, const Seq2SeqTrace& tr,
                   bool content_only, int* right, int* total) {
  for (size_t t = 0; t < p.en.size() && t < decoded.size() && t < tr.alpha.size(); ++t) {
    if (p.align[t] < 0 || decoded[t] != ids.tgt[t] || tr.alpha[t].cols() == 0 || (content_only && !p.content[t])) continue;
    Eigen::Index best;
    tr.alpha[t].row(0).maxCoeff(&best);
    *right += best == p.align[t] || best == p.align_also[t];
    ++*total;
  }
}

double alignment_accuracy(const Seq2SeqModel& m, const std::vector<TranslationPair>& pairs, bool content_only, int* counted) {
  int right = 0, total = 0;
  std::vector<Seq2SeqPair> decoded;
  for (const TranslationPair& p : pairs) decoded.push_back(toy_seq2seq_pair(p));
  HeldOutTally unused;
  tally_held_out(m, decoded.data(), decoded.size(), &unused, [&](size_t k, const std::vector<int>& out, const Seq2SeqTrace& tr) {
    count_aligned(pairs[k], decoded[k], out, tr, content_only, &right, &total);
  });
  if (counted) *counted = total;
  return total ? static_cast<double>(right) / total : 0.0;
}

}  // namespace train
}  // namespace ap
