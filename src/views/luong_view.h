// The drawing of the scene "Luong: multiplicative attention" (see luong_view.cpp).
#pragma once
#include <string>

#include "app/scenes/luong_scene.h"
#include "views/edit_buffer.h"
#include "views/view.h"

namespace ap {

class LuongView final : public SceneView {
 public:
  static const TrPair* strings(size_t* count);  // the view's own strings (add_view_translations)
  explicit LuongView(LuongScene& scene) : scene_(scene) {}
  void controls(ViewContext& ctx) override;
  void stage(ViewContext& ctx) override;
  std::string step_text(const ViewContext& ctx) const override;

 private:
  void sync(ViewContext& ctx);
  void sentence_field(ViewContext& ctx, const char* label, const char* id, std::string* value);
  void states_stage(ViewContext& ctx);
  void step_stage(ViewContext& ctx);
  void alignments_stage(ViewContext& ctx);
  void compare_stage(ViewContext& ctx);
  void race_section(ViewContext& ctx);
  void weights_controls(ViewContext& ctx);
  LuongScene& scene_;
  int failures_seen_ = 0;  // the checkpoint's failures already reported
  EditBuffer<LuongParams> edit_;  // what the fields show (may hold a value the scene refused)
};

}  // namespace ap
