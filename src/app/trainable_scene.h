// A ParamScene with a trained view (TrainedView, app/trained_checkpoint.h) and its training panel
// (SceneTraining, app/scene_training.h): the self-attention and multi-head scenes. Once, for both:
//   - setState's field "training" (a command, or getState's object) beside the scene's own fields;
//   - getState's "training": the panel's run; train_seed, train_steps, train_lr, train_step: the model shown,
//     when it is not the build's (in links too);
//   - each frame, the run's newer weights into the checkpoint slot, and the trained view recomputed.
// Params must have `bool trained` (the view shows the trained model).
#pragma once
#include <memory>
#include <vector>

#include "app/param_scene.h"
#include "app/scene_training.h"
#include "app/trained_checkpoint.h"

namespace ap {

template <class Params, class Model>
class TrainableParamScene : public ParamScene<Params, Model>, public TrainedView<Params> {
  using Base = ParamScene<Params, Model>;

 public:
  explicit TrainableParamScene(BuildCheckpoint which) : TrainedView<Params>(which), training_(which) {}

  SceneTraining& training() { return training_; }
  const SceneTraining& training() const { return training_; }
  const Status& training_error() const { return training_error_; }  // the last weights that could not be shown

  Status prepare(const nlohmann::json& in, std::unique_ptr<SceneChange>* out) const override {
    std::unique_ptr<TrainingChange> tc;
    nlohmann::json rest;
    const train::Trainer* t = this->checkpoint_trainer();
    const train::Recipe build = this->checkpoint_slot().recipe();
    AP_TRY(prepare_training(in, training_, t ? t->recipe() : build, t ? t->step() : build.steps, &rest, &tc));
    if (!tc) return Base::prepare(in, out);
    // (The build's model asked for again: the rest is prepared at commit, once the run's model is gone.)
    if (!tc->restore_build) AP_TRY(Base::prepare(rest, &tc->inner));
    *out = std::move(tc);
    return Status::Ok();
  }
  void commit(std::unique_ptr<SceneChange> change) override {
    if (auto* tc = dynamic_cast<TrainingChange*>(change.get())) {
      commit_training(*tc, &training_);
      if (tc->restore_build) {  // the build's model again: asked for anew, the view waits for it
        this->restore_build_checkpoint();
        std::unique_ptr<SceneChange> again;
        if (prepare(tc->rest, &again).ok) commit(std::move(again));
        return;
      }
      Base::commit(std::move(tc->inner));
      return;
    }
    Base::commit(std::move(change));
  }
  void write_results(nlohmann::json& doc, bool with_matrices) const override {
    Base::write_results(doc, with_matrices);
    doc["training"] = training_.json();
  }
  void poll() override {
    const auto apply = [this](const Params& p) { return this->apply(p); };
    std::vector<unsigned char> w;
    const bool fresh = training_.poll(&w);
    this->follow_run(fresh ? &w : nullptr, this->params_.trained, this->params_, apply, &training_error_);
  }
  bool wants_time() const override { return training_.wants_frames() || this->measuring_weights(); }
  const std::vector<UrlParam>& url_params() const override {
    static const std::vector<UrlParam> kParams = [this] {
      std::vector<UrlParam> v = Base::url_params();
      v.insert(v.end(), train_model_url_params().begin(), train_model_url_params().end());
      return v;
    }();
    return kParams;
  }

 protected:
  // The scene's write_params calls it: in a trained view, the model shown when it is not the build's.
  void write_model_fields(nlohmann::json& doc, bool trained) const {
    if (trained) write_train_model_fields(this->checkpoint_trainer(), this->checkpoint_slot().recipe(), doc);
  }

 private:
  SceneTraining training_;
  Status training_error_;
};

}  // namespace ap
