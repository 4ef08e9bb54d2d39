// A 2-D plot drawn with ImDrawList: axes (linear or log10), grid, ticks and labels, line / point / bar series,
// marker lines, a legend, and on hover a crosshair with a read-out of each series' nearest point.
// It draws and reports what the mouse is over; the numbers behind it live in widgets/plot_scale.h.
#pragma once
#include <imgui.h>

#include <limits>
#include <string>
#include <vector>

#include "widgets/plot_scale.h"

namespace ap {

struct PlotSeries {
  std::string name;          // legend and read-out; empty: left out of the legend
  std::vector<double> x, y;  // points (x[i], y[i]); bars: x holds y.size() + 1 bin edges
  ImU32 color = 0;           // 0: plot_palette(index of the series)
  bool line = true;          // a polyline through the points (broken at NaN / non-positive on log axes)
  bool points = false;       // a dot on each point
  bool bars = false;         // a histogram: bar i spans [x[i], x[i+1]] from the baseline (0, or the
                             // bottom of a log axis) to y[i]
  bool dashed = false;
  float thickness = 1.5f;    // line width in pixels
  float point_radius = 0.f;  // 0: from the font size
};

// A labelled vertical (x_markers) or horizontal (y_markers) line across the plot, e.g. "d = 64".
struct PlotMarker {
  double value = 0;
  std::string label;  // drawn next to the line, inside the plot; may be empty
  ImU32 color = 0;    // 0: the style's disabled-text colour
  bool dashed = true;
};

// Inside the axes the legend shows every named series or, when they do not fit, nothing (the hover read-out
// still names them). Outside (right of the axes, when it takes at most 35% of the width; else top right)
// it shows the entries that fit and "+k" for the rest.
enum class PlotLegend { None, TopLeft, TopRight, BottomLeft, BottomRight, Outside };

struct PlotSpec {
  std::string title, x_label, y_label;  // y_label is drawn rotated; long texts end in "…"
  std::vector<PlotSeries> series;
  bool x_log = false, y_log = false;  // log10 axes; values <= 0 are not drawn on them
  // Fixed axis ends; NaN: from the data (and the markers), with 5% padding. Each end on its own.
  double x_min = std::numeric_limits<double>::quiet_NaN(), x_max = std::numeric_limits<double>::quiet_NaN();
  double y_min = std::numeric_limits<double>::quiet_NaN(), y_max = std::numeric_limits<double>::quiet_NaN();
  std::vector<PlotMarker> x_markers;  // vertical lines at x = value
  std::vector<PlotMarker> y_markers;  // horizontal lines at y = value
  PlotLegend legend = PlotLegend::TopRight;
  bool grid = true;
  bool hover_readout = true;  // crosshair and tooltip while the mouse is over the axes
  std::string empty_text;     // shown in the middle when no series has a drawable point
};

struct PlotResult {
  bool hovered = false;  // the mouse is over the axes' rectangle (and nothing covers it)
  bool clicked = false;  // left click inside the axes' rectangle
  int series = -1;       // series under the mouse (nearest point within a few pixels, or the bar)
  int point = -1;        //   and its point index (bars: bin index); -1: none
  double x = std::numeric_limits<double>::quiet_NaN();  // mouse position in data coordinates when hovered
  double y = std::numeric_limits<double>::quiet_NaN();
  ImVec2 plot_min, plot_max;  // the axes' rectangle on screen
};

// Draws the plot at the cursor in a box of `size` (x or y <= 0: the available width / height plus that
// value, like ImGui items; y == 0: 14 lines of text) and advances the cursor past it. Nothing is drawn outside
// the box (the tooltip is a window of its own). `id` scopes the ImGui ID (PushID(id)).
PlotResult plot(const char* id, const PlotSpec& spec, ImVec2 size);

// The plots drawn in the last frames, with their place on screen (Export: one plot as SVG or PNG is the
// view cut to this rectangle). Entries older than the previous frame are dropped.
struct PlotDrawn {
  std::string title;
  ImVec2 p0, p1;
  int frame = 0;  // ImGui::GetFrameCount() when drawn
};
std::vector<PlotDrawn> plots_drawn();

// The i-th default series colour (10 distinct colours, repeating).
ImU32 plot_palette(int i);

// The spec's series as plot_scale views (they point into `spec`), and as CSV (see series_csv).
std::vector<SeriesView> plot_series_views(const PlotSpec& spec);
std::string plot_csv(const PlotSpec& spec);

}  // namespace ap
