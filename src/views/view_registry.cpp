// Which view draws which scene. Adding a scene: one line here (and one in src/app/scene_registry.cpp).
#include <string>

#include "views/bahdanau_view.h"
#include "views/bottleneck_view.h"
#include "views/cost_view.h"
#include "views/import_view.h"
#include "views/luong_view.h"
#include "views/masks_view.h"
#include "views/multihead_view.h"
#include "views/scaling_view.h"
#include "views/sdpa_view.h"
#include "views/self_view.h"
#include "views/train_view.h"
#include "views/view.h"

namespace ap {

namespace {
// A scene registered in src/app/scene_registry.cpp without a line below: its page says so (a developer's
// mistake, in English) instead of the frame dereferencing a null view when the scene is first opened.
class MissingView final : public SceneView {
 public:
  explicit MissingView(const Scene& s) : id_(s.id()) {}
  void controls(ViewContext&) override {}
  void stage(ViewContext&) override {
    ImGui::TextWrapped("The scene '%s' has no view: add it to src/views/view_registry.cpp.", id_.c_str());
  }

 private:
  std::string id_;
};

std::unique_ptr<SceneView> view_for(Scene& s) {
  if (auto* sc = dynamic_cast<BottleneckScene*>(&s)) return std::make_unique<BottleneckView>(*sc);
  if (auto* sc = dynamic_cast<SdpaScene*>(&s)) return std::make_unique<SdpaView>(*sc);
  if (auto* sc = dynamic_cast<SelfScene*>(&s)) return std::make_unique<SelfView>(*sc);
  if (auto* sc = dynamic_cast<ScalingScene*>(&s)) return std::make_unique<ScalingView>(*sc);
  if (auto* sc = dynamic_cast<CostScene*>(&s)) return std::make_unique<CostView>(*sc);
  if (auto* sc = dynamic_cast<ImportScene*>(&s)) return std::make_unique<ImportView>(*sc);
  if (auto* sc = dynamic_cast<MasksScene*>(&s)) return std::make_unique<MasksView>(*sc);
  if (auto* sc = dynamic_cast<LuongScene*>(&s)) return std::make_unique<LuongView>(*sc);
  if (auto* sc = dynamic_cast<MultiheadScene*>(&s)) return std::make_unique<MultiheadView>(*sc);
  if (auto* sc = dynamic_cast<BahdanauScene*>(&s)) return std::make_unique<BahdanauView>(*sc);
  if (auto* sc = dynamic_cast<TrainScene*>(&s)) return std::make_unique<TrainView>(*sc);
  return std::make_unique<MissingView>(s);
}
}  // namespace

std::vector<std::unique_ptr<SceneView>> make_views(const PlaygroundState& st) {
  std::vector<std::unique_ptr<SceneView>> v;
  for (const auto& s : st.scenes) v.push_back(view_for(*s));
  return v;
}

}  // namespace ap
