#include "scene_training.h"

#include "app/i18n.h"
#include "app/json_fields.h"
#include "app/train_host.h"
#include "app/scenes/train_scene.h"
#include "app/weights_label.h"
#include "core/train/checkpoint.h"
#include "core/train/recipe.h"

namespace ap {

namespace {
// The sentence the run's reports carry the attention of (the scenes compute their own views from the weights).
std::vector<std::string> report_words() {
  std::vector<std::string> w;
  (void)train_sentence_words(kTrainedSentence, &w);
  return w;
}
}  // namespace

Status SceneTraining::set_recipe(const train::Recipe& r) {
  if (r.task != recipe_.task) return Status::Error("training does not match the current run");
  AP_TRY(train::validate_recipe(r, train::task_seq_len(r.task)));
  recipe_ = r;
  return Status::Ok();
}

Status SceneTraining::start() {
  if (!runs_recipe()) {
    run_.restart(recipe_, report_words());
    due_.clear();
  }
  AP_TRY(run_.can_train());
  run_.run_to(recipe_.steps);
  return Status::Ok();
}

Status SceneTraining::pause() {
  run_.pause();
  return Status::Ok();
}

Status SceneTraining::reset() {
  run_.restart(recipe_, report_words());
  due_.clear();
  shown_step_ = -1;
  return run_.state() == TrainRunState::Failed ? run_.can_train() : Status::Ok();
}

Status SceneTraining::step_once() {
  if (!runs_recipe()) {
    run_.restart(recipe_, report_words());
    due_.clear();
  }
  AP_TRY(run_.can_train());
  if (!run_.running()) run_.run_to(run_.step() + 1);
  return Status::Ok();
}

Status SceneTraining::command(const std::string& c) {
  if (c == "start") return start();
  if (c == "pause") return pause();
  if (c == "reset") return reset();
  return Status::Error("training must be \"start\", \"pause\" or \"reset\", got {0}", {"\"" + c + "\""});
}

Status SceneTraining::check(const std::string& c) const {
  if (c == "pause") return Status::Ok();
  if (c != "start" && c != "reset")
    return Status::Error("training must be \"start\", \"pause\" or \"reset\", got {0}", {"\"" + c + "\""});
  if (!train_host()) return Status::Error("training is not available here: {0}", {"this build has no training host"});
  if (run_.state() == TrainRunState::Failed) return run_.can_train();
  return c == "start" && runs_recipe() ? run_.can_train() : Status::Ok();
}

bool SceneTraining::poll(std::vector<unsigned char>* weights) {
  if (run_.poll() && !run_.report().weights.empty()) due_.assign(run_.report().weights.begin(), run_.report().weights.end());
  if (due_.empty()) return false;
  // While it runs, a few installs a second are enough to watch (each recomputes the view); the last always goes.
  const auto now = std::chrono::steady_clock::now();
  if (run_.running() && std::chrono::duration<double>(now - last_install_).count() < kInstallEvery) return false;
  last_install_ = now;
  train::Recipe r;
  if (!train::peek_checkpoint(due_.data(), due_.size(), &r, &shown_step_).ok) shown_step_ = -1;
  weights->swap(due_);
  due_.clear();
  return true;
}

nlohmann::json SceneTraining::json() const {
  nlohmann::json t;
  t["task"] = recipe_.task;
  t["recipe"] = recipe_json(recipe_);
  run_.write_json(t);
  return t;
}

Status prepare_training(const nlohmann::json& in, const SceneTraining& t, const train::Recipe& shown, nlohmann::json* rest,
                        std::unique_ptr<TrainingChange>* out) {
  out->reset();
  const auto it = in.is_object() ? in.find("training") : in.end();
  if (!in.is_object() || it == in.end()) return Status::Ok();
  auto c = std::make_unique<TrainingChange>();
  if (it->is_string()) {
    c->command = it->get<std::string>();
    AP_TRY(t.check(c->command));
  } else if (it->is_object() && it->contains("recipe")) {
    // getState's object: its recipe (read as the scene "Watch attention learn" reads one) and its step.
    nlohmann::json doc = (*it)["recipe"];
    if (!doc.is_object()) return Status::Error("training does not match the current run");
    TrainParams p;
    p.recipe = t.recipe();
    AP_TRY(read_recipe_fields(doc, &p));
    if (p.recipe.task != t.recipe().task) return Status::Error("training does not match the current run");
    AP_TRY(train::validate_recipe(p.recipe, train::task_seq_len(p.recipe.task)));
    c->has_recipe = true;
    c->recipe = p.recipe;
    const auto step = it->find("step");
    c->retrain = step != it->end() && step->is_number() && step->get<double>() > 0 && p.recipe != shown;
    if (c->retrain) AP_TRY(t.check("start"));
  } else {
    return Status::Error("training must be \"start\", \"pause\" or \"reset\", got {0}", {quote_json(*it)});
  }
  *rest = in;
  rest->erase("training");
  // A run trained again: what the document derived from its weights (the matrices, the results, the trained
  // view's recipe) cannot be checked against the model on screen; training brings that model back.
  if (c->retrain)
    for (const char* k : {"matrices", "results", "recipe"}) rest->erase(k);
  *out = std::move(c);
  return Status::Ok();
}

void commit_training(const TrainingChange& c, SceneTraining* t) {
  if (c.has_recipe) (void)t->set_recipe(c.recipe);
  if (c.retrain) (void)t->start();
  if (!c.command.empty()) (void)t->command(c.command);
}

std::string model_weights_label(const train::Trainer& t, bool localized) {
  if (t.step() == 0) return random_weights_label(t.recipe().seed, localized);
  return trained_weights_label(t.step(), t.heldout_accuracy(), localized, t.recipe().task);
}

}  // namespace ap
