// A scene at the very start of its first stage (nothing computed yet, paused) says how to begin: "Press Space
// or ▶ to step through", on the stage area where its matrices are still empty. It goes once the learner
// plays or steps.
#include <imgui.h>

#include "app/i18n.h"
#include "ui/ui_state.h"

namespace ap {

void start_prompt(const PlaygroundState& st) {
  const Timeline& t = st.timeline();
  if (t.stage() != 0 || t.done_substeps() != 0 || t.playing() || t.stage_count() < 2) return;
  const char* text = tr("Press Space or ▶ to step through");
  const float fs = ImGui::GetFontSize();
  const ImVec2 size = ImGui::CalcTextSize(text);
  const ImVec2 wpos = ImGui::GetWindowPos(), wsize = ImGui::GetWindowSize();
  const ImVec2 pad(fs * 0.9f, fs * 0.5f);
  // The middle of the stage area, where the matrices still to be computed lie empty.
  const ImVec2 a(wpos.x + (wsize.x - size.x) * 0.5f - pad.x, wpos.y + (wsize.y - size.y) * 0.55f - pad.y);
  const ImVec2 b(a.x + size.x + pad.x * 2.f, a.y + size.y + pad.y * 2.f);
  // In a child window of its own, begun after the view's: ImGui draws a window's children after its own
  // list, in the order they were begun, so the matrices' child windows would otherwise paint over it.
  const ImVec2 keep = ImGui::GetCursorScreenPos();
  ImGui::SetCursorScreenPos(a);
  ImGui::BeginChild("##start_prompt", ImVec2(b.x - a.x, b.y - a.y), false,
                    ImGuiWindowFlags_NoInputs | ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoNav |
                        ImGuiWindowFlags_NoBackground);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddRectFilled(a, b, IM_COL32(255, 244, 214, 245), fs * 0.4f);
  dl->AddRect(ImVec2(a.x + 1.f, a.y + 1.f), ImVec2(b.x - 1.f, b.y - 1.f), IM_COL32(230, 140, 40, 255), fs * 0.4f, 0, 1.5f);  // inside the clip
  dl->AddText(ImVec2(a.x + pad.x, a.y + pad.y), IM_COL32(60, 40, 10, 255), text);
  ImGui::EndChild();
  ImGui::SetCursorScreenPos(keep);
}

}  // namespace ap
