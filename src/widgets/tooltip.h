// A tooltip that fits the screen: Dear ImGui's SetTooltip never wraps, so a sentence on a phone ran off the
// right edge. The same printf-style call, wrapped at about 32 characters or the screen's width.
#pragma once
#include <imgui.h>

namespace ap {

void tooltip(const char* fmt, ...) IM_FMTARGS(1);

}  // namespace ap
