// Where "Watch attention learn" trains: off the frame loop, so that no frame waits for a training step.
// In the browser a Web Worker with its own wasm module (web/train_worker.js, src/program/train_worker.cpp,
// driven by src/program/web_train_host.cpp); on the desktop and in the unit tests a thread of this process.
// Both run the core's Trainer (core/train/trainer.h) and hand back its progress as a train::TrainReport.
//
// Commands are asynchronous; each is answered by a report (poll()):
//   begin(recipe, words, with_weights)
//                         a fresh run at step 0 (seeded weights), and the attention of `words`; with_weights:
//                         reports carry the checkpoint of each new evaluation (TrainReport::weights), for the
//                         scenes that show a model as it trains (app/train_run.h)
//   run(until)            train up to step `until` (at most the recipe's steps), a report after every chunk
//   pause()               stop after the current chunk
//   show(words)           the attention of another sentence under the current weights
// The recipe and the words are validated by the caller (validate_recipe, check_task_words).
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "core/train/report.h"

namespace ap {

class TrainHost {
 public:
  virtual ~TrainHost() = default;
  virtual const char* name() const = 0;  // "Web Worker", "thread"
  virtual void begin(const train::Recipe& recipe, const std::vector<std::string>& words, bool with_weights = false) = 0;
  virtual void run(int until_step) = 0;
  virtual void pause() = 0;
  virtual void show(const std::vector<std::string>& words) = 0;
  // The newest report since the last call (older ones are dropped) → true; only reports of the latest
  // begin() (a report the run before sent after it, still on its way, is dropped). `error` (may be null) gets a
  // failure of the host itself (a worker that could not start), in English, once.
  virtual bool poll(train::TrainReport* out, std::string* error) = 0;
  // True when the host asks the page for frames as reports arrive (then nothing needs to draw meanwhile).
  virtual bool wakes_page() const { return false; }
};

// A thread of this process (desktop build and unit tests; nullptr under Emscripten, whose page uses a worker).
std::unique_ptr<TrainHost> make_thread_train_host();

// The host of this build (set by the executable at start; nullptr in the unit tests unless they set one).
TrainHost* train_host();
void set_train_host(TrainHost* host);

}  // namespace ap
