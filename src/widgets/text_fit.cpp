#include "text_fit.h"

#include "core/utf8.h"

namespace ap {

float text_width(const std::string& s, ImFont* font) {
  if (!font) return ImGui::CalcTextSize(s.c_str()).x;
  return font->CalcTextSizeA(font->FontSize * font->Scale * ImGui::GetIO().FontGlobalScale, 1e9f, 0.f, s.c_str()).x;
}

std::string fit_text(const std::string& s, float w, ImFont* font, bool empty_if_none) {
  if (text_width(s, font) <= w) return s;
  if (empty_if_none && text_width("…", font) > w) return std::string();
  std::string t = s;
  while (!t.empty() && text_width(t + "…", font) > w) t = utf8_prefix(t, t.size() - 1);  // one character less
  return t + "…";
}

}  // namespace ap
