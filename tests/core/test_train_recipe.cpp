// Recipe validation (core/train/recipe.h): every refused field names itself; the default is accepted.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "core/train/coref.h"
#include "core/train/induction.h"
#include "core/train/recipe.h"

namespace ap {
namespace AP_UNITY_ID {  // this file's own namespace in a unity build (CMakeLists.txt, AP_UNITY)

using namespace train;

Status check(const Recipe& r) { return validate_recipe(r, coref_seq_len()); }

TEST(CoreTrainRecipe, TheDefaultIsAcceptedAndWithinTheBudget) {
  const Recipe r;
  EXPECT_TRUE(check(r).ok) << check(r).message;
  const double work = recipe_work(r, coref_seq_len());
  std::printf("    default recipe: %.3g multiply-adds (budget %.3g)\n", work, recipe_limits::kMaxWork);
  EXPECT_LT(work * 5, recipe_limits::kMaxWork);
  // recipe_work against the formula written out: 3 · (4·T·C² + 2·T²·C) · L · B · steps
  const double T = coref_seq_len();
  EXPECT_DOUBLE_EQ(work, 3.0 * (4 * T * 16 * 16 + 2 * T * T * 16) * 2 * 32 * 1500);
}

TEST(CoreTrainRecipe, RefusesBadLearningRates) {
  for (double lr : {0.0, -1e-3, std::nan(""), std::numeric_limits<double>::infinity(), 1.5, 1e308}) {
    Recipe r;
    r.learning_rate = lr;
    const Status s = check(r);
    EXPECT_FALSE(s.ok) << lr;
    EXPECT_NE(s.message.find("learning rate"), std::string::npos) << s.message;
  }
  Recipe r;
  r.learning_rate = 1.0;  // the largest accepted
  EXPECT_TRUE(check(r).ok);
}

TEST(CoreTrainRecipe, RefusesSizesAndStepsOutOfRange) {
  const auto refused = [](Recipe r, const char* word) {
    const Status s = check(r);
    EXPECT_FALSE(s.ok) << word;
    EXPECT_NE(s.message.find(word), std::string::npos) << s.message;
  };
  Recipe r;
  r.layers = 0; refused(r, "layers");
  r = {}; r.layers = 5; refused(r, "layers");
  r = {}; r.d_model = 65; refused(r, "d_model");
  r = {}; r.heads = 3; refused(r, "divide");
  r = {}; r.heads = 0; refused(r, "heads");
  r = {}; r.steps = 0; refused(r, "steps");
  r = {}; r.steps = 20001; refused(r, "steps");
  r = {}; r.batch = 0; refused(r, "batch");
  r = {}; r.batch = 129; refused(r, "batch");
  r = {}; r.seed = 1ull << 60; refused(r, "seed");
  r = {}; r.task = "sorting"; refused(r, "task");
  EXPECT_TRUE(check(induction_recipe()).ok);  // the three tasks: "coref", "heads", "induction"
  EXPECT_EQ(task_seq_len("induction"), kInductionSeqLen);
  EXPECT_EQ(task_seq_len("sorting"), 0);
}

TEST(CoreTrainRecipe, RefusesWhatCannotTrainWithinTheTimeBudget) {
  Recipe r;
  r.d_model = 64;
  r.layers = 4;
  r.steps = 20000;
  r.batch = 128;  // every size within its own range, together far over the budget
  const Status s = check(r);
  EXPECT_FALSE(s.ok);
  EXPECT_NE(s.message.find("multiply-adds"), std::string::npos) << s.message;
  EXPECT_GT(recipe_work(r, coref_seq_len()), recipe_limits::kMaxWork);
}

}  // namespace
}  // namespace ap
