// The scene interface: what every scene of the playground is, apart from its drawing (src/views).
//
// A scene owns its parameters and its model (built by src/core), its stage table, its presets, its part of
// the state document (getState/setState, the URL), the text for a hovered cell, and its translations.
// The page API, the URL codec, the keyboard, the top bar's scene switcher and the help overlay all go
// through this interface and the registry (scene_registry.h); none of them knows a scene by name.
//
// The state document (README "Page API"): {scene, lang, step, <the scene's parameters>, <its results>}.
// setState(getState()) is accepted and restores exactly that view. A change is all or nothing: prepare()
// validates a document and builds the new model without changing anything; commit() installs it.
#pragma once
#include <nlohmann/json.hpp>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "app/i18n.h"
#include "app/timeline.h"
#include "core/status.h"

namespace ap {

struct StageInfo {
  const char* id;       // "scores": getState().step.name
  const char* title;    // N_("Scores Q·Kᵀ"): timeline, flow strip, help
  const char* formula;  // math text (drawn with widgets/math_text): "S = Q·Kᵀ"
  const char* idea;     // N_(one line on the idea, from the lecture notes)
};

// The scene's entry in the lesson map (ui/lesson_map.cpp): what the learner should try and notice there.
struct LessonInfo {
  const char* formula;  // math text: the scene's one formula ("e_tj = v_aᵀ tanh(W_a s_{t−1} + U_a h_j)")
  const char* try_this; // N_(one or two sentences: which control to change)
  const char* notice;   // N_(one or two sentences: what the learner should see, from the lecture notes)
};

struct PresetInfo {
  const char* id;     // ?preset=cats
  const char* title;  // N_()
  const char* note;   // N_(what to look at)
};

// How a document field travels in a URL query (see url.h).
enum class UrlKind {
  String,    // as typed: text=I%20love%20cats
  Number,    // d_k=4
  Bool,      // positional=0
  Json,      // tokens=["I","love","cats"] (percent-encoded JSON)
  Matrices,  // matrices: a compact versioned binary fragment, m=v1.<base64url> (see url.h)
};
struct UrlParam {
  const char* field;  // the document field
  const char* name;   // its URL parameter name
  UrlKind kind;
};

// A validated change, built by prepare() and installed by commit(). Each scene defines its own.
struct SceneChange {
  virtual ~SceneChange() = default;
};

class Scene {
 public:
  virtual ~Scene() = default;

  virtual const char* id() const = 0;     // "sdpa"
  virtual const char* title() const = 0;  // N_("Scaled dot-product attention")
  virtual const std::vector<StageInfo>& stages() const = 0;
  virtual LessonInfo lesson() const = 0;
  virtual const std::vector<PresetInfo>& presets() const = 0;
  // The scene's own interface strings and error templates in Chinese (static storage).
  virtual const TrPair* translations(size_t* count) const = 0;

  // ---- the state document ----
  // The scene's parameters: exactly what restores the view (setState accepts it back).
  virtual void write_params(nlohmann::json& doc) const = 0;
  // Derived fields and results (n, matrices, measured values …): accepted back only when they agree.
  virtual void write_results(nlohmann::json& doc, bool with_matrices) const = 0;
  // Validates `doc` — this scene's fields only; the common fields (scene, lang, step, playing, speed) and
  // the page's reports (errors, frames, view, hover) are removed by the caller — against the current
  // state, and builds the new model. Changes nothing. An unknown field is an error.
  virtual Status prepare(const nlohmann::json& doc, std::unique_ptr<SceneChange>* change) const = 0;
  // Installs a prepared change: the model, the timeline's sizes, a new generation.
  virtual void commit(std::unique_ptr<SceneChange> change) = 0;
  // URL parameters, in the order they are written.
  virtual const std::vector<UrlParam>& url_params() const = 0;

  // ---- for the interface ----
  // Sub-steps of each stage for the current model (the timeline follows them).
  virtual std::vector<int> substeps() const = 0;
  // The exact arithmetic of a hovered item (`what` is the scene's own id of a matrix or plot), or "".
  virtual std::string explain(int what, int i, int j) const { (void)what; (void)i; (void)j; return {}; }
  // Scenes with work spread over frames (a measurement sweep) ask for time: the frame loop then calls
  // run_slice() with a budget in milliseconds, and keeps drawing while wants_time() is true.
  virtual bool wants_time() const { return false; }
  virtual void run_slice(double budget_ms) { (void)budget_ms; }
  // Called at every drawn frame, for every scene, current or not: collects results that arrived from outside
  // the frame loop (parallel workers). Cheap when nothing is pending.
  virtual void poll() {}

  int generation() const { return generation_; }  // bumps whenever the model is replaced
  Timeline timeline;

  // Scenes made for the page (make_scenes) build their first model when first used, not at startup: the
  // page opens on one scene, and the others' models (and the wasm functions that compute them, compiled
  // by the browser on first call) would delay its first frame. PlaygroundState::scene(), find() and get()
  // call this; it is cheap once built. Logically const: the model is what the scene always had.
  void ensure_built() const {
    if (built_) return;
    built_ = true;
    const_cast<Scene*>(this)->build_first();
  }
  bool built() const { return built_; }

 protected:
  // Builds the default model (generation 0) and calls first_model(). Scenes built at once (the unit tests)
  // call it from their constructor; deferred ones call defer_first_model() there instead.
  virtual void build_first() = 0;
  void defer_first_model() {
    built_ = false;
    timeline.set_substeps(std::vector<int>(stages().size(), 1));  // the stage count holds until then
  }
  // Call from build_first(), once the first model is built (generation 0).
  void first_model() { timeline.set_substeps(substeps()); }
  // Call from commit(): a new model is in place.
  void model_replaced() {
    ++generation_;
    timeline.set_substeps(substeps());
  }

 private:
  int generation_ = 0;
  mutable bool built_ = true;
};

}  // namespace ap
