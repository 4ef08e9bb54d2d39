// One training run as a scene drives it: the recipe sent to the TrainHost (app/train_host.h), its state, the
// newest report and the rate — what "Watch attention learn" and the training panel of the SDPA, self-attention
// and multi-head scenes share (app/scene_training.h).
//
//   restart(recipe, words) ──> Idle (step 0) ──run_to──> Running ──report.step ≥ target──> Paused
//                                                          │ pause()                          │ run_to
//                                                          └──────────> Paused <──────────────┘
//   a report at the last step ──> Done;  a diverged one ──> Diverged;  no host, or the host failed ──> Failed
//
// One host serves the page, so one run trains at a time: the run that restarted last owns it. A run whose host
// another run took (the learner trained in another scene) shows its last report and starts again from step 0
// when asked to train (taken() says so).
#pragma once
#include <nlohmann/json.hpp>

#include <chrono>
#include <string>
#include <vector>

#include "core/status.h"
#include "core/train/report.h"

namespace ap {

enum class TrainRunState { Idle, Running, Paused, Done, Diverged, Failed };
const char* train_state_name(TrainRunState s);  // "idle", "running", …

class TrainRun {
 public:
  // with_weights: the reports carry the checkpoint of each new evaluation (TrainReport::weights).
  explicit TrainRun(bool with_weights = false) : with_weights_(with_weights) {}
  ~TrainRun();
  TrainRun(const TrainRun&) = delete;
  TrainRun& operator=(const TrainRun&) = delete;

  // A fresh run of `recipe` at step 0 (validated by the caller), the attention of `words` in its reports.
  // take_host false: while another run trains, this one does not stop it; it waits, taken(), and begins when
  // asked to train (a scene opened for the first time must not stop a run the learner started elsewhere).
  void restart(const train::Recipe& recipe, const std::vector<std::string>& words, bool take_host = true);
  // Train up to `step` (at most the recipe's last); a run whose host was taken restarts first.
  void run_to(int step);
  void pause();                                          // stops after the current chunk (Running only)
  void show(const std::vector<std::string>& words);      // another sentence's attention in the next reports
  // Why the run cannot train further now ("" when it can): failed host, diverged, finished.
  Status can_train() const;

  // Reads the host: true when something changed (a new report of this run, a failure, the host taken). Call
  // once per frame. reports() counts the reports taken (a new one: report() changed).
  bool poll();
  int reports() const { return reports_; }

  TrainRunState state() const { return state_; }
  const train::Recipe& recipe() const { return recipe_; }
  const train::TrainReport& report() const { return report_; }
  bool has_report() const { return has_report_; }
  int step() const { return has_report_ ? report_.step : 0; }
  double steps_per_second() const { return steps_per_second_; }
  const std::string& host_error() const { return host_error_; }
  bool taken() const { return taken_; }           // another run trains on the host now
  bool started() const { return started_; }       // restart() was called at least once
  bool running() const { return state_ == TrainRunState::Running; }
  // The message of a diverged or failed run ("" otherwise), in English.
  std::string message() const;
  // While it trains the page draws as reports arrive when the host wakes it (a Web Worker), else every frame.
  bool wants_frames() const;
  // The document's training fields: state, step, loss, heldout_accuracy, referent_argmax, heldout_on_all,
  // curve and curve_columns, steps_per_second, host, and the message of a diverged or failed run.
  void write_json(nlohmann::json& t) const;

 private:
  bool owns_host() const;
  bool with_weights_;
  bool started_ = false, taken_ = false;
  train::Recipe recipe_;
  std::vector<std::string> words_;
  TrainRunState state_ = TrainRunState::Idle;
  train::TrainReport report_;
  bool has_report_ = false, awaiting_begin_ = false;
  int target_ = 0, reports_ = 0;
  std::string host_error_;
  double steps_per_second_ = 0;
  std::chrono::steady_clock::time_point rate_t0_;
  int rate_step0_ = 0;
};

}  // namespace ap
