// Text shortened to a width: the one "…" helper of the widgets and views (labels of matrices, plots, bars);
// and text turned upwards (column labels, a plot's y axis).
#pragma once
#include <imgui.h>

#include <string>
#include <vector>

namespace ap {

// `s` cut at whole characters, with "…", so that it is at most `w` pixels wide in `font` (nullptr: the
// current font at the current size). Where not even "…" fits: "…" itself, or "" when `empty_if_none`.
std::string fit_text(const std::string& s, float w, ImFont* font = nullptr, bool empty_if_none = false);

// `s` broken into lines (at spaces where it can, inside a word only when one word is wider than `w`) so that no
// line is wider than `w` pixels in the current font: a button's label on a phone.
// Numbers stay whole ("2.303" is not broken after its '.').
std::string wrap_text(const std::string& s, float w);

// Dear ImGui's TextWrapped (printf-style, wrapped at the pushed wrap position or the window's edge), broken by
// wrap_text: a number never ends one line and goes on in the next ("2." / "303").
void text_wrapped(const char* fmt, ...) IM_FMTARGS(1);

// SameLine(0, spacing) when an item `width` wide still fits in the window after the last item (spacing < 0: the
// style's); else the next item starts a line of its own. Returns whether it stays on the line.
bool same_line_if_fits(float width, float spacing = -1.f);

// Items cut at the right by their window (a button wider than a phone): call after the item; the frame's
// list (id and how many pixels of it were hidden) is what getState().view.cut reports. Cleared each frame.
struct CutItem {
  std::string id;
  float hidden_px = 0;
};
void note_if_cut(const char* id);
void cut_items_begin_frame();
const std::vector<CutItem>& cut_items();

// Width of `s` in `font` as drawn (nullptr: the current font at the current size).
float text_width(const std::string& s, ImFont* font = nullptr);

// `s` turned 90° counter-clockwise (read bottom to top) at `px` pixels in `font` (nullptr: the current font):
// its line box's left edge at x = left, its first character's start at y = bottom. ImDrawList has no rotated
// text, so the glyph quads are written directly (nothing is clipped by where the unturned line would lie).
void text_up(ImDrawList* dl, ImFont* font, float px, float left, float bottom, ImU32 col, const std::string& s);

}  // namespace ap
