// Text shortened to a width: the one "…" helper of the widgets and views (labels of matrices, plots, bars);
// and text turned upwards (column labels, a plot's y axis).
#pragma once
#include <imgui.h>

#include <string>

namespace ap {

// `s` cut at whole characters, with "…", so that it is at most `w` pixels wide in `font` (nullptr: the
// current font at the current size). Where not even "…" fits: "…" itself, or "" when `empty_if_none`.
std::string fit_text(const std::string& s, float w, ImFont* font = nullptr, bool empty_if_none = false);

// Width of `s` in `font` as drawn (nullptr: the current font at the current size).
float text_width(const std::string& s, ImFont* font = nullptr);

// `s` turned 90° counter-clockwise (read bottom to top) at `px` pixels in `font` (nullptr: the current font):
// its line box's left edge at x = left, its first character's start at y = bottom. ImDrawList has no rotated
// text, so the glyph quads are written directly (nothing is clipped by where the unturned line would lie).
void text_up(ImDrawList* dl, ImFont* font, float px, float left, float bottom, ImU32 col, const std::string& s);

}  // namespace ap
