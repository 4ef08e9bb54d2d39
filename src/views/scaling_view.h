// The drawing of the scene "Why √dₖ" (see scaling_view.cpp).
#pragma once
#include "app/scenes/scaling_scene.h"
#include "views/edit_buffer.h"
#include "views/view.h"

namespace ap {

class ScalingView final : public SceneView {
 public:
  static const TrPair* strings(size_t* count);  // the view's own strings (add_view_translations)
  explicit ScalingView(ScalingScene& scene) : scene_(scene) {}
  void controls(ViewContext& ctx) override;
  void stage(ViewContext& ctx) override;
  std::string step_text(const ViewContext& ctx) const override;

 private:
  ScalingScene& scene_;
  EditBuffer<ScalingParams> edit_;  // what the fields show (may hold a value the scene refused)
};

}  // namespace ap
