// View of the scene "Self-attention": the controls (random or trained weights, two sentences, cross-attention,
// Q = K = V = X, d_model, d_k, seed, position codes) and, stage by stage, X and its projections Q, K, V; the
// scores and the weights (n queries × m keys, labelled by token; with trained weights, the seeded matrices'
// weights on the same X beside the trained ones); the output A·V; and the measured self-weight of Q = K = V = X,
// one shared matrix, separate W^Q, W^K (and the trained layer's). It draws what the scene holds
// (core/self_attention.h); it computes nothing.
#include "self_view.h"

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
#include "widgets/colormap.h"
#include "widgets/math_text.h"
#include "widgets/matrix_view.h"
#include "widgets/plot.h"
#include "widgets/section.h"
#include "views/checkpoint_fetch.h"
#include "views/train_panel.h"
#include "views/weights_choice.h"
#include "widgets/seed_input.h"
#include "widgets/text_fit.h"

namespace ap {

namespace {
// The strings this view draws (its scene's own, for getState and errors, are in app/scenes/self_scene.cpp).
const TrPair kSelfViewStrings[] = {
    {"Notice: with Q = K = V = X, {0} of {1} tokens put their largest weight on themselves (mean {2}); with W^Q, W^K separate, {3} of {1} (mean {4}). Spread evenly it would be {5}.",
     "注意：Q = K = V = X 时，{1} 个词元中有 {0} 个把最大权重放在自己身上（平均 {2}）；W^Q、W^K 分开时是 {1} 个中的 {3} 个（平均 {4}）。均匀分布时是 {5}。"},
    {"The trained layer: {0} of {1} (mean {2}).",
     "训练过的层：{1} 个中的 {0} 个（平均 {2}）。"},
    {"first sentence (keys, values)", "第一个句子（key、value）"},
    {"second sentence (queries)", "第二个句子（query）"},
    {"cross-attention (Q from sentence 2)", "交叉注意力（Q 来自第二个句子）"},
    {"Q = K = V = X (no projections)", "Q = K = V = X（不做投影）"},
    {"d_k is not used: Q = K = V = X has d_model columns", "d_k 未使用：Q = K = V = X 有 d_model 列"},
    {"Weights are seeded, not trained: they show the mechanism, not what a trained model attends to.",
     "权重由随机种子生成，没有训练：它们展示的是机制，而不是训练后的模型关注什么。"},
    {"mean self-weight (diagonal of A)", "平均自身权重（A 的对角线）"},
    {"tokens whose largest weight is their own", "最大权重落在自己身上的词"},
    {"self-weight per token", "每个词的自身权重"},
    {"weight on itself", "给自己的权重"},
    {"Measured on the self-attention of the first sentence. Cross-attention has no diagonal: its queries come from another sentence.",
     "在第一个句子的自注意力上测得。交叉注意力没有对角线：它的 query 来自另一个句子。"},
    {"mean weight on the diagonal", "对角线上的平均权重"},
    {"n queries × m keys", "n 个 query × m 个 key"},
    {"weights A", "注意力权重 A"},
    {"scores S/√d_k", "分数 S/√d_k"},
    {"output O = A·V", "输出 O = A·V"},
    {"No projections: Q, K and V are the embeddings themselves, so d_k = d_model and each token's query is its own key.",
     "没有投影：Q、K、V 就是嵌入本身，所以 d_k = d_model，每个词的 query 就是它自己的 key。"},
    {"Cross-attention: the queries come from the second sentence (X2), the keys and values from the first (X); n and m may differ.",
     "交叉注意力：query 来自第二个句子（X2），key 和 value 来自第一个句子（X）；n 与 m 可以不同。"},
    {"Rows are the second sentence's tokens, columns the first's: no token meets itself, so there is no diagonal of self-weights.",
     "行是第二个句子的词，列是第一个句子的词：没有哪个词遇到它自己，所以不存在自身权重的对角线。"},
    {"random (seeded)", "随机（种子）"},
    {"trained (coreference)", "训练过的（指代消解）"},
    {"loading the trained model…", "正在加载训练好的模型…"},
    {"X, Q, K and V are the trained model's, at the layer chosen; the seed makes the random W^Q, W^K, W^V shown beside them on the same X.",
     "X、Q、K、V 来自训练好的模型的所选层；种子决定旁边那组随机的 W^Q、W^K、W^V，它们作用于同一个 X。"},
    {"X: the input of trained layer {0}", "X：训练好的第 {0} 层的输入"},
    {"weights A, random W^Q, W^K", "注意力权重 A，随机的 W^Q、W^K"},
    {"weights A, trained layer {0}", "注意力权重 A，训练好的第 {0} 层"},
    {"The same X under every setting: the trained model's layer input. Only the trained W^Q, W^K learned what each word should look for.",
     "每种设置用的是同一个 X：训练好的模型该层的输入。只有训练过的 W^Q、W^K 学会了每个词该去找什么。"},
};
}  // namespace

const TrPair* SelfView::strings(size_t* count) { return translation_table(kSelfViewStrings, count); }

namespace {

std::string shape_title(const char* name, const Mat& m) {
  return std::string(name) + "   (" + std::to_string(m.rows()) + " × " + std::to_string(m.cols()) + ")";
}
}  // namespace

SelfView::~SelfView() { heatmap_release(this); }

// A new model from outside the controls (page API, preset, link): the fields show it, and a text field being
// typed into lets go (it would otherwise write its own text back over it at the next frame).
void SelfView::sync(ViewContext& ctx) {
  fetch_checkpoint(scene_, ctx.st, &failures_seen_, scene_.model().trained);
  if (!edit_.sync(scene_)) return;
  text_ = edit_.p.text;
  text2_ = edit_.p.text2;
  const SelfAttnModel& m = scene_.model();
  range_x_ = symmetric_range({&m.X, &m.X2});
  range_qkv_ = symmetric_range({&m.Q, &m.K, &m.V});
  range_scaled_ = symmetric_range({&m.trace.scaled});
  range_out_ = symmetric_range({&m.trace.output});
}

// One sentence field: what is typed goes to the scene; a refused sentence leaves a message and the last model.
bool SelfView::sentence_field(ViewContext& ctx, const char* id, std::string* text, std::string SelfAttnParams::*member) {
  ImGui::SetNextItemWidth(-1);
  TextFieldOptions o;
  o.max_bytes = limits::kMaxTextBytes + 1;  // one byte over: refused with a message, not cut silently
  o.accessible_name = tr("Sentence");
  if (!ap::text_field(id, text, o)) return false;
  SelfSceneParams p = scene_.params();
  p.*member = *text;
  (void)report_result(ctx.st, id + 2, scene_.apply(p));
  edit_.submitted(scene_);
  return true;
}

// Which weights: seeded ("random, seed s") or a layer of the build's trained model (the checkpoint is fetched
// the first time); the label says which, measured, never typed.
void SelfView::weights_controls(ViewContext& ctx) {
  const SelfAttnModel& m = scene_.model();
  bool trained = false;
  if (weights_radios(tr("trained (coreference)"), scene_.trained_pending() || scene_.params().trained, true, &trained)) {
    SelfSceneParams p = scene_.params();
    p.trained = trained;
    if (p.trained) {  // the trained layer's sentence, shapes and last layer (the scene checks them)
      p.text = kTrainedSentence;
      p.layer = scene_.trained_layers();
      p.cross = p.identity = false;
      p.positional = true;
    }
    (void)report_result(ctx.st, "weights", scene_.apply(p));
  }
  if (m.trained) {
    int layer = scene_.params().layer;
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 7.f);
    if (ImGui::SliderInt((std::string(tr("layer")) + "###layer").c_str(), &layer, 1, scene_.trained_layers())) {
      SelfSceneParams p = scene_.params();
      p.layer = layer;
      (void)report_result(ctx.st, "layer", scene_.apply(p));
    }
  }
  weights_label_line(scene_.trained_pending(), scene_.weights_label());
  if (m.trained) training_panel(ctx, scene_.training(), scene_.training_error(), &train_edit_, "self");
}

void SelfView::controls(ViewContext& ctx) {
  sync(ctx);
  weights_controls(ctx);
  sync(ctx);
  const bool trained = scene_.model().trained;
  const SelfAttnModel& m = scene_.model();
  const float fs = ImGui::GetFontSize();
  const auto apply = [&](const char* key) { (void)edit_.submit(ctx.st, scene_, key); };
  edit_.release_fields({"##text", "##text2"});
  section_heading(tr("first sentence (keys, values)"));
  sentence_field(ctx, "##text", &text_, &SelfAttnParams::text);
  ImGui::TextDisabled("m = %d   (%s %d)", m.trace.m, tr("limit"), self_limits::kMaxTokens);
  ImGui::BeginDisabled(trained);  // the trained layer fixes these (the scene refuses other values)
  if (ImGui::Checkbox((std::string(tr("cross-attention (Q from sentence 2)")) + "###cross").c_str(), &edit_.p.cross)) apply("cross");
  ImGui::BeginDisabled(!scene_.params().cross || trained);
  ImGui::TextUnformatted(tr("second sentence (queries)"));
  sentence_field(ctx, "##text2", &text2_, &SelfAttnParams::text2);
  if (scene_.params().cross) ImGui::TextDisabled("n = %d", m.trace.n);
  ImGui::EndDisabled();
  ImGui::Spacing();
  if (ImGui::Checkbox((std::string(tr("Q = K = V = X (no projections)")) + "###identity").c_str(), &edit_.p.identity)) apply("identity");
  const float field = fs * 7.f;
  ImGui::SetNextItemWidth(field);
  if (ImGui::InputInt("d_model###d_model", &edit_.p.d_model, 1, 8)) apply("d_model");
  ImGui::SetNextItemWidth(field);
  if (ImGui::InputInt("d_k###d_k", &edit_.p.d_k, 1, 4)) apply("d_k");
  if (scene_.params().identity) {
    ImGui::PushTextWrapPos(0.f);
    ImGui::TextDisabled("%s", tr("d_k is not used: Q = K = V = X has d_model columns"));
    ImGui::PopTextWrapPos();
  }
  if (ImGui::Checkbox((std::string(tr("add position codes (sin/cos)")) + "###positional").c_str(), &edit_.p.positional)) apply("positional");
  ImGui::EndDisabled();
  if (seed_input(tr("seed"), "seed", &edit_.p.seed, field)) {
    apply("seed");
  }
  ImGui::Spacing();
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  if (trained)
    text_wrapped("%s", tr("X, Q, K and V are the trained model's, at the layer chosen; the seed makes the random W^Q, W^K, W^V shown beside them on the same X."));
  else
    text_wrapped("%s", tr("Weights are seeded, not trained: they show the mechanism, not what a trained model attends to."));
  ImGui::PopStyleColor();
}

// The formula follows the mode: cross-attention takes Q from X₂; Q = K = V = X has no W and scales by √d_model.
std::pair<const char*, const char*> SelfView::caption(const ViewContext& ctx) const {
  const auto base = SceneView::caption(ctx);
  const SelfSceneParams& p = scene_.params();
  switch (static_cast<SelfStage>(scene_.timeline.stage())) {
    case SelfStage::Qkv:
      if (p.identity)
        return {p.cross ? "Q = X₂,   K = V = X" : "Q = K = V = X",
                tr("No projections: Q, K and V are the embeddings themselves, so d_k = d_model and each token's query is its own key.")};
      if (p.cross)
        return {"Q = X₂W^Q,   K = XW^K,   V = XW^V",
                tr("Cross-attention: the queries come from the second sentence (X2), the keys and values from the first (X); n and m may differ.")};
      return base;
    case SelfStage::Weights:
      return {p.identity ? "A = softmax(QKᵀ / √d_model),   n × m" : "A = softmax(QKᵀ / √dₖ),   n × m", base.second};
    default: return base;
  }
}

std::string SelfView::step_text(const ViewContext&) const {
  const SelfAttnModel& m = scene_.model();
  const SelfSceneParams& p = scene_.params();
  char buf[320];
  std::snprintf(buf, sizeof buf, "n = %d, m = %d, d_model = %d, d_k = %d  ·  %s: %s %s, %s %s", m.trace.n, m.trace.m, p.d_model, m.d_k,
                tr("mean self-weight (diagonal of A)"), tr(SelfScene::setting_title(QkSetting::Identity)), fmt(m.self_weight[0].mean, 3).c_str(),
                tr(SelfScene::setting_title(QkSetting::Separate)), fmt(m.self_weight[2].mean, 3).c_str());
  return buf;
}

void SelfView::stage(ViewContext& ctx) {
  sync(ctx);
  switch (static_cast<SelfStage>(scene_.timeline.stage())) {
    case SelfStage::Qkv: qkv_stage(ctx); break;
    case SelfStage::Weights: weights_stage(ctx); break;
    case SelfStage::Output: output_stage(ctx); break;
    default: measured_stage(ctx); break;
  }
}

namespace {
// Draws `v` in `size` and reports its hovered cell as `item`.
void draw_matrix(ViewContext& ctx, MatrixView& v, ImVec2 size, SelfItem item) {
  const MatrixViewResult r = matrix_view(v, size);
  if (r.hover_i >= 0 && r.hover_j >= 0) {
    ctx.hover_what = static_cast<int>(item);
    ctx.hover_i = r.hover_i;
    ctx.hover_j = r.hover_j;
  }
}
// "·" or "=" between two matrices, half-way down a row of height `h`.
void operator_sign(const char* sign, float h) {
  const float fs = ImGui::GetFontSize();
  const ImVec2 p = ImGui::GetCursorScreenPos();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  if (sign[0] == '=') dl->AddText(nullptr, fs * 1.6f, ImVec2(p.x, p.y + h * 0.4f), ImGui::GetColorU32(ImGuiCol_Text), sign);
  else dl->AddCircleFilled(ImVec2(p.x + fs * 0.5f, p.y + h * 0.4f + fs * 0.8f), fs * 0.18f, ImGui::GetColorU32(ImGuiCol_Text));
  ImGui::Dummy(ImVec2(fs, h * 0.5f));
}
}  // namespace

// Stage 1: X (and X₂ in cross-attention) on the left; Q, K, V on the right, each row a token.
void SelfView::qkv_stage(ViewContext& ctx) {
  const SelfAttnModel& m = scene_.model();
  const bool cross = scene_.params().cross, identity = scene_.params().identity;
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float fs = ImGui::GetFontSize();
  // Side by side; on a phone (compact) X above Q, K, V, which then share the whole width (beside X they had
  // under a pixel per column at 390 px).
  const bool stacked = ctx.compact;
  const float left_w = stacked ? avail.x : avail.x * 0.42f, right_w = stacked ? avail.x : avail.x - left_w - fs * 1.5f;
  const float h_all = avail.y - fs * 0.5f;
  const float h = stacked ? (h_all - fs) * 0.45f : h_all;          // X (and X2)
  const float h_qkv = stacked ? h_all - fs - h : h_all;             // Q, K, V
  MatrixView v;
  v.square = false;  // rows keep their label height whatever the number of columns (square cells would squeeze labelled rows)
  v.lo = -range_x_;
  v.hi = range_x_;
  v.decimals = 1;
  ImGui::BeginGroup();
  if (cross) {
    v.m = &m.X2;
    v.row_labels = &m.query_tokens;
    v.key = {this, 0, scene_.generation()};
    v.title = shape_title("X2", m.X2);
    draw_matrix(ctx, v, ImVec2(left_w, h * 0.48f), SelfItem::X2);
    ImGui::Dummy(ImVec2(1, fs * 0.5f));
  }
  v.m = &m.X;
  v.row_labels = &m.key_tokens;
  v.key = {this, 1, scene_.generation()};
  v.title = m.trained ? tr_format(N_("X: the input of trained layer {0}"), {std::to_string(scene_.params().layer)}) + "   (" +
                            std::to_string(m.X.rows()) + " × " + std::to_string(m.X.cols()) + ")"
                      : shape_title("X", m.X);
  draw_matrix(ctx, v, ImVec2(left_w, cross ? h * 0.48f : h), SelfItem::X);
  ImGui::EndGroup();
  if (stacked) ImGui::Dummy(ImVec2(1, fs * 0.5f));
  else ImGui::SameLine(0, fs * 1.5f);
  ImGui::BeginGroup();
  const float w3 = (right_w - fs * 2.f) / 3.f;
  const bool trained = m.trained;  // the trained layer's own projections, biases included
  const char* from_q = trained ? "Q = X·W^Q + b^Q" : identity ? (cross ? "Q = X2" : "Q = X") : (cross ? "Q = X2·W^Q" : "Q = X·W^Q");
  const char* from_k = trained ? "K = X·W^K + b^K" : identity ? "K = X" : "K = X·W^K";
  const char* from_v = trained ? "V = X·W^V + b^V" : identity ? "V = X" : "V = X·W^V";
  struct Part { const Mat* m; const char* name; const std::vector<std::string>* rows; SelfItem item; };
  const Part parts[] = {{&m.Q, from_q, &m.query_tokens, SelfItem::Q}, {&m.K, from_k, &m.key_tokens, SelfItem::K}, {&m.V, from_v, &m.key_tokens, SelfItem::V}};
  v.lo = -range_qkv_;
  v.hi = range_qkv_;
  for (int k = 0; k < 3; ++k) {
    if (k) ImGui::SameLine(0, fs);
    ImGui::BeginGroup();
    v.m = parts[k].m;
    v.row_labels = parts[k].rows;
    v.key = {this, 2 + k, scene_.generation()};
    v.title = parts[k].name;
    draw_matrix(ctx, v, ImVec2(w3, h_qkv - fs * 1.6f), parts[k].item);
    ImGui::TextDisabled("%d × %d", static_cast<int>(parts[k].m->rows()), static_cast<int>(parts[k].m->cols()));
    ImGui::EndGroup();
  }
  ImGui::EndGroup();
}

// Stage 2: the scaled scores and the weights, n queries (rows) × m keys (columns), labelled by token.
void SelfView::weights_stage(ViewContext& ctx) {
  const SelfAttnModel& m = scene_.model();
  const SelfSceneParams& p = scene_.params();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float fs = ImGui::GetFontSize();
  // The weights get the larger share: wide enough for numbered cells and key labels at the default sizes. On a
  // phone (compact) one above the other, each the whole width (side by side A was 65 px wide, every 3rd label).
  const bool stacked = ctx.compact;
  const float w_scores = stacked ? avail.x : (avail.x - fs) * 0.4f, w_weights = stacked ? avail.x : avail.x - fs - w_scores;
  const float h = stacked ? std::max((avail.y - fs * 3.2f) * 0.5f, fs * 16.f) : avail.y - fs * 2.2f;
  MatrixView v;
  v.square = false;  // rows keep their label height whatever the number of columns (square cells would squeeze labelled rows)
  v.row_labels = &m.query_tokens;
  v.col_labels = &m.key_tokens;
  if (m.trained) {
    // Random against trained, side by side: the same X, seeded W^Q, W^K (left) and the learned ones (right).
    const float half = stacked ? avail.x : (avail.x - fs) * 0.5f;
    const SelfWeight& rw = m.self_weight[static_cast<int>(QkSetting::Separate)];
    const SelfWeight& tw = m.trained_weight;
    // Each note wraps within its own half: a wider line would widen the left group and push the right one out.
    const auto note = [&](const SelfWeight& w) {
      ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + half);
      ImGui::TextDisabled("%s %s  ·  %s: %d / %d", tr("mean weight on the diagonal"), fmt(w.mean, 3).c_str(), tr("tokens whose largest weight is their own"),
                          static_cast<int>(std::lround(w.argmax_self * m.trace.n)), m.trace.n);
      ImGui::PopTextWrapPos();
    };
    v.scale = ColorScale::Sequential;
    v.lo = 0.f;
    v.hi = 1.f;
    v.decimals = 2;
    ImGui::BeginGroup();
    v.m = &m.self_weights[static_cast<int>(QkSetting::Separate)];
    v.key = {this, 12, scene_.generation()};
    v.title = std::string(tr("weights A, random W^Q, W^K")) + "   (" + scene_.random_label() + ")";
    draw_matrix(ctx, v, ImVec2(half, h - fs * (stacked ? 2.4f : 1.2f)), SelfItem::RandomWeights);
    note(rw);
    ImGui::EndGroup();
    if (!stacked) ImGui::SameLine(0, fs);
    ImGui::BeginGroup();
    v.m = &m.trace.weights();
    v.key = {this, 11, scene_.generation()};
    v.title = tr_format(N_("weights A, trained layer {0}"), {std::to_string(p.layer)});
    draw_matrix(ctx, v, ImVec2(half, h - fs * (stacked ? 2.4f : 1.2f)), SelfItem::Weights);
    note(tw);
    ImGui::EndGroup();
    ImGui::PushTextWrapPos(0.f);
    ImGui::TextDisabled("%s", scene_.weights_label().c_str());
    ImGui::PopTextWrapPos();
    return;
  }
  ImGui::BeginGroup();
  v.m = &m.trace.scaled;
  v.key = {this, 10, scene_.generation()};
  v.title = std::string(tr("scores S/√d_k")) + "   (" + std::to_string(m.trace.n) + " × " + std::to_string(m.trace.m) + ")";
  v.lo = -range_scaled_;
  v.hi = range_scaled_;
  v.decimals = 1;
  draw_matrix(ctx, v, ImVec2(w_scores, h), SelfItem::Weights);
  ImGui::EndGroup();
  if (!stacked) ImGui::SameLine(0, fs);
  ImGui::BeginGroup();
  v.m = &m.trace.weights();
  v.key = {this, 11, scene_.generation()};
  v.title = std::string(tr("weights A")) + "   (" + tr("n queries × m keys") + ")";
  v.scale = ColorScale::Sequential;
  v.lo = 0.f;
  v.hi = 1.f;
  v.decimals = 2;
  draw_matrix(ctx, v, ImVec2(w_weights, h), SelfItem::Weights);
  ImGui::EndGroup();
  ImGui::PushTextWrapPos(0.f);
  if (p.cross) {
    ImGui::TextDisabled("n = %d, m = %d  ·  %s", m.trace.n, m.trace.m,
                        tr("Rows are the second sentence's tokens, columns the first's: no token meets itself, so there is no diagonal of self-weights."));
  } else {
    const QkSetting shown = p.identity ? QkSetting::Identity : QkSetting::Separate;
    const SelfWeight& sw = m.self_weight[static_cast<int>(shown)];
    ImGui::TextDisabled("%s: %s   (%s %s)  ·  %s: %d / %d", tr("mean weight on the diagonal"), fmt(sw.mean, 3).c_str(), tr("uniform 1/m"),
                        fmt(sw.uniform, 3).c_str(), tr("tokens whose largest weight is their own"),
                        static_cast<int>(std::lround(sw.argmax_self * m.trace.n)), m.trace.n);
  }
  ImGui::PopTextWrapPos();
}

// Stage 3: A (n × m) times V (m × d_v) gives O (n × d_v): each output row mixes the V rows by its weights.
void SelfView::output_stage(ViewContext& ctx) {
  const SelfAttnModel& m = scene_.model();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float fs = ImGui::GetFontSize();
  // A · V = O in a row; on a phone (compact) A alone the whole width, "· V = O" below it.
  const bool stacked = ctx.compact;
  const float h_a = stacked ? std::max((avail.y - fs) * 0.5f, fs * 16.f) : avail.y - fs * 0.5f;
  const float h = stacked ? std::max(avail.y - fs - h_a, fs * 14.f) : h_a;
  const float wa = stacked ? avail.x : (avail.x - fs * 6.f) * 0.44f;
  const float wv = stacked ? (avail.x - fs * 5.5f) * 0.5f : (avail.x - fs * 6.f) * 0.28f;  // stacked: "·" and "=" in the row
  MatrixView v;
  v.square = false;  // rows keep their label height whatever the number of columns (square cells would squeeze labelled rows)
  ImGui::BeginGroup();
  v.m = &m.trace.weights();
  v.row_labels = &m.query_tokens;
  v.col_labels = &m.key_tokens;
  v.key = {this, 20, scene_.generation()};
  v.title = shape_title("A", *v.m);
  v.scale = ColorScale::Sequential;
  v.lo = 0.f;
  v.hi = 1.f;
  draw_matrix(ctx, v, ImVec2(wa, h_a), SelfItem::Weights);
  ImGui::EndGroup();
  if (stacked) {
    operator_sign("·", h);  // the row below reads "· V = O": A (above) times V
    ImGui::SameLine(0, fs * 0.6f);
  } else {
    ImGui::SameLine(0, fs * 0.6f);
    operator_sign("·", h);
    ImGui::SameLine(0, fs * 0.6f);
  }
  ImGui::BeginGroup();
  v = MatrixView{};
  v.square = false;
  v.m = &m.V;
  v.row_labels = &m.key_tokens;
  v.key = {this, 21, scene_.generation()};
  v.title = shape_title("V", m.V);
  v.lo = -range_qkv_;
  v.hi = range_qkv_;
  v.decimals = 1;
  draw_matrix(ctx, v, ImVec2(wv, h), SelfItem::V);
  ImGui::EndGroup();
  ImGui::SameLine(0, fs * 0.6f);
  operator_sign("=", h);
  ImGui::SameLine(0, fs * 0.6f);
  ImGui::BeginGroup();
  v.m = &m.trace.output;
  v.row_labels = &m.query_tokens;
  v.key = {this, 22, scene_.generation()};
  v.title = std::string(tr("output O = A·V")) + "   (" + std::to_string(m.trace.output.rows()) + " × " + std::to_string(m.trace.output.cols()) + ")";
  v.lo = -range_out_;
  v.hi = range_out_;
  draw_matrix(ctx, v, ImVec2(wv, h), SelfItem::Output);
  ImGui::EndGroup();
}

// Stage 4: the mean self-weight of the three settings as bars (uniform 1/m marked), and per token as a plot.
void SelfView::measured_stage(ViewContext& ctx) {
  const SelfAttnModel& m = scene_.model();
  const SelfSceneParams& p = scene_.params();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float fs = ImGui::GetFontSize();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const int settings = static_cast<int>(QkSetting::Count);
  // The rows: the three settings on X; with trained weights a fourth, the trained layer's (the one shown).
  struct Row { std::string title; const SelfWeight* w; };
  std::vector<Row> rows;
  for (int s = 0; s < settings; ++s) rows.push_back({tr(SelfScene::setting_title(static_cast<QkSetting>(s))), &m.self_weight[s]});
  if (m.trained) rows.push_back({tr_format(N_("trained W^Q, W^K (layer {0})"), {std::to_string(p.layer)}), &m.trained_weight});
  const int shown = m.trained ? settings : p.cross ? -1 : static_cast<int>(p.identity ? QkSetting::Identity : QkSetting::Separate);
  const int n_rows = static_cast<int>(rows.size());
  // 1) the bars: one row per setting, 0 … 1, with the share of tokens that attend most to themselves
  ImGui::TextUnformatted(tr("mean self-weight (diagonal of A)"));
  float label_w = 0, note_w = 0;
  std::vector<std::string> notes;
  for (const Row& row : rows) {
    const SelfWeight& w = *row.w;
    char buf[160];
    std::snprintf(buf, sizeof buf, "%s   (%d / %d %s)", fmt(w.mean, 3).c_str(), static_cast<int>(std::lround(w.argmax_self * w.diagonal.size())),
                  static_cast<int>(w.diagonal.size()), tr("tokens whose largest weight is their own"));
    notes.push_back(buf);
    label_w = std::max(label_w, math_text_width(row.title.c_str(), fs) + fs);
    note_w = std::max(note_w, ImGui::CalcTextSize(buf).x + fs);
  }
  // Too narrow for the whole note after each bar (a phone cut it to "0.680 (1"): the numbers only, and the
  // words once below the bars.
  const bool short_notes = label_w + note_w + fs * 8.f > avail.x;
  if (short_notes) {
    note_w = 0;
    for (size_t k = 0; k < rows.size(); ++k) {
      const SelfWeight& w = *rows[k].w;
      notes[k] = fmt(w.mean, 3) + " (" + std::to_string(static_cast<int>(std::lround(w.argmax_self * w.diagonal.size()))) + "/" +
                 std::to_string(w.diagonal.size()) + ")";
      note_w = std::max(note_w, ImGui::CalcTextSize(notes[k].c_str()).x + fs);
    }
  }
  const float bar_w = std::max(fs * 4.f, avail.x - label_w - note_w), row_h = fs * 1.9f;
  const ImVec2 o = ImGui::GetCursorScreenPos();
  const double uniform = m.self_weight[0].uniform;
  for (int s = 0; s < n_rows; ++s) {
    const SelfWeight& w = *rows[static_cast<size_t>(s)].w;
    const float y = o.y + s * row_h;
    const ImU32 text = ImGui::GetColorU32(s == shown ? ImGuiCol_Text : ImGuiCol_TextDisabled);
    draw_math_text(dl, ImVec2(o.x, y + (row_h - fs) * 0.5f), ImGui::GetColorU32(ImGuiCol_Text), rows[static_cast<size_t>(s)].title.c_str(), fs);
    const ImVec2 b0(o.x + label_w, y + fs * 0.25f), b1(o.x + label_w + bar_w, y + row_h - fs * 0.25f);
    dl->AddRectFilled(b0, b1, IM_COL32(236, 236, 240, 255), 3.f);
    dl->AddRectFilled(b0, ImVec2(b0.x + bar_w * static_cast<float>(std::clamp(w.mean, 0.0, 1.0)), b1.y), series_color(s), 3.f);
    if (s == shown) dl->AddRect(ImVec2(b0.x - 2, b0.y - 2), ImVec2(b1.x + 2, b1.y + 2), chosen_color(), 4.f, 0, 2.f);
    dl->AddText(ImVec2(b1.x + fs * 0.6f, y + (row_h - fs) * 0.5f), text, notes[static_cast<size_t>(s)].c_str());
  }
  const float ux = o.x + label_w + bar_w * static_cast<float>(uniform);
  dl->AddLine(ImVec2(ux, o.y), ImVec2(ux, o.y + n_rows * row_h), IM_COL32(60, 60, 60, 255), 1.5f);
  const std::string ulab = std::string(tr("uniform 1/m")) + " = " + fmt(uniform, 3);
  dl->AddText(ImVec2(ux + 4.f, o.y + n_rows * row_h + 2.f), ImGui::GetColorU32(ImGuiCol_TextDisabled), ulab.c_str());
  ImGui::Dummy(ImVec2(avail.x, n_rows * row_h + fs * 1.6f));
  if (short_notes) {
    ImGui::PushTextWrapPos(0.f);
    ImGui::TextDisabled("(k/n: %s)", tr("tokens whose largest weight is their own"));
    ImGui::PopTextWrapPos();
  }
  // Hover on a bar: the setting's per-token numbers are in the plot below; the bar names its mean.
  ImGui::PushTextWrapPos(0.f);
  if (m.trained)
    ImGui::TextDisabled("%s", tr("The same X under every setting: the trained model's layer input. Only the trained W^Q, W^K learned what each word should look for."));
  else
    ImGui::TextDisabled("%s", tr("Measured on the self-attention of the first sentence. Cross-attention has no diagonal: its queries come from another sentence."));
  ImGui::PopTextWrapPos();
  // 2) per token: A(i, i) for each setting
  PlotSpec spec;
  spec.title = tr("self-weight per token");
  spec.x_label = tr("token");
  spec.y_label = tr("weight on itself");
  spec.y_min = 0;
  spec.y_max = 1;
  spec.legend = PlotLegend::Outside;
  for (int s = 0; s < n_rows; ++s) {
    PlotSeries ser;
    ser.name = rows[static_cast<size_t>(s)].title;
    const SelfWeight& w = *rows[static_cast<size_t>(s)].w;
    for (size_t i = 0; i < w.diagonal.size(); ++i) {
      ser.x.push_back(static_cast<double>(i + 1));
      ser.y.push_back(w.diagonal[i]);
    }
    ser.points = true;
    ser.color = series_color(s);
    ser.thickness = s == shown ? 2.5f : 1.5f;
    spec.series.push_back(std::move(ser));
  }
  spec.y_markers.push_back({uniform, tr("uniform 1/m"), 0, true});
  // At least ten text lines tall (a projector at 2× text left it a strip of 110 px): the stage scrolls instead.
  const PlotResult r = plot("self_weight", spec, ImVec2(0, std::max(fs * 10.f, ImGui::GetContentRegionAvail().y - fs * 3.5f)));
  if (r.series >= 0 && r.point >= 0) {
    ctx.hover_what = static_cast<int>(SelfItem::Measured);
    ctx.hover_i = r.series;
    ctx.hover_j = r.point;
  }
  // What to notice, read off the bars and the plot just drawn: Q = K = V = X against separate W^Q, W^K.
  const auto own = [](const SelfWeight& w) { return std::to_string(static_cast<int>(std::lround(w.argmax_self * w.diagonal.size()))); };
  const SelfWeight &same = m.self_weight[static_cast<int>(QkSetting::Identity)], &separate = m.self_weight[static_cast<int>(QkSetting::Separate)];
  std::string notice = tr_format(N_("Notice: with Q = K = V = X, {0} of {1} tokens put their largest weight on themselves (mean {2}); with W^Q, W^K separate, {3} of {1} (mean {4}). Spread evenly it would be {5}."),
                                 {own(same), std::to_string(same.diagonal.size()), fmt(same.mean, 2), own(separate), fmt(separate.mean, 2), fmt(uniform, 2)});
  if (m.trained)
    notice += " " + tr_format(N_("The trained layer: {0} of {1} (mean {2})."),
                              {own(m.trained_weight), std::to_string(m.trained_weight.diagonal.size()), fmt(m.trained_weight.mean, 2)});
  text_wrapped("%s", notice.c_str());
}

}  // namespace ap
