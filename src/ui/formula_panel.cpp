// The formula of the current stage, in real math glyphs, with one line on the idea (from the lecture
// notes) and the arithmetic of the step being animated. The words come from the scene's stage table and
// its view.
#include <imgui.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "app/i18n.h"
#include "ui/ui_state.h"
#include "widgets/math_text.h"

namespace ap {

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

// `last_h`: the height of the last line, in text heights (a formula keeps room for its sub- and superscripts).
void math_text_wrapped(const std::string& text, ImU32 col, float last_h = 1.f) {
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
}  // namespace

void formula_panel(UiState& ui, ViewContext& ctx) {
  SceneView& view = ui.view(ctx.st);
  const auto [formula, idea] = view.caption(ctx);
  ImGui::PushFont(ui.fonts.formula);  // wrapped at its spaces where the line is too narrow (a phone)
  math_text_wrapped(formula ? formula : "", ImGui::GetColorU32(ImGuiCol_Text), 1.25f);  // as math_text
  ImGui::PopFont();
  math_text_wrapped(idea ? idea : "", ImGui::GetColorU32(ImGuiCol_TextDisabled));
  const std::string step = view.step_text(ctx);
  if (!step.empty()) {
    // One line in the flow of the page; the full text is in the hover panel.
    const size_t nl = step.find('\n');
    const std::string line = nl == std::string::npos ? step : step.substr(0, nl) + "   " + step.substr(nl + 1);
    math_text_wrapped(line, ImGui::GetColorU32(ImVec4(0.55f, 0.30f, 0.0f, 1.f)));
  } else {
    ImGui::NewLine();
  }
}

}  // namespace ap
