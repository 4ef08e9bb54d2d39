#include "widgets/table_headers.h"

#include <imgui.h>

#include <algorithm>
#include <string>
#include <vector>

#include "widgets/text_fit.h"

namespace ap {

namespace {
// The widest word of `s` (split at spaces) in the current font.
float widest_word(const char* s) {
  float w = 0;
  std::string word;
  for (const char* p = s;; ++p) {
    if (*p == ' ' || *p == '\0') {
      if (!word.empty()) w = std::max(w, text_width(word));
      word.clear();
      if (*p == '\0') break;
    } else {
      word += *p;
    }
  }
  return w;
}
}  // namespace

void table_setup_columns(const std::vector<TableColumn>& cols, float table_w) {
  const size_t n = cols.size();
  const float pad = ImGui::GetStyle().CellPadding.x * 2.f + 1.f;  // a cell's padding and its border
  std::vector<float> min_w(n);
  for (size_t k = 0; k < n; ++k) min_w[k] = widest_word(cols[k].name) + pad;
  // Fix the columns whose share is below their longest word, until the shares of the rest are all wide enough.
  std::vector<bool> fixed(n, false);
  for (bool changed = true; changed;) {
    changed = false;
    float rest = table_w, weights = 0;
    for (size_t k = 0; k < n; ++k) {
      if (fixed[k]) rest -= min_w[k];
      else weights += std::max(cols[k].weight, 1e-3f);
    }
    for (size_t k = 0; k < n && weights > 0; ++k)
      if (!fixed[k] && rest * std::max(cols[k].weight, 1e-3f) / weights < min_w[k]) fixed[k] = changed = true;
  }
  for (size_t k = 0; k < n; ++k) {
    if (fixed[k]) ImGui::TableSetupColumn(cols[k].name, ImGuiTableColumnFlags_WidthFixed, min_w[k] - pad);
    else ImGui::TableSetupColumn(cols[k].name, ImGuiTableColumnFlags_WidthStretch, std::max(cols[k].weight, 1e-3f));
  }
}

void table_headers_wrapped() {
  const int columns = ImGui::TableGetColumnCount();
  ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
  for (int k = 0; k < columns; ++k) {
    ImGui::TableSetColumnIndex(k);
    const char* name = ImGui::TableGetColumnName(k);
    if (name && *name) text_wrapped("%s", name);
  }
}

}  // namespace ap
