// The exact arithmetic of the cell under the mouse, next to the mouse.
#include <imgui.h>

#include "app/i18n.h"
#include "ui/ui_state.h"

namespace ap {

void hover_panel(PlaygroundState& st, UiState& ui) {
  st.hover_text.clear();
  if (ui.hover_i < 0) return;
  const std::string text = explain_cell(st.model, ui.hover_id, ui.hover_i, ui.hover_j);
  ui.hover_i = ui.hover_j = -1;  // the scene sets it again next frame if the mouse is still there
  if (text.empty()) return;
  st.hover_text = text;
  ImGui::BeginTooltip();
  ImGui::PushTextWrapPos(ImGui::GetFontSize() * 34.f);
  ImGui::TextUnformatted(text.c_str());
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
}

}  // namespace ap
