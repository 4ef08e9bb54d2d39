#include "views/race_panel.h"

#include <algorithm>

#include "app/i18n.h"
#include "app/state.h"
#include "core/number_text.h"
#include "widgets/colormap.h"
#include "widgets/plot.h"
#include "widgets/text_fit.h"

namespace ap {

namespace {
const TrPair kRacePanelStrings[] = {
    {"Train both", "训练两个模型"},
    {"Train all", "全部训练"},
    {"held-out words right", "留出数据上词的正确率"},
    {"this page's model", "本页训练的模型"},
    {"{0} s of training here, between frames", "在帧与帧之间训练了 {0} 秒"},
    {"{0} s of training in this page's Web Workers", "在本页的 Web Worker 中训练了 {0} 秒"},
    {"learning rate {0}", "学习率 {0}"},
    {"learning rate {0}, falling linearly to {1} from step {2}", "学习率 {0}，从第 {2} 步起线性降到 {1}"},
};
}  // namespace

const TrPair* race_panel_strings(size_t* count) { return translation_table(kRacePanelStrings, count); }

std::string rate_schedule_text(const train::Seq2SeqRecipe& r) {
  const std::string lr = fmt_sig(r.learning_rate, 2);
  if (r.decay_from >= 1) return tr_format(N_("learning rate {0}"), {lr});
  return tr_format(N_("learning rate {0}, falling linearly to {1} from step {2}"),
                   {lr, fmt_sig(seq2seq_learning_rate(r, r.steps), 2),
                    std::to_string(static_cast<int>(r.decay_from * r.steps))});
}

void race_status_line(bool started, int done, int total, const char* state, double seconds, bool in_workers) {
  const std::string where = std::string(tr("step")) + " " + std::to_string(done) + " / " + std::to_string(total) + " · " + tr(state);
  const char* spent_text = in_workers ? N_("{0} s of training in this page's Web Workers") : N_("{0} s of training here, between frames");
  const std::string spent = started ? " · " + tr_format(spent_text, {fmt(seconds, 1)}) : "";
  // Wraps to the next line where the buttons leave no room (a phone).
  if (ImGui::GetContentRegionAvail().x < ImGui::CalcTextSize((where + spent).c_str()).x) ImGui::NewLine();
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted((where + spent).c_str());
}

void race_faults(const Seq2SeqRace& race, const std::vector<RaceSeries>& series) {
  for (int k = 0; k < race.runs() && k < static_cast<int>(series.size()); ++k) {
    const Status f = race.fault(k, series[static_cast<size_t>(k)].name);
    if (f.ok) continue;
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(flag_color(Flag::Failure)));
    text_wrapped("%s", localize(f).c_str());
    ImGui::PopStyleColor();
  }
}

void race_curves(const Seq2SeqRace& race, const std::vector<RaceSeries>& series, ImVec2 size, const char* id) {
  PlotSpec s;
  s.title = tr("held-out words right");
  s.x_label = tr("step");
  int steps = 1;
  for (const train::Seq2SeqRecipe& r : race.recipes()) steps = std::max(steps, r.steps);
  for (size_t k = 0; k < series.size(); ++k) {
    PlotSeries ps;
    ps.name = series[k].name;
    ps.color = series[k].color;
    if (static_cast<int>(k) < race.runs())
      for (const train::Seq2SeqCurvePoint& p : race.run(static_cast<int>(k)).curve) {
        ps.x.push_back(p.step);
        ps.y.push_back(p.accuracy);
      }
    s.series.push_back(ps);
  }
  s.x_min = 0;
  s.x_max = steps;
  s.y_min = 0;
  s.y_max = 1.02;
  s.legend = PlotLegend::BottomRight;
  s.empty_text = tr("Press Train to start.");
  plot(id, s, size);
}

}  // namespace ap
