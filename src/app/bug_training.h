// The masks scene's "train with the bug" (core/train/mask_bug_lm.h), in slices of the frame loop: the same tiny
// causal language model trained with its causal mask, with the mask forgotten and with the mask applied after the
// softmax, step for step on the same sequences, then each measured: training loss, held-out accuracy with the whole sequence given (teacher
// forcing), and held-out accuracy of what it writes on its own from a prompt (generation).
//
//   Idle ──start──> Running ──all at their last step──> Measuring (a batch of prompts a unit) ──> Done
//                    pause ⇅ start                                      reset (any time) ──> Idle
#pragma once
#include <nlohmann/json.hpp>

#include <string>

#include "app/seq2seq_race.h"
#include "core/status.h"
#include "core/train/mask_bug_lm.h"

namespace ap {

class BugTraining {
 public:
  using State = RaceState;  // app/seq2seq_race.h
  static const char* state_name(State s) { return race_state_name(s); }

  static constexpr const char* kBug = "causal_forgotten";  // results' "bug" (and *_bug): the causal mask left out
  static constexpr int kRuns = 3;
  static constexpr train::BugLabMask kMasks[kRuns] = {train::BugLabMask::Causal, train::BugLabMask::Forgotten,
                                                      train::BugLabMask::AfterSoftmax};

  Status configure(const train::BugLabRecipe& r);  // validated (validate_bug_lab_recipe); resets
  const train::BugLabRecipe& recipe() const { return recipe_; }
  Status command(const std::string& c);  // "start", "pause", "reset"
  Status check(const std::string& c) const;
  Status start();
  void pause();
  void reset();
  bool slice(double budget_ms);  // about budget_ms of work; true when anything moved
  State state() const { return state_; }
  bool busy() const { return state_ == State::Running || state_ == State::Measuring; }
  bool started() const { return state_ != State::Idle; }
  bool done() const { return state_ == State::Done; }

  // Run k masks as kMasks[k]: 0 correctly, 1 not at all, 2 after the softmax.
  const train::BugLabRun& run(int k) const { return runs_[k]; }
  int done_steps() const;
  int total_steps() const { return kRuns * recipe_.steps; }
  // Measured once Done: per run.
  double generation(int k) const { return generation_[k]; }
  double teacher_forced(int k) const { return teacher_forced_[k]; }
  // A held-out prompt and what each model wrote after it (Done).
  const train::BugLabRun::Sample& sample(int k) const { return samples_[k]; }
  double train_seconds() const { return seconds_; }
  bool in_workers() const { return false; }  // the bug lab trains in slices of the frame loop (a few seconds)
  double longest_slice_ms() const { return longest_slice_ms_; }

  // getState's "training": {state, step, steps, seconds, longest_slice_ms, runs: [{mask, step, train_loss, curve}]}.
  nlohmann::json json() const;
  // results.bug_training once Done: {bug, train_loss_correct, train_loss_bug, generation_accuracy_correct,
  // generation_accuracy_bug, teacher_forced_accuracy_correct, teacher_forced_accuracy_bug, prompts, steps} (the
  // *_bug fields: the forgotten mask) and mask_after_softmax: {train_loss, generation_accuracy,
  // teacher_forced_accuracy}.
  nlohmann::json results() const;

 private:
  train::BugLabRecipe recipe_;
  train::BugLabRun runs_[kRuns];
  double generation_[kRuns] = {0, 0, 0}, teacher_forced_[kRuns] = {0, 0, 0};
  train::BugLabRun::Sample samples_[kRuns];
  // The measurement in slices: run measured_, its pass (0 teacher-forced, 1 generation), the next held-out
  // prompt, and the pass's counts so far. A unit is one model batch of prompts (a few milliseconds; a whole
  // model's measurement was one unit of about 30 ms).
  int measured_ = 0, measure_pass_ = 0, measure_at_ = 0;
  train::BugLabRun::Tally tally_;
  void restart_measuring();
  State state_ = State::Idle;
  double seconds_ = 0, longest_slice_ms_ = 0;
};

}  // namespace ap
