// Top bar: title, the scene switcher, language, zoom, controls and help toggles.
#include <imgui.h>

#include <algorithm>
#include <string>
#include <vector>

#include "app/i18n.h"
#include "ui/ui_state.h"
#include "widgets/tooltip.h"
#include "widgets/text_fit.h"

namespace ap {

namespace {
// "label###id": the visible label may change with the language, the ImGui ID may not.
std::string lid(const char* label, const char* id) { return std::string(label) + "###" + id; }

void end_top_bar() {
  ImGui::End();
  ImGui::PopStyleColor(6);
}
}  // namespace

void top_bar(PlaygroundState& st, UiState& ui, float height) {
  ImGui::SetNextWindowPos(ImVec2(0, 0));
  ImGui::SetNextWindowSize(ImVec2(static_cast<float>(ui.frame.width), height));
  ImGui::PushStyleColor(ImGuiCol_WindowBg, ImVec4(0.16f, 0.22f, 0.36f, 1.f));
  ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1, 1, 1, 1));
  ImGui::PushStyleColor(ImGuiCol_Button, ImVec4(0.26f, 0.33f, 0.50f, 1.f));
  ImGui::PushStyleColor(ImGuiCol_ButtonHovered, ImVec4(0.34f, 0.43f, 0.64f, 1.f));
  ImGui::PushStyleColor(ImGuiCol_FrameBg, ImVec4(0.26f, 0.33f, 0.50f, 1.f));
  ImGui::PushStyleColor(ImGuiCol_PopupBg, ImVec4(0.20f, 0.26f, 0.42f, 1.f));
  // Tooltips opened here take these colours too: white text on the dark popup background, never white on white.
  ImGui::Begin("topbar", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                   ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoBringToFrontOnFocus);
  const char* menu = st.show_controls ? tr("Hide controls") : tr("Controls");
  if (ImGui::Button(lid(ui.compact ? (st.show_controls ? "✕" : "≡") : menu, "controls_toggle").c_str()))
    st.show_controls = !st.show_controls;
  if (ui.compact && ImGui::IsItemHovered()) tooltip("%s (C)", menu);
  ImGui::SameLine();
  if (!ui.compact && ImGui::GetWindowWidth() > 900.f) {
    ImGui::TextUnformatted(tr("Attention Playground"));
    ImGui::SameLine();
    ImGui::TextDisabled("·");
    ImGui::SameLine();
  }
  // The lesson path: previous / next scene and the lesson map around the scene switcher.
  const int n_scenes = static_cast<int>(st.scenes.size());
  ImGui::BeginDisabled(st.current == 0);
  if (ImGui::ArrowButton("prev_lesson", ImGuiDir_Left)) step_lesson(st, -1);
  ImGui::EndDisabled();
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) tooltip("%s (P)", tr("Previous lesson"));
  ImGui::SameLine(0, 2);
  // "Lessons 5/11" (a phone: "5/11"): where this scene is on the path, and the way to the lesson map.
  const std::vector<std::string> at = {std::to_string(st.current + 1), std::to_string(n_scenes)};
  const std::string pos = format_template(ui.compact ? "{0}/{1}" : tr("Lessons {0}/{1}"), at) + "###lesson_map";
  if (ImGui::Button(pos.c_str())) ui.show_lessons = !ui.show_lessons;
  if (ImGui::IsItemHovered()) tooltip("%s (G)", tr("Lesson map"));
  ImGui::SameLine(0, 2);
  ImGui::BeginDisabled(st.current + 1 >= n_scenes);
  if (ImGui::ArrowButton("next_lesson", ImGuiDir_Right)) step_lesson(st, 1);
  ImGui::EndDisabled();
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) tooltip("%s (N)", tr("Next lesson"));
  ImGui::SameLine();
  // The scene switcher: every registered scene, by its title.
  const ImGuiStyle& style = ImGui::GetStyle();
  const float right_w = ImGui::CalcTextSize("中文").x + ImGui::CalcTextSize("EN").x + ImGui::CalcTextSize("A−A+?").x +
                        ImGui::CalcTextSize(tr("Share")).x + style.FramePadding.x * 12 + style.ItemSpacing.x * 6;
  // Where the right side would leave the switcher under five characters (a phone at a large text size), it
  // folds into one "…" menu: every button stays on the bar's one line, none is pushed off it.
  const float fs = ImGui::GetFontSize(), room = ImGui::GetWindowWidth() - ImGui::GetCursorPosX() - 24.f;
  const bool fold = room - right_w < fs * 5.f;
  const float menu_w = ImGui::CalcTextSize("…").x + style.FramePadding.x * 2 + style.ItemSpacing.x;
  const float combo_w = std::clamp(room - (fold ? menu_w : right_w), 40.f, fs * 18.f);
  ImGui::SetNextItemWidth(combo_w);
  // The preview shortened with "…" to the room left of the arrow (a phone cut "…attentior" mid-letter).
  const float preview_w = combo_w - ImGui::GetFrameHeight() - style.FramePadding.x * 2;
  if (ImGui::BeginCombo("##scene", fit_text(tr(st.scene().title()), preview_w).c_str())) {
    for (const auto& s : st.scenes) {
      const bool on = s.get() == &st.scene();
      if (ImGui::Selectable(lid(tr(s->title()), s->id()).c_str(), on)) switch_scene(st, s->id());
    }
    ImGui::EndCombo();
  }
  if (ImGui::IsItemHovered()) tooltip("%s (S)", tr("Scene"));
  // Right side: share, language, zoom, help (on the bar, or in the "…" menu).
  if (fold) {
    ImGui::SameLine(std::max(ImGui::GetCursorPosX() + 4.f, ImGui::GetWindowWidth() - menu_w - 8.f));
    if (ImGui::Button("…###more")) ImGui::OpenPopup("more");
    if (ImGui::IsItemHovered()) tooltip("%s", tr("More"));
    if (!ImGui::BeginPopup("more")) return end_top_bar();
  } else {
    ImGui::SameLine(std::max(ImGui::GetCursorPosX() + 8.f, ImGui::GetWindowWidth() - right_w - 8.f));
  }
  if (ImGui::Button(lid(tr("Share"), "share").c_str())) ui.show_share = !ui.show_share;
  if (ImGui::IsItemHovered()) tooltip("%s", tr("Link to this view (scene, parameters, language, step):"));
  ImGui::SameLine();
  const auto lang_button = [&](const char* label, Lang l) {
    const bool on = lang() == l;
    if (on) ImGui::PushStyleColor(ImGuiCol_Button, ImVec4(0.93f, 0.55f, 0.16f, 1.f));
    if (ImGui::Button(label)) set_lang(l);
    if (on) ImGui::PopStyleColor();
  };
  lang_button("EN", Lang::En);
  ImGui::SameLine(0, 2);
  // While the Chinese font is on its way the interface stays English: the button says so.
  lang_button(fonts_chinese_pending(st, ui) ? "中文…###zh" : "中文###zh", Lang::Zh);
  ImGui::SameLine();
  if (ImGui::Button("A−")) st.ui_scale = std::max(PlaygroundState::kMinUiScale, st.ui_scale - 0.1f);
  if (ImGui::IsItemHovered()) tooltip("%s (−)", tr("Smaller text"));
  ImGui::SameLine(0, 2);
  if (ImGui::Button("A+")) st.ui_scale = std::min(PlaygroundState::kMaxUiScale, st.ui_scale + 0.1f);
  if (ImGui::IsItemHovered()) tooltip("%s (+)", tr("Larger text (projector)"));
  ImGui::SameLine();
  if (ImGui::Button("?")) ui.show_help = !ui.show_help;
  if (ImGui::IsItemHovered()) tooltip("%s (F1)", tr("Keyboard shortcuts"));
  if (fold) ImGui::EndPopup();
  end_top_bar();
}

}  // namespace ap
