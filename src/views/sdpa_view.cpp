// View of the scene "Scaled dot-product attention": the flow strip, the scene's controls (sentence or
// hand-set Q, K, V, sizes, seed, mask), the stage view (the matrices of the current stage along the flow
// Q, Kᵀ → QKᵀ → ÷√dₖ → mask → softmax → ×V → output, revealed as the timeline advances) and the cell editor.
// It reads the SdpaScene's model (computed by src/core) and its timeline; it computes nothing.
// Part 1 of 3: controls, keys, flow strip, caption and the stage; the stage's layout is in
// sdpa_view_layout.cpp, the cell editor in sdpa_view_cells.cpp.
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "app/scenes/sdpa_presets.h"
#include "app/i18n.h"
#include "app/scenes/sdpa_scene.h"
#include "core/tokenizer.h"
#include "core/train/coref.h"
#include "platform/platform.h"
#include "views/train_panel.h"
#include "platform/text_field.h"
#include "views/checkpoint_fetch.h"
#include "views/sdpa_view.h"
#include "widgets/colormap.h"
#include "widgets/heatmap.h"
#include "widgets/math_text.h"
#include "widgets/section.h"
#include "widgets/seed_input.h"
#include "widgets/tooltip.h"
#include "widgets/text_fit.h"

namespace ap {

namespace {
// The strings this view draws (its scene's own, for getState and errors, are in app/scenes/sdpa_scene.cpp).
const TrPair kSdpaViewStrings[] = {
    {"Random, untrained weights (seeded): they show how attention computes, not what a trained model attends to.",
     "权重是随机的、未经训练（由种子生成）：这里演示注意力如何计算，而不是训练好的模型会关注什么。"},
    {"Random, untrained weights (seeded)", "权重随机、未经训练（由种子生成）"},
    {"The notes print the weights of “{0}” as {1} (sum {2}); computed here: {3} (sum {4}).",
     "讲义把“{0}”的权重印为 {1}（和为 {2}）；这里计算得到 {3}（和为 {4}）。"},
    {"show numbers", "显示数值"},
    {"The numbers do not fit at this text size: show them anyway (the matrices scroll).",
     "在当前字号下数值放不下：仍然显示（矩阵可滚动）。"},
    {"weights (stretched)", "权重（已拉伸）"},
    {"Input", "输入"},
    {"Sentence → X·W", "句子 → X·W"},
    {"Q, K, V by hand", "手动设置 Q、K、V"},
    {"Sentence (one token per word, punctuation mark or Chinese character)",
     "句子（每个单词、标点或汉字是一个 token）"},
    {"Width of each token's embedding x_i (1 to 512)", "每个 token 嵌入向量 x_i 的维度（1 到 512）"},
    {"Width of queries and keys (and values here), 1 to 512", "Query 和 Key（此处也包括 Value）的维度，1 到 512"},
    {"The random embeddings and W^Q, W^K, W^V come from this seed", "随机嵌入和 W^Q、W^K、W^V 都由这个种子生成"},
    {"Click any cell of Q, Kᵀ or V in the first stage to type a value.", "在第一阶段点击 Q、Kᵀ 或 V 的任一格即可输入数值。"},
    {"pad to", "填充到"},
    {"Append [PAD] tokens up to this length (0: none)", "在末尾补 [PAD] 直到这个长度（0 表示不补）"},
    {"No [PAD] keys yet: raise 'pad to', or type [PAD] in the sentence.", "还没有 [PAD]：调大“填充到”，或在句子里输入 [PAD]。"},
    {"keys hidden", "个 Key 被屏蔽"},
    {"rows have every key hidden: their weights are all 0 and they are flagged.", "行的所有 Key 都被屏蔽：这些行的权重全为 0，并被标记。"},
    {"Set", "设置"},
    {"Enter sets the value; Q, K and V become hand-edited.", "按回车设置数值；Q、K、V 将变为手动设置。"},
    {"Set by hand: click a cell of Q, Kᵀ or V to type a new value.", "手动设置：点击 Q、Kᵀ 或 V 的格子输入新数值。"},
    {"1) exp(z − max)", "1) 计算 exp(z − max)"},
    {"2) add up the row", "2) 对这一行求和"},
    {"3) divide by the sum", "3) 除以行和"},
    {"cells hidden", "格被屏蔽"},
    {"Q, K, V, output", "Q、K、V、输出"},
    {"output A·V", "输出 A·V"},
    {"next mask: none, padding, causal", "切换掩码：无、填充、因果"},
    {"Not a number: “{0}” ({1})", "不是数字：“{0}”（{1}）"},
    {"Flip the adjective ({0} → {1})", "翻转形容词（{0} → {1}）"},
    {"Layer", "层"},
    {"layer {0}", "第 {0} 层"},
    {"Layer 1 lets \"it\" read the adjective that follows; its own row need not point at a noun.",
     "第 1 层让 \"it\" 读到后面的形容词；它自己的这一行不必指向某个名词。"},
    {"The last layer decides: its \"it\" row is the model's answer (the loss was taken on it).",
     "由最后一层做决定：它的 \"it\" 那一行就是模型的答案（损失就取在这一行上）。"},
    {"Loading the trained model…", "正在加载训练所得的模型…"},
    {"Sentence (words of the task: an animal, a place, an adjective)", "句子（任务的词：一种动物、一个地点、一个形容词）"},
    {"Trained model", "训练所得的模型"},
    {"{0} · layer {1} of {2}", "{0} · 第 {1} 层（共 {2} 层）"},
};
}  // namespace

const TrPair* SdpaView::strings(size_t* count) { return translation_table(kSdpaViewStrings, count); }

namespace {

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

bool scroll_area(bool fits, const SdpaView::Geo& g) { return !fits && g.numbered; }

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
    text_wrapped("%s", tr("Sentence (one token per word, punctuation mark or Chinese character)"));
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
    if (ImGui::IsItemHovered()) tooltip("%s", tr("Width of each token's embedding x_i (1 to 512)"));
    int_field("d_k", &edit_.d_k, &SdpaParams::d_k);
    if (ImGui::IsItemHovered()) tooltip("%s", tr("Width of queries and keys (and values here), 1 to 512"));
    if (seed_input(tr("seed"), "seed", &edit_.seed, field)) {
      SdpaParams p = model.params;
      p.seed = edit_.seed;
      (void)apply(p, "seed");
    }
    if (ImGui::IsItemHovered()) tooltip("%s", tr("The random embeddings and W^Q, W^K, W^V come from this seed"));
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
      if (ImGui::IsItemHovered()) tooltip("%s", tr("Append [PAD] tokens up to this length (0: none)"));
    }
    if (model.params.mask == MaskKind::Padding && model.pad_count == 0)
      text_wrapped("%s", tr("No [PAD] keys yet: raise 'pad to', or type [PAD] in the sentence."));
    else if (model.params.mask == MaskKind::Padding)
      ImGui::TextDisabled("%d [PAD] %s", model.pad_count, tr("keys hidden"));
  }
  if (model.trace.fully_masked_rows > 0)
    text_wrapped("%d %s", model.trace.fully_masked_rows,
                       tr("rows have every key hidden: their weights are all 0 and they are flagged."));
}

// The trained view: what the weights are, the sentence (the model's vocabulary), the layer, the adjective flip.
void SdpaView::trained_controls(ViewContext& ctx) {
  PlaygroundState& st = ctx.st;
  const train::TrainedQkv& q = scene_.trained_qkv();
  const int layer = scene_.trained_layer();
  text_wrapped("%s", scene_.weights_label().c_str());
  training_panel(ctx, scene_.training(), scene_.training_error(), &train_edit_, "sdpa");
  text_wrapped("%s", tr("Sentence (words of the task: an animal, a place, an adjective)"));
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
  text_wrapped("%s", layer == q.layers - 1
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
    dl->AddRect(a, b, now ? highlight_color() : IM_COL32(200, 200, 210, 255), 6.f, 0, now ? 2.5f : 1.f);
    // A label wider than its card (a phone: "softmax" in a 45-px card) is drawn smaller to fit, down to 60 %.
    const float room = box_w - 4.f, natural = math_text_width(nd.label, fs);
    const float size = natural > room ? std::max(fs * 0.6f, fs * room / natural) : fs;
    const float lw = math_text_width(nd.label, size);
    draw_math_text(dl, ImVec2(a.x + (box_w - lw) * 0.5f, a.y + 3 + (fs - size) * 0.5f),
                   ImGui::GetColorU32(past || now ? ImGuiCol_Text : ImGuiCol_TextDisabled), nd.label, size);
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
    if (ImGui::IsItemHovered()) tooltip("%s %d: %s", tr("Stage"), k + 1, tr(scene_.stages()[static_cast<size_t>(k)].title));
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
    if (ImGui::IsItemHovered()) tooltip("%s", tr("The numbers do not fit at this text size: show them anyway (the matrices scroll)."));
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
      tooltip("%s", tr("Off: weights are coloured from 0 to 1, so a weight looks as large as it is. On: the scale ends near the largest weight, to tell small weights apart (the legend says so)."));
  }
  if (note_inline) {
    ImGui::SameLine(0, 24.f);
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.55f, 0.30f, 0.0f, 1.f));
    ImGui::TextUnformatted(note_inline);
    ImGui::PopStyleColor();
    if (!scene_.trained() && note_inline != note_long && ImGui::IsItemHovered()) tooltip("%s", note_long);
  }
  numbered_ = g.numbered;
}

}  // namespace ap
