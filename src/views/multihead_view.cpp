// View of the scene "Multi-head attention": the controls (random or trained weights, sentence, d_model, h, mask,
// seed; with trained weights what each head learned, as measured) and, stage by stage,
// X split into every head's Q_i, K_i, V_i; a grid of the h heads' weights with token labels; the concatenation,
// W^O and the output; the parameter count over every h and each head's measured focus. It draws what the scene
// holds (core/multihead.h); it computes nothing.
#include "views/multihead_view.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "app/i18n.h"
#include "core/number_text.h"
#include "platform/platform.h"
#include "platform/text_field.h"
#include "views/checkpoint_fetch.h"
#include "views/head_patterns_list.h"
#include "views/train_panel.h"
#include "views/weights_choice.h"
#include "widgets/colormap.h"
#include "widgets/math_text.h"
#include "widgets/matrix_view.h"
#include "widgets/section.h"
#include "widgets/seed_input.h"
#include "widgets/tooltip.h"
#include "widgets/text_fit.h"
#include "widgets/table_headers.h"

namespace ap {

namespace {
// The strings this view draws (its scene's own, for getState and errors, are in app/scenes/multihead_scene.cpp).
const TrPair kMultiheadViewStrings[] = {
    {"Weights are seeded, not trained: heads do not specialise without training. The scene shows the mechanism.",
     "权重是随机种子生成的，没有训练：不经训练，各头不会各有专长。本场景展示的是机制。"},
    {"heads h", "头数 h"},
    {"max weight", "最大权重"},
    {"parameter count", "参数量"},
    {"this layer", "当前层"},
    {"each head's focus (measured)", "每个头的关注（实测）"},
    {"mean entropy (nats)", "平均熵（nat）"},
    {"mean max weight", "平均最大权重"},
    {"top key of", "最关注的 key："},
    {"the same for every h", "对每个 h 都相同"},
    {"Notice: head {0} is the sharpest (its rows put {1} on their top key on average), head {2} the flattest (entropy {3} nats; spread evenly over the {4} tokens it would be {5}).",
     "注意：头 {0} 最集中（它的各行平均把 {1} 放在最关注的 key 上），头 {2} 最分散（熵 {3} 奈特；平均分给 {4} 个词时为 {5}）。"},
    {"W^Q, W^K, W^V: h × (d_model × d_k) each; W^O: (h·d_k) × d_model", "W^Q、W^K、W^V：各为 h × (d_model × d_k)；W^O：(h·d_k) × d_model"},
    {"Click a row to show that h.", "点击一行即可显示该 h。"},
    {"No [PAD] tokens: the padding mask hides nothing. Type [PAD] in the sentence.",
     "没有 [PAD]：填充掩码什么也没遮住。请在句子里输入 [PAD]。"},
    {"Width of each token's embedding x_i; h must divide it", "每个 token 嵌入向量 x_i 的维度；必须能被 h 整除"},
    {"Number of heads; d_k = d_model / h", "头的数量；d_k = d_model / h"},
    {"trained (naming the referent)", "训练过的（说出指代对象）"},
    {"X and every W (biases included) are the trained layer's: nothing told the heads what to read; the list below is what each reads, measured on every held-out sentence.",
     "X 和所有 W（含偏置）都来自训练好的层：没有人告诉各头该读什么；下面列出的是在所有留出句子上实测的每个头读什么。"},
    {"Try \"tired\" → \"wide\": the heads' rows at \"it\" follow the adjective.", "试试把 \"tired\" 改成 \"wide\"：各头在 \"it\" 这一行的权重会随形容词变化。"},
};
}  // namespace

const TrPair* MultiheadView::strings(size_t* count) { return translation_table(kMultiheadViewStrings, count); }

namespace {

constexpr ImU32 kHeadLine = IM_COL32(40, 40, 48, 255);

void hover_from(ViewContext& ctx, const MatrixViewResult& r, int what) {
  if (r.hover_i < 0 || r.hover_j < 0) return;
  ctx.hover_what = what;
  ctx.hover_i = r.hover_i;
  ctx.hover_j = r.hover_j;
}

}  // namespace

MultiheadView::~MultiheadView() { heatmap_release(this); }

// A new model from outside the controls (page API, preset, link): the fields show it. The checkpoint a trained
// view waits for is fetched from here, which the stage calls too (on a phone the controls may be hidden).
void MultiheadView::sync(ViewContext& ctx) {
  fetch_checkpoint(scene_, ctx.st, &failures_seen_, scene_.model().trained);
  edit_.sync(scene_);
}

void MultiheadView::apply(ViewContext& ctx, const char* key) { (void)edit_.submit(ctx.st, scene_, key); }

// Which weights: seeded ("random, seed s") or the layer of the build's heads experiment (the checkpoint is
// fetched the first time); the label says which, measured, never typed.
void MultiheadView::weights_controls(ViewContext& ctx) {
  bool trained = false;
  // One per line: the trained one's name is long for the controls' width.
  if (weights_radios(tr("trained (naming the referent)"), scene_.trained_pending() || scene_.params().trained, false, &trained)) {
    MultiheadParams p = scene_.params();
    p.trained = trained;
    if (p.trained) p.text = kTrainedSentence;  // the task's words (the scene fixes the shapes)
    (void)report_result(ctx.st, "weights", scene_.apply(p));
    edit_.forget();
  }
  weights_label_line(scene_.trained_pending(), scene_.weights_label());
  if (scene_.model().trained) training_panel(ctx, scene_.training(), scene_.training_error(), &train_edit_, "multihead");
}

void MultiheadView::controls(ViewContext& ctx) {
  sync(ctx);
  const float fs = ImGui::GetFontSize();
  const bool trained = scene_.model().trained;
  weights_controls(ctx);
  edit_.release_fields({"##text"});
  ImGui::Spacing();
  ImGui::TextUnformatted(tr("Sentence"));
  ImGui::SetNextItemWidth(-1);
  TextFieldOptions o;
  o.max_bytes = 2047;
  o.accessible_name = tr("Sentence");
  if (text_field("##text", &edit_.p.text, o)) apply(ctx, "text");
  const float field = fs * 7.f;
  ImGui::BeginDisabled(trained);  // the trained layer fixes these (the scene refuses other values)
  ImGui::SetNextItemWidth(field);
  if (ImGui::InputInt("d_model###d_model", &edit_.p.d_model, 8, 64)) apply(ctx, "d_model");
  if (ImGui::IsItemHovered()) tooltip("%s", tr("Width of each token's embedding x_i; h must divide it"));
  ImGui::SetNextItemWidth(field);
  if (ImGui::InputInt((std::string(tr("heads h")) + "###h").c_str(), &edit_.p.h, 1, 1)) apply(ctx, "h");
  if (ImGui::IsItemHovered()) tooltip("%s", tr("Number of heads; d_k = d_model / h"));
  for (int h : {1, 2, 4, 8, 16}) {  // the usual head counts in one click
    if (h > 1) ImGui::SameLine();
    const bool on = scene_.params().h == h;
    if (on) ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
    if (ImGui::SmallButton(("h=" + std::to_string(h) + "###hq" + std::to_string(h)).c_str())) {
      edit_.p.h = h;
      apply(ctx, "h");
    }
    if (on) ImGui::PopStyleColor();
  }
  ImGui::TextUnformatted(tr("mask"));
  ImGui::SameLine();
  for (MaskKind k : {MaskKind::None, MaskKind::Padding, MaskKind::Causal}) {
    if (k != MaskKind::None) ImGui::SameLine();
    if (ImGui::RadioButton((std::string(tr(mask_name(k))) + "###mask_" + mask_name(k)).c_str(), edit_.p.mask == k)) {
      edit_.p.mask = k;
      apply(ctx, "mask");
    }
  }
  if (seed_input(tr("seed"), "seed", &edit_.p.seed, field)) {  // the seeded weights' (the trained layer has none)
    apply(ctx, "seed");
  }
  ImGui::EndDisabled();
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  if (trained) {
    text_wrapped("%s", tr("X and every W (biases included) are the trained layer's: nothing told the heads what to read; the list below is what each reads, measured on every held-out sentence."));
    text_wrapped("%s", tr("Try \"tired\" → \"wide\": the heads' rows at \"it\" follow the adjective."));
  } else {
    text_wrapped("%s", tr("Weights are seeded, not trained: heads do not specialise without training. The scene shows the mechanism."));
  }
  if (scene_.params().mask == MaskKind::Padding && scene_.model().pad_count == 0)
    text_wrapped("%s", tr("No [PAD] tokens: the padding mask hides nothing. Type [PAD] in the sentence."));
  ImGui::PopStyleColor();
  if (trained) {
    section_heading(tr("What each head learned"));
    head_patterns_caption();
    if (scene_.head_patterns().empty()) ImGui::TextDisabled("%s", tr("Measured when the run ends, on all held-out sentences."));
    else head_patterns_list(scene_.head_patterns());
  }
}

std::string MultiheadView::step_text(const ViewContext&) const {
  const MultiheadModel& m = scene_.model();
  const MultiheadParams& p = scene_.params();
  const int n = m.n(), h = m.weights.heads, dk = m.d_k();
  char buf[320];
  switch (static_cast<MultiheadStage>(scene_.timeline.stage())) {
    case MultiheadStage::Split:
      std::snprintf(buf, sizeof buf, "d_k = d_model / h = %d / %d = %d   ·   X: %d × %d  →  Q_i, K_i, V_i: %d × %d,  i = 1 … %d", p.d_model, h, dk, n,
                    p.d_model, n, dk, h);
      return buf;
    case MultiheadStage::Heads: {
      const int k = std::min(scene_.timeline.stage_complete() ? h - 1 : scene_.timeline.done_substeps(), h - 1);
      const HeadFocus& f = m.focus[static_cast<size_t>(k)];
      std::snprintf(buf, sizeof buf, "%s %d / %d:  %s %s,  %s %s", tr("head"), k + 1, h, tr("mean entropy (nats)"), fmt(f.mean_entropy, 3).c_str(),
                    tr("mean max weight"), fmt(f.mean_max_weight, 3).c_str());
      return buf;
    }
    case MultiheadStage::Concat:
      std::snprintf(buf, sizeof buf, "Concat: %d × (%d·%d) = %d × %d   ·   W^O: %d × %d   →   %s: %d × %d", n, h, dk, n, h * dk,
                    static_cast<int>(m.weights.Wo.rows()), static_cast<int>(m.weights.Wo.cols()), tr("output"), n, p.d_model);
      return buf;
    case MultiheadStage::Params:
    default:
      if (m.count.biases > 0)  // a trained layer: its biases counted too
        std::snprintf(buf, sizeof buf, "%s: 3 · %d · (%d × %d) + %d × %d + %lld %s = %lld   ·   4 · %d² + 4 · %d = %lld", tr("parameter count"), h,
                      p.d_model, dk, static_cast<int>(m.weights.Wo.rows()), static_cast<int>(m.weights.Wo.cols()), m.count.biases, tr("biases"),
                      m.count.total(), p.d_model, p.d_model, 4LL * p.d_model * p.d_model + 4LL * p.d_model);
      else
        std::snprintf(buf, sizeof buf, "%s: 3 · %d · (%d × %d) + %d × %d = %lld   ·   4 · %d² = %lld", tr("parameter count"), h, p.d_model, dk,
                      static_cast<int>(m.weights.Wo.rows()), static_cast<int>(m.weights.Wo.cols()), m.count.total(), p.d_model,
                      4LL * p.d_model * p.d_model);
      return buf;
  }
}

void MultiheadView::stage(ViewContext& ctx) {
  sync(ctx);
  switch (static_cast<MultiheadStage>(scene_.timeline.stage())) {
    case MultiheadStage::Split: split_stage(ctx); break;
    case MultiheadStage::Heads: heads_stage(ctx); break;
    case MultiheadStage::Concat: concat_stage(ctx); break;
    case MultiheadStage::Params:
    default: params_stage(ctx); break;
  }
}

// Stage 1: X on the left; on the right Q, K and V as h blocks of n × d_k side by side, one per head.
void MultiheadView::split_stage(ViewContext& ctx) {
  const MultiheadModel& m = scene_.model();
  const MultiHeadTrace& t = m.trace;
  const float fs = ImGui::GetFontSize();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const int n = m.n(), h = m.weights.heads, dk = m.d_k(), d = static_cast<int>(m.X.cols());
  // X beside the strips; on a phone (compact) above them, across the whole width (beside them its 16
  // columns had 2 px each at 390 px).
  const bool stacked = ctx.compact;
  const float x_w = stacked ? avail.x : std::min(avail.x * 0.36f, fs * 24.f), gap = fs * 0.6f;
  const float x_h = stacked ? std::max(fs * 6.f, avail.y * 0.3f) : avail.y - fs;
  // X: n × d_model, with the tokens.
  ImGui::BeginGroup();
  MatrixView xv;
  xv.m = &m.X;
  xv.key = {this, 0, scene_.generation()};
  xv.title = "X   (" + std::to_string(n) + " × " + std::to_string(d) + ")";
  xv.row_labels = &m.tokens;
  xv.lo = -symmetric_range({&m.X});
  xv.hi = -xv.lo;
  xv.force_heatmap = d > 8;
  if (xv.force_heatmap) {  // wide X: cells as wide as the width allows, rows at least a line of text tall
    xv.square = false;
    xv.max_cell_w = std::min(fs * 1.625f, (x_w - fs * 6.f) / d);
    xv.max_cell_h = std::max(xv.max_cell_w, fs + 2.f);
  }
  hover_from(ctx, matrix_view(xv, ImVec2(x_w, x_h)), multihead_hover_id(MultiheadItem::X));
  ImGui::EndGroup();
  if (stacked) ImGui::Dummy(ImVec2(1, fs * 0.3f));
  else ImGui::SameLine(0, fs * 1.5f);
  // Q, K, V: one strip each, split into the heads' blocks. One cell size for all blocks, at least about a
  // third of a line tall: a short area (an 800×480 embed, a phone held sideways) scrolls the stage instead.
  const float right_w = ImGui::GetContentRegionAvail().x - fs * 0.5f;
  const float title_h = fs + 4.f;
  const float strips_h = stacked ? ImGui::GetContentRegionAvail().y : avail.y;
  const float strip_h = (strips_h - fs * 2.5f) / 3.f;
  const float cell_w = std::max(0.5f, std::min(fs * 1.625f, (right_w - gap * (h - 1)) / std::max(1, d)));
  const float cell_h = std::max(std::min(fs * 0.35f, 48.f / std::max(1, n)), std::min(fs * 1.625f, (strip_h - title_h - fs * 0.4f) / std::max(1, n)));
  ImGui::BeginGroup();
  const MultiheadItem items[] = {MultiheadItem::Q, MultiheadItem::K, MultiheadItem::V};
  const std::vector<Mat>* mats[] = {&t.Q, &t.K, &t.V};
  const char* names[] = {"Q", "K", "V"};
  for (int s = 0; s < 3; ++s) {
    std::vector<const Mat*> all;
    for (const Mat& q : *mats[s]) all.push_back(&q);
    const float range = symmetric_range(all);
    for (int k = 0; k < h; ++k) {
      if (k > 0) ImGui::SameLine(0, gap);
      MatrixView v;
      v.m = &(*mats[s])[static_cast<size_t>(k)];
      v.key = {this, 10 + s * 20 + k, scene_.generation()};
      v.title = k == 0 || dk * cell_w >= fs * 2.2f ? std::string(names[s]) + subscript(k + 1) : "";
      if (k == 0) v.title += "  (" + std::to_string(n) + " × " + std::to_string(dk) + ")";
      v.lo = -range;
      v.hi = range;
      v.force_heatmap = true;
      v.square = false;
      v.max_cell_w = cell_w;
      v.max_cell_h = cell_h;
      // Titles may be wider than a narrow block: the block's own width is what the next one follows.
      ImGui::BeginGroup();
      const MatrixViewResult r = matrix_view(v, ImVec2(cell_w * dk, title_h + cell_h * n));
      ImGui::EndGroup();
      hover_from(ctx, r, multihead_hover_id(items[s], k));
    }
    ImGui::Dummy(ImVec2(1, fs * 0.4f));
  }
  ImGui::EndGroup();
}

// Stage 2: a grid of the h heads' n × n weights (tokens on the rows); heads not yet computed wait in grey.
void MultiheadView::heads_stage(ViewContext& ctx) {
  const MultiheadModel& m = scene_.model();
  const float fs = ImGui::GetFontSize();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const int n = m.n(), h = m.weights.heads;
  const bool complete = scene_.timeline.stage_complete();
  const int shown = complete ? h : scene_.timeline.done_substeps();  // heads whose weights are computed
  const int q = scene_.focus_query();
  float label_w = 0;
  for (const auto& s : m.tokens) label_w = std::max(label_w, ImGui::CalcTextSize(s.c_str()).x);
  label_w = std::min(label_w + 8.f, fs * 6.f);
  const float title_h = fs + 4.f, foot_h = 2.f * ImGui::GetTextLineHeightWithSpacing() + fs * 0.5f, gap = fs;
  // The column count that gives the largest cells. Each tile is its title, the column labels (written
  // upwards when a cell is narrower than a label: their height depends on the cell), n cells and two lines.
  const auto header_for = [&](float cell) { return matrix_header_height(&m.tokens, n, cell, nullptr); };
  int best_cols = 1;
  float best_cell = 0;
  for (int c = 1; c <= h; ++c) {
    const int r = (h + c - 1) / c;
    const float cw = (avail.x - fs * 0.8f - gap * (c - 1)) / c - label_w, ch = (avail.y - r * (title_h + foot_h) - (r - 1) * fs * 0.3f) / r;
    const float first = std::min(cw, ch) / std::max(1, n);
    const float cell = std::min(cw, ch - header_for(first)) / std::max(1, n);
    if (cell > best_cell) { best_cell = cell; best_cols = c; }
  }
  const float cell = std::max(0.5f, std::min(best_cell, fs * 2.2f));
  const float header_h = header_for(cell);
  for (int k = 0; k < h; ++k) {
    if (k % best_cols != 0) ImGui::SameLine(0, gap);
    ImGui::BeginGroup();
    const AttentionTrace& a = m.trace.heads[static_cast<size_t>(k)];
    MatrixView v;
    v.m = &a.weights();
    v.key = {this, 100 + k, scene_.generation()};
    v.title = "head" + subscript(k + 1) + "  (" + std::to_string(n) + " × " + std::to_string(n) + ")";
    v.row_labels = &m.tokens;
    v.col_labels = &m.tokens;
    v.scale = ColorScale::Sequential;
    v.lo = 0.f;
    v.hi = 1.f;
    v.reveal = k < shown ? 1e18 : 0;
    v.max_cell_w = v.max_cell_h = cell;
    v.square = true;
    v.force_heatmap = true;
    v.keep_row = q;  // the query reported below keeps its label (outlined here, not highlighted)
    const MatrixViewResult r = matrix_view(v, ImVec2(label_w + cell * n, title_h + header_h + cell * n));
    if (k < shown && q >= 0)  // the query whose choice is reported below
      ImGui::GetWindowDrawList()->AddRect(ImVec2(r.grid_min.x - 1, r.grid_min.y + q * r.cell_h - 1),
                                          ImVec2(r.grid_max.x + 1, r.grid_min.y + (q + 1) * r.cell_h + 1), chosen_color(), 0, 0, 2.f);
    if (!complete && k == shown && k < h)  // the head being computed
      ImGui::GetWindowDrawList()->AddRect(ImVec2(r.grid_min.x - 3, r.grid_min.y - 3), ImVec2(r.grid_max.x + 3, r.grid_max.y + 3), chosen_color(), 3.f, 0, 2.f);
    hover_from(ctx, r, multihead_hover_id(MultiheadItem::Weights, k));
    if (k < shown) {
      const HeadFocus& f = m.focus[static_cast<size_t>(k)];
      ImGui::TextDisabled("%s %s · %s %s", tr("entropy"), fmt(f.mean_entropy, 2).c_str(), tr("max weight"), fmt(f.mean_max_weight, 2).c_str());
      const int top = q >= 0 ? f.top_key[static_cast<size_t>(q)] : -1;
      const std::vector<train::HeadPattern>& learned = scene_.head_patterns();
      const std::string reads = m.trained && k < static_cast<int>(learned.size())  // measured on held-out sentences
                                    ? std::string("   ·   ") + tr("reads") + " " + train::head_relation(learned[static_cast<size_t>(k)], tr)
                                    : std::string();
      ImGui::TextDisabled("“%s” → “%s”%s", m.tokens[static_cast<size_t>(q)].c_str(), top >= 0 ? m.tokens[static_cast<size_t>(top)].c_str() : "—",
                          reads.c_str());
    } else {
      ImGui::TextDisabled("%s", tr("not computed yet"));
      ImGui::TextDisabled(" ");
    }
    ImGui::EndGroup();
  }
}

// Stage 3: Concat (n × h·d_k, the heads' columns marked) · W^O (d_model × d_model) = output (n × d_model).
void MultiheadView::concat_stage(ViewContext& ctx) {
  const MultiheadModel& m = scene_.model();
  const MultiHeadTrace& t = m.trace;
  const float fs = ImGui::GetFontSize();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const int n = m.n(), h = m.weights.heads, dk = m.d_k(), d = static_cast<int>(t.concat.cols());
  float label_w = 0;
  for (const auto& s : m.tokens) label_w = std::max(label_w, ImGui::CalcTextSize(s.c_str()).x);
  label_w = std::min(label_w + 8.f, fs * 6.f);
  const float op_w = fs * 2.f, title_h = fs + 4.f;
  // Side by side; on a phone held upright (compact) one above the other, each the screen's width (side by side,
  // the three were slivers over half the stage).
  const bool stacked = ctx.compact;
  const float cell = stacked ? std::max(0.3f, std::min(fs * 1.625f, (avail.x - label_w - fs) / std::max(1, d)))
                             : std::max(0.3f, std::min({fs * 1.625f, (avail.x - label_w - 2 * op_w - fs) / (3.f * std::max(1, d)),
                                                        (avail.y - title_h - fs * 3.f) / std::max(1, std::max(n, d))}));
  // Concat and output rows: at least a line of text tall (their n rows stay legible when d_model is large).
  const float row_h = stacked ? std::min(fs * 1.625f, std::max(cell, fs + 2.f))
                              : std::min({fs * 1.625f, std::max(cell, fs + 2.f), (avail.y - title_h - fs * 3.f) / std::max(1, n)});
  const float range = symmetric_range({&t.concat, &t.output});
  const auto op = [&](const char* s, float rows_h) {
    if (stacked) {  // the operator on a line of its own, between the two matrices
      ImGui::PushFont(ctx.fonts.formula);
      ImGui::TextUnformatted(s);
      ImGui::PopFont();
      return;
    }
    ImGui::SameLine(0, 0);
    const ImVec2 o = ImGui::GetCursorScreenPos();
    const ImVec2 ts = ImGui::CalcTextSize(s);
    const float big = fs * 1.6f;
    ImGui::GetWindowDrawList()->AddText(nullptr, big, ImVec2(o.x + (op_w - ts.x * 1.6f) * 0.5f, o.y + title_h + (rows_h - ts.y * 1.6f) * 0.5f),
                                        ImGui::GetColorU32(ImGuiCol_Text), s);
    ImGui::Dummy(ImVec2(op_w, 1));
    ImGui::SameLine(0, 0);
  };
  // Concat, with a line between heads and each head's number under its columns.
  ImGui::BeginGroup();
  MatrixView cv;
  cv.m = &t.concat;
  cv.key = {this, 200, scene_.generation()};
  cv.title = "Concat  (" + std::to_string(n) + " × " + std::to_string(h) + "·" + std::to_string(dk) + ")";
  cv.row_labels = &m.tokens;
  cv.lo = -range;
  cv.hi = range;
  cv.force_heatmap = true;
  cv.square = false;
  cv.max_cell_w = cell;
  cv.max_cell_h = row_h;
  const MatrixViewResult cr = matrix_view(cv, ImVec2(label_w + cell * d, title_h + row_h * n));
  hover_from(ctx, cr, multihead_hover_id(MultiheadItem::Concat));
  ImDrawList* dl = ImGui::GetWindowDrawList();
  for (int k = 0; k < h; ++k) {
    const float x0 = cr.grid_min.x + k * dk * cr.cell_w, x1 = x0 + dk * cr.cell_w;
    if (k > 0) dl->AddLine(ImVec2(x0, cr.grid_min.y - 2), ImVec2(x0, cr.grid_max.y + 2), kHeadLine, 1.5f);
    const std::string lab = std::to_string(k + 1);
    const float w = ImGui::CalcTextSize(lab.c_str()).x;
    if (x1 - x0 >= w + 2.f) dl->AddText(ImVec2((x0 + x1 - w) * 0.5f, cr.grid_max.y + 2), ImGui::GetColorU32(ImGuiCol_TextDisabled), lab.c_str());
  }
  ImGui::Dummy(ImVec2(1, fs + 2));
  ImGui::TextDisabled("%s 1 … %d", tr("head"), h);
  ImGui::EndGroup();
  op("·", row_h * n);
  // W^O
  ImGui::BeginGroup();
  MatrixView wv;
  wv.m = &m.weights.Wo;
  wv.key = {this, 201, scene_.generation()};
  wv.title = "W^O  (" + std::to_string(m.weights.Wo.rows()) + " × " + std::to_string(m.weights.Wo.cols()) + ")";
  wv.lo = -symmetric_range({&m.weights.Wo});
  wv.hi = -wv.lo;
  wv.force_heatmap = true;
  wv.max_cell_w = wv.max_cell_h = cell;
  hover_from(ctx, matrix_view(wv, ImVec2(cell * d, title_h + cell * d)), multihead_hover_id(MultiheadItem::Wo));
  ImGui::EndGroup();
  op("=", row_h * n);
  // output
  ImGui::BeginGroup();
  MatrixView ov;
  ov.m = &t.output;
  ov.key = {this, 202, scene_.generation()};
  ov.title = std::string(tr("output")) + "  (" + std::to_string(n) + " × " + std::to_string(t.output.cols()) + ")";
  ov.lo = -range;
  ov.hi = range;
  ov.force_heatmap = true;
  ov.square = false;
  ov.max_cell_w = cell;
  ov.max_cell_h = row_h;
  hover_from(ctx, matrix_view(ov, ImVec2(cell * t.output.cols(), title_h + row_h * n)), multihead_hover_id(MultiheadItem::Output));
  ImGui::EndGroup();
}

// Stage 4: the parameter count of every h (each layer built and counted), and each head's measured focus.
void MultiheadView::params_stage(ViewContext& ctx) {
  const MultiheadModel& m = scene_.model();
  const MultiheadParams& p = scene_.params();
  const float fs = ImGui::GetFontSize();
  const long long want = 4LL * p.d_model * p.d_model;
  ImGui::TextUnformatted(tr("parameter count"));
  ImGui::SameLine();
  ImGui::TextDisabled("(%s)", tr("Click a row to show that h."));
  const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp;
  const int d = p.d_model;
  // On a narrow stage (a phone) the cells give the counts alone, the products once below the table; the h and
  // d_k columns keep the width of their widest entry ("h = 16" was cut to "h = 1" on a phone).
  const bool narrow = ImGui::GetContentRegionAvail().x < fs * 44.f;
  if (ImGui::BeginTable("params", 7, flags)) {
    const char* cols[] = {"h", "d_k", "W^Q", "W^K", "W^V", "W^O", nullptr};
    const float pad = ImGui::GetStyle().CellPadding.x * 2.f;
    for (const char* c : cols) {
      if (c == cols[0] || c == cols[1])
        ImGui::TableSetupColumn(c, ImGuiTableColumnFlags_WidthFixed, ImGui::CalcTextSize(c == cols[0] ? "h = 888" : "888").x + pad);
      else
        ImGui::TableSetupColumn(c ? c : tr("total"));
    }
    table_headers_wrapped();
    for (const MultiHeadParamCount& c : m.table) {
      ImGui::TableNextRow();
      const bool chosen = c.heads == m.weights.heads;
      if (chosen) ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg0, chosen_fill());
      ImGui::TableNextColumn();
      if (ImGui::Selectable(("h = " + std::to_string(c.heads) + "###row_h" + std::to_string(c.heads)).c_str(), chosen, ImGuiSelectableFlags_SpanAllColumns)) {
        edit_.p = p;
        edit_.p.h = c.heads;
        apply(ctx, "h");
      }
      ImGui::TableNextColumn();
      ImGui::Text("%d", c.d_head);
      for (long long v : {c.wq, c.wk, c.wv}) {
        ImGui::TableNextColumn();
        if (narrow) ImGui::Text("%lld", v);
        else ImGui::Text("%d × (%d × %d) = %lld", c.heads, d, c.d_head, v);
      }
      ImGui::TableNextColumn();
      if (narrow) ImGui::Text("%lld", c.wo);
      else ImGui::Text("(%d·%d) × %d = %lld", c.heads, c.d_head, d, c.wo);
      ImGui::TableNextColumn();
      if (c.total() == want) ImGui::Text("%lld", c.total());
      else ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(flag_color(Flag::Bad)), "%lld", c.total());
    }
    ImGui::EndTable();
  }
  if (narrow) {
    ImGui::PushTextWrapPos(0.f);
    ImGui::TextDisabled("%s", tr("W^Q, W^K, W^V: h × (d_model × d_k) each; W^O: (h·d_k) × d_model"));
    ImGui::PopTextWrapPos();
  }
  bool all_equal = !m.table.empty();
  for (const MultiHeadParamCount& c : m.table) all_equal = all_equal && c.total() == want;
  ImGui::Text("4 · d_model² = 4 · %d² = %lld   %s", d, want, all_equal ? (std::string("= ") + tr("the same for every h")).c_str() : "!=");
  if (m.count.biases > 0)  // the trained layer adds its biases (the table counts seeded layers, which have none)
    ImGui::Text("%s: %lld + %lld %s = %lld", tr("this layer"), m.count.total() - m.count.biases, m.count.biases, tr("biases"), m.count.total());
  ImGui::Spacing();
  // Each head's focus: what is measured differs between heads (by chance with seeded weights; learned when trained).
  const int q = scene_.focus_query();
  ImGui::TextUnformatted(tr("each head's focus (measured)"));
  const float ln_n = std::log(static_cast<float>(std::max(2, m.n())));  // the entropy of a row spread evenly (the bars' scale)
  const float table_w = ImGui::GetContentRegionAvail().x;
  if (ImGui::BeginTable("focus", 4, flags)) {
    const std::string top_key = std::string(tr("top key of")) + " “" + m.tokens[static_cast<size_t>(q)] + "”";
    table_setup_columns({{tr("head"), 0.5f}, {tr("mean entropy (nats)"), 1.5f}, {tr("mean max weight"), 1.5f}, {top_key.c_str(), 1.f}}, table_w);
    table_headers_wrapped();
    for (size_t k = 0; k < m.focus.size(); ++k) {
      const HeadFocus& f = m.focus[k];
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::AlignTextToFramePadding();  // on the line of the bars' numbers (the last column was below them)
      ImGui::Text("%zu", k + 1);
      ImGui::TableNextColumn();
      ImGui::ProgressBar(static_cast<float>(f.mean_entropy) / ln_n, ImVec2(-1, fs * 1.1f), fmt(f.mean_entropy, 3).c_str());
      ImGui::TableNextColumn();
      ImGui::ProgressBar(static_cast<float>(f.mean_max_weight), ImVec2(-1, fs * 1.1f), fmt(f.mean_max_weight, 3).c_str());
      ImGui::TableNextColumn();
      const int top = f.top_key[static_cast<size_t>(q)];
      ImGui::Text("%s", top >= 0 ? m.tokens[static_cast<size_t>(top)].c_str() : "—");
    }
    ImGui::EndTable();
  }
  ImGui::PushTextWrapPos(0.f);
  // What to notice, read off the table just drawn: the sharpest and the flattest head, against uniform (ln n).
  if (m.focus.size() >= 2 && m.n() >= 2) {
    size_t sharp = 0, flat = 0;
    for (size_t k = 1; k < m.focus.size(); ++k) {
      if (m.focus[k].mean_max_weight > m.focus[sharp].mean_max_weight) sharp = k;
      if (m.focus[k].mean_entropy > m.focus[flat].mean_entropy) flat = k;
    }
    text_wrapped("%s", tr_format(N_("Notice: head {0} is the sharpest (its rows put {1} on their top key on average), head {2} the flattest (entropy {3} nats; spread evenly over the {4} tokens it would be {5})."),
                                             {std::to_string(sharp + 1), fmt(m.focus[sharp].mean_max_weight, 3), std::to_string(flat + 1),
                                              fmt(m.focus[flat].mean_entropy, 3), std::to_string(m.n()), fmt(ln_n, 3)}).c_str());
  }
  if (!m.trained) ImGui::TextDisabled("%s", tr("Weights are seeded, not trained: heads do not specialise without training. The scene shows the mechanism."));
  ImGui::PopTextWrapPos();
}

}  // namespace ap
