// The trainer's progress report (core/train/report.h): encode → decode gives it back; a damaged array is refused.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "core/train/report.h"

namespace ap {
namespace {

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
  // Damaged: shorter, longer, another version, a count that does not fit, a weight out of [0, 1].
  TrainReport untouched = back;
  for (int k = 0; k < 5; ++k) {
    std::vector<double> w = v;
    if (k == 0) w.pop_back();
    if (k == 1) w.push_back(0);
    if (k == 2) w[0] = 2;
    if (k == 3) w[12] = 1e9;
    if (k == 4) w.back() = 7;
    EXPECT_FALSE(decode_report(w.data(), w.size(), &back).ok) << k;
    EXPECT_EQ(back.step, untouched.step);
  }
  EXPECT_FALSE(decode_report(nullptr, 0, &back).ok);
}

}  // namespace
}  // namespace ap
