// Text with legible superscripts and subscripts. The strings keep the real Unicode glyphs (QKᵀ, √dₖ,
// q₁·k₂, W^Q), but the font's modifier letters are tiny, so each super/subscript character is drawn as
// its base letter at 70% size, raised or lowered. "^X" also raises the next character, "^(…)" the group, and
// "_(…)" lowers the group ("_x" alone stays as written: d_model, W_a are names).
#pragma once
#include <imgui.h>

#include <string>

namespace ap {

// Width of `text` as math_text would draw it at `size` pixels.
float math_text_width(const char* text, float size);
// Draws at `pos` (top-left) into `dl`; returns the width drawn.
float draw_math_text(ImDrawList* dl, ImVec2 pos, ImU32 col, const char* text, float size);
// As a widget at the cursor, with the current font and size.
void math_text(const char* text);
// As a widget, wrapped to the available width at spaces only (never inside a number such as "1.59"; Chinese
// after any character); a piece wider than the whole line is drawn smaller, not cut. `last_h`: the height of
// the last line in text heights (a formula keeps room for its sub- and superscripts).
void math_text_wrapped(const std::string& text, ImU32 col, float last_h = 1.f);

}  // namespace ap
