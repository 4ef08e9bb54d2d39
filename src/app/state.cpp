#include "state.h"

#include "app/presets.h"

namespace ap {

PlaygroundState::PlaygroundState() {
  Status s = build_sdpa(SdpaParams{}, &model);  // the default sentence always builds
  (void)s;
  timeline.set_sizes(model.trace.n, model.trace.m);
  timeline.end();
}

void report(PlaygroundState& st, const std::string& key, const std::string& text) {
  for (auto& m : st.errors)
    if (m.key == key) { m.text = text; return; }
  st.errors.push_back({key, text});
  if (st.errors.size() > 6) st.errors.erase(st.errors.begin());
}

void clear_report(PlaygroundState& st, const std::string& key) {
  for (size_t i = 0; i < st.errors.size();)
    if (st.errors[i].key == key) st.errors.erase(st.errors.begin() + i); else ++i;
}

void dismiss(PlaygroundState& st, size_t index) {
  if (index < st.errors.size()) st.errors.erase(st.errors.begin() + index);
}

void commit(PlaygroundState& st, SdpaModel&& next, const std::string& key) {
  const bool sizes_changed = next.trace.n != st.model.trace.n || next.trace.m != st.model.trace.m;
  st.model = std::move(next);
  ++st.generation;
  st.timeline.set_sizes(st.model.trace.n, st.model.trace.m);
  if (sizes_changed) st.hover_text.clear();
  clear_report(st, key);
}

Status apply(PlaygroundState& st, const SdpaParams& params, const std::string& key) {
  SdpaModel next;
  Status s = build_sdpa(params, &next);
  if (!s) {
    report(st, key, s.message);
    return s;
  }
  commit(st, std::move(next), key);
  return s;
}

Status load_preset(PlaygroundState& st, const std::string& id) {
  const Preset* p = find_preset(id);
  if (!p) {
    std::string known;
    for (const auto& q : presets()) known += std::string(known.empty() ? "" : ", ") + q.id;
    Status s = Status::Error("unknown preset '" + id + "' (known: " + known + ")");
    report(st, "preset", s.message);
    return s;
  }
  Status s = apply(st, p->params, "preset");
  if (s) {
    st.notes.clear();
    st.notes.push_back({"preset", p->note});
    st.timeline.end();
  }
  return s;
}

}  // namespace ap
