// A labelled matrix: numbered, coloured cells when they fit, otherwise one shader heatmap.
// It draws and reports the hovered / clicked cell; it never computes anything.
#pragma once
#include <imgui.h>

#include <string>
#include <vector>

#include "core/matrix.h"
#include "widgets/colormap.h"
#include "widgets/heatmap.h"

namespace ap {

struct MatrixView {
  const Mat* m = nullptr;
  HeatmapKey key;              // which texture holds it as a heatmap, and the data's version
  std::string title;           // above the matrix, e.g. "Q  (11 × 4)"
  const std::vector<std::string>* row_labels = nullptr;
  const std::vector<std::string>* col_labels = nullptr;
  ColorScale scale = ColorScale::Diverging;
  float lo = -1.f, hi = 1.f;
  double reveal = 1e18;        // cells shown, row-major; later ones are "not computed yet"
  int hl_row = -1, hl_col = -1;  // highlighted row / column (-1: none)
  int decimals = 2;
  bool force_heatmap = false;
  bool square = true;          // heatmap cells square (false: fill the given width and height exactly)
  float max_cell_w = 58.f, max_cell_h = 26.f;
};

struct MatrixViewResult {
  int hover_i = -1, hover_j = -1;
  int clicked_i = -1, clicked_j = -1;
  bool numbered = false;
  ImVec2 grid_min, grid_max;   // the cells' rectangle (screen coordinates)
  float cell_w = 0, cell_h = 0;
};

// The size the view would take inside `avail` (for layout), and drawing at the cursor.
ImVec2 matrix_view_size(const MatrixView& v, ImVec2 avail);
MatrixViewResult matrix_view(const MatrixView& v, ImVec2 avail);

// Number as shown in a cell: 2 decimals below 10, 1 below 100, none above; −∞ for -inf.
std::string cell_number(float v, int decimals);

// A colour bar with its value scale: lo, middle and hi labelled.
void color_legend(ColorScale s, float lo, float hi, float width, const char* caption);

}  // namespace ap
