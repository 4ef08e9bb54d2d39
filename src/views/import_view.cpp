// View of the scene "Your model's attention": the controls (Open file, layer, head, what was imported and how
// its rows sum) and, stage by stage, every head of the chosen layer as a grid of heatmaps (a click opens one),
// or the chosen head large with its numbers. It draws what the scene holds; it computes nothing.
#include "views/import_view.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "app/i18n.h"
#include "core/number_text.h"
#include "platform/platform.h"
#include "widgets/colormap.h"
#include "widgets/matrix_view.h"
#include "views/checkpoint_fetch.h"
#include "widgets/text_fit.h"

namespace ap {

namespace {
// The strings this view draws (its scene's own, for getState and errors, are in app/scenes/import_scene.cpp).
const TrPair kImportViewStrings[] = {
    {"Built-in example: the SDPA scene's weights (seeded, not trained), 1 layer × 1 head. Drop your model's attention (.npy or .json) to see real heads.",
     "内置示例：SDPA 场景的权重（随机种子生成，没有训练），1 层 × 1 头。拖入你的模型的注意力（.npy 或 .json）即可看到真实的头。"},
    {"Open file…", "打开文件…"},
    {"data from", "数据来自"},
    {"How do I get this file?", "怎样得到这样的文件？"},
    {"Copy", "复制"},
    {"Save your model's attention for one sentence with numpy.save, shape [layers, heads, n, n] (or [heads, n, n]), and its tokens as {\"tokens\": [...]} in a JSON file beside it; then open both files at once.",
     "用 numpy.save 保存你的模型对一个句子的注意力，形状为 [layers, heads, n, n]（或 [heads, n, n]），再把它的 token 以 {\"tokens\": [...]} 存进旁边的 JSON 文件；然后同时打开这两个文件。"},
    {"Hugging Face transformers (output_attentions=True)", "Hugging Face transformers（output_attentions=True）"},
    {"PyTorch: a forward hook on an attention module", "PyTorch：在注意力模块上挂一个 forward hook"},
    {"or drop a .npy / .json file anywhere on the page", "或把 .npy / .json 文件拖到页面任意处"},
    {"rows sum to 1", "每行之和为 1"},
    {"rows do not sum to 1 (max |row sum − 1| = {0}): not softmax weights, shown as they are",
     "行和不为 1（最大 |行和 − 1| = {0}）：不是 softmax 权重，按原样显示"},
    {"negative values: the colour scale is diverging", "有负值：颜色刻度为发散型"},
    {"layers × heads = {0} × {1}, n = {2}", "层数 × 头数 = {0} × {1}，n = {2}"},
    {"Opening a file needs the web page; in the desktop build use setState with weights.",
     "打开文件需要网页版；桌面版请用 setState 传入 weights。"},
};
}  // namespace

const TrPair* ImportView::strings(size_t* count) { return translation_table(kImportViewStrings, count); }

namespace {

// The colour scale the data calls for: weights in [0, 1] sequential; negative values diverging around 0.
void scale_for(const ImportData& d, MatrixView* v) {
  if (d.negative) {
    const float a = std::max(std::fabs(d.min_value), std::fabs(d.max_value));
    v->scale = ColorScale::Diverging;
    v->lo = -a;
    v->hi = a;
  } else {
    v->scale = ColorScale::Sequential;
    v->lo = 0.f;
    v->hi = std::max(1.f, d.max_value);
  }
}
}  // namespace

ImportView::~ImportView() { heatmap_release(this); }

// The trained example's model: fetched when first asked for (views/checkpoint_fetch.h); from the controls and
// the stage both (an embed may hide the controls).
void ImportView::sync(ViewContext& ctx) { fetch_checkpoint(scene_, ctx.st, &failures_seen_, scene_.data().source == "trained"); }

void ImportView::controls(ViewContext& ctx) {
  sync(ctx);
  const ImportData& d = scene_.data();
  const ImportParams& p = scene_.params();
  ImGui::Spacing();
  if (ImGui::Button((std::string(tr("Open file…")) + "###open").c_str())) {
    if (!platform_pick_file(".npy,.json,application/json")) report(ctx.st, "import", Status::Error("Opening a file needs the web page; in the desktop build use setState with weights."));
  }
  ImGui::SameLine();
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  text_wrapped("%s", tr("or drop a .npy / .json file anywhere on the page"));
  ImGui::PopStyleColor();
  ImGui::Spacing();
  text_wrapped("%s: %s", tr("data from"), scene_.source_label().c_str());
  if (scene_.trained_pending()) ImGui::TextDisabled("%s", tr("Loading the trained model…"));
  ImGui::TextUnformatted(tr_format(N_("layers × heads = {0} × {1}, n = {2}"), {arg(d.w.layers), arg(d.w.heads), arg(d.w.n)}).c_str());
  const float field = ImGui::GetFontSize() * 9.f;
  int layer = p.layer + 1, head = p.head + 1;
  ImGui::BeginDisabled(d.w.layers < 2);
  ImGui::SetNextItemWidth(field);
  if (ImGui::SliderInt((std::string(tr("layer")) + "###layer").c_str(), &layer, 1, std::max(1, d.w.layers)))
    (void)report_result(ctx.st, "layer", scene_.select(layer - 1, p.head));
  ImGui::EndDisabled();
  ImGui::BeginDisabled(d.w.heads < 2);
  ImGui::SetNextItemWidth(field);
  if (ImGui::SliderInt((std::string(tr("head")) + "###head").c_str(), &head, 1, std::max(1, d.w.heads)))
    (void)report_result(ctx.st, "head", scene_.select(scene_.params().layer, head - 1));
  ImGui::EndDisabled();
  ImGui::Spacing();
  ImGui::PushTextWrapPos(0.f);
  if (d.max_row_sum_dev <= 1e-3) {
    ImGui::TextDisabled("%s (max |%s − 1| = %s)", tr("rows sum to 1"), tr("row sum"), fmt(d.max_row_sum_dev, 4).c_str());
  } else {
    ImGui::PushStyleColor(ImGuiCol_Text, flag_color(Flag::Caution));
    text_wrapped("%s", tr_format(N_("rows do not sum to 1 (max |row sum − 1| = {0}): not softmax weights, shown as they are"),
                                             {fmt(d.max_row_sum_dev, 3)}).c_str());
    ImGui::PopStyleColor();
  }
  if (d.negative) ImGui::TextDisabled("%s", tr("negative values: the colour scale is diverging"));
  if (scene_.is_example()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    text_wrapped("%s", tr("Built-in example: the SDPA scene's weights (seeded, not trained), 1 layer × 1 head. Drop your model's attention (.npy or .json) to see real heads."));
    ImGui::PopStyleColor();
  }
  if (d.source != "trained" && !scene_.trained_pending() &&
      ImGui::Button((std::string(tr("A trained model: 2 layers × 2 heads")) + "###trained_example").c_str()))
    (void)report_result(ctx.st, "preset", scene_.load_preset("trained"));
  ImGui::PopTextWrapPos();
  ImGui::Spacing();
  recipes_panel();
}

std::string ImportView::step_text(const ViewContext&) const {
  const ImportData& d = scene_.data();
  const ImportParams& p = scene_.params();
  return tr_format(N_("layer {0} head {1}"), {arg(p.layer + 1), arg(p.head + 1)}) + "  ·  " +
         tr_format(N_("layers × heads = {0} × {1}, n = {2}"), {arg(d.w.layers), arg(d.w.heads), arg(d.w.n)}) + "  ·  max |" + tr("row sum") +
         " − 1| = " + fmt(d.max_row_sum_dev, 4);
}

void ImportView::stage(ViewContext& ctx) {
  sync(ctx);
  if (static_cast<ImportStage>(scene_.timeline.stage()) == ImportStage::Heads) heads_stage(ctx);
  else head_stage(ctx);
}

// A grid of H heatmaps for the chosen layer: as many columns as make the tiles largest; labels when they fit.
void ImportView::heads_stage(ViewContext& ctx) {
  const ImportData& d = scene_.data();
  const ImportParams& p = scene_.params();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float fs = ImGui::GetFontSize(), gap = fs * 0.8f;
  const int H = d.w.heads;
  int best_cols = 1;
  float best = 0.f;
  for (int c = 1; c <= H; ++c) {
    const int r = (H + c - 1) / c;
    const float side = std::min((avail.x - gap * (c - 1)) / c, (avail.y - gap * (r - 1)) / r - fs * 1.6f);
    if (side > best) { best = side; best_cols = c; }
  }
  const float tile_w = (avail.x - gap * (best_cols - 1)) / best_cols;
  const float tile_h = best + fs * 1.6f - fs * 0.4f;  // a margin for the chosen head's outline
  const std::vector<std::string>& labels = scene_.labels();
  const bool with_labels = !labels.empty() && best / std::max(1, d.w.n) >= fs * 0.9f;
  for (int h = 0; h < H; ++h) {
    if (h % best_cols) ImGui::SameLine(0, gap);
    ImGui::BeginGroup();
    ImGui::PushID(h);
    MatrixView v;
    v.m = &d.w.at(p.layer, h);
    v.key = {this, p.layer * H + h, scene_.generation()};
    v.title = tr_format(N_("layer {0} head {1}"), {arg(p.layer + 1), arg(h + 1)});
    v.row_labels = with_labels ? &labels : nullptr;
    v.col_labels = with_labels ? &labels : nullptr;
    v.force_heatmap = true;
    v.max_cell_w = v.max_cell_h = 1e6f;
    scale_for(d, &v);
    const MatrixViewResult r = matrix_view(v, ImVec2(tile_w, tile_h));
    if (h == p.head && H > 1) ImGui::GetWindowDrawList()->AddRect(ImVec2(r.grid_min.x - 2, r.grid_min.y - 2), ImVec2(r.grid_max.x + 2, r.grid_max.y + 2),
                                                         chosen_color(), 3.f, 0, 2.f);
    if (r.hover_i >= 0 && r.hover_j >= 0) {
      ctx.hover_what = h;
      ctx.hover_i = r.hover_i;
      ctx.hover_j = r.hover_j;
    }
    if (r.clicked_i >= 0) {  // open this head large
      (void)report_result(ctx.st, "head", scene_.select(p.layer, h));
      scene_.timeline.set_stage(static_cast<int>(ImportStage::OneHead), true);
    }
    ImGui::PopID();
    ImGui::EndGroup();
  }
}

// The chosen head large, numbered when the cells are big enough, with the colour legend.
void ImportView::head_stage(ViewContext& ctx) {
  const ImportData& d = scene_.data();
  const ImportParams& p = scene_.params();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float fs = ImGui::GetFontSize();
  MatrixView v;
  v.m = &d.w.at(p.layer, p.head);
  v.key = {this, 100000 + p.layer * d.w.heads + p.head, scene_.generation()};
  v.title = tr_format(N_("layer {0} head {1}"), {arg(p.layer + 1), arg(p.head + 1)}) + "   (" + std::to_string(d.w.n) + " × " +
            std::to_string(d.w.n) + ")";
  v.row_labels = &scene_.labels();
  v.col_labels = &scene_.labels();
  if (scene_.labels().empty()) v.row_labels = v.col_labels = nullptr;
  v.decimals = 2;
  scale_for(d, &v);
  const ImVec2 area(avail.x, avail.y - fs * 3.f);
  // The stage promises the numbers: where the automatic layout's cells would be too narrow for them (a phone: 29-px
  // cells), the cells take the small font's number size and the matrix scrolls sideways in its own box.
  const float label_w = v.row_labels ? matrix_label_width(v.row_labels, d.w.n, ctx.fonts.small) : 0.f;
  const bool narrow = d.w.n > 0 && (area.x - label_w) / static_cast<float>(d.w.n) < fs * 2.4f;
  MatrixViewResult r;
  if (narrow) {
    const ImVec2 cell = matrix_number_cell(ctx.fonts.small, v.decimals);
    v.font = ctx.fonts.small;
    v.cell_w = cell.x;
    v.cell_h = cell.y * 1.25f;
    v.numbers = 1;
    ImGui::BeginChild("head_numbers", area, false, ImGuiWindowFlags_HorizontalScrollbar);
    r = matrix_view(v, ImGui::GetContentRegionAvail());
    ImGui::EndChild();
  } else {
    r = matrix_view(v, area);
  }
  if (r.hover_i >= 0 && r.hover_j >= 0) {
    ctx.hover_what = p.head;
    ctx.hover_i = r.hover_i;
    ctx.hover_j = r.hover_j;
  }
  color_legend(v.scale, v.lo, v.hi, std::min(avail.x, fs * 16.f), tr("attention weights A"));
}

}  // namespace ap
