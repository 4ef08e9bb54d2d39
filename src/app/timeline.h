// The stage timeline of the scaled dot-product attention scene: where the animation is, and how it moves.
//
// Stages follow the seed's flow: Q,K,V -> Q·Kᵀ -> ÷√d_k -> mask -> softmax -> ×V -> output.
// Inside a stage, `sub` counts finished sub-steps (fractional while animating):
//   scores:        n·m cells, row-major (cell (i,j) is sub-step i·m + j)
//   softmax:       3 sub-steps per row: exp, row sum, divide
//   weighted sum:  n rows
//   others:        1 (the whole matrix at once)
#pragma once
#include <string>

namespace ap {

enum class Stage { Qkv = 0, Scores, Scale, Mask, Softmax, WeightedSum, Output, Count };
constexpr int kStageCount = static_cast<int>(Stage::Count);
const char* stage_name(int stage);  // "qkv", "scores", "scale", "mask", "softmax", "weighted_sum", "output"

// Softmax sub-step phases within a row.
enum class SoftmaxPhase { Exp = 0, Sum = 1, Divide = 2 };

class Timeline {
 public:
  enum class Mode { Paused, PlayAll, PlayStage };

  void set_sizes(int n, int m);  // keeps the stage, clamps the progress
  int substeps(int stage) const;
  int stage() const { return stage_; }
  double sub() const { return sub_; }
  int done_substeps() const { return static_cast<int>(sub_); }  // finished sub-steps of the current stage
  bool stage_complete() const { return sub_ >= substeps(stage_); }
  Mode mode() const { return mode_; }
  bool playing() const { return mode_ != Mode::Paused; }
  double speed() const { return speed_; }
  void set_speed(double s);  // clamped to [0.1, 16]

  // Forward: the next stage starts from its first sub-step and animates to its end, then pauses.
  // Back: the previous stage is shown complete. k counts stages; clamped at both ends.
  void step_stage(int k);
  void step_sub(int k);  // one cell / row / phase forward or back (pauses)
  void home();           // first stage, nothing done, paused
  void end();            // last stage complete, paused
  void toggle_play();    // play from here through every stage; at the very end, restarts from home
  void restart();        // home + play
  void set_stage(int stage, bool complete);  // jump (pauses); complete: show its result
  void set_stage_at(int stage, double sub);  // jump to a sub-step (clamped), paused
  void advance(double dt_seconds);           // animation clock; dt is clamped to [0, 0.25]

  // Scrubbing: a position in [0, total) over all sub-steps of all stages.
  double total() const;
  double position() const;
  void set_position(double p);

  double seconds_per_substep(int stage) const;  // at speed 1: a stage lasts about 6 s, a sub-step <= 0.6 s

 private:
  int n_ = 1, m_ = 1;
  int stage_ = 0;
  double sub_ = 0;
  Mode mode_ = Mode::Paused;
  double speed_ = 1.0;
};

}  // namespace ap
