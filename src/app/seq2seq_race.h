// Encoder–decoders trained side by side in the page (core/train/seq2seq_trainer.h), in slices of the frame loop
// (Scene::run_slice: a step takes milliseconds, so a frame runs a few and stays under its budget): the bottleneck
// scene races Seq2Seq without and with attention on the same data and budget, the Luong scene its three scores.
//
//   Idle ──start──> Running ──every run at its last step──> Measuring (by length, if asked) ──> Done
//                    │  ^                                                                      │
//              pause v  │ start                                                       reset ──> Idle
//                   Paused
// Round-robin: each slice steps the run that is furthest behind, so the runs advance together and the curves
// are comparable while they grow. A run that diverges stops with the weights of its last evaluation (the
// trainer's own rule); the others go on. The measurement by length, one (run, length) per slice, uses pairs that
// every run excluded before its first step (length_set): never trained on.
#pragma once
#include <nlohmann/json.hpp>

#include <memory>
#include <string>
#include <vector>

#include "app/scene.h"
#include "app/timed_slice.h"
#include "core/status.h"
#include "core/train/seq2seq_trainer.h"

namespace ap {

// The states of a training done in slices (this race, and the masks scene's BugTraining).
enum class RaceState { Idle, Running, Paused, Measuring, Done };
const char* race_state_name(RaceState s);  // "idle", "running", "paused", "measuring", "done"

// The commands of such a training, once: "start", "pause" or "reset" (checked by race.check).
template <class Race>
Status run_race_command(Race& race, const std::string& c) {
  AP_TRY(race.check(c));
  if (c == "start") return race.start();
  if (c == "pause") race.pause();
  else race.reset();
  return Status::Ok();
}

// A race's unit of measuring, in held-out pairs: a run's evaluation (200 pairs, Seq2SeqTrainer::init's
// eval_pairs) and each length's measurement are measured this many pairs per unit, a few milliseconds, so that
// a frame's slice ends near its budget (a whole evaluation of the reversal was one unit of about 45 ms).
constexpr int kRaceEvalPairs = 20;

class Seq2SeqRace {
 public:
  using State = RaceState;
  static const char* state_name(State s) { return race_state_name(s); }

  // The runs (each validated: validate_seq2seq_recipe's message names the field) and the measurement by length
  // (lengths empty: none). Resets.
  Status configure(const std::vector<train::Seq2SeqRecipe>& recipes, const std::vector<int>& lengths = {}, int per_length = 0);
  const std::vector<train::Seq2SeqRecipe>& recipes() const { return recipes_; }

  // The commands: "start" (from Idle a fresh race, from Paused on; nothing to do when Done), "pause", "reset".
  Status command(const std::string& c);
  Status check(const std::string& c) const;  // what command(c) refuses, changing nothing
  Status start();
  void pause();
  void reset();

  // Work for about `budget_ms` (at least one step or one length per call while busy); true when anything moved.
  bool slice(double budget_ms);
  State state() const { return state_; }
  bool busy() const { return state_ == State::Running || state_ == State::Measuring; }
  bool started() const { return !runs_.empty(); }

  int runs() const { return static_cast<int>(runs_.size()); }
  const train::Seq2SeqTrainer& run(int k) const { return *runs_[static_cast<size_t>(k)]; }
  int total_steps() const;  // of every run together
  int done_steps() const;
  double train_seconds() const { return seconds_; }  // time spent in steps and evaluations (not the frames between)
  double longest_slice_ms() const { return longest_slice_ms_; }  // the longest slice so far: what a frame paid
  // The first evaluated step at which run k's held-out token accuracy reached `target` (−1: not yet).
  int steps_to(int k, double target) const;
  // The measurement by length once Done (empty before): per run, held-out token and sentence accuracy.
  const std::vector<int>& lengths() const { return lengths_; }
  bool measured() const { return state_ == State::Done && !lengths_.empty(); }
  const std::vector<double>& tokens_by_length(int k) const { return by_token_[static_cast<size_t>(k)]; }
  const std::vector<double>& sentences_by_length(int k) const { return by_sentence_[static_cast<size_t>(k)]; }
  int per_length() const { return per_length_; }

  // getState's "training": {state, step, steps, seconds, longest_slice_ms, runs: [{attention, step, steps, heldout_accuracy,
  // heldout_sentences, alignment, diverged, curve: [[step, loss, accuracy], …]}], lengths}.
  nlohmann::json json() const;

 private:
  std::vector<train::Seq2SeqRecipe> recipes_;
  std::vector<std::unique_ptr<train::Seq2SeqTrainer>> runs_;
  std::vector<int> lengths_;
  int per_length_ = 0;
  std::vector<train::Seq2SeqPair> length_pairs_;  // length_set: lengths_ × per_length_, in length order
  std::vector<std::vector<double>> by_token_, by_sentence_;
  size_t measure_next_ = 0;  // (run, length) pairs measured so far
  train::HeldOutProgress measure_;  // and of the next, its pairs counted so far
  State state_ = State::Idle;
  double seconds_ = 0;
  double longest_slice_ms_ = 0;
};

// setState's "training" in a scene with a race (a Seq2SeqRace, or anything with check(c) and command(c): the masks
// scene's BugTraining): a command string, or getState's object back (a measurement is redone, not restored:
// accepted and ignored). `rest` gets the document without it; *command the command or "".
template <class Race>
Status take_race_command(const nlohmann::json& in, const Race& race, nlohmann::json* rest, std::string* command) {
  *rest = in;
  command->clear();
  const auto it = in.find("training");
  if (it == in.end()) return Status::Ok();
  if (it->is_string()) {
    AP_TRY(race.check(it->template get<std::string>()));
    *command = it->template get<std::string>();
  } else if (!it->is_object()) {
    return Status::Error("training must be \"start\", \"pause\" or \"reset\", got {0}", {it->dump()});
  }
  rest->erase("training");
  return Status::Ok();
}

// A scene's change with a race command beside it: its prepare and commit wrap the scene's own.
struct RaceChange final : SceneChange {
  std::unique_ptr<SceneChange> inner;
  std::string command;
};
// prepare_inner(rest, &inner): the scene's own prepare of the document without "training".
template <class Race, class Prepare>
Status prepare_with_race(const nlohmann::json& in, const Race& race, std::unique_ptr<SceneChange>* out, Prepare prepare_inner) {
  nlohmann::json rest;
  auto c = std::make_unique<RaceChange>();
  AP_TRY(take_race_command(in, race, &rest, &c->command));
  AP_TRY(prepare_inner(rest, &c->inner));
  *out = std::move(c);
  return Status::Ok();
}
// commit_inner(change): the scene's own commit; then the command.
template <class Race, class Commit>
void commit_with_race(std::unique_ptr<SceneChange> change, Race* race, Commit commit_inner) {
  auto* c = dynamic_cast<RaceChange*>(change.get());
  if (!c) return commit_inner(std::move(change));
  commit_inner(std::move(c->inner));
  if (!c->command.empty()) (void)race->command(c->command);
}

// "training must be "start", "pause" or "reset", got …" unless c is one of them.
Status check_race_command_name(const std::string& c);

}  // namespace ap
