// View of the scene "Scaled dot-product attention": the flow strip, the scene's controls (sentence or
// hand-set Q, K, V, sizes, seed, mask), the stage view (the matrices of the current stage along the flow
// Q, Kᵀ → QKᵀ → ÷√dₖ → mask → softmax → ×V → output, revealed as the timeline advances) and the cell editor.
// It reads the SdpaScene's model (computed by src/core) and its timeline; it computes nothing.
#include <imgui.h>
#include <imgui_internal.h>  // ClearActiveID, for the touch-screen prompt

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "app/cell_text.h"
#include "app/scenes/sdpa_scene.h"
#include "core/tokenizer.h"
#include "platform/platform.h"
#include "platform/text_field.h"
#include "views/sdpa_view.h"
#include "widgets/heatmap.h"
#include "widgets/math_text.h"
#include "widgets/matrix_view.h"
#include "widgets/section.h"

namespace ap {

namespace {

std::string dims(const char* name, const Mat& m) {
  return std::string(name) + "  " + std::to_string(m.rows()) + "×" + std::to_string(m.cols());
}


Mat resized(const Mat& a, int rows, int cols) {
  Mat b = Mat::Zero(rows, cols);
  const int r = std::min<int>(rows, static_cast<int>(a.rows())), c = std::min<int>(cols, static_cast<int>(a.cols()));
  b.topLeftCorner(r, c) = a.topLeftCorner(r, c);
  return b;
}

void relabel(std::vector<std::string>* labels, int count, const char* prefix) {
  while (static_cast<int>(labels->size()) > count) labels->pop_back();
  while (static_cast<int>(labels->size()) < count) labels->push_back(prefix + std::to_string(labels->size() + 1));
}

// A size stepper: "−  [value]  +", changing one dimension of the hand-edited matrices.
bool size_stepper(const char* label, int value, int lo, int hi, int* out) {
  ImGui::PushID(label);
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(label);
  ImGui::SameLine(ImGui::GetFontSize() * 3.2f);
  bool changed = false;
  if (ImGui::Button("−") && value > lo) { *out = value - 1; changed = true; }
  ImGui::SameLine(0, 4);
  ImGui::Text("%3d", value);
  ImGui::SameLine(0, 4);
  if (ImGui::Button("+") && value < hi) { *out = value + 1; changed = true; }
  ImGui::PopID();
  return changed;
}

// The tokens as small chips, wrapped to the panel: what the tokenizer made of the sentence.
void token_chips(const std::vector<std::string>& tokens, int max_shown) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  const float h = ImGui::GetFontSize() + 4.f, pad = 4.f, gap = 3.f;
  ImVec2 p = ImGui::GetCursorScreenPos();
  const float x0 = p.x;
  const int shown = std::min<int>(max_shown, static_cast<int>(tokens.size()));
  for (int i = 0; i <= shown; ++i) {
    const std::string t = i < shown ? tokens[i] : "+" + std::to_string(tokens.size() - shown);
    if (i == shown && shown == static_cast<int>(tokens.size())) break;
    const float w = ImGui::CalcTextSize(t.c_str()).x + 2 * pad;
    if (p.x + w > right && p.x > x0) { p.x = x0; p.y += h + gap; }
    const bool pad_token = t == kPadToken;
    dl->AddRectFilled(p, ImVec2(p.x + w, p.y + h), pad_token ? IM_COL32(215, 215, 220, 255) : IM_COL32(225, 233, 250, 255), 4.f);
    dl->AddText(ImVec2(p.x + pad, p.y + 2), ImGui::GetColorU32(ImGuiCol_Text), t.c_str());
    p.x += w + gap;
  }
  ImGui::SetCursorScreenPos(ImVec2(x0, p.y + h + gap));
  ImGui::Dummy(ImVec2(0, 0));
}

// Parses the whole string as a finite number ("1.5", "-2e-3", " 4 "); false for "abc", "NaN", "1x", "",
// and for values past the core's limit, checked before the conversion to float.
bool parse_number(const char* s, float* out) {
  char* end = nullptr;
  const double v = std::strtod(s, &end);
  if (end == s) return false;
  while (*end == ' ' || *end == '\t') ++end;
  if (*end != '\0' || !std::isfinite(v) || std::fabs(v) > limits::kMaxAbsValue) return false;
  *out = static_cast<float>(v);
  return true;
}

MatrixView view(const Mat& m, std::string title, const std::vector<std::string>* rows,
                const std::vector<std::string>* cols, ColorScale s, float lo, float hi) {
  MatrixView v;
  v.m = &m;
  v.title = std::move(title);
  v.row_labels = rows;
  v.col_labels = cols;
  v.scale = s;
  v.lo = lo;
  v.hi = hi;
  // Cells grow with the text size (projector) but stay at most ~4.5 characters wide.
  v.max_cell_w = ImGui::GetFontSize() * 4.2f;
  v.max_cell_h = ImGui::GetFontSize() * 1.9f;
  return v;
}

// Splits `width` among boxes in proportion to their column counts (each at least `min_w`), leaving `gap`
// between them.
std::vector<float> split(float width, const std::vector<int>& cols, float gap, float label_w) {
  float total = 0;
  for (int c : cols) total += static_cast<float>(c);
  const float usable = width - gap * (cols.size() - 1) - label_w * cols.size();
  std::vector<float> out;
  for (int c : cols) out.push_back(label_w + std::max(usable * c / total, 24.f));
  return out;
}

void op_text(ImVec2 pos, float h, const char* s) {
  const ImVec2 ts = ImGui::CalcTextSize(s);
  ImGui::GetWindowDrawList()->AddText(ImVec2(pos.x - ts.x * 0.5f, pos.y + h * 0.5f - ts.y * 0.5f),
                                      ImGui::GetColorU32(ImGuiCol_Text), s);
}

}  // namespace

SdpaView::SdpaView(SdpaScene& scene) : scene_(scene) {}
SdpaView::~SdpaView() { heatmap_release(this); }

void SdpaView::sync(PlaygroundState& st) {
  const SdpaModel& m = scene_.model();
  // The cell editor edits the model it was opened on: a new model (setState, a preset) closes it.
  if (generation_seen_ != scene_.generation() && cell_popup_) {
    cell_popup_ = false;
    close_popup_ = true;
  }
  if (generation_seen_ == scene_.generation() && text_synced_) return;
  (void)st;
  generation_seen_ = scene_.generation();
  Kt_ = m.K.transpose();
  row_sums_ = m.trace.softmax.row_sum;
  const auto max_abs = [](const Mat& x) {
    float r = 0;
    for (Eigen::Index k = 0; k < x.size(); ++k)
      if (std::isfinite(x.data()[k])) r = std::max(r, std::fabs(x.data()[k]));
    return r > 0 ? r : 1.f;
  };
  range_qkv_ = std::max({max_abs(m.Q), max_abs(m.K), max_abs(m.V)});
  range_scores_ = max_abs(m.trace.scores);
  range_x_ = m.X.size() ? max_abs(m.X) : 1.f;
  edit_ = m.params;
  text_ = m.params.text;
  text_synced_ = true;
}

HeatmapKey SdpaView::key(int item, long long version) const {
  return {this, item, version ? version : scene_.generation()};
}

// ---- controls -------------------------------------------------------------------------------------------

void SdpaView::controls(ViewContext& ctx) {
  PlaygroundState& st = ctx.st;
  sync(st);
  const SdpaModel& model = scene_.model();
  const auto apply = [&](const SdpaParams& p, const char* key) { return report_result(st, key, scene_.apply(p)); };

  section_heading(tr("Input"));
  const int source = model.params.source == QkvSource::Projection ? 0 : 1;
  if (ImGui::RadioButton((std::string(tr("Sentence → X·W")) + "###source_projection").c_str(), source == 0) && source != 0) {
    SdpaParams p = model.params;
    p.source = QkvSource::Projection;
    (void)apply(p, "source");
  }
  ImGui::SameLine();
  if (ImGui::RadioButton((std::string(tr("Q, K, V by hand")) + "###source_custom").c_str(), source == 1) && source != 1)
    (void)apply(as_custom(model), "source");

  if (source == 0) {
    ImGui::TextWrapped("%s", tr("Sentence (one token per word, punctuation mark or Chinese character)"));
    ImGui::SetNextItemWidth(-1);
    TextFieldOptions o;
    o.max_bytes = limits::kMaxTextBytes + 1;  // one byte over the limit: refused with a message, not cut silently
    o.accessible_name = tr("Sentence");
    if (text_field("##text", &text_, o)) {
      SdpaParams p = model.params;
      p.text = text_;
      (void)apply(p, "text");
    }
    ImGui::TextDisabled("%s: %d   (%s %d)", tr("tokens"), model.trace.n, tr("limit"), limits::kMaxTokens);
    token_chips(model.query_tokens, 48);
    const float field = ImGui::GetFontSize() * 7.f;
    // The field keeps what was typed; the model takes it only if it builds (else a message says why).
    const auto int_field = [&](const char* name, int* shown, int SdpaParams::*member) {
      ImGui::SetNextItemWidth(field);
      if (ImGui::InputInt(name, shown, 1, 8)) {
        SdpaParams p = model.params;
        p.*member = *shown;
        (void)apply(p, name);
      }
    };
    int_field("d_model", &edit_.d_model, &SdpaParams::d_model);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr("Width of each token's embedding x_i (1 to 512)"));
    int_field("d_k", &edit_.d_k, &SdpaParams::d_k);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr("Width of queries and keys (and values here), 1 to 512"));
    int seed = static_cast<int>(edit_.seed & 0x7FFFFFFF);
    ImGui::SetNextItemWidth(field);
    if (ImGui::InputInt((std::string(tr("seed")) + "###seed").c_str(), &seed, 1, 10)) {
      edit_.seed = static_cast<uint64_t>(std::max(0, seed));
      SdpaParams p = model.params;
      p.seed = edit_.seed;
      (void)apply(p, "seed");
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr("The random embeddings and W^Q, W^K, W^V come from this seed"));
    bool pos = model.params.positional;
    if (ImGui::Checkbox((std::string(tr("add position codes (sin/cos)")) + "###positional").c_str(), &pos)) {
      SdpaParams p = model.params;
      p.positional = pos;
      (void)apply(p, "positional");
    }
  } else {
    ImGui::TextWrapped("%s", tr("Click any cell of Q, Kᵀ or V in the first stage to type a value."));
    int v;
    if (size_stepper("n", model.trace.n, 1, 32, &v)) {
      SdpaParams p = as_custom(model);
      p.Q = resized(p.Q, v, model.trace.d_k);
      relabel(&p.query_labels, v, "q");
      (void)apply(p, "size");
    }
    if (size_stepper("m", model.trace.m, 1, 32, &v)) {
      SdpaParams p = as_custom(model);
      p.K = resized(p.K, v, model.trace.d_k);
      p.V = resized(p.V, v, model.trace.d_v);
      relabel(&p.key_labels, v, "k");
      (void)apply(p, "size");
    }
    if (size_stepper("d_k", model.trace.d_k, 1, 16, &v)) {
      SdpaParams p = as_custom(model);
      p.Q = resized(p.Q, model.trace.n, v);
      p.K = resized(p.K, model.trace.m, v);
      (void)apply(p, "size");
    }
    if (size_stepper("d_v", model.trace.d_v, 1, 16, &v)) {
      SdpaParams p = as_custom(model);
      p.V = resized(p.V, model.trace.m, v);
      (void)apply(p, "size");
    }
  }

  section_heading(tr("Mask"));
  const MaskKind kinds[3] = {MaskKind::None, MaskKind::Padding, MaskKind::Causal};
  const char* names[3] = {tr("none"), tr("padding"), tr("causal")};
  for (int k = 0; k < 3; ++k) {
    if (k) ImGui::SameLine();
    ImGui::PushID(k);
    if (ImGui::RadioButton((std::string(names[k]) + "###mask").c_str(), model.params.mask == kinds[k]) && model.params.mask != kinds[k]) {
      SdpaParams p = model.params;
      p.mask = kinds[k];
      (void)apply(p, "mask");
    }
    ImGui::PopID();
  }
  if (model.params.mask == MaskKind::Padding || model.params.pad_to > 0) {
    if (source == 0) {
      ImGui::SetNextItemWidth(ImGui::GetFontSize() * 7.f);
      if (ImGui::InputInt((std::string(tr("pad to")) + "###pad_to").c_str(), &edit_.pad_to, 1, 4)) {
        SdpaParams p = model.params;
        p.pad_to = edit_.pad_to;
        (void)apply(p, "pad_to");
      }
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr("Append [PAD] tokens up to this length (0: none)"));
    }
    if (model.params.mask == MaskKind::Padding && model.pad_count == 0)
      ImGui::TextWrapped("%s", tr("No [PAD] keys yet: raise 'pad to', or type [PAD] in the sentence."));
    else if (model.params.mask == MaskKind::Padding)
      ImGui::TextDisabled("%d [PAD] %s", model.pad_count, tr("keys hidden"));
  }
  if (model.trace.fully_masked_rows > 0)
    ImGui::TextWrapped("%d %s", model.trace.fully_masked_rows,
                       tr("rows have every key hidden: their weights are all 0 and they are flagged."));
}

// ---- keys and help -----------------------------------------------------------------------------------------

void SdpaView::keys(ViewContext& ctx) {
  if (key_pressed(Key::M)) {
    SdpaParams p = scene_.model().params;
    p.mask = static_cast<MaskKind>((static_cast<int>(p.mask) + 1) % 3);
    (void)report_result(ctx.st, "mask", scene_.apply(p));
  }
}

std::vector<std::pair<const char*, const char*>> SdpaView::help_rows() const {
  return {{"M", N_("next mask: none, padding, causal")}};
}

// ---- flow strip ----------------------------------------------------------------------------------------------

float SdpaView::flow_height(const ViewContext& ctx) const { return std::clamp(ctx.height * 0.1f, 48.f, 90.f); }

void SdpaView::flow(ViewContext& ctx, float height) {
  sync(ctx.st);
  const SdpaModel& m = scene_.model();
  const AttentionTrace& t = m.trace;
  struct Node { const char* label; const Mat* mat; MatrixId id; ColorScale s; };
  const Node nodes[kSdpaStageCount] = {
      {"Q, K, V", &m.Q, MatrixId::Q, ColorScale::Diverging},
      {"QKᵀ", &t.scores, MatrixId::Scores, ColorScale::Diverging},
      {"÷√dₖ", &t.scaled, MatrixId::Scaled, ColorScale::Diverging},
      {tr("mask"), &t.masked, MatrixId::Masked, ColorScale::Diverging},
      {"softmax", &t.weights(), MatrixId::Weights, ColorScale::Sequential},
      {"×V", &t.output, MatrixId::Output, ColorScale::Diverging},
      {tr("output"), &t.output, MatrixId::Output, ColorScale::Diverging},
  };
  const Timeline& tl = scene_.timeline;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 o = ImGui::GetCursorScreenPos();
  const float W = ImGui::GetContentRegionAvail().x;
  const float arrow = ImGui::GetFontSize() * (ctx.compact ? 0.9f : 1.6f);
  const float box_w = (W - arrow * (kSdpaStageCount - 1)) / kSdpaStageCount;
  const float fs = ImGui::GetFontSize();
  const int current = tl.stage();
  for (int k = 0; k < kSdpaStageCount; ++k) {
    const Node& nd = nodes[k];
    const ImVec2 a(o.x + k * (box_w + arrow), o.y), b(a.x + box_w, o.y + height);
    const bool now = k == current, past = k < current;
    dl->AddRectFilled(a, b, now ? IM_COL32(255, 244, 225, 255) : IM_COL32(255, 255, 255, 255), 6.f);
    dl->AddRect(a, b, now ? IM_COL32(230, 140, 0, 255) : IM_COL32(200, 200, 210, 255), 6.f, 0, now ? 2.5f : 1.f);
    const float lw = math_text_width(nd.label, fs);
    draw_math_text(dl, ImVec2(a.x + (box_w - lw) * 0.5f, a.y + 3), ImGui::GetColorU32(past || now ? ImGuiCol_Text : ImGuiCol_TextDisabled), nd.label, fs);
    // Thumbnail: the stage's result as a heatmap (only once it has been computed).
    const float th = height - fs - 10.f;
    if (th > 8.f && (past || now) && nd.mat->size() > 0) {
      const float aspect = static_cast<float>(nd.mat->cols()) / static_cast<float>(nd.mat->rows());
      float tw = std::min(box_w - 10.f, th * aspect), thh = std::min(th, (box_w - 10.f) / aspect);
      const ImVec2 p0(a.x + (box_w - tw) * 0.5f, a.y + fs + 6.f);
      HeatmapStyle hs;
      hs.scale = nd.s;
      const float r = nd.id == MatrixId::Weights ? 1.f : (nd.id == MatrixId::Q || nd.id == MatrixId::Output) ? range_qkv_ : range_scores_;
      hs.lo = nd.s == ColorScale::Sequential ? 0.f : -r;
      hs.hi = r;
      if (now && tl.substeps(k) > 1) {
        const int done = tl.done_substeps();
        hs.reveal = k == static_cast<int>(SdpaStage::Scores) ? done
                  : k == static_cast<int>(SdpaStage::Softmax) ? softmax_cursor(done, t.n).rows_done * double(nd.mat->cols())
                  : done * double(nd.mat->cols());
      }
      heatmap_draw(dl, key(static_cast<int>(nd.id)), *nd.mat, p0, ImVec2(p0.x + tw, p0.y + thh), hs);
    }
    if (k + 1 < kSdpaStageCount) {
      const float y = o.y + height * 0.5f, x0 = b.x + 3, x1 = b.x + arrow - 3;
      dl->AddLine(ImVec2(x0, y), ImVec2(x1, y), IM_COL32(120, 120, 140, 255), 1.5f);
      dl->AddTriangleFilled(ImVec2(x1, y), ImVec2(x1 - 5, y - 4), ImVec2(x1 - 5, y + 4), IM_COL32(120, 120, 140, 255));
    }
    ImGui::SetCursorScreenPos(a);
    ImGui::PushID(k);
    if (ImGui::InvisibleButton("stage", ImVec2(box_w, height))) scene_.timeline.set_stage(k, true);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s %d: %s", tr("Stage"), k + 1, tr(scene_.stages()[static_cast<size_t>(k)].title));
    ImGui::PopID();
  }
  ImGui::SetCursorScreenPos(ImVec2(o.x, o.y + height + 6.f));
  ImGui::Dummy(ImVec2(W, 0));
}

// ---- formula caption ---------------------------------------------------------------------------------------

std::pair<const char*, const char*> SdpaView::caption(const ViewContext& ctx) const {
  // Hand-set Q, K, V do not come from X·W: say so instead.
  if (scene_.timeline.stage() == static_cast<int>(SdpaStage::Qkv) && scene_.model().params.source == QkvSource::Custom)
    return {"Q, K, V", tr("Set by hand: click a cell of Q, Kᵀ or V to type a new value.")};
  return SceneView::caption(ctx);
}

std::string SdpaView::step_text(const ViewContext&) const {
  const SdpaModel& m = scene_.model();
  const AttentionTrace& t = m.trace;
  const Timeline& tl = scene_.timeline;
  const int done = tl.done_substeps();
  char buf[256];
  switch (static_cast<SdpaStage>(tl.stage())) {
    case SdpaStage::Scores: {
      const int cell = std::min(done, t.n * t.m - 1);
      return explain_cell(m, MatrixId::Scores, cell / t.m, cell % t.m);
    }
    case SdpaStage::Scale:
      std::snprintf(buf, sizeof buf, "√dₖ = √%d = %s", t.d_k, fmt(t.sqrt_dk, 3).c_str());
      return buf;
    case SdpaStage::Mask: {
      int hidden = 0;
      for (int i = 0; i < t.n; ++i)
        for (int j = 0; j < t.m; ++j) hidden += std::isinf(t.mask(i, j)) ? 1 : 0;
      std::snprintf(buf, sizeof buf, "%s: %s · %d / %d %s", tr("mask"), tr(mask_name(m.params.mask)), hidden,
                    t.n * t.m, tr("cells hidden"));
      return buf;
    }
    case SdpaStage::Softmax: {
      const SoftmaxCursor c = softmax_cursor(done, t.n);
      if (t.softmax.fully_masked[static_cast<size_t>(c.row)])
        return "“" + m.query_tokens[static_cast<size_t>(c.row)] + "”: " + tr("every key of this row is hidden: the weights are all 0 (no NaN)");
      std::string s = "“" + m.query_tokens[static_cast<size_t>(c.row)] + "”  max = " + fmt(t.softmax.row_max[c.row], 3);
      if (c.phase != SoftmaxPhase::Exp || !c.running) s += "   Σ exp = " + fmt(t.softmax.row_sum[c.row], 3);
      if (c.phase == SoftmaxPhase::Exp && c.running) s += std::string("   ") + tr("1) exp(z − max)");
      else if (c.phase == SoftmaxPhase::Sum) s += std::string("   ") + tr("2) add up the row");
      else s += std::string("   ") + tr("3) divide by the sum");
      return s;
    }
    case SdpaStage::WeightedSum:
      return explain_cell(m, MatrixId::Output, std::min(done, t.n - 1), 0);
    default:
      return {};
  }
}

// ---- stage view ------------------------------------------------------------------------------------------------

MatrixViewResult SdpaView::place(ViewContext& ctx, MatrixView v, MatrixId id, ImVec2 pos, ImVec2 size) {
  if (v.key.owner == nullptr) v.key = key(static_cast<int>(id));
  ImGui::SetCursorScreenPos(pos);
  const MatrixViewResult r = matrix_view(v, size);
  if (r.hover_i >= 0) { ctx.hover_what = static_cast<int>(id); ctx.hover_i = r.hover_i; ctx.hover_j = r.hover_j; }
  if (r.hover_i >= 0 && id == MatrixId::WeightColumn) {  // a cell of that column is A(weight_row, key)
    ctx.hover_what = static_cast<int>(MatrixId::Weights);
    ctx.hover_i = weight_row_;
    ctx.hover_j = r.hover_i;
  }
  if (r.clicked_i >= 0 && (id == MatrixId::Q || id == MatrixId::K || id == MatrixId::V) &&
      scene_.timeline.stage() == static_cast<int>(SdpaStage::Qkv))
    begin_cell_edit(ctx.st, id, r.clicked_i, r.clicked_j);
  return r;
}

// A row of matrices separated by operators ("→", "+", "="): box i gets a width share ∝ its columns.
void SdpaView::row_of(ViewContext& ctx, const std::vector<std::pair<MatrixView, MatrixId>>& items,
                      const std::vector<const char*>& ops, ImVec2 origin, ImVec2 avail) {
  const float gap = ImGui::GetFontSize() * 2.4f;
  const float label_w = std::min(90.f, avail.x * 0.08f);
  std::vector<int> cols;
  int max_rows = 1;
  for (auto& it : items) {
    cols.push_back(static_cast<int>(it.first.m->cols()));
    max_rows = std::max<int>(max_rows, static_cast<int>(it.first.m->rows()));
  }
  const std::vector<float> w = split(avail.x, cols, gap, label_w);
  // One row height for the whole row of matrices, so that row i lines up across them.
  const float fs = ImGui::GetFontSize();
  const float ch = std::min(fs * 1.9f, (avail.y - 2.f * (fs + 4.f)) / max_rows);
  float x = origin.x;
  for (size_t k = 0; k < items.size(); ++k) {
    MatrixView v = items[k].first;
    if (k > 0) v.row_labels = nullptr;  // the first matrix names the rows for the whole row
    v.square = false;
    v.max_cell_h = ch;
    v.max_cell_w = std::min(v.max_cell_w, (w[k] - (k > 0 ? label_w : 0.f) - (k == 0 ? label_w : 0.f)) / cols[k]);
    const ImVec2 size(k > 0 ? w[k] - label_w : w[k], avail.y);
    place(ctx, v, items[k].second, ImVec2(x, origin.y), size);
    x += size.x;
    if (k + 1 < items.size()) {
      op_text(ImVec2(x + gap * 0.5f, origin.y), std::min(avail.y, ImGui::GetFontSize() * 8.f), ops[k]);
      x += gap;
    }
  }
}

// Matrix-product layout:      [ top ]          top = Kᵀ (or V), left = Q (or A), result below top.
//                     [left] [result]
// `beside_top` (optional, rows like `top`): drawn in the empty corner left of `top`, its rows aligned.
void SdpaView::product_layout(ViewContext& ctx, MatrixView left, MatrixId lid, MatrixView top, MatrixId tid,
                              MatrixView result, MatrixId rid, ImVec2 o, ImVec2 avail, MatrixView* beside_top,
                              MatrixId bid) {
  const float fs = ImGui::GetFontSize();
  const int n = static_cast<int>(left.m->rows()), inner = static_cast<int>(left.m->cols());
  const int out_cols = static_cast<int>(top.m->cols());
  const float label_w = std::min(96.f, avail.x * 0.12f), title_h = fs + 4.f, header_h = fs + 4.f;
  const float gap = fs * 1.2f;
  // Heights: top part holds `inner` rows, bottom `n` rows; widths: left `inner` columns, right `out_cols`.
  const float usable_h = avail.y - 2 * title_h - header_h - gap;
  const float usable_w = avail.x - label_w - gap;
  const float max_w = fs * 4.2f, max_h = fs * 1.9f;
  float ch = std::min(max_h, usable_h / (inner + n));
  float cw_left = std::min(max_w, usable_w * 0.42f / inner);
  float cw_right = std::min(max_w, (usable_w - cw_left * inner) / out_cols);
  float ch_top = ch, ch_bottom = ch;
  if (ch < fs + 2.f) {  // too small for numbers: give each part what it needs
    ch_top = std::min(max_h, usable_h * 0.3f / inner);
    ch_bottom = std::min(max_h, (usable_h - ch_top * inner) / n);
  }
  const float left_w = label_w + cw_left * inner;
  const float right_x = o.x + left_w + gap;
  const float top_h = title_h + header_h + ch_top * inner;
  // Square-ish heatmap cells would break the row alignment: stretch instead.
  left.square = top.square = result.square = false;
  left.max_cell_w = cw_left; left.max_cell_h = ch_bottom;
  top.max_cell_w = cw_right; top.max_cell_h = ch_top;
  result.max_cell_w = cw_right; result.max_cell_h = ch_bottom;
  top.row_labels = nullptr;
  result.row_labels = nullptr;
  result.col_labels = nullptr;
  left.col_labels = nullptr;
  const MatrixViewResult tr_top = place(ctx, top, tid, ImVec2(right_x, o.y), ImVec2(cw_right * out_cols, top_h));
  if (beside_top && tr_top.cell_h > 0) {
    MatrixView b = *beside_top;
    b.square = false;
    b.col_labels = nullptr;
    b.max_cell_h = tr_top.cell_h;  // row j level with value row j
    b.max_cell_w = std::min(fs * 3.f, left_w);
    const float bw = b.max_cell_w + (b.row_labels ? label_w : 0.f);
    place(ctx, b, bid, ImVec2(right_x - gap - bw, tr_top.grid_min.y - title_h), ImVec2(bw, title_h + tr_top.cell_h * inner));
  }
  const float by = o.y + top_h + gap;
  place(ctx, left, lid, ImVec2(o.x, by), ImVec2(left_w, title_h + ch_bottom * n));
  place(ctx, result, rid, ImVec2(right_x, by), ImVec2(cw_right * out_cols, title_h + ch_bottom * n));
}

void SdpaView::stage(ViewContext& ctx) {
  sync(ctx.st);
  const SdpaModel& m = scene_.model();
  const AttentionTrace& t = m.trace;
  const Timeline& tl = scene_.timeline;
  const struct { float qkv, scores, x; } R = {range_qkv_, range_scores_, range_x_};
  const ImVec2 o = ImGui::GetCursorScreenPos();
  ImVec2 avail = ImGui::GetContentRegionAvail();
  avail.y -= ImGui::GetFontSize() * (ctx.compact ? 4.6f : 2.2f);  // legend lines
  const auto* qt = &m.query_tokens;
  const auto* kt = &m.key_tokens;
  const int done = tl.done_substeps();
  const double frac = tl.substeps(tl.stage()) == 1 ? std::min(1.0, tl.sub()) : 1.0;
  const double all = static_cast<double>(t.n) * t.m;
  const ColorScale D = ColorScale::Diverging, Sq = ColorScale::Sequential;

  switch (static_cast<SdpaStage>(tl.stage())) {
    case SdpaStage::Qkv: {
      std::vector<std::pair<MatrixView, MatrixId>> items;
      std::vector<const char*> ops;
      if (m.params.source == QkvSource::Projection) {
        items.push_back({view(m.X, dims("X", m.X), qt, nullptr, D, -R.x, R.x), MatrixId::X});
        ops.push_back("·W →");
      }
      items.push_back({view(m.Q, dims("Q", m.Q), qt, nullptr, D, -R.qkv, R.qkv), MatrixId::Q});
      items.push_back({view(Kt_, dims("Kᵀ", Kt_), nullptr, kt, D, -R.qkv, R.qkv), MatrixId::K});
      items.push_back({view(m.V, dims("V", m.V), kt, nullptr, D, -R.qkv, R.qkv), MatrixId::V});
      ops.push_back(" ");
      ops.push_back(" ");
      // Reveal the projections as the stage plays.
      for (auto& it : items) if (it.second != MatrixId::X) it.first.reveal = frac * it.first.m->size();
      row_of(ctx, items, ops, o, avail);
      break;
    }
    case SdpaStage::Scores: {
      const int cell = std::min(done, t.n * t.m - 1);
      const bool running = done < t.n * t.m;
      MatrixView q = view(m.Q, dims("Q", m.Q), qt, nullptr, D, -R.qkv, R.qkv);
      MatrixView k = view(Kt_, dims("Kᵀ", Kt_), nullptr, kt, D, -R.qkv, R.qkv);
      MatrixView s = view(t.scores, dims("S = QKᵀ", t.scores), nullptr, nullptr, D, -R.scores, R.scores);
      s.reveal = done;
      if (running) { q.hl_row = s.hl_row = cell / t.m; k.hl_col = s.hl_col = cell % t.m; }
      product_layout(ctx, q, MatrixId::Q, k, MatrixId::K, s, MatrixId::Scores, o, avail);
      break;
    }
    case SdpaStage::Scale: {
      MatrixView a = view(t.scores, dims("S", t.scores), qt, kt, D, -R.scores, R.scores);
      MatrixView b = view(t.scaled, dims("S/√dₖ", t.scaled), qt, kt, D, -R.scores, R.scores);
      b.reveal = frac * all;
      scale_op_ = "÷ " + fmt(t.sqrt_dk, 2) + " →";
      row_of(ctx, {{a, MatrixId::Scores}, {b, MatrixId::Scaled}}, {scale_op_.c_str()}, o, avail);
      break;
    }
    case SdpaStage::Mask: {
      MatrixView a = view(t.scaled, dims("S/√dₖ", t.scaled), qt, kt, D, -R.scores, R.scores);
      MatrixView mm = view(t.mask, dims("M", t.mask), qt, kt, D, -1.f, 1.f);
      MatrixView b = view(t.masked, dims("S/√dₖ + M", t.masked), qt, kt, D, -R.scores, R.scores);
      b.reveal = frac * all;
      row_of(ctx, {{a, MatrixId::Scaled}, {mm, MatrixId::Mask}, {b, MatrixId::Masked}}, {"+", "="}, o, avail);
      break;
    }
    case SdpaStage::Softmax: {
      const SoftmaxCursor c = softmax_cursor(done, t.n);
      MatrixView e = view(t.softmax.exps, dims("exp(z − max)", t.softmax.exps), qt, kt, Sq, 0.f, 1.f);
      MatrixView sum = view(row_sums_, "Σ", qt, nullptr, Sq, 0.f, static_cast<float>(t.m));
      MatrixView a = view(t.weights(), dims("A = softmax", t.weights()), qt, kt, Sq, 0.f, 1.f);
      e.reveal = static_cast<double>(c.rows_with_exps) * t.m;
      sum.reveal = c.rows_with_sum;
      a.reveal = static_cast<double>(c.rows_done) * t.m;
      if (c.running) e.hl_row = sum.hl_row = a.hl_row = c.row;
      row_of(ctx, {{e, MatrixId::Exps}, {sum, MatrixId::RowSum}, {a, MatrixId::Weights}}, {" ", "→"}, o, avail);
      break;
    }
    case SdpaStage::WeightedSum: {
      const int row = std::min(done, t.n - 1);
      MatrixView a = view(t.weights(), dims("A", t.weights()), qt, nullptr, Sq, 0.f, 1.f);
      MatrixView v = view(m.V, dims("V", m.V), nullptr, nullptr, D, -R.qkv, R.qkv);
      MatrixView out = view(t.output, dims("A·V", t.output), nullptr, nullptr, D, -R.qkv, R.qkv);
      out.reveal = static_cast<double>(done) * t.d_v;
      if (done < t.n) a.hl_row = out.hl_row = row;
      // Beside V: row `row` of A as a column, each weight level with the value row it scales, so the output
      // row reads as that mix of value rows.
      weight_col_ = t.weights().row(row).transpose();
      MatrixView wc = view(weight_col_, std::string("A") + subscript(row + 1) + "ⱼ", kt, nullptr, Sq, 0.f, 1.f);
      wc.key = key(static_cast<int>(MatrixId::WeightColumn), static_cast<long long>(scene_.generation()) * 4096 + row + 1);
      weight_row_ = row;
      product_layout(ctx, a, MatrixId::Weights, v, MatrixId::V, out, MatrixId::Output, o, avail, &wc);
      break;
    }
    case SdpaStage::Output:
    default: {
      MatrixView a = view(t.weights(), dims(tr("attention weights A"), t.weights()), qt, kt, Sq, 0.f, 1.f);
      MatrixView out = view(t.output, dims(tr("output A·V"), t.output), qt, nullptr, D, -R.qkv, R.qkv);
      row_of(ctx, {{a, MatrixId::Weights}, {out, MatrixId::Output}}, {"→"}, o, avail);
      break;
    }
  }
  // Legends: the colour scales with their value ranges, wrapped onto a second line on narrow screens.
  ImGui::SetCursorScreenPos(ImVec2(o.x, o.y + avail.y + 4.f));
  const float lw = std::clamp(avail.x * 0.16f, 90.f, 160.f);
  const struct { ColorScale s; float lo, hi; const char* caption; } legends[] = {
      {ColorScale::Diverging, -R.qkv, R.qkv, tr("Q, K, V, output")},
      {ColorScale::Diverging, -R.scores, R.scores, tr("scores")},
      {ColorScale::Sequential, 0.f, 1.f, tr("weights")}};
  float x = 0;
  for (const auto& l : legends) {
    const float w = lw + 16.f + ImGui::CalcTextSize(l.caption).x;
    if (x > 0 && x + w <= avail.x) ImGui::SameLine(0, 16.f);
    else if (x > 0) x = 0;
    color_legend(l.s, l.lo, l.hi, lw, l.caption);
    x += w + 16.f;
  }
  cell_editor(ctx);
}

// ---- cell editor -------------------------------------------------------------------------------------------

std::string SdpaView::cell_name() const {
  const char* name = edit_id_ == MatrixId::Q ? "Q" : edit_id_ == MatrixId::K ? "Kᵀ" : "V";
  return std::string(name) + "[" + std::to_string(edit_i_ + 1) + "][" + std::to_string(edit_j_ + 1) + "]";
}

// Parses `text` and, if it is a finite number, puts it into the cell being edited (Q, K, V become hand-set).
// Reports and returns false otherwise; the model stays as it was. The cell is checked against the model of
// the moment, whatever happened since the editor opened.
bool SdpaView::set_cell(PlaygroundState& st, const char* text) {
  float v;
  if (!parse_number(text, &v)) {
    LocalText t;
    t.tmpl = N_("Not a number: “{0}” ({1})");
    t.args = {text, cell_name()};
    report(st, "cell", t);
    return false;
  }
  SdpaParams p = as_custom(scene_.model());
  const auto inside = [](const Mat& m, int r, int c) { return r >= 0 && c >= 0 && r < m.rows() && c < m.cols(); };
  if (edit_id_ == MatrixId::Q && inside(p.Q, edit_i_, edit_j_)) p.Q(edit_i_, edit_j_) = v;
  else if (edit_id_ == MatrixId::K && inside(p.K, edit_j_, edit_i_)) p.K(edit_j_, edit_i_) = v;
  else if (edit_id_ == MatrixId::V && inside(p.V, edit_i_, edit_j_)) p.V(edit_i_, edit_j_) = v;
  else return false;  // the matrix changed size: nothing to write into
  return static_cast<bool>(report_result(st, "cell", scene_.apply(p)));
}

void SdpaView::begin_cell_edit(PlaygroundState& st, MatrixId id, int i, int j) {
  const SdpaModel& m = scene_.model();
  float v = 0;
  if (id == MatrixId::Q) v = m.Q(i, j);
  else if (id == MatrixId::K) v = m.K(j, i);  // drawn as Kᵀ
  else if (id == MatrixId::V) v = m.V(i, j);
  else return;
  edit_id_ = id;
  edit_i_ = i;
  edit_j_ = j;
  std::snprintf(edit_buf_, sizeof edit_buf_, "%g", v);
  if (platform_is_touch()) {  // no on-screen keyboard for the canvas: the browser's prompt asks instead
    std::string typed;
    if (platform_prompt(cell_name().c_str(), edit_buf_, &typed)) (void)set_cell(st, typed.c_str());
    return;
  }
  cell_popup_ = true;
  ImGui::OpenPopup("edit_cell");
}

void SdpaView::cell_editor(ViewContext& ctx) {
  if (!ImGui::BeginPopup("edit_cell")) {
    cell_popup_ = false;
    close_popup_ = false;
    return;
  }
  if (close_popup_) {  // the model it was editing has been replaced
    close_popup_ = false;
    ImGui::CloseCurrentPopup();
    ImGui::EndPopup();
    return;
  }
  ImGui::TextUnformatted(cell_name().c_str());
  if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8.f);
  const bool enter = ImGui::InputText("##value", edit_buf_, sizeof edit_buf_, ImGuiInputTextFlags_EnterReturnsTrue |
                                                                             ImGuiInputTextFlags_AutoSelectAll);
  ImGui::SameLine();
  const bool ok = ImGui::Button((std::string(tr("Set")) + "###set").c_str()) || enter;
  ImGui::SameLine();
  // One Escape cancels (the text field would otherwise take the first one for itself).
  if (ImGui::Button((std::string(tr("Cancel")) + "###cancel").c_str()) || key_pressed(Key::Escape)) {
    ImGui::CloseCurrentPopup();
    cell_popup_ = false;
    ImGui::EndPopup();
    return;
  }
  ImGui::TextDisabled("%s", tr("Enter sets the value; Q, K and V become hand-edited."));
  if (ok && set_cell(ctx.st, edit_buf_)) {
    ImGui::CloseCurrentPopup();
    cell_popup_ = false;
  }
  ImGui::EndPopup();
}

}  // namespace ap
