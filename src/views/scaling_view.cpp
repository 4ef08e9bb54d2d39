// View of the scene "Why √d_k": the controls (d_k, samples, keys, seed) and, stage by stage, the dots, their
// histogram, the scaled histogram, and the softmax's largest weight and entropy against d_k. It draws what
// the scene's result holds (core/scaling.h); it computes nothing.
#include "views/scaling_view.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "app/i18n.h"
#include "core/number_text.h"
#include "widgets/colormap.h"
#include "widgets/plot.h"
#include "widgets/seed_input.h"
#include "widgets/text_fit.h"

namespace ap {

namespace {
// The strings this view draws (its scene's own, for getState and errors, are in app/scenes/scaling_scene.cpp).
const TrPair kScalingViewStrings[] = {
    {"Notice: the dots scatter around 0 with a standard deviation of {0}, close to √d_k = {1}: four times d_k, twice the spread.",
     "注意：这些点积散布在 0 附近，标准差为 {0}，接近 √d_k = {1}：d_k 变为四倍，散布变为两倍。"},
    {"Notice: unscaled, one standard deviation of q·k is {0} here (√d_k = {1}); a softmax over scores this far apart is close to one-hot.",
     "注意：不缩放时，这里 q·k 的一个标准差是 {0}（√d_k = {1}）；在相差这么大的分数上做 softmax，结果接近 one-hot。"},
    {"Notice: divided by √d_k the standard deviation is {0}, about 1 whatever d_k: on the same axis the scaled scores stay narrow.",
     "注意：除以 √d_k 后标准差是 {0}，无论 d_k 多大都约为 1：在同一坐标轴上，缩放后的分数始终很窄。"},
    {"Notice, without ÷√d_k: largest weight {0} → {1}, entropy {2} → {3} nats (d_k = {4} → {5}).",
     "注意，不除以 √d_k：最大权重 {0} → {1}，熵 {2} → {3} nats（d_k = {4} → {5}）。"},
    {"With ÷√d_k: largest weight {0} … {1}, entropy {2} … {3} nats, whatever d_k.",
     "除以 √d_k：最大权重 {0} … {1}，熵 {2} … {3} nats，与 d_k 无关。"},
    {"A largest weight near 1 is a softmax that is almost one-hot: its gradient is almost 0, so training stalls.",
     "最大权重接近 1，说明 softmax 几乎是 one-hot：它的梯度几乎为 0，训练就停滞了。"},
    {"Number of (q, k) pairs drawn", "抽取的 (q, k) 对的数量"},
    {"Keys per softmax row in the sweep", "扫描中每行 Softmax 的 Key 数"},
    {"expected", "理论"},
    {"unscaled", "不缩放"},
    {"uniform: ln n", "均匀分布：ln n"},
    {"a few of the dot products", "部分点积"},
    {"Draws are random but seeded: the same seed gives the same numbers.", "随机抽样但有种子：同样的种子得到同样的数字。"},
};
}  // namespace

const TrPair* ScalingView::strings(size_t* count) { return translation_table(kScalingViewStrings, count); }

namespace {

// unscaled: warm (accent_warm), scaled: cool (accent_cool), from the colour map

PlotSeries histogram_series(const Histogram& h, const char* name, ImU32 color) {
  PlotSeries s;
  s.name = name;
  s.bars = true;
  s.line = false;
  s.color = color;
  const int bins = static_cast<int>(h.counts.size());
  for (int i = 0; i <= bins; ++i) s.x.push_back(h.lo + (h.hi - h.lo) * i / bins);
  for (int c : h.counts) s.y.push_back(c);
  return s;
}

void stat_line(const char* label, double measured, double expected) {
  ImGui::Text("%s  %s %s   %s %s", label, tr("measured"), fmt(measured, 2).c_str(), tr("expected"), fmt(expected, 2).c_str());
}

}  // namespace


void ScalingView::controls(ViewContext& ctx) {
  edit_.sync(scene_);
  const float field = ImGui::GetFontSize() * 7.f;
  const auto apply = [&](const char* key) { (void)report_result(ctx.st, key, scene_.apply(edit_.p)); };
  ImGui::Spacing();
  ImGui::SetNextItemWidth(field);
  if (ImGui::SliderInt("d_k###d_k", &edit_.p.d_k, 1, scaling_limits::kMaxDk, "%d", ImGuiSliderFlags_Logarithmic)) apply("d_k");
  // The sample counts: most learners never need them (issue 17: folded under "Advanced", a line each).
  if (ImGui::TreeNode((std::string(tr("Advanced")) + "###advanced").c_str())) {
    ImGui::SetNextItemWidth(field);
    if (ImGui::InputInt((std::string(tr("samples")) + "###samples").c_str(), &edit_.p.samples, 100, 1000)) apply("samples");
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    text_wrapped("%s", tr("Number of (q, k) pairs drawn"));
    ImGui::PopStyleColor();
    ImGui::SetNextItemWidth(field);
    if (ImGui::InputInt((std::string(tr("keys")) + "###n_keys").c_str(), &edit_.p.n_keys, 1, 16)) apply("n_keys");
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    text_wrapped("%s", tr("Keys per softmax row in the sweep"));
    ImGui::PopStyleColor();
    ImGui::TreePop();
  }
  if (seed_input(tr("seed"), "seed", &edit_.p.seed, field)) {
    apply("seed");
  }
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  text_wrapped("%s", tr("Draws are random but seeded: the same seed gives the same numbers."));
  ImGui::PopStyleColor();
}

std::string ScalingView::step_text(const ViewContext&) const {
  const ScalingResult& r = scene_.result();
  const int dk = scene_.params().d_k;
  char buf[200];
  switch (static_cast<ScalingStage>(scene_.timeline.stage())) {
    case ScalingStage::Dots:
    case ScalingStage::Raw:
      std::snprintf(buf, sizeof buf, "d_k = %d   Var(q·k): %s %s, %s %d", dk, tr("measured"), fmt(r.var_raw, 2).c_str(), tr("expected"), dk);
      return buf;
    case ScalingStage::Scaled:
      std::snprintf(buf, sizeof buf, "√d_k = %s   Var(q·k/√d_k): %s %s, %s 1", fmt(std::sqrt(double(dk)), 2).c_str(),
                    tr("measured"), fmt(r.var_scaled, 3).c_str(), tr("expected"));
      return buf;
    default:
      std::snprintf(buf, sizeof buf, "n = %d   %s = ln %d = %s", scene_.params().n_keys, tr("uniform: ln n"),
                    scene_.params().n_keys, fmt(r.max_entropy, 3).c_str());
      return buf;
  }
}

void ScalingView::stage(ViewContext& ctx) {
  edit_.sync(scene_);
  const ScalingResult& r = scene_.result();
  const ScalingParams& p = scene_.params();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float fs = ImGui::GetFontSize();
  const double sd = std::sqrt(static_cast<double>(p.d_k));
  const auto hover = [&](const PlotResult& res, ScalingItem item) {
    if (res.point >= 0) { ctx.hover_what = static_cast<int>(item); ctx.hover_i = res.point; ctx.hover_j = 0; }
  };
  switch (static_cast<ScalingStage>(scene_.timeline.stage())) {
    case ScalingStage::Dots: {
      // The first dots, one point each: they scatter around 0 by about ±√d_k.
      PlotSpec s;
      s.title = std::string(tr("a few of the dot products")) + "  (d_k = " + std::to_string(p.d_k) + ")";
      s.x_label = "s";
      s.y_label = "q·k";
      PlotSeries d;
      d.name = "q·k";
      d.line = false;
      d.points = true;
      d.color = accent_warm();
      const int shown = std::min<int>(200, static_cast<int>(r.dots_raw.size()));
      for (int i = 0; i < shown; ++i) { d.x.push_back(i + 1); d.y.push_back(r.dots_raw[static_cast<size_t>(i)]); }
      s.series.push_back(d);
      s.y_markers = {{sd, "+√d_k", accent_warm()}, {-sd, "−√d_k", accent_warm()}, {0, "", 0}};
      s.legend = PlotLegend::None;
      plot("dots", s, ImVec2(avail.x, avail.y - fs * 5.f));
      stat_line("Var(q·k)", r.var_raw, p.d_k);
      text_wrapped("%s", tr_format(N_("Notice: the dots scatter around 0 with a standard deviation of {0}, close to √d_k = {1}: four times d_k, twice the spread."),
                                         {fmt(std::sqrt(r.var_raw), 2), fmt(sd, 2)}).c_str());
      break;
    }
    case ScalingStage::Raw:
    case ScalingStage::Scaled: {
      const bool both = scene_.timeline.stage() == static_cast<int>(ScalingStage::Scaled);
      // Side by side, their variances under them; on a narrow stage (a phone) one above the other, each with its
      // variance (side by side the two lines ran into each other).
      const bool stack = both && avail.x < fs * 36.f;
      const float w = both && !stack ? (avail.x - fs) * 0.5f : avail.x;
      const float h = stack ? std::max((avail.y - fs * 8.f) * 0.5f, fs * 10.f) : avail.y - fs * 5.f;
      PlotSpec raw;
      raw.title = std::string("q·k   (") + tr("unscaled") + ")";
      raw.x_label = "q·k";
      raw.y_label = tr("count");
      raw.series.push_back(histogram_series(r.hist_raw, tr("unscaled"), accent_warm()));
      raw.x_markers = {{sd, "+√d_k", 0}, {-sd, "−√d_k", 0}};
      raw.legend = PlotLegend::None;
      hover(plot("hist_raw", raw, ImVec2(w, h)), ScalingItem::HistRaw);
      if (stack) stat_line("Var(q·k)", r.var_raw, p.d_k);
      if (both) {
        if (!stack) ImGui::SameLine(0, fs);
        PlotSpec sc;
        sc.title = std::string("q·k / √d_k   (") + tr("scaled ÷√d_k") + ")";
        sc.x_label = "q·k / √d_k";
        sc.y_label = tr("count");
        sc.series.push_back(histogram_series(r.hist_scaled, tr("scaled ÷√d_k"), accent_cool()));
        sc.x_markers = {{1, "+1", 0}, {-1, "−1", 0}};
        // On the raw histogram's axis: the same counts, squeezed by √d_k.
        sc.x_min = r.hist_raw.lo;
        sc.x_max = r.hist_raw.hi;
        sc.legend = PlotLegend::None;
        hover(plot("hist_scaled", sc, ImVec2(w, h)), ScalingItem::HistScaled);
      }
      if (!stack) stat_line("Var(q·k)", r.var_raw, p.d_k);
      if (both) {
        if (!stack) ImGui::SameLine(w + fs);
        stat_line("Var(q·k/√d_k)", r.var_scaled, 1.0);
      }
      // What to notice, read off the variances just printed.
      text_wrapped("%s", both ? tr_format(N_("Notice: divided by √d_k the standard deviation is {0}, about 1 whatever d_k: on the same axis the scaled scores stay narrow."),
                                                {fmt(std::sqrt(r.var_scaled), 2)}).c_str()
                                    : tr_format(N_("Notice: unscaled, one standard deviation of q·k is {0} here (√d_k = {1}); a softmax over scores this far apart is close to one-hot."),
                                                {fmt(std::sqrt(r.var_raw), 2), fmt(sd, 2)}).c_str());
      break;
    }
    case ScalingStage::Softmax:
    default: {
      // Side by side; on a phone (compact) one above the other (side by side they lost their legends). Room for
      // the "Notice" lines below.
      const bool stacked = ctx.compact;
      const float w = stacked ? avail.x : (avail.x - fs) * 0.5f;
      const float h = stacked ? std::max((avail.y - fs * 6.2f) * 0.5f, fs * 15.f) : avail.y - fs * 5.2f;
      PlotSeries raw_w, sc_w, raw_e, sc_e;
      raw_w.name = raw_e.name = tr("unscaled");
      sc_w.name = sc_e.name = tr("scaled ÷√d_k");
      raw_w.color = raw_e.color = accent_warm();
      sc_w.color = sc_e.color = accent_cool();
      raw_w.points = sc_w.points = raw_e.points = sc_e.points = true;
      for (const auto& pt : r.sweep) {
        raw_w.x.push_back(pt.d_k); raw_w.y.push_back(pt.max_weight_raw);
        sc_w.x.push_back(pt.d_k); sc_w.y.push_back(pt.max_weight_scaled);
        raw_e.x.push_back(pt.d_k); raw_e.y.push_back(pt.entropy_raw);
        sc_e.x.push_back(pt.d_k); sc_e.y.push_back(pt.entropy_scaled);
      }
      PlotSpec a;
      a.title = tr("largest softmax weight");
      a.x_label = "d_k";
      a.x_log = true;
      a.y_min = 0;
      a.y_max = 1;
      a.series = {raw_w, sc_w};
      a.x_markers = {{static_cast<double>(p.d_k), "d_k = " + std::to_string(p.d_k), 0}};
      a.y_markers = {{1.0 / p.n_keys, "1/n", 0}};
      a.legend = PlotLegend::TopLeft;
      hover(plot("max_weight", a, ImVec2(w, h)), ScalingItem::SweepMaxWeight);
      if (!stacked) ImGui::SameLine(0, fs);
      PlotSpec e;
      e.title = tr("softmax entropy (nats)");
      e.x_label = "d_k";
      e.x_log = true;
      e.y_min = 0;
      e.y_max = r.max_entropy * 1.08;
      e.series = {raw_e, sc_e};
      e.x_markers = {{static_cast<double>(p.d_k), "d_k = " + std::to_string(p.d_k), 0}};
      e.y_markers = {{r.max_entropy, tr("uniform: ln n"), 0}};
      e.legend = PlotLegend::BottomLeft;
      hover(plot("entropy", e, ImVec2(w, h)), ScalingItem::SweepEntropy);
      // What to notice, read off the sweep just drawn: the unscaled ends, the scaled range.
      if (r.sweep.size() >= 2) {
        const ScalingSweepPoint &first = r.sweep.front(), &last = r.sweep.back();
        double wlo = 1, whi = 0, elo = 1e9, ehi = 0;
        for (const auto& pt : r.sweep) {
          wlo = std::min(wlo, pt.max_weight_scaled), whi = std::max(whi, pt.max_weight_scaled);
          elo = std::min(elo, pt.entropy_scaled), ehi = std::max(ehi, pt.entropy_scaled);
        }
        text_wrapped("%s", tr_format(N_("Notice, without ÷√d_k: largest weight {0} → {1}, entropy {2} → {3} nats (d_k = {4} → {5})."),
                                                 {fmt(first.max_weight_raw, 2), fmt(last.max_weight_raw, 2), fmt(first.entropy_raw, 2),
                                                  fmt(last.entropy_raw, 2), std::to_string(first.d_k), std::to_string(last.d_k)}).c_str());
        text_wrapped("%s", tr_format(N_("With ÷√d_k: largest weight {0} … {1}, entropy {2} … {3} nats, whatever d_k."),
                                                 {fmt(wlo, 2), fmt(whi, 2), fmt(elo, 2), fmt(ehi, 2)}).c_str());
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
        text_wrapped("%s", tr("A largest weight near 1 is a softmax that is almost one-hot: its gradient is almost 0, so training stalls."));
        ImGui::PopStyleColor();
      }
      break;
    }
  }
}

}  // namespace ap
