// The coreference task: which noun does "it" refer to?
//
//   "The cat didn't cross the road because it was too tired"   → it = the cat   (an animal adjective)
//   "The cat didn't cross the road because it was too wide"    → it = the road  (a place adjective)
//
// The idea in one line: the answer is decided by the adjective AFTER "it", and the two nouns swap places
// between frames, so neither the position of "it" nor the positions of the nouns alone give the answer.
//
// Frames (ANIMAL, PLACE, ADJ are slots; every frame has an animal-first or place-first word order):
//   0  the ANIMAL didn't cross the PLACE because it was too ADJ
//   1  the PLACE was empty when the ANIMAL left because it was ADJ
//   2  the ANIMAL could not enter the PLACE since it was too ADJ
//   3  the PLACE stopped the ANIMAL because it was too ADJ
//   4  after the ANIMAL reached the PLACE it was very ADJ
// 20 animals (the last is "animal" itself, so the notes' own sentence is one of the task's), 20 places, 10 animal adjectives (tired, scared, hungry, sleepy, …) and 10 place adjectives
// (wide, busy, wet, crowded, …). Every (frame, animal, place, adjective) sentence exists once.
//
// Split: a seeded set of held-out pairs (noun, adjective of the noun's kind): 2 of each noun's 10 adjectives,
// each adjective held out for 4 of the 20 nouns of its kind (a balanced Latin-square choice over seeded
// permutations). A sentence whose (referent, adjective) pair is held out goes to the held-out set, every
// other sentence to training. A held-out pair can only occur as (referent, adjective) — the other noun is of
// the other kind — so no training sentence contains a held-out pair: the held-out set asks for combinations
// never seen, while each of its words was seen in training (with other partners).
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/status.h"
#include "model.h"

namespace ap {
namespace train {

class Vocab {
 public:
  int add(const std::string& word);  // its id (existing or new); ids are 0, 1, 2, … in order of addition
  int id(const std::string& word) const;  // −1 when unknown
  const std::string& word(int id) const { return words_[id]; }
  int size() const { return static_cast<int>(words_.size()); }

 private:
  std::vector<std::string> words_;
  std::map<std::string, int> ids_;
};

struct CorefSentence {
  std::vector<int> ids;  // token ids, unpadded
  int frame = 0;
  int animal = 0, place = 0, adj = 0;  // indices into coref_animals(), coref_places(), coref_adjectives()
  int it_pos = 0, animal_pos = 0, place_pos = 0, adj_pos = 0;
  bool refers_to_animal = false;
  int target_pos() const { return refers_to_animal ? animal_pos : place_pos; }
  int distractor_pos() const { return refers_to_animal ? place_pos : animal_pos; }
};

struct CorefDataset {
  Vocab vocab;          // id 0 is "<pad>"
  int seq_len = 0;      // the longest sentence; batches are padded to it
  int frames = 0;
  std::vector<CorefSentence> train, heldout;
  // held_out_pair[noun][adj]: nouns 0..19 animals, 20..39 places; adjectives 0..9 animal, 10..19 place
  std::vector<std::vector<uint8_t>> held_out_pair;
};

const std::vector<std::string>& coref_animals();
const std::vector<std::string>& coref_places();
const std::vector<std::string>& coref_adjectives();  // the animal adjectives first, then the place adjectives
int coref_animal_adjectives();                        // how many of coref_adjectives() describe an animal
const std::vector<std::string>& coref_frames();       // with ANIMAL, PLACE, ADJ slots
// Every word of the task in id order: "<pad>" (id 0), the frames' words, the animals, places, adjectives.
const std::vector<std::string>& coref_vocabulary();
int coref_seq_len();  // the longest frame, in words: every batch is padded to it
// A sentence the trained model can read: 2 … coref_seq_len() words of coref_vocabulary() (not "<pad>"), with
// "it" exactly once (its position in *it_pos, may be null). A word outside the vocabulary is named.
Status check_coref_sentence(const std::vector<std::string>& words, int* it_pos);

// Replaces the first adjective of the task by its counterpart of the other kind (the i-th animal adjective ↔
// the i-th place adjective: tired ↔ wide), so that "it" changes referent. False when there is none.
bool flip_coref_adjective(std::vector<std::string>* words);

// Builds every sentence and the seeded split.
Status make_coref_dataset(uint64_t seed, CorefDataset* out);

// Fills a pointer-task batch from sentences[indices[0 .. B−1]]: ids padded with <pad> (and pad = 1) to
// seq_len, row = the "it" position, target = the referent's position. Reuses the batch's vectors.
void fill_coref_batch(const CorefDataset& data, const std::vector<CorefSentence>& sentences, const int* indices,
                      int B, Batch* batch);

}  // namespace train
}  // namespace ap
