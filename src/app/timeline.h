// A scene's step timeline: where the animation is, and how it moves. The stages and how many sub-steps each
// has come from the scene (its stage table and its current model); the timeline knows nothing else.
//
// Inside a stage, `sub` counts finished sub-steps (fractional while animating). A stage with one sub-step
// shows its whole result at once; the SDPA scene's scores stage has n·m (one per cell), for example.
#pragma once
#include <vector>

namespace ap {

class Timeline {
 public:
  enum class Mode { Paused, PlayAll, PlayStage };

  Timeline() = default;
  explicit Timeline(std::vector<int> substeps) { set_substeps(std::move(substeps)); }

  // Sub-step counts per stage (each at least 1). Keeps the stage (clamped) and clamps the progress.
  void set_substeps(std::vector<int> substeps);
  int stage_count() const { return static_cast<int>(substeps_.size()); }
  int substeps(int stage) const;
  int stage() const { return stage_; }
  double sub() const { return sub_; }
  int done_substeps() const { return static_cast<int>(sub_); }  // finished sub-steps of the current stage
  bool stage_complete() const { return sub_ >= substeps(stage_); }
  bool at_end() const { return stage_ == stage_count() - 1 && stage_complete(); }
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

  double seconds_per_substep(int stage) const;  // at speed 1: a stage lasts 3-6 s, a sub-step <= 0.6 s unless the stage has < 5

 private:
  std::vector<int> substeps_{1};
  int stage_ = 0;
  double sub_ = 0;
  Mode mode_ = Mode::Paused;
  double speed_ = 1.0;
};

}  // namespace ap
