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

Status SceneTraining::check_recipe(const train::Recipe& r) const {
  const train::Recipe b = build_recipe();
  if (r.task != b.task || r.layers != b.layers || r.d_model != b.d_model || r.heads != b.heads || r.batch != b.batch)
    return Status::Error("this panel trains the view's own model: only its seed, steps and learning rate change (the model: {0})",
                         {recipe_json(b).dump()});
  return train::validate_recipe(r, train::task_seq_len(r.task));
}

Status SceneTraining::set_recipe(const train::Recipe& r) {
  AP_TRY(check_recipe(r));
  recipe_ = r;
  return Status::Ok();
}

void SceneTraining::begin() {
  run_.restart(recipe_, report_words());
  due_.clear();
  shown_step_ = -1;
  showing_ = true;
}

Status SceneTraining::start() {
  if (!runs_recipe() || run_.state() == TrainRunState::Failed) begin();  // (a worker that failed: a new one)
  AP_TRY(run_.can_train());
  showing_ = true;
  run_.run_to(recipe_.steps);
  return Status::Ok();
}

Status SceneTraining::pause() {
  run_.pause();
  return Status::Ok();
}

Status SceneTraining::reset() {
  begin();
  return run_.state() == TrainRunState::Failed ? run_.can_train() : Status::Ok();
}

Status SceneTraining::step_once() {
  if (!runs_recipe() || run_.state() == TrainRunState::Failed) begin();
  AP_TRY(run_.can_train());
  showing_ = true;
  if (!run_.running()) run_.run_to(run_.step() + 1);
  return Status::Ok();
}

void SceneTraining::train_to(const train::Recipe& r, int step) {
  recipe_ = r;
  begin();
  if (step > 0) run_.run_to(step);
}

void SceneTraining::stop_showing() {
  run_.pause();
  due_.clear();
  showing_ = false;
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
  // Reset always begins afresh; Train refuses only to go on with a run of this recipe that finished or diverged.
  if (c == "start" && runs_recipe() && run_.state() != TrainRunState::Failed) return run_.can_train();
  return Status::Ok();
}

bool SceneTraining::poll(std::vector<unsigned char>* weights) {
  run_.poll();
  if (run_.reports() != seen_reports_) {  // a new report: its weights, when it carries any and the view follows
    seen_reports_ = run_.reports();
    if (showing_ && !run_.report().weights.empty()) due_.assign(run_.report().weights.begin(), run_.report().weights.end());
  }
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

namespace {
const char* const kModelKeys[] = {"train_seed", "train_steps", "train_lr", "train_step"};
}  // namespace

const std::vector<UrlParam>& train_model_url_params() {
  static const std::vector<UrlParam> kParams = {{"train_seed", "train_seed", UrlKind::Number},
                                                {"train_steps", "train_steps", UrlKind::Number},
                                                {"train_lr", "train_lr", UrlKind::Number},
                                                {"train_step", "train_step", UrlKind::Number}};
  return kParams;
}

void write_train_model_fields(const train::Trainer* shown, const train::Recipe& build, nlohmann::json& doc) {
  if (!shown || (shown->recipe() == build && shown->step() == build.steps)) return;
  doc["train_seed"] = shown->recipe().seed;
  doc["train_steps"] = shown->recipe().steps;
  doc["train_lr"] = shown->recipe().learning_rate;
  doc["train_step"] = shown->step();
}

Status prepare_training(const nlohmann::json& in, const SceneTraining& t, const train::Recipe& shown, int shown_step,
                        nlohmann::json* rest, std::unique_ptr<TrainingChange>* out) {
  out->reset();
  if (!in.is_object()) return Status::Ok();
  const auto it = in.find("training");
  bool model_keys = false;
  for (const char* k : kModelKeys) model_keys = model_keys || in.contains(k);
  // A trained view asked for by name (its preset, weights "trained") without a model: the build's. When the
  // model on screen is a run's, the build's checkpoint comes back (the scene's commit fetches it again).
  const auto names = [&](const char* k, std::initializer_list<const char*> values) {
    const auto v = in.find(k);
    if (v == in.end() || !v->is_string()) return false;
    for (const char* x : values)
      if (v->get<std::string>() == x) return true;
    return false;
  };
  const train::Recipe build = t.build_recipe();
  const bool restore = !model_keys && (names("preset", {"it-trained", "trained"}) || names("weights", {"trained"})) &&
                       (shown != build || shown_step != build.steps);
  if (it == in.end() && !model_keys && !restore) return Status::Ok();
  auto c = std::make_unique<TrainingChange>();
  c->restore_build = restore;
  // Fields of a recipe, read as the scene "Watch attention learn" reads them (each checked), then as a whole.
  const auto read_recipe = [&](const nlohmann::json& doc, train::Recipe* r) -> Status {
    for (auto f = doc.begin(); f != doc.end(); ++f)  // a recipe's own fields only (not the scene's text, presets …)
      if (!recipe_json(train::Recipe{}).contains(f.key())) return Status::Error("unknown field '{0}'", {"recipe." + f.key()});
    TrainParams p;
    p.recipe = *r;
    AP_TRY(read_recipe_fields(doc, &p));
    AP_TRY(t.check_recipe(p.recipe));
    *r = p.recipe;
    return Status::Ok();
  };
  if (it == in.end()) {
  } else if (it->is_string()) {
    c->command = it->get<std::string>();
    AP_TRY(t.check(c->command));
  } else if (it->is_object() && it->contains("recipe") && (*it)["recipe"].is_object()) {
    c->recipe = t.recipe();  // getState's object: the panel's recipe
    AP_TRY(read_recipe((*it)["recipe"], &c->recipe));
    c->has_recipe = true;
  } else {
    return Status::Error("training must be \"start\", \"pause\" or \"reset\", got {0}", {quote_json(*it)});
  }
  if (model_keys) {  // the model on screen: the build's recipe with these, at this step
    // All four or none: a link whose learning rate was refused must not train another model with the rest.
    for (const char* k : kModelKeys)
      if (!in.contains(k)) return Status::Error("train_seed, train_steps, train_lr and train_step name a trained model together: {0} is missing", {k});
    nlohmann::json doc = nlohmann::json::object();
    if (const auto k = in.find("train_seed"); k != in.end()) doc["seed"] = *k;
    if (const auto k = in.find("train_steps"); k != in.end()) doc["steps"] = *k;
    if (const auto k = in.find("train_lr"); k != in.end()) doc["learning_rate"] = *k;
    train::Recipe r = build;
    AP_TRY(read_recipe(doc, &r));
    int step = r.steps;
    if (const auto k = in.find("train_step"); k != in.end()) {
      long long v;
      AP_TRY(read_int(*k, "train_step", 0, r.steps, &v));
      step = static_cast<int>(v);
    }
    if (r != shown || step != shown_step) {
      if (!train_host()) return Status::Error("training is not available here: {0}", {"this build has no training host"});
      c->retrain = true;
      c->retrain_recipe = r;
      c->retrain_step = step;
    }
  }
  *rest = in;
  rest->erase("training");
  for (const char* k : kModelKeys) rest->erase(k);
  // A model trained again: what the document derived from its weights (the matrices, the results, the trained
  // view's recipe) cannot be checked against the model on screen; training brings that model back.
  if (c->retrain)
    for (const char* k : {"matrices", "results", "recipe"}) rest->erase(k);
  c->rest = *rest;
  *out = std::move(c);
  return Status::Ok();
}

void commit_training(const TrainingChange& c, SceneTraining* t) {
  if (c.restore_build) t->stop_showing();  // the build's model: the run's weights no longer go to the view
  if (c.retrain) t->train_to(c.retrain_recipe, c.retrain_step);
  if (c.has_recipe) (void)t->set_recipe(c.recipe);
  if (!c.command.empty()) (void)t->command(c.command);
}

std::string model_weights_label(const train::Trainer& t, bool localized) {
  if (t.step() == 0) return random_weights_label(t.recipe().seed, localized);
  return trained_weights_label(t.step(), t.heldout_accuracy(), localized, t.recipe().task);
}

}  // namespace ap
