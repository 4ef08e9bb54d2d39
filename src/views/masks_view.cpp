// View of the scene "Masks and a bug lab": the controls (sentences, causal mask, bug, L, heads, seed, the
// sentence shown) and, stage by stage, the padded batch, the mask of one sentence, its weights computed
// correctly and with the bug, and every bug's measured damage. It draws what the scene holds
// (core/mask_lab.h); it computes nothing.
#include "views/masks_view.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "app/i18n.h"
#include "core/number_text.h"
#include "platform/platform.h"
#include "platform/text_field.h"
#include "widgets/colormap.h"
#include "widgets/matrix_view.h"
#include "widgets/seed_input.h"
#include "widgets/tooltip.h"
#include "widgets/text_fit.h"
#include "widgets/table_headers.h"
#include "core/train/induction.h"
#include "views/race_panel.h"
#include "widgets/plot.h"

namespace ap {

namespace {
// The strings this view draws (its scene's own, for getState and errors, are in app/scenes/masks_scene.cpp).
const TrPair kMasksViewStrings[] = {
    {"Train the three", "训练这三个模型"},
    {"Train three models: the same data, the same steps, one difference: how the future is masked.", "训练三个模型：同样的数据，同样的步数，唯一的区别是如何遮住未来。"},
    {"training loss: {0} with the mask, {1} without, {2} masked after the softmax; writing on its own: {3}, {4} and {5} right",
     "训练损失：有掩码 {0}，无掩码 {1}，softmax 之后加掩码 {2}；自己生成时的正确率：{3}、{4} 和 {5}"},
    {"with the causal mask", "带因果掩码"},
    {"causal mask forgotten (the bug)", "忘了因果掩码（bug）"},
    {"mask after softmax (the bug)", "softmax 之后加掩码（bug）"},
    {"Notice: masked after the softmax, the future gets weight 0 but still takes its share of each row's normaliser: the visible keys share less than 1, and the row sums carry the future. Here that did not pay: its training loss ends at {0} against the correct model's {1}, and writing on its own it is right {2}.",
     "注意：在 softmax 之后加掩码，未来的权重是 0，但它仍然在每行的归一化分母中占一份：可见的 key 分到的总和小于 1，而行和携带着未来的信息。这里这并没有带来好处：它的训练损失最后是 {0}，正确的模型是 {1}；自己生成时的正确率是 {2}。"},
    {"Notice: masked after the softmax, the future gets weight 0 but still takes its share of each row's normaliser, and the row sums carry the future: its training loss ends {0} times lower than the correct model's ({1} against {2}); writing on its own it is right {3}.",
     "注意：在 softmax 之后加掩码，未来的权重是 0，但它仍然在每行的归一化分母中占一份，行和携带着未来的信息：它的训练损失比正确的模型低了 {0} 倍（{1} 对 {2}）；自己生成时的正确率是 {3}。"},
    {"training loss", "训练损失"},
    {"training loss (last {0} steps)", "训练损失（最后 {0} 步）"},
    {"right with the whole sequence given", "给出整个序列时的正确率"},
    {"right when writing on its own", "自己生成时的正确率"},
    {"model", "模型"},
    {"All three: the induction task's model (2 attention layers, d_model {0}), {1} steps of {2} sequences, learning rate {3}, seed {4}; the same sequences in the same order. Each sequence repeats a segment of 6 random tokens; the loss is on the repeat.",
     "三个模型：归纳任务的模型（2 层注意力，d_model {0}），训练 {1} 步、每步 {2} 个序列，学习率 {3}，种子 {4}；同样的序列，同样的顺序。每个序列把 6 个随机词元组成的片段重复一次；损失算在重复部分上。"},
    {"Measured on {0} held-out sequences: given the whole sequence, and writing the repeat on its own from the prompt (everything up to its first token).",
     "在 {0} 个留出序列上测量：给出整个序列时，以及从提示（直到重复部分的第一个词元）开始自己写出重复部分时。"},
    {"Notice: without the mask the training loss ends {0} times lower ({1} against {2}) and with the whole sequence given it is right {3}; writing on its own it is right {4}, the correct model {5}. It learned to read the answer from the next position, which is not there when it writes.",
     "注意：没有掩码时，训练损失低了 {0} 倍（{1} 对 {2}），给出整个序列时正确率 {3}；自己生成时只有 {4}，而正确的模型是 {5}。它学会了从下一个位置读答案，而自己生成时那个位置还不存在。"},
    {"A held-out prompt and what each model writes after it:", "一个留出的提示，以及每个模型在它后面写出的内容："},
    {"prompt", "提示"},
    {"should be", "应为"},
    {"weights A: no bug chosen (the same)", "权重 A：未选 bug（相同）"},
    {"one sentence per line", "每行一个句子"},
    {"causal mask", "因果掩码"},
    {"pad to L (0: longest)", "补齐到 L（0：最长句）"},
    {"sentence shown", "显示的句子"},
    {"weights A (correct)", "权重 A（正确）"},
    {"weights A (with the bug)", "权重 A（有 bug）"},
    {"mask: 1 = hidden", "掩码：1 = 被遮住"},
    {"max |row sum − 1|", "最大 |行和 − 1|"},
    {"weight on hidden keys", "被遮住的 key 上的权重"},
    {"future leak", "未来泄漏"},
    {"padding leak", "填充泄漏"},
    {"entropy change", "熵的变化"},
    {"max |ΔO|", "最大 |ΔO|"},
    {"empty rows", "空行"},
    {"needs the causal mask", "需要开启因果掩码"},
    {"Notice: with no bug every measure is 0: hidden keys get exactly 0 weight, each row sums to 1 and nothing leaks.",
     "注意：没有 bug 时每一项都是 0：被遮住的 key 权重恰好为 0，每行之和为 1，没有任何泄漏。"},
    {"Notice: “{0}” moves the output by up to {1}, {2} % of the output's largest entry ({3}); the weight on hidden keys reaches {4}.",
     "注意：“{0}”让输出最多变化 {1}，是输出最大元素（{3}）的 {2} %；被遮住的 key 上的权重最高达 {4}。"},
    {"Units: row sums and weights are shares of 1; the leaks and max |ΔO| are in the output's own units (its entries here reach ±{0}); entropy in nats. A correct mask gives 0 for every one.",
     "单位：行和与权重都是 1 的份额；泄漏和最大 |ΔO| 用输出本身的单位（这里输出元素最大到 ±{0}）；熵以奈特计。正确的掩码在每一项上都是 0。"},
    {"leak: how much the output of a row changes when a token it must not see is replaced",
     "泄漏：把一行不应看到的词替换掉时，这一行的输出变化多少"},
    {"Weights are seeded, not trained: they show the mechanism, not a trained model's attention.",
     "权重是随机种子生成的，没有训练：展示的是机制，不是训练后模型的注意力。"},
};
}  // namespace

const TrPair* MasksView::strings(size_t* count) { return translation_table(kMasksViewStrings, count); }

namespace {
constexpr ImU32 kPadColor = IM_COL32(225, 225, 230, 255);
constexpr ImU32 kTokenColor = IM_COL32(214, 228, 246, 255);

std::string join_lines(const std::vector<std::string>& v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? "\n" : "") + v[i];
  return s;
}
std::vector<std::string> split_lines(const std::string& s) {
  std::vector<std::string> out;
  size_t at = 0;
  while (at <= s.size()) {
    const size_t nl = s.find('\n', at);
    std::string line = s.substr(at, nl == std::string::npos ? std::string::npos : nl - at);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    out.push_back(line);
    if (nl == std::string::npos) break;
    at = nl + 1;
  }
  while (out.size() > 1 && out.back().empty()) out.pop_back();  // a trailing newline is not a sentence
  return out;
}
}  // namespace

MasksView::~MasksView() { heatmap_release(this); }

// A new model from outside the controls (page API, preset, link): the fields show it. A text field being
// typed into would otherwise write its own text back over it at the next frame, so it lets go.
void MasksView::sync() {
  if (edit_.sync(scene_)) text_ = join_lines(edit_.p.sentences);
}

void MasksView::controls(ViewContext& ctx) {
  sync();
  const float fs = ImGui::GetFontSize();
  // What the controls change is already in the fields: not an outside change.
  const auto apply = [&](const char* key) { (void)edit_.submit(ctx.st, scene_, key); };
  edit_.release_fields({"##sentences"});
  ImGui::Spacing();
  ImGui::TextUnformatted(tr("sentences"));
  ImGui::SameLine();
  ImGui::TextDisabled("(%s)", tr("one sentence per line"));
  TextFieldOptions o;
  o.multiline = true;
  o.height = fs * 5.5f;
  o.max_bytes = 4095;
  o.accessible_name = tr("one sentence per line");
  if (text_field("##sentences", &text_, o)) {
    edit_.p.sentences = split_lines(text_);
    edit_.p.sentence = std::min<int>(edit_.p.sentence, static_cast<int>(edit_.p.sentences.size()) - 1);
    apply("sentences");
  }
  if (ImGui::Checkbox((std::string(tr("causal mask")) + "###causal").c_str(), &edit_.p.causal)) {
    if (!edit_.p.causal && mask_bug_needs_causal(edit_.p.bug)) edit_.p.bug = MaskBug::None;
    apply("causal");
  }
  ImGui::SetNextItemWidth(-1);
  if (ImGui::BeginCombo("##bug", tr(MasksScene::bug_title(edit_.p.bug)))) {
    for (MaskBug b : all_mask_bugs()) {
      const bool usable = edit_.p.causal || !mask_bug_needs_causal(b);
      std::string label = std::string(tr(MasksScene::bug_title(b))) + (usable ? "" : std::string("  (") + tr("needs the causal mask") + ")");
      if (ImGui::Selectable((label + "###" + mask_bug_name(b)).c_str(), b == edit_.p.bug, usable ? 0 : ImGuiSelectableFlags_Disabled)) {
        edit_.p.bug = b;
        apply("bug");
      }
    }
    ImGui::EndCombo();
  }
  if (ImGui::IsItemHovered()) tooltip("%s", tr("bug"));
  const float field = fs * 7.f;
  const auto int_field = [&](const char* label, const char* id, int* v, int step) {
    ImGui::SetNextItemWidth(field);
    if (ImGui::InputInt((std::string(tr(label)) + "###" + id).c_str(), v, step, step)) apply(id);
  };
  int_field(N_("pad to L (0: longest)"), "pad_to", &edit_.p.pad_to, 1);
  int_field("d_model", "d_model", &edit_.p.d_model, 8);
  int_field(N_("heads"), "heads", &edit_.p.heads, 1);
  if (seed_input(tr("seed"), "seed", &edit_.p.seed, field)) {
    apply("seed");
  }
  ImGui::SetNextItemWidth(field);
  int shown = edit_.p.sentence + 1;
  if (ImGui::SliderInt((std::string(tr("sentence shown")) + "###sentence").c_str(), &shown, 1,
                       std::max(1, static_cast<int>(scene_.params().sentences.size())))) {
    edit_.p.sentence = shown - 1;
    apply("sentence");
  }
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  text_wrapped("%s", tr("Weights are seeded, not trained: they show the mechanism, not a trained model's attention."));
  ImGui::PopStyleColor();
}

std::string MasksView::step_text(const ViewContext&) const {
  if (scene_.timeline.stage() == static_cast<int>(MasksStage::Training)) {
    const BugTraining& t = scene_.race();
    if (!t.done()) return tr("Train three models: the same data, the same steps, one difference: how the future is masked.");
    return tr_format(N_("training loss: {0} with the mask, {1} without, {2} masked after the softmax; writing on its own: {3}, {4} and {5} right"),
                     {fmt_sig(t.run(0).train_loss()), fmt_sig(t.run(1).train_loss()), fmt_sig(t.run(2).train_loss()),
                      fmt_percent(t.generation(0)), fmt_percent(t.generation(1)), fmt_percent(t.generation(2))});
  }
  const MasksModel& m = scene_.model();
  const MasksParams& p = scene_.params();
  char buf[300];
  std::snprintf(buf, sizeof buf, "B = %zu, L = %d, d_k = %d / %d = %d  ·  %s: %s  ·  %s %s, %s %s", m.batch.tokens.size(), m.batch.L,
                p.d_model, p.heads, m.batch.d_k, tr("bug"), tr(MasksScene::bug_title(p.bug)), tr("max |row sum − 1|"),
                fmt(m.run.damage.max_row_sum_dev, 3).c_str(), tr("weight on hidden keys"), fmt(m.run.damage.max_hidden_mass, 3).c_str());
  return buf;
}

void MasksView::stage(ViewContext& ctx) {
  sync();
  switch (static_cast<MasksStage>(scene_.timeline.stage())) {
    case MasksStage::Batch: batch_stage(ctx); break;
    case MasksStage::Masks: matrices(ctx, false); break;
    case MasksStage::Weights: matrices(ctx, true); break;
    case MasksStage::Damage: damage_stage(ctx); break;
    case MasksStage::Training:
    default: training_stage(ctx); break;
  }
}

// The B × L token grid: real tokens blue, [PAD] grey; the shown sentence outlined.
void MasksView::batch_stage(ViewContext& ctx) {
  const PaddedBatch& b = scene_.model().batch;
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  // Room to spare (a laptop: the 4 × 6 grid used a third of the stage): the grid in the formula's larger font.
  ImFont* big = ctx.fonts.formula;
  const float big_px = big ? big->FontSize * big->Scale * ImGui::GetIO().FontGlobalScale : 0.f;
  float widest = 0;
  for (const auto& row : b.tokens)
    for (const auto& t : row) widest = std::max(widest, ImGui::CalcTextSize(t.c_str()).x);
  const float scale = big_px / std::max(1.f, ImGui::GetFontSize());
  const bool grow = big && scale > 1.1f && (widest * scale + big_px) * b.L + big_px * 8.f < avail.x &&
                    big_px * 2.2f * static_cast<float>(b.tokens.size()) + big_px * 3.f < avail.y;
  if (grow) ImGui::PushFont(big);
  const float fs = ImGui::GetFontSize();
  const int B = static_cast<int>(b.tokens.size()), L = b.L;
  float cell_w = fs * 3.f;
  for (const auto& row : b.tokens)
    for (const auto& t : row) cell_w = std::max(cell_w, ImGui::CalcTextSize(t.c_str()).x + fs * 0.8f);
  const float label_w = fs * 2.4f;
  char widest_len[48];
  std::snprintf(widest_len, sizeof widest_len, "%d / %d", L, L);
  const float len_w = ImGui::CalcTextSize(widest_len).x + fs;
  cell_w = std::min(cell_w, std::max(fs * 2.f, (avail.x - label_w - len_w) / std::max(1, L)));
  const float cell_h = std::min(fs * 2.f, (avail.y - fs * 3.f) / std::max(1, B));
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 o = ImGui::GetCursorScreenPos();
  for (int j = 0; j < L; ++j) {
    const std::string h = std::to_string(j + 1);
    dl->AddText(ImVec2(o.x + label_w + j * cell_w + cell_w * 0.5f - ImGui::CalcTextSize(h.c_str()).x * 0.5f, o.y),
                ImGui::GetColorU32(ImGuiCol_TextDisabled), h.c_str());
  }
  const float y0 = o.y + fs * 1.4f;
  for (int i = 0; i < B; ++i) {
    const float y = y0 + i * cell_h;
    const std::string lab = "#" + std::to_string(i + 1);
    dl->AddText(ImVec2(o.x, y + (cell_h - fs) * 0.5f), ImGui::GetColorU32(ImGuiCol_Text), lab.c_str());
    for (int j = 0; j < L; ++j) {
      const bool pad = b.key_is_pad[static_cast<size_t>(i)][static_cast<size_t>(j)] != 0;
      const ImVec2 p0(o.x + label_w + j * cell_w + 1, y + 1), p1(o.x + label_w + (j + 1) * cell_w - 1, y + cell_h - 1);
      dl->AddRectFilled(p0, p1, pad ? kPadColor : kTokenColor, 3.f);
      const std::string& t = b.tokens[static_cast<size_t>(i)][static_cast<size_t>(j)];
      // A token wider than its cell (a phone: "attention") is drawn a little smaller, down to 75 %, then cut
      // with "…": never cut without a sign.
      const float room = p1.x - p0.x - fs * 0.4f, tw = std::max(1.f, ImGui::CalcTextSize(t.c_str()).x);
      const float size = std::clamp(fs * room / tw, fs * 0.75f, fs);
      const std::string shown = tw * size / fs <= room ? t : fit_text(t, room * fs / size);
      dl->PushClipRect(p0, p1, true);
      dl->AddText(ImGui::GetFont(), size, ImVec2(p0.x + fs * 0.2f, p0.y + (cell_h - 2 - size) * 0.5f),
                  ImGui::GetColorU32(pad ? ImGuiCol_TextDisabled : ImGuiCol_Text), shown.c_str());
      dl->PopClipRect();
    }
    char len[48];
    std::snprintf(len, sizeof len, "%d / %d", b.lengths[static_cast<size_t>(i)], L);
    dl->AddText(ImVec2(o.x + label_w + L * cell_w + fs * 0.6f, y + (cell_h - fs) * 0.5f), ImGui::GetColorU32(ImGuiCol_TextDisabled), len);
    if (i == scene_.params().sentence)
      dl->AddRect(ImVec2(o.x + label_w - 2, y), ImVec2(o.x + label_w + L * cell_w + 2, y + cell_h), chosen_color(), 4.f, 0, 2.f);
  }
  ImGui::Dummy(ImVec2(label_w + L * cell_w + len_w, fs * 1.4f + B * cell_h + fs * 0.5f));
  if (grow) ImGui::PopFont();
}

// Stage 2: the mask of the shown sentence. Stage 3: its weights, correct and with the bug, with row sums.
void MasksView::matrices(ViewContext& ctx, bool weights) {
  const MasksModel& m = scene_.model();
  const size_t s = static_cast<size_t>(scene_.params().sentence);
  if (s >= m.run.correct.size()) return;
  const std::vector<std::string>& toks = m.batch.tokens[s];
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float fs = ImGui::GetFontSize();
  const auto hover = [&](const MatrixViewResult& r, MasksItem item) {
    if (r.hover_i >= 0 && r.hover_j >= 0) {
      ctx.hover_what = static_cast<int>(item);
      ctx.hover_i = r.hover_i;
      ctx.hover_j = r.hover_j;
    }
  };
  MatrixView v;
  v.row_labels = &toks;
  v.col_labels = &toks;
  v.scale = ColorScale::Sequential;
  v.lo = 0.f;
  v.hi = 1.f;
  // Room to spare (a laptop: six tokens at the usual cell size leave half the stage empty): a matrix is drawn in
  // the formula's larger font, so that its cells and numbers grow, when its cells at that size within w × h are
  // still larger than the usual largest.
  ImFont* big = ctx.fonts.formula;
  const float big_px = big ? big->FontSize * big->Scale * ImGui::GetIO().FontGlobalScale : fs;
  const int n = static_cast<int>(toks.size());
  const auto grows = [&](float w, float h) {
    return big && big_px > fs * 1.1f && n > 0 && (w - big_px * 6.f) / static_cast<float>(n) >= fs * 3.625f * 1.1f &&
           (h - big_px * 3.f) / static_cast<float>(n) >= fs * 1.625f * 1.1f;
  };
  if (!weights) {
    const ImVec2 area(std::min(avail.x, fs * 40.f), avail.y - fs * 2.f);
    const bool grow = grows(area.x, area.y);
    if (grow) ImGui::PushFont(big);
    v.m = &m.run.correct[s].hidden;
    v.key = {this, 0, scene_.generation()};
    v.title = std::string(tr("mask: 1 = hidden")) + "   (" + std::to_string(toks.size()) + " × " + std::to_string(toks.size()) + ")";
    v.decimals = 0;
    hover(matrix_view(v, area), MasksItem::Hidden);
    if (grow) ImGui::PopFont();
    return;
  }
  // Side by side; one above the other on a stage taller than wide (a phone held upright), where side by side
  // leaves each too narrow for its numbers.
  const bool stacked = avail.y > avail.x * 1.2f;
  const float w = stacked ? avail.x : (avail.x - fs) * 0.5f;
  const float h = stacked ? (avail.y - fs * 5.f) * 0.5f : avail.y - fs * 3.5f;
  const auto sums = [&](const Mat& a) {
    std::string t = std::string(tr("row sum")) + ": ";
    for (int i = 0; i < a.rows(); ++i) {
      if (m.batch.key_is_pad[s][static_cast<size_t>(i)]) continue;  // padding query rows are thrown away
      double r = 0;
      for (int j = 0; j < a.cols(); ++j) r += a(i, j);
      t += fmt(r, 2) + " ";
    }
    return t;
  };
  const bool grow = grows(w, h);
  ImGui::BeginGroup();
  if (grow) ImGui::PushFont(big);
  v.m = &m.run.correct[s].weights;
  v.key = {this, 1, scene_.generation()};
  v.title = tr("weights A (correct)");
  hover(matrix_view(v, ImVec2(w, h)), MasksItem::Correct);
  if (grow) ImGui::PopFont();
  ImGui::TextDisabled("%s", sums(m.run.correct[s].weights).c_str());
  ImGui::EndGroup();
  if (!stacked) ImGui::SameLine(0, fs);
  ImGui::BeginGroup();
  if (grow) ImGui::PushFont(big);
  v.m = &m.run.variant[s].weights;
  v.key = {this, 2, scene_.generation()};
  const MaskBug bug = scene_.params().bug;
  v.title = bug == MaskBug::None ? tr("weights A: no bug chosen (the same)")
                                 : std::string(tr("weights A (with the bug)")) + ": " + tr(MasksScene::bug_title(bug));
  hover(matrix_view(v, ImVec2(w, h)), MasksItem::Variant);
  if (grow) ImGui::PopFont();
  const double dev = m.run.per_sentence[s].max_row_sum_dev;
  if (dev > 1e-4) ImGui::PushStyleColor(ImGuiCol_Text, flag_color(Flag::Bad));
  else ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ImGui::TextUnformatted(sums(m.run.variant[s].weights).c_str());
  ImGui::PopStyleColor();
  ImGui::EndGroup();
}

// Every variant on the same batch: one row each, the chosen one highlighted; a click chooses it. Where the
// eight columns do not fit (a phone), one small table per variant instead: measure and value, nothing cut.
void MasksView::damage_stage(ViewContext& ctx) {
  const MasksModel& m = scene_.model();
  const float fs = ImGui::GetFontSize();
  const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp;
  const char* cols[] = {N_("bug"), N_("max |row sum − 1|"), N_("weight on hidden keys"), N_("future leak"), N_("padding leak"),
                        N_("entropy change"), N_("max |ΔO|"), N_("empty rows")};
  const ImU32 chosen_bg = chosen_fill();
  const auto choose = [&](const MaskLabRun& r, bool chosen, ImGuiSelectableFlags f) {
    if (ImGui::Selectable((std::string(tr(MasksScene::bug_title(r.bug))) + "###row_" + mask_bug_name(r.bug)).c_str(), chosen, f)) {
      edit_.p.bug = r.bug;
      (void)report_result(ctx.st, "bug", scene_.apply(edit_.p));
    }
    if (ImGui::IsItemHovered()) tooltip("%s", tr(MasksScene::bug_effect(r.bug)));
  };
  // The measures of one run, as the text of its cells: "0" where nothing is damaged.
  const auto value = [&](const MaskLabRun& r, int k) {
    const MaskDamage& d = r.damage;
    if (k == 6) {
      ImGui::Text("%d", d.empty_rows);
      return;
    }
    const double vals[] = {d.max_row_sum_dev, d.max_hidden_mass, d.future_leak, d.pad_leak, r.entropy_change, d.max_output_diff};
    const bool bad = std::abs(vals[k]) > 1e-4;
    if (bad) ImGui::PushStyleColor(ImGuiCol_Text, flag_color(Flag::Bad));
    ImGui::TextUnformatted(bad ? fmt(vals[k], 3).c_str() : "0");
    if (bad) ImGui::PopStyleColor();
  };
  const float table_w = ImGui::GetContentRegionAvail().x;
  if (table_w >= fs * 30.f) {
    if (ImGui::BeginTable("damage", 8, flags)) {
      // Stretched by weight: the bug names get twice a measure's width, every measure the same.
      std::vector<TableColumn> columns;
      for (int k = 0; k < 8; ++k) columns.push_back({tr(cols[k]), k == 0 ? 2.f : 1.f});
      table_setup_columns(columns, table_w);
      table_headers_wrapped();
      for (const MaskLabRun& r : m.bugs) {
        ImGui::TableNextRow();
        const bool chosen = r.bug == scene_.params().bug;
        if (chosen) ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg0, chosen_bg);
        ImGui::TableNextColumn();
        choose(r, chosen, ImGuiSelectableFlags_SpanAllColumns);
        for (int k = 0; k < 7; ++k) {
          ImGui::TableNextColumn();
          value(r, k);
        }
      }
      ImGui::EndTable();
    }
  } else {
    for (const MaskLabRun& r : m.bugs) {
      const bool chosen = r.bug == scene_.params().bug;
      ImGui::PushID(mask_bug_name(r.bug));
      if (ImGui::BeginTable("damage_of", 2, flags)) {
        ImGui::TableSetupColumn("measure", ImGuiTableColumnFlags_WidthStretch, 3.f);
        ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthStretch, 1.f);
        ImGui::TableNextRow();
        if (chosen) ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg0, chosen_bg);
        ImGui::TableNextColumn();
        choose(r, chosen, ImGuiSelectableFlags_SpanAllColumns);
        for (int k = 0; k < 7; ++k) {
          ImGui::TableNextRow();
          ImGui::TableNextColumn();
          ImGui::PushTextWrapPos(0.f);
          ImGui::TextUnformatted(tr(cols[k + 1]));
          ImGui::PopTextWrapPos();
          ImGui::TableNextColumn();
          value(r, k);
        }
        ImGui::EndTable();
      }
      ImGui::PopID();
      ImGui::Spacing();
    }
  }
  ImGui::Spacing();
  ImGui::PushTextWrapPos(0.f);
  // What to notice, read off the table just drawn: the chosen bug's damage against the output's own scale.
  const MaskLabRun& chosen = m.run;
  const double scale = chosen.baseline.max_abs_output;
  if (chosen.bug == MaskBug::None) {
    text_wrapped("%s", tr("Notice: with no bug every measure is 0: hidden keys get exactly 0 weight, each row sums to 1 and nothing leaks."));
  } else {
    const double worst = std::max({chosen.damage.max_output_diff, chosen.damage.pad_leak, chosen.damage.future_leak});
    text_wrapped("%s", tr_format(N_("Notice: “{0}” moves the output by up to {1}, {2} % of the output's largest entry ({3}); the weight on hidden keys reaches {4}."),
                                             {tr(MasksScene::bug_title(chosen.bug)), fmt(worst, 3), fmt(scale > 0 ? 100.0 * worst / scale : 0.0, 0),
                                              fmt(scale, 3), fmt(chosen.damage.max_hidden_mass, 3)}).c_str());
  }
  ImGui::TextDisabled("%s", tr_format(N_("Units: row sums and weights are shares of 1; the leaks and max |ΔO| are in the output's own units (its entries here reach ±{0}); entropy in nats. A correct mask gives 0 for every one."),
                                            {fmt(scale, 2)}).c_str());
  ImGui::TextDisabled("%s", tr("leak: how much the output of a row changes when a token it must not see is replaced"));
  ImGui::TextDisabled("%s", tr(MasksScene::bug_effect(scene_.params().bug)));
  if (!scene_.params().causal) ImGui::TextDisabled("%s: %s", tr("causal mask"), tr("needs the causal mask"));
  ImGui::PopTextWrapPos();
}

// Stage 5: the same tiny causal language model trained with its mask and with the mask forgotten (app/bug_training.h):
// the commands, both loss curves, the measured table and one held-out prompt written by each.
void MasksView::training_stage(ViewContext& ctx) {
  BugTraining& t = scene_.race();
  const train::BugLabRecipe& r = t.recipe();
  const float fs = ImGui::GetFontSize();
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  text_wrapped("%s", tr_format(N_("All three: the induction task's model (2 attention layers, d_model {0}), {1} steps of {2} sequences, learning rate {3}, seed {4}; the same sequences in the same order. Each sequence repeats a segment of 6 random tokens; the loss is on the repeat."),
                               {std::to_string(r.d_model), std::to_string(r.steps), std::to_string(r.batch), fmt_sig(r.learning_rate, 2), std::to_string(r.seed)}).c_str());
  ImGui::PopStyleColor();
  race_buttons(ctx, t, "masks", tr("Train the three"));
  constexpr int kRuns = BugTraining::kRuns;
  const char* names[kRuns] = {tr("with the causal mask"), tr("causal mask forgotten (the bug)"), tr("mask after softmax (the bug)")};
  const ImU32 colors[kRuns] = {accent_cool(), accent_warm(), third_series()};
  // 1) the training loss of each, on a log scale (the forgotten mask's falls over decades)
  PlotSpec s;
  s.title = tr("training loss");
  s.x_label = tr("step");
  for (int k = 0; k < kRuns; ++k) {
    PlotSeries ps;
    ps.name = names[k];
    ps.color = colors[k];
    if (t.started())
      for (const train::BugLabPoint& p : t.run(k).curve()) {
        ps.x.push_back(p.step);
        ps.y.push_back(p.loss);
      }
    s.series.push_back(ps);
  }
  s.y_log = true;
  s.x_min = 0;
  s.x_max = r.steps;
  s.legend = PlotLegend::BottomLeft;
  s.empty_text = tr("Press Train to start.");
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const bool side = avail.x >= fs * 44.f;
  // Side by side with the table where there is room; else the plot above it, never shorter than 12 lines (the stage
  // scrolls: a projector's 2× text and a phone squeezed it to one tick).
  const float plot_h = std::max(fs * 12.f, avail.y - fs * (t.done() ? (side ? 4.f : 12.f) : 2.f));
  plot("masks_bug_loss", s, ImVec2(side && t.done() ? avail.x * 0.45f : avail.x, plot_h));
  if (!t.done()) return;
  if (side) ImGui::SameLine(0, fs);
  ImGui::BeginGroup();
  // 2) the measured table
  const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp;
  const float table_w = side ? avail.x * 0.55f - fs : avail.x;
  if (ImGui::BeginTable("bug_training", 4, flags, ImVec2(table_w, 0))) {
    table_setup_columns({{tr("model"), 1.4f},
                         {tr_format(N_("training loss (last {0} steps)"), {std::to_string(train::kBugLabLossWindow)}).c_str(), 1.f},
                         {tr("right with the whole sequence given"), 1.f},
                         {tr("right when writing on its own"), 1.f}},
                        table_w);
    table_headers_wrapped();
    for (int k = 0; k < kRuns; ++k) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      text_wrapped("%s", names[k]);
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(fmt_sig(t.run(k).train_loss()).c_str());
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(fmt_percent(t.teacher_forced(k)).c_str());
      ImGui::TableNextColumn();
      const bool failed = t.generation(k) < t.generation(0) - 0.1;  // writes measurably worse than the correct model
      if (failed) ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(flag_color(Flag::Failure)));
      ImGui::TextUnformatted(fmt_percent(t.generation(k)).c_str());
      if (failed) ImGui::PopStyleColor();
    }
    ImGui::EndTable();
  }
  // 3) one held-out prompt, and what each wrote after it
  const std::vector<std::string>& vocab = train::induction_vocabulary();
  const auto words = [&](const std::vector<int>& ids) {
    std::string w;
    for (int id : ids) w += (w.empty() ? "" : " ") + vocab[static_cast<size_t>(id)];
    return w;
  };
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + table_w);
  ImGui::TextDisabled("%s", tr("A held-out prompt and what each model writes after it:"));
  const train::BugLabRun::Sample& a = t.sample(0);
  ImGui::Text("%s: %s", tr("prompt"), words(a.prompt).c_str());
  ImGui::Text("%s: %s", tr("should be"), words(a.truth).c_str());
  for (int k = 0; k < kRuns; ++k) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(colors[k]));
    text_wrapped("%s: %s", names[k], words(t.sample(k).written).c_str());
    ImGui::PopStyleColor();
  }
  ImGui::PopTextWrapPos();
  ImGui::EndGroup();
  const double l0 = t.run(0).train_loss(), l1 = t.run(1).train_loss();
  text_wrapped("%s", tr_format(N_("Notice: without the mask the training loss ends {0} times lower ({1} against {2}) and with the whole sequence given it is right {3}; writing on its own it is right {4}, the correct model {5}. It learned to read the answer from the next position, which is not there when it writes."),
                               {fmt(l1 > 0 ? l0 / l1 : 0.0, 0), fmt_sig(l1), fmt_sig(l0), fmt_percent(t.teacher_forced(1)), fmt_percent(t.generation(1)),
                                fmt_percent(t.generation(0))}).c_str());
  // The second bug, read off its own numbers: whether its leak paid in the training loss or cost it the task.
  const double l2 = t.run(2).train_loss();
  if (l2 >= l0)
    text_wrapped("%s", tr_format(N_("Notice: masked after the softmax, the future gets weight 0 but still takes its share of each row's normaliser: the visible keys share less than 1, and the row sums carry the future. Here that did not pay: its training loss ends at {0} against the correct model's {1}, and writing on its own it is right {2}."),
                                 {fmt_sig(l2), fmt_sig(l0), fmt_percent(t.generation(2))}).c_str());
  else
    text_wrapped("%s", tr_format(N_("Notice: masked after the softmax, the future gets weight 0 but still takes its share of each row's normaliser, and the row sums carry the future: its training loss ends {0} times lower than the correct model's ({1} against {2}); writing on its own it is right {3}."),
                                 {fmt(l2 > 0 ? l0 / l2 : 0.0, 0), fmt_sig(l2), fmt_sig(l0), fmt_percent(t.generation(2))}).c_str());
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  text_wrapped("%s", tr_format(N_("Measured on {0} held-out sequences: given the whole sequence, and writing the repeat on its own from the prompt (everything up to its first token)."),
                               {std::to_string(train::kBugLabPrompts)}).c_str());
  ImGui::PopStyleColor();
}

}  // namespace ap
