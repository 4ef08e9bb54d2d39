// Heads that specialise: the coreference sentences read by a ONE-layer model with H heads and a classifier.
//
//   "The cat didn't cross the road because it was too tired"   → the answer is the word "cat"
//   "The cat didn't cross the road because it was too wide"    → the answer is the word "road"
//
// The idea in one line: the "it" row of a single attention layer must name its referent among all 40 nouns,
// and it can only do so by reading two different things — the two nouns of the sentence (which words are
// the candidates) and the adjective after "it" (which kind of noun is meant) — so the task needs two relations,
// and with H = 1, 2, 4 heads we measure how the heads divide them, as it happens, without forcing any head.
//
//   x_0 = wte[ids] + wpe[positions]                           [B·T, C]
//   a   = MultiHead_H(x_0 W^Q, x_0 W^K, x_0 W^V, M)           [B·T, C]   (H heads of C/H, W^O, residual)
//   logits = x_1[row = "it"] · W^C + b^C                      [B, 40]    (the 40 nouns: animals, then places)
//   loss = cross-entropy(logits, referent noun)
// Why one layer: in one layer the query at "it" has not read the adjective (it comes after), so no head can
// point at the referent itself; what a head can do is look at the nouns, or at the adjective, or both at once.
// The readout is linear, so "the animal's identity + the place's identity + the adjective's kind" is enough.
//
// Measured per head on every held-out sentence (the same split as the coreference task: (referent, adjective)
// pairs never seen in training), on the "it" row: the mean weight on the referent, on the other noun, on the
// adjective, on the previous token, on "it" itself, and the row's entropy (nats; ln n if uniform).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/status.h"
#include "coref.h"
#include "model.h"
#include "recipe.h"

namespace ap {
namespace train {

// The recipe of a run: a coreference Recipe (recipe.h) with layers = 1; `task` is not read.
Recipe heads_recipe(int heads, uint64_t seed = 1);

// One head's "it" row, averaged over a set of sentences: the weight on the animal, the place, the adjective, the
// token before "it", "it" itself, and the row's entropy in nats (ln n when uniform, 0 when one-hot).
struct RowShares {
  double animal = 0, place = 0, adjective = 0, previous = 0, self = 0, entropy = 0;
};

// Measured apart for the sentences whose referent is the animal and those whose referent is the place: a head
// can change what it reads with the adjective (its key competes with the nouns' in the same softmax), and an
// average over both would hide that.
struct HeadPattern {
  RowShares when_animal, when_place;
  double referent = 0, other_noun = 0;  // over every held-out sentence
};

// What a row's shares say, by the first that holds more than half of the row: "animal", "place", "adjective",
// "previous token", "itself", then "nouns" (animal + place > 0.5), otherwise "spread".
const char* row_relation(const RowShares& s);
// "adjective" when both kinds of sentence say the same, else "adjective | place" (referent animal | place).
std::string head_relation(const HeadPattern& p);

struct HeadsResult {
  Recipe recipe;
  int steps = 0;
  double final_loss = 0;         // mean training loss over the last 100 steps
  double heldout_accuracy = 0;   // argmax of the 40 logits = the referent, on every held-out sentence
  double train_accuracy = 0;     // the same on every training sentence
  std::vector<HeadPattern> heads;  // [H]
};

// The classifier batch: row = the "it" position, target = the referent's noun class (animals 0 … 19, places
// 20 … 39). Reuses the batch's vectors.
void fill_referent_batch(const CorefDataset& data, const std::vector<CorefSentence>& sentences, const int* indices,
                         int B, Batch* batch);
int referent_class(const CorefSentence& s);  // the noun class of the sentence's referent

// Trains the recipe from its seed and measures it (deterministic: the same recipe gives the same result).
Status train_heads(const Recipe& r, HeadsResult* out);  // refused: layers != 1, or what validate_recipe refuses

}  // namespace train
}  // namespace ap
