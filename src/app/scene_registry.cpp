#include "scene_registry.h"

#include "app/quiz.h"
#include "app/scene_list.h"
#include "all_scenes.h"  // every app/scenes/*_scene.h (generated: CMakeLists.txt)

namespace ap {

std::vector<std::unique_ptr<Scene>> make_scenes(bool defer) {
  std::vector<std::unique_ptr<Scene>> v;
  // The lecture notes' path, one line per scene in app/scene_list.h.
#define AP_MAKE_SCENE(Name) v.push_back(std::make_unique<Name##Scene>(defer));
  AP_SCENE_LIST(AP_MAKE_SCENE)
#undef AP_MAKE_SCENE
  size_t quiz_count = 0;
  const TrPair* quiz = quiz_translations(&quiz_count);  // (not in one call: argument order is unspecified)
  add_translations(quiz, quiz_count);
  for (const auto& s : v) {
    size_t count = 0;
    if (const TrPair* t = s->translations(&count)) add_translations(t, count);
  }
  return v;
}

}  // namespace ap
