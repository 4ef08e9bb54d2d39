#include "timeline.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace ap {

void Timeline::set_substeps(std::vector<int> counts) {
  if (counts.empty()) counts.push_back(1);
  for (int& c : counts) c = std::max(1, c);
  // A stage shown complete stays complete (a model that arrives with more rows, a link opened at a stage,
  // shows all of them); one under way keeps its place.
  const bool complete = stage_complete();
  substeps_ = std::move(counts);
  stage_ = std::clamp(stage_, 0, stage_count() - 1);
  sub_ = complete ? static_cast<double>(substeps(stage_)) : std::min(sub_, static_cast<double>(substeps(stage_)));
}

int Timeline::substeps(int stage) const {
  return stage >= 0 && stage < stage_count() ? substeps_[static_cast<size_t>(stage)] : 1;
}

void Timeline::set_speed(double s) { speed_ = std::clamp(std::isfinite(s) ? s : 1.0, 0.1, 16.0); }

void Timeline::step_stage(int k) {
  if (k == 0) return;
  if (k > 0) {
    const int target = std::min(stage_ + k, stage_count() - 1);
    if (target == stage_) { sub_ = substeps(stage_); mode_ = Mode::Paused; return; }
    stage_ = target;
    sub_ = 0;
    mode_ = Mode::PlayStage;
  } else {
    stage_ = std::max(stage_ + k, 0);
    sub_ = substeps(stage_);
    mode_ = Mode::Paused;
  }
}

void Timeline::step_sub(int k) {
  mode_ = Mode::Paused;
  double s = std::floor(sub_) + k;
  while (s > substeps(stage_) && stage_ < stage_count() - 1) { s -= substeps(stage_); ++stage_; }
  while (s < 0 && stage_ > 0) { --stage_; s += substeps(stage_); }
  sub_ = std::clamp(s, 0.0, static_cast<double>(substeps(stage_)));
}

void Timeline::home() { stage_ = 0; sub_ = 0; mode_ = Mode::Paused; }
void Timeline::end() { stage_ = stage_count() - 1; sub_ = substeps(stage_); mode_ = Mode::Paused; }
void Timeline::restart() { home(); mode_ = Mode::PlayAll; }

void Timeline::toggle_play() {
  if (playing()) { mode_ = Mode::Paused; return; }
  if (stage_ == stage_count() - 1 && stage_complete()) home();
  mode_ = Mode::PlayAll;
}

void Timeline::set_stage(int stage, bool complete) {
  stage_ = std::clamp(stage, 0, stage_count() - 1);
  sub_ = complete ? substeps(stage_) : 0;
  mode_ = Mode::Paused;
}

void Timeline::set_stage_at(int stage, double sub) {
  stage_ = std::clamp(stage, 0, stage_count() - 1);
  sub_ = std::clamp(std::isfinite(sub) ? sub : 0.0, 0.0, static_cast<double>(substeps(stage_)));
  mode_ = Mode::Paused;
}

// A stage of many sub-steps lasts about 6 s (one sub-step at most 0.6 s, so a short stage does not crawl); a
// stage of few sub-steps (÷√d_k, mask: one) still stays on screen kMinStageSeconds so it can be read.
double Timeline::seconds_per_substep(int stage) const {
  constexpr double kStageSeconds = 6.0, kMaxSubstepSeconds = 0.6, kMinStageSeconds = 3.0;
  const double n = substeps(stage);
  return std::max(std::clamp(kStageSeconds / n, 1e-6, kMaxSubstepSeconds), kMinStageSeconds / n);
}

void Timeline::advance(double dt) {
  if (!playing() || !(dt > 0)) return;
  double budget = std::min(dt, 0.25) * speed_;  // seconds of animation to spend this frame
  while (budget > 0 && playing()) {
    const double per = seconds_per_substep(stage_);
    const double left = (substeps(stage_) - sub_) * per;
    if (budget < left) { sub_ += budget / per; return; }
    budget -= left;
    sub_ = substeps(stage_);
    if (mode_ == Mode::PlayStage || stage_ == stage_count() - 1) { mode_ = Mode::Paused; return; }
    ++stage_;
    sub_ = 0;
  }
}

double Timeline::total() const {
  double t = 0;
  for (int s = 0; s < stage_count(); ++s) t += substeps(s);
  return t;
}

double Timeline::position() const {
  double p = 0;
  for (int s = 0; s < stage_; ++s) p += substeps(s);
  return p + sub_;
}

void Timeline::set_position(double p) {
  mode_ = Mode::Paused;
  p = std::clamp(std::isfinite(p) ? p : 0.0, 0.0, total());
  for (int s = 0; s < stage_count(); ++s) {
    if (p <= substeps(s) || s == stage_count() - 1) { stage_ = s; sub_ = std::min(p, double(substeps(s))); return; }
    p -= substeps(s);
  }
}

}  // namespace ap
