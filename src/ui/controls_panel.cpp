// The side panel: the scene's examples (presets), the scene's own controls (its view draws them), and the
// display settings.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "app/api.h"
#include "app/i18n.h"
#include "app/quiz.h"
#include "core/number_text.h"
#include "ui/ui_state.h"
#include "widgets/colormap.h"
#include "widgets/section.h"
#include "widgets/tooltip.h"
#include "widgets/text_fit.h"

namespace ap {

// "Check yourself" (app/quiz.h): the scene's questions, closed until opened; an answer is explained once
// the learner has picked one.
// `jump`: the button at the top of the panel asked for it: opened and scrolled to.
void quiz_section(PlaygroundState& st, bool jump) {
  const std::string sid = st.scene().id();
  const auto& questions = quiz_for(sid);
  if (questions.empty()) return;
  ImGui::Spacing();
  if (jump) ImGui::SetNextItemOpen(true);
  const bool open = ImGui::CollapsingHeader((std::string(tr("Check yourself")) + "###quiz").c_str());
  if (jump) ImGui::SetScrollHereY(0.f);
  if (!open) return;
  for (const QuizQuestion& q : questions) {
    ImGui::PushID(q.id);
    ImGui::Spacing();
    text_wrapped("%s", tr(q.question));
    const int pick = quiz_pick(st, sid, q.id);
    for (int k = 0; k < static_cast<int>(q.options.size()); ++k) {
      ImGui::PushID(k);
      ImGui::PushTextWrapPos(0.f);
      if (ImGui::RadioButton("##opt", pick == k)) (void)report_result(st, "quiz", answer_question(st, sid, q.id, k));
      ImGui::SameLine();
      text_wrapped("%s", tr(q.options[static_cast<size_t>(k)]));
      ImGui::PopTextWrapPos();
      ImGui::PopID();
    }
    if (pick >= 0) {
      const bool right = pick == q.correct;
      ImGui::PushStyleColor(ImGuiCol_Text, flag_color(right ? Flag::Right : Flag::Wrong));
      ImGui::TextUnformatted(tr(right ? "Right." : "Not quite."));
      ImGui::PopStyleColor();
      ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
      text_wrapped("%s", tr(q.explanation));
      ImGui::PopStyleColor();
      if (ImGui::SmallButton(tr("Try again"))) (void)answer_question(st, sid, q.id, -1);
    }
    ImGui::PopID();
  }
}

void controls_panel(PlaygroundState& st, UiState& ui, ViewContext& ctx) {
  Scene& sc = st.scene();
  const float w = ImGui::GetContentRegionAvail().x;
  // "Check yourself" lies below the scene's controls, under the fold at 720 px: the button on the first
  // heading's line goes straight to it.
  const bool jump = ui.jump_to_quiz;
  ui.jump_to_quiz = false;
  const std::string quiz_jump = std::string(tr("Check yourself")) + " ↓###quiz_jump";
  if (!sc.presets().empty()) {
    if (section_heading(tr("Examples"), quiz_for(sc.id()).empty() ? nullptr : quiz_jump.c_str())) ui.jump_to_quiz = true;
    for (const PresetInfo& pr : sc.presets()) {
      const char* title = tr(pr.title);
      const float bw = ImGui::CalcTextSize(title).x + ImGui::GetStyle().FramePadding.x * 2;
      if (ImGui::GetCursorPosX() > ImGui::GetStyle().WindowPadding.x && ImGui::GetCursorPosX() + bw > w) ImGui::NewLine();
      if (ImGui::Button((std::string(title) + "###preset_" + pr.id).c_str())) {
        // A preset is shown complete, at its last stage.
        if (report_result(st, "preset", apply_document(st, {{"preset", pr.id}}))) st.timeline().end();
      }
      if (ImGui::IsItemHovered()) tooltip("%s", tr(pr.note));
      ImGui::SameLine();
    }
    ImGui::NewLine();
  }

  ImGui::PushID(sc.id());
  ui.view(st).controls(ctx);
  quiz_section(st, jump);
  ImGui::PopID();

  section_heading(tr("Display"));
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 9.f);
  if (!ui.zoom_dragging) ui.zoom_slider = st.ui_scale;
  ImGui::SliderFloat((std::string(tr("text size")) + "###text_size").c_str(), &ui.zoom_slider, PlaygroundState::kMinUiScale,
                     PlaygroundState::kMaxUiScale, "%.1f×", ImGuiSliderFlags_AlwaysClamp);
  ui.zoom_dragging = ImGui::IsItemActive();
  if (ui.font_zoom + 0.01f < st.ui_scale)
    ImGui::TextDisabled("%s", tr_format(N_("limited to {0}× on this screen"), {fmt(ui.font_zoom, 1)}).c_str());
  // Rebuild the fonts once, on release. A value typed into the slider (Ctrl+click, or Tab then keys) is
  // clamped to the limits: "0" once made every size 0 and the frame read outside memory (the monkey found it).
  if (ImGui::IsItemDeactivatedAfterEdit() && std::isfinite(ui.zoom_slider))
    st.ui_scale = std::clamp(ui.zoom_slider, PlaygroundState::kMinUiScale, PlaygroundState::kMaxUiScale);
  bool presenter = st.presenter;
  if (ImGui::Checkbox((std::string(tr("Presenter mode (T)")) + "###presenter").c_str(), &presenter)) set_presenter(st, presenter);
  if (ImGui::IsItemHovered()) tooltip("%s", tr("High contrast, large type, the pointer highlighted: for a projector."));
  ImGui::SameLine();
  if (ImGui::Button((std::string(tr("Full screen (F)")) + "###fullscreen").c_str())) platform_toggle_fullscreen();
  ImGui::Checkbox((std::string(tr("Colour-blind-safe colours")) + "###colorblind").c_str(), &st.colorblind);
  if (ImGui::IsItemHovered()) tooltip("%s", tr("Blue–orange instead of blue–red, and a light-yellow–grey–blue scale for the weights."));
  ImGui::Checkbox((std::string(tr("Stretch the weights' colours")) + "###stretch_weights").c_str(), &st.stretch_weights);
  if (ImGui::IsItemHovered())
    tooltip("%s", tr("Off: weights are coloured from 0 to 1, so a weight looks as large as it is. On: the scale ends near the largest weight, to tell small weights apart (the legend says so)."));
  if (ImGui::Button((std::string(tr("Export (E)")) + "###export").c_str())) ui.show_export = !ui.show_export;
  ImGui::Spacing();
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  text_wrapped("%s", tr("Keys: Space play · ←/→ stage · Shift+←/→ one cell · Home/End · F1 help"));
  ImGui::PopStyleColor();
}

}  // namespace ap
