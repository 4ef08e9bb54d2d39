// The task "heads" (core/train/heads.h, trained by core/train/trainer.h): one attention layer with H = 1, 2, 4
// heads names the referent of "it" among the 40 nouns; each head's "it" row is measured on the held-out
// sentences and reported as it is.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "core/train/trainer.h"
#include "test_mode.h"

namespace ap {
namespace AP_UNITY_ID {  // this file's own namespace in a unity build (CMakeLists.txt, AP_UNITY)

using namespace train;

struct HeadsRun {
  Recipe recipe;
  double loss = 0, accuracy = 0, argmax = 0;
  std::vector<HeadPattern> heads;
};

HeadsRun run(const Recipe& r) {
  Trainer t;
  HeadsRun out;
  out.recipe = r;
  EXPECT_TRUE(t.init(r).ok);
  t.advance(r.steps);
  EXPECT_TRUE(t.finished());
  EXPECT_TRUE(t.evaluated_on_all());
  out.loss = t.curve().back().loss;
  out.accuracy = t.heldout_accuracy();
  out.argmax = t.referent_argmax();
  EXPECT_EQ(t.head_patterns().size(), static_cast<size_t>(r.layers * r.heads));  // the final evaluation measured them
  out.heads = t.head_patterns();
  return out;
}

void print(const HeadsRun& r) {
  std::printf("    H = %d: %d steps, loss %.4f, held-out accuracy %.2f %%, some head's argmax on the referent %.2f %%\n",
              r.recipe.heads, r.recipe.steps, r.loss, 100 * r.accuracy, 100 * r.argmax);
  for (const HeadPattern& p : r.heads) {
    std::printf("      layer %d head %d: referent %.3f, other noun %.3f → %s; after a noun: on it %.3f, on the other "
                "%.3f → %s\n", p.layer + 1, p.head + 1, p.referent, p.other_noun, head_relation(p).c_str(), p.after_noun,
                p.after_noun_other, after_noun_relation(p));
    for (auto [name, s] : {std::pair<const char*, const RowShares*>{"animal", &p.when_animal}, {"place", &p.when_place}})
      std::printf("        referent %-6s: animal %.3f  place %.3f  adjective %.3f  previous %.3f  itself %.3f  "
                  "entropy %.2f\n", name, s->animal, s->place, s->adjective, s->previous, s->self, s->entropy);
  }
}

// Every share is a part of a softmax row; the entropy lies between 0 (one-hot) and ln n (uniform, n <= T).
void expect_valid(const HeadsRun& r) {
  ASSERT_EQ(static_cast<int>(r.heads.size()), r.recipe.layers * r.recipe.heads);
  for (const HeadPattern& p : r.heads) {
    for (const RowShares* s : {&p.when_animal, &p.when_place}) {
      for (double v : {s->animal, s->place, s->adjective, s->previous, s->self}) {
        EXPECT_GE(v, 0.0);
        EXPECT_LE(v, 1.0 + 1e-6);
      }
      EXPECT_LE(s->animal + s->place + s->adjective + s->self, 1.0 + 1e-5);  // four different positions
      EXPECT_GE(s->entropy, 0.0);
      EXPECT_LE(s->entropy, std::log(static_cast<double>(coref_seq_len())) + 1e-6);
    }
    EXPECT_LE(p.referent + p.other_noun, 1.0 + 1e-5);
    EXPECT_GE(p.after_noun, 0.0);
    EXPECT_GE(p.after_noun_other, 0.0);
    EXPECT_LE(p.after_noun + p.after_noun_other, 1.0 + 1e-5);  // two different positions of the same rows
    // the referent and the other noun are the animal and the place regrouped by kind; the held-out set holds as
    // many animal referents as place referents (coref.h), so the two averages agree
    EXPECT_NEAR(p.referent, 0.5 * (p.when_animal.animal + p.when_place.place), 1e-6);
    EXPECT_NEAR(p.other_noun, 0.5 * (p.when_animal.place + p.when_place.animal), 1e-6);
  }
}

// A naive loop over one sentence: the model's row of "it" in head h equals softmax(q_it · k_j / √d) computed
// from its own projections, so what the patterns average is the model's attention.
TEST(CoreTrainHeads, PatternsAverageTheModelsOwnRows) {
  Trainer t;
  ASSERT_TRUE(t.init(heads_recipe(2)).ok);
  t.advance(50);
  SentenceAttention a;
  const std::vector<std::string> words = {"the", "cat", "didn't", "cross", "the", "road", "because", "it", "was", "too", "tired"};
  ASSERT_TRUE(t.attention_of(words, &a).ok);
  const AttentionModel& m = t.model();
  const int n = static_cast<int>(words.size()), d = 16 / 2;
  double worst = 0;
  for (int h = 0; h < 2; ++h) {
    const CMatMap q = m.projection(0, 'q'), k = m.projection(0, 'k');
    std::vector<double> z(n);
    double mx = -1e300, sum = 0;
    for (int j = 0; j < n; ++j) {
      double dot = 0;
      for (int c = 0; c < d; ++c) dot += double(q(a.it_pos, h * d + c)) * double(k(j, h * d + c));
      z[j] = dot / std::sqrt(double(d));
      mx = std::max(mx, z[j]);
    }
    for (int j = 0; j < n; ++j) sum += z[j] = std::exp(z[j] - mx);
    for (int j = 0; j < n; ++j) worst = std::max(worst, std::fabs(z[j] / sum - double(a.maps[h](a.it_pos, j))));
  }
  std::printf("    [max |diff|] the \"it\" rows vs a naive softmax of q·k/√d: %.3e\n", worst);
  EXPECT_LT(worst, 1e-5);
}

// One layer names the referent among 40 nouns with 1, 2 and 4 heads, on sentences whose (referent,
// adjective) pair it never saw; what each head reads is printed as measured, and what this seed's heads
// learned is pinned: with two heads each one reads a noun at "it" unless the adjective's key outbids it, and
// both read the previous token after a noun (one head, two relations, told apart by the query's position).
TEST(CoreTrainHeads, OneTwoFourHeadsNameTheReferent) {
  TRAINED_TARGET_ASSERTED_IN_RELEASE();
  for (int H : {1, 2, 4}) {
    const HeadsRun r = run(heads_recipe(H));
    print(r);
    expect_valid(r);
    EXPECT_GE(r.accuracy, 0.95) << "H = " << H;
    EXPECT_LT(r.loss, 0.05) << "H = " << H;
    if (H == 1) {
      EXPECT_EQ(head_relation(r.heads[0]), "nouns");  // one head: both candidates at once
      EXPECT_LT(r.argmax, 0.75);                     // so its largest weight is often on the other noun
      EXPECT_STREQ(after_noun_relation(r.heads[0]), "previous token");  // and, after a noun, that noun alone
    }
    if (H == 2) {
      // The two heads learned different, complementary relations: each one follows the adjective's kind.
      EXPECT_EQ(head_relation(r.heads[0]), "animal | adjective");
      EXPECT_EQ(head_relation(r.heads[1]), "adjective | place");
      for (const HeadPattern& p : r.heads) {
        EXPECT_GT(p.referent, 0.45);
        EXPECT_GT(p.after_noun, 0.75);  // the local relation at the rows after a noun
        EXPECT_LT(p.after_noun_other, 0.05);
      }
      EXPECT_GT(r.argmax, 0.95);  // in every sentence one of the two heads points at the referent
    }
  }
}

// The classifier batch: per sentence the "it" row naming the referent, then a row after each noun naming that
// noun, its previous token; where a noun is followed by "it" (frame 4) the other noun's row stands in twice.
TEST(CoreTrainHeads, BatchRowsNameTheNounBefore) {
  CorefDataset data;
  ASSERT_TRUE(make_coref_dataset(kTaskSplitSeed, &data).ok);
  std::vector<int> idx(data.train.size());
  for (size_t i = 0; i < idx.size(); ++i) idx[i] = static_cast<int>(i);
  Batch b;
  const int B = static_cast<int>(idx.size()), R = kHeadsRows, A = static_cast<int>(coref_animals().size());
  fill_referent_batch(data, data.train, idx.data(), B, &b);
  ASSERT_EQ(b.row.size(), static_cast<size_t>(B) * R);
  int repeated = 0;
  for (int s = 0; s < B; ++s) {
    const CorefSentence& x = data.train[static_cast<size_t>(s)];
    EXPECT_EQ(b.row[s * R], x.it_pos);
    EXPECT_EQ(b.target[s * R], referent_class(x));
    for (int r = 1; r < R; ++r) {
      const int row = b.row[s * R + r], target = b.target[s * R + r];
      ASSERT_NE(row, x.it_pos);
      ASSERT_TRUE(row - 1 == x.animal_pos || row - 1 == x.place_pos);
      EXPECT_EQ(target, row - 1 == x.animal_pos ? x.animal : A + x.place);  // the noun just before the row
    }
    repeated += b.row[s * R + 1] == b.row[s * R + 2];
  }
  std::printf("    %d of %d training sentences repeat one noun's row (a noun followed by \"it\")\n", repeated, B);
  EXPECT_GT(repeated, 0);
  EXPECT_LT(repeated, B / 2);
}

// One step from the seeded start cannot name the referent: chance is 1/40.
TEST(CoreTrainHeads, OneStepIsNearChance) {
  Recipe r = heads_recipe(2);
  r.steps = 1;
  const HeadsRun res = run(r);
  std::printf("    after 1 step: held-out accuracy %.2f %%\n", 100 * res.accuracy);
  EXPECT_LT(res.accuracy, 0.10);
  expect_valid(res);
}

TEST(CoreTrainHeads, SameRecipeSameResultBitwise) {
  Recipe r = heads_recipe(2, 3);
  r.steps = test::full_or_short(300, 40);
  const HeadsRun a = run(r), b = run(r);
  EXPECT_EQ(a.loss, b.loss);
  EXPECT_EQ(a.accuracy, b.accuracy);
  ASSERT_EQ(a.heads.size(), b.heads.size());
  for (size_t h = 0; h < a.heads.size(); ++h) {
    EXPECT_EQ(a.heads[h].referent, b.heads[h].referent);
    EXPECT_EQ(a.heads[h].after_noun, b.heads[h].after_noun);
    EXPECT_EQ(a.heads[h].when_animal.entropy, b.heads[h].when_animal.entropy);
    EXPECT_EQ(a.heads[h].when_place.adjective, b.heads[h].when_place.adjective);
  }
}

TEST(CoreTrainHeads, BadRecipesAreRefused) {
  for (auto edit : std::vector<void (*)(Recipe&)>{
           [](Recipe& r) { r.heads = 3; },  // does not divide d_model = 16
           [](Recipe& r) { r.learning_rate = 0; },
           [](Recipe& r) { r.learning_rate = std::nan(""); },
           [](Recipe& r) { r.steps = 0; },
           [](Recipe& r) { r.task = "head"; }}) {
    Recipe r = heads_recipe(2);
    edit(r);
    Trainer t;
    const Status s = t.init(r);
    EXPECT_FALSE(s.ok);
    EXPECT_FALSE(s.message.empty());
  }
}

// The row relations are named by the first share above half of the row.
TEST(CoreTrainHeads, RelationNames) {
  HeadPattern p;
  p.when_animal.animal = 0.9;
  p.when_place.adjective = 0.8;
  EXPECT_EQ(head_relation(p), "animal | adjective");
  p.when_place = p.when_animal;
  EXPECT_EQ(head_relation(p), "animal");
  RowShares s;
  s.animal = s.place = 0.3;
  EXPECT_STREQ(row_relation(s), "nouns");
  s.place = 0.1;
  EXPECT_STREQ(row_relation(s), "spread");
  s.previous = 0.6;
  EXPECT_STREQ(row_relation(s), "previous token");
  p.after_noun = 0.6;
  EXPECT_STREQ(after_noun_relation(p), "previous token");
  p.after_noun = 0.3, p.after_noun_other = 0.3;
  EXPECT_STREQ(after_noun_relation(p), "nouns");
  p.after_noun_other = 0.1;
  EXPECT_STREQ(after_noun_relation(p), "spread");
}

}  // namespace
}  // namespace ap
