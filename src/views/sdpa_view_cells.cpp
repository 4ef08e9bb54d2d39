// SdpaView, part 3 of 3: the cell editor (a click on a cell of Q, Kᵀ or V, a number typed, the model
// recomputed with the hand-set matrices). The rest of the view: sdpa_view.cpp and sdpa_view_layout.cpp.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "app/scenes/sdpa_scene.h"
#include "platform/platform.h"
#include "platform/text_field.h"
#include "views/sdpa_view.h"

namespace ap {

namespace {

// Parses the whole string as a finite number ("1.5", "-2e-3", " 4 "); false for "abc", "NaN", "1x", "",
// and for values past the core's limit, checked before the conversion to float.
bool parse_number(const char* s, float* out) {
  char* end = nullptr;
  const double v = std::strtod(s, &end);
  if (end == s) return false;
  while (*end == ' ' || *end == '\t') ++end;
  if (*end != '\0' || !std::isfinite(v) || std::fabs(v) > limits::kMaxAbsValue) return false;
  *out = static_cast<float>(v);
  return true;
}

}  // namespace

// ---- cell editor -------------------------------------------------------------------------------------------

std::string SdpaView::cell_name() const {
  const char* name = edit_id_ == MatrixId::Q ? "Q" : edit_id_ == MatrixId::K ? "Kᵀ" : "V";
  return std::string(name) + "[" + std::to_string(edit_i_ + 1) + "][" + std::to_string(edit_j_ + 1) + "]";
}

// Parses `text` and, if it is a finite number, puts it into the cell being edited (Q, K, V become hand-set).
// Reports and returns false otherwise; the model stays as it was. The cell is checked against the model of
// the moment, whatever happened since the editor opened.
bool SdpaView::set_cell(PlaygroundState& st, const char* text) {
  float v;
  if (!parse_number(text, &v)) {
    LocalText t;
    t.tmpl = N_("Not a number: “{0}” ({1})");
    t.args = {text, cell_name()};
    report(st, "cell", t);
    return false;
  }
  SdpaParams p = as_custom(scene_.model());
  const auto inside = [](const Mat& m, int r, int c) { return r >= 0 && c >= 0 && r < m.rows() && c < m.cols(); };
  if (edit_id_ == MatrixId::Q && inside(p.Q, edit_i_, edit_j_)) p.Q(edit_i_, edit_j_) = v;
  else if (edit_id_ == MatrixId::K && inside(p.K, edit_j_, edit_i_)) p.K(edit_j_, edit_i_) = v;
  else if (edit_id_ == MatrixId::V && inside(p.V, edit_i_, edit_j_)) p.V(edit_i_, edit_j_) = v;
  else return false;  // the matrix changed size: nothing to write into
  return static_cast<bool>(report_result(st, "cell", scene_.apply(p)));
}

void SdpaView::begin_cell_edit(PlaygroundState& st, MatrixId id, int i, int j) {
  const SdpaModel& m = scene_.model();
  float v = 0;
  if (id == MatrixId::Q) v = m.Q(i, j);
  else if (id == MatrixId::K) v = m.K(j, i);  // drawn as Kᵀ
  else if (id == MatrixId::V) v = m.V(i, j);
  else return;
  edit_id_ = id;
  edit_i_ = i;
  edit_j_ = j;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  edit_text_ = buf;
  (void)st;
  cell_popup_ = true;
  ImGui::OpenPopup("edit_cell");
}

void SdpaView::cell_editor(ViewContext& ctx) {
  if (!ImGui::BeginPopup("edit_cell")) {
    cell_popup_ = false;
    close_popup_ = false;
    return;
  }
  if (close_popup_) {  // the model it was editing has been replaced
    close_popup_ = false;
    ImGui::CloseCurrentPopup();
    ImGui::EndPopup();
    return;
  }
  ImGui::TextUnformatted(cell_name().c_str());
  // The value's field: in the browser a real HTML input lies over it (phones' keyboards, paste, screen
  // readers); it takes the keys as the popup appears, with the number selected. Enter sets, Escape cancels.
  if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8.f);
  bool enter = false, escape = false;
  const std::string name = cell_name();
  TextFieldOptions o;
  o.max_bytes = 63;
  o.accessible_name = name.c_str();
  o.select_all = true;
  o.submitted = &enter;
  o.cancelled = &escape;
  (void)text_field("##value", &edit_text_, o);
  ImGui::SameLine();
  const bool ok = ImGui::Button((std::string(tr("Set")) + "###set").c_str()) || enter;
  ImGui::SameLine();
  // One Escape cancels (the text field would otherwise take the first one for itself).
  if (ImGui::Button((std::string(tr("Cancel")) + "###cancel").c_str()) || escape || key_pressed(Key::Escape)) {
    ImGui::CloseCurrentPopup();
    cell_popup_ = false;
    ImGui::EndPopup();
    return;
  }
  ImGui::TextDisabled("%s", tr("Enter sets the value; Q, K and V become hand-edited."));
  if (ok && set_cell(ctx.st, edit_text_.c_str())) {
    ImGui::CloseCurrentPopup();
    cell_popup_ = false;
  }
  ImGui::EndPopup();
}

}  // namespace ap
