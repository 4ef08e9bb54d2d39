#include "train_run.h"

#include <algorithm>
#include <cmath>

#include "app/train_host.h"

namespace ap {

namespace {
const TrainRun* g_owner = nullptr;  // the run that began last on the page's one host
}  // namespace

const char* train_state_name(TrainRunState s) {
  switch (s) {
    case TrainRunState::Idle: return "idle";
    case TrainRunState::Running: return "running";
    case TrainRunState::Paused: return "paused";
    case TrainRunState::Done: return "done";
    case TrainRunState::Diverged: return "diverged";
    case TrainRunState::Failed: return "failed";
  }
  return "idle";
}

TrainRun::~TrainRun() {
  if (g_owner == this) g_owner = nullptr;
}

bool TrainRun::owns_host() const { return g_owner == this; }

void TrainRun::restart(const train::Recipe& recipe, const std::vector<std::string>& words, bool take_host) {
  recipe_ = recipe;
  words_ = words;
  started_ = true;
  taken_ = false;
  has_report_ = false;
  report_ = train::TrainReport();
  steps_per_second_ = 0;
  TrainHost* h = train_host();
  if (h && !take_host && g_owner && g_owner != this && g_owner->running()) {
    // Another run trains: this one waits, at step 0, until it is asked to train (run_to begins it then).
    taken_ = true;
    state_ = TrainRunState::Idle;
    host_error_.clear();
    return;
  }
  if (!h) {
    state_ = TrainRunState::Failed;
    host_error_ = "this build has no training host";
    return;
  }
  state_ = TrainRunState::Idle;
  host_error_.clear();
  awaiting_begin_ = true;
  g_owner = this;
  h->begin(recipe_, words_, with_weights_);
}

void TrainRun::run_to(int step) {
  if (taken_) restart(recipe_, words_);  // the host trains another run's model now: this one starts again
  TrainHost* h = train_host();
  if (!h || !started_ || state_ == TrainRunState::Failed) return;
  target_ = std::min(step, recipe_.steps);
  state_ = TrainRunState::Running;
  rate_t0_ = std::chrono::steady_clock::now();
  rate_step0_ = this->step();
  h->run(target_);
}

void TrainRun::pause() {
  if (state_ != TrainRunState::Running) return;
  if (TrainHost* h = train_host(); h && owns_host()) h->pause();
  state_ = TrainRunState::Paused;
}

void TrainRun::show(const std::vector<std::string>& words) {
  words_ = words;
  if (TrainHost* h = train_host(); h && started_ && owns_host() && !taken_) h->show(words_);
}

Status TrainRun::can_train() const {
  if (state_ == TrainRunState::Failed) return Status::Error("training is not available here: {0}", {host_error_});
  if (state_ == TrainRunState::Diverged && !taken_) return Status::Error("the run diverged: press Reset or change the recipe");
  if (state_ == TrainRunState::Done && !taken_) return Status::Error("the run is finished: press Reset to train again");
  return Status::Ok();
}

std::string TrainRun::message() const {
  if (state_ == TrainRunState::Diverged) return report_.divergence().message;
  if (state_ == TrainRunState::Failed) return host_error_;
  return {};
}

bool TrainRun::wants_frames() const {
  const TrainHost* h = train_host();
  return state_ == TrainRunState::Running && !(h && h->wakes_page());
}

void TrainRun::write_json(nlohmann::json& t) const {
  t["state"] = train_state_name(state_);
  t["step"] = step();
  // No number yet (before the first report, or the loss before the first step): null, as JSON writes NaN — but
  // null itself, so that the document equals itself when it comes back (NaN ≠ NaN).
  const auto number = [&](double v) { return has_report_ && std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); };
  t["loss"] = number(report_.loss);
  t["heldout_accuracy"] = number(report_.heldout_accuracy);
  t["referent_argmax"] = number(report_.referent_argmax);
  t["heldout_on_all"] = has_report_ && report_.evaluated_on_all;
  nlohmann::json curve = nlohmann::json::array();
  if (has_report_)
    for (const train::CurvePoint& p : report_.curve) curve.push_back({p.step, p.loss, p.heldout_accuracy, p.referent_argmax});
  t["curve"] = curve;
  t["curve_columns"] = {"step", "loss", "heldout_accuracy", "referent_argmax"};
  t["steps_per_second"] = steps_per_second_;
  t["host"] = train_host() ? train_host()->name() : "none";
  if (const std::string m = message(); !m.empty()) t["message"] = m;
}

bool TrainRun::poll() {
  TrainHost* h = train_host();
  if (!h || !started_ || taken_) return false;
  if (!owns_host()) {  // another run began on the host: its reports are not this run's
    taken_ = true;
    if (state_ == TrainRunState::Running || state_ == TrainRunState::Idle) state_ = TrainRunState::Paused;
    return true;
  }
  train::TrainReport r;
  std::string err;
  const bool got = h->poll(&r, &err);
  bool changed = false;
  // The host drops the reports of the run before begin() (TrainHost::poll). The new run's first report may
  // already be a later step (two reports between two frames: only the newest is kept); its sizes must agree.
  if (got && awaiting_begin_ && r.steps == recipe_.steps && r.attention.layers == recipe_.layers && r.attention.heads == recipe_.heads)
    awaiting_begin_ = false;
  if (got && !awaiting_begin_) {
    report_ = std::move(r);
    has_report_ = true;
    ++reports_;
    changed = true;
    if (state_ == TrainRunState::Running) {
      const double dt = std::chrono::duration<double>(std::chrono::steady_clock::now() - rate_t0_).count();
      if (dt > 0.05 && report_.step > rate_step0_) steps_per_second_ = (report_.step - rate_step0_) / dt;
    }
    if (report_.diverged()) state_ = TrainRunState::Diverged;
    else if (report_.finished()) state_ = TrainRunState::Done;
    else if (state_ == TrainRunState::Running && report_.step >= target_) state_ = TrainRunState::Paused;
  }
  if (!err.empty()) {  // after the report that came with it (its weights are the last good ones)
    state_ = TrainRunState::Failed;
    host_error_ = err;
    changed = true;
  }
  return changed;
}

}  // namespace ap
