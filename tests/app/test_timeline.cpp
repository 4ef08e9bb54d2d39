// Unit tests for the stage timeline (app/timeline.h): sub-step counts, stepping by stage and by sub-step,
// playing (one stage / all stages), the animation clock, scrubbing, speed and size changes.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "app/scenes/sdpa_scene.h"
#include "app/timeline.h"

namespace ap {
namespace AP_UNITY_ID {  // this file's own namespace in a unity build (CMakeLists.txt, AP_UNITY)

constexpr int kQkv = static_cast<int>(SdpaStage::Qkv);
constexpr int kScores = static_cast<int>(SdpaStage::Scores);
constexpr int kScale = static_cast<int>(SdpaStage::Scale);
constexpr int kMask = static_cast<int>(SdpaStage::Mask);
constexpr int kSoftmax = static_cast<int>(SdpaStage::Softmax);
constexpr int kWeightedSum = static_cast<int>(SdpaStage::WeightedSum);
constexpr int kOutput = static_cast<int>(SdpaStage::Output);
constexpr int kLast = kSdpaStageCount - 1;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

// The SDPA scene's timeline for n queries and m keys.
Timeline sized(int n, int m) { return Timeline(sdpa_substeps(n, m)); }

const char* stage_name(int k) {
  static const SdpaScene scene;
  return k >= 0 && k < kSdpaStageCount ? scene.stages()[static_cast<size_t>(k)].id : "?";
}

// ---- sub-step counts --------------------------------------------------------------------------------------

TEST(AppTimeline, StageNamesAndCount) {
  EXPECT_EQ(kSdpaStageCount, 7);
  EXPECT_STREQ(stage_name(kQkv), "qkv");
  EXPECT_STREQ(stage_name(kScores), "scores");
  EXPECT_STREQ(stage_name(kScale), "scale");
  EXPECT_STREQ(stage_name(kMask), "mask");
  EXPECT_STREQ(stage_name(kSoftmax), "softmax");
  EXPECT_STREQ(stage_name(kWeightedSum), "weighted_sum");
  EXPECT_STREQ(stage_name(kOutput), "output");
  EXPECT_STREQ(stage_name(-1), "?");
  EXPECT_STREQ(stage_name(kSdpaStageCount), "?");
}

TEST(AppTimeline, SubstepsPerStage) {
  const Timeline t = sized(3, 5);
  EXPECT_EQ(t.substeps(kQkv), 1);
  EXPECT_EQ(t.substeps(kScores), 15);  // n·m cells
  EXPECT_EQ(t.substeps(kScale), 1);
  EXPECT_EQ(t.substeps(kMask), 1);
  EXPECT_EQ(t.substeps(kSoftmax), 9);  // exp, sum, divide per row
  EXPECT_EQ(t.substeps(kWeightedSum), 3);  // one per row
  EXPECT_EQ(t.substeps(kOutput), 1);
  EXPECT_DOUBLE_EQ(t.total(), 1 + 15 + 1 + 1 + 9 + 3 + 1);
}

TEST(AppTimeline, DefaultIsFirstStagePausedAtSpeedOne) {
  const Timeline t;
  EXPECT_EQ(t.stage(), 0);
  EXPECT_DOUBLE_EQ(t.sub(), 0.0);
  EXPECT_FALSE(t.playing());
  EXPECT_EQ(t.mode(), Timeline::Mode::Paused);
  EXPECT_DOUBLE_EQ(t.speed(), 1.0);
}

// ---- stepping by stage ------------------------------------------------------------------------------------

TEST(AppTimeline, StepStageForwardStartsNextStageAndPlaysIt) {
  Timeline t = sized(2, 3);
  t.set_stage(kQkv, true);
  t.step_stage(+1);
  EXPECT_EQ(t.stage(), kScores);
  EXPECT_DOUBLE_EQ(t.sub(), 0.0);
  EXPECT_EQ(t.mode(), Timeline::Mode::PlayStage);
  EXPECT_FALSE(t.stage_complete());
}

TEST(AppTimeline, PlayStageAnimatesToTheStageEndThenPauses) {
  Timeline t = sized(2, 3);
  t.set_stage(kQkv, true);
  t.step_stage(+1);
  double last = t.sub();
  int frames = 0;
  while (t.playing() && frames < 10000) {
    t.advance(1.0 / 60);
    ++frames;
    EXPECT_EQ(t.stage(), kScores) << "frame " << frames;
    EXPECT_GE(t.sub(), last) << "frame " << frames;
    last = t.sub();
  }
  EXPECT_GT(frames, 10);  // it animates: not one jump
  EXPECT_FALSE(t.playing());
  EXPECT_EQ(t.stage(), kScores);
  EXPECT_DOUBLE_EQ(t.sub(), 6.0);
  EXPECT_TRUE(t.stage_complete());
  // Paused: more time changes nothing.
  t.advance(0.2);
  EXPECT_EQ(t.stage(), kScores);
  EXPECT_DOUBLE_EQ(t.sub(), 6.0);
}

TEST(AppTimeline, StepStageBackShowsThePreviousStageComplete) {
  Timeline t = sized(2, 3);
  t.set_stage(kMask, false);
  t.step_stage(-1);
  EXPECT_EQ(t.stage(), kScale);
  EXPECT_TRUE(t.stage_complete());
  EXPECT_FALSE(t.playing());
  t.step_stage(-1);
  EXPECT_EQ(t.stage(), kScores);
  EXPECT_DOUBLE_EQ(t.sub(), 6.0);
  EXPECT_FALSE(t.playing());
}

TEST(AppTimeline, StepStageBackPausesPlayback) {
  Timeline t = sized(2, 3);
  t.restart();
  ASSERT_TRUE(t.playing());
  t.set_stage_at(kSoftmax, 2);
  t.toggle_play();
  ASSERT_TRUE(t.playing());
  t.step_stage(-1);
  EXPECT_FALSE(t.playing());
  EXPECT_EQ(t.stage(), kMask);
}

TEST(AppTimeline, StepStageClampsAtBothEnds) {
  Timeline t = sized(2, 3);
  t.set_stage(kScale, false);
  t.step_stage(-100);
  EXPECT_EQ(t.stage(), kQkv);
  EXPECT_TRUE(t.stage_complete());
  EXPECT_FALSE(t.playing());

  t.step_stage(+100);
  EXPECT_EQ(t.stage(), kLast);
  EXPECT_DOUBLE_EQ(t.sub(), 0.0);
  // Forward again at the last stage: nothing further to go to, so it shows the last stage complete.
  t.step_stage(+1);
  EXPECT_EQ(t.stage(), kLast);
  EXPECT_TRUE(t.stage_complete());
  EXPECT_FALSE(t.playing());
}

TEST(AppTimeline, StepStageZeroChangesNothing) {
  Timeline t = sized(2, 3);
  t.set_stage_at(kSoftmax, 4);
  t.step_stage(0);
  EXPECT_EQ(t.stage(), kSoftmax);
  EXPECT_DOUBLE_EQ(t.sub(), 4.0);
  EXPECT_FALSE(t.playing());
}

// ---- stepping by sub-step ---------------------------------------------------------------------------------

TEST(AppTimeline, StepSubWithinAStage) {
  Timeline t = sized(2, 3);
  t.set_stage_at(kScores, 2);
  t.step_sub(+1);
  EXPECT_EQ(t.stage(), kScores);
  EXPECT_DOUBLE_EQ(t.sub(), 3.0);
  t.step_sub(-2);
  EXPECT_EQ(t.stage(), kScores);
  EXPECT_DOUBLE_EQ(t.sub(), 1.0);
}

TEST(AppTimeline, StepSubCrossesStageBoundaries) {
  Timeline t = sized(2, 3);
  t.set_stage(kScores, true);  // sub 6 of 6
  t.step_sub(+1);
  EXPECT_EQ(t.stage(), kScale);
  EXPECT_DOUBLE_EQ(t.sub(), 1.0);
  t.step_sub(-1);
  t.step_sub(-1);
  EXPECT_EQ(t.stage(), kScores);
  EXPECT_DOUBLE_EQ(t.sub(), 5.0);
  // A big step forward runs through several stages: 5 + 4 = 9 = 6 (scores) + 1 (scale) + 1 (mask) + 1.
  t.step_sub(+4);
  EXPECT_EQ(t.stage(), kSoftmax);
  EXPECT_DOUBLE_EQ(t.sub(), 1.0);
}

TEST(AppTimeline, StepSubWalksEveryPositionOneByOneAndClamps) {
  Timeline t = sized(2, 3);
  t.home();
  const int total = static_cast<int>(t.total());
  for (int k = 1; k <= total; ++k) {
    t.step_sub(+1);
    EXPECT_DOUBLE_EQ(t.position(), k) << "forward step " << k;
    EXPECT_FALSE(t.playing());
  }
  EXPECT_EQ(t.stage(), kLast);
  EXPECT_TRUE(t.stage_complete());
  t.step_sub(+1);  // clamped at the end
  EXPECT_EQ(t.stage(), kLast);
  EXPECT_DOUBLE_EQ(t.position(), total);
  for (int k = total - 1; k >= 0; --k) {
    t.step_sub(-1);
    EXPECT_DOUBLE_EQ(t.position(), k) << "back step to " << k;
  }
  EXPECT_EQ(t.stage(), 0);
  t.step_sub(-1);  // clamped at the start
  EXPECT_EQ(t.stage(), 0);
  EXPECT_DOUBLE_EQ(t.sub(), 0.0);
}

TEST(AppTimeline, StepSubPausesAndDropsTheFraction) {
  Timeline t = sized(2, 3);
  t.set_stage(kScores, false);
  t.toggle_play();
  ASSERT_TRUE(t.playing());
  t.advance(0.1);  // a fractional sub
  ASSERT_GT(t.sub(), 0.0);
  ASSERT_NE(t.sub(), std::floor(t.sub()));
  const double before = std::floor(t.sub());
  t.step_sub(+1);
  EXPECT_FALSE(t.playing());
  EXPECT_DOUBLE_EQ(t.sub(), before + 1);
}

// ---- home, end, play --------------------------------------------------------------------------------------

TEST(AppTimeline, HomeAndEnd) {
  Timeline t = sized(2, 3);
  t.set_stage_at(kSoftmax, 3);
  t.end();
  EXPECT_EQ(t.stage(), kLast);
  EXPECT_TRUE(t.stage_complete());
  EXPECT_FALSE(t.playing());
  EXPECT_DOUBLE_EQ(t.position(), t.total());
  t.restart();
  t.home();
  EXPECT_EQ(t.stage(), 0);
  EXPECT_DOUBLE_EQ(t.sub(), 0.0);
  EXPECT_FALSE(t.playing());
  EXPECT_DOUBLE_EQ(t.position(), 0.0);
}

TEST(AppTimeline, TogglePlayPausesAndResumesWhereItIs) {
  Timeline t = sized(2, 3);
  t.set_stage_at(kSoftmax, 2);
  t.toggle_play();
  EXPECT_EQ(t.mode(), Timeline::Mode::PlayAll);
  EXPECT_EQ(t.stage(), kSoftmax);
  EXPECT_DOUBLE_EQ(t.sub(), 2.0);
  t.toggle_play();
  EXPECT_FALSE(t.playing());
  EXPECT_EQ(t.stage(), kSoftmax);
}

TEST(AppTimeline, TogglePlayAtTheVeryEndRestarts) {
  Timeline t = sized(2, 3);
  t.end();
  t.toggle_play();
  EXPECT_EQ(t.mode(), Timeline::Mode::PlayAll);
  EXPECT_EQ(t.stage(), 0);
  EXPECT_DOUBLE_EQ(t.sub(), 0.0);
}

TEST(AppTimeline, RestartIsHomeAndPlayAll) {
  Timeline t = sized(2, 3);
  t.set_stage(kWeightedSum, true);
  t.restart();
  EXPECT_EQ(t.stage(), 0);
  EXPECT_DOUBLE_EQ(t.sub(), 0.0);
  EXPECT_EQ(t.mode(), Timeline::Mode::PlayAll);
}

TEST(AppTimeline, PlayAllRunsThroughEveryStageToTheEndThenPauses) {
  Timeline t = sized(3, 4);
  t.home();
  t.toggle_play();
  ASSERT_EQ(t.mode(), Timeline::Mode::PlayAll);
  bool seen[kSdpaStageCount] = {};
  double last_pos = t.position();
  int frames = 0;
  while (t.playing() && frames < 100000) {
    t.advance(1.0 / 60);
    ++frames;
    seen[t.stage()] = true;
    EXPECT_GE(t.position(), last_pos) << "frame " << frames;
    last_pos = t.position();
  }
  EXPECT_FALSE(t.playing());
  EXPECT_LT(frames, 100000);
  EXPECT_GT(frames, 60);  // several seconds of animation, not a jump
  for (int s = 0; s < kSdpaStageCount; ++s) EXPECT_TRUE(seen[s]) << "stage " << stage_name(s) << " never shown";
  EXPECT_EQ(t.stage(), kLast);
  EXPECT_TRUE(t.stage_complete());
  EXPECT_DOUBLE_EQ(t.position(), t.total());
}

TEST(AppTimeline, PlayAllWithLargeFramesStillVisitsTheEnd) {
  Timeline t = sized(1, 1);
  t.restart();
  int frames = 0;
  while (t.playing() && frames < 1000) { t.advance(0.25); ++frames; }
  EXPECT_FALSE(t.playing());
  EXPECT_EQ(t.stage(), kLast);
  EXPECT_TRUE(t.stage_complete());
}

// ---- the animation clock ----------------------------------------------------------------------------------

TEST(AppTimeline, AdvanceClampsALongFrameToAQuarterSecond) {
  Timeline t = sized(11, 11);
  t.set_stage(kQkv, true);
  t.step_stage(+1);  // scores: 121 sub-steps, playing this stage
  const double per = t.seconds_per_substep(kScores);
  ASSERT_NEAR(per, 6.0 / 121, 1e-12);
  t.advance(100.0);
  EXPECT_EQ(t.stage(), kScores);
  EXPECT_TRUE(t.playing());
  EXPECT_NEAR(t.sub(), 0.25 / per, 1e-9);  // 0.25 s of animation, not 100 s
}

TEST(AppTimeline, AdvanceScalesWithSpeed) {
  Timeline t = sized(11, 11);
  t.set_stage(kQkv, true);
  t.step_stage(+1);
  t.set_speed(2.0);
  const double per = t.seconds_per_substep(kScores);
  t.advance(0.1);
  EXPECT_NEAR(t.sub(), 0.2 / per, 1e-9);
  t.advance(50.0);
  EXPECT_NEAR(t.sub(), (0.2 + 0.5) / per, 1e-9);  // the clamp is on dt, before speed
}

TEST(AppTimeline, AdvanceIgnoresZeroNegativeAndNaN) {
  Timeline t = sized(4, 4);
  t.set_stage(kQkv, true);
  t.step_stage(+1);
  t.advance(0.0);
  t.advance(-1.0);
  t.advance(kNaN);
  t.advance(-kInf);
  EXPECT_EQ(t.stage(), kScores);
  EXPECT_DOUBLE_EQ(t.sub(), 0.0);
  EXPECT_TRUE(t.playing());
}

TEST(AppTimeline, AdvanceDoesNothingWhenPaused) {
  Timeline t = sized(4, 4);
  t.set_stage_at(kScores, 3);
  t.advance(0.2);
  EXPECT_EQ(t.stage(), kScores);
  EXPECT_DOUBLE_EQ(t.sub(), 3.0);
}

TEST(AppTimeline, SecondsPerSubstep) {
  const Timeline t = sized(20, 20);
  // A one-step stage (÷√d_k) stays 3 s on screen, not 0.6 s (issue 8: it flashed by during autoplay).
  EXPECT_DOUBLE_EQ(t.seconds_per_substep(kQkv), 3.0);
  EXPECT_DOUBLE_EQ(t.substeps(kQkv) * t.seconds_per_substep(kQkv), 3.0);
  EXPECT_DOUBLE_EQ(t.seconds_per_substep(kScores), 6.0 / 400);
  EXPECT_DOUBLE_EQ(t.seconds_per_substep(kSoftmax), 6.0 / 60);
  const Timeline huge = sized(1024, 1024);
  EXPECT_GT(huge.seconds_per_substep(kScores), 0.0);
  EXPECT_NEAR(huge.substeps(kScores) * huge.seconds_per_substep(kScores), 6.0, 1e-9);
}

// ---- scrubbing --------------------------------------------------------------------------------------------

TEST(AppTimeline, SetPositionRoundTrips) {
  Timeline t = sized(2, 3);
  const double total = t.total();
  for (double p : {0.0, 0.5, 1.0, 1.25, 3.0, 7.0, 7.5, 9.0, 12.75, total - 1, total - 0.5, total}) {
    t.set_position(p);
    EXPECT_DOUBLE_EQ(t.position(), p) << "p = " << p;
    EXPECT_FALSE(t.playing());
    EXPECT_GE(t.sub(), 0.0);
    EXPECT_LE(t.sub(), t.substeps(t.stage()));
  }
}

TEST(AppTimeline, SetPositionMapsToStageAndSub) {
  Timeline t = sized(2, 3);  // stages: 1, 6, 1, 1, 6, 2, 1
  t.set_position(4.0);       // 1 (qkv) + 3 cells of the scores
  EXPECT_EQ(t.stage(), kScores);
  EXPECT_DOUBLE_EQ(t.sub(), 3.0);
  t.set_position(10.5);      // 1 + 6 + 1 + 1 = 9, then 1.5 into softmax
  EXPECT_EQ(t.stage(), kSoftmax);
  EXPECT_DOUBLE_EQ(t.sub(), 1.5);
}

TEST(AppTimeline, SetPositionClampsAndPauses) {
  Timeline t = sized(2, 3);
  t.restart();
  t.set_position(-5);
  EXPECT_FALSE(t.playing());
  EXPECT_DOUBLE_EQ(t.position(), 0.0);
  EXPECT_EQ(t.stage(), 0);
  t.set_position(1e9);
  EXPECT_DOUBLE_EQ(t.position(), t.total());
  EXPECT_EQ(t.stage(), kLast);
  EXPECT_TRUE(t.stage_complete());
  t.set_position(kNaN);
  EXPECT_DOUBLE_EQ(t.position(), 0.0);
}

// ---- speed, jumps, sizes ----------------------------------------------------------------------------------

TEST(AppTimeline, SetSpeedClamps) {
  Timeline t;
  t.set_speed(4.0);
  EXPECT_DOUBLE_EQ(t.speed(), 4.0);
  t.set_speed(100.0);
  EXPECT_DOUBLE_EQ(t.speed(), 16.0);
  t.set_speed(0.0);
  EXPECT_DOUBLE_EQ(t.speed(), 0.1);
  t.set_speed(-3.0);
  EXPECT_DOUBLE_EQ(t.speed(), 0.1);
  t.set_speed(kNaN);
  EXPECT_TRUE(std::isfinite(t.speed()));
  EXPECT_GE(t.speed(), 0.1);
  EXPECT_LE(t.speed(), 16.0);
  t.set_speed(kInf);
  EXPECT_TRUE(std::isfinite(t.speed()));
  EXPECT_GE(t.speed(), 0.1);
  EXPECT_LE(t.speed(), 16.0);
}

TEST(AppTimeline, SetStageJumpsAndPauses) {
  Timeline t = sized(2, 3);
  t.restart();
  t.set_stage(kSoftmax, true);
  EXPECT_EQ(t.stage(), kSoftmax);
  EXPECT_DOUBLE_EQ(t.sub(), 6.0);
  EXPECT_FALSE(t.playing());
  t.set_stage(kSoftmax, false);
  EXPECT_DOUBLE_EQ(t.sub(), 0.0);
  t.set_stage(99, true);
  EXPECT_EQ(t.stage(), kLast);
  t.set_stage(-4, false);
  EXPECT_EQ(t.stage(), 0);
}

TEST(AppTimeline, SetStageAtClamps) {
  Timeline t = sized(2, 3);
  t.restart();
  t.set_stage_at(kScores, 4);
  EXPECT_EQ(t.stage(), kScores);
  EXPECT_DOUBLE_EQ(t.sub(), 4.0);
  EXPECT_FALSE(t.playing());
  t.set_stage_at(kScores, 1000);
  EXPECT_DOUBLE_EQ(t.sub(), 6.0);
  t.set_stage_at(kScores, -2);
  EXPECT_DOUBLE_EQ(t.sub(), 0.0);
  t.set_stage_at(kScores, kNaN);
  EXPECT_DOUBLE_EQ(t.sub(), 0.0);
  t.set_stage_at(99, 3);
  EXPECT_EQ(t.stage(), kLast);
  EXPECT_DOUBLE_EQ(t.sub(), 1.0);
  t.set_stage_at(-7, 0.5);
  EXPECT_EQ(t.stage(), 0);
  EXPECT_DOUBLE_EQ(t.sub(), 0.5);
}

TEST(AppTimeline, SetSizesKeepsTheStageAndClampsSub) {
  Timeline t = sized(4, 4);
  t.set_stage(kScores, true);
  ASSERT_DOUBLE_EQ(t.sub(), 16.0);
  t.set_substeps(sdpa_substeps(2, 2));
  EXPECT_EQ(t.stage(), kScores);
  EXPECT_DOUBLE_EQ(t.sub(), 4.0);
  EXPECT_TRUE(t.stage_complete());
  t.set_substeps(sdpa_substeps(8, 8));  // a stage shown complete stays complete (a model with more rows)
  EXPECT_DOUBLE_EQ(t.sub(), 64.0);
  EXPECT_TRUE(t.stage_complete());
  t.set_stage_at(kScores, 3.0);
  t.set_substeps(sdpa_substeps(9, 9));  // one under way keeps its place
  EXPECT_DOUBLE_EQ(t.sub(), 3.0);
  EXPECT_FALSE(t.stage_complete());
  t.set_substeps(sdpa_substeps(0, -3));  // sizes below 1 are taken as 1
  EXPECT_EQ(t.substeps(kScores), 1);
  EXPECT_EQ(t.substeps(kSoftmax), 3);
  EXPECT_DOUBLE_EQ(t.sub(), 1.0);
}

}  // namespace
}  // namespace ap
