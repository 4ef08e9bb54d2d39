// The trained views' checkpoints (app/trained_checkpoint.h), as the views of the SDPA, self-attention and
// multi-head scenes fetch their scene's: when the scene first wants it (never on a first visit), the bytes are
// handed to the scene; each failure is reported once under `key` and the report goes when a trained view is on
// screen. The desktop reads the file beside its fonts (build/native/gen/checkpoints/) and, when it is missing,
// trains the same recipe with the program's checkpoint_trainer() (app/trained_checkpoint.h).
#pragma once
#include <string>
#include <vector>

#include "app/state.h"
#include "app/trained_checkpoint.h"
#include "platform/platform.h"

namespace ap {

// S: a scene with checkpoint_slot(), checkpoint(), checkpoint_failures(), checkpoint_error(), receive_checkpoint(bytes),
// checkpoint_failed(status); `showing_trained`: a trained view is installed (the report is cleared).
template <class S>
void fetch_checkpoint(S& scene, PlaygroundState& st, int* failures_seen, bool showing_trained, const char* key = "checkpoint") {
  if (scene.checkpoint() == CheckpointSlot::State::Wanted) {
    const CheckpointSlot& slot = scene.checkpoint_slot();
    platform_fetch_asset(slot.asset());
    std::vector<unsigned char> bytes;
    std::string error;
    const AssetState a = platform_asset(slot.asset(), &bytes, &error);
    if (a == AssetState::Ready) {
      scene.receive_checkpoint(bytes);
    } else if (a == AssetState::Failed) {
      std::vector<uint8_t> trained;
      if (const CheckpointTrainer train_here = checkpoint_trainer(); train_here && train_here(slot.which(), &trained)) {
        scene.receive_checkpoint(std::vector<unsigned char>(trained.begin(), trained.end()));
        return;
      }
      scene.checkpoint_failed(Status::Error("the trained model could not be fetched: {0}", {error}));
    }
  }
  if (scene.checkpoint_failures() != *failures_seen) {
    *failures_seen = scene.checkpoint_failures();
    report(st, key, scene.checkpoint_error());
  } else if (showing_trained) {
    clear_report(st, key);
  }
}

}  // namespace ap
