// Keyboard shortcuts, for lecturers at a projector and for keyboard-only learners: the shell's keys, then
// the current scene's own.
#include <imgui.h>

#include <string>

#include "app/i18n.h"
#include "ui/ui_state.h"

namespace ap {

void help_panel(PlaygroundState& st, UiState& ui) {
  const ImVec2 size(ImGui::GetFontSize() * 26.f, 0.f);
  ImGui::SetNextWindowPos(ImVec2(ui.frame.width * 0.5f, ui.frame.height * 0.45f), ImGuiCond_Always, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowSize(size);
  ImGui::Begin((std::string(tr("Keyboard shortcuts")) + "###help").c_str(), &ui.show_help,
               ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_AlwaysAutoResize);
  const std::string stages = "1 … " + std::to_string(std::min(9, st.timeline().stage_count()));
  std::vector<std::pair<std::string, const char*>> rows = {
      {"Space", N_("play / pause")},
      {"→  ←   PgDn  PgUp", N_("next / previous stage")},
      {"Shift + →  ←   ↓  ↑", N_("one cell or row forward / back")},
      {"]  [", N_("faster / slower (× 2, ÷ 2)")},
      {"Home  End", N_("first stage / last stage")},
      {stages, N_("jump to a stage")},
      {"R", N_("restart the animation")},
      {"N  P", N_("next / previous lesson (scene)")},
      {"G", N_("lesson map")},
      {"S", N_("next scene")},
      {"L", N_("English / 中文")},
      {"C", N_("show / hide the controls")},
      {"+  −", N_("larger / smaller text")},
      {"T", N_("presenter mode (high contrast, large type, pointer highlight)")},
      {"F", N_("full screen")},
      {"E", N_("export: PNG or SVG of the view, a matrix as SVG, CSV, JSON, .npy or LaTeX")},
      {"Tab", N_("move into the controls (arrows, Space, Enter)")},
      {"Esc", N_("back to the animation")},
      {"F1  ?", N_("this help")},
  };
  for (const auto& [k, what] : ui.view(st).help_rows()) rows.push_back({k, what});
  if (ImGui::BeginTable("keys", 2)) {
    for (const auto& r : rows) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(r.first.c_str());
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(tr(r.second));
    }
    ImGui::EndTable();
  }
  ImGui::End();
}

}  // namespace ap
