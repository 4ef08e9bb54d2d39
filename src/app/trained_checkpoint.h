// The build's trained models, as a scene holds one: the checkpoint of a default recipe (made by
// tools/make_checkpoint.cpp into dist/checkpoints/), fetched the first time a trained view is asked for — never
// on a first visit — and read once. The SDPA and self-attention scenes each hold the coreference model's
// (coref.aptc), the multi-head scene the heads experiment's (heads.aptc, two heads); the platform keeps the
// fetched bytes, so the second scene's read costs no second download.
//
//   None ──want()──> Wanted ──receive(bytes)──> Reading ──read_slice()…──> Ready   (trainer(): the checkpoint's model)
//                          │                      └──read_slice() refuses──> Failed
//                          └──receive(bad) / fail(e)──> Failed  (error() stays: a page reads it once)
// Reading: a model's weights are measured on its held-out set before they are shown (a checkpoint cannot
// claim what its weights do not give): some 80 ms in wasm for the attention model, 25 ms for each
// encoder–decoder, so they are measured in slices of kMeasureSliceMs a frame (the scene's poll, follow_run) and
// the frame that receives stays short.
#pragma once
#include <nlohmann/json.hpp>

#include <memory>
#include <string>
#include <vector>

#include "core/status.h"
#include "core/train/seq2seq_checkpoint.h"
#include "core/train/seq2seq_trainer.h"
#include "core/train/trainer.h"
#include "core/train/translation.h"

namespace ap {

// The trained presets' sentence: the lecture notes' own, in the task's vocabulary.
constexpr const char* kTrainedSentence = "the animal didn't cross the street because it was too tired";

// The build's checkpoints: the asset's name and the recipe it holds (what the desktop trains when the file is
// missing, and the task a checkpoint read into the slot must have).
// Bahdanau: the Bahdanau scene's encoder–decoder (core/train/seq2seq_trainer.h); Luong: the Luong scene's three
// (one per score, in one file); the others attention models.
enum class BuildCheckpoint { Coref, Heads, Example, Bahdanau, Luong };
// "checkpoints/coref.aptc", "checkpoints/heads.aptc", "checkpoints/example.aptc" (the import scene's),
// "checkpoints/bahdanau.apsq", "checkpoints/luong.apsq"
const char* checkpoint_asset(BuildCheckpoint which);
train::Recipe checkpoint_recipe(BuildCheckpoint which);  // Recipe{}, heads_recipe(2), attention_example_recipe()
bool is_seq2seq(BuildCheckpoint which);                  // encoder–decoders' checkpoints (.apsq)
// The encoder–decoders a .apsq holds, in order: {bahdanau_recipe()} for Bahdanau; luong_recipe(dot, general,
// concat) for Luong.
std::vector<train::Seq2SeqRecipe> seq2seq_checkpoint_recipes(BuildCheckpoint which);

// Where a build's checkpoint cannot be read (the desktop has no dist/ beside it): the program may train the
// recipe here instead (deterministic: the same weights, in seconds). The desktop's main() installs one; the
// browser installs none (a failed fetch is reported). True with the checkpoint's bytes in *out.
using CheckpointTrainer = bool (*)(BuildCheckpoint which, std::vector<uint8_t>* out);
void set_checkpoint_trainer(CheckpointTrainer t);
CheckpointTrainer checkpoint_trainer();  // null: none installed

// A frame's share of measuring a run's newer weights (CheckpointSlot::measure_update), one batch of 64 held-out
// sentences at a time. Small: while a run trains, the worker holds one of two cores and the software GL more of
// them, so a frame's work is stretched by waiting for a core; the last step's 8,000 sentences take some twenty
// frames.
constexpr double kMeasureSliceMs = 4.0;

class CheckpointSlot {
 public:
  enum class State { None, Wanted, Reading, Ready, Failed };  // not asked for, to be fetched, being read, read, unreadable
  explicit CheckpointSlot(BuildCheckpoint which = BuildCheckpoint::Coref) : which_(which) {}
  BuildCheckpoint which() const { return which_; }
  const char* asset() const { return checkpoint_asset(which_); }
  train::Recipe recipe() const { return checkpoint_recipe(which_); }

  State state() const { return state_; }
  // "none", "loading" (Wanted and Reading), "loaded", "failed": the state document's field "checkpoint".
  const char* state_name() const;
  void want() {
    if (state_ == State::None) state_ = State::Wanted;
  }
  // Not wanted any more (nothing fetched yet: the view that asked was replaced before it came).
  void unwant() {
    if (state_ == State::Wanted) state_ = State::None;
  }
  // Takes the fetched bytes: Reading (read_slice reads them), Ready (a run's model stays), or Failed with the
  // reader's message (returned): the head, recipe and sizes are checked here.
  Status receive(const std::vector<unsigned char>& bytes);
  bool reading() const { return state_ == State::Reading; }
  // Up to budget_ms of that reading, in units of one batch of held-out sentences (encoder–decoders: 20 pairs;
  // a model's set-up is one unit). True when it ended in this call: Ready, or Failed with the reason (error(),
  // one failure more).
  bool read_slice(double budget_ms);
  void fail(const Status& error);
  // Newer weights of a run (a scene's training panel, app/scene_training.h): read in place when the recipe is the
  // model's own. Unreadable ones change nothing (the model and the state stay) and the reason is returned.
  // Weights of the model's own recipe, and encoder–decoders' (the build's recipes), are staged, not installed:
  // measure_update sets them up and measures them in slices (on every held-out sentence, tens of milliseconds in
  // wasm) and installs them; until then the model and its label are the ones before. An attention model of
  // another recipe is read at once.
  Status update(const std::vector<unsigned char>& bytes);
  bool updating() const { return (trainer_ && trainer_->staging()) || seq2seq_update_ != nullptr; }
  // Up to budget_ms of that measuring. True when it ended in this call: *result is Ok when the weights were
  // installed (the view recomputes), else why they were refused (the model stays).
  bool measure_update(double budget_ms, Status* result);
  // A frame of following a run, what every trained view's poll does: the run's newer weights (`bytes`, null when
  // none came this frame) are taken (update), and staged ones measured for kMeasureSliceMs. True when weights
  // were installed in this call (the view shows them); *status gets a refusal or the measurement's outcome, and
  // is left as it was while nothing ended. The build's checkpoint being read is read here too (read_slice): true
  // when it is Ready in this call (*status untouched; a refusal is the slot's error()).
  bool follow_run(const std::vector<unsigned char>* bytes, Status* status);
  bool from_run() const { return from_run_; }  // the model is a run's (update), not the build's checkpoint
  // Forgets a run's model: the build's checkpoint is asked for again (the platform keeps the fetched bytes).
  void restore_build();
  const Status& error() const { return error_; }
  int failures() const { return failures_; }  // one more per failure (the view reports each once)
  // The checkpoint's model once Ready, else null. A forward pass is not const: the scenes' const prepare()
  // runs sentences through it.
  train::Trainer* trainer() const { return trainer_.get(); }
  // The encoder–decoders of a .apsq slot, once Ready (seq2seq_count() of them, in seq2seq_checkpoint_recipes'
  // order); else null.
  train::Seq2SeqTrainer* seq2seq(size_t k = 0) const { return k < seq2seq_.size() ? seq2seq_[k].get() : nullptr; }
  size_t seq2seq_count() const { return seq2seq_.size(); }

 private:
  BuildCheckpoint which_;
  State state_ = State::None;
  Status error_;
  int failures_ = 0;
  Status check_model(const train::Recipe& got) const;  // this view's task and sizes
  Status check_seq2seq_models(const std::vector<train::Seq2SeqRecipe>& got) const;  // the build's recipes
  void drop_incoming();
  bool from_run_ = false;
  std::unique_ptr<train::Trainer> trainer_;
  // Reading: the fetched bytes, and the model they go into (null until its set-up, a unit of its own)
  std::vector<unsigned char> incoming_bytes_;
  std::unique_ptr<train::Trainer> incoming_;
  std::unique_ptr<train::Seq2SeqCheckpointReader> seq2seq_reader_;  // encoder–decoders being read
  std::unique_ptr<train::Seq2SeqCheckpointReader> seq2seq_update_;  // a run's, being measured (update)
  std::vector<std::unique_ptr<train::Seq2SeqTrainer>> seq2seq_;
};

// A trained encoder–decoder view's check while its models are not here (ParamScene::check_waiting of the
// Bahdanau and Luong scenes): the sentences of `p` (source, target), split by the scene's own `tokens(text,
// field, &words)`, against the toy vocabulary, as the models' align will check them (train::toy_pair_ids).
template <class Params, class Tokens>
Status check_toy_sentences(const Params& p, Tokens tokens) {
  if (!p.trained) return Status::Ok();
  std::vector<std::string> source, target;
  AP_TRY(tokens(p.source, "source", &source));
  AP_TRY(tokens(p.target, "target", &target));
  train::ToyPairIds ids;
  return train::toy_pair_ids(source, target, &ids);
}

// A ParamScene's trained view and its checkpoint (the self-attention and multi-head scenes derive from it beside
// ParamScene): the slot, its state as the views and tests read it, and the parameters that wait for it. The
// scene's ParamScene hooks forward to wants_checkpoint, hold_for_checkpoint, release_hold; the view hands the
// fetched bytes to the scene's receive_checkpoint, which calls take_checkpoint with the scene's apply (a failure
// to show the waiting view counts as the checkpoint's); the document names the waiting view (shown) so that a
// link asks for the same.
template <class Params>
class TrainedView {
 public:
  using Checkpoint = CheckpointSlot::State;
  explicit TrainedView(BuildCheckpoint which) : slot_(which) {}
  const CheckpointSlot& checkpoint_slot() const { return slot_; }
  Checkpoint checkpoint() const { return slot_.state(); }
  const Status& checkpoint_error() const { return slot_.error(); }
  int checkpoint_failures() const { return slot_.failures(); }  // one more per failure (the view reports each once)
  bool trained_pending() const { return waiting_; }              // a trained view waits for the checkpoint
  void checkpoint_failed(const Status& error) {
    slot_.fail(error);
    waiting_ = false;
  }

 protected:
  train::Trainer* checkpoint_trainer() const { return slot_.trainer(); }
  // The checkpoint's model for a trained view's compute, or why there is none (a failed read stays true).
  Status trained_model(train::Trainer** t) const {
    if (slot_.state() == Checkpoint::Failed) return slot_.error();
    *t = slot_.trainer();
    if (!*t) return Status::Error("the trained model has not arrived yet");
    return Status::Ok();
  }
  Status trained_seq2seq(train::Seq2SeqTrainer** t) const {
    if (slot_.state() == Checkpoint::Failed) return slot_.error();
    *t = slot_.seq2seq();
    if (!*t) return Status::Error("the trained model has not arrived yet");
    return Status::Ok();
  }
  // The results' "checkpoint" (none, loading, loaded, failed) and "checkpoint_error".
  void write_checkpoint_state(nlohmann::json& r) const {
    r["checkpoint"] = slot_.state_name();
    if (slot_.state() == Checkpoint::Failed) r["checkpoint_error"] = slot_.error().message;
  }
  bool wants_checkpoint(bool trained) const {
    return trained && !slot_.trainer() && !slot_.seq2seq() && slot_.state() != Checkpoint::Failed;
  }
  void hold_for_checkpoint(const Params& p) {
    waiting_ = true;
    held_params_ = p;
    slot_.want();
  }
  // The view that waited was replaced (or has arrived): a checkpoint not fetched yet is no longer asked for.
  void release_hold() {
    if (waiting_) slot_.unwant();
    waiting_ = false;
  }
  // apply(params) → Status: the scene's apply.
  // An attention model is read in slices (the scene's poll, follow_run): the view keeps waiting until then.
  template <class Apply>
  void take_checkpoint(const std::vector<unsigned char>& bytes, Apply apply) {
    if (!slot_.receive(bytes).ok) {
      waiting_ = false;
      return;
    }
    if (slot_.state() == Checkpoint::Ready) show_checkpoint(apply);
  }
  // Newer weights from the scene's training panel (`bytes`, null when none came this frame; the scene's poll
  // calls it every frame, and its wants_time holds while measuring_weights()): the slot's model follows them
  // (CheckpointSlot::follow_run), and once they are installed the view is recomputed when it shows the trained
  // model (`showing`: the installed parameters are a trained view's) or waits for one. *status: a refusal or
  // the outcome, untouched while nothing ended.
  template <class Apply>
  void follow_run(const std::vector<unsigned char>* bytes, bool showing, const Params& installed, Apply apply, Status* status) {
    const bool was_reading = slot_.reading();
    const bool installed_now = slot_.follow_run(bytes, status);
    if (was_reading && !slot_.reading() && slot_.state() != Checkpoint::Ready) waiting_ = false;  // refused
    if (!installed_now) return;
    if (was_reading && !from_run_weights()) {
      show_checkpoint(apply);  // the build's checkpoint, read: the view that waited for it
      return;
    }
    *status = show_weights(showing, installed, apply);
  }
  // A frame of reading the build's checkpoint (kMeasureSliceMs; the scene's poll): once it is Ready the view that
  // waited for it is shown; a refusal is the slot's error() and ends the waiting. False when nothing is being read.
  template <class Apply>
  bool read_checkpoint_slice(Apply apply) {
    if (!slot_.reading()) return false;
    if (slot_.read_slice(kMeasureSliceMs)) {
      if (slot_.state() == Checkpoint::Ready) show_checkpoint(apply);
      else waiting_ = false;
    }
    return true;
  }
  // The run's weights being measured, or the build's checkpoint being read: the scene keeps drawing.
  bool measuring_weights() const { return slot_.updating() || slot_.reading(); }
  const Params& shown(const Params& installed) const { return waiting_ ? held_params_ : installed; }
  void restore_build_checkpoint() { slot_.restore_build(); }

 private:
  bool from_run_weights() const { return slot_.from_run(); }
  // The build's checkpoint is Ready: the view that waited for it is shown (a failure counts as the checkpoint's).
  template <class Apply>
  void show_checkpoint(Apply apply) {
    if (!waiting_) return;
    waiting_ = false;
    const Status shown = apply(held_params_);
    if (!shown.ok) checkpoint_failed(shown);
  }
  template <class Apply>
  Status show_weights(bool showing, const Params& installed, Apply apply) {
    if (waiting_) {
      waiting_ = false;
      return apply(held_params_);
    }
    return showing ? apply(installed) : Status::Ok();
  }

  CheckpointSlot slot_;
  bool waiting_ = false;
  Params held_params_;
};

}  // namespace ap
