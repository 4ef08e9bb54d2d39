// View of the scene "Cost: attention vs RNN": the controls (n, d, k, P, the measurement's range) and, stage by
// stage, the complexity table, the counts as curves over n, the measured medians with their slopes, the P-lane
// model, the animation of n dependent steps against one, and the memory of naive against tiled attention.
// It draws what the scene holds (core/cost_model.h, core/sweep.h); it computes nothing but plot points of the
// scene's own formulas.
// Over 700 lines for a reason: one file per stage would split the helpers every stage shares (the curves'
// names and colours, the number texts); each stage is one section below, in the scene's order.
#include "views/cost_view.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "app/i18n.h"
#include "core/kernels.h"
#include "core/number_text.h"
#include "widgets/colormap.h"
#include "widgets/math_text.h"
#include "widgets/plot.h"
#include "widgets/text_fit.h"
#include "widgets/tooltip.h"
#include "widgets/table_headers.h"

namespace ap {

namespace {
// The strings this view draws (its scene's own, for getState and errors, are in app/scenes/cost_scene.cpp).
const TrPair kCostViewStrings[] = {
    {"Notice: self-attention needs {0} sequential step and a path of {1} between any two tokens, the recurrent layer {2} and {3}: that is what attention buys with its {4}× the multiply-adds.",
     "注意：自注意力只需 {0} 个顺序步骤，任意两个词元之间的路径长度为 {1}，循环层则是 {2} 和 {3}：这就是注意力用 {4} 倍的乘加换来的。"},
    {"Notice: self-attention needs {0} sequential step and a path of {1} between any two tokens, the recurrent layer {2} and {3}; with n ≤ d it even does fewer multiply-adds ({4}×).",
     "注意：自注意力只需 {0} 个顺序步骤，任意两个词元之间的路径长度为 {1}，循环层则是 {2} 和 {3}；n ≤ d 时它的乘加甚至更少（{4} 倍）。"},
    {"Notice: on this device naive attention's time grows like n^{0} and the Elman RNN's like n^{1}, at fixed d: attention's work is 2·n²·d, the RNN's 2·n·d².",
     "注意：在这台设备上，朴素注意力的时间随 n^{0} 增长，Elman RNN 的随 n^{1} 增长（d 固定）：注意力的工作量是 2·n²·d，RNN 的是 2·n·d²。"},
    {"Notice: at n = {0} naive attention's score matrix takes {1}, {2}× all the tiled kernel needs ({3}); double n and the matrix takes four times as much.",
     "注意：n = {0} 时朴素注意力的分数矩阵占 {1}，是分块内核全部所需（{3}）的 {2} 倍；n 加倍，矩阵所占变为四倍。"},
    {"multiply-adds per layer", "每层乘加次数"},
    {"score-matrix memory", "分数矩阵内存"},
    {"time per call (ms)", "每次调用时间（毫秒）"},
    {"memory (bytes)", "内存（字节）"},
    {"time (ms)", "时间（毫秒）"},
    {"lanes P", "通道数 P"},
    {"Measure on this device", "在本设备上测量"},
    {"Measure again", "重新测量"},
    {"Full sweep", "完整测量"},
    {"Quick: each point is one timed batch of at least 2 ms, so the slopes are rough; the full sweep times several.",
     "快速测量：每个点只计时一批（至少 2 毫秒），所以斜率较粗略；完整测量会计时多批。"},
    {"n = 16 … %d, %d runs per point (the controls set both)", "n = 16 … %d，每点 %d 次（两者都可在控制面板中设置）"},
    {"warming up", "预热中"},
    {"measuring", "测量中"},
    {"not measured yet", "尚未测量"},
    {"over n ≥ 256", "n ≥ 256 范围内"},
    {"RNN", "RNN"},
    {"hidden state", "隐藏状态"},
    {"all pairs at once", "一步算完所有词对"},
    {"hops from token 1 to token n", "从第 1 个词到第 n 个词的跳数"},
    {"attention is faster from P =", "注意力从 P = 起更快："},
    {"attention is not faster for any P up to 100,000", "P 到 100,000 为止注意力都不更快"},
    {"per-MAC times measured on this device", "每次乘加的时间为本设备实测"},
    {"per-MAC times assumed (1 ns): measure first", "每次乘加时间为假设值（1 纳秒）：请先测量"},
    {"one step = a tree sum (log2 terms) + one hand-off of 1 µs between lanes (assumed)",
     "一步 = 树形求和（log₂ 项）+ 通道间一次 1 微秒的交接（假设值）"},
    {"One thread: this measures work, not parallel speed.", "单线程：这里测的是工作量，不是并行速度。"},
    {"Each point is the median of several timed batches; each batch lasts at least 5 ms.",
     "每个点是若干次计时批次的中位数；每批至少持续 5 毫秒。"},
    {"sweep up to n", "测量到 n ="},
    {"Largest n of the measurement", "测量的最大 n"},
    {"Timed samples per point (the median is plotted)", "每个点的计时样本数（画出中位数）"},
    {"Lanes: multiply-adds that can run at the same time", "通道：可同时进行的乘加数"},
    {"Convolution kernel width", "卷积核宽度"},
    {"Sequence length (tokens)", "序列长度（词数）"},
    {"Model width = d_k = hidden size", "模型宽度 = d_k = 隐藏层大小"},
    {"crossover n = d", "交叉点 n = d"},
    {"Notice: at n = {0} (above n = d = {1}) self-attention does {2}× the RNN's multiply-adds, yet its sequential steps stay {4} against the RNN's {3}.",
     "注意：在 n = {0}（大于 n = d = {1}）时，自注意力的乘加次数是 RNN 的 {2} 倍，但它的串行步数仍是 {4}，而 RNN 是 {3}。"},
    {"Notice: at n = {0} (up to n = d = {1}) self-attention does {2}× the RNN's multiply-adds, and {4} sequential step against the RNN's {3}.",
     "注意：在 n = {0}（不超过 n = d = {1}）时，自注意力的乘加次数是 RNN 的 {2} 倍，串行步数是 {4}，而 RNN 是 {3}。"},
    {"memory budget", "内存预算"},
    {"measured at d =", "实测时 d ="},
    {"value", "数值"},
    {"score matrix", "分数矩阵"},
    {"Export CSV", "导出 CSV"},
    {"model", "模型"},
    {"Measure with parallel workers", "用并行工作线程测量"},
    {"split attention's rows and the GRU's units over 1, 2, 4 … workers", "把注意力的行、GRU 的隐藏单元分给 1、2、4 … 个工作线程"},
    {"measured speed-up", "实测加速比"},
    {"workers W", "工作线程数 W"},
    {"ideal (W×)", "理想（W 倍）"},
    {"measured hand-off between", "实测交接耗时，"},
    {"Not in the table: Q, K, V from X (three projections) add", "表中未计入：由 X 计算 Q、K、V（三次投影）另需"},
};
}  // namespace

const TrPair* CostView::strings(size_t* count) { return translation_table(kCostViewStrings, count); }

namespace {

const char* const kCurveNames[] = {N_("naive attention"), N_("tiled attention"), N_("Elman RNN"), N_("GRU")};
// Attention warm, the RNN cool (the colour map's accents: they follow the colour-blind switch).
ImU32 curve_color(int c) {
  const ImU32 colors[] = {accent_warm(), companion_warm(), accent_cool(), companion_cool()};
  return colors[c];
}

// 33554432 -> "33,554,432"; beyond 10^12: "1.23e+15".
std::string big(long long v) {
  if (v >= 1000000000000LL) {
    char b[32];
    std::snprintf(b, sizeof b, "%.3g", static_cast<double>(v));
    return b;
  }
  std::string s = std::to_string(v), out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (i > 0 && (s.size() - i) % 3 == 0) out += ',';
    out += s[i];
  }
  return out;
}

std::string bytes_text(double b) {
  char buf[32];
  if (b < 1024) std::snprintf(buf, sizeof buf, "%.0f B", b);
  else if (b < 1048576) std::snprintf(buf, sizeof buf, "%.1f KB", b / 1024);
  else if (b < 1073741824.0) std::snprintf(buf, sizeof buf, "%.1f MB", b / 1048576);
  else std::snprintf(buf, sizeof buf, "%.1f GB", b / 1073741824.0);
  return buf;
}

std::string ms_text(double ms) {
  char buf[32];
  if (ms < 0.001) std::snprintf(buf, sizeof buf, "%.2f µs", ms * 1000);
  else if (ms < 1) std::snprintf(buf, sizeof buf, "%.3f ms", ms);
  else if (ms < 1000) std::snprintf(buf, sizeof buf, "%.1f ms", ms);
  else std::snprintf(buf, sizeof buf, "%.2f s", ms / 1000);
  return buf;
}

// Powers of 2 from 1 to `hi` (inclusive), as doubles for the plot.
std::vector<double> powers_to(double hi) {
  std::vector<double> v;
  for (double x = 1; x <= hi * 1.0001; x *= 2) v.push_back(x);
  return v;
}

PlotSeries line_series(const char* name, ImU32 color, bool dashed = false) {
  PlotSeries s;
  s.name = name;
  s.color = color;
  s.dashed = dashed;
  s.thickness = 2.f;
  return s;
}

}  // namespace


void CostView::controls(ViewContext& ctx) {
  edit_.sync(scene_);
  const float field = ImGui::GetFontSize() * 7.f;
  const auto apply = [&](const char* key) { (void)report_result(ctx.st, key, scene_.apply(edit_.p)); };
  const auto tip = [](const char* t) { if (ImGui::IsItemHovered()) tooltip("%s", tr(t)); };
  ImGui::Spacing();
  ImGui::SetNextItemWidth(field);
  if (ImGui::InputInt("n###n", &edit_.p.n, 1, 64)) apply("n");
  tip(N_("Sequence length (tokens)"));
  ImGui::SetNextItemWidth(field);
  if (ImGui::InputInt("d###d", &edit_.p.d, 1, 16)) apply("d");
  tip(N_("Model width = d_k = hidden size"));
  ImGui::SetNextItemWidth(field);
  if (ImGui::InputInt("k###k", &edit_.p.k, 1, 1)) apply("k");
  tip(N_("Convolution kernel width"));
  ImGui::SetNextItemWidth(field);
  if (ImGui::SliderInt("P###P", &edit_.p.lanes, 1, static_cast<int>(cost::kMaxLanes), "%d", ImGuiSliderFlags_Logarithmic)) apply("P");
  tip(N_("Lanes: multiply-adds that can run at the same time"));
  ImGui::Separator();
  ImGui::SetNextItemWidth(field);
  if (ImGui::SliderInt((std::string(tr("sweep up to n")) + "###sweep_max_n").c_str(), &edit_.p.sweep_max_n, cost_limits::kMinSweepN,
                       cost_limits::kMaxSweepN, "%d", ImGuiSliderFlags_Logarithmic))
    apply("sweep_max_n");
  tip(N_("Largest n of the measurement"));
  ImGui::SetNextItemWidth(field);
  if (ImGui::SliderInt((std::string(tr("runs")) + "###sweep_runs").c_str(), &edit_.p.sweep_runs, 1, cost_limits::kMaxRuns)) apply("sweep_runs");
  tip(N_("Timed samples per point (the median is plotted)"));
  measure_button(ctx, "c");
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  text_wrapped("%s", tr("One thread: this measures work, not parallel speed."));
  ImGui::PopStyleColor();
}

std::string CostView::step_text(const ViewContext&) const {
  const CostParams& p = scene_.params();
  const CostTable& t = scene_.table();
  char buf[260];
  switch (static_cast<CostStage>(scene_.timeline.stage())) {
    case CostStage::Table:
    case CostStage::Curves:
      std::snprintf(buf, sizeof buf, "n = %d, d = %d:  %s / %s = 2n²d / 2nd² = n/d = %s", p.n, p.d, tr("attention"), tr("RNN"),
                    fmt(static_cast<double>(t.attention.macs) / static_cast<double>(t.recurrent.macs), 3).c_str());
      return buf;
    case CostStage::Parallel: {
      const CostParallel& par = scene_.parallel();
      std::snprintf(buf, sizeof buf, "P = %d:  %s %s,  %s %s", p.lanes, tr("attention"), ms_text(par.attention.time_ns / 1e6).c_str(),
                    tr("RNN"), ms_text(par.recurrent.time_ns / 1e6).c_str());
      return buf;
    }
    case CostStage::Animation: {
      const int m = scene_.timeline.substeps(static_cast<int>(CostStage::Animation));
      const int done = std::min(m, scene_.timeline.done_substeps());
      const long long rnn_step = p.n <= m ? done : static_cast<long long>(std::llround(static_cast<double>(done) * p.n / m));
      std::snprintf(buf, sizeof buf, "%s: %s %lld / %d    %s: %s %d / 1", tr("RNN"), tr("step"), rnn_step, p.n, tr("attention"),
                    tr("step"), done > 0 ? 1 : 0);
      return buf;
    }
    default: return {};
  }
}

void CostView::stage(ViewContext& ctx) {
  edit_.sync(scene_);
  const CostStage at = static_cast<CostStage>(scene_.timeline.stage());
  // Stages 3 and 4 show measured times: the first time either opens, a quick measurement starts by itself.
  if ((at == CostStage::Measured || at == CostStage::Parallel) && scene_.sweep_state() == SweepState::Idle)
    (void)report_result(ctx.st, "sweep", scene_.start_quick_sweep());
  switch (at) {
    case CostStage::Table: table_stage(ctx); break;
    case CostStage::Curves: curves_stage(ctx); break;
    case CostStage::Measured: measured_stage(ctx); break;
    case CostStage::Parallel: parallel_stage(ctx); break;
    case CostStage::Animation: animation_stage(ctx); break;
    case CostStage::Memory:
    default: memory_stage(ctx); break;
  }
}

// ---- 1. the table ----------------------------------------------------------------------------------------------

void CostView::table_stage(ViewContext& ctx) {
  (void)ctx;
  const CostParams& p = scene_.params();
  const CostTable& t = scene_.table();
  ImGui::Text("n = %d    d = %d    k = %d", p.n, p.d, p.k);
  ImGui::Spacing();
  const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp;
  struct Row {
    const char* name;
    const LayerCost* c;
    const char* macs_f;
    const char* seq_f;
    const char* path_f;
    ImU32 color;
  };
  const Row rows[] = {{N_("self-attention"), &t.attention, "2·n²·d", "1", "1", accent_warm()},
                      {N_("recurrent"), &t.recurrent, "2·n·d²", "n", "n", accent_cool()},
                      {N_("convolutional"), &t.convolutional, "k·n·d²", "1", "ceil(log_k n)", third_series()}};
  // On a narrow stage (a phone) one small table per layer, a measure a row (five columns cut every header and the
  // row names there).
  if (ImGui::GetContentRegionAvail().x < ImGui::GetFontSize() * 36.f) {
    const char* measures[] = {N_("multiply-adds per layer"), N_("score-matrix memory"), N_("sequential operations"), N_("maximum path length")};
    for (const Row& r : rows) {
      ImGui::PushID(r.name);
      if (ImGui::BeginTable("cost_of", 3, flags)) {
        ImGui::TableSetupColumn(tr(r.name), ImGuiTableColumnFlags_WidthStretch, 2.f);
        ImGui::TableSetupColumn("formula", ImGuiTableColumnFlags_WidthStretch, 1.2f);
        ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthStretch, 1.2f);
        ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
        ImGui::TableNextColumn();
        ImGui::PushStyleColor(ImGuiCol_Text, r.color);
        ImGui::TextUnformatted(tr(r.name));
        ImGui::PopStyleColor();
        const bool attention = r.c == &t.attention;
        const std::string cells[4][2] = {{r.macs_f, big(r.c->macs)},
                                         {attention ? "4·n² B" : "—", attention ? bytes_text(static_cast<double>(r.c->score_bytes)) : "0"},
                                         {r.seq_f, big(r.c->sequential_ops)},
                                         {r.path_f, big(r.c->max_path_length)}};
        for (int k = 0; k < 4; ++k) {
          ImGui::TableNextRow();
          ImGui::TableNextColumn();
          ImGui::PushTextWrapPos(0.f);
          ImGui::TextUnformatted(tr(measures[k]));
          ImGui::PopTextWrapPos();
          ImGui::TableNextColumn();
          ImGui::TextDisabled("%s", cells[k][0].c_str());
          ImGui::TableNextColumn();
          ImGui::TextUnformatted(cells[k][1].c_str());
        }
        ImGui::EndTable();
      }
      ImGui::PopID();
      ImGui::Spacing();
    }
  } else if (ImGui::BeginTable("cost_table", 5, flags)) {
    ImGui::TableSetupColumn(tr("layer"), ImGuiTableColumnFlags_WidthStretch, 1.0f);
    ImGui::TableSetupColumn(tr("multiply-adds per layer"), ImGuiTableColumnFlags_WidthStretch, 1.5f);
    ImGui::TableSetupColumn(tr("score-matrix memory"), ImGuiTableColumnFlags_WidthStretch, 1.2f);
    ImGui::TableSetupColumn(tr("sequential operations"), ImGuiTableColumnFlags_WidthStretch, 1.0f);
    ImGui::TableSetupColumn(tr("maximum path length"), ImGuiTableColumnFlags_WidthStretch, 1.0f);
    table_headers_wrapped();
    for (const Row& r : rows) {
      ImGui::TableNextRow(ImGuiTableRowFlags_None, ImGui::GetTextLineHeight() * 2.4f);
      ImGui::TableNextColumn();
      ImGui::PushStyleColor(ImGuiCol_Text, r.color);
      ImGui::TextUnformatted(tr(r.name));
      ImGui::PopStyleColor();
      ImGui::TableNextColumn();
      ImGui::TextDisabled("%s", r.macs_f);
      ImGui::Text("%s", big(r.c->macs).c_str());
      ImGui::TableNextColumn();
      if (r.c == &t.attention) {
        ImGui::TextDisabled("4·n² B");
        ImGui::Text("%s", bytes_text(static_cast<double>(r.c->score_bytes)).c_str());
      } else {
        ImGui::TextDisabled("—");
        ImGui::Text("0");
      }
      ImGui::TableNextColumn();
      ImGui::TextDisabled("%s", r.seq_f);
      ImGui::Text("%s", big(r.c->sequential_ops).c_str());
      ImGui::TableNextColumn();
      ImGui::TextDisabled("%s", r.path_f);
      ImGui::Text("%s", big(r.c->max_path_length).c_str());
    }
    ImGui::EndTable();
  }
  ImGui::Spacing();
  const double ratio = static_cast<double>(t.attention.macs) / static_cast<double>(t.recurrent.macs);
  ImGui::PushTextWrapPos(0.f);
  ImGui::Text("%s / %s = n / d = %s", tr("self-attention"), tr("recurrent"), fmt(ratio, 3).c_str());
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  text_wrapped("%s 3·n·d² = %s", tr("Not in the table: Q, K, V from X (three projections) add"), big(t.attention.projection_macs).c_str());
  ImGui::PopStyleColor();
  // What to notice, read off the table just drawn.
  text_wrapped("%s", tr_format(ratio > 1.0 ? N_("Notice: self-attention needs {0} sequential step and a path of {1} between any two tokens, the recurrent layer {2} and {3}: that is what attention buys with its {4}× the multiply-adds.")
                                               : N_("Notice: self-attention needs {0} sequential step and a path of {1} between any two tokens, the recurrent layer {2} and {3}; with n ≤ d it even does fewer multiply-adds ({4}×)."),
                                   {big(t.attention.sequential_ops), big(t.attention.max_path_length), big(t.recurrent.sequential_ops),
                                    big(t.recurrent.max_path_length), fmt(ratio, 3)}).c_str());
  ImGui::PopTextWrapPos();
}

// ---- 2. the curves ---------------------------------------------------------------------------------------------

void CostView::curves_stage(ViewContext& ctx) {
  const CostParams& p = scene_.params();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float fs = ImGui::GetFontSize();
  const double hi = std::min<double>(cost::kMaxN, std::max({16.0 * p.n, 16.0 * p.d, 4096.0}));
  const std::vector<double> xs = powers_to(hi);
  PlotSeries att = line_series(tr("self-attention"), accent_warm()), rnn = line_series(tr("recurrent"), accent_cool()),
             conv = line_series(tr("convolutional"), third_series(), true);
  PlotSeries att_s = att, rnn_s = rnn, conv_s = conv;
  for (double n : xs) {
    const long long ni = static_cast<long long>(n);
    att.x.push_back(n); att.y.push_back(static_cast<double>(attention_macs(ni, p.d)));
    rnn.x.push_back(n); rnn.y.push_back(static_cast<double>(elman_macs(ni, p.d, p.d)));
    conv.x.push_back(n); conv.y.push_back(static_cast<double>(conv_macs(ni, p.d, p.k)));
    att_s.x.push_back(n); att_s.y.push_back(static_cast<double>(sequential_ops(LayerKind::SelfAttention, ni)));
    rnn_s.x.push_back(n); rnn_s.y.push_back(static_cast<double>(sequential_ops(LayerKind::Recurrent, ni)));
    conv_s.x.push_back(n); conv_s.y.push_back(static_cast<double>(max_path_length(LayerKind::Convolutional, ni, p.k)));
  }
  conv_s.name = std::string(tr("convolutional")) + " (" + tr("maximum path length") + ")";
  // Side by side; on a phone (compact) one above the other, each the whole width (side by side they lost their
  // legends). Room for the "Notice" line below.
  const bool stacked = ctx.compact;
  const float w = stacked ? avail.x : (avail.x - fs) * 0.5f;
  const float h = stacked ? std::max((avail.y - fs * 4.2f) * 0.5f, fs * 15.f) : avail.y - fs * 3.2f;
  PlotSpec a;
  a.title = tr("multiply-adds per layer");
  a.x_label = "n";
  a.x_log = a.y_log = true;
  a.series = {att, rnn, conv};
  a.x_markers = {{static_cast<double>(p.d), std::string(tr("crossover n = d")) + " = " + std::to_string(p.d), accent_warm()},
                 {static_cast<double>(p.n), "n = " + std::to_string(p.n), 0}};
  a.legend = PlotLegend::TopLeft;
  // Hover: the point's n goes to the scene, which explains the count with its formula (i: 0..2 this plot's
  // series, 3..5 the second plot's).
  const auto hover = [&](const PlotResult& r, int first) {
    if (r.series < 0 || r.point < 0 || r.point >= static_cast<int>(xs.size())) return;
    ctx.hover_what = static_cast<int>(CostItem::CurvePoint);
    ctx.hover_i = first + r.series;
    ctx.hover_j = static_cast<int>(xs[static_cast<size_t>(r.point)]);
  };
  hover(plot("macs", a, ImVec2(w, h)), 0);
  if (!stacked) ImGui::SameLine(0, fs);
  PlotSpec s;
  s.title = std::string(tr("sequential operations")) + " · " + tr("maximum path length");
  s.x_label = "n";
  s.x_log = s.y_log = true;
  s.series = {att_s, rnn_s, conv_s};
  s.x_markers = {{static_cast<double>(p.n), "n = " + std::to_string(p.n), 0}};
  s.legend = PlotLegend::TopLeft;
  hover(plot("steps", s, ImVec2(w, h)), 3);
  // What to notice, read off the curves at the learner's n: the work ratio, and the steps that cannot overlap.
  const long long n = p.n;
  const double ratio = static_cast<double>(attention_macs(n, p.d)) / static_cast<double>(elman_macs(n, p.d, p.d));
  ImGui::PushTextWrapPos(0.f);
  text_wrapped("%s", tr_format(ratio > 1.0 ? N_("Notice: at n = {0} (above n = d = {1}) self-attention does {2}× the RNN's multiply-adds, yet its sequential steps stay {4} against the RNN's {3}.")
                                                 : N_("Notice: at n = {0} (up to n = d = {1}) self-attention does {2}× the RNN's multiply-adds, and {4} sequential step against the RNN's {3}."),
                                           {std::to_string(n), std::to_string(p.d), fmt_sig(ratio, 2),
                                            big(sequential_ops(LayerKind::Recurrent, n)), big(sequential_ops(LayerKind::SelfAttention, n))}).c_str());
  ImGui::PopTextWrapPos();
}

// ---- 3. measured ---------------------------------------------------------------------------------------------

// Cancel while a measurement runs; else the full sweep: "Measure on this device" before any measurement, "Full
// sweep" after the quick one, "Measure again" after a full one. `id` tells the controls' button from the plot's.
void CostView::measure_button(ViewContext& ctx, const char* id) {
  if (scene_.sweep_running()) {
    if (ImGui::Button((std::string(tr("Cancel")) + "###cancel_" + id).c_str())) scene_.cancel_sweep();
    return;
  }
  const char* label = scene_.sweep_state() == SweepState::Idle ? N_("Measure on this device")
                      : scene_.quick()                         ? N_("Full sweep")
                                                               : N_("Measure again");
  if (ImGui::Button((std::string(tr(label)) + "###measure_" + id).c_str()))
    (void)report_result(ctx.st, "sweep", scene_.start_sweep());
  if (scene_.quick() && ImGui::IsItemHovered())
    tooltip(tr("n = 16 … %d, %d runs per point (the controls set both)"), scene_.params().sweep_max_n, scene_.params().sweep_runs);
}

void CostView::sweep_bar(ViewContext& ctx) {
  const float fs = ImGui::GetFontSize();
  measure_button(ctx, "s");
  ImGui::SameLine();
  const char* state = tr("not measured yet");
  switch (scene_.sweep_state()) {
    case SweepState::Running: state = scene_.warming() ? tr("warming up") : tr("measuring"); break;
    case SweepState::Finished: state = tr("finished"); break;
    case SweepState::Cancelled: state = tr("cancelled"); break;
    default: break;
  }
  char overlay[160];
  if (scene_.quick())
    std::snprintf(overlay, sizeof overlay, "%s (n ≤ %d): %s  %.0f%%", tr("quick"), cost_limits::kQuickMaxN, state, scene_.sweep_fraction() * 100.0);
  else
    std::snprintf(overlay, sizeof overlay, "%s  %.0f%%", state, scene_.sweep_fraction() * 100.0);
  ImGui::ProgressBar(static_cast<float>(scene_.sweep_fraction()), ImVec2(fs * 16.f, 0), overlay);
  if (scene_.measured_d() > 0) {
    char text[96];
    std::snprintf(text, sizeof text, "%s %d, SIMD (%s)", tr("measured at d ="), scene_.measured_d(), simd_backend());
    (void)same_line_if_fits(ImGui::CalcTextSize(text).x);  // else on its own line (a phone cut it to "measure")
    ImGui::TextDisabled("%s", text);
  }
}

void CostView::measured_stage(ViewContext& ctx) {
  sweep_bar(ctx);
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float fs = ImGui::GetFontSize();
  // The slopes beside the plot; on a phone (compact) below it, the whole width (beside it their names and
  // values ran into each other).
  const bool stacked = ctx.compact;
  const float side = stacked ? avail.x : std::min(fs * 19.f, avail.x * 0.42f);
  const float w = stacked ? avail.x : avail.x - side - fs;
  const float h = stacked ? std::max(avail.y * 0.55f, fs * 15.f) : avail.y - fs * 0.5f;
  const float side_h = stacked ? std::max(avail.y - h - fs, fs * 12.f) : h;
  PlotSpec s;
  s.title = tr("Measured on this device");
  s.x_label = "n";
  s.y_label = tr("time per call (ms)");
  s.x_log = s.y_log = true;
  s.legend = PlotLegend::TopLeft;
  s.empty_text = tr("not measured yet");
  const auto& res = scene_.sweep().results();
  const bool have = scene_.sweep_state() != SweepState::Idle && !scene_.warming();
  for (size_t c = 0; c < 4; ++c) {
    PlotSeries sr = line_series(tr(kCurveNames[c]), curve_color(c), c == 1);
    sr.points = true;
    if (have && c < res.size())
      for (const SweepPoint& pt : res[c].points)
        if (pt.state == PointState::Measured) { sr.x.push_back(pt.n); sr.y.push_back(pt.median_ms); }
    s.series.push_back(sr);
  }
  s.x_markers = {{static_cast<double>(cost_limits::kMinFitN), "n = 256", 0}};
  const PlotResult r = plot("measured", s, ImVec2(w, h));
  if (r.point >= 0 && r.series >= 0) {
    // map the plotted index back to the sweep's point index (only measured points are plotted)
    int k = -1, idx = -1;
    for (const SweepPoint& pt : res[static_cast<size_t>(r.series)].points) {
      ++idx;
      if (pt.state == PointState::Measured && ++k == r.point) break;
    }
    ctx.hover_what = static_cast<int>(CostItem::MeasuredPoint);
    ctx.hover_i = r.series;
    ctx.hover_j = idx;
  }
  if (!stacked) ImGui::SameLine(0, fs);
  ImGui::BeginChild("measured_side", ImVec2(side, side_h), false);
  ImGui::TextUnformatted(tr("slope"));
  ImGui::SameLine();
  ImGui::TextDisabled("(%s)", tr("over n ≥ 256"));
  const auto& fits = scene_.fits();
  for (size_t c = 0; c < 4; ++c) {
    ImGui::PushStyleColor(ImGuiCol_Text, curve_color(c));
    ImGui::Bullet();
    ImGui::SameLine();
    ImGui::TextUnformatted(tr(kCurveNames[c]));
    ImGui::PopStyleColor();
    ImGui::SameLine(side * 0.55f);
    if (c < fits.size() && fits[c].ok) ImGui::Text("%s  (R² %s)", fmt(fits[c].fit.slope, 2).c_str(), fmt(fits[c].fit.r2, 3).c_str());
    else ImGui::TextDisabled("—");
    if (have && c < res.size()) {
      const SweepPoint* last = nullptr;
      for (const SweepPoint& pt : res[c].points)
        if (pt.state == PointState::Measured) last = &pt;
      if (last)
        ImGui::TextDisabled("   n = %d: %s, %s %s", last->n, ms_text(last->median_ms).c_str(), tr("memory"),
                            bytes_text(static_cast<double>(last->memory_bytes)).c_str());
      if (res[c].stopped) {
        ImGui::PushTextWrapPos(0.f);
        ImGui::PushStyleColor(ImGuiCol_Text, flag_color(Flag::Caution));
        ImGui::Text("   %s: %s", tr("stopped"), localize(res[c].reason).c_str());
        ImGui::PopStyleColor();
        ImGui::PopTextWrapPos();
      }
    }
  }
  ImGui::Spacing();
  ImGui::PushTextWrapPos(0.f);
  ImGui::TextDisabled("%s", tr("One thread: this measures work, not parallel speed."));
  ImGui::TextDisabled("%s", tr(scene_.quick() ? "Quick: each point is one timed batch of at least 2 ms, so the slopes are rough; the full sweep times several."
                                              : "Each point is the median of several timed batches; each batch lasts at least 5 ms."));
  // What to notice, read off the slopes just listed (naive attention against the Elman RNN).
  if (fits.size() > 2 && fits[0].ok && fits[2].ok)
    ImGui::TextUnformatted(tr_format(N_("Notice: on this device naive attention's time grows like n^{0} and the Elman RNN's like n^{1}, at fixed d: attention's work is 2·n²·d, the RNN's 2·n·d²."),
                                     {fmt(fits[0].fit.slope, 2), fmt(fits[2].fit.slope, 2)}).c_str());
  ImGui::PopTextWrapPos();
  if (have && ImGui::SmallButton(tr("Export CSV"))) ImGui::SetClipboardText(plot_csv(s).c_str());
  ImGui::EndChild();
}

// ---- 4. P lanes ---------------------------------------------------------------------------------------------------

void CostView::parallel_stage(ViewContext& ctx) {
  const CostParams& p = scene_.params();
  const CostParallel& par = scene_.parallel();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float fs = ImGui::GetFontSize();
  // The model and the measurement left, the numbers at P right; on a phone held upright (compact) one above the
  // other, each the screen's width (side by side, the numbers were pushed off the screen).
  const bool stacked = ctx.compact;
  const float side = stacked ? avail.x : std::min(fs * 19.f, avail.x * 0.42f);
  const float w = stacked ? avail.x : avail.x - side - fs, h = avail.y - fs * 0.5f;
  // Left: the model over P (top) and the speed-up measured with parallel workers (bottom), each at least about
  // ten text lines tall (a projector at 2× text left the speed-up plot 58 px): a short stage scrolls.
  const float model_h = std::max(fs * 10.f, h * 0.55f);
  const float workers_h = std::max(fs * 12.f, h - model_h - fs * 0.5f);
  std::vector<long long> lanes;
  PlotSeries att = line_series(tr("self-attention"), accent_warm()), rnn = line_series(tr("recurrent"), accent_cool());
  for (long long P = 1; P <= cost::kMaxLanes; P = P < cost::kMaxLanes ? std::min(cost::kMaxLanes, P * 2) : P + 1) {
    const CostParallel q = scene_.parallel_at(P);
    lanes.push_back(P);
    att.x.push_back(static_cast<double>(P)); att.y.push_back(q.attention.time_ns / 1e6);
    rnn.x.push_back(static_cast<double>(P)); rnn.y.push_back(q.recurrent.time_ns / 1e6);
  }
  PlotSpec s;
  s.title = std::string(tr("model")) + ":  n = " + std::to_string(p.n) + ", d = " + std::to_string(p.d);
  s.x_label = tr("lanes P");
  s.y_label = tr("time (ms)");
  s.x_log = s.y_log = true;
  s.series = {att, rnn};
  s.x_markers = {{static_cast<double>(p.lanes), "P = " + std::to_string(p.lanes), chosen_color(), false}};
  if (par.crossover_lanes > 0) s.x_markers.push_back({static_cast<double>(par.crossover_lanes), "", accent_warm()});
  s.legend = PlotLegend::TopRight;
  ImGui::BeginGroup();
  const PlotResult pr = plot("parallel", s, ImVec2(w, model_h));
  if (pr.series >= 0 && pr.point >= 0 && pr.point < static_cast<int>(lanes.size())) {
    ctx.hover_what = static_cast<int>(CostItem::ParallelPoint);
    ctx.hover_i = pr.series;
    ctx.hover_j = static_cast<int>(lanes[static_cast<size_t>(pr.point)]);
  }
  workers_panel(ctx, ImVec2(w, workers_h));
  ImGui::EndGroup();
  if (stacked) {
    ImGui::Spacing();
    ImGui::BeginGroup();
  } else {
    ImGui::SameLine(0, fs);
    ImGui::BeginChild("parallel_side", ImVec2(side, h), false);
  }
  ImGui::SetNextItemWidth(side - fs);
  if (ImGui::SliderInt("##P_stage", &edit_.p.lanes, 1, static_cast<int>(cost::kMaxLanes), "P = %d", ImGuiSliderFlags_Logarithmic))
    (void)report_result(ctx.st, "P", scene_.apply(edit_.p));
  const auto block = [&](const char* name, ImU32 color, const WorkDepthTime& t, double ns_mac, double ns_step, const char* depth) {
    ImGui::PushStyleColor(ImGuiCol_Text, color);
    ImGui::TextUnformatted(tr(name));
    ImGui::PopStyleColor();
    ImGui::Text("  %s: %s", tr("work / P"), ms_text(t.work_ns / 1e6).c_str());
    ImGui::Text("  %s: %s × %s", tr("depth × step"), depth, ms_text(ns_step / 1e6).c_str());
    ImGui::Text("    = %s", ms_text(t.depth_ns / 1e6).c_str());
    ImGui::Text("  T = %s", ms_text(t.time_ns / 1e6).c_str());
    ImGui::TextDisabled("  t_mac = %s ns", fmt(ns_mac, 3).c_str());
    ImGui::TextDisabled("  %s", t.depth_bound ? tr("depth-bound: more lanes do not help") : tr("work-bound"));
  };
  const std::string n_text = std::to_string(p.n);
  block(N_("self-attention"), accent_warm(), par.attention, par.ns_per_mac_attention, par.ns_per_step_attention, "1");
  ImGui::Spacing();
  block(N_("recurrent"), accent_cool(), par.recurrent, par.ns_per_mac_rnn, par.ns_per_step_rnn, n_text.c_str());
  ImGui::Spacing();
  ImGui::PushTextWrapPos(0.f);
  if (par.crossover_lanes > 0) ImGui::Text("%s %s", tr("attention is faster from P ="), big(par.crossover_lanes).c_str());
  else ImGui::TextUnformatted(tr("attention is not faster for any P up to 100,000"));
  ImGui::TextDisabled("%s", par.measured ? tr("per-MAC times measured on this device") : tr("per-MAC times assumed (1 ns): measure first"));
  ImGui::TextDisabled("%s", tr("one step = a tree sum (log2 terms) + one hand-off of 1 µs between lanes (assumed)"));
  const WorkerMeasure& wm = scene_.workers();
  if (wm.state == WorkerMeasure::State::Finished && wm.gru.size() > 1)
    ImGui::TextDisabled("%s %s: %s µs", tr("measured hand-off between"), wm.pool.c_str(), fmt(wm.handoff_us, 3).c_str());
  ImGui::PopTextWrapPos();
  if (stacked) ImGui::EndGroup();
  else ImGui::EndChild();
}

// The speed-up measured with parallel workers (Web Workers in the browser, threads on the desktop):
// attention's rows split (one step), the GRU's units split (a hand-off per step), against the ideal W.
void CostView::workers_panel(ViewContext& ctx, ImVec2 size) {
  const float fs = ImGui::GetFontSize();
  const WorkerMeasure& m = scene_.workers();
  const bool running = scene_.workers_running();
  const float top_y = ImGui::GetCursorPosY();
  const float right = ImGui::GetCursorPosX() + size.x;  // the panel's right edge, in window coordinates (wrap position)
  if (running) {
    if (ImGui::Button((std::string(tr("Cancel")) + "###cancel_w").c_str())) scene_.cancel_workers();
  } else if (ImGui::Button((std::string(tr("Measure with parallel workers")) + "###measure_w").c_str())) {
    (void)report_result(ctx.st, "workers", scene_.start_workers());
  }
  ImGui::SameLine();
  if (m.state == WorkerMeasure::State::Idle) {  // wrapped beside the button, within the panel (a phone cut it at "the GR")
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::PushTextWrapPos(right);
    text_wrapped("%s", tr("split attention's rows and the GRU's units over 1, 2, 4 … workers"));
    ImGui::PopTextWrapPos();
    ImGui::PopStyleColor();
  } else {
    const float frac = m.jobs_total > 0 ? static_cast<float>(m.jobs_done) / static_cast<float>(m.jobs_total) : 0.f;
    char overlay[96];
    std::snprintf(overlay, sizeof overlay, "%d / %d", m.jobs_done, m.jobs_total);
    ImGui::ProgressBar(frac, ImVec2(fs * 8.f, 0), overlay);
    ImGui::SameLine();
    ImGui::TextDisabled("%s × %d · n = %d, d = %d", m.pool.c_str(), m.max_workers, m.n_attention, m.d);
  }
  if (m.state == WorkerMeasure::State::Failed) {
    ImGui::PushStyleColor(ImGuiCol_Text, flag_color(Flag::Caution));
    text_wrapped("%s", localize(m.error).c_str());
    ImGui::PopStyleColor();
  }
  PlotSpec s;
  s.title = tr("measured speed-up");
  s.x_label = tr("workers W");
  s.y_label = tr("speed-up");
  s.legend = PlotLegend::TopLeft;  // above the lines, which start at (1, 1): the y axis leaves room for it
  s.x_min = 1;
  s.y_min = 0;
  s.empty_text = tr("not measured yet");
  PlotSeries ideal = line_series(tr("ideal (W×)"), IM_COL32(150, 150, 150, 255), true);
  PlotSeries att = line_series(tr("attention: rows split"), accent_warm());
  PlotSeries gru = line_series(tr("GRU: units split, a hand-off per step"), companion_cool());
  att.points = gru.points = true;
  double top = 1;
  for (const WorkerPoint& pt : m.attention) top = std::max(top, static_cast<double>(pt.workers));
  s.x_max = std::max(2.0, top);
  s.y_max = 1.8 * s.x_max;
  for (double x = 1; x <= top; x += 1) { ideal.x.push_back(x); ideal.y.push_back(x); }
  const bool done = m.state == WorkerMeasure::State::Finished;
  for (const auto* src : {&m.attention, &m.gru})
    for (const WorkerPoint& pt : *src) {
      if (!done || pt.ms <= 0) continue;
      PlotSeries& dst = src == &m.attention ? att : gru;
      dst.x.push_back(pt.workers);
      dst.y.push_back(pt.speedup);
    }
  s.series = {ideal, att, gru};
  const float h = size.y - (ImGui::GetCursorPosY() - top_y);
  const PlotResult r = plot("workers", s, ImVec2(size.x, std::max(fs * 5.f, h)));
  if (r.series >= 1 && r.point >= 0) {
    ctx.hover_what = static_cast<int>(CostItem::WorkerPoint);
    ctx.hover_i = r.series - 1;
    ctx.hover_j = static_cast<int>(r.series == 1 ? att.x[static_cast<size_t>(r.point)] : gru.x[static_cast<size_t>(r.point)]);
  }
}

// ---- 5. the animation -------------------------------------------------------------------------------------------

void CostView::animation_stage(ViewContext& ctx) {
  const CostParams& p = scene_.params();
  const Timeline& tl = scene_.timeline;
  const int m = tl.substeps(static_cast<int>(CostStage::Animation));
  const double sub = std::min<double>(m, tl.sub());
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float fs = ImGui::GetFontSize();
  const ImVec2 o = ImGui::GetCursorScreenPos();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  // The RNN beside attention; on a phone (compact) above it, each the whole width (side by side the nodes and
  // their labels ran into each other).
  const bool stacked = ctx.compact;
  const float half = stacked ? avail.x : (avail.x - fs) * 0.5f, ph = stacked ? std::max((avail.y - fs) * 0.5f, fs * 14.f) : avail.y;
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text), dim = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  const ImU32 box_bg = IM_COL32(236, 239, 245, 255);
  const float box = std::min(fs * 2.2f, (half - fs) / m * 0.7f);
  const float gap = (half - fs - box * m) / std::max(1, m - 1) + box;
  const auto label_of = [&](int i) {  // token i (0-based) of the m drawn: the last one is token n
    if (i == m - 1) return std::string("x") + (p.n > m ? "ₙ" : subscript(i + 1));
    return "x" + subscript(i + 1);
  };
  const auto centered = [&](ImVec2 c, ImU32 col, const std::string& s) {
    const float tw = math_text_width(s.c_str(), fs);
    draw_math_text(dl, ImVec2(c.x - tw * 0.5f, c.y - fs * 0.5f), col, s.c_str(), fs);
  };
  const int rnn_done = static_cast<int>(std::floor(sub));
  const float frac = static_cast<float>(sub - rnn_done);
  const bool complete = sub >= m;

  // Left: the RNN, one token per step, h handed down the chain.
  {
    const float x0 = o.x + fs * 0.5f + box * 0.5f;
    const float y_tok = o.y + ph * 0.78f, y_h = o.y + ph * 0.42f;
    const long long step = p.n <= m ? rnn_done : static_cast<long long>(std::llround(static_cast<double>(rnn_done) * p.n / m));
    char head[160];
    std::snprintf(head, sizeof head, "%s:  %s %lld / %d", tr("RNN"), tr("step"), step, p.n);
    dl->AddText(ImVec2(o.x, o.y), accent_cool(), head);
    for (int i = 0; i < m; ++i) {
      const float cx = x0 + i * gap;
      const bool consumed = i < rnn_done, active = i == rnn_done && !complete;
      const ImU32 fill = consumed ? IM_COL32(200, 225, 242, 255) : active ? IM_COL32(255, 236, 200, 255) : box_bg;
      dl->AddRectFilled(ImVec2(cx - box * 0.5f, y_tok - box * 0.5f), ImVec2(cx + box * 0.5f, y_tok + box * 0.5f), fill, 4.f);
      centered(ImVec2(cx, y_tok), text, label_of(i));
      if (consumed || (active && frac > 0)) {
        const float a = consumed ? 1.f : frac;
        dl->AddLine(ImVec2(cx, y_tok - box * 0.5f), ImVec2(cx, y_tok - box * 0.5f - (y_tok - y_h - box) * a), accent_cool(), 2.f);
      }
      const bool h_on = consumed;
      dl->AddCircleFilled(ImVec2(cx, y_h), box * 0.5f, h_on ? accent_cool() : box_bg, 24);
      centered(ImVec2(cx, y_h), h_on ? IM_COL32_WHITE : dim, "h" + (i == m - 1 && p.n > m ? std::string("ₙ") : subscript(i + 1)));
      if (i > 0) {  // hand-off h_{i-1} -> h_i
        const bool handed = i < rnn_done || (i == rnn_done && frac > 0);
        const ImU32 col = complete ? chosen_color() : handed ? accent_cool() : dim;
        const float x_from = x0 + (i - 1) * gap + box * 0.5f, x_to = cx - box * 0.5f;
        dl->AddLine(ImVec2(x_from, y_h), ImVec2(x_to, y_h), col, complete ? 3.f : 1.5f);
        dl->AddTriangleFilled(ImVec2(x_to, y_h), ImVec2(x_to - 6, y_h - 4), ImVec2(x_to - 6, y_h + 4), col);
        if (i == m - 1 && p.n > m) dl->AddText(ImVec2((x_from + x_to) * 0.5f - fs * 0.5f, y_h - fs * 1.4f), dim, "…");
      }
    }
    if (complete) {
      char path[160];
      std::snprintf(path, sizeof path, "%s: %d", tr("hops from token 1 to token n"), p.n);
      dl->AddText(ImVec2(o.x, y_tok + box), chosen_color(), path);
      dl->AddText(ImVec2(o.x, y_h - box * 1.6f), dim, tr("hidden state"));
    }
  }
  // Right: attention, every pair in one step.
  {
    const float xo = stacked ? o.x : o.x + half + fs, yo = stacked ? o.y + ph + fs : o.y;
    const float x0 = xo + fs * 0.5f + box * 0.5f;
    const float y_in = yo + ph * 0.78f, y_out = yo + ph * 0.30f;
    const bool on = sub > 0;
    const float a = complete ? 1.f : std::min(1.f, static_cast<float>(sub));
    char head[160];
    std::snprintf(head, sizeof head, "%s:  %s %d / 1   (%s)", tr("attention"), tr("step"), on ? 1 : 0, tr("all pairs at once"));
    dl->AddText(ImVec2(xo, yo), accent_warm(), head);
    if (on)
      for (int i = 0; i < m; ++i)
        for (int j = 0; j < m; ++j) {
          const ImU32 col = accent_warm(static_cast<int>(60 * a));
          dl->AddLine(ImVec2(x0 + j * gap, y_in - box * 0.5f), ImVec2(x0 + i * gap, y_out + box * 0.5f), col, 1.f);
        }
    if (on)  // the path from token 1 to output n: one hop
      dl->AddLine(ImVec2(x0, y_in - box * 0.5f), ImVec2(x0 + (m - 1) * gap, y_out + box * 0.5f), chosen_color(), 3.f);
    for (int i = 0; i < m; ++i) {
      const float cx = x0 + i * gap;
      dl->AddRectFilled(ImVec2(cx - box * 0.5f, y_in - box * 0.5f), ImVec2(cx + box * 0.5f, y_in + box * 0.5f),
                        on ? IM_COL32(250, 215, 205, 255) : box_bg, 4.f);
      centered(ImVec2(cx, y_in), text, label_of(i));
      dl->AddCircleFilled(ImVec2(cx, y_out), box * 0.5f, on ? accent_warm() : box_bg, 24);
      centered(ImVec2(cx, y_out), on ? IM_COL32_WHITE : dim, "z" + (i == m - 1 && p.n > m ? std::string("ₙ") : subscript(i + 1)));
    }
    if (on) {
      char path[160];
      std::snprintf(path, sizeof path, "%s: 1", tr("hops from token 1 to token n"));
      dl->AddText(ImVec2(xo, y_in + box), chosen_color(), path);
    }
  }
  if (stacked) {
    dl->AddLine(ImVec2(o.x, o.y + ph + fs * 0.5f), ImVec2(o.x + avail.x, o.y + ph + fs * 0.5f), dim, 1.f);
    ImGui::Dummy(ImVec2(avail.x, 2.f * ph + fs));
  } else {
    dl->AddLine(ImVec2(o.x + half + fs * 0.5f, o.y), ImVec2(o.x + half + fs * 0.5f, o.y + avail.y - fs), dim, 1.f);
    ImGui::Dummy(ImVec2(avail.x, avail.y - fs * 0.5f));
  }
}

// ---- 6. memory --------------------------------------------------------------------------------------------------

void CostView::memory_stage(ViewContext& ctx) {
  const CostParams& p = scene_.params();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float fs = ImGui::GetFontSize();
  const float w = avail.x, h = avail.y - fs * 5.f;
  const double hi = std::min<double>(cost::kMaxN, std::max({4.0 * p.n, 65536.0}));
  PlotSeries naive = line_series(tr("naive attention"), accent_warm()), tiled = line_series(tr("tiled attention"), companion_warm(), true);
  PlotSeries score = line_series(tr("score matrix"), accent_warm(120));
  for (double n : powers_to(hi)) {
    const long long ni = static_cast<long long>(n);
    naive.x.push_back(n); naive.y.push_back(static_cast<double>(kernel_memory(KernelKind::AttentionNaive, ni, p.d).total()));
    tiled.x.push_back(n); tiled.y.push_back(static_cast<double>(kernel_memory(KernelKind::AttentionTiled, ni, p.d).total()));
    score.x.push_back(n); score.y.push_back(static_cast<double>(score_matrix_bytes(ni)));
  }
  PlotSpec s;
  s.title = std::string(tr("memory")) + "  (d = " + std::to_string(p.d) + ")";
  s.x_label = "n";
  s.y_label = tr("memory (bytes)");
  s.x_log = s.y_log = true;
  s.series = {naive, tiled, score};
  // The measured points: where the sweep ran, and where naive attention stopped.
  const auto& res = scene_.sweep().results();
  const bool have = scene_.sweep_state() != SweepState::Idle && !scene_.warming();
  for (size_t c = 0; c < 2 && have && c < res.size(); ++c) {
    PlotSeries m;
    m.name = std::string(tr(kCurveNames[c])) + " (" + tr("measured") + ")";
    m.color = curve_color(c);
    m.line = false;
    m.points = true;
    for (const SweepPoint& pt : res[c].points)
      if (pt.state == PointState::Measured) { m.x.push_back(pt.n); m.y.push_back(static_cast<double>(pt.memory_bytes)); }
    s.series.push_back(m);
  }
  const double budget = SweepConfig{}.memory_budget_bytes;
  s.y_markers = {{budget, std::string(tr("memory budget")) + " " + bytes_text(budget), 0}};
  s.x_markers = {{static_cast<double>(p.n), "n = " + std::to_string(p.n), 0}};
  s.legend = PlotLegend::TopLeft;
  const PlotResult r = plot("memory", s, ImVec2(w, h));
  if (r.series >= 3 && r.point >= 0) {
    const size_t c = static_cast<size_t>(r.series - 3);
    int k = -1, idx = -1;
    for (const SweepPoint& pt : res[c].points) {
      ++idx;
      if (pt.state == PointState::Measured && ++k == r.point) break;
    }
    ctx.hover_what = static_cast<int>(CostItem::MemoryPoint);
    ctx.hover_i = static_cast<int>(c);
    ctx.hover_j = idx;
  }
  const KernelMemory nm = kernel_memory(KernelKind::AttentionNaive, p.n, p.d), tm = kernel_memory(KernelKind::AttentionTiled, p.n, p.d);
  text_wrapped("n = %d:  %s %s  (%s %s)    %s %s", p.n, tr("naive attention"), bytes_text(static_cast<double>(nm.total())).c_str(),
              tr("score matrix"), bytes_text(static_cast<double>(nm.workspace)).c_str(), tr("tiled attention"),
              bytes_text(static_cast<double>(tm.total())).c_str());
  if (have && !res.empty() && res[0].stopped) {
    ImGui::PushStyleColor(ImGuiCol_Text, flag_color(Flag::Caution));
    text_wrapped("%s: %s", tr("naive attention"), localize(res[0].reason).c_str());
    ImGui::PopStyleColor();
  }
  // What to notice, read off the line above: the score matrix against the tiled kernel's whole memory.
  text_wrapped("%s", tr_format(N_("Notice: at n = {0} naive attention's score matrix takes {1}, {2}× all the tiled kernel needs ({3}); double n and the matrix takes four times as much."),
                                     {std::to_string(p.n), bytes_text(static_cast<double>(nm.workspace)), fmt_sig(static_cast<double>(nm.workspace) / static_cast<double>(std::max<long long>(1, tm.total())), 3),
                                      bytes_text(static_cast<double>(tm.total()))}).c_str());
}

}  // namespace ap
