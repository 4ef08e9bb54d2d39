#include "math_text.h"

#include <cstdint>
#include <cstring>
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "core/utf8.h"

namespace ap {

namespace {

enum class Shift { None, Up, Down };

struct Piece {
  std::string text;
  Shift shift;
};

// Maps a super/subscript code point to its base character; returns 0 if `cp` is not one.
char base_of(uint32_t cp, Shift* s) {
  *s = Shift::Down;
  if (cp >= 0x2080 && cp <= 0x2089) return static_cast<char>('0' + (cp - 0x2080));
  switch (cp) {
    case 0x1D62: return 'i';
    case 0x2C7C: return 'j';
    case 0x2096: return 'k';
    case 0x209C: return 't';
    case 0x2099: return 'n';
    case 0x2098: return 'm';
    case 0x2090: return 'a';
    case 0x2095: return 'h';
    case 0x208B: return '-';
  }
  *s = Shift::Up;
  if (cp == 0x1D40) return 'T';
  if (cp == 0x2070) return '0';
  if (cp == 0xB9) return '1';
  if (cp == 0xB2) return '2';
  if (cp == 0xB3) return '3';
  if (cp >= 0x2074 && cp <= 0x2079) return static_cast<char>('4' + (cp - 0x2074));
  return 0;
}

std::vector<Piece> split(const char* text) {
  std::vector<Piece> out;
  const auto push = [&](const std::string& t, Shift s) {
    if (!out.empty() && out.back().shift == s) out.back().text += t;
    else out.push_back({t, s});
  };
  const size_t n = std::strlen(text);
  for (size_t i = 0; i < n;) {
    uint32_t cp = 0;
    int len = utf8_decode(text, n, i, &cp);
    if (len == 0) { cp = 0xFFFD; len = 1; }  // an invalid byte: skip it, never read past the end
    // "e^(−∞)" raises the group, "Σ_(b,r)" lowers it, without its brackets
    if ((text[i] == '^' || text[i] == '_') && i + 1 < n && text[i + 1] == '(') {
      size_t close = i + 2;
      for (int depth = 1; close < n; ++close) {
        if (text[close] == '(') ++depth;
        if (text[close] == ')' && --depth == 0) break;
      }
      if (close < n) {
        push(std::string(text + i + 2, close - i - 2), text[i] == '^' ? Shift::Up : Shift::Down);
        i = close + 1;
        continue;
      }
    }
    if (text[i] == '^' && i + 1 < n && text[i + 1] != ' ') {  // "^Q": raise the next character
      const int l2 = std::min<int>(utf8_lead_length(static_cast<unsigned char>(text[i + 1])), static_cast<int>(n - i - 1));
      push(std::string(text + i + 1, l2), Shift::Up);
      i += 1 + l2;
      continue;
    }
    Shift s;
    const char b = base_of(cp, &s);
    if (b) push(std::string(1, b), s);
    else push(std::string(text + i, len), Shift::None);
    i += len;
  }
  return out;
}

constexpr float kSmall = 0.7f;

}  // namespace

float math_text_width(const char* text, float size) {
  ImFont* f = ImGui::GetFont();
  float w = 0;
  for (const Piece& p : split(text)) {
    const float sz = p.shift == Shift::None ? size : size * kSmall;
    w += f->CalcTextSizeA(sz, 1e9f, 0.f, p.text.c_str()).x;
  }
  return w;
}

float draw_math_text(ImDrawList* dl, ImVec2 pos, ImU32 col, const char* text, float size) {
  ImFont* f = ImGui::GetFont();
  float x = pos.x;
  for (const Piece& p : split(text)) {
    const float sz = p.shift == Shift::None ? size : size * kSmall;
    const float dy = p.shift == Shift::Up ? -size * 0.12f : p.shift == Shift::Down ? size * 0.42f : 0.f;
    dl->AddText(f, sz, ImVec2(x, pos.y + dy), col, p.text.c_str());
    x += f->CalcTextSizeA(sz, 1e9f, 0.f, p.text.c_str()).x;
  }
  return x - pos.x;
}

void math_text(const char* text) {
  const float size = ImGui::GetFontSize();
  const ImVec2 pos = ImGui::GetCursorScreenPos();
  const float w = draw_math_text(ImGui::GetWindowDrawList(), pos, ImGui::GetColorU32(ImGuiCol_Text), text, size);
  ImGui::Dummy(ImVec2(w, size * 1.25f));
}


namespace {
// Text wrapped at spaces only (never inside a number such as "1.59"), drawn with the math-text widget so
// that subscripts and superscripts (dₖ, Kᵀ, Σⱼ A₁₁ⱼ) read as such in the body text too.
// Pieces to wrap between: words (with the space after them), and each Chinese character on its own (Chinese
// has no spaces; a line may break after any character, never inside a number).
std::vector<std::pair<std::string, bool>> pieces(const std::string& text) {
  std::vector<std::pair<std::string, bool>> out;
  std::string word;
  for (size_t i = 0; i < text.size();) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    const size_t len = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    const std::string ch = text.substr(i, len);
    i += len;
    if (ch == " ") {
      out.push_back({word, true});  // an empty piece for each further space: "a   b" keeps its gap
      word.clear();
    } else if (len >= 3 && c >= 0xE3) {  // U+3000 and above: CJK characters and punctuation
      if (!word.empty()) out.push_back({word, false});
      word.clear();
      out.push_back({ch, false});
    } else {
      word += ch;
    }
  }
  if (!word.empty()) out.push_back({word, false});
  return out;
}

}  // namespace

// `last_h`: the height of the last line, in text heights (a formula keeps room for its sub- and superscripts).
void math_text_wrapped(const std::string& text, ImU32 col, float last_h) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float fs = ImGui::GetFontSize(), line_h = ImGui::GetTextLineHeightWithSpacing();
  const ImVec2 o = ImGui::GetCursorScreenPos();
  const float width = std::max(fs * 8.f, ImGui::GetContentRegionAvail().x);
  const float space = math_text_width(" ", fs);
  float x = 0, y = 0;
  for (const auto& [word, spaced] : pieces(text)) {
    // A piece wider than the whole line (a formula without spaces on a phone) is drawn smaller, not cut.
    const float whole = math_text_width(word.c_str(), fs), size = whole > width ? fs * std::max(0.55f, width / whole) : fs;
    const float w = size < fs ? math_text_width(word.c_str(), size) : whole;
    if (x > 0 && x + w > width) { x = 0; y += line_h; }
    draw_math_text(dl, ImVec2(o.x + x, o.y + y), col, word.c_str(), size);
    x += w + (spaced ? space : 0.f);
  }
  ImGui::Dummy(ImVec2(width, y + fs * last_h));
}

}  // namespace ap
