// Text shortened to a width: the one "…" helper of the widgets and views (labels of matrices, plots, bars).
#pragma once
#include <imgui.h>

#include <string>

namespace ap {

// `s` cut at whole characters, with "…", so that it is at most `w` pixels wide in `font` (nullptr: the
// current font at the current size). Where not even "…" fits: "…" itself, or "" when `empty_if_none`.
std::string fit_text(const std::string& s, float w, ImFont* font = nullptr, bool empty_if_none = false);

// Width of `s` in `font` as drawn (nullptr: the current font at the current size).
float text_width(const std::string& s, ImFont* font = nullptr);

}  // namespace ap
