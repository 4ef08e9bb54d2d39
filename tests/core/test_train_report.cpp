// The trainer's progress report (core/train/report.h): encode → decode gives it back; a damaged array is refused.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "core/train/report.h"

namespace ap {
namespace AP_UNITY_ID {  // this file's own namespace in a unity build (CMakeLists.txt, AP_UNITY)

using namespace train;

TEST(CoreTrainReport, RoundTripAndRefusals) {
  Recipe r;
  r.steps = 50;
  Trainer t;
  ASSERT_TRUE(t.init(r).ok);
  t.advance(50);
  SentenceAttention a;
  ASSERT_TRUE(t.attention_of({"the", "dog", "could", "not", "enter", "the", "park", "since", "it", "was", "too", "busy"}, &a).ok);
  const TrainReport rep = make_report(t, a);
  std::vector<double> v;
  encode_report(rep, &v);
  TrainReport back;
  ASSERT_TRUE(decode_report(v.data(), v.size(), &back).ok);
  EXPECT_EQ(back.step, 50);
  EXPECT_EQ(back.steps, 50);
  EXPECT_TRUE(back.finished());
  EXPECT_EQ(back.heldout_accuracy, t.heldout_accuracy());
  EXPECT_EQ(back.curve.size(), t.curve().size());
  EXPECT_EQ(back.heldout_sentences, static_cast<int>(t.data().heldout.size()));
  EXPECT_TRUE(back.curve.back() == t.curve().back());
  EXPECT_TRUE(std::isnan(back.curve[0].loss));  // step 0 has no training loss
  ASSERT_EQ(back.attention.maps.size(), a.maps.size());
  EXPECT_EQ(back.attention.it_pos, 8);
  for (size_t k = 0; k < a.maps.size(); ++k) EXPECT_EQ((back.attention.maps[k] - a.maps[k]).cwiseAbs().maxCoeff(), 0.f);
  EXPECT_FALSE(back.diverged());
  // The head patterns of the final evaluation (2 layers × 1 head), number for number.
  ASSERT_EQ(back.head_patterns.size(), 2u);
  ASSERT_EQ(t.head_patterns().size(), 2u);
  for (size_t k = 0; k < 2; ++k) {
    const HeadPattern &x = back.head_patterns[k], &y = t.head_patterns()[k];
    EXPECT_EQ(x.layer, y.layer);
    EXPECT_EQ(x.head, y.head);
    EXPECT_EQ(x.referent, y.referent);
    EXPECT_EQ(x.after_noun, y.after_noun);
    EXPECT_EQ(x.after_noun_other, y.after_noun_other);
    EXPECT_EQ(x.when_animal.adjective, y.when_animal.adjective);
    EXPECT_EQ(x.when_place.entropy, y.when_place.entropy);
  }
  const size_t first_share = 13 + 4 * back.curve.size() + 1 + 2;  // Q, then pattern 0's layer and head
  // Damaged: shorter, longer, another version, a count that does not fit, a weight out of [0, 1], a head's share
  // out of [0, 1], a pattern count that does not fit.
  TrainReport untouched = back;
  for (int k = 0; k < 7; ++k) {
    std::vector<double> w = v;
    if (k == 0) w.pop_back();
    if (k == 1) w.push_back(0);
    if (k == 2) w[0] = kReportVersion + 1;
    if (k == 3) w[12] = 1e9;
    if (k == 4) w.back() = 7;
    if (k == 5) w[first_share] = 1.5;           // a head's share above 1
    if (k == 6) w[first_share - 3] = 4097;      // more head patterns than fit
    EXPECT_FALSE(decode_report(w.data(), w.size(), &back).ok) << k;
    EXPECT_EQ(back.step, untouched.step);
  }
  EXPECT_FALSE(decode_report(nullptr, 0, &back).ok);
}

// The induction task's report carries every head's scores (previous token, induction, …) of the last evaluation.
TEST(CoreTrainReport, InductionHeadScoresRoundTrip) {
  Recipe r = induction_recipe();
  r.steps = 50;
  Trainer t;
  ASSERT_TRUE(t.init(r).ok);
  t.advance(50);
  SentenceAttention a;
  ASSERT_TRUE(t.attention_of({"A", "B", "C", "A", "B"}, &a).ok);
  std::vector<double> v;
  encode_report(make_report(t, a), &v);
  TrainReport back;
  ASSERT_TRUE(decode_report(v.data(), v.size(), &back).ok);
  EXPECT_EQ(back.heldout_sentences, kInductionHeldout);
  EXPECT_TRUE(back.head_patterns.empty());
  ASSERT_EQ(back.induction_heads.size(), 2u);
  for (size_t k = 0; k < 2; ++k) {
    const InductionHeadScore &x = back.induction_heads[k], &y = t.induction_scores().heads[k];
    EXPECT_EQ(x.layer, y.layer);
    EXPECT_EQ(x.previous, y.previous);
    EXPECT_EQ(x.induction, y.induction);
    EXPECT_EQ(x.same_token, y.same_token);
    EXPECT_EQ(x.self, y.self);
  }
  EXPECT_EQ(back.attention.it_pos, -1);
  // A score above 1 is refused.
  const size_t z = 13 + 4 * back.curve.size() + 1;  // after Q = 0: Z, then score 0's layer, head, previous
  ASSERT_EQ(v[z], 2.0);
  std::vector<double> w = v;
  w[z + 3] = 1.5;
  EXPECT_FALSE(decode_report(w.data(), w.size(), &back).ok);
}

}  // namespace
}  // namespace ap
