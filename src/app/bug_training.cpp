#include "bug_training.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "app/seq2seq_race.h"

namespace ap {

Status BugTraining::configure(const train::BugLabRecipe& r) {
  AP_TRY(train::validate_bug_lab_recipe(r));
  recipe_ = r;
  reset();
  return Status::Ok();
}

Status BugTraining::check(const std::string& c) const { return check_race_command_name(c); }

Status BugTraining::command(const std::string& c) { return run_race_command(*this, c); }

Status BugTraining::start() {
  if (state_ == State::Idle) {
    for (int k = 0; k < kRuns; ++k) AP_TRY(runs_[k].init(recipe_, kMasks[k]));
    seconds_ = longest_slice_ms_ = 0;
    restart_measuring();
  }
  if (state_ == State::Idle || state_ == State::Paused) state_ = State::Running;
  return Status::Ok();
}

void BugTraining::restart_measuring() {
  measured_ = measure_pass_ = measure_at_ = 0;
  tally_ = {};
}

void BugTraining::pause() {
  if (state_ == State::Running) state_ = State::Paused;
}

void BugTraining::reset() {
  state_ = State::Idle;
  for (train::BugLabRun& r : runs_) r = train::BugLabRun{};
  restart_measuring();
  seconds_ = longest_slice_ms_ = 0;
}

bool BugTraining::slice(double budget_ms) {
  return timed_slice(budget_ms, [this] { return busy(); }, [&] {
    if (state_ == State::Running) {
      // 1. a step of the run furthest behind: all see the same sequences in the same order (the recipe's seed)
      train::BugLabRun* next = nullptr;
      for (train::BugLabRun& r : runs_)
        if (!r.finished() && (!next || r.step() < next->step())) next = &r;
      if (!next) {
        state_ = State::Measuring;
        return;
      }
      next->advance(1);
    } else {
      // 2. each model measured on the same held-out prompts, teacher-forced then generated, a batch of prompts
      //    a unit (the counts of a pass's units add up to the whole pass's figure)
      train::BugLabRun& r = runs_[measured_];
      const int n = std::min(std::max(r.measure_batch(), 1), train::kBugLabPrompts - measure_at_);
      if (measure_pass_ == 0) r.tally_teacher_forced(measure_at_, n, &tally_);
      else r.tally_generation(measure_at_, n, &tally_);
      measure_at_ += n;
      if (measure_at_ < train::kBugLabPrompts) return;
      (measure_pass_ == 0 ? teacher_forced_ : generation_)[measured_] = tally_.share();
      tally_ = {};
      measure_at_ = 0;
      if (++measure_pass_ < 2) return;
      measure_pass_ = 0;
      samples_[measured_] = r.generate_sample(0);
      if (++measured_ == kRuns) state_ = State::Done;
    }
  }, &seconds_, &longest_slice_ms_);
}

int BugTraining::done_steps() const {
  int n = 0;
  for (const train::BugLabRun& r : runs_) n += r.step();
  return n;
}

nlohmann::json BugTraining::json() const {
  const auto num = [](double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); };
  nlohmann::json j;
  j["state"] = state_name(state_);
  j["bug"] = kBug;
  j["step"] = state_ == State::Idle ? 0 : done_steps();
  j["steps"] = total_steps();
  j["seconds"] = seconds_;
  j["longest_slice_ms"] = longest_slice_ms_;
  nlohmann::json runs = nlohmann::json::array();
  for (int k = 0; k < kRuns; ++k) {
    nlohmann::json o;
    o["mask"] = train::bug_lab_mask_name(kMasks[k]);
    o["step"] = state_ == State::Idle ? 0 : runs_[k].step();
    o["train_loss"] = state_ == State::Idle ? nlohmann::json(nullptr) : num(runs_[k].train_loss());
    nlohmann::json curve = nlohmann::json::array();
    if (state_ != State::Idle)
      for (const train::BugLabPoint& p : runs_[k].curve()) curve.push_back({p.step, num(p.loss)});
    o["curve"] = curve;
    runs.push_back(o);
  }
  j["runs"] = runs;
  return j;
}

nlohmann::json BugTraining::results() const {
  if (!done()) return nullptr;
  return {{"bug", kBug},
          {"train_loss_correct", runs_[0].train_loss()},
          {"train_loss_bug", runs_[1].train_loss()},
          {"generation_accuracy_correct", generation_[0]},
          {"generation_accuracy_bug", generation_[1]},
          {"teacher_forced_accuracy_correct", teacher_forced_[0]},
          {"teacher_forced_accuracy_bug", teacher_forced_[1]},
          {"mask_after_softmax", {{"train_loss", runs_[2].train_loss()},
                                  {"generation_accuracy", generation_[2]},
                                  {"teacher_forced_accuracy", teacher_forced_[2]}}},
          {"prompts", train::kBugLabPrompts},
          {"steps", recipe_.steps}};
}

}  // namespace ap
