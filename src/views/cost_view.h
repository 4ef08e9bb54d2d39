// The drawing of the scene "Cost: attention vs RNN" (see cost_view.cpp).
#pragma once
#include <imgui.h>

#include "app/scenes/cost_scene.h"
#include "views/edit_buffer.h"
#include "views/view.h"

namespace ap {

class CostView final : public SceneView {
 public:
  static const TrPair* strings(size_t* count);  // the view's own strings (add_view_translations)
  explicit CostView(CostScene& scene) : scene_(scene) {}
  void controls(ViewContext& ctx) override;
  void stage(ViewContext& ctx) override;
  std::string step_text(const ViewContext& ctx) const override;

 private:
  void sweep_bar(ViewContext& ctx);
  void measure_button(ViewContext& ctx, const char* id);
  void table_stage(ViewContext& ctx);
  void curves_stage(ViewContext& ctx);
  void measured_stage(ViewContext& ctx);
  void parallel_stage(ViewContext& ctx);
  void workers_panel(ViewContext& ctx, ImVec2 size);
  void animation_stage(ViewContext& ctx);
  void memory_stage(ViewContext& ctx);
  CostScene& scene_;
  EditBuffer<CostParams> edit_;  // what the fields show (may hold a value the scene refused)
};

}  // namespace ap
