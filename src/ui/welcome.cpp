// The welcome: a bare visit (no scene or preset in the link, not embedded) opens the lesson map with this
// head: one line on what the playground is and "Start at lesson 1" (Enter). Closing the map (×, Esc) leaves
// the page as a bare visit always showed it; any lesson of the map below opens that lesson instead.
#include <imgui.h>

#include <string>

#include "app/i18n.h"
#include "ui/ui_state.h"
#include "widgets/text_fit.h"

namespace ap {

void start_first_lesson(PlaygroundState& st, UiState& ui) { open_lesson(st, ui, st.scenes.front()->id()); }

void welcome_header(PlaygroundState& st, UiState& ui) {
  const float fs = ImGui::GetFontSize();
  ImGui::PushTextWrapPos(0.f);
  text_wrapped("%s", tr("Watch attention being computed step by step on sentences you type: one lesson per idea of "
                              "the lecture notes, from the Seq2Seq bottleneck to the cost of attention."));
  ImGui::PopTextWrapPos();
  ImGui::Spacing();
  ImGui::PushStyleColor(ImGuiCol_Button, ImVec4(0.93f, 0.55f, 0.16f, 1.f));
  ImGui::PushStyleColor(ImGuiCol_ButtonHovered, ImVec4(0.97f, 0.64f, 0.28f, 1.f));
  ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1, 1, 1, 1));
  // On a narrow screen (a phone) the label wraps onto lines of its own, and the hint goes below the button.
  const float pad = ImGui::GetStyle().FramePadding.x * 2.f, avail = ImGui::GetContentRegionAvail().x;
  const std::string label = tr_format(N_("Start at lesson 1: {0}"), {tr(st.scenes.front()->title())}) + " (Enter)";
  const bool one_line = text_width(label) + pad <= avail;
  const std::string start = (one_line ? label : wrap_text(label, avail - pad)) + "###welcome_start";
  if (ImGui::Button(start.c_str(), one_line ? ImVec2(0, fs * 2.f) : ImVec2(0, 0))) start_first_lesson(st, ui);
  note_if_cut("welcome_start");
  ImGui::PopStyleColor(3);
  const char* hint = tr("or pick any lesson below · Esc closes");
  if (same_line_if_fits(text_width(hint))) {
    ImGui::AlignTextToFramePadding();
    ImGui::TextDisabled("%s", hint);
  } else {
    ImGui::PushTextWrapPos(0.f);
    ImGui::TextDisabled("%s", hint);
    ImGui::PopTextWrapPos();
  }
  ImGui::Separator();
}

}  // namespace ap
