// One run of a race (core/train/seq2seq_run.h): trained then measured by length in units, each length's figures
// those of held_out_scores over the same pairs; its packed report back as it was, a damaged one refused by what
// is wrong; the recipe's bytes (what the page sends a race worker) back as they were, bad ones refused.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "core/train/seq2seq_checkpoint.h"
#include "core/train/seq2seq_run.h"
#include "small_seq2seq.h"

namespace ap {
namespace train {
namespace AP_UNITY_ID {  // this file's own namespace in a unity build (CMakeLists.txt, AP_UNITY)

using ::ap::test::small_reversal;

TEST(CoreTrainSeq2SeqRun, TrainsThenMeasuresEachLengthOnPairsItNeverSaw) {
  Seq2SeqRun run;
  EXPECT_FALSE(run.advance());  // never initialised: nothing to do
  ASSERT_TRUE(run.init(small_reversal(Seq2SeqAttention::Additive, 100), {3, 6}, 45).ok);
  EXPECT_TRUE(run.training());
  int measuring = 0;  // units begun after the training ended
  for (bool was_training = run.training(); run.advance(); was_training = run.training()) measuring += was_training ? 0 : 1;
  EXPECT_TRUE(run.done());
  EXPECT_FALSE(run.training());
  EXPECT_EQ(run.trainer().step(), 100);
  // 45 pairs a length in units of kRaceEvalPairs (20, 20, 5): 3 units a length after the training's.
  EXPECT_EQ(measuring, 2 * 3);
  ASSERT_EQ(run.tokens_by_length().size(), 2u);
  // Each length's figures are held_out_scores over the same pairs, which the training never saw.
  for (size_t i = 0; i < 2; ++i) {
    const std::vector<Seq2SeqPair> pairs = length_set(run.trainer(), {run.lengths()[i]}, 45);
    double tok = 0, sent = 0;
    held_out_scores(run.trainer().model(), pairs, &tok, &sent);
    EXPECT_EQ(run.tokens_by_length()[i], tok);
    EXPECT_EQ(run.sentences_by_length()[i], sent);
  }
  // Refused: lengths and counts out of range, by name; a run without lengths is done when its training is.
  Status s = run.init(small_reversal(Seq2SeqAttention::None, 10), {31}, 5);
  EXPECT_NE(s.message.find("length"), std::string::npos) << s.message;
  s = run.init(small_reversal(Seq2SeqAttention::None, 10), {4}, 0);
  EXPECT_NE(s.message.find("per_length"), std::string::npos) << s.message;
  EXPECT_FALSE(run.advance());  // a refused init leaves no run
  ASSERT_TRUE(run.init(small_reversal(Seq2SeqAttention::None, 10)).ok);
  while (run.advance()) {
  }
  EXPECT_TRUE(run.done());
  EXPECT_TRUE(run.tokens_by_length().empty());
}

// Equal, or both NaN.
bool same_number(double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); }

TEST(CoreTrainSeq2SeqRun, AReportReadsBackAndADamagedOneIsRefused) {
  Seq2SeqRun run;
  ASSERT_TRUE(run.init(small_reversal(Seq2SeqAttention::Additive, 60), {4, 5}, 7).ok);
  while (run.advance()) {
  }
  const RunReport rep = make_run_report(run, 1.25);
  std::vector<double> v;
  encode_run_report(rep, &v);
  RunReport back;
  ASSERT_TRUE(decode_run_report(v.data(), v.size(), &back).ok);
  EXPECT_EQ(back.step, 60);
  EXPECT_FALSE(back.training);
  EXPECT_TRUE(back.done);
  EXPECT_FALSE(back.diverged);
  EXPECT_EQ(back.seconds, 1.25);
  ASSERT_EQ(back.curve.size(), run.trainer().curve().size());
  for (size_t k = 0; k < back.curve.size(); ++k) {
    EXPECT_EQ(back.curve[k].step, run.trainer().curve()[k].step);
    EXPECT_TRUE(same_number(back.curve[k].loss, run.trainer().curve()[k].loss)) << k;  // (step 0's: NaN, no step yet)
    EXPECT_EQ(back.curve[k].accuracy, run.trainer().curve()[k].accuracy);
    EXPECT_TRUE(std::isnan(back.curve[k].alignment));  // the reversal has no reference alignment
  }
  EXPECT_EQ(back.tokens_by_length, run.tokens_by_length());
  EXPECT_EQ(back.sentences_by_length, run.sentences_by_length());
  // Damaged: each refused with what is wrong, and *out untouched.
  const auto refused = [&](std::vector<double> d, const char* why) {
    RunReport out;
    out.step = 42;
    const Status s = decode_run_report(d.data(), d.size(), &out);
    EXPECT_FALSE(s.ok) << why;
    EXPECT_NE(s.message.find(why), std::string::npos) << s.message;
    EXPECT_EQ(out.step, 42);
  };
  std::vector<double> d = v;
  d[0] = 2;
  refused(d, "another version");
  d = v;
  d.pop_back();
  refused(d, "a length that is not its counts'");
  d = v;
  d.push_back(0);
  refused(d, "a length that is not its counts'");
  d = v;
  d[1] = -3;
  refused(d, "its step or state");
  d = v;
  d[2] = 0.5;
  refused(d, "its step or state");
  d = v;
  d[5] = std::numeric_limits<double>::quiet_NaN();
  refused(d, "its times");
  d = v;
  d[2] = 1;  // training, yet done
  refused(d, "its step or state");
  d = v;
  d[7 + 2] = 1.5;  // the first curve point's accuracy
  refused(d, "a curve point");
  d = v;
  d[7 + 5] = 0;  // the second point's step, not after the first's
  refused(d, "a curve point");
  d = v;
  d[1] = 10;  // the run's step, before its curve's last
  refused(d, "a curve point");
  d = v;
  d[6] = 1e9;
  refused(d, "its curve's length");
  d = v;
  d.back() = std::numeric_limits<double>::infinity();
  refused(d, "an accuracy by length");
  refused({1, 2}, "too short");
  RunReport out;
  EXPECT_FALSE(decode_run_report(nullptr, 0, &out).ok);
}

TEST(CoreTrainSeq2SeqRun, ARecipesBytesReadBackAndBadOnesAreRefused) {
  Seq2SeqRecipe r = luong_recipe(Seq2SeqAttention::Concat);
  r.cell = Seq2SeqCell::Elman;
  r.seed = 123456789012345ull;
  r.decay_from = 0.25;
  std::vector<uint8_t> b;
  write_seq2seq_recipe(r, &b);
  Seq2SeqRecipe back;
  ASSERT_TRUE(read_seq2seq_recipe(b.data(), b.size(), &back).ok);
  EXPECT_TRUE(back == r);
  // Cut, lengthened, an invalid field: refused, nothing changed.
  Seq2SeqRecipe out = reversal_recipe(Seq2SeqAttention::None);
  const Seq2SeqRecipe before = out;
  EXPECT_FALSE(read_seq2seq_recipe(b.data(), b.size() - 1, &out).ok);
  std::vector<uint8_t> longer = b;
  longer.push_back(0);
  Status s = read_seq2seq_recipe(longer.data(), longer.size(), &out);
  EXPECT_NE(s.message.find("after its end"), std::string::npos) << s.message;
  Seq2SeqRecipe bad = r;
  bad.steps = 0;
  std::vector<uint8_t> bb;
  write_seq2seq_recipe(bad, &bb);
  s = read_seq2seq_recipe(bb.data(), bb.size(), &out);
  EXPECT_NE(s.message.find("steps"), std::string::npos) << s.message;
  EXPECT_FALSE(read_seq2seq_recipe(nullptr, 0, &out).ok);
  EXPECT_TRUE(out == before);
}

}  // namespace
}  // namespace train
}  // namespace ap
