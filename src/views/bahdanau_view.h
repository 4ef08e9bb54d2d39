// The drawing of the scene "Bahdanau (additive) attention" (see bahdanau_view.cpp).
#pragma once
#include <string>

#include "app/scenes/bahdanau_scene.h"
#include "views/edit_buffer.h"
#include "views/view.h"
#include "widgets/matrix_view.h"

namespace ap {

class BahdanauView final : public SceneView {
 public:
  static const TrPair* strings(size_t* count);  // the view's own strings (add_view_translations)
  explicit BahdanauView(BahdanauScene& scene) : scene_(scene) {}
  ~BahdanauView() override;
  void controls(ViewContext& ctx) override;
  void stage(ViewContext& ctx) override;
  std::string step_text(const ViewContext& ctx) const override;
  std::pair<const char*, const char*> caption(const ViewContext& ctx) const override;

 private:
  void sync(ViewContext& ctx);  // the trained view's checkpoint (views/checkpoint_fetch.h), the fields
  void weights_controls(ViewContext& ctx);
  void training_panel(ViewContext& ctx);  // the build's recipe trained in the page
  bool sentence_field(ViewContext& ctx, const char* label, const char* id, std::string* text);
  void encoder_stage(ViewContext& ctx);
  void params_stage();
  void step_stage(ViewContext& ctx);
  void alignment_stage(ViewContext& ctx);
  MatrixView alignment_view(const ViewContext& ctx, int id) const;
  // α_t and e_t of step k as bars, one row per source word, in a box of `size`.
  // Returns the bottom of what it drew (screen y).
  float score_bars(ViewContext& ctx, int k, ImVec2 size);

  BahdanauScene& scene_;
  EditBuffer<BahdanauParams> edit_;  // what the fields show (may hold a value the scene refused)
  Mat s_prev_, context_;  // 1 × d_s and 1 × d_enc: the current step's rows, as matrices to draw
  int failures_seen_ = 0;  // the checkpoint's failures already reported
};

}  // namespace ap
