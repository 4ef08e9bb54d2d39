// Tables whose headers wrap inside their columns: on a phone, "parameters" in a narrow column is two lines
// where ImGui::TableHeadersRow cut it to "paramet…", and no column is narrower than the longest word of its
// header (a word is never broken: "numbe" / "rs").
#pragma once
#include <vector>

namespace ap {

struct TableColumn {
  const char* name;    // the header, already translated
  float weight = 1.f;  // share of the table's width
};

// Call right after BeginTable, instead of TableSetupColumn for each column. `table_w`: the table's width (the
// content region's width before BeginTable). Columns stretch by weight; one whose share would be narrower than
// the longest word of its name is fixed at that word's width, and the others share the rest.
void table_setup_columns(const std::vector<TableColumn>& cols, float table_w);

// Call after the columns are set up, where TableHeadersRow would be; the labels are the columns' names. The row
// has the header background; it does not sort or resize (no table here does).
void table_headers_wrapped();

}  // namespace ap
