#include "views/train_panel.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "app/i18n.h"
#include "core/number_text.h"
#include "core/train/heads.h"
#include "core/train/induction.h"
#include "core/train/trainer.h"
#include "widgets/colormap.h"
#include "widgets/plot.h"
#include "widgets/seed_input.h"
#include "widgets/text_fit.h"

namespace ap {

namespace {
const TrPair kTrainPanelStrings[] = {
    {"Train this model again", "重新训练这个模型"},
    {"The view follows the weights as they learn: press Reset for the untrained start (step 0), then Train.",
     "视图跟着权重一起学习：按“重置”回到未训练的起点（第 0 步），再按“训练”。"},
    {"Another scene trains on the worker now; Train starts this model again from step 0.",
     "另一个场景正在使用训练 worker；按“训练”会让这个模型从第 0 步重新开始。"},
    {"These weights could not be shown: {0}", "无法显示这些权重：{0}"},
    {"The view shows step {0}: the last evaluation (every {1} steps), whose held-out accuracy was measured.",
     "视图显示的是第 {0} 步：最近一次评估（每 {1} 步一次），它的留出集准确率是实测的。"},
};
}  // namespace

const TrPair* training_panel_strings(size_t* count) { return translation_table(kTrainPanelStrings, count); }

void run_curves(const TrainRun& run, int steps, float width, float height, const char* id) {
  const train::TrainReport& r = run.report();
  const std::string& task = run.recipe().task;
  PlotSeries loss, acc, argmax;
  loss.name = tr("training loss");
  acc.name = tr("held-out accuracy");
  argmax.name = tr(task == train::kHeadsTask       ? "any head on the referent"
                   : task == train::kInductionTask ? "some head on the token to copy"
                                                   : "argmax on the referent");
  argmax.dashed = true;
  // The first and the last point with a loss (step 0 has none): the notice under the curves.
  const train::CurvePoint* first = nullptr;
  const train::CurvePoint* last = nullptr;
  if (run.has_report())
    for (const train::CurvePoint& p : r.curve) {
      if (std::isfinite(p.loss)) {
        loss.x.push_back(p.step);
        loss.y.push_back(p.loss);
        if (!first) first = &p;
        last = &p;
      }
      acc.x.push_back(p.step);
      acc.y.push_back(p.heldout_accuracy);
      argmax.x.push_back(p.step);
      argmax.y.push_back(p.referent_argmax);
    }
  PlotSpec a;
  a.title = tr("loss");
  a.x_label = tr("step");
  a.series = {loss};
  a.y_log = true;
  a.x_min = 0;
  a.x_max = steps;
  a.empty_text = tr("Press Train to start.");
  const float fs = ImGui::GetFontSize(), notice_h = first && last != first ? fs * 2.6f : 0.f;
  height = std::max(height - notice_h, fs * 12.f);
  plot((std::string(id) + "_loss").c_str(), a, ImVec2(width, height * 0.5f - 4.f));
  PlotSpec b;
  b.title = tr("held-out accuracy");
  b.x_label = tr("step");
  b.series = {acc, argmax};
  b.x_min = 0;
  b.x_max = steps;
  b.y_min = 0;
  b.y_max = 1.02;
  b.legend = PlotLegend::BottomRight;
  PlotMarker target;
  target.value = 0.95;
  target.label = tr("target 95 %");
  b.y_markers.push_back(target);
  plot((std::string(id) + "_acc").c_str(), b, ImVec2(width, height * 0.5f - 4.f));
  if (notice_h > 0) {
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + width);
    text_wrapped("%s", tr_format(N_("Notice: the loss went from {0} at step {1} to {2} at step {3}; on held-out examples it never trained on, {4} % are right."),
                                       {fmt_sig(first->loss), std::to_string(first->step), fmt_sig(last->loss), std::to_string(last->step),
                                        fmt(100.0 * last->heldout_accuracy, 1)}).c_str());
    ImGui::PopTextWrapPos();
  }
}

void training_panel(ViewContext& ctx, SceneTraining& t, const Status& install_error, train::Recipe* edit, const char* id) {
  const std::string pre = std::string("###") + id + "_train_";
  const float fs = ImGui::GetFontSize();
  const TrainRun& run = t.run();
  // Folded until asked for (one line under the weights' label); open while a run trains, whoever started it,
  // and while it has something to say (a worker that failed, a run that diverged, weights that could not be shown).
  if (run.running() || run.state() == TrainRunState::Failed || run.state() == TrainRunState::Diverged || !install_error.ok)
    ImGui::SetNextItemOpen(true, ImGuiCond_Always);
  if (!ImGui::CollapsingHeader((std::string(tr("Train this model again")) + pre + "panel").c_str())) return;
  ImGui::PushTextWrapPos(0.f);
  ImGui::TextDisabled("%s", tr("The view follows the weights as they learn: press Reset for the untrained start (step 0), then Train."));
  ImGui::PopTextWrapPos();
  if (!ImGui::IsAnyItemActive()) *edit = t.recipe();  // a field being typed in keeps what it shows
  // The commands.
  if (run.running()) {
    if (ImGui::Button((std::string(tr("Pause")) + pre + "pause").c_str())) (void)report_result(ctx.st, "training", t.pause());
  } else if (ImGui::Button((std::string(tr("Train")) + pre + "start").c_str())) {
    (void)report_result(ctx.st, "training", t.start());
  }
  ImGui::SameLine();
  if (ImGui::Button((std::string(tr("One step")) + pre + "step").c_str())) (void)report_result(ctx.st, "training", t.step_once());
  ImGui::SameLine();
  if (ImGui::Button((std::string(tr("Reset")) + pre + "reset").c_str())) (void)report_result(ctx.st, "training", t.reset());
  // The recipe: what the learner may change of the view's model (its task and sizes are the view's).
  const auto set = [&](const char* key) {
    if (!report_result(ctx.st, key, t.set_recipe(*edit)).ok) *edit = t.recipe();  // the last good values stay
  };
  const float field = fs * 7.f;
  ImGui::SetNextItemWidth(field);
  if (ImGui::InputDouble((std::string(tr("learning rate")) + pre + "lr").c_str(), &edit->learning_rate, 0.001, 0.01, "%.4g")) set("learning_rate");
  ImGui::SetNextItemWidth(field);
  if (ImGui::InputInt((std::string(tr("steps")) + pre + "steps").c_str(), &edit->steps, 100, 1000)) set("steps");
  if (seed_input(tr("seed"), (std::string(id) + "_train_seed").c_str(), &edit->seed, field)) set("seed");
  // Where the run stands, measured.
  const train::TrainReport& r = run.report();
  ImGui::Text("%s %d / %d · %s", tr("step"), run.step(), run.started() ? run.recipe().steps : t.recipe().steps, tr(train_state_name(run.state())));
  if (run.has_report())
    ImGui::Text("%s %s · %s %s %% · %s %s", tr("loss"), std::isfinite(r.loss) ? fmt_sig(r.loss).c_str() : "–", tr("held-out accuracy"),
                fmt(100.0 * r.heldout_accuracy, 1).c_str(), tr("steps/s"), fmt(run.steps_per_second(), 0).c_str());
  ImGui::PushTextWrapPos(0.f);
  // The view shows the weights of the last evaluation (what its accuracy was measured on), not the step between.
  if (run.has_report() && !run.taken() && run.step() != t.shown_step() && t.shown_step() >= 0)
    ImGui::TextDisabled("%s", tr_format(N_("The view shows step {0}: the last evaluation (every {1} steps), whose held-out accuracy was measured."),
                                        {std::to_string(t.shown_step()), std::to_string(train::kEvalEvery)}).c_str());
  const ImVec4 failure = ImGui::ColorConvertU32ToFloat4(flag_color(Flag::Failure));
  if (run.taken()) ImGui::TextDisabled("%s", tr("Another scene trains on the worker now; Train starts this model again from step 0."));
  if (run.state() == TrainRunState::Diverged) ImGui::TextColored(failure, "%s", localize(run.report().divergence()).c_str());
  if (run.state() == TrainRunState::Failed) {
    ImGui::TextColored(failure, "%s", tr("The training worker could not start; the weights on screen stay as they were."));
    ImGui::TextUnformatted(run.host_error().c_str());
  }
  if (!install_error.ok) ImGui::TextColored(failure, "%s", tr_format(N_("These weights could not be shown: {0}"), {localize(install_error)}).c_str());
  ImGui::PopTextWrapPos();
  if (run.has_report()) run_curves(run, run.recipe().steps, ImGui::GetContentRegionAvail().x, fs * 14.f, (std::string(id) + "_train").c_str());
}

}  // namespace ap
