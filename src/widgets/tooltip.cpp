#include "widgets/tooltip.h"

#include <algorithm>
#include <cstdarg>
#include <cstdio>

namespace ap {

void tooltip(const char* fmt, ...) {
  char text[1024];
  va_list args;
  va_start(args, fmt);
  std::vsnprintf(text, sizeof text, fmt, args);
  va_end(args);
  const ImGuiStyle& style = ImGui::GetStyle();
  const float screen = ImGui::GetIO().DisplaySize.x - 2.f * (style.WindowPadding.x + style.DisplaySafeAreaPadding.x);
  const float wrap = std::max(ImGui::GetFontSize() * 8.f, std::min(ImGui::GetFontSize() * 32.f, screen));
  ImGui::BeginTooltip();
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + wrap);
  ImGui::TextUnformatted(text);
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
}

}  // namespace ap
