// The timeline: play/pause, stage and single-step buttons, a scrubber over every sub-step, speed.
#include <imgui.h>

#include <cstdio>
#include <cstring>
#include <string>

#include "app/i18n.h"
#include "core/number_text.h"
#include "ui/ui_state.h"
#include "widgets/math_text.h"
#include "widgets/text_fit.h"
#include "widgets/tooltip.h"

namespace ap {

namespace {
// The icon is the visible label; the ID stays the same whatever the language or the play state.
bool icon_button(const char* icon, const char* id, const char* tip) {
  const bool r = ImGui::Button((std::string(icon) + "###" + id).c_str());
  if (ImGui::IsItemHovered()) {  // dark text: the play button pushes white text for its own label
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.12f, 0.12f, 0.14f, 1.f));
    tooltip("%s", tip);
    ImGui::PopStyleColor();
  }
  ImGui::SameLine(0, 4);
  return r;
}
}  // namespace

void timeline_panel(PlaygroundState& st, UiState& ui) {
  Timeline& t = st.timeline();
  const auto& stages = st.scene().stages();
  ImGui::Separator();
  if (icon_button("⏮", "home", tr("Start (Home)"))) t.home();
  if (icon_button("⏪", "prev", tr("Previous stage (←)"))) t.step_stage(-1);
  if (icon_button("‹", "back1", tr("One cell / row back (Shift+←)"))) t.step_sub(-1);
  ImGui::PushStyleColor(ImGuiCol_Button, ImVec4(0.93f, 0.55f, 0.16f, 1.f));
  ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1, 1, 1, 1));
  if (icon_button(t.playing() ? "⏸" : "▶", "play", t.playing() ? tr("Pause (Space)") : tr("Play (Space)"))) t.toggle_play();
  ImGui::PopStyleColor(2);
  if (icon_button("›", "fwd1", tr("One cell / row forward (Shift+→)"))) t.step_sub(1);
  if (icon_button("⏩", "next", tr("Next stage (→)"))) t.step_stage(1);
  if (icon_button("⏭", "end", tr("End (End)"))) t.end();
  if (icon_button("↻", "restart", tr("Restart (R)"))) t.restart();

  // Stage label: "Stage 2/7 · Scores Q·Kᵀ · cell 3/121"
  char label[160];
  const int subs = t.substeps(t.stage());
  std::snprintf(label, sizeof label, "%s %d/%d · %s", tr("Stage"), t.stage() + 1, t.stage_count(),
                tr(stages[static_cast<size_t>(t.stage())].title));
  if (subs > 1) {
    char more[64];
    std::snprintf(more, sizeof more, " · %d/%d", t.done_substeps(), subs);
    std::strncat(label, more, sizeof label - std::strlen(label) - 1);
  }
  if (ui.compact) ImGui::NewLine(); else ImGui::SameLine(0, 12);
  if (ui.one_row_timeline) {  // the label shortened to its share of the row, the scrubber beside it
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(fit_text(label, ImGui::GetFontSize() * 13.f).c_str());
    ImGui::SameLine();
  } else {
    math_text(label);
  }

  // Scrubber over all sub-steps, with the stage boundaries marked.
  // Speed: "−  speed 1.0×  +" (halve / double, as [ and ]): a slider's handle covered its own label.
  char speed_text[48];
  const double sp = t.speed();
  std::snprintf(speed_text, sizeof speed_text, tr("speed %s×"), fmt(sp, sp < 0.995 ? 2 : 1).c_str());
  const ImGuiStyle& style = ImGui::GetStyle();
  const float step_w = ImGui::CalcTextSize("+").x + style.FramePadding.x * 2.f;
  char widest[48];
  std::snprintf(widest, sizeof widest, tr("speed %s×"), "16.0");
  const float speed_w = 2.f * step_w + ImGui::CalcTextSize(widest).x + 2.f * style.ItemSpacing.x;
  ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x - speed_w - ImGui::GetStyle().ItemSpacing.x - 4.f);
  float pos = static_cast<float>(t.position());
  const ImVec2 bar0 = ImGui::GetCursorScreenPos();
  if (ImGui::SliderFloat("##scrub", &pos, 0.f, static_cast<float>(t.total()), "")) t.set_position(pos);
  if (ImGui::IsItemHovered()) tooltip("%s", tr("Drag to scrub through every step"));
  const ImVec2 bar1 = ImGui::GetItemRectMax();
  double acc = 0;
  for (int s = 0; s + 1 < t.stage_count(); ++s) {
    acc += t.substeps(s);
    const float x = bar0.x + (bar1.x - bar0.x) * static_cast<float>(acc / t.total());
    ImGui::GetWindowDrawList()->AddLine(ImVec2(x, bar0.y + 2), ImVec2(x, bar1.y - 2), IM_COL32(90, 90, 110, 160), 1.5f);
  }
  ImGui::SameLine();
  ImGui::BeginDisabled(sp <= 0.1 + 1e-9);
  if (ImGui::Button("−##slower", ImVec2(step_w, 0))) t.set_speed(sp * 0.5);
  ImGui::EndDisabled();
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) tooltip("%s", tr("Slower (key [)"));
  ImGui::SameLine();
  ImGui::AlignTextToFramePadding();
  const float text_w = ImGui::CalcTextSize(speed_text).x, box_w = ImGui::CalcTextSize(widest).x;
  ImGui::SetCursorPosX(ImGui::GetCursorPosX() + (box_w - text_w) * 0.5f);
  ImGui::TextUnformatted(speed_text);
  ImGui::SameLine(0, style.ItemSpacing.x + (box_w - text_w) * 0.5f);
  ImGui::BeginDisabled(sp >= 16.0 - 1e-9);
  if (ImGui::Button("+##faster", ImVec2(step_w, 0))) t.set_speed(sp * 2.0);
  ImGui::EndDisabled();
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) tooltip("%s", tr("Faster (key ])"));
}

}  // namespace ap
