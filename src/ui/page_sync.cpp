// Keeps the page around the playground in step with the view:
//  - the address bar: every parameter of the scene, the language and the animation step, written as the
//    learner works (history.replaceState), so that the address is always a link that restores this view;
//  - the host page of an embed: an event at every scene change, stage change and new model, posted to the
//    parent window ({playground: "event", type, scene, step: {index, name, count}, lang}), so that a course
//    page's text can follow the playground (README "Embedding", web/examples/scrollytelling.html).
// Cheap when nothing changed: a short key is compared first; the query is built only when it differs.
#include <nlohmann/json.hpp>

#include <string>

#include "app/api.h"
#include "app/url.h"
#include "ui/ui_state.h"

namespace ap {

std::string view_query(const PlaygroundState& st) {
  std::string q = state_to_query(st);
  const std::string layout = layout_query(st);
  if (!layout.empty()) q += "&" + layout;
  return q;
}

void page_sync(PlaygroundState& st, UiState& ui) {
  const Scene& sc = st.scene();
  const Timeline& t = st.timeline();
  // While the animation plays, the sub-steps change every few frames: the address follows stages only.
  const std::string step_key = std::string(sc.id()) + "/" + std::to_string(t.stage());
  const std::string key = step_key + "/" + std::to_string(sc.generation()) + "/" + lang_code(lang()) + "/" +
                          (t.playing() ? std::string("play") : std::to_string(t.done_substeps())) + "/" +
                          std::to_string(st.hidden.size()) + std::to_string(st.embed) + std::to_string(st.presenter) +
                          std::to_string(st.colorblind) + std::to_string(st.stretch_weights) + std::to_string(st.ui_scale);
  if (key == ui.synced_view) return;
  const bool model_changed = ui.synced_view.rfind(step_key + "/", 0) == 0 &&
                             ui.synced_view.substr(step_key.size() + 1, std::to_string(sc.generation()).size()) !=
                                 std::to_string(sc.generation());
  const bool scene_changed = ui.synced_step.empty() || ui.synced_step.substr(0, ui.synced_step.find('/')) != sc.id();
  ui.synced_view = key;
  // history.replaceState is not free, and the browser throttles a page that calls it at every frame: only a
  // link that changed is written.
  std::string query = view_query(st);
  if (query != ui.synced_query) {
    platform_replace_url(query);
    ui.synced_query = std::move(query);
  }
  const bool step_changed = step_key != ui.synced_step;
  if (!step_changed && !model_changed) return;
  ui.synced_step = step_key;
  const auto& stage = sc.stages()[static_cast<size_t>(t.stage())];
  nlohmann::json ev = {{"type", scene_changed ? "scene" : step_changed ? "step" : "change"},
                       {"scene", sc.id()},
                       {"step", {{"index", t.stage()}, {"name", stage.id}, {"count", t.stage_count()}}},
                       {"lang", lang_code(lang())},
                       {"playing", t.playing()}};
  platform_post_event(ev.dump());
}

}  // namespace ap
