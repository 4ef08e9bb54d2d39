// The formula of the current stage, in real math glyphs, with one line on the idea (from the lecture
// notes) and the arithmetic of the step being animated. The words come from the scene's stage table and
// its view.
#include <imgui.h>

#include <string>

#include "app/i18n.h"
#include "ui/ui_state.h"
#include "widgets/math_text.h"

namespace ap {

void formula_panel(UiState& ui, ViewContext& ctx) {
  SceneView& view = ui.view(ctx.st);
  const auto [formula, idea] = view.caption(ctx);
  ImGui::PushFont(ui.fonts.formula);  // wrapped at its spaces where the line is too narrow (a phone)
  math_text_wrapped(formula ? formula : "", ImGui::GetColorU32(ImGuiCol_Text), 1.25f);  // as math_text
  ImGui::PopFont();
  math_text_wrapped(idea ? idea : "", ImGui::GetColorU32(ImGuiCol_TextDisabled));
  const std::string step = view.step_text(ctx);
  if (!step.empty()) {
    // One line in the flow of the page; the full text is in the hover panel.
    const size_t nl = step.find('\n');
    const std::string line = nl == std::string::npos ? step : step.substr(0, nl) + "   " + step.substr(nl + 1);
    math_text_wrapped(line, ImGui::GetColorU32(ImVec4(0.55f, 0.30f, 0.0f, 1.f)));
  } else {
    ImGui::NewLine();
  }
}

}  // namespace ap
