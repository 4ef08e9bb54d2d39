#include "seq2seq_race.h"

#include <algorithm>
#include <chrono>
#include <cmath>

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

Status Seq2SeqRace::configure(const std::vector<train::Seq2SeqRecipe>& recipes, const std::vector<int>& lengths, int per_length) {
  if (recipes.empty()) return Status::Error("a race needs at least one recipe");
  for (const train::Seq2SeqRecipe& r : recipes) AP_TRY(train::validate_seq2seq_recipe(r));
  for (int L : lengths)
    if (L < 1 || L > 30) return Status::Error("{0} must be between {1} and {2}, got {3}", {"length", arg(1), arg(30), arg(L)});
  if (!lengths.empty() && (per_length < 1 || per_length > 1000))
    return Status::Error("{0} must be between {1} and {2}, got {3}", {"per_length", arg(1), arg(1000), arg(per_length)});
  recipes_ = recipes;
  lengths_ = lengths;
  per_length_ = lengths.empty() ? 0 : per_length;
  reset();
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
    // 1. fresh runs at step 0; the pairs measured by length are held out of every run's training
    std::vector<std::unique_ptr<train::Seq2SeqTrainer>> runs;
    for (const train::Seq2SeqRecipe& r : recipes_) {
      auto t = std::make_unique<train::Seq2SeqTrainer>();
      AP_TRY(t->init(r, kRaceEvalPairs));
      runs.push_back(std::move(t));
    }
    if (!lengths_.empty()) {
      length_pairs_ = train::length_set(*runs.front(), lengths_, per_length_);
      for (auto& t : runs) AP_TRY(t->exclude(length_pairs_));
    }
    runs_ = std::move(runs);
    seconds_ = 0;
  }
  state_ = State::Running;
  return Status::Ok();
}

void Seq2SeqRace::pause() {
  if (state_ == State::Running) state_ = State::Paused;
}

void Seq2SeqRace::reset() {
  runs_.clear();
  length_pairs_.clear();
  by_token_.clear();
  by_sentence_.clear();
  measure_next_ = 0;
  measure_ = train::HeldOutProgress();
  seconds_ = 0;
  longest_slice_ms_ = 0;
  state_ = State::Idle;
}

bool Seq2SeqRace::slice(double budget_ms) {
  return timed_slice(budget_ms, [this] { return busy(); }, [&] {
    if (state_ == State::Running) {
      // 2. one step of the run furthest behind (by its share of its own budget)
      train::Seq2SeqTrainer* next = nullptr;
      double behind = 2.0;
      for (auto& t : runs_) {
        if (t->finished() || t->diverged()) continue;
        const double share = static_cast<double>(t->step()) / t->recipe().steps;
        if (share < behind) {
          behind = share;
          next = t.get();
        }
      }
      if (!next) {
        state_ = lengths_.empty() ? State::Done : State::Measuring;
        by_token_.assign(runs_.size(), {});
        by_sentence_.assign(runs_.size(), {});
        return;
      }
      next->advance(1);
    } else {
      // 3. kRaceEvalPairs more pairs of one (run, length) of the measurement: held-out token and sentence
      //    accuracy of greedy decoding, counted (the counts of its slices add up to the length's figures)
      const size_t nl = lengths_.size(), run = measure_next_ / nl, li = measure_next_ % nl;
      if (run >= runs_.size()) {
        state_ = State::Done;
        return;
      }
      const size_t per = static_cast<size_t>(per_length_);
      if (!train::tally_slice(runs_[run]->model(), length_pairs_.data() + li * per, per, kRaceEvalPairs, &measure_)) return;
      by_token_[run].push_back(measure_.tally.tokens());
      by_sentence_[run].push_back(measure_.tally.sentence_share());
      measure_ = train::HeldOutProgress();
      ++measure_next_;
      if (measure_next_ >= nl * runs_.size()) state_ = State::Done;
    }
  }, &seconds_, &longest_slice_ms_);
}

int Seq2SeqRace::total_steps() const {
  int n = 0;
  for (const train::Seq2SeqRecipe& r : recipes_) n += r.steps;
  return n;
}

int Seq2SeqRace::done_steps() const {
  int n = 0;
  for (const auto& t : runs_) n += t->finished() || t->diverged() ? t->recipe().steps : t->step();
  return n;
}

int Seq2SeqRace::steps_to(int k, double target) const {
  if (k < 0 || k >= runs()) return -1;
  for (const train::Seq2SeqCurvePoint& p : run(k).curve())
    if (p.accuracy >= target) return p.step;
  return -1;
}

json Seq2SeqRace::json() const {
  const auto num = [](double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); };
  nlohmann::json j;
  j["state"] = state_name(state_);
  j["step"] = done_steps();
  j["steps"] = total_steps();
  j["seconds"] = seconds_;
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
    if (k < runs_.size() && !runs_[k]->curve().empty()) {  // (step 0's evaluation is measured in slices too)
      const train::Seq2SeqTrainer& t = *runs_[k];
      const train::Seq2SeqCurvePoint& last = t.curve().back();
      o["step"] = t.step();
      o["evaluated_step"] = last.step;
      o["heldout_accuracy"] = last.accuracy;
      o["heldout_sentences"] = last.sentences;
      o["alignment"] = num(last.alignment);
      o["diverged"] = t.diverged();
      nlohmann::json curve = nlohmann::json::array();
      for (const train::Seq2SeqCurvePoint& p : t.curve()) curve.push_back({p.step, num(p.loss), p.accuracy});
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
