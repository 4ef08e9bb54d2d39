// A training run of the encoder–decoder (core/train/seq2seq_trainer.h): the default recipe (toy translation,
// additive attention) reaches its targets on held-out sentences it never trained on; a run is the same bit for
// bit whatever the chunks it is advanced in; bad recipes are refused by name; the curve starts untrained.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdio>

#include "core/train/seq2seq_trainer.h"

namespace ap {
namespace train {
namespace {

TEST(CoreTrainSeq2SeqTrainer, TheDefaultRecipeLearnsTheToyTranslationOnHeldOutSentences) {
  Seq2SeqTrainer t;
  ASSERT_TRUE(t.init(Seq2SeqRecipe{}).ok);
  ASSERT_EQ(t.curve().size(), 1u);  // step 0: the untrained model
  EXPECT_LT(t.curve()[0].accuracy, 0.2);
  const auto t0 = std::chrono::steady_clock::now();
  while (!t.finished()) t.advance(37);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const Seq2SeqCurvePoint& last = t.curve().back();
  std::printf("default recipe: %d steps in %.2f s (%.0f steps/s); held-out tokens %.3f, sentences %.3f, content-word "
              "alignment %.3f\n", t.step(), secs, t.step() / secs, last.accuracy, last.sentences, last.alignment);
  EXPECT_EQ(last.step, Seq2SeqRecipe{}.steps);
  EXPECT_GE(last.accuracy, 0.95);
  EXPECT_GE(last.alignment, 0.90);
  EXPECT_EQ(t.curve().size(), static_cast<size_t>(Seq2SeqRecipe{}.steps / kSeq2SeqEvalEvery + 1));
  // The held-out sources are not among the training stream's (a recurring short sentence is skipped).
  EXPECT_EQ(t.heldout().size(), static_cast<size_t>(kSeq2SeqHeldout));
}

TEST(CoreTrainSeq2SeqTrainer, ARunIsTheSameWhateverItsChunks) {
  Seq2SeqRecipe r;
  r.task = "reversal";
  r.attention = Seq2SeqAttention::Dot;
  r.min_len = 2;
  r.max_len = 6;
  r.steps = 120;
  Seq2SeqTrainer a, b;
  ASSERT_TRUE(a.init(r).ok);
  ASSERT_TRUE(b.init(r).ok);
  a.advance(1000);
  while (!b.finished()) b.advance(7);
  ASSERT_EQ(a.step(), 120);
  ASSERT_EQ(b.step(), 120);
  float largest = 0;
  for (size_t k = 0; k < a.model().params().size(); ++k)
    largest = std::max(largest, (a.model().params()[k].value - b.model().params()[k].value).cwiseAbs().maxCoeff());
  std::printf("largest difference between the two runs' weights: %g\n", largest);
  EXPECT_EQ(largest, 0.f);
  ASSERT_EQ(a.curve().size(), b.curve().size());
  for (size_t k = 0; k < a.curve().size(); ++k) EXPECT_EQ(a.curve()[k].accuracy, b.curve()[k].accuracy);
  EXPECT_TRUE(std::isnan(a.curve().back().alignment));  // reversal: no reference alignment measured
}

TEST(CoreTrainSeq2SeqTrainer, BadRecipesAreRefusedByName) {
  const auto refused = [](Seq2SeqRecipe r, const char* word) {
    Seq2SeqTrainer t;
    const Status s = t.init(r);
    EXPECT_FALSE(s.ok) << word;
    EXPECT_NE(s.message.find(word), std::string::npos) << s.message;
  };
  Seq2SeqRecipe r;
  r.task = "poetry";
  refused(r, "poetry");
  r = {};
  r.learning_rate = 0;
  refused(r, "learning rate");
  r.learning_rate = std::nan("");
  refused(r, "learning rate");
  r = {};
  r.min_len = 2;  // translation starts at 3 words
  refused(r, "lengths");
  r = {};
  r.max_len = 31;
  refused(r, "lengths");
  r = {};
  r.d_h = 0;
  refused(r, "d_h");
  r = {};
  r.steps = 0;
  refused(r, "steps");
  r = {};
  r.batch = 1000;
  refused(r, "batch");
}

}  // namespace
}  // namespace train
}  // namespace ap
