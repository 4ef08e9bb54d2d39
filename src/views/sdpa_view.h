// The drawing of the scene "Scaled dot-product attention" (see sdpa_view.cpp).
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "app/cell_text.h"
#include "app/scenes/sdpa_scene.h"
#include "views/view.h"
#include "widgets/matrix_view.h"

namespace ap {

class SdpaView final : public SceneView {
 public:
  explicit SdpaView(SdpaScene& scene);
  ~SdpaView() override;
  void controls(ViewContext& ctx) override;
  float flow_height(const ViewContext& ctx) const override;
  void flow(ViewContext& ctx, float height) override;
  std::pair<const char*, const char*> caption(const ViewContext& ctx) const override;
  std::string step_text(const ViewContext& ctx) const override;
  void stage(ViewContext& ctx) override;
  void keys(ViewContext& ctx) override;
  std::vector<std::pair<const char*, const char*>> help_rows() const override;
  bool holds_keyboard() const override { return cell_popup_; }

 private:
  void sync(PlaygroundState& st);  // caches follow the scene's generation
  HeatmapKey key(int item, long long version = 0) const;
  MatrixViewResult place(ViewContext& ctx, MatrixView v, MatrixId id, ImVec2 pos, ImVec2 size);
  void row_of(ViewContext& ctx, const std::vector<std::pair<MatrixView, MatrixId>>& items,
              const std::vector<const char*>& ops, ImVec2 origin, ImVec2 avail);
  void product_layout(ViewContext& ctx, MatrixView left, MatrixId lid, MatrixView top, MatrixId tid, MatrixView result,
                      MatrixId rid, ImVec2 o, ImVec2 avail, MatrixView* beside_top = nullptr,
                      MatrixId bid = MatrixId::WeightColumn);
  void begin_cell_edit(PlaygroundState& st, MatrixId id, int i, int j);
  void cell_editor(ViewContext& ctx);
  bool set_cell(PlaygroundState& st, const char* text);
  std::string cell_name() const;

  SdpaScene& scene_;
  int generation_seen_ = -1;
  Mat Kt_;        // Kᵀ, drawn in the scores stage (row-major copy)
  Mat row_sums_;  // softmax row sums as an n × 1 matrix (the "Σ" column)
  Mat weight_col_;  // one row of A as a column beside V (weighted-sum stage)
  int weight_row_ = 0;
  std::string scale_op_;  // "÷ 2.00 →"
  // Colour ranges, shared by the flow strip and the stage view: symmetric ±range for diverging scales.
  // Scores, scaled and masked share one range so that the shrinking by √dₖ shows as paler colours;
  // outputs share Q, K, V's range (each output row is a convex mix of value rows).
  float range_qkv_ = 1.f, range_scores_ = 1.f, range_x_ = 1.f;
  SdpaParams edit_;               // what the controls show (may hold a value the model refused)
  std::string text_;              // the sentence being edited (kept when the model refuses it)
  bool text_synced_ = false;
  // Cell editing (Q, K, V): which cell, and the text typed so far.
  bool cell_popup_ = false, close_popup_ = false;
  MatrixId edit_id_ = MatrixId::Q;
  int edit_i_ = -1, edit_j_ = -1;
  char edit_buf_[64] = {};
};

}  // namespace ap
