// Typing a value into one cell of Q, K or V. The text is parsed here; a value that is not a finite
// number is refused with a message and the matrices stay as they were.
#include <imgui.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "app/i18n.h"
#include "ui/ui_state.h"

namespace ap {

namespace {
// Parses the whole string as a finite number ("1.5", "-2e-3", " 4 "); false for "abc", "NaN", "1x", "".
bool parse_number(const char* s, float* out) {
  char* end = nullptr;
  const double v = std::strtod(s, &end);
  if (end == s) return false;
  while (*end == ' ' || *end == '\t') ++end;
  if (*end != '\0' || !std::isfinite(v)) return false;
  *out = static_cast<float>(v);
  return true;
}
// "Q[1][2]" (1-based, as drawn; K is drawn as Kᵀ).
std::string cell_name(const UiState& ui) {
  const char* name = ui.edit_id == MatrixId::Q ? "Q" : ui.edit_id == MatrixId::K ? "Kᵀ" : "V";
  return std::string(name) + "[" + std::to_string(ui.edit_i + 1) + "][" + std::to_string(ui.edit_j + 1) + "]";
}

// Parses `text` and, if it is a finite number, puts it into the cell being edited (Q, K, V become
// hand-set). Reports and returns false otherwise; the model stays as it was.
bool set_cell(PlaygroundState& st, const UiState& ui, const char* text) {
  float v;
  if (!parse_number(text, &v)) {
    report(st, "cell", std::string(tr("Not a number:")) + " “" + text + "” (" + cell_name(ui) + ")");
    return false;
  }
  SdpaParams p = as_custom(st.model);
  if (ui.edit_id == MatrixId::Q) p.Q(ui.edit_i, ui.edit_j) = v;
  else if (ui.edit_id == MatrixId::K) p.K(ui.edit_j, ui.edit_i) = v;
  else p.V(ui.edit_i, ui.edit_j) = v;
  return static_cast<bool>(apply(st, p, "cell"));
}

}  // namespace

void begin_cell_edit(PlaygroundState& st, UiState& ui, MatrixId id, int i, int j) {
  const SdpaModel& m = st.model;
  float v = 0;
  if (id == MatrixId::Q) v = m.Q(i, j);
  else if (id == MatrixId::K) v = m.K(j, i);  // drawn as Kᵀ
  else if (id == MatrixId::V) v = m.V(i, j);
  else return;
  ui.edit_id = id;
  ui.edit_i = i;
  ui.edit_j = j;
  std::snprintf(ui.edit_buf, sizeof ui.edit_buf, "%g", v);
  if (platform_is_touch()) {  // no on-screen keyboard for the canvas: the browser's prompt asks instead
    std::string typed;
    if (platform_prompt(cell_name(ui).c_str(), ui.edit_buf, &typed)) set_cell(st, ui, typed.c_str());
    return;
  }
  ui.cell_popup = true;
  ImGui::OpenPopup("edit_cell");
}

void cell_editor(PlaygroundState& st, UiState& ui) {
  if (!ImGui::BeginPopup("edit_cell")) {
    ui.cell_popup = false;
    return;
  }
  ImGui::TextUnformatted(cell_name(ui).c_str());
  if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8.f);
  const bool enter = ImGui::InputText("##value", ui.edit_buf, sizeof ui.edit_buf, ImGuiInputTextFlags_EnterReturnsTrue |
                                                                                 ImGuiInputTextFlags_AutoSelectAll);
  ImGui::SameLine();
  const bool ok = ImGui::Button(tr("Set")) || enter;
  ImGui::SameLine();
  // One Escape cancels (the text field would otherwise take the first one for itself).
  if (ImGui::Button(tr("Cancel")) || key_pressed(Key::Escape)) {
    ImGui::CloseCurrentPopup();
    ui.cell_popup = false;
    ImGui::EndPopup();
    return;
  }
  ImGui::TextDisabled("%s", tr("Enter sets the value; Q, K and V become hand-edited."));
  if (ok && set_cell(st, ui, ui.edit_buf)) {
    ImGui::CloseCurrentPopup();
    ui.cell_popup = false;
  }
  ImGui::EndPopup();
}

}  // namespace ap
