// The drawing of the scene "Your model's attention" (see import_view.cpp).
#pragma once
#include <string>

#include "app/scenes/import_scene.h"
#include "views/view.h"

namespace ap {

class ImportView final : public SceneView {
 public:
  static const TrPair* strings(size_t* count);  // the view's own strings (add_view_translations)
  explicit ImportView(ImportScene& scene) : scene_(scene) {}
  ~ImportView() override;
  void controls(ViewContext& ctx) override;
  void stage(ViewContext& ctx) override;
  std::string step_text(const ViewContext& ctx) const override;

 private:
  void heads_stage(ViewContext& ctx);
  void head_stage(ViewContext& ctx);
  void recipes_panel();  // "How do I get this file?" (import_recipes.cpp)
  void sync(ViewContext& ctx);
  int failures_seen_ = 0;  // the trained example's checkpoint failures already reported
  ImportScene& scene_;
  std::string recipe_note_;  // "Copied to the clipboard." after a Copy
};

}  // namespace ap
