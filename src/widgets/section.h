// A section heading in a side panel: a dim title over a separator.
#pragma once
#include <imgui.h>

namespace ap {

inline void section_heading(const char* title) {
  ImGui::Spacing();
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ImGui::TextUnformatted(title);
  ImGui::PopStyleColor();
  ImGui::Separator();
}

}  // namespace ap
