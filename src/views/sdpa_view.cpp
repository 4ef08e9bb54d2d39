// View of the scene "Scaled dot-product attention": the flow strip, the scene's controls (sentence or
// hand-set Q, K, V, sizes, seed, mask), the stage view (the matrices of the current stage along the flow
// Q, Kᵀ → QKᵀ → ÷√dₖ → mask → softmax → ×V → output, revealed as the timeline advances) and the cell editor.
// It reads the SdpaScene's model (computed by src/core) and its timeline; it computes nothing.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "app/cell_text.h"
#include "app/presets.h"
#include "app/scenes/sdpa_scene.h"
#include "core/tokenizer.h"
#include "core/train/coref.h"
#include "platform/platform.h"
#include "platform/text_field.h"
#include "views/checkpoint_fetch.h"
#include "views/sdpa_view.h"
#include "widgets/colormap.h"
#include "widgets/heatmap.h"
#include "widgets/math_text.h"
#include "widgets/matrix_view.h"
#include "widgets/section.h"
#include "widgets/seed_input.h"

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

// Body text wrapped at spaces and drawn with the math-text widget: plain ImGui text cannot draw Kᵀ.
void wrapped_math_text(const std::string& text) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float fs = ImGui::GetFontSize(), line_h = ImGui::GetTextLineHeightWithSpacing();
  const ImVec2 o = ImGui::GetCursorScreenPos();
  const float width = std::max(fs * 6.f, ImGui::GetContentRegionAvail().x), space = math_text_width(" ", fs);
  const ImU32 ink = ImGui::GetColorU32(ImGuiCol_Text);
  float x = 0, y = 0;
  for (size_t a = 0; a < text.size();) {
    size_t b = text.find(' ', a);
    if (b == std::string::npos) b = text.size();
    const std::string word = text.substr(a, b - a);
    const float w = math_text_width(word.c_str(), fs);
    if (x > 0 && x + w > width) { x = 0; y += line_h; }
    if (!word.empty()) draw_math_text(dl, ImVec2(o.x + x, o.y + y), ink, word.c_str(), fs);
    x += w + space;
    a = b + 1;
  }
  ImGui::Dummy(ImVec2(width, y + fs));
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
  fetch_checkpoint(scene_, st, &failures_seen_, scene_.trained());
  const SdpaModel& m = scene_.model();
  // The cell editor edits the model it was opened on: a new model (setState, a preset) closes it.
  if (generation_seen_ != scene_.generation() && cell_popup_) {
    cell_popup_ = false;
    close_popup_ = true;
  }
  range_weights_ = weights_top(st, stretched_weights_);
  if (generation_seen_ == scene_.generation() && text_synced_) return;
  generation_seen_ = scene_.generation();
  Kt_ = m.K.transpose();
  row_sums_ = m.trace.softmax.row_sum;
  range_qkv_ = symmetric_range({&m.Q, &m.K, &m.V});
  range_scores_ = symmetric_range({&m.trace.scores});
  range_x_ = symmetric_range({&m.X});
  // Weights: 0 … 1; stretched (the Display option), 0 … the first round value at or above the 99th
  // percentile, so that small weights (512 tokens: about 1/512 each) do not all look white; a few large
  // weights are then drawn at the darkest colour, and the legend says "stretched".
  const Mat& W = m.trace.weights();
  std::vector<float> w(W.data(), W.data() + W.size());
  float wtop = 1.f;
  if (!w.empty()) {
    const size_t k = std::min(w.size() - 1, static_cast<size_t>(0.99 * static_cast<double>(w.size())));
    std::nth_element(w.begin(), w.begin() + static_cast<std::ptrdiff_t>(k), w.end());
    wtop = w[k];
  }
  stretched_weights_ = 1.f;
  for (float r : {0.002f, 0.005f, 0.01f, 0.02f, 0.05f, 0.1f, 0.2f})
    if (wtop <= r) { stretched_weights_ = r; break; }
  range_weights_ = weights_top(st, stretched_weights_);
  edit_ = m.params;
  text_ = m.params.text;
  text_synced_ = true;
}

// The legend's caption of the weights: "stretched" when their scale is not 0 … 1.
const char* SdpaView::weights_legend() const {
  return range_weights_ < 1.f ? tr("weights (stretched)") : tr("weights");
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
  const int source = scene_.trained() ? 2 : model.params.source == QkvSource::Projection ? 0 : 1;
  if (ImGui::RadioButton((std::string(tr("Sentence → X·W")) + "###source_projection").c_str(), source == 0) && source != 0) {
    SdpaParams p = model.params;
    p.source = QkvSource::Projection;
    if (source == 2) p = SdpaParams{};  // from the trained view: the seeded default
    (void)apply(p, "source");
  }
  ImGui::SameLine();
  if (ImGui::RadioButton((std::string(tr("Q, K, V by hand")) + "###source_custom").c_str(), source == 1) && source != 1)
    (void)apply(as_custom(model), "source");
  if (ImGui::RadioButton((std::string(tr("Trained model")) + "###source_trained").c_str(), source == 2) && source != 2)
    (void)report_result(st, "source", scene_.load_preset("it-trained"));
  if (scene_.trained_pending()) ImGui::TextDisabled("%s", tr("Loading the trained model…"));
  if (source == 2) {
    trained_controls(ctx);
    return;
  }

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
    if (seed_input(tr("seed"), "seed", &edit_.seed, field)) {
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
    wrapped_math_text(tr("Click any cell of Q, Kᵀ or V in the first stage to type a value."));
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

// The trained view: what the weights are, the sentence (the model's vocabulary), the layer, the adjective flip.
void SdpaView::trained_controls(ViewContext& ctx) {
  PlaygroundState& st = ctx.st;
  const train::TrainedQkv& q = scene_.trained_qkv();
  const int layer = scene_.trained_layer();
  ImGui::TextWrapped("%s", scene_.weights_label().c_str());
  ImGui::TextWrapped("%s", tr("Sentence (words of the task: an animal, a place, an adjective)"));
  ImGui::SetNextItemWidth(-1);
  TextFieldOptions o;
  o.max_bytes = limits::kMaxTextBytes + 1;
  o.accessible_name = tr("Sentence");
  if (text_field("##trained_text", &text_, o)) (void)report_result(st, "text", scene_.show_trained(text_, layer));
  std::vector<std::string> flipped = q.words;
  if (train::flip_coref_adjective(&flipped)) {
    size_t k = 0;
    while (k < flipped.size() && flipped[k] == q.words[k]) ++k;
    LocalText t;
    t.tmpl = N_("Flip the adjective ({0} → {1})");
    t.args = {q.words[k], flipped[k]};
    if (ImGui::Button((localize(t) + "###flip").c_str())) {
      std::string s;
      for (const auto& w : flipped) s += (s.empty() ? "" : " ") + w;
      (void)report_result(st, "text", scene_.show_trained(s, layer));
    }
  }
  section_heading(tr("Layer"));
  for (int l = 0; l < q.layers; ++l) {
    if (l) ImGui::SameLine();
    ImGui::PushID(l);
    LocalText t;
    t.tmpl = N_("layer {0}");
    t.args = {std::to_string(l + 1)};
    if (ImGui::RadioButton((localize(t) + "###layer").c_str(), layer == l) && layer != l)
      (void)report_result(st, "layer", scene_.show_trained(text_, l));
    ImGui::PopID();
  }
  ImGui::TextWrapped("%s", layer == q.layers - 1
      ? tr("The last layer decides: its \"it\" row is the model's answer (the loss was taken on it).")
      : tr("Layer 1 lets \"it\" read the adjective that follows; its own row need not point at a noun."));
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

float SdpaView::flow_height(const ViewContext& ctx) const { return std::clamp(ctx.height * 0.08f, 44.f, 84.f); }

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
      const float r = nd.id == MatrixId::Weights ? range_weights_ : (nd.id == MatrixId::Q || nd.id == MatrixId::Output) ? range_qkv_ : range_scores_;
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

// A row of matrices separated by operators ("→", "+", "="), or a matrix product laid out as
//        [ top ]             top = Kᵀ (or V), left = Q (or A), the result below top, level with left's rows
// [left] [result]            (and `beside`, optional: a column left of top, its rows level with top's).
// Every stage is planned first, so that one cell geometry serves them all: the same matrices keep their
// numbers from one stage to the next, or are heatmaps in every stage.
SdpaView::Plan SdpaView::plan(int stage_index, bool custom) {
  const SdpaModel& m = scene_.model();
  const AttentionTrace& t = m.trace;
  const Timeline& tl = scene_.timeline;
  const bool now = stage_index == tl.stage();
  const int done = now ? tl.done_substeps() : 1 << 30;
  const double frac = !now ? 1.0 : tl.substeps(tl.stage()) == 1 ? std::min(1.0, tl.sub()) : 1.0;
  const double all = static_cast<double>(t.n) * t.m;
  const auto* qt = &m.query_tokens;
  const auto* kt = &m.key_tokens;
  const ColorScale D = ColorScale::Diverging, Sq = ColorScale::Sequential;
  const float rq = range_qkv_, rs = range_scores_, rx = range_x_, rw = range_weights_;
  Plan p;
  switch (static_cast<SdpaStage>(stage_index)) {
    case SdpaStage::Qkv: {
      if (m.params.source == QkvSource::Projection) {
        p.items.push_back({view(m.X, dims("X", m.X), qt, nullptr, D, -rx, rx), MatrixId::X});
        p.ops.push_back("·W →");
        p.items.back().free = true;  // the embeddings: numbered only where there is room
      }
      p.items.push_back({view(m.Q, dims("Q", m.Q), qt, nullptr, D, -rq, rq), MatrixId::Q});
      p.items.push_back({view(Kt_, dims("Kᵀ", Kt_), nullptr, kt, D, -rq, rq), MatrixId::K});
      p.items.push_back({view(m.V, dims("V", m.V), kt, nullptr, D, -rq, rq), MatrixId::V});
      p.ops.push_back(" ");
      p.ops.push_back(" ");
      // Projected Q, K, V appear as the stage plays; hand-set ones are there from the start (click to edit).
      if (!custom)
        for (auto& it : p.items) if (it.id != MatrixId::X) it.v.reveal = frac * it.v.m->size();
      break;
    }
    case SdpaStage::Scores: {
      const int cell = std::min(done, t.n * t.m - 1);
      const bool running = done < t.n * t.m;
      MatrixView q = view(m.Q, dims("Q", m.Q), qt, nullptr, D, -rq, rq);
      MatrixView k = view(Kt_, dims("Kᵀ", Kt_), nullptr, kt, D, -rq, rq);
      MatrixView s = view(t.scores, dims("S = QKᵀ", t.scores), nullptr, nullptr, D, -rs, rs);
      s.reveal = now ? done : 1e18;
      if (now && running) { q.hl_row = s.hl_row = cell / t.m; k.hl_col = s.hl_col = cell % t.m; }
      p.product = true;
      p.items = {{q, MatrixId::Q}, {k, MatrixId::K}, {s, MatrixId::Scores}};
      break;
    }
    case SdpaStage::Scale: {
      MatrixView a = view(t.scores, dims("S", t.scores), qt, kt, D, -rs, rs);
      MatrixView b = view(t.scaled, dims("S/√dₖ", t.scaled), qt, kt, D, -rs, rs);
      b.reveal = frac * all;
      scale_op_ = "÷ " + fmt(t.sqrt_dk, 2) + " →";
      p.items = {{a, MatrixId::Scores}, {b, MatrixId::Scaled}};
      p.ops = {scale_op_};
      break;
    }
    case SdpaStage::Mask: {
      // S/√dₖ was the previous stage: here the mask, and the sum with its −∞ cells.
      MatrixView mm = view(t.mask, dims("M", t.mask), qt, kt, D, -1.f, 1.f);
      mm.decimals = 0;  // 0 or −∞
      MatrixView b = view(t.masked, dims("S/√dₖ + M", t.masked), qt, kt, D, -rs, rs);
      b.reveal = frac * all;
      p.items = {{mm, MatrixId::Mask}, {b, MatrixId::Masked}};
      p.ops = {"→"};
      break;
    }
    case SdpaStage::Softmax: {
      const SoftmaxCursor c = softmax_cursor(now ? done : 1 << 30, t.n);
      MatrixView e = view(t.softmax.exps, dims("exp(z − max)", t.softmax.exps), qt, kt, Sq, 0.f, 1.f);
      MatrixView sum = view(row_sums_, "Σ", qt, nullptr, Sq, 0.f, static_cast<float>(t.m));
      MatrixView a = view(t.weights(), dims("A = softmax", t.weights()), qt, kt, Sq, 0.f, rw);
      e.reveal = static_cast<double>(c.rows_with_exps) * t.m;
      sum.reveal = c.rows_with_sum;
      a.reveal = static_cast<double>(c.rows_done) * t.m;
      if (now && c.running) e.hl_row = sum.hl_row = a.hl_row = c.row;
      p.items = {{e, MatrixId::Exps}, {sum, MatrixId::RowSum}, {a, MatrixId::Weights}};
      p.ops = {" ", "→"};
      break;
    }
    case SdpaStage::WeightedSum: {
      const int row = std::min(done, t.n - 1);
      MatrixView a = view(t.weights(), dims("A", t.weights()), qt, nullptr, Sq, 0.f, rw);
      MatrixView v = view(m.V, dims("V", m.V), nullptr, nullptr, D, -rq, rq);
      MatrixView out = view(t.output, dims("A·V", t.output), nullptr, nullptr, D, -rq, rq);
      out.reveal = now ? static_cast<double>(done) * t.d_v : 1e18;
      if (now && done < t.n) a.hl_row = out.hl_row = row;
      p.product = true;
      p.items = {{a, MatrixId::Weights}, {v, MatrixId::V}, {out, MatrixId::Output}};
      if (now) {
        // Beside V: row `row` of A as a column, each weight level with the value row it scales, so the output
        // row reads as that mix of value rows.
        weight_col_ = t.weights().row(row).transpose();
        MatrixView wc = view(weight_col_, std::string("A") + subscript(row + 1) + "ⱼ", kt, nullptr, Sq, 0.f, rw);
        wc.key = key(static_cast<int>(MatrixId::WeightColumn), static_cast<long long>(scene_.generation()) * 4096 + row + 1);
        weight_row_ = row;
        p.items.push_back({wc, MatrixId::WeightColumn});
      } else {
        p.items.push_back({view(m.V, "", nullptr, nullptr, Sq, 0.f, 1.f), MatrixId::WeightColumn});  // measured only
        p.items.back().v.m = nullptr;
      }
      break;
    }
    case SdpaStage::Output:
    default: {
      MatrixView a = view(t.weights(), dims(tr("attention weights A"), t.weights()), qt, kt, Sq, 0.f, rw);
      MatrixView out = view(t.output, dims(tr("output A·V"), t.output), qt, nullptr, D, -rq, rq);
      p.items = {{a, MatrixId::Weights}, {out, MatrixId::Output}};
      p.ops = {"→"};
      break;
    }
  }
  return p;
}

namespace {

// A matrix with many more columns than the others (d_k = 256 beside 11 tokens) takes at most this share of
// the width, its columns narrowed, so that the rest keeps legible cells.
constexpr float kWideShare = 0.4f;

bool scroll_area(bool fits, const SdpaView::Geo& g) { return !fits && g.numbered; }

bool is_wide(int cols, int rows_max) { return cols > 3 * std::max(rows_max, 8); }

// Width of a numbered cell for the values of `v` (a sign only if one is negative, "00.0" past 10): the same
// matrix keeps its width from one stage to the next.
float number_w(const MatrixView& v, ImFont* f) {
  const Mat& m = *v.m;
  float lo = -1, hi = 0;  // large matrices (never numbered in practice): the widest form, unscanned
  if (m.size() <= 65536) lo = 0;
  if (m.size() <= 65536) for (Eigen::Index k = 0; k < m.size(); ++k) {
    const float x = m.data()[k];
    if (std::isfinite(x)) { lo = std::min(lo, x); hi = std::max(hi, x); }
  }
  const float a = std::max(-lo, hi);
  std::string t = v.decimals <= 0 ? "−∞" : a >= 99.5f ? "000" : a >= 9.995f ? "00.0" : "0.00";
  if (lo < 0 && v.decimals > 0) t = "−" + t;
  const float fs = f->FontSize * f->Scale * ImGui::GetIO().FontGlobalScale;
  return f->CalcTextSizeA(fs, 1e9f, 0.f, t.c_str()).x + std::max(4.f, fs * 0.35f);
}

}  // namespace

// Places (or, with draw = false, only measures) a plan with cells of `g`; returns the size it takes.
// Numbered: every cell g.cw × g.ch. Heatmap: square cells, as large as the area allows.
ImVec2 SdpaView::lay_out(ViewContext& ctx, Plan& p, const Geo& g, ImVec2 o, ImVec2 avail, bool draw) {
  const float fs = ImGui::GetFontSize();
  const float title_h = fs + 4.f, gap = fs * 1.6f;
  ImFont* lf = g.font(ctx);
  const float hmax = std::max(fs * 2.f, avail.y * 0.2f);  // upright column labels take at most this
  const auto label_w_of = [&](const MatrixView& v) { return matrix_label_width(v.row_labels, static_cast<int>(v.m->rows()), lf); };
  const auto title_w = [&](const MatrixView& v) { return math_text_width(v.title.c_str(), fs) + fs * 0.5f; };
  // The smallest heatmap cell for `rows` rows: half a text line, or whatever makes the matrix 12 lines tall
  // when it has more rows. A short screen (a phone held sideways) then scrolls instead of drawing 1-pixel cells.
  const auto min_cell = [&](int rows) { return std::min(fs * 0.5f, fs * 12.f / std::max(1, rows)); };
  if (!p.product) {
    std::vector<int> cols;
    int rows_max = 1, narrow_cols = 0;
    for (auto& it : p.items) {
      cols.push_back(static_cast<int>(it.v.m->cols()));
      rows_max = std::max<int>(rows_max, static_cast<int>(it.v.m->rows()));
    }
    int wide = 0;
    for (int c : cols) { if (is_wide(c, rows_max)) ++wide; else narrow_cols += c; }
    const float label_w = label_w_of(p.items[0].v);
    std::vector<float> op_gap;  // each operator's gap: at least its text and some air
    float gaps = 0;
    for (size_t k = 0; k + 1 < p.items.size(); ++k) {
      op_gap.push_back(std::max(gap, ImGui::CalcTextSize(p.ops[k].c_str()).x + fs * 0.8f));
      gaps += op_gap.back();
    }
    const float wide_w = wide ? std::max(0.f, avail.x - label_w - gaps) * kWideShare : 0.f;
    float cw = g.ch, ch = g.ch;
    if (!g.numbered) {  // square cells filling the area
      const float cx = (avail.x - label_w - gaps - wide_w * wide) / std::max(1, narrow_cols);
      float c = std::min(cx, (avail.y - title_h) / rows_max);
      float header = 0;
      for (auto& it : p.items) header = std::max(header, matrix_header_height(it.v.col_labels, static_cast<int>(it.v.m->cols()), c, lf, hmax));
      c = std::min({cx, (avail.y - title_h - header) / rows_max, fs * 2.4f}) * 0.99f;
      cw = ch = std::max(c, min_cell(rows_max));
    }
    last_cell_ = ch;
    // Widths of the boxes and the row's height.
    std::vector<float> cell_w, box_w;
    float total_w = 0, header = 0;
    std::vector<bool> numbered;
    for (size_t k = 0; k < p.items.size(); ++k) {
      const float want = g.numbered ? number_w(p.items[k].v, lf) * g.grow : cw;
      const bool w = is_wide(cols[k], rows_max) && cols[k] * want > wide_w;
      cell_w.push_back(w ? wide_w / cols[k] : want);
      numbered.push_back(g.numbered && !w);
      header = std::max(header, matrix_header_height(p.items[k].v.col_labels, cols[k], cell_w.back(), lf, hmax));
      const float grid = (k == 0 ? label_w : 0.f) + cols[k] * cell_w.back();
      box_w.push_back(std::max(grid, title_w(p.items[k].v) + (k == 0 ? label_w : 0.f)));
      total_w += box_w.back();
    }
    total_w += gaps;
    // The embeddings X (first, `free`) give way: without room they become a heatmap.
    if (g.numbered && total_w > avail.x - fs * 0.5f && p.items[0].free) {
      const float others = total_w - box_w[0];
      // Never thinner than a heatmap's smallest cell (a short stage laid out taller gave it 0.05 px): the row
      // then runs past the area and scrolls.
      cell_w[0] = std::max(min_cell(rows_max), std::min(ch, (avail.x - fs * 0.5f - others - label_w) / cols[0]));
      numbered[0] = false;
      total_w = others + std::max(label_w + cols[0] * cell_w[0], title_w(p.items[0].v) + label_w);
      box_w[0] = total_w - others;
    }
    const ImVec2 size(total_w, title_h + header + rows_max * ch);
    if (!draw) return size;
    float x = o.x + (avail.x < 1e5f ? std::max(0.f, (avail.x - total_w) * 0.5f) : 0.f);  // centred, unless scrolling
    for (size_t k = 0; k < p.items.size(); ++k) {
      MatrixView v = p.items[k].v;
      if (k > 0) v.row_labels = nullptr;  // the first matrix names the rows for the whole row
      v.cell_w = cell_w[k];
      v.cell_h = ch;
      v.numbers = numbered[k] ? 1 : 0;
      v.font = lf;
      v.label_w = k == 0 ? label_w : 0.f;
      // Rows line up across the row: a matrix without column labels starts lower by the header's height.
      v.header_max = hmax;
      const float hh = matrix_header_height(v.col_labels, cols[k], cell_w[k], lf, hmax);
      place(ctx, v, p.items[k].id, ImVec2(x, o.y + header - hh), ImVec2(box_w[k], size.y));
      x += box_w[k];
      if (k + 1 < p.items.size()) {
        op_text(ImVec2(x + op_gap[k] * 0.5f, o.y + title_h + header), rows_max * ch, p.ops[k].c_str());
        x += op_gap[k];
      }
    }
    return size;
  }
  // Product.
  const float pgap = fs * 0.9f;
  MatrixView left = p.items[0].v, top = p.items[1].v, result = p.items[2].v;
  const int n = static_cast<int>(left.m->rows()), inner = static_cast<int>(left.m->cols());
  const int out_cols = static_cast<int>(top.m->cols());
  const float label_w = label_w_of(left);
  const bool wide_inner = is_wide(inner, std::max(n, out_cols));
  // Numbered: each column as wide as its numbers need (top and result share columns).
  float cw = g.numbered ? std::max(number_w(top, lf), number_w(result, lf)) * g.grow : g.ch;
  float ch = g.ch, cw_in = g.numbered ? number_w(left, lf) * g.grow : g.ch, ch_in = g.ch;
  float header = matrix_header_height(top.col_labels, out_cols, cw, lf, hmax);
  if (wide_inner) {  // d_k = 256: Q and Kᵀ as thin strips, the n × m result keeps its cells
    cw_in = std::min(cw, avail.x * 0.3f / inner);
    ch_in = std::min(ch, avail.y * 0.3f / inner);
  }
  if (!g.numbered) {
    const auto solve = [&](float hdr) {
      if (wide_inner) {
        cw_in = avail.x * 0.3f / inner;
        ch_in = avail.y * 0.25f / inner;
        const float c = std::min((avail.x - label_w - pgap - inner * cw_in) / out_cols,
                                 (avail.y - 2 * title_h - hdr - pgap - inner * ch_in) / n);
        cw = ch = std::clamp(c, min_cell(n), fs * 2.4f);
        cw_in = std::min(cw_in, cw);
        ch_in = std::min(ch_in, ch);
      } else {
        const float c = std::min((avail.x - label_w - pgap) / (inner + out_cols), (avail.y - 2 * title_h - hdr - pgap) / (inner + n));
        cw = ch = cw_in = ch_in = std::clamp(c, min_cell(inner + n), fs * 2.4f);
      }
    };
    solve(0.f);
    header = matrix_header_height(top.col_labels, out_cols, cw, lf, hmax);
    solve(header);
  }
  last_cell_ = ch;
  const float left_w = label_w + inner * cw_in;
  const float top_h = title_h + header + inner * ch_in;
  const float right_w = std::max(out_cols * cw, std::max(title_w(top), title_w(result)));
  const ImVec2 size(left_w + pgap + right_w, top_h + pgap + title_h + n * ch);
  if (!draw) return size;
  const float x0 = o.x + (avail.x < 1e5f ? std::max(0.f, (avail.x - size.x) * 0.5f) : 0.f);
  const float right_x = x0 + left_w + pgap;
  left.font = top.font = result.font = lf;
  top.header_max = hmax;
  left.cell_w = cw_in; left.cell_h = ch;
  top.cell_w = cw; top.cell_h = ch_in;
  result.cell_w = cw; result.cell_h = ch;
  left.numbers = g.numbered && !wide_inner ? 1 : 0;
  top.numbers = g.numbered && !wide_inner ? 1 : 0;
  result.numbers = g.numbered ? 1 : 0;
  left.label_w = label_w;
  top.row_labels = nullptr;
  result.row_labels = nullptr;
  result.col_labels = nullptr;
  left.col_labels = nullptr;
  const MatrixViewResult r_top = place(ctx, top, p.items[1].id, ImVec2(right_x, o.y), ImVec2(right_w, top_h));
  if (p.items.size() > 3 && p.items[3].v.m && r_top.cell_h > 0) {
    MatrixView b = p.items[3].v;
    b.col_labels = nullptr;
    b.font = lf;
    b.cell_h = r_top.cell_h;  // row j level with value row j
    b.cell_w = g.numbered ? cw : std::max(ch_in, fs * 0.8f);
    b.numbers = g.numbered && !wide_inner ? 1 : 0;
    b.label_w = b.row_labels && r_top.cell_h >= fs * 0.6f ? matrix_label_width(b.row_labels, inner, lf) : 0.f;
    if (b.label_w == 0.f) b.row_labels = nullptr;
    const float bw = b.cell_w + b.label_w;
    place(ctx, b, p.items[3].id, ImVec2(right_x - pgap - bw, r_top.grid_min.y - title_h), ImVec2(bw, title_h + r_top.cell_h * inner));
  }
  const float by = o.y + top_h + pgap;
  place(ctx, left, p.items[0].id, ImVec2(x0, by), ImVec2(left_w, title_h + ch * n));
  place(ctx, result, p.items[2].id, ImVec2(right_x, by), ImVec2(right_w, title_h + ch * n));
  return size;
}

// A product stacked (top above result) or as a row "left · top = result": whichever gives larger cells in
// `avail` (a wide, low area: the row). Turns `p` into that form and returns its size.
ImVec2 SdpaView::best_form(ViewContext& ctx, Plan& p, const Geo& g, ImVec2 avail) {
  const ImVec2 stacked = lay_out(ctx, p, g, ImVec2(0, 0), avail, false);
  if (!p.product) return stacked;
  const float stacked_cell = last_cell_;
  Plan row;
  row.items = {p.items[0], p.items[1], p.items[2]};
  row.items[0].v.col_labels = nullptr;
  row.items[2].v.col_labels = row.items[1].v.col_labels;  // the result's columns are the keys
  row.ops = {"·", "="};
  const ImVec2 flat = lay_out(ctx, row, g, ImVec2(0, 0), avail, false);
  const auto ratio = [&](ImVec2 s) { return std::min(avail.x / std::max(1.f, s.x), avail.y / std::max(1.f, s.y)); };
  const bool better = g.numbered ? ratio(flat) > ratio(stacked) && ratio(stacked) < 1.f : last_cell_ > stacked_cell * 1.15f;
  if (!better) return stacked;
  p = row;
  return flat;
}

// One cell geometry for every stage of the model: numbered cells in the body font (grown to fill the area,
// up to 1.5×), else in the small font, else square heatmap cells; `numbers_forced_` asks for the small
// numbered cells whatever the room (the stage then scrolls).
SdpaView::Geo SdpaView::choose_geometry(ViewContext& ctx, ImVec2 avail, bool custom, bool* fits, int only_stage) {
  std::vector<Plan> plans;
  for (int k = 0; k < kSdpaStageCount; ++k) plans.push_back(plan(k, custom));
  // The embeddings X decide only with their smallest heatmap: without room for numbers they become a heatmap in
  // their own stage (lay_out gives them the width left), but a geometry whose numbers leave X less than a
  // heatmap's smallest cells does not fit (on a short stage X had 0.05-pixel columns).
  const auto fit_ratio = [&](const Geo& g) {
    float r = 1e9f;
    for (int k = 0; k < kSdpaStageCount; ++k) {
      if (only_stage >= 0 && k != only_stage) continue;
      Plan q = plans[static_cast<size_t>(k)];
      const ImVec2 s = best_form(ctx, q, g, avail);
      r = std::min({r, avail.x / std::max(1.f, s.x), avail.y / std::max(1.f, s.y)});
    }
    return r;
  };
  *fits = true;
  for (const bool small : {false, true}) {
    ImFont* f = small ? ctx.fonts.small : ctx.fonts.body;
    const ImVec2 nc = matrix_number_cell(f, 2);
    Geo g{true, small, 1.f, nc.y};
    if (fit_ratio(g) < 1.f) {
      // Last before no numbers: the small font in rows with less leading (88 %: the digits still clear
      // each other). Large text on a projector is often a few pixels short of the numbered rows.
      g.ch = nc.y * 0.88f;
      if (!small || fit_ratio(g) < 1.f) continue;
      return g;
    }
    // Room to spare: first squarer cells (taller, up to about the width of "0.00"), then larger ones (body
    // font only, up to 1.5×).
    const float square = nc.x * 0.85f;
    for (int k = 0; k < 12 && g.ch * 1.08f <= square; ++k) {
      Geo h = g;
      h.ch *= 1.08f;
      if (fit_ratio(h) < 1.f) break;
      g = h;
    }
    for (int k = 0; k < 6 && !small && g.grow * 1.08f <= 1.5f; ++k) {
      Geo h = g;
      h.grow *= 1.08f;
      h.ch *= 1.08f;
      if (fit_ratio(h) < 1.f) break;
      g = h;
    }
    return g;
  }
  *fits = false;
  const ImVec2 ns = matrix_number_cell(ctx.fonts.small, 2);
  if (numbers_forced_) return {true, true, 1.f, ns.y};
  return {false, true, 1.f, 0.f};
}

void SdpaView::stage(ViewContext& ctx) {
  sync(ctx.st);
  const SdpaModel& m = scene_.model();
  const Timeline& tl = scene_.timeline;
  const bool custom = m.params.source == QkvSource::Custom;
  const float fs = ImGui::GetFontSize();
  const ImVec2 o = ImGui::GetCursorScreenPos();
  ImVec2 avail = ImGui::GetContentRegionAvail();
  const float legend_h = fs * (ctx.compact ? 4.6f : 2.4f);
  avail.y -= legend_h;
  // Said on the main screen: the weights are seeded, not trained (a sentence's pattern means nothing).
  // On the legends' line when there is room (the short form if need be, the long one as its tooltip), else
  // on a line of its own above them.
  const char* note_long = tr("Random, untrained weights (seeded): they show how attention computes, not what a trained model attends to.");
  const float lw = std::clamp(avail.x * 0.14f, 80.f, 160.f);
  const struct { ColorScale s; float lo, hi; const char* caption; } legends[] = {
      {ColorScale::Diverging, -range_qkv_, range_qkv_, tr("Q, K, V, output")},
      {ColorScale::Diverging, -range_scores_, range_scores_, tr("scores")},
      {ColorScale::Sequential, 0.f, range_weights_, weights_legend()}};
  float legend_row = ImGui::GetFrameHeight() + ImGui::CalcTextSize(tr("show numbers")).x + 40.f;
  for (const auto& l : legends) legend_row += lw + 32.f + ImGui::CalcTextSize(l.caption).x;
  // Every weight small (many tokens): the stretch option is offered on the legends' line (see below), or on
  // a line of its own under it.
  const bool offer_stretch = stretched_weights_ <= 0.05f;
  if (offer_stretch) {
    const float w = ImGui::GetFrameHeight() + ImGui::CalcTextSize(tr("Stretch the weights' colours")).x + 40.f;
    if (legend_row + w > avail.x) avail.y -= ImGui::GetFrameHeightWithSpacing();
    else legend_row += w;
  }
  const char* note_inline = nullptr;
  const char* note = nullptr;  // on its own line
  std::string trained_note;
  if (scene_.trained()) {  // which weights, measured (read from the checkpoint), and which layer
    LocalText t;
    t.tmpl = N_("{0} · layer {1} of {2}");
    t.args = {scene_.weights_label(), std::to_string(scene_.trained_layer() + 1), std::to_string(scene_.trained_qkv().layers)};
    trained_note = localize(t);
    if (legend_row + ImGui::CalcTextSize(trained_note.c_str()).x <= avail.x) note_inline = trained_note.c_str();
    else note = trained_note.c_str();
  } else if (!custom) {
    const char* note_short = tr("Random, untrained weights (seeded)");
    if (legend_row + ImGui::CalcTextSize(note_long).x <= avail.x) note_inline = note_long;
    else if (legend_row + ImGui::CalcTextSize(note_short).x <= avail.x) note_inline = note_short;
    else note = note_long;
  }
  // A hand-set example from the notes whose printed softmax row is wrong: the printed row beside the
  // computed one, on the main screen (not only in a tooltip). Both sums are shown: the printed one is not 1.
  std::string misprint;
  if (custom) {
    const Preset* pr = hand_set_preset(m.Q, m.K, m.V);
    const Mat& A = m.trace.weights();
    if (pr && pr->printed_row >= 0 && pr->printed_row < A.rows() &&
        static_cast<int>(pr->printed_weights.size()) == A.cols()) {
      const int r = pr->printed_row;
      std::string printed = "[", computed = "[";
      double printed_sum = 0, computed_sum = 0;
      for (int j = 0; j < A.cols(); ++j) {
        printed += (j ? ", " : "") + fmt(pr->printed_weights[static_cast<size_t>(j)]);
        computed += (j ? ", " : "") + fmt(A(r, j));
        printed_sum += pr->printed_weights[static_cast<size_t>(j)];
        computed_sum += A(r, j);
      }
      LocalText t;
      t.tmpl = N_("The notes print the weights of “{0}” as {1} (sum {2}); computed here: {3} (sum {4}).");
      t.args = {m.query_tokens[static_cast<size_t>(r)], printed + "]", fmt(printed_sum), computed + "]", fmt(computed_sum)};
      misprint = localize(t);
      note = misprint.c_str();
    }
  }
  // On its own line, wrapped between words on narrow screens (a phone): as tall as it needs.
  if (note) avail.y -= ImGui::CalcTextSize(note, nullptr, false, avail.x).y + fs * 0.3f;
  avail.y = std::max(avail.y, fs * 4.f);
  bool fits = true;
  // The geometry is measured over every stage: again only when the model, the area or the text size changes.
  const GeoKey gk{scene_.generation(), avail.x, avail.y, fs, ctx.fonts.generation, weights_legend(), custom, numbers_forced_};
  if (!(gk == geo_key_)) {
    geo_ = choose_geometry(ctx, avail, custom, &geo_fits_);
    geo_key_ = gk;
  }
  Geo g = geo_;
  fits = geo_fits_;
  // The numbers of every stage do not fit one cell size: those of this stage alone may (the cells then
  // change size between stages, which is better than no numbers on a projector).
  if (!fits && !numbers_forced_) {
    if (!(gk == stage_geo_key_) || stage_geo_stage_ != tl.stage()) {
      stage_geo_ = choose_geometry(ctx, avail, custom, &stage_geo_fits_, tl.stage());
      stage_geo_key_ = gk;
      stage_geo_stage_ = tl.stage();
    }
    if (stage_geo_fits_) { g = stage_geo_; fits = true; }
  }
  Plan p = plan(tl.stage(), custom);
  (void)best_form(ctx, p, g, scroll_area(fits, g) ? ImVec2(1e6f, 1e6f) : avail);
  // Forced numbers that do not fit scroll inside the stage area.
  const bool scroll = scroll_area(fits, g);
  // Heatmap cells have a smallest size (lay_out): on a short screen (a phone held sideways) the matrices can
  // be taller or wider than the area, which then scrolls rather than cutting them.
  const ImVec2 need = scroll ? ImVec2(0, 0) : lay_out(ctx, p, g, o, avail, false);
  const bool overflow = need.x > avail.x + 1.f || need.y > avail.y + 1.f;
  ImGui::BeginChild("matrices", avail, false,
                    scroll || overflow ? ImGuiWindowFlags_HorizontalScrollbar : (ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse));
  const ImVec2 co = ImGui::GetCursorScreenPos();
  const ImVec2 used = lay_out(ctx, p, g, co, scroll ? ImVec2(1e6f, 1e6f) : ImGui::GetContentRegionAvail(), true);
  ImGui::SetCursorScreenPos(co);
  ImGui::Dummy(used);
  cell_editor(ctx);  // in the matrices' window: the popup is opened there, by a click on a cell
  ImGui::EndChild();

  // Below: the note, then the legends (the colour scales with their value ranges, wrapped on narrow screens)
  // and the "numbers" toggle when the numbered cells do not fit.
  ImGui::SetCursorScreenPos(ImVec2(o.x, o.y + avail.y + 2.f));
  if (note) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.55f, 0.30f, 0.0f, 1.f));
    ImGui::PushTextWrapPos(ImGui::GetCursorPos().x + avail.x);  // local coordinates
    ImGui::TextUnformatted(note);
    ImGui::PopTextWrapPos();
    ImGui::PopStyleColor();
  }
  float x = 0;
  for (const auto& l : legends) {
    const float w = lw + 16.f + ImGui::CalcTextSize(l.caption).x;
    if (x > 0 && x + w <= avail.x) ImGui::SameLine(0, 16.f);
    else if (x > 0) x = 0;
    color_legend(l.s, l.lo, l.hi, lw, l.caption);
    x += w + 16.f;
  }
  if (!fits) {
    const char* label = tr("show numbers");
    const float w = ImGui::GetFrameHeight() + ImGui::CalcTextSize(label).x + 24.f;
    if (x > 0 && x + w <= avail.x) ImGui::SameLine(0, 16.f);
    ImGui::Checkbox((std::string(label) + "###numbers").c_str(), &numbers_forced_);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr("The numbers do not fit at this text size: show them anyway (the matrices scroll)."));
    x = x > 0 && x + w <= avail.x ? x + w + 16.f : w;
  }
  // Every weight small (many tokens): on the scale 0 … 1 they all look pale, which is true but hides their
  // differences; the Display option to stretch the scale, offered here where it is needed.
  if (offer_stretch) {
    const char* label = tr("Stretch the weights' colours");
    const float w = ImGui::GetFrameHeight() + ImGui::CalcTextSize(label).x + 24.f;
    if (x > 0 && x + w <= avail.x) ImGui::SameLine(0, 16.f);
    ImGui::Checkbox((std::string(label) + "###stretch_here").c_str(), &ctx.st.stretch_weights);
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("%s", tr("Off: weights are coloured from 0 to 1, so a weight looks as large as it is. On: the scale ends near the largest weight, to tell small weights apart (the legend says so)."));
  }
  if (note_inline) {
    ImGui::SameLine(0, 24.f);
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.55f, 0.30f, 0.0f, 1.f));
    ImGui::TextUnformatted(note_inline);
    ImGui::PopStyleColor();
    if (!scene_.trained() && note_inline != note_long && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", note_long);
  }
  numbered_ = g.numbered;
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
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  edit_text_ = buf;
  (void)st;
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
  // The value's field: in the browser a real HTML input lies over it (phones' keyboards, paste, screen
  // readers); it takes the keys as the popup appears, with the number selected. Enter sets, Escape cancels.
  if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8.f);
  bool enter = false, escape = false;
  const std::string name = cell_name();
  TextFieldOptions o;
  o.max_bytes = 63;
  o.accessible_name = name.c_str();
  o.select_all = true;
  o.submitted = &enter;
  o.cancelled = &escape;
  (void)text_field("##value", &edit_text_, o);
  ImGui::SameLine();
  const bool ok = ImGui::Button((std::string(tr("Set")) + "###set").c_str()) || enter;
  ImGui::SameLine();
  // One Escape cancels (the text field would otherwise take the first one for itself).
  if (ImGui::Button((std::string(tr("Cancel")) + "###cancel").c_str()) || escape || key_pressed(Key::Escape)) {
    ImGui::CloseCurrentPopup();
    cell_popup_ = false;
    ImGui::EndPopup();
    return;
  }
  ImGui::TextDisabled("%s", tr("Enter sets the value; Q, K and V become hand-edited."));
  if (ok && set_cell(ctx.st, edit_text_.c_str())) {
    ImGui::CloseCurrentPopup();
    cell_popup_ = false;
  }
  ImGui::EndPopup();
}

}  // namespace ap
