// Error messages on screen: what went wrong and that the last good state is still shown.
#include <imgui.h>

#include "app/i18n.h"
#include "ui/ui_state.h"
#include "widgets/colormap.h"
#include "widgets/text_fit.h"

namespace ap {

void messages_panel(PlaygroundState& st) {
  for (size_t k = 0; k < st.errors.size(); ++k) {
    ImGui::PushID(static_cast<int>(k));
    ImGui::PushStyleColor(ImGuiCol_ChildBg, ImVec4(1.0f, 0.92f, 0.90f, 1.f));
    const float h = ImGui::GetTextLineHeightWithSpacing() * 2.f + 8.f;
    ImGui::BeginChild("msg", ImVec2(0, h), true, ImGuiWindowFlags_NoScrollbar);
    ImGui::PushStyleColor(ImGuiCol_Text, flag_color(Flag::Error));
    ImGui::PushTextWrapPos(ImGui::GetContentRegionAvail().x - 40.f);
    text_wrapped("⚠ %s", localize(st.errors[k].text).c_str());
    ImGui::PopTextWrapPos();
    ImGui::PopStyleColor();
    ImGui::TextDisabled("%s", tr("The playground keeps showing the last valid input."));
    ImGui::SetCursorPos(ImVec2(ImGui::GetWindowWidth() - 34.f, 4.f));
    bool close = ImGui::SmallButton("✕");
    ImGui::EndChild();
    ImGui::PopStyleColor();
    ImGui::PopID();
    if (close) { dismiss(st, k); break; }
  }
}

}  // namespace ap
