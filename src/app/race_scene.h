// A ParamScene with models trained in the page (a Seq2SeqRace, in Web Workers or in slices, or the masks scene's
// BugTraining, in slices): the bottleneck, Bahdanau, Luong and masks scenes. Once, for all of them:
//   - setState's field "training" (a command, or getState's object back) beside the scene's own fields;
//   - getState's "training": the race's object;
//   - the frame loop's time while it trains (a slice per frame, and per work turn between frames; with workers,
//     the reading of their reports).
#pragma once
#include <nlohmann/json.hpp>

#include <memory>

#include "app/param_scene.h"
#include "app/seq2seq_race.h"

namespace ap {

template <class Params, class Model, class Race>
class RaceParamScene : public ParamScene<Params, Model> {
  using Base = ParamScene<Params, Model>;

 public:
  Race& race() { return race_; }
  const Race& race() const { return race_; }

  Status prepare(const nlohmann::json& in, std::unique_ptr<SceneChange>* out) const override {
    return prepare_with_race(in, race_, out, [this](const nlohmann::json& rest, std::unique_ptr<SceneChange>* inner) {
      return Base::prepare(rest, inner);
    });
  }
  void commit(std::unique_ptr<SceneChange> change) override {
    commit_with_race(std::move(change), &race_, [this](std::unique_ptr<SceneChange> c) { Base::commit(std::move(c)); });
  }
  void write_results(nlohmann::json& doc, bool with_matrices) const override {
    Base::write_results(doc, with_matrices);
    doc["training"] = race_.json();
  }
  bool wants_time() const override { return race_.busy(); }
  void run_slice(double budget_ms) override { race_.slice(budget_ms); }

 protected:
  Race race_;
};

}  // namespace ap
