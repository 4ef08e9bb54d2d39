// A section heading in a side panel: a dim title over a separator; optionally a small button at the right end
// of the title's line (no taller than the title, so the panel below does not move): true when it is pressed.
#pragma once
#include <imgui.h>

#include <algorithm>
#include <cstring>

namespace ap {

inline bool section_heading(const char* title, const char* button = nullptr) {
  ImGui::Spacing();
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ImGui::TextUnformatted(title);
  ImGui::PopStyleColor();
  bool pressed = false;
  if (button) {
    const char* shown_end = std::strstr(button, "##");  // the label ends where its ID begins
    const float bw = ImGui::CalcTextSize(button, shown_end).x + ImGui::GetStyle().FramePadding.x * 2.f;
    ImGui::SameLine(std::max(ImGui::GetCursorPosX(), ImGui::GetWindowContentRegionMax().x - bw));
    pressed = ImGui::SmallButton(button);
  }
  ImGui::Separator();
  return pressed;
}

}  // namespace ap
