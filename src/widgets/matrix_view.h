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
  // A row / column whose label is drawn even when only every k-th label fits (the others then keep clear of
  // it); -1: the highlighted one. For a view that marks a row itself (its own outline) without hl_row.
  int keep_row = -1, keep_col = -1;
  int decimals = 2;
  bool force_heatmap = false;
  bool square = true;          // heatmap cells square (false: fill the given width and height exactly)
  // The largest cell of the automatic layout; 0: 3.625 × 1.625 text heights (58 × 26 px at the default 16 px
  // text), so that cells, and the numbers in them, grow with the text size (a projector at 2× text).
  float max_cell_w = 0.f, max_cell_h = 0.f;
  // Fixed geometry (a layout that sizes several matrices alike sets these; 0 / -1: the automatic layout
  // above). cell_w × cell_h in pixels; numbers: 1 numbered cells, 0 heatmap, -1 numbered if they fit.
  float cell_w = 0.f, cell_h = 0.f;
  int numbers = -1;
  float label_w = -1.f;        // width kept for the row labels (-1: as wide as the longest, capped)
  ImFont* font = nullptr;      // numbers and token labels (nullptr: the current font)
  float header_max = 0.f;      // fixed geometry: the column labels' height at most (0: no limit)
};

struct MatrixViewResult {
  int hover_i = -1, hover_j = -1;
  int clicked_i = -1, clicked_j = -1;
  bool numbered = false;
  ImVec2 grid_min, grid_max;   // the cells' rectangle (screen coordinates)
  float cell_w = 0, cell_h = 0;
  int rows = 0, cols = 0;
  int row_labels = 0, col_labels = 0;  // how many token labels were drawn on each side
  bool clipped = false;        // part of the cells lies outside the window's visible area (scrolled or cut)
};

// What the matrix views drew in this frame, in drawing order (the page API reports it: a test can ask
// whether every number and label is on screen instead of reading pixels). Cleared by matrix_views_begin_frame.
struct DrawnMatrix {
  std::string id;              // the title's first part, before two spaces ("attention weights A  11×11" → "attention weights A")
  MatrixViewResult r;
  float lo = 0, hi = 0;        // the colour scale's range
};
void matrix_views_begin_frame();
const std::vector<DrawnMatrix>& matrix_views_drawn();
// A grid that a view draws itself (the Luong view's score grids) enters the same report: `r` says what it
// drew (its clipped flag is set here from the current clip rectangle).
void matrix_view_record(const std::string& title, MatrixViewResult r, float lo, float hi);

// The size the view would take inside `avail` (for layout), and drawing at the cursor.
ImVec2 matrix_view_size(const MatrixView& v, ImVec2 avail);
MatrixViewResult matrix_view(const MatrixView& v, ImVec2 avail);

// The smallest numbered cell for `font` (nullptr: current) at `decimals`: "−0.00" plus a margin.
ImVec2 matrix_number_cell(ImFont* font, int decimals = 2);
// Height of the column labels above cells `cell_w` wide: one line when every label fits across the cell,
// else written upwards (as long as the longest, at most 4.2 text heights and `max_h` if > 0).
float matrix_header_height(const std::vector<std::string>* labels, int count, float cell_w, ImFont* font,
                           float max_h = 0.f);
// The height in which `v`, as a heatmap, labels every one of its rows (cells as high as its labels' text), in
// `width`: a caller whose area is shorter (a projector's 2× text) can grow it and let its panel scroll, instead of
// every k-th label. Square cells need the width for that too: a caller that grows the height sets square = false.
float matrix_view_labelled_height(const MatrixView& v, float width);
// Width of the row labels (the longest, capped at 6 text heights), 0 without labels.
float matrix_label_width(const std::vector<std::string>* labels, int count, ImFont* font);

// Number as shown in a cell: 2 decimals below 10, 1 below 100, none above; −∞ for -inf.
std::string cell_number(float v, int decimals);

// A colour bar with its value scale: lo, middle and hi labelled.
void color_legend(ColorScale s, float lo, float hi, float width, const char* caption);

}  // namespace ap
