// The training panel of the scenes that show a trained model (SDPA and self-attention: the coreference model;
// multi-head: the heads experiment): the learner trains that very model again in the page — another seed,
// learning rate or number of steps, or from step 0 — and the scene's view follows the weights as they learn.
//
//   Train ──> TrainRun (app/train_run.h, with weights) ──reports──> poll(): each new evaluation's checkpoint
//   (core/train/checkpoint.h, at most every kInstallEvery while running, always the last) ──> the scene
//   installs it in its CheckpointSlot (in place: the same recipe's model) and recomputes the trained view.
//
// Reset begins a fresh run at step 0: the view then shows the seeded weights the run starts from, labelled
// "random, seed s". The build's model comes back when the trained view is asked for by name (its preset,
// weights "trained") without train_… fields: CheckpointSlot::restore_build, and the run stops showing.
#pragma once
#include <nlohmann/json.hpp>

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "app/scene.h"
#include "app/train_run.h"
#include "app/trained_checkpoint.h"

namespace ap {

class SceneTraining {
 public:
  static constexpr double kInstallEvery = 0.2;  // seconds between two installs while running
  explicit SceneTraining(BuildCheckpoint which) : which_(which), recipe_(checkpoint_recipe(which)) {}

  // The recipe the panel trains: the build's until the learner changes seed, steps or learning rate
  // (validated: validate_recipe's messages; nothing changes on an error). Takes effect at the next Train/Reset.
  const train::Recipe& recipe() const { return recipe_; }
  Status set_recipe(const train::Recipe& r);
  // What set_recipe refuses: another task, layers, d_model, heads or batch than the view's model, or a recipe
  // that validate_recipe refuses.
  Status check_recipe(const train::Recipe& r) const;
  train::Recipe build_recipe() const { return checkpoint_recipe(which_); }

  // The commands (the buttons, and setState({training: "start" | "pause" | "reset"})).
  Status start();      // train to the recipe's last step (a fresh run when none is going on for this recipe)
  Status pause();
  Status reset();      // a fresh run at step 0
  Status step_once();  // one more step (a fresh run first when none is going on)
  // A fresh run of `r` (validated) trained up to `step` (0: the seeded start): a document's model.
  void train_to(const train::Recipe& r, int step);
  // The view goes back to the build's model: the run pauses and its weights no longer go to the view, until
  // the next Train, Reset or one step.
  void stop_showing();
  Status command(const std::string& c);  // "start", "pause", "reset", or an error naming them
  Status check(const std::string& c) const;  // what command(c) would refuse, changing nothing

  // Per frame: true with the weights to install (a checkpoint's bytes) when new ones are due.
  bool poll(std::vector<unsigned char>* weights);
  bool wants_frames() const { return run_.wants_frames(); }

  const TrainRun& run() const { return run_; }
  // The step of the weights last handed to the scene (−1: none yet): the run's last evaluation.
  int shown_step() const { return shown_step_; }
  bool active() const { return run_.started(); }  // the learner trained here: the view shows this run's weights
  // getState().training: {task, recipe, state, step, loss, heldout_accuracy, curve, …} (TrainRun::write_json).
  nlohmann::json json() const;

 private:
  bool runs_recipe() const { return run_.started() && !run_.taken() && run_.recipe() == recipe_; }
  void begin();  // a fresh run of recipe_ at step 0, whose weights go to the view
  BuildCheckpoint which_;
  train::Recipe recipe_;
  TrainRun run_{true};
  std::vector<unsigned char> due_;  // weights that arrived and wait for their install
  std::chrono::steady_clock::time_point last_install_{};
  int shown_step_ = -1;
  int seen_reports_ = 0;  // run_.reports() when its last report was read
  bool showing_ = true;   // the run's weights go to the view (stop_showing)
};

// setState's field "training" in a scene with a training panel: a command ("start", "pause", "reset"), or
// getState's object back. The object's recipe becomes the panel's; when it names a run that trained (step > 0)
// of a recipe other than the model shown, the page trains it again (deterministic: the same weights), with
// its progress in the panel. The scene's own change for the other fields travels inside.
//
// The model a trained view shows, when it is not the build's: `train_seed`, `train_steps`, `train_lr` (its
// recipe: the build's with these) and `train_step` (the step of its weights), written by getState and links
// (train_model_fields). A document or link naming a model other than the one on screen trains it in the page
// up to that step — deterministic: the same weights — with its progress in the panel.
struct TrainingChange final : SceneChange {
  std::unique_ptr<SceneChange> inner;  // the scene's change for the rest of the document
  std::string command;                 // "start", "pause", "reset" or ""
  bool has_recipe = false;             // the panel's recipe (getState's training object)
  train::Recipe recipe;
  bool retrain = false;                // the model the document names: trained to retrain_step
  train::Recipe retrain_recipe;
  int retrain_step = 0;
  bool restore_build = false;          // a trained view by name while a run's model is shown: the build's again
  nlohmann::json rest;                 // the document without the training fields (prepared again after restore)
};
// The URL parameters of the shown model's fields (train_seed, train_steps, train_lr, train_step), to append to a
// scene's own.
const std::vector<UrlParam>& train_model_url_params();
// Writes them when `shown` (the trained view's model; null: none) is not the build's recipe at its last step.
void write_train_model_fields(const train::Trainer* shown, const train::Recipe& build, nlohmann::json& doc);
// No field "training" nor train_… in `in`: *out stays null. Else `rest` gets `in` without them and *out the
// command and the model to train, checked (what it refuses, nothing changes). `shown`, `shown_step`: the recipe
// and step of the trained model on screen (the build's, before its checkpoint arrived).
Status prepare_training(const nlohmann::json& in, const SceneTraining& t, const train::Recipe& shown, int shown_step,
                        nlohmann::json* rest, std::unique_ptr<TrainingChange>* out);
// The scene's commit of a TrainingChange after its inner change: the recipe, then the command.
void commit_training(const TrainingChange& c, SceneTraining* t);

// What a trained view's model is: "trained on <task>, N steps, held-out accuracy x %", or at step 0 (a run
// reset, not yet trained) "random, seed s".
std::string model_weights_label(const train::Trainer& t, bool localized);

}  // namespace ap
