// Which view draws which scene: NameView for NameScene, for every line of app/scene_list.h (a scene without
// its view does not compile). A scene that reaches make_views without a view (one made outside that list)
// stops the program at start-up, naming the scene.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "all_views.h"  // every views/*_view.h (generated: CMakeLists.txt)
#include "app/i18n.h"
#include "app/scene_list.h"
#include "views/race_panel.h"
#include "views/train_panel.h"
#include "views/view.h"

namespace ap {

namespace {
std::unique_ptr<SceneView> view_for(Scene& s) {
#define AP_VIEW_FOR(Name) \
  if (auto* sc = dynamic_cast<Name##Scene*>(&s)) return std::make_unique<Name##View>(*sc);
  AP_SCENE_LIST(AP_VIEW_FOR)
#undef AP_VIEW_FOR
  return nullptr;
}
}  // namespace

void add_view_translations() {
  size_t count = 0;
  const TrPair* shared = shared_view_strings(&count);
  add_translations(shared, count);
  const TrPair* panel = training_panel_strings(&count);
  add_translations(panel, count);
  const TrPair* race = race_panel_strings(&count);
  add_translations(race, count);
#define AP_VIEW_STRINGS(Name)                         \
  {                                                   \
    const TrPair* own = Name##View::strings(&count);  \
    add_translations(own, count);                     \
  }
  AP_SCENE_LIST(AP_VIEW_STRINGS)
#undef AP_VIEW_STRINGS
}

std::vector<std::unique_ptr<SceneView>> make_views(const PlaygroundState& st) {
  add_view_translations();
  std::vector<std::unique_ptr<SceneView>> v;
  for (const auto& s : st.scenes) {
    v.push_back(view_for(*s));
    if (!v.back()) {
      std::fprintf(stderr, "The scene '%s' has no view: add it to src/app/scene_list.h.\n", s->id());
      std::abort();
    }
  }
  return v;
}

}  // namespace ap
