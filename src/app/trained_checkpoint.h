// The build's trained model, as a scene holds it: the checkpoint of the coreference recipe
// (dist/checkpoints/coref.aptc, made by tools/make_checkpoint.cpp), fetched the first time a trained view is
// asked for — never on a first visit — and read once. The SDPA and self-attention scenes each hold one; the
// platform keeps the fetched bytes, so the second scene's read costs no second download.
//
//   None ──want()──> Wanted ──receive(bytes)──> Ready    (trainer(): the checkpoint's model)
//                          └──receive(bad) / fail(e)──> Failed  (error() stays: a page reads it once)
#pragma once
#include <memory>
#include <vector>

#include "core/status.h"
#include "core/train/trainer.h"

namespace ap {

// The trained presets' sentence: the lecture notes' own, in the task's vocabulary.
constexpr const char* kTrainedSentence = "the animal didn't cross the street because it was too tired";

class CheckpointSlot {
 public:
  enum class State { None, Wanted, Ready, Failed };  // not asked for, to be fetched, read, unreadable
  static constexpr const char* kAsset = "checkpoints/coref.aptc";

  State state() const { return state_; }
  // "none", "loading", "loaded", "failed": the state document's field "checkpoint".
  const char* state_name() const;
  void want() {
    if (state_ == State::None) state_ = State::Wanted;
  }
  // Reads the bytes: Ready, or Failed with the reader's message (returned).
  Status receive(const std::vector<unsigned char>& bytes);
  void fail(const Status& error);
  const Status& error() const { return error_; }
  int failures() const { return failures_; }  // one more per failure (the view reports each once)
  // The checkpoint's model once Ready, else null. A forward pass is not const: the scenes' const prepare()
  // runs sentences through it.
  train::Trainer* trainer() const { return trainer_.get(); }

 private:
  State state_ = State::None;
  Status error_;
  int failures_ = 0;
  std::unique_ptr<train::Trainer> trainer_;
};

}  // namespace ap
