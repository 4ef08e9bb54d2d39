// Scene "Watch attention learn" (id "train"): a two-layer attention model trained live on the coreference
// task of the lecture notes, "The ANIMAL didn't cross the PLACE because it was too ADJ" (core/train/coref.h).
// The learner presses Train and watches the loss fall, the held-out accuracy rise and the "it" row of the
// deciding layer move onto the noun the adjective describes; with one layer it does not (measured).
// Two more tasks on the same trainer: "heads" (one layer of H heads names the referent, heads.h) and
// "induction" (a repeated letter sequence continued: a previous-token and an induction head, induction.h).
//
//   recipe (layers, d_model, heads, seed, steps, learning rate, batch) ──validate_recipe──> TrainHost
//   TrainHost (a Web Worker / a thread, app/train_host.h) runs core/train/trainer.h and reports:
//     step, loss, held-out accuracy, the curve, and every layer's attention of the sentence on screen
//
// The scene computes nothing itself: it validates, sends commands and keeps the newest report.
// Run states: idle (step 0, seeded weights) → running ⇄ paused → done | diverged; failed: no worker.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "app/scene.h"
#include "app/train_run.h"
#include "core/train/report.h"

namespace ap {

struct TrainParams {
  train::Recipe recipe;
  std::string text = "the cat didn't cross the road because it was too tired";
  bool trained = false;  // weights: "trained" (train to the recipe's last step) or "random" (step 0)
  bool operator==(const TrainParams& o) const { return recipe == o.recipe && text == o.text && trained == o.trained; }
};

enum class TrainStage { Task = 0, Learn, Count };

class TrainScene final : public Scene {
 public:
  explicit TrainScene(bool defer = false);
  ~TrainScene() override;
  void build_first() override;

  const char* id() const override { return "train"; }
  const char* title() const override;
  LessonInfo lesson() const override;
  const std::vector<StageInfo>& stages() const override;
  const std::vector<PresetInfo>& presets() const override;
  const TrPair* translations(size_t* count) const override;
  void write_params(nlohmann::json& doc) const override;
  void write_results(nlohmann::json& doc, bool with_matrices) const override;
  Status prepare(const nlohmann::json& doc, std::unique_ptr<SceneChange>* change) const override;
  void commit(std::unique_ptr<SceneChange> change) override;
  const std::vector<UrlParam>& url_params() const override;
  std::vector<int> substeps() const override { return {1, 1}; }
  std::string explain(int what, int i, int j) const override;
  // While it trains the page draws as reports arrive when the host wakes it (a Web Worker), else every frame.
  bool wants_time() const override;
  void run_slice(double) override {}
  void poll() override;

  // The controls' commands (what setState({training}) does too); each returns what it refused.
  Status start();
  Status pause();
  Status reset();
  Status step_once();
  Status apply(const TrainParams& p);  // validated, or nothing changes

  const TrainParams& params() const { return params_; }
  const TrainRun& run() const { return run_; }
  TrainRunState state() const { return run_.state(); }
  const train::TrainReport& report() const { return run_.report(); }
  bool has_report() const { return run_.has_report(); }
  bool host_taken() const { return run_.taken(); }  // another scene's training panel trains on the host now
  const train::SentenceAttention& shown() const { return shown_; }  // maps of the sentence on screen
  const std::vector<std::string>& words() const { return words_; }
  double steps_per_second() const { return run_.steps_per_second(); }
  const std::string& host_error() const { return run_.host_error(); }
  int report_version() const { return report_version_; }  // one more per report received
  // "trained on coreference, 1500 steps, held-out accuracy 100.0 %" or "random, seed 1" (in the current language,
  // or in English for the document).
  std::string weights_label(bool localized = true) const;
  nlohmann::json training_json() const;

 private:
  void restart(bool take_host = true);  // a fresh run of the recipe at step 0 (TrainRun::restart)
  TrainParams params_;
  std::vector<std::string> words_;
  TrainRun run_;
  train::SentenceAttention shown_;
  int report_version_ = 0;
};

// A recipe as recipe_json writes it, read into p->recipe by the scene's own fields (each checked; the recipe as a
// whole is not: validate_recipe).
Status read_recipe_fields(const nlohmann::json& recipe, TrainParams* p);
// A recipe as the document writes it: {task, layers, d_model, heads, seed, steps, learning_rate, batch}.
nlohmann::json recipe_json(const train::Recipe& r);
// Each head's measured "it" row: [{layer, head, referent, other_noun, when_animal, when_place, reads}] (1-based),
// the shares {animal, place, adjective, previous, self, entropy}; reads: head_relation in English.
nlohmann::json head_patterns_json(const std::vector<train::HeadPattern>& patterns);

// The sentence as the model's words: split at spaces, ASCII lowercased (the task "induction": uppercased, its
// tokens are the letters A … X); checked against the task's vocabulary (train::check_task_words).
Status train_sentence_words(const std::string& text, std::vector<std::string>* words, const std::string& task = "coref");
// The text a task opens with: the notes' sentence, or for "induction" a letter sequence with a repeated segment.
const char* train_default_text(const std::string& task);
// Each head's induction scores: [{layer, head, previous, induction, same_token, self, reads}] (1-based).
nlohmann::json induction_heads_json(const std::vector<train::InductionHeadScore>& heads);

}  // namespace ap
