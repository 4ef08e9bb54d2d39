// The drawing of the scene "Multi-head attention" (see multihead_view.cpp).
#pragma once
#include <string>

#include "app/scenes/multihead_scene.h"
#include "views/edit_buffer.h"
#include "views/view.h"

namespace ap {

class MultiheadView final : public SceneView {
 public:
  static const TrPair* strings(size_t* count);  // the view's own strings (add_view_translations)
  explicit MultiheadView(MultiheadScene& scene) : scene_(scene) {}
  ~MultiheadView() override;
  void controls(ViewContext& ctx) override;
  void stage(ViewContext& ctx) override;
  std::string step_text(const ViewContext& ctx) const override;

 private:
  void sync(ViewContext& ctx);
  void apply(ViewContext& ctx, const char* key);
  void weights_controls(ViewContext& ctx);
  void split_stage(ViewContext& ctx);
  void heads_stage(ViewContext& ctx);
  void concat_stage(ViewContext& ctx);
  void params_stage(ViewContext& ctx);
  MultiheadScene& scene_;
  int failures_seen_ = 0;          // checkpoint failures already reported
  train::Recipe train_edit_;       // what the training panel's fields show
  EditBuffer<MultiheadParams> edit_;  // what the fields show (may hold a value the scene refused)
};

}  // namespace ap
