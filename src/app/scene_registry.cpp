#include "scene_registry.h"

#include "app/quiz.h"
#include "app/scenes/bahdanau_scene.h"
#include "app/scenes/bottleneck_scene.h"
#include "app/scenes/cost_scene.h"
#include "app/scenes/import_scene.h"
#include "app/scenes/luong_scene.h"
#include "app/scenes/masks_scene.h"
#include "app/scenes/multihead_scene.h"
#include "app/scenes/scaling_scene.h"
#include "app/scenes/self_scene.h"
#include "app/scenes/sdpa_scene.h"

namespace ap {

std::vector<std::unique_ptr<Scene>> make_scenes() {
  std::vector<std::unique_ptr<Scene>> v;
  // The lecture notes' path (学习路线): the bottleneck, Bahdanau, Luong, self-attention, scaled dot-product
  // (the page opens here: PlaygroundState), √d_k, multi-head, masks, then the cost of it all.
  v.push_back(std::make_unique<BottleneckScene>());
  v.push_back(std::make_unique<BahdanauScene>());
  v.push_back(std::make_unique<LuongScene>());
  v.push_back(std::make_unique<SelfScene>());
  v.push_back(std::make_unique<SdpaScene>());
  v.push_back(std::make_unique<ScalingScene>());
  v.push_back(std::make_unique<MultiheadScene>());
  v.push_back(std::make_unique<MasksScene>());
  v.push_back(std::make_unique<CostScene>());
  v.push_back(std::make_unique<ImportScene>());  // your own model's attention, from a file (not on the notes' path)
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
