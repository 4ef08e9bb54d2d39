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
#include "app/scenes/train_scene.h"

namespace ap {

std::vector<std::unique_ptr<Scene>> make_scenes(bool defer) {
  std::vector<std::unique_ptr<Scene>> v;
  // The lecture notes' path (学习路线): the bottleneck, Bahdanau, Luong, self-attention, scaled dot-product
  // (the page opens here: PlaygroundState), √d_k, multi-head, masks, attention that learns, then the cost of it all.
  v.push_back(std::make_unique<BottleneckScene>(defer));
  v.push_back(std::make_unique<BahdanauScene>(defer));
  v.push_back(std::make_unique<LuongScene>(defer));
  v.push_back(std::make_unique<SelfScene>(defer));
  v.push_back(std::make_unique<SdpaScene>(defer));
  v.push_back(std::make_unique<ScalingScene>(defer));
  v.push_back(std::make_unique<MultiheadScene>(defer));
  v.push_back(std::make_unique<MasksScene>(defer));
  v.push_back(std::make_unique<TrainScene>(defer));  // watch a two-layer model learn "it" → its referent
  v.push_back(std::make_unique<CostScene>(defer));
  v.push_back(std::make_unique<ImportScene>(defer));  // your own model's attention, from a file (not on the notes' path)
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
