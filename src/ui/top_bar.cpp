// Top bar: title, scene name, language, zoom, controls and help toggles.
#include <imgui.h>

#include <algorithm>

#include "app/i18n.h"
#include "ui/ui_state.h"

namespace ap {

void top_bar(PlaygroundState& st, UiState& ui, float height) {
  ImGui::SetNextWindowPos(ImVec2(0, 0));
  ImGui::SetNextWindowSize(ImVec2(static_cast<float>(ui.frame.width), height));
  ImGui::PushStyleColor(ImGuiCol_WindowBg, ImVec4(0.16f, 0.22f, 0.36f, 1.f));
  ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1, 1, 1, 1));
  ImGui::PushStyleColor(ImGuiCol_Button, ImVec4(0.26f, 0.33f, 0.50f, 1.f));
  ImGui::PushStyleColor(ImGuiCol_ButtonHovered, ImVec4(0.34f, 0.43f, 0.64f, 1.f));
  ImGui::Begin("topbar", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                   ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoBringToFrontOnFocus);
  const char* menu = st.show_controls ? tr("Hide controls") : tr("Controls");
  if (ImGui::Button(ui.compact ? (st.show_controls ? "✕" : "≡") : menu)) st.show_controls = !st.show_controls;
  if (ui.compact && ImGui::IsItemHovered()) ImGui::SetTooltip("%s (C)", menu);
  ImGui::SameLine();
  if (!ui.compact) {
    ImGui::TextUnformatted(tr("Attention Playground"));
    ImGui::SameLine();
    ImGui::TextDisabled("·");
    ImGui::SameLine();
  }
  if (ImGui::GetWindowWidth() > 560.f) ImGui::TextUnformatted(tr("Scaled dot-product attention"));
  // Right side: language, zoom, help.
  const float bw = ImGui::CalcTextSize("中文").x + ImGui::CalcTextSize("EN").x + ImGui::CalcTextSize("A−A+?").x +
                   ImGui::GetStyle().FramePadding.x * 10 + ImGui::GetStyle().ItemSpacing.x * 5;
  ImGui::SameLine(std::max(ImGui::GetCursorPosX() + 8.f, ImGui::GetWindowWidth() - bw - 8.f));
  const auto lang_button = [&](const char* label, Lang l) {
    const bool on = lang() == l;
    if (on) ImGui::PushStyleColor(ImGuiCol_Button, ImVec4(0.93f, 0.55f, 0.16f, 1.f));
    if (ImGui::Button(label)) set_lang(l);
    if (on) ImGui::PopStyleColor();
  };
  lang_button("EN", Lang::En);
  ImGui::SameLine(0, 2);
  lang_button("中文", Lang::Zh);
  ImGui::SameLine();
  if (ImGui::Button("A−")) st.ui_scale = std::max(0.6f, st.ui_scale - 0.1f);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s (−)", tr("Smaller text"));
  ImGui::SameLine(0, 2);
  if (ImGui::Button("A+")) st.ui_scale = std::min(2.5f, st.ui_scale + 0.1f);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s (+)", tr("Larger text (projector)"));
  ImGui::SameLine();
  if (ImGui::Button("?")) ui.show_help = !ui.show_help;
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s (F1)", tr("Keyboard shortcuts"));
  ImGui::End();
  ImGui::PopStyleColor(4);
}

}  // namespace ap
