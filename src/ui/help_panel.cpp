// Keyboard shortcuts, for lecturers at a projector and for keyboard-only learners.
#include <imgui.h>

#include "app/i18n.h"
#include "ui/ui_state.h"

namespace ap {

void help_panel(UiState& ui) {
  const ImVec2 size(ImGui::GetFontSize() * 26.f, 0.f);
  ImGui::SetNextWindowPos(ImVec2(ui.frame.width * 0.5f, ui.frame.height * 0.45f), ImGuiCond_Always, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowSize(size);
  ImGui::Begin(tr("Keyboard shortcuts"), &ui.show_help, ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings |
                                                        ImGuiWindowFlags_AlwaysAutoResize);
  const char* rows[][2] = {
      {"Space", "play / pause"},
      {"→  ←", "next / previous stage"},
      {"Shift + →  ←", "one cell or row forward / back"},
      {"Home  End", "first stage / last stage"},
      {"1 … 7", "jump to a stage"},
      {"R", "restart the animation"},
      {"M", "next mask: none, padding, causal"},
      {"L", "English / 中文"},
      {"C", "show / hide the controls"},
      {"+  −", "larger / smaller text"},
      {"Tab", "move into the controls (arrows, Space, Enter)"},
      {"Esc", "back to the animation"},
      {"F1  ?", "this help"},
  };
  if (ImGui::BeginTable("keys", 2)) {
    for (auto& r : rows) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(r[0]);
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(tr(r[1]));
    }
    ImGui::EndTable();
  }
  ImGui::End();
}

}  // namespace ap
