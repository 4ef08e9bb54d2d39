// The induction task (core/train/induction.h): the generator's invariants, and the experiment — two
// attention-only layers form a previous-token head and an induction head, with a sudden drop of the loss;
// one layer cannot do it.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <cstdio>
#include <set>
#include <vector>

#include "core/train/induction.h"
#include "core/train/model.h"
#include "core/train/param_store.h"
#include "core/train/trainer.h"
#include "test_mode.h"

namespace ap {
namespace AP_UNITY_ID {  // this file's own namespace in a unity build (CMakeLists.txt, AP_UNITY)

using namespace train;

TEST(CoreTrainInduction, SequencesHoldTheSegmentTwiceAndNowhereElse) {
  SeededRng rng(3, 1);
  std::set<int> starts, gaps;
  for (int n = 0; n < 2000; ++n) {
    InductionSequence s;
    sample_induction(rng, nullptr, &s);
    ASSERT_GE(s.s1, 0);
    ASSERT_GE(s.s2, s.s1 + kInductionSegment);
    ASSERT_LE(s.s2 + kInductionSegment, kInductionSeqLen);
    starts.insert(s.s1);
    gaps.insert(s.s2 - s.s1);
    std::set<int> segment;
    for (int i = 0; i < kInductionSegment; ++i) {
      ASSERT_EQ(s.ids[s.s1 + i], s.ids[s.s2 + i]);
      segment.insert(s.ids[s.s1 + i]);
    }
    ASSERT_EQ(segment.size(), static_cast<size_t>(kInductionSegment)) << "the segment's tokens are distinct";
    for (int t = 0; t < kInductionSeqLen; ++t) {
      ASSERT_GE(s.ids[t], 0);
      ASSERT_LT(s.ids[t], kInductionVocab);
      const bool in_segment = (t >= s.s1 && t < s.s1 + kInductionSegment) || (t >= s.s2 && t < s.s2 + kInductionSegment);
      if (!in_segment) {
        ASSERT_EQ(segment.count(s.ids[t]), 0u) << "a filler holds a token of the segment";
      }
    }
    // Each answer is the token after the earlier occurrence of the row's own token.
    for (int r = 0; r < kInductionRows; ++r) {
      ASSERT_EQ(s.ids[s.row(r)], s.ids[s.source(r) - 1]);
      ASSERT_EQ(s.target(r), s.ids[s.row(r) + 1]);
    }
  }
  // Position alone cannot tell: every start and every gap occurs.
  EXPECT_EQ(starts.size(), static_cast<size_t>(kInductionSeqLen - 2 * kInductionSegment + 1));
  EXPECT_EQ(gaps.size(), static_cast<size_t>(kInductionSeqLen - 2 * kInductionSegment + 1));
}

TEST(CoreTrainInduction, HeldOutSegmentsAreDistinctAndNeverDrawnForTraining) {
  InductionDataset a, b;
  make_induction_dataset(7, &a);
  make_induction_dataset(7, &b);
  ASSERT_EQ(a.heldout.size(), static_cast<size_t>(kInductionHeldout));
  EXPECT_EQ(a.heldout_segments.size(), a.heldout.size());
  for (size_t i = 0; i < a.heldout.size(); ++i)
    ASSERT_TRUE(std::equal(a.heldout[i].ids, a.heldout[i].ids + kInductionSeqLen, b.heldout[i].ids)) << "seeded";
  SeededRng rng(1, 2);
  for (int n = 0; n < 20000; ++n) {
    InductionSequence s;
    sample_induction(rng, &a.heldout_segments, &s);
    ASSERT_EQ(a.heldout_segments.count(segment_key(s)), 0u);
  }
  // The exclusion is real: the split's own stream first draws held-out segment 0, and with the held-out
  // segments excluded the same stream draws another one.
  SeededRng a1(7, 0x1D0C7ull), a2(7, 0x1D0C7ull);
  InductionSequence first, redrawn;
  sample_induction(a1, nullptr, &first);
  EXPECT_EQ(segment_key(first), segment_key(a.heldout[0]));
  sample_induction(a2, &a.heldout_segments, &redrawn);
  EXPECT_EQ(a.heldout_segments.count(segment_key(redrawn)), 0u);
}

TEST(CoreTrainInduction, BatchHoldsRAnswersPerSequence) {
  InductionDataset d;
  make_induction_dataset(7, &d);
  const int idx[2] = {5, 9};
  Batch batch;
  fill_induction_batch(d.heldout, idx, 2, &batch);
  ASSERT_EQ(batch.row.size(), static_cast<size_t>(2 * kInductionRows));
  for (int b = 0; b < 2; ++b)
    for (int r = 0; r < kInductionRows; ++r) {
      const InductionSequence& s = d.heldout[static_cast<size_t>(idx[b])];
      EXPECT_EQ(batch.row[static_cast<size_t>(b * kInductionRows + r)], s.row(r));
      EXPECT_EQ(batch.target[static_cast<size_t>(b * kInductionRows + r)], s.target(r));
    }
  AttentionModel m;
  ASSERT_TRUE(m.init(induction_model_config(2, 1, 16, 2, 1)).ok);
  double loss = 0;
  ASSERT_TRUE(m.forward(batch, &loss).ok);
  EXPECT_NEAR(loss, std::log(static_cast<double>(kInductionVocab)), 1.5);  // untrained: about ln V
}

// The trainer's run of a recipe (the code path the page trains with), printed.
void print_run(const char* tag, const Trainer& t, double seconds) {
  std::printf("    %s: %d steps in %.2f s, held-out accuracy %.2f %% (%zu sequences), some last-layer head's argmax on the "
              "token to copy %.2f %%\n      loss:", tag, t.step(), seconds, 100 * t.heldout_accuracy(), t.heldout_size(),
              100 * t.referent_argmax());
  for (const CurvePoint& p : t.curve())
    if (p.step % 50 == 0 && p.step > 0) std::printf(" %d:%.3f", p.step, p.loss);
  std::printf("\n      accuracy:");
  for (const CurvePoint& p : t.curve())
    if (p.step % 50 == 0) std::printf(" %d:%.2f", p.step, p.heldout_accuracy);
  std::printf("\n");
  for (const InductionHeadScore& h : t.induction_scores().heads)
    std::printf("      layer %d head %d: previous %.3f, induction %.3f, same token %.3f, itself %.3f -> %s\n", h.layer + 1,
                h.head + 1, h.previous, h.induction, h.same_token, h.self, induction_relation(h));
}

double train_to_end(Trainer* t, const Recipe& r) {
  EXPECT_TRUE(t->init(r).ok);
  const auto t0 = std::chrono::steady_clock::now();
  while (!t->finished() && !t->diverged()) t->advance(50);
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// The experiment (Olsson et al. 2022, in miniature): the default recipe, 2 attention-only layers of 1 head.
TEST(CoreTrainInduction, TwoLayersFormAPreviousTokenHeadThenAnInductionHeadWithASuddenDrop) {
  TRAINED_TARGET_ASSERTED_IN_RELEASE();
  Trainer t;
  const double seconds = train_to_end(&t, induction_recipe());
  print_run("2 layers x 1 head", t, seconds);
  ASSERT_FALSE(t.diverged());
  ASSERT_TRUE(t.evaluated_on_all());
  EXPECT_EQ(t.heldout_size(), static_cast<size_t>(kInductionHeldout));
  EXPECT_GE(t.heldout_accuracy(), 0.95);
  EXPECT_GE(t.referent_argmax(), 0.9);
  const auto& heads = t.induction_scores().heads;
  ASSERT_EQ(heads.size(), 2u);
  EXPECT_STREQ(induction_relation(heads[0]), "previous token");
  EXPECT_GE(heads[0].previous, 0.5);
  EXPECT_STREQ(induction_relation(heads[1]), "induction");
  EXPECT_GE(heads[1].induction, 0.9);
  // The sudden drop: a plateau near ln V first, then the loss falls from above 2.5 to below 0.5 within 150 steps.
  const auto& c = t.curve();
  const double lnV = std::log(static_cast<double>(kInductionVocab));
  int last_high = -1, first_low = -1;
  for (const CurvePoint& p : c) {
    if (p.step == 0) continue;
    if (p.step == 100) {
      EXPECT_GE(p.loss, 0.8 * lnV) << "a plateau first";
    }
    if (p.loss > 2.5 && first_low < 0) last_high = p.step;
    if (p.loss < 0.5 && first_low < 0) first_low = p.step;
  }
  std::printf("    the drop: loss above 2.5 until step %d, below 0.5 from step %d (ln V = %.3f)\n", last_high, first_low, lnV);
  ASSERT_GT(last_high, 0);
  ASSERT_GT(first_low, last_high);
  EXPECT_LE(first_low - last_high, 150);
}

// One layer, even with 2 heads and the same budget, cannot compose "the token before me" with "where my token
// was": it only guesses among the tokens seen once so far.
TEST(CoreTrainInduction, OneLayerCannot) {
  TRAINED_TARGET_ASSERTED_IN_RELEASE();
  Trainer two, one;
  train_to_end(&two, induction_recipe());
  Recipe r = induction_recipe(1);
  r.heads = 2;
  const double seconds = train_to_end(&one, r);
  print_run("1 layer x 2 heads", one, seconds);
  ASSERT_TRUE(one.evaluated_on_all());
  EXPECT_LE(one.heldout_accuracy(), 0.6);
  EXPECT_LE(one.heldout_accuracy(), two.heldout_accuracy() - 0.4);
  for (const InductionHeadScore& h : one.induction_scores().heads) EXPECT_LT(h.induction, 0.5);
}

TEST(CoreTrainInduction, TheRunIsDeterministicWhateverTheChunks) {
  Recipe r = induction_recipe();
  r.steps = 60;
  Trainer a, b;
  ASSERT_TRUE(a.init(r).ok);
  ASSERT_TRUE(b.init(r).ok);
  while (!a.finished()) a.advance(7);
  b.advance(1000);
  ASSERT_EQ(a.curve().size(), b.curve().size());
  for (size_t i = 1; i < a.curve().size(); ++i) EXPECT_EQ(a.curve()[i], b.curve()[i]) << i;  // point 0's loss is NaN
  for (size_t i = 0; i < a.model().params().size(); ++i) {
    const Mat &x = a.model().params()[i].value, &y = b.model().params()[i].value;
    ASSERT_EQ(std::memcmp(x.data(), y.data(), sizeof(float) * static_cast<size_t>(x.size())), 0) << a.model().params()[i].name;
  }
}

// One trainer runs one recipe after another (both hosts keep one): a coreference run after an induction run
// reports no induction scores, and the induction run after it measures its own again.
TEST(CoreTrainInduction, AnotherTaskAfterwardsStartsWithoutTheInductionScores) {
  Trainer t;
  Recipe r = induction_recipe();
  r.steps = 25;
  ASSERT_TRUE(t.init(r).ok);
  t.advance(25);
  EXPECT_EQ(t.induction_scores().heads.size(), 2u);
  Recipe c;
  c.steps = 25;
  ASSERT_TRUE(t.init(c).ok);
  EXPECT_TRUE(t.induction_scores().heads.empty());
  t.advance(25);
  EXPECT_TRUE(t.induction_scores().heads.empty());
  EXPECT_EQ(t.head_patterns().size(), 2u);  // the coreference run's own measure
  EXPECT_EQ(t.heldout_size(), t.data().heldout.size());
  ASSERT_TRUE(t.init(r).ok);
  EXPECT_TRUE(t.head_patterns().empty());
  EXPECT_EQ(t.induction_scores().heads.size(), 2u);  // step 0, measured on the curve's sequences
}

TEST(CoreTrainInduction, AttentionOfASequenceAndRefusals) {
  Trainer t;
  Recipe r = induction_recipe();
  r.steps = 25;
  ASSERT_TRUE(t.init(r).ok);
  SentenceAttention a;
  const Status shown = t.attention_of({"Q", "B", "X", "C", "Q", "B"}, &a);
  ASSERT_TRUE(shown.ok) << shown.message;
  EXPECT_EQ(a.layers, 2);
  EXPECT_EQ(a.it_pos, -1);
  ASSERT_EQ(a.maps.size(), 2u);
  EXPECT_EQ(a.maps[0].rows(), 6);
  for (const Mat& m : a.maps)
    for (int i = 0; i < 6; ++i) {
      EXPECT_NEAR(m.row(i).sum(), 1.0, 1e-5);
      for (int j = i + 1; j < 6; ++j) EXPECT_EQ(m(i, j), 0.f) << "causal";
    }
  const Status lower = t.attention_of({"Q", "b"}, &a);
  EXPECT_FALSE(lower.ok);
  EXPECT_NE(lower.message.find("\"b\""), std::string::npos) << lower.message;
  EXPECT_FALSE(t.attention_of({"Q"}, &a).ok);
  EXPECT_FALSE(t.attention_of(std::vector<std::string>(kInductionSeqLen + 1, "A"), &a).ok);
  EXPECT_FALSE(t.attention_of({"Y", "A"}, &a).ok);  // Y is past the 24 tokens
  // The recipe's checks hold for the task (a learning rate of 0 is refused before any work).
  r.learning_rate = 0;
  EXPECT_FALSE(t.init(r).ok);
  r = induction_recipe();
  r.task = "inductions";
  const Status unknown = validate_recipe(r, 20);
  EXPECT_FALSE(unknown.ok);
  EXPECT_NE(unknown.message.find("induction"), std::string::npos);
}

}  // namespace
}  // namespace ap
