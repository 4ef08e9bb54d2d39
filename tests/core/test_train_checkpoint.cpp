// Checkpoints (core/train/checkpoint.h): a round trip gives the same recipe, step, accuracy and bits; every
// kind of damage is refused with its own message and leaves the target trainer as it was.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "core/train/checkpoint.h"

namespace ap {
namespace AP_UNITY_ID {  // this file's own namespace in a unity build (CMakeLists.txt, AP_UNITY)

using namespace train;

Recipe small_recipe() {
  Recipe r;
  r.steps = 60;
  r.seed = 3;
  return r;
}

std::vector<uint8_t> trained_bytes(Trainer* t) {
  EXPECT_TRUE(t->init(small_recipe()).ok);
  t->advance(1000);
  std::vector<uint8_t> b;
  write_checkpoint(*t, &b);
  return b;
}

uint64_t fnv1a(const uint8_t* p, size_t n) {  // the reference: FNV-1a 64 written out again
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 1099511628211ull;
  return h;
}
// Re-seals a payload edited by a test (so that only the edit, not the checksum, is what is refused).
void reseal(std::vector<uint8_t>* b) {
  const uint64_t h = fnv1a(b->data() + 12, b->size() - 20);
  std::memcpy(b->data() + b->size() - 8, &h, 8);
}

TEST(CoreTrainCheckpoint, RoundTripKeepsEveryBit) {
  Trainer t;
  const std::vector<uint8_t> b = trained_bytes(&t);
  std::printf("    checkpoint of the default sizes: %zu bytes\n", b.size());
  Trainer u;
  const Status s = read_checkpoint(b.data(), b.size(), &u);
  ASSERT_TRUE(s.ok) << s.message;
  EXPECT_TRUE(u.recipe() == t.recipe());
  EXPECT_EQ(u.step(), 60);
  EXPECT_EQ(u.heldout_accuracy(), t.heldout_accuracy());
  EXPECT_TRUE(u.finished());
  const ParamStore &a = t.model().params(), &c = u.model().params();
  ASSERT_EQ(a.size(), c.size());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].name, c[i].name);
    ASSERT_EQ(a[i].value.size(), c[i].value.size());
    EXPECT_EQ(std::memcmp(a[i].value.data(), c[i].value.data(), sizeof(float) * a[i].value.size()), 0) << a[i].name;
  }
  std::vector<uint8_t> again;
  write_checkpoint(u, &again);
  EXPECT_EQ(again, b);
}

TEST(CoreTrainCheckpoint, EveryDamageIsRefusedByName) {
  Trainer t;
  const std::vector<uint8_t> good = trained_bytes(&t);
  Trainer target;
  ASSERT_TRUE(target.init(Recipe{}).ok);
  const auto refused = [&](const std::vector<uint8_t>& b, const char* words) {
    const Status s = read_checkpoint(b.data(), b.size(), &target);
    EXPECT_FALSE(s.ok) << words;
    EXPECT_NE(s.message.find(words), std::string::npos) << "wanted \"" << words << "\", got: " << s.message;
    EXPECT_EQ(target.step(), 0);  // unchanged
    EXPECT_TRUE(target.recipe() == Recipe{});
  };
  std::vector<uint8_t> b;
  refused({}, "too short");
  refused(std::vector<uint8_t>(good.begin(), good.begin() + 10), "too short");
  b = good; b[0] = 'X'; refused(b, "not a checkpoint");
  b = good; b[4] = 2; refused(b, "version 2; this build reads version 1");
  for (size_t cut : {size_t(21), good.size() / 2, good.size() - 1})
    refused(std::vector<uint8_t>(good.begin(), good.begin() + cut), "truncated");
  b = good; b.push_back(0); refused(b, "bytes after its end");
  b = good; b[good.size() / 2] ^= 0x40; refused(b, "checksum");
  // Edits with a valid checksum: the recipe, the parameters, the accuracy.
  b = good; b[12 + 1 + 5 + 0] = 9; b[12 + 1 + 5 + 1] = 0; reseal(&b); refused(b, "layers");  // layers = 9
  {
    b = good;
    double lr = -1;  // task "coref" (1 + 5) · 3 × i32 · u64 seed · i32 steps → the learning rate
    std::memcpy(b.data() + 12 + 6 + 12 + 8 + 4, &lr, 8);
    reseal(&b);
    refused(b, "learning rate");
  }
  {
    b = good;
    double acc = 0.123;  // after the lr: i32 batch, i32 step, then the accuracy
    std::memcpy(b.data() + 12 + 6 + 12 + 8 + 4 + 8 + 4 + 4, &acc, 8);
    reseal(&b);
    refused(b, "its weights give");
  }
  {
    b = good;  // the first parameter's name "wte" → "wtf"
    const size_t name_at = 12 + 6 + 12 + 8 + 4 + 8 + 4 + 4 + 8 + 4 + 1;
    ASSERT_EQ(std::string(reinterpret_cast<const char*>(b.data() + name_at), 3), "wte");
    b[name_at + 2] = 'f';
    reseal(&b);
    refused(b, "does not have");
    b = good;  // its rows (the vocabulary size) one fewer
    uint32_t rows;
    std::memcpy(&rows, b.data() + name_at + 3, 4);
    --rows;
    std::memcpy(b.data() + name_at + 3, &rows, 4);
    reseal(&b);
    refused(b, "");  // the payload no longer lines up: refused (ends mid-field, or shapes differ)
    b = good;  // a NaN weight
    const float nan = std::nanf("");
    std::memcpy(b.data() + name_at + 3 + 8, &nan, 4);
    reseal(&b);
    refused(b, "not a finite number");
  }
}

// What a run still training sends to the page (CheckpointWeights::LastEvaluation): between two evaluations the
// weights and the step of the last one, so that the accuracy the checkpoint states is the one its weights give;
// read back, they are those weights bit for bit. At an evaluation it is the current checkpoint.
TEST(CoreTrainCheckpoint, ARunBetweenEvaluationsSendsItsLastEvaluatedWeights) {
  Trainer t;
  ASSERT_TRUE(t.init(small_recipe()).ok);
  t.advance(kEvalEvery);
  std::vector<uint8_t> at_eval, current;
  write_checkpoint(t, &at_eval, CheckpointWeights::LastEvaluation);
  write_checkpoint(t, &current);
  EXPECT_EQ(at_eval, current);  // at an evaluation: the same bytes
  t.advance(7);                 // between two evaluations
  ASSERT_EQ(t.step(), kEvalEvery + 7);
  ASSERT_EQ(t.evaluated_step(), kEvalEvery);
  std::vector<uint8_t> b;
  write_checkpoint(t, &b, CheckpointWeights::LastEvaluation);
  EXPECT_EQ(b, at_eval);  // the weights moved on, the evaluated ones did not
  Trainer back;
  ASSERT_TRUE(read_checkpoint(b.data(), b.size(), &back).ok);
  EXPECT_EQ(back.step(), kEvalEvery);
  EXPECT_EQ(back.heldout_accuracy(), t.heldout_accuracy());
  // The current weights at step 32 with the accuracy of step 25: refused (they were never measured).
  write_checkpoint(t, &current);
  Trainer other;
  const Status s = read_checkpoint(current.data(), current.size(), &other);
  EXPECT_FALSE(s.ok);
  EXPECT_NE(s.message.find("its weights give"), std::string::npos) << s.message;
}

// Newer weights of the same recipe are read into the model in place (the page's trained views while the learner
// trains); a file that claims an accuracy its weights do not give leaves that model as it was.
TEST(CoreTrainCheckpoint, TheSameRecipeIsReadInPlaceAndABadFileChangesNothing) {
  Trainer run;
  ASSERT_TRUE(run.init(small_recipe()).ok);
  std::vector<uint8_t> step0, step50;
  write_checkpoint(run, &step0);
  run.advance(50);
  write_checkpoint(run, &step50);
  Trainer view;
  ASSERT_TRUE(read_checkpoint(step0.data(), step0.size(), &view).ok);
  const float* data_before = view.model().params()[0].value.data();
  ASSERT_TRUE(read_checkpoint(step50.data(), step50.size(), &view).ok);
  EXPECT_EQ(view.model().params()[0].value.data(), data_before);  // in place: the same model, new values
  EXPECT_EQ(view.step(), 50);
  float largest = 0;
  for (size_t i = 0; i < view.model().params().size(); ++i)
    largest = std::max(largest, (view.model().params()[i].value - run.model().params()[i].value).cwiseAbs().maxCoeff());
  std::printf("largest difference to the run's weights: %g\n", largest);
  EXPECT_EQ(largest, 0.f);
  std::vector<uint8_t> bad = step0;  // step 0's weights claiming step 50's accuracy … at step 0: refused
  double acc = 0.987;
  std::memcpy(bad.data() + 12 + 6 + 12 + 8 + 4 + 8 + 4 + 4, &acc, 8);
  reseal(&bad);
  EXPECT_FALSE(read_checkpoint(bad.data(), bad.size(), &view).ok);
  EXPECT_EQ(view.step(), 50);
  std::vector<uint8_t> again;
  write_checkpoint(view, &again);
  EXPECT_EQ(again, step50);  // the model as it was, bit for bit
  Recipe r;
  ASSERT_TRUE(peek_checkpoint(step50.data(), step50.size(), &r).ok);
  EXPECT_EQ(r, small_recipe());
  EXPECT_FALSE(peek_checkpoint(step50.data(), 20, &r).ok);
}

// A run's newer weights while the page draws: staged, measured a few batches at a time with the model as it was
// between the slices, installed at the end exactly as read_checkpoint installs them; a file that claims what its
// weights do not give is dropped at the end, and another recipe is refused at once.
TEST(CoreTrainCheckpoint, StagedWeightsAreMeasuredInSlicesAndInstalledOnlyAtTheEnd) {
  Trainer run;
  std::vector<uint8_t> step0, last;
  ASSERT_TRUE(run.init(small_recipe()).ok);
  write_checkpoint(run, &step0);
  run.advance(1000);
  ASSERT_TRUE(run.finished());
  ASSERT_TRUE(run.evaluated_on_all());
  write_checkpoint(run, &last);
  Trainer view;
  ASSERT_TRUE(read_checkpoint(step0.data(), step0.size(), &view).ok);
  ASSERT_TRUE(stage_checkpoint(last.data(), last.size(), &view).ok);
  EXPECT_TRUE(view.staging());
  Status result = Status::Error("untouched");
  int slices = 0;
  while (!view.measure_staged(1, &result)) {
    ++slices;
    std::vector<uint8_t> between;
    write_checkpoint(view, &between);
    ASSERT_EQ(between, step0) << "after slice " << slices;  // the model, step and accuracy as they were
    ASSERT_LT(slices, 1000);
  }
  const int batches = static_cast<int>((view.heldout_size() + 63) / 64);
  std::printf("the last step's weights measured in %d slices of one batch (%zu held-out sentences)\n", slices + 1, view.heldout_size());
  EXPECT_EQ(slices + 1, batches);  // every held-out sentence, one batch a slice
  EXPECT_TRUE(result.ok) << result.message;
  EXPECT_FALSE(view.staging());
  std::vector<uint8_t> installed;
  write_checkpoint(view, &installed);
  EXPECT_EQ(installed, last);
  EXPECT_EQ(view.heldout_accuracy(), run.heldout_accuracy());
  EXPECT_EQ(view.referent_argmax(), run.referent_argmax());
  EXPECT_TRUE(view.evaluated_on_all());
  ASSERT_EQ(view.head_patterns().size(), run.head_patterns().size());
  EXPECT_FALSE(view.head_patterns().empty());

  // The wrong accuracy: dropped at the end, the model stays.
  std::vector<uint8_t> bad = step0;
  double acc = 0.987;
  std::memcpy(bad.data() + 12 + 6 + 12 + 8 + 4 + 8 + 4 + 4, &acc, 8);
  reseal(&bad);
  ASSERT_TRUE(stage_checkpoint(bad.data(), bad.size(), &view).ok);
  while (!view.measure_staged(3, &result)) {}
  EXPECT_FALSE(result.ok);
  EXPECT_NE(result.message.find("its weights give"), std::string::npos) << result.message;
  std::vector<uint8_t> after;
  write_checkpoint(view, &after);
  EXPECT_EQ(after, last);
  EXPECT_FALSE(view.measure_staged(1, &result));  // nothing staged

  // A newer staging replaces an older one; another recipe is refused.
  ASSERT_TRUE(stage_checkpoint(last.data(), last.size(), &view).ok);
  ASSERT_TRUE(stage_checkpoint(step0.data(), step0.size(), &view).ok);
  while (!view.measure_staged(SIZE_MAX, &result)) {}
  EXPECT_TRUE(result.ok) << result.message;
  EXPECT_EQ(view.step(), 0);
  Recipe other = small_recipe();
  other.seed = 4;
  Trainer foreign;
  ASSERT_TRUE(foreign.init(other).ok);
  std::vector<uint8_t> foreign_bytes;
  write_checkpoint(foreign, &foreign_bytes);
  const Status refused = stage_checkpoint(foreign_bytes.data(), foreign_bytes.size(), &view);
  EXPECT_FALSE(refused.ok);
  EXPECT_NE(refused.message.find("another recipe"), std::string::npos) << refused.message;
  EXPECT_FALSE(view.staging());
}

}  // namespace
}  // namespace ap
