// The drawing of the scene "Self-attention" (see self_view.cpp).
#pragma once
#include <string>
#include <utility>

#include "app/scenes/self_scene.h"
#include "views/edit_buffer.h"
#include "views/view.h"

namespace ap {

class SelfView final : public SceneView {
 public:
  static const TrPair* strings(size_t* count);  // the view's own strings (add_view_translations)
  explicit SelfView(SelfScene& scene) : scene_(scene) {}
  ~SelfView() override;
  void controls(ViewContext& ctx) override;
  void stage(ViewContext& ctx) override;
  std::pair<const char*, const char*> caption(const ViewContext& ctx) const override;
  std::string step_text(const ViewContext& ctx) const override;

 private:
  void sync(ViewContext& ctx);
  bool sentence_field(ViewContext& ctx, const char* id, std::string* text, std::string SelfAttnParams::*member);
  void weights_controls(ViewContext& ctx);
  void qkv_stage(ViewContext& ctx);
  void weights_stage(ViewContext& ctx);
  void output_stage(ViewContext& ctx);
  void measured_stage(ViewContext& ctx);
  SelfScene& scene_;
  EditBuffer<SelfSceneParams> edit_;  // what the fields show (may hold a value the scene refused)
  int failures_seen_ = 0;          // checkpoint failures already reported
  train::Recipe train_edit_;       // what the training panel's fields show
  std::string text_, text2_;      // the two sentence fields (kept when the scene refuses them)
  float range_x_ = 1.f, range_qkv_ = 1.f, range_scaled_ = 1.f, range_out_ = 1.f;  // colour scales
};

}  // namespace ap
