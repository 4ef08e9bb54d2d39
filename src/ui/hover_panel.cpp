// The exact arithmetic of the item under the mouse, next to the mouse.
#include <imgui.h>

#include "app/i18n.h"
#include "ui/ui_state.h"

namespace ap {

void hover_panel(PlaygroundState& st, const ViewContext& ctx) {
  st.hover_what = ctx.hover_what;
  st.hover_i = ctx.hover_i;
  st.hover_j = ctx.hover_j;
  const std::string text = hover_text(st);
  if (text.empty()) return;
  ImGui::BeginTooltip();
  ImGui::PushTextWrapPos(ImGui::GetFontSize() * 34.f);
  ImGui::TextUnformatted(text.c_str());
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
}

}  // namespace ap
