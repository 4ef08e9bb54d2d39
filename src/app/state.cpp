#include "state.h"

#include "app/scene_registry.h"

namespace ap {

// The page opens on scaled dot-product attention, as it always has (course pages' links without scene= rely
// on it), although the lesson path puts four scenes before it.
PlaygroundState::PlaygroundState() {
  scenes = make_scenes(/*defer=*/true);
  for (size_t k = 0; k < scenes.size(); ++k)
    if (std::string(scenes[k]->id()) == kDefaultScene) current = static_cast<int>(k);
}

Scene* PlaygroundState::find(const std::string& id) {
  for (auto& s : scenes)
    if (id == s->id()) return &built(*s);
  return nullptr;
}

bool switch_scene(PlaygroundState& st, const std::string& id) {
  for (size_t i = 0; i < st.scenes.size(); ++i)
    if (id == st.scenes[i]->id()) {
      if (st.current != static_cast<int>(i)) st.hover_what = -1;
      st.current = static_cast<int>(i);
      return true;
    }
  return false;
}

void report(PlaygroundState& st, const std::string& key, const LocalText& text) {
  for (auto& m : st.errors)
    if (m.key == key) { m.text = text; return; }
  st.errors.push_back({key, text});
  if (st.errors.size() > 6) st.errors.erase(st.errors.begin());
}

void report(PlaygroundState& st, const std::string& key, const Status& s) { report(st, key, local_text(s)); }

void report(PlaygroundState& st, const std::string& key, const std::string& text) {
  LocalText t;
  t.tmpl = text;
  report(st, key, t);
}

void clear_report(PlaygroundState& st, const std::string& key) {
  for (size_t i = 0; i < st.errors.size();)
    if (st.errors[i].key == key) st.errors.erase(st.errors.begin() + static_cast<long>(i)); else ++i;
}

void dismiss(PlaygroundState& st, size_t index) {
  if (index < st.errors.size()) st.errors.erase(st.errors.begin() + static_cast<long>(index));
}

Status report_result(PlaygroundState& st, const std::string& key, Status s) {
  if (s) clear_report(st, key);
  else report(st, key, s);
  return s;
}

std::string hover_text(const PlaygroundState& st) {
  return st.hover_what < 0 ? std::string() : st.scene().explain(st.hover_what, st.hover_i, st.hover_j);
}

std::vector<std::string> error_texts(const PlaygroundState& st) {
  std::vector<std::string> out;
  for (const auto& e : st.errors) out.push_back(localize(e.text));
  return out;
}

}  // namespace ap
