// The coreference task's generator (core/train/coref.h): vocabulary, split, balance, frames.
#include <gtest/gtest.h>

#include <cstdio>
#include <set>
#include <tuple>

#include "core/train/coref.h"

namespace ap {
namespace AP_UNITY_ID {  // this file's own namespace in a unity build (CMakeLists.txt, AP_UNITY)

using namespace train;

TEST(CoreTrainCoref, WordListsAreLargeEnough) {
  EXPECT_GE(coref_animals().size(), 20u);
  EXPECT_GE(coref_places().size(), 20u);
  const int n_aadj = coref_animal_adjectives();
  EXPECT_GE(n_aadj, 8);
  EXPECT_GE(static_cast<int>(coref_adjectives().size()) - n_aadj, 8);
  EXPECT_GE(coref_frames().size(), 3u);
}

TEST(CoreTrainCoref, SentencesReadBackThroughTheVocabulary) {
  CorefDataset d;
  ASSERT_TRUE(make_coref_dataset(7, &d).ok);
  EXPECT_EQ(d.vocab.word(0), "<pad>");
  EXPECT_EQ(d.vocab.id(d.vocab.word(5)), 5);
  EXPECT_EQ(d.vocab.id("unicorn"), -1);
  // The first sentence of frame 0 is the lecture's example with its words in order.
  const CorefSentence& s = d.train.front().frame == 0 ? d.train.front() : d.heldout.front();
  std::string text;
  for (int id : s.ids) text += (text.empty() ? "" : " ") + d.vocab.word(id);
  std::printf("    example: \"%s\" → it = %s (position %d)\n", text.c_str(), d.vocab.word(s.ids[s.target_pos()]).c_str(),
              s.target_pos());
  EXPECT_EQ(text, "the cat didn't cross the road because it was too " + coref_adjectives()[s.adj]);
  for (const auto* set : {&d.train, &d.heldout})
    for (const CorefSentence& x : *set) {
      ASSERT_LE(static_cast<int>(x.ids.size()), d.seq_len);
      EXPECT_EQ(d.vocab.word(x.ids[x.it_pos]), "it");
      EXPECT_EQ(d.vocab.word(x.ids[x.animal_pos]), coref_animals()[x.animal]);
      EXPECT_EQ(d.vocab.word(x.ids[x.place_pos]), coref_places()[x.place]);
      EXPECT_EQ(d.vocab.word(x.ids.back()), coref_adjectives()[x.adj]);  // the deciding word comes after "it"
      EXPECT_GT(static_cast<int>(x.ids.size()) - 1, x.it_pos);
      EXPECT_EQ(x.refers_to_animal, x.adj < coref_animal_adjectives());
    }
}

// No sentence in both sets; no (referent, adjective) pair of the held-out set occurs anywhere in training
// (as referent or not); every held-out word does occur in training.
TEST(CoreTrainCoref, SplitsAreDisjointByNounAdjectivePair) {
  CorefDataset d;
  ASSERT_TRUE(make_coref_dataset(7, &d).ok);
  const int A = static_cast<int>(coref_animals().size());
  std::set<std::tuple<int, int, int, int>> train_sentences;
  std::set<std::pair<int, int>> train_pairs;  // (noun, adj) for both nouns of every training sentence
  std::set<int> train_words;
  for (const CorefSentence& s : d.train) {
    train_sentences.insert({s.frame, s.animal, s.place, s.adj});
    train_pairs.insert({s.animal, s.adj});
    train_pairs.insert({A + s.place, s.adj});
    train_words.insert(s.ids.begin(), s.ids.end());
  }
  int unseen = 0;
  for (const CorefSentence& s : d.heldout) {
    EXPECT_EQ(train_sentences.count({s.frame, s.animal, s.place, s.adj}), 0u);
    const int referent = s.refers_to_animal ? s.animal : A + s.place;
    unseen += train_pairs.count({referent, s.adj}) == 0;
    for (int id : s.ids) EXPECT_EQ(train_words.count(id), 1u) << d.vocab.word(id);
  }
  std::printf("    train %zu sentences, held-out %zu; held-out sentences with an unseen (referent, adj) pair: %d\n",
              d.train.size(), d.heldout.size(), unseen);
  EXPECT_EQ(unseen, static_cast<int>(d.heldout.size()));
  EXPECT_GT(d.heldout.size(), d.train.size() / 10);
  // Another seed gives another split.
  CorefDataset e;
  ASSERT_TRUE(make_coref_dataset(8, &e).ok);
  EXPECT_NE(e.held_out_pair, d.held_out_pair);
}

TEST(CoreTrainCoref, AnswersAreBalancedAndEveryFrameIsUsed) {
  CorefDataset d;
  ASSERT_TRUE(make_coref_dataset(7, &d).ok);
  for (const auto* set : {&d.train, &d.heldout}) {
    int animal = 0;
    std::vector<int> per_frame(d.frames, 0);
    std::set<int> target_positions;
    for (const CorefSentence& s : *set) {
      animal += s.refers_to_animal;
      ++per_frame[s.frame];
      target_positions.insert(s.target_pos());
    }
    const double frac = static_cast<double>(animal) / set->size();
    std::printf("    %s: %.3f of the answers are the animal\n", set == &d.train ? "train" : "held-out", frac);
    EXPECT_GT(frac, 0.45);
    EXPECT_LT(frac, 0.55);
    for (int f = 0; f < d.frames; ++f) EXPECT_GT(per_frame[f], 0) << "frame " << f;
    EXPECT_GE(target_positions.size(), 3u);  // the answer is not one fixed position
  }
  // Position alone cannot answer: within one frame both positions are the answer equally often.
  for (int f = 0; f < d.frames; ++f) {
    int animal = 0, n = 0;
    for (const CorefSentence& s : d.train)
      if (s.frame == f) animal += s.refers_to_animal, ++n;
    EXPECT_NEAR(static_cast<double>(animal) / n, 0.5, 0.05) << "frame " << f;
  }
}

TEST(CoreTrainCoref, BatchesArePaddedAndPointAtTheReferent) {
  CorefDataset d;
  ASSERT_TRUE(make_coref_dataset(7, &d).ok);
  Batch batch;
  std::vector<int> idx;
  for (int i = 0; i < 8; ++i) idx.push_back(i * 997 % static_cast<int>(d.train.size()));
  fill_coref_batch(d, d.train, idx.data(), 8, &batch);
  const int T = d.seq_len;
  for (int b = 0; b < 8; ++b) {
    const CorefSentence& s = d.train[idx[b]];
    EXPECT_EQ(batch.row[b], s.it_pos);
    EXPECT_EQ(batch.ids[b * T + batch.target[b]], s.ids[s.target_pos()]);
    for (int t = 0; t < T; ++t) EXPECT_EQ(batch.pad[b * T + t], t >= static_cast<int>(s.ids.size()) ? 1 : 0);
  }
}

}  // namespace
}  // namespace ap
