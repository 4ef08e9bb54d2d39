// Training engine, part 7: the toy translation task, French → English, grown from the notes' sentence
// "Le chat noir est assis sur le tapis rouge dans le salon" → "The black cat is sitting on the red carpet in
// the living room".
//
// A small grammar generates both sides at once, so the reference alignment is known word by word:
//   S   = NP_subj VP PP{0..3}
//   NP  = Det N [Adj]            French: "le chat noir" (the adjective follows the noun, agrees in gender)
//                                English: "the black cat" (the adjective precedes it): the order is crossed
//   VP  = "est assis(e)" | V_intr | V_trans NP     "est assis" → "is sitting" ("assise" after a feminine subject)
//   PP  = Prep NP
// Nouns carry a gender (le / la, un / une, noir / noire); "salon" → "living room" (one word, two in English);
// 3 … about 30 words a side; a vocabulary of a few dozen words a side.
// Every English word has the French word it translates (align[t], an index into the French words): "black" →
// "noir", "living" and "room" → "salon", "is" and "sitting" → the phrase "est assis".
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/status.h"
#include "seq2seq_model.h"

namespace ap {
namespace train {

struct TranslationPair {
  std::vector<std::string> fr, en;
  std::vector<int> align;       // [en.size()]: the French word's index
  std::vector<int> align_also;  // [en.size()]: a second French word of the same phrase ("is sitting" ↔ "est
                                // assis": either word), or −1
  std::vector<uint8_t> content; // [en.size()]: 1 for a noun, adjective, verb or preposition; 0 for "the", "a"
};

// One sentence pair, seeded: the same (seed, index) gives the same pair; its French side has min_len … max_len
// words (3 <= min_len <= max_len <= 30; drawn again until it fits).
TranslationPair toy_translation_pair(uint64_t seed, uint64_t index, int min_len, int max_len);

// The notes' sentence pair, "le chat noir est assis sur le tapis rouge dans le salon" → "the black cat is sitting
// on the red carpet in the living room", with its reference alignment. Never trained on (seq2seq_trainer.h):
// the scenes show it, and what they show of it is then measured on a sentence the model never saw.
TranslationPair toy_notes_pair();
// Its words joined by spaces, as a scene's sentence field holds them.
std::string words_text(const std::vector<std::string>& words);

// The shared vocabulary: id 0 "<s>", id 1 "</s>", then every French and English word of the grammar.
const std::vector<std::string>& toy_vocabulary();
// Words to ids (a word outside the vocabulary: an error naming every such word, nothing written).
Status toy_ids(const std::vector<std::string>& words, std::vector<int>* ids);
// What a trained model refuses of a sentence pair before running it (Seq2SeqTrainer::align, and a scene that
// waits for its model): 1 … 30 words of source, at most 30 of target (none: the model's own translation), every
// word in the vocabulary once case-folded (the others named). *out: the words case-folded, and their ids.
struct ToyPairIds {
  std::vector<std::string> source, target;
  std::vector<int> src, tgt;
};
Status toy_pair_ids(const std::vector<std::string>& source, const std::vector<std::string>& target, ToyPairIds* out);
// The pair as the model reads it: the French ids, the English ids then kEos.
Seq2SeqPair toy_seq2seq_pair(const TranslationPair& p);

// The share of target words whose largest attention weight (greedy decoding of the French; only words decoded
// right count) lies on their source word (or its phrase): every English word has one, "the" / "a" included (the
// trainer's figure, the scenes' "words aligned"); content_only: nouns, adjectives, verbs and prepositions only (a
// determiner's choice can be read off its noun's encoder state as well as off "le" / "un", and some trained models
// attend there: seq2seq_trainer.h, bahdanau_recipe). *counted: how many target words were counted.
double alignment_accuracy(const Seq2SeqModel& m, const std::vector<TranslationPair>& pairs, bool content_only,
                          int* counted = nullptr);
// The same counts for one pair already decoded (tally_held_out's `each`: the words decoded and the trace of
// ids = toy_seq2seq_pair(p)), added to *right and *total.
void count_aligned(const TranslationPair& p, const Seq2SeqPair& ids, const std::vector<int>& decoded, const Seq2SeqTrace& tr,
                   bool content_only, int* right, int* total);

}  // namespace train
}  // namespace ap
