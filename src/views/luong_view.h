// The drawing of the scene "Luong: multiplicative attention" (see luong_view.cpp).
#pragma once
#include <string>

#include "app/scenes/luong_scene.h"
#include "views/view.h"

namespace ap {

class LuongView final : public SceneView {
 public:
  explicit LuongView(LuongScene& scene) : scene_(scene) {}
  void controls(ViewContext& ctx) override;
  void stage(ViewContext& ctx) override;
  std::string step_text(const ViewContext& ctx) const override;

 private:
  void sync();
  void sentence_field(ViewContext& ctx, const char* label, const char* id, std::string* value);
  void states_stage(ViewContext& ctx);
  void step_stage(ViewContext& ctx);
  void alignments_stage(ViewContext& ctx);
  void compare_stage();
  LuongScene& scene_;
  int generation_seen_ = -1;
  bool external_change_ = false;  // the model changed outside the controls since they last drew
  LuongParams edit_;
};

}  // namespace ap
