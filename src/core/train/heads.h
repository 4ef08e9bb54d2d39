// The task "heads" (heads that specialise): the coreference sentences (coref.h) read by a model that must NAME
// nouns among all 40, through a classifier, at three rows: the referent at "it", and each noun at the word
// right after it; with one layer of H = 1, 2, 4 heads.
//
//   "The cat didn't cross the road because it was too tired"  → at "it": "cat"; at "didn't": "cat"; at "because": "road"
//   "The cat didn't cross the road because it was too wide"   → at "it": "road"; the same at "didn't" and "because"
//
// The idea in one line: the rows need two different relations, as the notes' heads learn 局部关系 and 指代关系.
// The word after a noun has to read its previous token and not the other noun (a local, positional relation);
// the query at "it" has not read the adjective (it comes after, and there is one layer), so to name the referent
// it must read the two nouns (the candidates) and the adjective (which kind of noun is meant). We measure how H
// heads divide this, as it happens, without forcing any head (the loss is on the classifier only).
//
//   x_0 = wte[ids] + wpe[positions]                           [B·T, C]
//   a   = MultiHead_H(x_0 W^Q, x_0 W^K, x_0 W^V, M)           [B·T, C]   (H heads of C/H, W^O, residual)
//   logits = x_L[rows] · W^C + b^C                            [B·3, 40]  (the 40 nouns: animals, then places)
//   rows: r = 0 the "it" position → the referent; r = 1 after the animal → the animal; r = 2 after the place →
//   the place. In the frame where a noun is followed by "it" (frame 4), that noun's row repeats the other
//   noun's: one row never holds two targets.
//   loss = mean over the B·3 rows of cross-entropy(logits, the noun's class)
// The readout is linear, so "the animal's identity + the place's identity + the adjective's kind" suffices at
// "it", and "the previous token's identity" after a noun.
//
// Measured per head on every held-out sentence (the coreference split: (referent, adjective) pairs never seen in
// training): on the "it" row, apart for animal and place referents, the weight on the animal, the place, the
// adjective, the previous token, "it" itself, and the row's entropy; on the rows after a noun (not "it"), the
// weight on that noun (the previous token) and on the other noun.
#pragma once
#include <cstdint>
#include <string>

#include "coref.h"
#include "model.h"
#include "recipe.h"

namespace ap {
namespace train {

constexpr const char* kHeadsTask = "heads";
constexpr int kHeadsClasses = 40;  // the nouns: coref_animals() then coref_places()

// One head's "it" row, averaged over a set of sentences: the weight on the animal, the place, the adjective, the
// token before "it", "it" itself, and the row's entropy in nats (ln n when uniform, 0 when one-hot).
struct RowShares {
  double animal = 0, place = 0, adjective = 0, previous = 0, self = 0, entropy = 0;
};

// Measured apart for the sentences whose referent is the animal and those whose referent is the place: a head
// can change what it reads with the adjective (its key competes with the nouns' in the same softmax), and an
// average over both would hide that.
struct HeadPattern {
  int layer = 0, head = 0;
  RowShares when_animal, when_place;
  double referent = 0, other_noun = 0;  // over every held-out sentence
  // The rows after a noun (not "it"), over every held-out sentence: the weight on the noun just before (the
  // previous token) and on the other noun.
  double after_noun = 0, after_noun_other = 0;
};

// What a row's shares say, by the first that holds more than half of the row: "animal", "place", "adjective",
// "previous token", "itself", then "nouns" (animal + place > 0.5), otherwise "spread".
const char* row_relation(const RowShares& s);
// "adjective" when both kinds of sentence say the same, else "animal | adjective" (referent animal | place).
// name: how each relation is written (a view passes its translation; null: the English names above).
std::string head_relation(const HeadPattern& p, const char* (*name)(const char*) = nullptr);
// What the head does after a noun: "previous token" when more than half of those rows' weight is on the noun
// just before; "nouns" when the two nouns together hold more than half; otherwise "spread".
const char* after_noun_relation(const HeadPattern& p);

// The experiment's recipe: task "heads", one layer of `heads` heads, d_model 16, 1500 steps, learning rate 0.01,
// batch 32 (the coreference defaults otherwise).
Recipe heads_recipe(int heads, uint64_t seed = 1);

int referent_class(const CorefSentence& s);  // the noun class of the sentence's referent, in [0, kHeadsClasses)
constexpr int kHeadsRows = 3;                // readout rows per sentence: "it", after the animal, after the place

// The classifier batch, kHeadsRows rows per sentence (see the top of this file): the "it" position with target
// the referent's noun class, then the position after the animal and after the place with targets those nouns'
// classes. Reuses the batch's vectors.
void fill_referent_batch(const CorefDataset& data, const std::vector<CorefSentence>& sentences, const int* indices,
                         int B, Batch* batch);

// Adds every head's "it"-row shares of the last forward pass (batch rows b = 0 … B−1 hold sentences
// set[idx[b]]) into patterns[layer · H + head]; divide by the counts afterwards (finish_head_patterns).
void add_head_patterns(const AttentionModel& model, const std::vector<CorefSentence>& set, const int* idx, int B,
                       std::vector<HeadPattern>* patterns);
void finish_head_patterns(size_t animal_sentences, size_t place_sentences, std::vector<HeadPattern>* patterns);

}  // namespace train
}  // namespace ap
