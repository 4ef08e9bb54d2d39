// The drawing of the scene "Masks and a bug lab" (see masks_view.cpp).
#pragma once
#include <string>

#include "app/scenes/masks_scene.h"
#include "views/view.h"

namespace ap {

class MasksView final : public SceneView {
 public:
  explicit MasksView(MasksScene& scene) : scene_(scene) {}
  ~MasksView() override;
  void controls(ViewContext& ctx) override;
  void stage(ViewContext& ctx) override;
  std::string step_text(const ViewContext& ctx) const override;

 private:
  void sync();
  void batch_stage();
  void matrices(ViewContext& ctx, bool weights);
  void damage_stage(ViewContext& ctx);
  MasksScene& scene_;
  int generation_seen_ = -1;
  bool external_change_ = false;  // the model changed outside the controls since they last drew
  MasksParams edit_;
  std::string text_;  // the sentences field, one per line
};

}  // namespace ap
