#include "coref.h"

#include <algorithm>

#include "core/embedding.h"
#include "core/tokenizer.h"

namespace ap {
namespace train {

int Vocab::add(const std::string& word) {
  auto it = ids_.find(word);
  if (it != ids_.end()) return it->second;
  const int id = size();
  words_.push_back(word);
  ids_.emplace(word, id);
  return id;
}

int Vocab::id(const std::string& word) const {
  auto it = ids_.find(word);
  return it == ids_.end() ? -1 : it->second;
}

const std::vector<std::string>& coref_animals() {
  static const std::vector<std::string> v = {"cat",   "dog",  "horse", "fox",  "rabbit", "deer",    "goat",
                                             "sheep", "cow",  "pig",   "mouse", "bear",  "wolf",    "duck",
                                             "chicken", "donkey", "tiger", "lion", "monkey", "animal"};
  return v;
}
const std::vector<std::string>& coref_places() {
  static const std::vector<std::string> v = {"road",  "river",  "street", "bridge",  "field",  "park",  "forest",
                                             "square", "yard",  "lake",   "stream",  "valley", "highway",
                                             "garden", "market", "canyon", "beach",  "hill",   "tunnel", "alley"};
  return v;
}
const std::vector<std::string>& coref_adjectives() {
  static const std::vector<std::string> v = {
      // describe the animal
      "tired", "scared", "hungry", "sleepy", "weak", "afraid", "exhausted", "nervous", "lazy", "sick",
      // describe the place
      "wide", "busy", "wet", "crowded", "deep", "muddy", "steep", "narrow", "noisy", "slippery"};
  return v;
}
int coref_animal_adjectives() { return 10; }
const std::vector<std::string>& coref_frames() {
  static const std::vector<std::string> v = {
      "the ANIMAL didn't cross the PLACE because it was too ADJ",
      "the PLACE was empty when the ANIMAL left because it was ADJ",
      "the ANIMAL could not enter the PLACE since it was too ADJ",
      "the PLACE stopped the ANIMAL because it was too ADJ",
      "after the ANIMAL reached the PLACE it was very ADJ"};
  return v;
}

namespace {
// Seeded Fisher–Yates permutation of 0 … n−1.
std::vector<int> permutation(int n, SeededRng& rng) {
  std::vector<int> p(n);
  for (int i = 0; i < n; ++i) p[i] = i;
  for (int i = n - 1; i > 0; --i) std::swap(p[i], p[static_cast<int>(rng.next_u64() % static_cast<uint64_t>(i + 1))]);
  return p;
}
}  // namespace

const std::vector<std::string>& coref_vocabulary() {
  static const std::vector<std::string> v = [] {
    Vocab vocab;
    vocab.add("<pad>");
    for (const std::string& f : coref_frames())
      for (const std::string& w : split_on_spaces(f))
        if (w != "ANIMAL" && w != "PLACE" && w != "ADJ") vocab.add(w);
    for (const auto* list : {&coref_animals(), &coref_places(), &coref_adjectives()})
      for (const std::string& w : *list) vocab.add(w);
    std::vector<std::string> words;
    for (int i = 0; i < vocab.size(); ++i) words.push_back(vocab.word(i));
    return words;
  }();
  return v;
}

int coref_seq_len() {
  size_t n = 0;
  for (const std::string& f : coref_frames()) n = std::max(n, split_on_spaces(f).size());
  return static_cast<int>(n);
}

Status check_coref_sentence(const std::vector<std::string>& words, int* it_pos) {
  const int T = coref_seq_len(), n = static_cast<int>(words.size());
  if (n < 2 || n > T) return Status::Error("the sentence must have 2 to {0} words, got {1}", {arg(T), arg(n)});
  const auto& vocab = coref_vocabulary();
  int it = -1;
  for (int i = 0; i < n; ++i) {
    const std::string& w = words[static_cast<size_t>(i)];
    if (w == vocab[0] || std::find(vocab.begin(), vocab.end(), w) == vocab.end())
      return Status::Error("{0} is not in the task's vocabulary", {"\"" + w + "\""});
    if (w == "it") {
      if (it >= 0) return Status::Error("the sentence must contain \"it\" once");
      it = i;
    }
  }
  if (it < 0) return Status::Error("the sentence must contain \"it\" once");
  if (it_pos) *it_pos = it;
  return Status::Ok();
}

bool flip_coref_adjective(std::vector<std::string>* words) {
  const auto& adjs = coref_adjectives();
  const int half = coref_animal_adjectives();
  for (std::string& w : *words) {
    const auto it = std::find(adjs.begin(), adjs.end(), w);
    if (it == adjs.end()) continue;
    const int i = static_cast<int>(it - adjs.begin());
    w = adjs[static_cast<size_t>(i < half ? i + half : i - half)];  // tired ↔ wide, scared ↔ busy, …
    return true;
  }
  return false;
}

Status make_coref_dataset(uint64_t seed, CorefDataset* out) {
  const auto& animals = coref_animals();
  const auto& places = coref_places();
  const auto& adjs = coref_adjectives();
  const int n_animal = static_cast<int>(animals.size()), n_place = static_cast<int>(places.size());
  const int n_adj = static_cast<int>(adjs.size()), n_aadj = coref_animal_adjectives(), n_padj = n_adj - n_aadj;
  CorefDataset d;
  d.frames = static_cast<int>(coref_frames().size());

  // 1) the vocabulary: <pad>, then every frame word, noun and adjective (coref_vocabulary's order); each frame
  //    as ids once, its slots marked (kSlot*): the sentences below copy ints, not look words up (some 60 ms in
  //    wasm when each of the tens of thousands of sentences looked its words up)
  for (const std::string& w : coref_vocabulary()) d.vocab.add(w);
  constexpr int kSlotAnimal = -1, kSlotPlace = -2, kSlotAdj = -3;
  std::vector<std::vector<int>> frames;
  std::vector<int> frame_it;  // the position of "it" in each frame (0 when it has none, as CorefSentence says)
  for (const std::string& f : coref_frames()) {
    std::vector<int> ids;
    int it = 0;
    for (const std::string& w : split_on_spaces(f)) {
      if (w == "it") it = static_cast<int>(ids.size());
      ids.push_back(w == "ANIMAL" ? kSlotAnimal : w == "PLACE" ? kSlotPlace : w == "ADJ" ? kSlotAdj : d.vocab.id(w));
    }
    frames.push_back(std::move(ids));
    frame_it.push_back(it);
  }
  std::vector<int> animal_id, place_id, adj_id;
  for (const std::string& w : animals) animal_id.push_back(d.vocab.id(w));
  for (const std::string& w : places) place_id.push_back(d.vocab.id(w));
  for (const std::string& w : adjs) adj_id.push_back(d.vocab.id(w));

  // 2) the held-out pairs: noun i (permuted rank pn) and adjective j (permuted rank pa) of the same kind are
  //    held out when (pn + pa) % 5 == 0: 2 of 10 adjectives per noun, 4 of 20 nouns per adjective
  SeededRng rng(seed, 0xC0DEF00Dull);
  d.held_out_pair.assign(n_animal + n_place, std::vector<uint8_t>(n_adj, 0));
  for (int kind = 0; kind < 2; ++kind) {
    const int n_noun = kind == 0 ? n_animal : n_place, n_kadj = kind == 0 ? n_aadj : n_padj;
    const std::vector<int> pn = permutation(n_noun, rng), pa = permutation(n_kadj, rng);
    for (int i = 0; i < n_noun; ++i)
      for (int j = 0; j < n_kadj; ++j)
        if ((pn[i] + pa[j]) % 5 == 0) d.held_out_pair[kind * n_animal + i][kind * n_aadj + j] = 1;
  }

  // 3) every sentence, sent to its split
  for (int f = 0; f < d.frames; ++f)
    for (int a = 0; a < n_animal; ++a)
      for (int p = 0; p < n_place; ++p)
        for (int j = 0; j < n_adj; ++j) {
          CorefSentence s;
          s.frame = f;
          s.animal = a;
          s.place = p;
          s.adj = j;
          s.refers_to_animal = j < n_aadj;
          s.it_pos = frame_it[static_cast<size_t>(f)];
          const std::vector<int>& frame = frames[static_cast<size_t>(f)];
          s.ids.resize(frame.size());
          for (size_t pos = 0; pos < frame.size(); ++pos) {
            const int w = frame[pos];
            if (w == kSlotAnimal) s.animal_pos = static_cast<int>(pos), s.ids[pos] = animal_id[static_cast<size_t>(a)];
            else if (w == kSlotPlace) s.place_pos = static_cast<int>(pos), s.ids[pos] = place_id[static_cast<size_t>(p)];
            else if (w == kSlotAdj) s.adj_pos = static_cast<int>(pos), s.ids[pos] = adj_id[static_cast<size_t>(j)];
            else s.ids[pos] = w;
          }
          d.seq_len = std::max(d.seq_len, static_cast<int>(s.ids.size()));
          const int referent_noun = s.refers_to_animal ? a : n_animal + p;
          (d.held_out_pair[referent_noun][j] ? d.heldout : d.train).push_back(std::move(s));
        }
  if (d.train.empty() || d.heldout.empty()) return Status::Error("coreference split left a set empty");
  *out = std::move(d);
  return Status::Ok();
}

void fill_coref_batch(const CorefDataset& data, const std::vector<CorefSentence>& sentences, const int* indices,
                      int B, Batch* batch) {
  const int T = data.seq_len;
  batch->B = B;
  batch->ids.assign(static_cast<size_t>(B) * T, 0);
  batch->pad.assign(static_cast<size_t>(B) * T, 1);
  batch->row.resize(B);
  batch->target.resize(B);
  for (int b = 0; b < B; ++b) {
    const CorefSentence& s = sentences[indices[b]];
    for (size_t t = 0; t < s.ids.size(); ++t) {
      batch->ids[b * T + t] = s.ids[t];
      batch->pad[b * T + t] = 0;
    }
    batch->row[b] = s.it_pos;
    batch->target[b] = s.target_pos();
  }
}

}  // namespace train
}  // namespace ap
