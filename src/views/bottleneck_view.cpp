// View of the scene "The Seq2Seq bottleneck": the controls (sentence, d_in, d_h, gain, seed and the probe's
// sizes) and, stage by stage, the encoder reading the sentence (X and the growing H), c beside the source
// numbers, the probe's R² per position at the sentence's length (bars), and the mean R² against the length
// (plot). It draws what the scene holds (core/seq2seq.h); it computes nothing.
#include "views/bottleneck_view.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <initializer_list>
#include <string>
#include <vector>

#include "app/i18n.h"
#include "core/number_text.h"
#include "platform/platform.h"
#include "platform/text_field.h"
#include "widgets/colormap.h"
#include "widgets/matrix_view.h"
#include "views/race_panel.h"
#include "widgets/plot.h"
#include "widgets/section.h"
#include "widgets/seed_input.h"
#include "widgets/text_fit.h"

namespace ap {

namespace {
// The strings this view draws (its scene's own, for getState and errors, are in app/scenes/bottleneck_scene.cpp).
const TrPair kBottleneckViewStrings[] = {
    {"R² says how much of a word a linear read-out recovers from c: 1 all of it, 0 no more than guessing the average word, below 0 worse than that (on sentences the read-out never saw).",
     "R² 表示线性读出能从 c 中恢复一个词的多少：1 为全部，0 为不比猜平均词更好，低于 0 则比那还差（在读出从未见过的句子上）。"},
    {"Advanced", "高级"},
    {"L_max: the longest sentence the last stage measures.", "L_max：最后一个阶段测量的最长句子。"},
    {"ridge λ: how strongly the read-out's weights are pulled towards 0, so that it does not fit the training sentences' noise.",
     "岭回归 λ：把读出的权重往 0 拉的力度，使它不去拟合训练句子中的噪声。"},
    {"Notice: c keeps word {0} “{1}” best (R² {2}) and word {3} “{4}” least (R² {5}); from its own h_j every word keeps R² ≥ {6}.",
     "注意：c 保留第 {0} 个词“{1}”最好（R² {2}），第 {3} 个词“{4}”最少（R² {5}）；从各自的 h_j 读，每个词的 R² 都 ≥ {6}。"},
    {"A bar below 0: on held-out sentences the read-out does worse than always guessing the average word, so nothing of that word is left to read.",
     "低于 0 的柱：在留出句子上，读出比总是猜平均词还差，也就是这个词已经什么都读不出来了。"},
    {"Notice: the mean R² from c goes from {2} at L = {0} to {3} at L = {1}, always under the bound; from the h_j it stays at {4} or more.",
     "注意：从 c 读出的平均 R² 在 L = {0} 时为 {2}，在 L = {1} 时为 {3}，始终低于上界；从 h_j 读出的始终不低于 {4}。"},
    {"Notice: the mean R² from c goes from {2} at L = {0} to {3} at L = {1}; from the h_j it stays at {4} or more.",
     "注意：从 c 读出的平均 R² 在 L = {0} 时为 {2}，在 L = {1} 时为 {3}；从 h_j 读出的始终不低于 {4}。"},
    {"recurrent gain g", "循环增益 g"},
    {"the probe", "探针"},
    {"training sentences", "训练句子数"},
    {"held-out sentences", "留出句子数"},
    {"ridge λ", "岭回归 λ"},
    {"probe cost: {0} million multiply-adds (budget {1} million)", "探针开销：{0} 百万次乘加（预算 {1} 百万次）"},
    {"Weights and embeddings are seeded, not trained: the encoder shows how a fixed vector limits what survives, not a translation.",
     "权重和词向量都是随机种子生成的，没有训练：编码器展示的是固定向量如何限制能保留的信息，而不是一次翻译。"},
    {"the source X: n × d_in", "源句 X：n × d_in"},
    {"encoder states H: n × d_h", "编码器状态 H：n × d_h"},
    {"{0} source numbers → {1} numbers in c", "{0} 个源数字 → c 中的 {1} 个数"},
    {"{0} source numbers per number of c", "c 的每个数对应 {0} 个源数字"},
    {"A linear read-out of {0} numbers explains at most {0} of the {1} unit variances: mean R² ≤ {2}.",
     "{0} 个数的线性读出最多解释 {1} 个单位方差中的 {0} 个：平均 R² ≤ {2}。"},
    {"Everything fits: d_h ≥ n·d_in, so c could in principle hold every token.", "全部装得下：d_h ≥ n·d_in，c 原则上能保存每个词。"},
    {"from c (Seq2Seq)", "从 c 读出（Seq2Seq）"},
    {"from h_j (attention reads every h_j)", "从 h_j 读出（注意力读取每个 h_j）"},
    {"bound d_h/(L·d_in)", "上界 d_h/(L·d_in)"},
    {"R² per position, L = {0}", "每个位置的 R²，L = {0}"},
    {"mean R² over positions", "各位置的平均 R²"},
    {"sentence length L", "句子长度 L"},
    {"your sentence", "你的句子"},
    {"mean R²: from c {0}, from h_j {1}, bound {2}", "平均 R²：从 c {0}，从 h_j {1}，上界 {2}"},
    {"R² on {0} held-out random sentences of {1} tokens; the labels show which word of your sentence sits at each position.",
     "R² 在 {0} 个留出的、长 {1} 个词的随机句子上计算；标签显示你的句子在每个位置上的词。"},
    {"t = {0} “{1}”: h_{0} = tanh(W_x x_{0} + W_h h_{2} + b) = {3}", "t = {0} “{1}”：h_{0} = tanh(W_x x_{0} + W_h h_{2} + b) = {3}"},
    {"n = {0} tokens × d_in = {1} → d_h = {2} numbers", "n = {0} 个词 × d_in = {1} → d_h = {2} 个数"},
    {"nothing read yet: h_0 = 0", "还没有读入：h_0 = 0"},
    {"Train both models, then read their accuracy against length.", "训练两个模型，再看它们的准确率如何随长度变化。"},
    {"{0} symbols: with attention {1} of words right, without {2}", "{0} 个符号：有注意力时 {1} 的词正确，没有时 {2}"},
    {"with attention (c_t = Σ α h_j)", "有注意力（c_t = Σ α h_j）"},
    {"without attention (c = h_n)", "无注意力（c = h_n）"},
    {"held-out words right, by source length", "留出数据上词的正确率，按源序列长度"},
    {"source length (symbols)", "源序列长度（符号数）"},
    {"whole strings right", "整串正确"},
    {"Both models: a GRU encoder and a GRU decoder of {0} units, {1} steps of {2} strings each, {3}, seed {4}; the task: write a string of 4 to 24 symbols backwards. One reads only the last state c, one attends over every h_j.",
     "两个模型：{0} 维的 GRU 编码器和 GRU 解码器，各训练 {1} 步、每步 {2} 个串，{3}，种子 {4}；任务：把 4 到 24 个符号的串倒着写出来。一个只读最后的状态 c，一个对每个 h_j 做注意力。"},
    {"Measured on {0} strings of each length that neither model saw in training.", "在每个长度 {0} 个两个模型训练中都没见过的串上测量。"},
    {"Notice: at {0} symbols the model with attention gets {1} of the words right, the one that reads only c {2}; at {3} symbols {4} and {5}.",
     "注意：{0} 个符号时，有注意力的模型 {1} 的词正确，只读 c 的模型 {2}；{3} 个符号时分别是 {4} 和 {5}。"},
    {"Bahdanau et al. (2014), Figure 2: without attention the translation quality falls as sentences grow; with attention it does not. Here the same shape, measured in this page.",
     "Bahdanau 等人（2014）图 2：没有注意力时，句子越长翻译质量越差；有注意力时不会。这里是同样的形状，在本页中实测。"},
    {"Each row of H is one state h_t: the same d_h numbers must carry every token read so far.",
     "H 的每一行是一个状态 h_t：同样的 d_h 个数要承载到目前为止读过的每一个词。"},
};
}  // namespace

const TrPair* BottleneckView::strings(size_t* count) { return translation_table(kBottleneckViewStrings, count); }

namespace {

// from c: warm (accent_warm); from every h_j: cool (accent_cool)
constexpr ImU32 kBoundColor = IM_COL32(120, 120, 130, 255);


void dim_wrapped(const std::string& s) {
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  text_wrapped("%s", s.c_str());
  ImGui::PopStyleColor();
}

void legend_entry(ImDrawList* dl, ImVec2 at, ImU32 col, const char* text, float fs) {
  dl->AddRectFilled(ImVec2(at.x, at.y + fs * 0.2f), ImVec2(at.x + fs * 0.8f, at.y + fs * 0.9f), col, 2.f);
  dl->AddText(ImVec2(at.x + fs * 1.1f, at.y), ImGui::GetColorU32(ImGuiCol_Text), text);
}

}  // namespace

BottleneckView::~BottleneckView() { heatmap_release(this); }

// A new model from outside the controls (page API, preset, link): the fields show it. A text field being
// typed into would otherwise write its own text back over it at the next frame, so it lets go.
void BottleneckView::sync() {
  if (!edit_.sync(scene_)) return;
  text_ = edit_.p.text;
  const Vec& c = scene_.model().trace.last;
  c_column_ = Mat(c);  // d_h × 1: the same numbers, as a column for the matrix view
  unit_labels_.clear();
  for (Eigen::Index k = 0; k < c.size(); ++k) unit_labels_.push_back(std::to_string(k + 1));
}

void BottleneckView::controls(ViewContext& ctx) {
  sync();
  const float fs = ImGui::GetFontSize();
  // What the controls change is already in the fields: not an outside change.
  const auto apply = [&](const char* key) {
    (void)edit_.submit(ctx.st, scene_, key);
    c_column_ = Mat(scene_.model().trace.last);
    unit_labels_.clear();
    for (Eigen::Index k = 0; k < c_column_.rows(); ++k) unit_labels_.push_back(std::to_string(k + 1));
  };
  edit_.release_fields({"##text"});
  ImGui::Spacing();
  ImGui::TextUnformatted(tr("sentence"));
  ImGui::SetNextItemWidth(-1);
  TextFieldOptions o;
  o.max_bytes = 4095;
  o.accessible_name = tr("sentence");
  if (text_field("##text", &text_, o)) {
    edit_.p.text = text_;
    apply("text");
  }
  const float field = fs * 7.f;
  const auto int_field = [&](const char* label, const char* id, int* v, int step) {
    ImGui::SetNextItemWidth(field);
    if (ImGui::InputInt((std::string(label) + "###" + id).c_str(), v, step, step)) apply(id);
  };
  int_field("d_in", "d_in", &edit_.p.d_in, 1);
  int_field("d_h", "d_h", &edit_.p.d_h, 8);
  ImGui::SetNextItemWidth(field);
  if (ImGui::InputDouble((std::string(tr("recurrent gain g")) + "###gain").c_str(), &edit_.p.gain, 0.1, 0.1, "%.2f")) apply("gain");
  if (seed_input(tr("seed"), "seed", &edit_.p.seed, field)) {
    apply("seed");
  }
  section_heading(tr("the probe"));
  dim_wrapped(tr("R² says how much of a word a linear read-out recovers from c: 1 all of it, 0 no more than guessing the average word, below 0 worse than that (on sentences the read-out never saw)."));
  // The probe's own settings: most learners never need them (issue 17: folded under "Advanced").
  if (ImGui::TreeNode((std::string(tr("Advanced")) + "###advanced").c_str())) {
    int_field(tr("vocabulary"), "vocab", &edit_.p.vocab, 16);
    int_field("L_max", "l_max", &edit_.p.l_max, 1);
    dim_wrapped(tr("L_max: the longest sentence the last stage measures."));
    int_field(tr("training sentences"), "n_train", &edit_.p.n_train, 128);
    int_field(tr("held-out sentences"), "n_test", &edit_.p.n_test, 64);
    ImGui::SetNextItemWidth(field);
    if (ImGui::InputDouble((std::string(tr("ridge λ")) + "###lambda").c_str(), &edit_.p.lambda, 0.001, 0.01, "%.4g")) apply("lambda");
    dim_wrapped(tr("ridge λ: how strongly the read-out's weights are pulled towards 0, so that it does not fit the training sentences' noise."));
    const long long work = scene_.model().probe.work;
    dim_wrapped(tr_format(N_("probe cost: {0} million multiply-adds (budget {1} million)"),
                     {fmt(static_cast<double>(work) / 1e6, 1), std::to_string(probe_limits::kMaxProbeWork / 1000000)}));
    ImGui::TreePop();
  }
  ImGui::Spacing();
  dim_wrapped(tr("Weights and embeddings are seeded, not trained: the encoder shows how a fixed vector limits what survives, not a translation."));
}

std::string BottleneckView::step_text(const ViewContext&) const {
  const BottleneckModel& m = scene_.model();
  const BottleneckParams& p = scene_.params();
  const int n = m.n();
  switch (static_cast<BottleneckStage>(scene_.timeline.stage())) {
    case BottleneckStage::Read: {
      const int done = scene_.timeline.done_substeps();
      if (done <= 0) return tr("nothing read yet: h_0 = 0");
      const int t = std::min(done, n);
      std::string h = "(";
      const int show = std::min<int>(4, static_cast<int>(m.trace.H.cols()));
      for (int k = 0; k < show; ++k) h += (k ? ", " : "") + fmt(m.trace.H(t - 1, k), 2);
      h += m.trace.H.cols() > show ? ", …)" : ")";
      return tr_format(N_("t = {0} “{1}”: h_{0} = tanh(W_x x_{0} + W_h h_{2} + b) = {3}"),
                  {std::to_string(t), m.tokens[static_cast<size_t>(t - 1)], std::to_string(t - 1), h});
    }
    case BottleneckStage::Compress:
      return tr_format(N_("n = {0} tokens × d_in = {1} → d_h = {2} numbers"), {std::to_string(n), std::to_string(p.d_in), std::to_string(p.d_h)});
    case BottleneckStage::Trained: {
      const Seq2SeqRace& race = scene_.race();
      if (!race.measured()) return tr("Train both models, then read their accuracy against length.");
      const std::vector<int>& L = race.lengths();
      const size_t last = L.size() - 1;
      return tr_format(N_("{0} symbols: with attention {1} of words right, without {2}"),
                       {std::to_string(L[last]), fmt_percent(race.tokens_by_length(1)[last]), fmt_percent(race.tokens_by_length(0)[last])});
    }
    case BottleneckStage::Probe:
    case BottleneckStage::Grow:
    default: {
      const ProbeLength& at = m.at_sentence();
      return "L = " + std::to_string(at.L) + "   " +
             tr_format(N_("mean R²: from c {0}, from h_j {1}, bound {2}"),
                  {fmt(at.mean_r2_final, 3), fmt(at.mean_r2_reader, 3), fmt(bottleneck_bound(p.d_h, p.d_in, at.L), 3)});
    }
  }
}

void BottleneckView::stage(ViewContext& ctx) {
  sync();
  switch (static_cast<BottleneckStage>(scene_.timeline.stage())) {
    case BottleneckStage::Read: read_stage(ctx); break;
    case BottleneckStage::Compress: compress_stage(ctx); break;
    case BottleneckStage::Probe: probe_stage(ctx); break;
    case BottleneckStage::Grow: grow_stage(ctx); break;
    case BottleneckStage::Trained:
    default: trained_stage(ctx); break;
  }
}

namespace {
void hover_cell(ViewContext& ctx, const MatrixViewResult& r, BottleneckItem item) {
  if (r.hover_i >= 0 && r.hover_j >= 0) {
    ctx.hover_what = static_cast<int>(item);
    ctx.hover_i = r.hover_i;
    ctx.hover_j = r.hover_j;
  }
}
}  // namespace

// Stage 1: X (all of it) and H, revealed one row (one token) per sub-step; the row being read highlighted.
void BottleneckView::read_stage(ViewContext& ctx) {
  const BottleneckModel& m = scene_.model();
  const BottleneckParams& p = scene_.params();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float fs = ImGui::GetFontSize();
  const int n = m.n();
  const double sub = scene_.timeline.sub();
  const int current = std::clamp(static_cast<int>(std::ceil(sub)) - 1, 0, n - 1);
  const float share = std::clamp(static_cast<float>(p.d_in) / static_cast<float>(p.d_in + p.d_h), 0.22f, 0.45f);
  const float h = avail.y - fs * 4.f;
  const float wx = (avail.x - fs) * share, wh = avail.x - fs - wx;
  // both fill the height: cells need not be square here, and the rows of X and H line up
  MatrixView x;
  x.m = &m.X;
  x.key = {this, 0, scene_.generation()};
  x.title = std::string(tr("the source X: n × d_in")) + "   (" + std::to_string(n) + " × " + std::to_string(p.d_in) + ")";
  x.row_labels = &m.tokens;
  x.lo = -2.5f;
  x.hi = 2.5f;
  x.hl_row = scene_.timeline.stage_complete() ? -1 : current;
  x.square = false;
  x.max_cell_h = fs * 2.4f;
  ImGui::BeginGroup();
  hover_cell(ctx, matrix_view(x, ImVec2(wx, h)), BottleneckItem::Source);
  ImGui::EndGroup();
  ImGui::SameLine(0, fs);
  MatrixView hv;
  hv.m = &m.trace.H;
  hv.key = {this, 1, scene_.generation()};
  hv.title = std::string(tr("encoder states H: n × d_h")) + "   (" + std::to_string(n) + " × " + std::to_string(p.d_h) + ")";
  hv.row_labels = &m.tokens;
  hv.lo = -1.f;
  hv.hi = 1.f;
  hv.reveal = sub * p.d_h;
  hv.hl_row = scene_.timeline.stage_complete() ? -1 : current;
  hv.square = false;
  hv.max_cell_h = fs * 2.4f;
  ImGui::BeginGroup();
  const MatrixViewResult r = matrix_view(hv, ImVec2(wh, h));
  // a cell not computed yet has nothing to explain
  if (r.hover_i >= 0 && r.hover_i < static_cast<int>(std::ceil(sub))) hover_cell(ctx, r, BottleneckItem::State);
  ImGui::EndGroup();
  text_wrapped("%s", tr("Each row of H is one state h_t: the same d_h numbers must carry every token read so far."));
  dim_wrapped(tr("Weights and embeddings are seeded, not trained: the encoder shows how a fixed vector limits what survives, not a translation."));
}

// Stage 2: the n·d_in source numbers beside the d_h numbers of c, and the capacity this leaves.
void BottleneckView::compress_stage(ViewContext& ctx) {
  const BottleneckModel& m = scene_.model();
  const BottleneckParams& p = scene_.params();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float fs = ImGui::GetFontSize();
  const int n = m.n(), source = n * p.d_in;
  const float h = avail.y - fs * 0.5f;
  const float wx = avail.x * 0.36f, wc = std::min(avail.x * 0.16f, fs * 7.f), wt = avail.x - wx - wc - 2.f * fs;
  MatrixView x;
  x.m = &m.X;
  x.key = {this, 2, scene_.generation()};
  x.title = std::string(tr("the source X: n × d_in")) + "   (" + std::to_string(source) + ")";
  x.row_labels = &m.tokens;
  x.lo = -2.5f;
  x.hi = 2.5f;
  ImGui::BeginGroup();
  hover_cell(ctx, matrix_view(x, ImVec2(wx, h)), BottleneckItem::Source);
  ImGui::EndGroup();
  ImGui::SameLine(0, fs);
  MatrixView c;
  c.m = &c_column_;
  c.key = {this, 3, scene_.generation()};
  c.title = "c = h_" + std::to_string(n) + "   (" + std::to_string(p.d_h) + ")";
  c.row_labels = &unit_labels_;
  c.lo = -1.f;
  c.hi = 1.f;
  c.square = false;
  ImGui::BeginGroup();
  const MatrixViewResult r = matrix_view(c, ImVec2(wc, h));
  if (r.hover_i >= 0) {
    ctx.hover_what = static_cast<int>(BottleneckItem::Context);
    ctx.hover_i = 0;
    ctx.hover_j = r.hover_i;
  }
  ImGui::EndGroup();
  ImGui::SameLine(0, fs);
  ImGui::BeginGroup();
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + wt);
  ImGui::Dummy(ImVec2(wt, fs * 2.f));
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(accent_warm()));
  text_wrapped("%s", tr_format(N_("{0} source numbers → {1} numbers in c"), {std::to_string(source), std::to_string(p.d_h)}).c_str());
  ImGui::PopStyleColor();
  ImGui::Spacing();
  text_wrapped("%s", tr_format(N_("{0} source numbers per number of c"), {fmt(static_cast<double>(source) / p.d_h, 2)}).c_str());
  ImGui::Spacing();
  if (source > p.d_h)
    text_wrapped("%s", tr_format(N_("A linear read-out of {0} numbers explains at most {0} of the {1} unit variances: mean R² ≤ {2}."),
                                  {std::to_string(p.d_h), std::to_string(source), fmt(bottleneck_bound(p.d_h, p.d_in, n), 2)})
                                 .c_str());
  else
    text_wrapped("%s", tr("Everything fits: d_h ≥ n·d_in, so c could in principle hold every token."));
  ImGui::Spacing();
  dim_wrapped(tr("Weights and embeddings are seeded, not trained: the encoder shows how a fixed vector limits what survives, not a translation."));
  ImGui::PopTextWrapPos();
  ImGui::EndGroup();
}

// Stage 3: a grouped bar chart, one group per position of the sentence: R² from c and from h_j.
void BottleneckView::probe_stage(ViewContext& ctx) {
  const BottleneckModel& m = scene_.model();
  const BottleneckParams& p = scene_.params();
  const ProbeLength& at = m.at_sentence();
  const int L = at.L;
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float fs = ImGui::GetFontSize();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 o = ImGui::GetCursorScreenPos();
  const float total_h = std::max(fs * 12.f, avail.y - fs * 4.5f);
  // 1) layout: title and legend on top (its entries on more lines where one is too short: a phone cut the
  // second and dropped the third), y labels on the left, the positions and tokens below (the tokens turned
  // upwards where a slot is narrower than a word: on a phone they ran into each other).
  const float left = fs * 3.f;
  struct Entry { ImU32 col; const char* text; bool line; ImVec2 at; };
  Entry entries[3] = {{accent_warm(), tr("from c (Seq2Seq)"), false, {}}, {accent_cool(), tr("from h_j (attention reads every h_j)"), false, {}},
                      {kBoundColor, tr("bound d_h/(L·d_in)"), true, {}}};
  float lx = o.x + left, ly = o.y + fs * 1.5f;
  for (Entry& e : entries) {
    const float w = fs * 1.1f + ImGui::CalcTextSize(e.text).x;
    if (lx > o.x + left && lx + w > o.x + avail.x) {
      lx = o.x + left;
      ly += fs * 1.3f;
    }
    e.at = ImVec2(lx, ly);
    lx += w + fs * 1.4f;
  }
  float token_w = 0;
  for (int j = 0; j < L; ++j) token_w = std::max(token_w, ImGui::CalcTextSize(m.tokens[static_cast<size_t>(j)].c_str()).x);
  const float slot_w = (avail.x - fs * 0.5f - left) / static_cast<float>(std::max(1, L));
  const bool turned = token_w > slot_w - 2.f && slot_w >= fs * 1.1f;
  const float token_h = std::min(token_w, fs * 6.f);
  const float top = ly - o.y + fs * 1.7f, bottom = turned ? fs * 1.6f + token_h : fs * 2.8f;
  const ImVec2 p0(o.x + left, o.y + top), p1(o.x + avail.x - fs * 0.5f, o.y + total_h - bottom);
  dl->AddText(o, ImGui::GetColorU32(ImGuiCol_Text), tr_format(N_("R² per position, L = {0}"), {std::to_string(L)}).c_str());
  for (const Entry& e : entries) {
    if (!e.line) {
      legend_entry(dl, e.at, e.col, e.text, fs);
      continue;
    }
    dl->AddLine(ImVec2(e.at.x, e.at.y + fs * 0.6f), ImVec2(e.at.x + fs * 0.8f, e.at.y + fs * 0.6f), e.col, 2.f);
    dl->AddText(ImVec2(e.at.x + fs * 1.1f, e.at.y), ImGui::GetColorU32(ImGuiCol_Text), e.text);
  }
  // 2) y axis: from below the lowest value (R² can be slightly negative) to 1
  double lo = -0.1;
  for (size_t j = 0; j < static_cast<size_t>(L); ++j) lo = std::min({lo, at.r2_final[j], at.r2_reader[j]});
  lo = std::floor(lo * 10.0) / 10.0;
  const double hi = 1.0;
  const auto y_of = [&](double v) { return static_cast<float>(p1.y - (v - lo) / (hi - lo) * (p1.y - p0.y)); };
  const ImU32 grid = ImGui::GetColorU32(ImGuiCol_Border), text_dim = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  for (double g = std::ceil(lo * 4.0) / 4.0; g <= hi + 1e-9; g += 0.25) {
    const float y = y_of(g);
    dl->AddLine(ImVec2(p0.x, y), ImVec2(p1.x, y), grid, std::fabs(g) < 1e-9 ? 2.f : 1.f);
    const std::string t = fmt(g, 2);
    dl->AddText(ImVec2(p0.x - ImGui::CalcTextSize(t.c_str()).x - fs * 0.3f, y - fs * 0.5f), text_dim, t.c_str());
  }
  // 3) bars, with the position under the mouse highlighted and reported
  const float slot = (p1.x - p0.x) / static_cast<float>(L);
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  const bool inside = ImGui::IsWindowHovered() && mouse.x >= p0.x && mouse.x < p1.x && mouse.y >= p0.y && mouse.y < p1.y + bottom;
  const int hovered = inside ? std::clamp(static_cast<int>((mouse.x - p0.x) / slot), 0, L - 1) : -1;
  const float zero = y_of(0.0), bar = slot * 0.36f;
  for (int j = 0; j < L; ++j) {
    const float x0 = p0.x + slot * j;
    if (j == hovered) dl->AddRectFilled(ImVec2(x0, p0.y), ImVec2(x0 + slot, p1.y), chosen_fill(160));
    const float xc = x0 + slot * 0.5f;
    const double vf = at.r2_final[static_cast<size_t>(j)], vr = at.r2_reader[static_cast<size_t>(j)];
    dl->AddRectFilled(ImVec2(xc - bar, std::min(zero, y_of(vf))), ImVec2(xc - 1.f, std::max(zero, y_of(vf))), accent_warm());
    dl->AddRectFilled(ImVec2(xc + 1.f, std::min(zero, y_of(vr))), ImVec2(xc + bar, std::max(zero, y_of(vr))), accent_cool());
    const std::string num = std::to_string(j + 1);
    dl->AddText(ImVec2(xc - ImGui::CalcTextSize(num.c_str()).x * 0.5f, p1.y + fs * 0.2f), text_dim, num.c_str());
    const std::string& tok = m.tokens[static_cast<size_t>(j)];
    if (turned) {
      const std::string t = fit_text(tok, token_h);
      text_up(dl, nullptr, fs, xc - fs * 0.5f, p1.y + fs * 1.4f + text_width(t), ImGui::GetColorU32(ImGuiCol_Text), t);
      continue;
    }
    const float tw = ImGui::CalcTextSize(tok.c_str()).x;
    dl->PushClipRect(ImVec2(x0 + 1.f, p1.y), ImVec2(x0 + slot - 1.f, p1.y + bottom), true);
    dl->AddText(ImVec2(xc - std::min(tw, slot - 2.f) * 0.5f, p1.y + fs * 1.3f), ImGui::GetColorU32(ImGuiCol_Text), tok.c_str());
    dl->PopClipRect();
  }
  // 4) the bound for this length: the most the mean R² from c can be
  const float yb = y_of(bottleneck_bound(p.d_h, p.d_in, L));
  for (float x = p0.x; x < p1.x; x += fs * 0.8f) dl->AddLine(ImVec2(x, yb), ImVec2(std::min(x + fs * 0.45f, p1.x), yb), kBoundColor, 2.f);
  ImGui::Dummy(ImVec2(avail.x, total_h));
  if (hovered >= 0) {
    ctx.hover_what = static_cast<int>(BottleneckItem::Position);
    ctx.hover_i = hovered;
    ctx.hover_j = 0;
  }
  ImGui::Text("%s", tr_format(N_("mean R²: from c {0}, from h_j {1}, bound {2}"),
                         {fmt(at.mean_r2_final, 3), fmt(at.mean_r2_reader, 3), fmt(bottleneck_bound(p.d_h, p.d_in, L), 3)})
                        .c_str());
  // What to notice, read off the bars just drawn: where c keeps most and least, and how low the h_j go.
  int best = 0, worst = 0;
  double reader_min = 1.0;
  bool negative = false;
  for (int j = 0; j < L; ++j) {
    const double v = at.r2_final[static_cast<size_t>(j)];
    if (v > at.r2_final[static_cast<size_t>(best)]) best = j;
    if (v < at.r2_final[static_cast<size_t>(worst)]) worst = j;
    reader_min = std::min(reader_min, at.r2_reader[static_cast<size_t>(j)]);
    negative = negative || v < 0 || at.r2_reader[static_cast<size_t>(j)] < 0;
  }
  if (L > 1)
    text_wrapped("%s", tr_format(N_("Notice: c keeps word {0} “{1}” best (R² {2}) and word {3} “{4}” least (R² {5}); from its own h_j every word keeps R² ≥ {6}."),
                                  {std::to_string(best + 1), m.tokens[static_cast<size_t>(best)], fmt(at.r2_final[static_cast<size_t>(best)], 2),
                                   std::to_string(worst + 1), m.tokens[static_cast<size_t>(worst)], fmt(at.r2_final[static_cast<size_t>(worst)], 2),
                                   fmt(reader_min, 2)}).c_str());
  if (negative)
    dim_wrapped(tr("A bar below 0: on held-out sentences the read-out does worse than always guessing the average word, so nothing of that word is left to read."));
  dim_wrapped(tr_format(N_("R² on {0} held-out random sentences of {1} tokens; the labels show which word of your sentence sits at each position."),
                   {std::to_string(p.n_test), std::to_string(L)}));
}

// Stage 4: mean R² against L for c and for the h_j, with the capacity bound and the sentence's own length.
void BottleneckView::grow_stage(ViewContext& ctx) {
  const BottleneckModel& m = scene_.model();
  const BottleneckParams& p = scene_.params();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float fs = ImGui::GetFontSize();
  PlotSeries fin, rd, bound;
  fin.name = tr("from c (Seq2Seq)");
  rd.name = tr("from h_j (attention reads every h_j)");
  bound.name = tr("bound d_h/(L·d_in)");
  fin.color = accent_warm();
  rd.color = accent_cool();
  bound.color = kBoundColor;
  fin.points = rd.points = true;
  bound.dashed = true;
  for (const ProbeLength& pl : m.probe.lengths) {
    fin.x.push_back(pl.L);
    fin.y.push_back(pl.mean_r2_final);
    rd.x.push_back(pl.L);
    rd.y.push_back(pl.mean_r2_reader);
    bound.x.push_back(pl.L);
    bound.y.push_back(bottleneck_bound(p.d_h, p.d_in, pl.L));
  }
  PlotSpec s;
  s.title = tr("mean R² over positions");
  s.x_label = tr("sentence length L");
  s.y_label = "R²";
  s.series = {fin, rd, bound};
  s.x_min = 0.5;
  s.x_max = p.l_max + 0.5;
  s.y_max = 1.05;
  s.x_markers = {{static_cast<double>(m.n()), std::string(tr("your sentence")) + ": L = " + std::to_string(m.n()), 0, true}};
  s.legend = PlotLegend::BottomLeft;
  const PlotResult r = plot("bottleneck_grow", s, ImVec2(avail.x, avail.y - fs * 3.6f));
  if (r.series >= 0 && r.point >= 0) {
    ctx.hover_what = static_cast<int>(BottleneckItem::Length);
    ctx.hover_i = r.point;
    ctx.hover_j = r.series;
  }
  // What to notice, read off the curves: how far c falls, whether it stays under the bound, where the h_j stay.
  const auto& ls = m.probe.lengths;
  if (ls.size() >= 2) {
    bool under = true;
    double reader_min = 1.0;
    for (const ProbeLength& pl : ls) {
      under = under && pl.mean_r2_final <= bottleneck_bound(p.d_h, p.d_in, pl.L) + 1e-9;
      reader_min = std::min(reader_min, pl.mean_r2_reader);
    }
    text_wrapped("%s", tr_format(under ? N_("Notice: the mean R² from c goes from {2} at L = {0} to {3} at L = {1}, always under the bound; from the h_j it stays at {4} or more.")
                                        : N_("Notice: the mean R² from c goes from {2} at L = {0} to {3} at L = {1}; from the h_j it stays at {4} or more."),
                                  {std::to_string(ls.front().L), std::to_string(ls.back().L), fmt(ls.front().mean_r2_final, 2),
                                   fmt(ls.back().mean_r2_final, 2), fmt(reader_min, 2)}).c_str());
  }
  dim_wrapped(tr("Weights and embeddings are seeded, not trained: the encoder shows how a fixed vector limits what survives, not a translation."));
}

// Stage 5: Seq2Seq without and with attention trained here on the same data and budget (app/seq2seq_race.h),
// then their held-out accuracy against the source length; while they train, their held-out curves.
void BottleneckView::trained_stage(ViewContext& ctx) {
  Seq2SeqRace& race = scene_.race();
  const float fs = ImGui::GetFontSize();
  const train::Seq2SeqRecipe& r = race.recipes().front();
  ImGui::PushTextWrapPos(0.f);
  dim_wrapped(tr_format(N_("Both models: a GRU encoder and a GRU decoder of {0} units, {1} steps of {2} strings each, {3}, seed {4}; the task: write a string of 4 to 24 symbols backwards. One reads only the last state c, one attends over every h_j."),
                        {std::to_string(r.d_h), std::to_string(r.steps), std::to_string(r.batch), rate_schedule_text(r), std::to_string(r.seed)}));
  ImGui::PopTextWrapPos();
  race_buttons(ctx, race, "bottleneck", tr("Train both"));
  const std::vector<RaceSeries> names = {{tr("without attention (c = h_n)"), accent_warm()}, {tr("with attention (c_t = Σ α h_j)"), accent_cool()}};
  race_faults(race, names);
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const bool measured = race.measured();
  const float notes_h = measured ? fs * 5.2f : fs * 1.5f;
  const float h = std::max(fs * 10.f, avail.y - notes_h);
  // Side by side where there is room (the measurement gets the larger share), else one above the other.
  const bool side = avail.x >= fs * 40.f;
  const ImVec2 curve_size = !measured ? ImVec2(avail.x, h) : side ? ImVec2(avail.x * 0.4f - fs * 0.5f, h) : ImVec2(avail.x, h * 0.4f);
  if (measured) {
    PlotSpec s;
    s.title = tr("held-out words right, by source length");
    s.x_label = tr("source length (symbols)");
    const std::vector<int>& L = race.lengths();
    for (int k = 0; k < 2; ++k) {
      PlotSeries tok, sent;
      tok.name = names[static_cast<size_t>(k)].name;
      tok.color = names[static_cast<size_t>(k)].color;
      tok.points = true;
      tok.thickness = 2.5f;
      sent.name = std::string(tr("whole strings right")) + " (" + (k ? "attn" : "c") + ")";
      sent.color = tok.color;
      sent.dashed = true;
      for (size_t i = 0; i < L.size(); ++i) {
        tok.x.push_back(L[i]);
        tok.y.push_back(race.tokens_by_length(k)[i]);
        sent.x.push_back(L[i]);
        sent.y.push_back(race.sentences_by_length(k)[i]);
      }
      s.series.push_back(tok);
      s.series.push_back(sent);
    }
    s.x_min = L.front() - 1;
    s.x_max = L.back() + 1;
    s.y_min = 0;
    s.y_max = 1.02;
    s.legend = PlotLegend::BottomLeft;
    const PlotResult pr = plot("bottleneck_by_length", s, side ? ImVec2(avail.x * 0.6f - fs * 0.5f, h) : ImVec2(avail.x, h * 0.6f));
    if (pr.series >= 0 && pr.point >= 0) {
      ctx.hover_what = static_cast<int>(BottleneckItem::TrainedLength);
      ctx.hover_i = pr.point;
      ctx.hover_j = pr.series / 2 == 0 ? 0 : 1;
    }
    if (side) ImGui::SameLine(0, fs);
  }
  race_curves(race, names, curve_size, "bottleneck_race");
  if (measured) {
    const std::vector<int>& L = race.lengths();
    size_t mid = 0;
    for (size_t i = 0; i < L.size(); ++i)
      if (L[i] == 16) mid = i;
    const size_t last = L.size() - 1;
    text_wrapped("%s", tr_format(N_("Notice: at {0} symbols the model with attention gets {1} of the words right, the one that reads only c {2}; at {3} symbols {4} and {5}."),
                                 {std::to_string(L[mid]), fmt_percent(race.tokens_by_length(1)[mid]), fmt_percent(race.tokens_by_length(0)[mid]),
                                  std::to_string(L[last]), fmt_percent(race.tokens_by_length(1)[last]), fmt_percent(race.tokens_by_length(0)[last])})
                          .c_str());
    dim_wrapped(tr_format(N_("Measured on {0} strings of each length that neither model saw in training."), {std::to_string(race.per_length())}));
    dim_wrapped(tr("Bahdanau et al. (2014), Figure 2: without attention the translation quality falls as sentences grow; with attention it does not. Here the same shape, measured in this page."));
  }
}

}  // namespace ap
