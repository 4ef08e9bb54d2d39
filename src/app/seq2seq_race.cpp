#include "seq2seq_race.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "core/train/seq2seq_checkpoint.h"
#include "core/train/seq2seq_model.h"

namespace ap {

using nlohmann::json;

const char* race_state_name(RaceState s) {
  switch (s) {
    case RaceState::Idle: return "idle";
    case RaceState::Running: return "running";
    case RaceState::Paused: return "paused";
    case RaceState::Measuring: return "measuring";
    case RaceState::Done: return "done";
  }
  return "";
}

namespace {
RaceHost* g_race_host = nullptr;
}  // namespace

RaceHost* race_host() { return g_race_host; }
void set_race_host(RaceHost* host) { g_race_host = host; }

Status Seq2SeqRace::configure(const std::vector<train::Seq2SeqRecipe>& recipes, const std::vector<int>& lengths, int per_length) {
  if (recipes.empty()) return Status::Error("a race needs at least one recipe");
  for (const train::Seq2SeqRecipe& r : recipes) AP_TRY(train::validate_seq2seq_recipe(r));
  AP_TRY(train::validate_length_measurement(lengths, per_length));
  reset();
  recipes_ = recipes;
  lengths_ = lengths;
  per_length_ = lengths.empty() ? 0 : per_length;
  return Status::Ok();
}

Status check_race_command_name(const std::string& c) {
  if (c != "start" && c != "pause" && c != "reset")
    return Status::Error("training must be \"start\", \"pause\" or \"reset\", got {0}", {"\"" + c + "\""});
  return Status::Ok();
}

Status Seq2SeqRace::check(const std::string& c) const {
  AP_TRY(check_race_command_name(c));
  if (recipes_.empty()) return Status::Error("training is not available here: {0}", {"nothing to train"});
  return Status::Ok();
}

Status Seq2SeqRace::command(const std::string& c) { return run_race_command(*this, c); }

Status Seq2SeqRace::start() {
  if (state_ == State::Running || state_ == State::Measuring || state_ == State::Done) return Status::Ok();
  if (state_ == State::Idle) {
    // 1. fresh runs at step 0, each in a worker when the host takes them all, else here in slices
    seconds_ = 0;
    longest_slice_ms_ = 0;
    host_error_.clear();
    reports_.assign(recipes_.size(), train::RunReport());
    checkpoints_.assign(recipes_.size(), {});
    if (RaceHost* host = host_failed_ ? nullptr : race_host()) {
      for (const train::Seq2SeqRecipe& r : recipes_) {
        const int h = host->begin(r, lengths_, per_length_);
        if (!h) break;
        handles_.push_back(h);
      }
      if (handles_.size() == recipes_.size()) {
        host_ = host;
        for (train::RunReport& r : reports_) r.training = true;  // step 0, as a worker's first report says
      } else {  // not every run: none (they train together or not at all)
        for (int h : handles_) host->end(h);
        handles_.clear();
      }
    }
    if (!host_) {
      std::vector<std::unique_ptr<train::Seq2SeqRun>> runs;
      for (const train::Seq2SeqRecipe& r : recipes_) {
        auto run = std::make_unique<train::Seq2SeqRun>();
        AP_TRY(run->init(r, lengths_, per_length_));
        runs.push_back(std::move(run));
      }
      runs_ = std::move(runs);
      for (size_t k = 0; k < runs_.size(); ++k) reports_[k] = train::make_run_report(*runs_[k], 0);
    }
  }
  if (host_)
    for (int h : handles_)
      if (h) host_->run(h);
  state_ = State::Running;
  follow_runs();
  return Status::Ok();
}

void Seq2SeqRace::start_in_slices(const std::string& why) {
  reset();
  host_failed_ = true;  // (from then on: a page whose worker failed once would fail again)
  (void)start();        // (the recipes were valid when the workers took them)
  host_error_ = why;
}

void Seq2SeqRace::pause() {
  if (state_ != State::Running) return;
  if (host_)
    for (int h : handles_)
      if (h) host_->pause(h);
  state_ = State::Paused;
}

void Seq2SeqRace::reset() {
  if (host_)
    for (int h : handles_)
      if (h) host_->end(h);
  host_ = nullptr;
  handles_.clear();
  runs_.clear();
  reports_.clear();
  checkpoints_.clear();
  host_error_.clear();
  seconds_ = 0;
  longest_slice_ms_ = 0;
  state_ = State::Idle;
}

void Seq2SeqRace::follow_runs() {
  if (!busy()) return;
  bool training = false, measuring = false;
  for (const train::RunReport& r : reports_) {
    training = training || r.training;
    measuring = measuring || !r.done;
  }
  state_ = training ? State::Running : measuring ? State::Measuring : State::Done;
}

Status Seq2SeqRace::fits(size_t k, const train::RunReport& r, bool with_checkpoint) const {
  const Status unreadable = Status::Error("the training worker sent a report this page cannot read");
  if (r.step > recipes_[k].steps || r.tokens_by_length.size() > lengths_.size()) return unreadable;
  if (r.done && (r.tokens_by_length.size() != lengths_.size() || (!r.diverged && !with_checkpoint))) return unreadable;
  return Status::Ok();
}

bool Seq2SeqRace::poll_workers() {
  const auto t0 = std::chrono::steady_clock::now();
  bool moved = false;
  for (size_t k = 0; k < handles_.size(); ++k) {
    if (!handles_[k]) continue;  // done: its worker ended
    std::string error;
    std::vector<uint8_t> bytes;
    train::RunReport r;
    const bool fresh = host_->poll(handles_[k], &r, &bytes, &error);
    if (fresh && error.empty()) error = fits(k, r, !bytes.empty()).message;
    if (!error.empty()) {  // a worker that failed, or sent what this race did not ask for: the race starts again here
      start_in_slices(error);
      return true;
    }
    if (!fresh) continue;
    reports_[k] = std::move(r);
    moved = true;
    if (reports_[k].done) {  // its last report, with its checkpoint: the worker is no longer needed
      checkpoints_[k] = std::move(bytes);
      host_->end(handles_[k]);
      handles_[k] = 0;
    }
  }
  if (moved) follow_runs();
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  longest_slice_ms_ = std::max(longest_slice_ms_, ms);
  return moved;
}

bool Seq2SeqRace::slice(double budget_ms) {
  if (!busy()) return false;
  if (host_) return poll_workers();
  const bool moved = timed_slice(budget_ms, [this] { return busy(); }, [&] {
    // 2. a unit of the run furthest behind (by its share of its own budget) while any trains; then each run's
    //    measurement by length in turn
    train::Seq2SeqRun* next = nullptr;
    double behind = 2.0;
    for (auto& run : runs_) {
      if (!run->training()) continue;
      const double share = static_cast<double>(run->trainer().step()) / run->trainer().recipe().steps;
      if (share < behind) {
        behind = share;
        next = run.get();
      }
    }
    if (!next)
      for (auto& run : runs_)
        if (!run->done()) {
          next = run.get();
          break;
        }
    if (next) next->advance();
    for (size_t k = 0; k < runs_.size(); ++k) reports_[k] = train::make_run_report(*runs_[k], 0);
    follow_runs();
  }, &seconds_, &longest_slice_ms_);
  return moved;
}

bool Seq2SeqRace::checkpoint(int k, std::vector<uint8_t>* out) const {
  if (state_ != State::Done || k < 0 || k >= runs() || run(k).diverged) return false;
  if (in_workers()) {
    *out = checkpoints_[static_cast<size_t>(k)];
    return !out->empty();
  }
  train::write_seq2seq_checkpoint(runs_[static_cast<size_t>(k)]->trainer(), out);
  return true;
}

const train::Seq2SeqTrainer* Seq2SeqRace::trainer(int k) const {
  return k >= 0 && static_cast<size_t>(k) < runs_.size() ? &runs_[static_cast<size_t>(k)]->trainer() : nullptr;
}

double Seq2SeqRace::train_seconds() const {
  if (!in_workers()) return seconds_;
  double s = 0;
  for (const train::RunReport& r : reports_) s = std::max(s, r.seconds);
  return s;
}

int Seq2SeqRace::total_steps() const {
  int n = 0;
  for (const train::Seq2SeqRecipe& r : recipes_) n += r.steps;
  return n;
}

int Seq2SeqRace::done_steps() const {
  int n = 0;
  for (size_t k = 0; k < reports_.size(); ++k) n += reports_[k].training ? reports_[k].step : recipes_[k].steps;  // (a diverged run's budget is spent)
  return n;
}

int Seq2SeqRace::steps_to(int k, double target) const {
  if (k < 0 || k >= runs()) return -1;
  for (const train::Seq2SeqCurvePoint& p : run(k).curve)
    if (p.accuracy >= target) return p.step;
  return -1;
}

Status Seq2SeqRace::fault(int k, const std::string& name) const {
  if (k < 0 || k >= runs() || !run(k).diverged) return Status::Ok();
  const std::string who = !name.empty() ? name
                          : "run " + arg(k + 1) + " (" + train::seq2seq_attention_name(recipes_[static_cast<size_t>(k)].attention) + ")";
  return Status::Error("{0}: the training diverged; it stopped, and the weights of step {1} are kept", {who, arg(run(k).step)});
}

json Seq2SeqRace::json() const {
  const auto num = [](double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); };
  nlohmann::json j;
  j["state"] = state_name(state_);
  j["where"] = in_workers() ? "workers" : "page";
  if (!host_error_.empty()) j["host_error"] = host_error_;
  j["step"] = done_steps();
  j["steps"] = total_steps();
  j["seconds"] = train_seconds();
  j["longest_slice_ms"] = longest_slice_ms_;
  nlohmann::json runs = nlohmann::json::array();
  for (size_t k = 0; k < recipes_.size(); ++k) {
    const train::Seq2SeqRecipe& r = recipes_[k];
    nlohmann::json o;
    o["task"] = r.task;
    o["attention"] = train::seq2seq_attention_name(r.attention);
    o["cell"] = train::seq2seq_cell_name(r.cell);
    o["steps"] = r.steps;
    o["learning_rate"] = r.learning_rate;
    o["decay_from"] = r.decay_from;
    if (k < reports_.size() && !reports_[k].curve.empty()) {  // (step 0's evaluation is measured in units too)
      const train::RunReport& t = reports_[k];
      const train::Seq2SeqCurvePoint& last = t.curve.back();
      o["step"] = t.step;
      o["evaluated_step"] = last.step;
      o["heldout_accuracy"] = last.accuracy;
      o["heldout_sentences"] = last.sentences;
      o["alignment"] = num(last.alignment);
      o["diverged"] = t.diverged;
      if (const Status f = fault(static_cast<int>(k)); !f.ok) o["fault"] = f.message;
      nlohmann::json curve = nlohmann::json::array();
      for (const train::Seq2SeqCurvePoint& p : t.curve) curve.push_back({p.step, num(p.loss), p.accuracy});
      o["curve"] = curve;
    } else {
      o["step"] = 0;
    }
    runs.push_back(o);
  }
  j["runs"] = runs;
  if (!lengths_.empty()) j["lengths"] = lengths_;
  return j;
}

}  // namespace ap
