// The skeleton of a scene whose view is a function of its parameters: Params in, a core model out. The
// lifecycle every such scene had a copy of lives here once:
//   - the first model, built now (the unit tests) or when the scene is first used (the page: start(true));
//   - the state document: the parameters from the scene's field table (app/param_fields.h), its results;
//   - prepare: the fields read and validated (a preset first), the model computed, results that come back
//     with setState(getState()) accepted only when they are what the parameters give; nothing changes;
//   - commit: the prepared parameters and model installed, a new generation;
//   - apply: what the controls call, prepare and commit in one, all or nothing;
//   - a model that needs what is not here yet (a checkpoint being fetched): its parameters are accepted
//     without computing (must_wait), handed to wait_for, and the model on screen stays until the scene
//     applies them on arrival.
// A scene gives its field table, its presets, its core function (compute) and its results as JSON.
#pragma once
#include <nlohmann/json.hpp>

#include <memory>
#include <utility>
#include <vector>

#include "app/param_fields.h"
#include "app/scene.h"
#include "app/scene_presets.h"

namespace ap {

template <class Params, class Model>
class ParamScene : public Scene {
 public:
  const Params& params() const { return params_; }
  const Model& model() const { return model_; }

  // What the controls do: build the model of `p` and install it; on an error nothing changes.
  Status apply(const Params& p) {
    auto change = std::make_unique<Change>();
    change->params = p;
    AP_TRY(complete(nlohmann::json::object(), &change->params));  // the fields the rest fix follow it
    change->waiting = must_wait(change->params);
    AP_TRY(change->waiting ? check_waiting(change->params) : compute(change->params, &change->model));
    commit(std::move(change));
    return Status::Ok();
  }

  const std::vector<PresetInfo>& presets() const override { return preset_infos(preset_table()); }
  void write_params(nlohmann::json& doc) const override { write_fields(fields(), params_, doc); }
  void write_results(nlohmann::json& doc, bool with_matrices) const override { doc["results"] = results(params_, model_, with_matrices); }
  const std::vector<UrlParam>& url_params() const override {
    static const std::vector<UrlParam> kParams = url_params_of(fields());  // one list per scene (per Params)
    return kParams;
  }

  Status prepare(const nlohmann::json& in, std::unique_ptr<SceneChange>* out) const override {
    // 1. Where the change starts: a preset (whatever the key order), or the current view; the fields.
    Params p = params_;
    AP_TRY(read_fields(in, fields(), preset_table(), {"results"}, &p));
    AP_TRY(complete(in, &p));
    // 2. The model of those parameters (or, when it must wait, the parameters alone).
    auto change = std::make_unique<Change>();
    change->params = p;
    if (must_wait(p)) {
      AP_TRY(check_waiting(p));
      change->waiting = true;
      *out = std::move(change);
      return Status::Ok();
    }
    AP_TRY(compute(p, &change->model));
    // 3. Results come back in setState(getState()): accepted only when they are what these parameters give.
    if (const auto it = in.find("results"); it != in.end()) AP_TRY(check_results(*it, p, change->model));
    *out = std::move(change);
    return Status::Ok();
  }

  void commit(std::unique_ptr<SceneChange> change) override {
    auto* c = static_cast<Change*>(change.get());
    if (c->waiting) {
      wait_for(c->params);
      return;
    }
    params_ = std::move(c->params);
    model_ = std::move(c->model);
    installed();
    model_replaced();
  }

 protected:
  struct Change final : SceneChange {
    Params params;
    Model model;
    bool waiting = false;  // must_wait(params): no model yet
  };

  // Call from the scene's constructor. defer: build the first model when first used (make_scenes), not now.
  void start(bool defer) {
    if (defer) defer_first_model();
    else build_first();
  }
  void build_first() override {
    Model m;
    Status s = compute(params_, &m);  // the defaults always compute
    (void)s;
    model_ = std::move(m);
    first_model();
  }

  virtual const FieldTable<Params>& fields() const = 0;
  virtual const std::vector<ScenePreset<Params>>& preset_table() const = 0;
  // The model of `p` (the scene's limits, then its core function), or an error naming what is wrong.
  virtual Status compute(const Params& p, Model* out) const = 0;
  // getState's results: measured values, and the matrices when asked.
  virtual nlohmann::json results(const Params& p, const Model& m, bool with_matrices) const = 0;
  // The field of `results` that is there only with the matrices (they came back with them: compare them too).
  virtual const char* matrices_key() const = 0;
  // Results that came back: by default they must be exactly what getState writes for (p, m), but for the
  // fields that describe what may have moved on since (unchecked_results: a checkpoint's loading → loaded).
  virtual Status check_results(const nlohmann::json& theirs, const Params& p, const Model& m) const {
    nlohmann::json mine = nlohmann::json::parse(results(p, m, theirs.is_object() && theirs.contains(matrices_key())).dump());
    nlohmann::json their = nlohmann::json::parse(theirs.dump());
    for (const char* k : unchecked_results()) {
      mine.erase(k);
      if (their.is_object()) their.erase(k);
    }
    if (their != mine) return Status::Error("results do not match what the other fields give");
    return Status::Ok();
  }
  virtual std::vector<const char*> unchecked_results() const { return {}; }
  // After commit installed a new model, before the timeline follows it.
  virtual void installed() {}
  // The fields that the rest fix, after `in` was read and before computing (a trained layer fixes d_k …):
  // sets them, or refuses a value of `in` that disagrees.
  virtual Status complete(const nlohmann::json& in, Params* p) const {
    (void)in;
    (void)p;
    return Status::Ok();
  }
  // True when `p`'s model needs what is not here yet; wait_for then gets `p` (see the top of this file).
  virtual bool must_wait(const Params& p) const {
    (void)p;
    return false;
  }
  virtual void wait_for(const Params& p) { (void)p; }
  // What can be checked of `p` while its model is not here (must_wait): refused now, not once the model arrives
  // (a sentence outside a trained model's vocabulary).
  virtual Status check_waiting(const Params& p) const {
    (void)p;
    return Status::Ok();
  }

  Params params_;
  Model model_;
};

}  // namespace ap
