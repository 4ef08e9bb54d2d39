// The drawing of the scene "Scaled dot-product attention" (see sdpa_view.cpp).
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "app/scenes/sdpa_cell_text.h"
#include "app/scenes/sdpa_scene.h"
#include "views/view.h"
#include "widgets/matrix_view.h"

namespace ap {

class SdpaView final : public SceneView {
 public:
  static const TrPair* strings(size_t* count);  // the view's own strings (add_view_translations)
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

 public:
  // (public for the layout helpers in sdpa_view.cpp)
  // Cells shared by every stage: numbered (in the body or the small font, widths × grow, height ch) or square
  // heatmap cells. Kept across frames, so it names the font rather than holding its pointer (ViewFonts).
  struct Geo {
    bool numbered;
    bool small_font;
    float grow, ch;
    ImFont* font(const ViewContext& ctx) const { return small_font ? ctx.fonts.small : ctx.fonts.body; }
  };

 private:
  void sync(PlaygroundState& st);  // caches follow the scene's generation
  void trained_controls(ViewContext& ctx);
  int failures_seen_ = 0;
  train::Recipe train_edit_;  // what the training panel's fields show
  HeatmapKey key(int item, long long version = 0) const;
  MatrixViewResult place(ViewContext& ctx, MatrixView v, MatrixId id, ImVec2 pos, ImVec2 size);
  // What a stage draws: a row of matrices between operators, or a product (items: left, top, result and
  // optionally a column beside top).
  struct Item {
    MatrixView v;
    MatrixId id;
    bool free = false;  // may become a heatmap alone when the row is too wide (the embeddings X)
  };
  struct Plan {
    bool product = false;
    std::vector<Item> items;
    std::vector<std::string> ops;
    int wrap = 0;  // a row only: > 0 breaks it into two lines before items[wrap] (the operator there goes)
  };
  Plan plan(int stage_index, bool custom);
  ImVec2 lay_out(ViewContext& ctx, Plan& p, const Geo& g, ImVec2 o, ImVec2 avail, bool draw);
  ImVec2 best_form(ViewContext& ctx, Plan& p, const Geo& g, ImVec2 avail);
  // The cells that fit every stage (only_stage < 0), or one stage alone.
  Geo choose_geometry(ViewContext& ctx, ImVec2 avail, bool custom, bool* fits, int only_stage = -1);
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
  float range_weights_ = 1.f;      // the weights' scale now: 1, or stretched_weights_ (PlaygroundState::stretch_weights)
  float stretched_weights_ = 1.f;  // a round value at or above the 99th percentile of the weights, at most 1
  const char* weights_legend() const;  // "weights", or "weights (stretched)" when the scale ends below 1
  bool numbers_forced_ = false;  // "numbers" ticked: numbered cells even where they do not fit (scrolls)
  bool numbered_ = false;        // as last drawn
  float last_cell_ = 0.f;
  struct GeoKey {
    int generation = -1;
    float w = 0, h = 0, fs = 0;
    int fonts = -1;              // the font atlas' generation (ViewFonts): new glyphs, new widths
    const void* lang = nullptr;  // a translated string: titles change width with the language
    bool custom = false, forced = false;
    bool operator==(const GeoKey& o) const {
      return generation == o.generation && w == o.w && h == o.h && fs == o.fs && fonts == o.fonts && lang == o.lang && custom == o.custom &&
             forced == o.forced;
    }
  };
  GeoKey geo_key_;
  Geo geo_{false, true, 1.f, 0.f};
  bool geo_fits_ = true;
  // When the numbers of every stage do not fit at one cell size (large text on a projector, a phone), the
  // current stage alone may still show its numbers: its own geometry, kept for that stage.
  GeoKey stage_geo_key_;
  int stage_geo_stage_ = -1;
  Geo stage_geo_{false, true, 1.f, 0.f};
  bool stage_geo_fits_ = false;        // the cell height of the last plan laid out (measured or drawn)
  SdpaParams edit_;               // what the controls show (may hold a value the model refused)
  std::string text_;              // the sentence being edited (kept when the model refuses it)
  bool text_synced_ = false;
  // Cell editing (Q, K, V): which cell, and the text typed so far.
  bool cell_popup_ = false, close_popup_ = false;
  MatrixId edit_id_ = MatrixId::Q;
  int edit_i_ = -1, edit_j_ = -1;
  std::string edit_text_;  // the cell editor's field (an HTML input over it in the browser)
};

}  // namespace ap
