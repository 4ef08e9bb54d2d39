// The drawing of the scene "Masks and a bug lab" (see masks_view.cpp).
#pragma once
#include <string>

#include "app/scenes/masks_scene.h"
#include "views/edit_buffer.h"
#include "views/view.h"

namespace ap {

class MasksView final : public SceneView {
 public:
  static const TrPair* strings(size_t* count);  // the view's own strings (add_view_translations)
  explicit MasksView(MasksScene& scene) : scene_(scene) {}
  ~MasksView() override;
  void controls(ViewContext& ctx) override;
  void stage(ViewContext& ctx) override;
  std::string step_text(const ViewContext& ctx) const override;

 private:
  void sync();
  void batch_stage(ViewContext& ctx);
  void matrices(ViewContext& ctx, bool weights);
  void damage_stage(ViewContext& ctx);
  void training_stage(ViewContext& ctx);
  MasksScene& scene_;
  EditBuffer<MasksParams> edit_;  // what the fields show (may hold a value the scene refused)
  std::string text_;  // the sentences field, one per line
};

}  // namespace ap
