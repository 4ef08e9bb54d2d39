// Encoder–decoders trained side by side in the page (core/train/seq2seq_trainer.h), each in a Web Worker of its
// own or in slices of the frame loop (Scene::run_slice: a step takes milliseconds, so a frame runs a few and stays
// under its budget): the bottleneck scene races Seq2Seq without and with attention on the same data and budget,
// the Luong scene its three scores, the Bahdanau scene trains its one.
//
//   Idle ──start──> Running ──every run at its last step──> Measuring (by length, if asked) ──> Done
//                    │  ^                                                                      │
//              pause v  │ start                                                       reset ──> Idle
//                   Paused
// Each run is a train::Seq2SeqRun (core/train/seq2seq_run.h): its steps, its evaluations, then its measurement
// by length on pairs it excluded before its first step (length_set): never trained on. Where a RaceHost is set
// (the web build) each run trains in a worker of its own, in parallel, and the page reads their reports; else
// (the desktop, the unit tests, a page without workers) in slices of the frame loop, round-robin: each unit goes
// to the run furthest behind, so that the runs advance together and the curves are comparable while they grow;
// then each run's measurement in turn. Both give the same figures to the bit (the same units, in each run's
// own order). A run that diverges stops with the weights of its last evaluation (the trainer's own rule); the
// others go on.
#pragma once
#include <nlohmann/json.hpp>

#include <memory>
#include <string>
#include <vector>

#include "app/scene.h"
#include "core/timed_slice.h"
#include "core/status.h"
#include "core/train/seq2seq_run.h"
#include "core/train/seq2seq_trainer.h"

namespace ap {

// The states of a training spread over time (this race, and the masks scene's BugTraining).
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

// Where a race's runs train, when not in the frame loop's slices: each run in a worker of its own (the web
// build's Web Workers, src/program/web_race_host.cpp), the page only reading their reports. Set once by the
// executable (none: the desktop and the unit tests train in slices, as does a page without workers).
class RaceHost {
 public:
  virtual ~RaceHost() = default;
  // A run of `r` (validated by the caller) and its measurement by length, trained elsewhere: its handle, or 0 when
  // it cannot be (the race then trains in slices).
  virtual int begin(const train::Seq2SeqRecipe& r, const std::vector<int>& lengths, int per_length) = 0;
  virtual void run(int handle) = 0;    // train on (begin leaves the run waiting)
  virtual void pause(int handle) = 0;  // stop after the current chunk
  virtual void end(int handle) = 0;    // stop and forget the run
  // The newest report of `handle` since the last call → true. *checkpoint gets the run's checkpoint
  // (write_seq2seq_checkpoint) with the report that says it is done; *error a failure of the host (the run is
  // lost), in English.
  virtual bool poll(int handle, train::RunReport* out, std::vector<uint8_t>* checkpoint, std::string* error) = 0;
};
RaceHost* race_host();
void set_race_host(RaceHost* host);

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

  // Work for about `budget_ms` (at least one unit per call while busy; in workers: their reports read); true
  // when anything moved.
  bool slice(double budget_ms);
  State state() const { return state_; }
  bool busy() const { return state_ == State::Running || state_ == State::Measuring; }
  bool started() const { return state_ != State::Idle; }
  bool in_workers() const { return host_ != nullptr; }
  // The reason the runs went back to training in slices (a worker that failed), or "".
  const std::string& host_error() const { return host_error_; }

  // Each run as its last report says (in slices, as of the last slice): step, curve, measurement by length.
  int runs() const { return static_cast<int>(reports_.size()); }
  const train::RunReport& run(int k) const { return reports_[static_cast<size_t>(k)]; }
  // Run k's checkpoint (write_seq2seq_checkpoint) once the race is Done; false before, or for a diverged run.
  bool checkpoint(int k, std::vector<uint8_t>* out) const;
  int total_steps() const;  // of every run together
  int done_steps() const;
  // Time spent in steps and evaluations, not the frames between (in workers, the slowest run's).
  double train_seconds() const;
  double longest_slice_ms() const { return longest_slice_ms_; }  // the longest slice so far: what a frame paid
  // The first evaluated step at which run k's held-out token accuracy reached `target` (−1: not yet).
  int steps_to(int k, double target) const;
  // The measurement by length once Done (empty before): per run, held-out token and sentence accuracy.
  const std::vector<int>& lengths() const { return lengths_; }
  bool measured() const { return state_ == State::Done && !lengths_.empty(); }
  const std::vector<double>& tokens_by_length(int k) const { return run(k).tokens_by_length; }
  const std::vector<double>& sentences_by_length(int k) const { return run(k).sentences_by_length; }
  int per_length() const { return per_length_; }
  // A run trained in slices (not in workers): its trainer, for the tests (null otherwise).
  const train::Seq2SeqTrainer* trainer(int k) const;
  // What went wrong in run k, named `name` (a view's name of it; empty: "run k+1 (its attention)", as getState
  // says it): a run that diverged (its loss not a finite number) stopped there and keeps the weights of its last
  // evaluation, which it is measured on. Ok: nothing.
  Status fault(int k, const std::string& name = "") const;

  // getState's "training": {state, where, step, steps, seconds, longest_slice_ms, runs: [{attention, step, steps,
  // heldout_accuracy, heldout_sentences, alignment, diverged, curve: [[step, loss, accuracy], …], and fault (a
  // diverged run's message, English)}], lengths}.
  nlohmann::json json() const;

 private:
  void start_in_slices(const std::string& why);  // a worker failed: every run again from step 0, here
  bool poll_workers();
  // Run k's report against what the race asked for (its steps, its lengths; done: every length measured and,
  // unless it diverged, the checkpoint with it): the worker's fault, not the race's, if not.
  Status fits(size_t k, const train::RunReport& r, bool with_checkpoint) const;
  void follow_runs();  // Running → Measuring → Done as the runs' reports say
  std::vector<train::Seq2SeqRecipe> recipes_;
  std::vector<int> lengths_;
  int per_length_ = 0;
  std::vector<std::unique_ptr<train::Seq2SeqRun>> runs_;  // in slices
  RaceHost* host_ = nullptr;                               // or in workers: theirs
  std::vector<int> handles_;                               // per run (0 once done: its worker ended)
  std::vector<train::RunReport> reports_;
  std::vector<std::vector<uint8_t>> checkpoints_;  // in workers: each run's, once done
  std::string host_error_;
  bool host_failed_ = false;  // a worker of this race failed: it trains in slices from then on
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
