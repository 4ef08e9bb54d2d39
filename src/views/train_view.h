// The drawing of the scene "Watch attention learn" (see train_view.cpp).
#pragma once
#include <string>

#include "app/scenes/train_scene.h"
#include "views/edit_buffer.h"
#include "views/view.h"

namespace ap {

class TrainView final : public SceneView {
 public:
  static const TrPair* strings(size_t* count);  // the view's own strings (add_view_translations)
  explicit TrainView(TrainScene& scene) : scene_(scene) {}
  ~TrainView() override;
  void controls(ViewContext& ctx) override;
  void stage(ViewContext& ctx) override;
  std::string step_text(const ViewContext& ctx) const override;

 private:
  void apply(ViewContext& ctx, const char* key);
  void curves(ViewContext& ctx, float width, float height);
  void maps(ViewContext& ctx, float width, float height);
  void head_table();
  void induction_table();
  TrainScene& scene_;
  EditBuffer<TrainParams> edit_;  // what the fields show (may hold a value the scene refused)
};

}  // namespace ap
