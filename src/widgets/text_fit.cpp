#include "text_fit.h"

#include <imgui_internal.h>  // the window's text wrap position (TextWrapped's own rule)

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>

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

std::string wrap_text(const std::string& s, float w) {
  ImFont* font = ImGui::GetFont();
  const float size = ImGui::GetFontSize();
  // Numbers stay whole: Dear ImGui may break after any '.' or ','. Between two digits ("2.303", "6,291,456")
  // the breaks are found on a copy where they read '0' (a digit, at least as wide) and the text is cut there.
  std::string probe = s;
  const auto digit = [](char c) { return c >= '0' && c <= '9'; };
  for (size_t i = 1; i + 1 < probe.size(); ++i)
    if ((s[i] == '.' || s[i] == ',') && digit(s[i - 1]) && digit(s[i + 1])) probe[i] = '0';
  std::string out;
  const char* base = probe.c_str();
  const char* p = base;
  const char* end = p + probe.size();
  while (p < end) {
    const char* cut = font->CalcWordWrapPositionA(size / font->FontSize, p, end, std::max(w, 1.f));
    if (cut <= p) cut = std::min(end, p + utf8_lead_length(static_cast<unsigned char>(*p)));  // at least one character
    std::string line = s.substr(static_cast<size_t>(p - base), static_cast<size_t>(cut - p));
    while (!line.empty() && line.back() == ' ') line.pop_back();
    if (!out.empty()) out += '\n';
    out += line;
    p = cut;
    while (p < end && (*p == ' ' || *p == '\n')) ++p;
  }
  return out;
}

void text_wrapped(const char* fmt, ...) {
  va_list args, again;
  va_start(args, fmt);
  va_copy(again, args);
  const int n = std::vsnprintf(nullptr, 0, fmt, args);
  va_end(args);
  std::string text(static_cast<size_t>(std::max(0, n)), '\0');
  if (n > 0) std::vsnprintf(text.data(), text.size() + 1, fmt, again);
  va_end(again);
  // The width TextWrapped would wrap at: the wrap position pushed, else the window's edge.
  ImGuiWindow* window = ImGui::GetCurrentWindow();
  const float wrap_pos_x = window->DC.TextWrapPos < 0.f ? 0.f : window->DC.TextWrapPos;
  const std::string lines = wrap_text(text, ImGui::CalcWrapWidthForPos(window->DC.CursorPos, wrap_pos_x));
  ImGui::PushTextWrapPos(-1.f);  // broken already: no second wrapping
  ImGui::TextUnformatted(lines.c_str(), lines.c_str() + lines.size());
  ImGui::PopTextWrapPos();
}

bool same_line_if_fits(float width, float spacing) {
  const float gap = spacing < 0.f ? ImGui::GetStyle().ItemSpacing.x : spacing;
  const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  if (ImGui::GetItemRectMax().x + gap + width > right) return false;
  ImGui::SameLine(0.f, gap);
  return true;
}

namespace {
std::vector<CutItem> g_cut;
}  // namespace

void note_if_cut(const char* id) {
  const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;  // where the window cuts
  const float hidden = ImGui::GetItemRectMax().x - right;
  if (hidden > 0.5f) g_cut.push_back({id, hidden});
}
void cut_items_begin_frame() { g_cut.clear(); }
const std::vector<CutItem>& cut_items() { return g_cut; }

void text_up(ImDrawList* dl, ImFont* font, float px, float left, float bottom, ImU32 col, const std::string& s) {
  if (!font) font = ImGui::GetFont();
  if (s.empty() || !(px > 0) || !(font->FontSize > 0)) return;
  const float scale = px / font->FontSize;
  const float L = std::floor(left), B = std::floor(bottom);
  const auto at = [&](float u, float v) { return ImVec2(L + v, B - u); };  // u along the text, v down the line
  float pen = 0;
  for (size_t i = 0; i < s.size();) {
    uint32_t cp = 0xFFFD;
    const int n = utf8_decode(s, i, &cp);
    i += n > 0 ? static_cast<size_t>(n) : 1;  // a malformed byte is drawn as U+FFFD
    if (n == 0) cp = 0xFFFD;
    if (cp == '\n' || cp == '\r') continue;
    const ImFontGlyph* g = font->FindGlyph(static_cast<ImWchar>(cp <= 0xFFFF ? cp : 0xFFFD));
    if (!g) continue;
    if (g->Visible) {
      const float u0 = pen + g->X0 * scale, u1 = pen + g->X1 * scale, v0 = g->Y0 * scale, v1 = g->Y1 * scale;
      dl->PrimReserve(6, 4);
      dl->PrimQuadUV(at(u0, v0), at(u1, v0), at(u1, v1), at(u0, v1), ImVec2(g->U0, g->V0), ImVec2(g->U1, g->V0),
                     ImVec2(g->U1, g->V1), ImVec2(g->U0, g->V1), col);
    }
    pen += g->AdvanceX * scale;
  }
}

}  // namespace ap
