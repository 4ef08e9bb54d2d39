#include "matrix_view.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "core/number_text.h"
#include "core/utf8.h"
#include "widgets/colormap.h"
#include "widgets/heatmap.h"
#include "widgets/text_fit.h"
#include "widgets/math_text.h"

namespace ap {

namespace {

struct Layout {
  bool numbered;
  float label_w, header_h, title_h, cell_w, cell_h;
  bool row_labels, col_labels;
  bool vertical = false;               // column labels written upwards
  int row_stride = 1, col_stride = 1;  // every k-th label when the cells are smaller than the text
  ImVec2 total;
};

// Size in pixels of `f` as drawn (nullptr: the current font).
float font_px(ImFont* f) { return f ? f->FontSize * f->Scale * ImGui::GetIO().FontGlobalScale : ImGui::GetFontSize(); }

float longest(const std::vector<std::string>* labels, int count, ImFont* f) {
  float w = 0;
  if (labels)
    for (int i = 0; i < std::min<int>(count, static_cast<int>(labels->size())); ++i) w = std::max(w, text_width((*labels)[i], f));
  return w;
}

int stride_for(float cell, float text_h) {
  return std::max(1, static_cast<int>(std::ceil(text_h * 0.95f / std::max(cell, 0.01f))));
}

// A heatmap's row-label column: the longest label, at most 6 text heights (0 without labels).
float heatmap_label_w(const MatrixView& v, int rows) {
  return v.row_labels ? std::min(longest(v.row_labels, rows, v.font) + 8.f, font_px(v.font) * 6.f) : 0.f;
}

// A heatmap's cell width in `width` beside labels `label_w` wide: the share of each column, with a floor of about a
// third of a text line (or 4 lines for the whole matrix when it has many columns) and at most max_cell_w.
float heatmap_cell_w(const MatrixView& v, float width, float label_w) {
  const int cols = std::max(static_cast<int>(v.m->cols()), 1);
  const float fs = ImGui::GetFontSize();
  const float max_w = v.max_cell_w > 0.f ? v.max_cell_w : fs * 3.625f;
  const float floor_w = std::min(std::max(3.f, fs * 0.3f), fs * 4.f / static_cast<float>(cols));
  return std::min(std::max({0.05f, floor_w, (width - label_w) / cols}), max_w);
}

Layout compute(const MatrixView& v, ImVec2 avail) {
  Layout L{};
  const int rows = static_cast<int>(v.m->rows()), cols = static_cast<int>(v.m->cols());
  const float fs = ImGui::GetFontSize();
  L.title_h = v.title.empty() ? 0.f : fs + 4.f;
  if (v.cell_w > 0.f && v.cell_h > 0.f) {  // fixed geometry: the caller sized the cells
    ImFont* f = v.font;
    const float lfs = font_px(f);
    const ImVec2 nc = matrix_number_cell(f, v.decimals);
    L.cell_w = v.cell_w;
    L.cell_h = v.cell_h;
    L.numbered = v.numbers == 1 || (v.numbers == -1 && L.cell_w >= nc.x - 0.5f && L.cell_h >= nc.y - 0.5f);
    L.row_labels = v.row_labels != nullptr;
    L.label_w = L.row_labels ? (v.label_w >= 0.f ? v.label_w : matrix_label_width(v.row_labels, rows, f)) : 0.f;
    L.row_stride = stride_for(L.cell_h, lfs);
    L.header_h = v.col_labels ? matrix_header_height(v.col_labels, cols, L.cell_w, f, v.header_max) : 0.f;
    L.col_labels = L.header_h > 0.f;
    L.vertical = L.header_h > lfs + 4.5f;
    L.col_stride = L.vertical ? stride_for(L.cell_w, lfs) : 1;
    L.total = ImVec2(L.label_w + cols * L.cell_w, L.title_h + L.header_h + rows * L.cell_h);
    return L;
  }
  // The labels' font (v.font, else the current one) sizes the label column, the header and the label stride.
  const float lfs = font_px(v.font);
  const float lw = std::min(longest(v.row_labels, rows, v.font) + 8.f, lfs * 6.f);  // 96 px at 16 px text
  const float max_w = v.max_cell_w > 0.f ? v.max_cell_w : fs * 3.625f, max_h = v.max_cell_h > 0.f ? v.max_cell_h : fs * 1.625f;
  // Numbered cells if each can hold "−0.00" legibly; "0.00" where the scale has no negative values (weights:
  // an 800×480 embed drew 36-px cells of A as a heatmap).
  const std::string unsigned_widest = "0." + std::string(static_cast<size_t>(std::max(0, v.decimals)), '0');
  const float min_w = v.lo >= 0.f ? std::min(fs * 2.4f, text_width(unsigned_widest) + std::max(4.f, fs * 0.35f)) : fs * 2.4f;
  const float min_h = fs + 2.f;
  const float cw = std::min(max_w, (avail.x - lw) / cols);
  const float ch = std::min(max_h, (avail.y - L.title_h - (v.col_labels ? min_h : 0.f)) / rows);
  L.numbered = !v.force_heatmap && cw >= min_w && ch >= min_h;
  if (L.numbered) {
    L.row_labels = v.row_labels != nullptr;
    L.col_labels = v.col_labels != nullptr;
    L.label_w = L.row_labels ? lw : 0.f;
    L.header_h = L.col_labels ? min_h : 0.f;
    L.cell_w = cw;
    L.cell_h = std::max(min_h, std::min(ch, cw * 0.6f));
  } else {
    // Heatmap: square cells; the token labels stay (every k-th one when the cells are smaller than the text).
    L.row_labels = v.row_labels != nullptr;
    L.label_w = heatmap_label_w(v, rows);
    // When almost no room is left (2× text on a small screen: the title and turned labels take
    // the height), the cells keep a floor of about a third of a text line each, or of 4 lines for the whole
    // matrix when it has many rows (a 1024-token heatmap still fits its panel): the caller's panel scrolls,
    // and the matrix never shrinks to its labels alone.
    const float floor_h = std::min(std::max(3.f, fs * 0.3f), fs * 4.f / static_cast<float>(std::max(rows, 1)));
    const auto cells = [&](float header) {
      const float cx = heatmap_cell_w(v, avail.x, L.label_w);  // (at most max_w already)
      const float cy = std::max({0.05f, floor_h, (avail.y - L.title_h - header) / rows});
      if (v.square) {
        L.cell_w = L.cell_h = std::min({cx, cy, max_w});
      } else {
        L.cell_w = std::min(cx, max_w);
        L.cell_h = std::min(cy, max_h);
      }
    };
    cells(0.f);
    L.header_h = v.col_labels ? matrix_header_height(v.col_labels, cols, L.cell_w, v.font) : 0.f;
    if (L.header_h > 0.f) cells(L.header_h);
    L.col_labels = L.header_h > 0.f;
    L.vertical = L.header_h > lfs + 4.5f;
    L.row_stride = stride_for(L.cell_h, lfs);
    L.col_stride = L.vertical ? stride_for(L.cell_w, lfs) : 1;
  }
  L.total = ImVec2(L.label_w + cols * L.cell_w, L.title_h + L.header_h + rows * L.cell_h);
  return L;
}

}  // namespace

float matrix_view_labelled_height(const MatrixView& v, float width) {
  const int rows = static_cast<int>(v.m->rows()), cols = static_cast<int>(v.m->cols());
  const float lfs = font_px(v.font);
  // Square cells are as wide as they are high: lfs where the width allows it (else no height labels every row:
  // the caller sets square = false), the column labels above them written for that width.
  const float cell_w = heatmap_cell_w(v, width, heatmap_label_w(v, rows));
  const float header_w = v.square ? std::min(lfs, cell_w) : cell_w;
  const float title_h = v.title.empty() ? 0.f : ImGui::GetFontSize() + 4.f;
  const float header_h = v.col_labels ? matrix_header_height(v.col_labels, cols, header_w, v.font) : 0.f;
  return title_h + header_h + rows * lfs + 1.f;
}

std::string cell_number(float v, int decimals) {
  if (std::isinf(v)) return v < 0 ? "−∞" : "∞";
  const float a = std::fabs(v);
  return fmt(v, a >= 100.f ? 0 : a >= 10.f ? std::min(decimals, 1) : decimals);
}

ImVec2 matrix_view_size(const MatrixView& v, ImVec2 avail) { return compute(v, avail).total; }

ImVec2 matrix_number_cell(ImFont* font, int decimals) {
  const std::string widest = decimals <= 0 ? "−00" : "−0." + std::string(static_cast<size_t>(decimals), '0');
  const float fs = font_px(font);
  return ImVec2(text_width(widest, font) + std::max(4.f, fs * 0.35f), fs + std::max(3.f, fs * 0.25f));
}

float matrix_header_height(const std::vector<std::string>* labels, int count, float cell_w, ImFont* font, float max_h) {
  if (!labels || labels->empty() || count <= 0) return 0.f;
  const float fs = font_px(font), w = longest(labels, count, font);
  if (w <= cell_w - 4.f) return fs + 4.f;
  const float h = std::min(w, fs * 4.2f) + 6.f;
  return max_h > 0.f ? std::max(fs + 4.f, std::min(h, max_h)) : h;
}

float matrix_label_width(const std::vector<std::string>* labels, int count, ImFont* font) {
  if (!labels || labels->empty()) return 0.f;
  return std::min(longest(labels, count, font), font_px(font) * 6.f) + 8.f;
}

namespace {
std::vector<DrawnMatrix> g_drawn;  // this frame's matrices (matrix_views_drawn)
}  // namespace

void matrix_views_begin_frame() { g_drawn.clear(); }
const std::vector<DrawnMatrix>& matrix_views_drawn() { return g_drawn; }

namespace {
// Part of the cells lies outside the window's visible area (scrolled or cut).
bool clipped_now(ImDrawList* dl, ImVec2 g0, ImVec2 g1) {
  const ImVec2 c0 = dl->GetClipRectMin(), c1 = dl->GetClipRectMax();
  return g0.x < c0.x - 0.5f || g0.y < c0.y - 0.5f || g1.x > c1.x + 0.5f || g1.y > c1.y + 0.5f;
}
}  // namespace

void matrix_view_record(const std::string& title, MatrixViewResult r, float lo, float hi) {
  r.clipped = clipped_now(ImGui::GetWindowDrawList(), r.grid_min, r.grid_max);
  g_drawn.push_back({title.substr(0, title.find("  ")), r, lo, hi});
}

namespace {
// The title above the cells, within the matrix's width `w` (it ran into its neighbour's on a phone): as it is
// where it fits beside the row labels; else from the left edge; else without its size ("   (12 × 8)"), then
// without its shape formula (": n × d_in"), then a little smaller (down to 75 %), then cut with "…".
void draw_title(ImDrawList* dl, ImVec2 o, ImU32 ink, const std::string& title, float label_w, float w) {
  const float fs = ImGui::GetFontSize();
  if (math_text_width(title.c_str(), fs) <= w - label_w) {
    draw_math_text(dl, ImVec2(o.x + label_w, o.y), ink, title.c_str(), fs);
    return;
  }
  std::string t = title;
  if (math_text_width(t.c_str(), fs) > w && t.rfind("  (") != std::string::npos) t = t.substr(0, t.rfind("  ("));
  // then without its shape formula ("the source X: n × d_in" → "the source X"), where it has one
  for (const char* colon : {": ", "："}) {
    const size_t at = t.find(colon);
    if (math_text_width(t.c_str(), 0.85f * fs) > w && at != std::string::npos && at > 0) t = t.substr(0, at);
  }
  const float size = std::max(0.75f * fs, std::min(fs, fs * w / std::max(1.f, math_text_width(t.c_str(), fs))));
  if (math_text_width(t.c_str(), size) > w) {
    while (!t.empty() && math_text_width((t + "…").c_str(), size) > w) t = utf8_prefix(t, t.size() - 1);
    t += "…";
  }
  draw_math_text(dl, o, ink, t.c_str(), size);
}
}  // namespace

MatrixViewResult matrix_view(const MatrixView& v, ImVec2 avail) {
  MatrixViewResult r;
  if (!v.m || v.m->rows() == 0 || v.m->cols() == 0) return r;
  const Mat& M = *v.m;
  const int rows = static_cast<int>(M.rows()), cols = static_cast<int>(M.cols());
  const Layout L = compute(v, avail);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 o = ImGui::GetCursorScreenPos();
  const ImU32 ink = ImGui::GetColorU32(ImGuiCol_Text), faint = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  if (!v.title.empty()) draw_title(dl, o, ink, v.title, L.label_w, std::max(avail.x, L.total.x));
  const ImVec2 g0(o.x + L.label_w, o.y + L.title_h + L.header_h);
  const ImVec2 g1(g0.x + cols * L.cell_w, g0.y + rows * L.cell_h);
  r.grid_min = g0; r.grid_max = g1; r.cell_w = L.cell_w; r.cell_h = L.cell_h; r.numbered = L.numbered;
  r.rows = rows; r.cols = cols;
  r.clipped = clipped_now(dl, g0, g1);

  // Labels: rows on the left, columns on top (truncated; the hover text has them whole), every k-th one
  // when the cells are smaller than the text.
  ImFont* lf = v.font ? v.font : ImGui::GetFont();
  const float lfs = font_px(v.font);
  // Every k-th label, and always the kept (highlighted) one: the regular ones that would overlap it give way.
  const int keep_r = v.keep_row >= 0 ? v.keep_row : v.hl_row, keep_c = v.keep_col >= 0 ? v.keep_col : v.hl_col;
  const auto labelled = [](int i, int stride, int keep) {
    if (i == keep) return true;
    return i % stride == 0 && (keep < 0 || std::abs(i - keep) >= stride);
  };
  if (L.row_labels)
    for (int i = 0; i < rows && i < static_cast<int>(v.row_labels->size()); ++i) {
      if (!labelled(i, L.row_stride, keep_r)) continue;
      const std::string s = fit_text((*v.row_labels)[i], L.label_w - 6.f, v.font);
      const float y = g0.y + i * L.cell_h + (L.cell_h - lfs) * 0.5f;
      if (y + lfs > g1.y + lfs * 0.3f) break;  // past the last row (labels every k-th row)
      dl->AddText(lf, lfs, ImVec2(g0.x - 6.f - text_width(s, v.font), y), i == keep_r ? ink : faint, s.c_str());
      ++r.row_labels;
    }
  if (L.col_labels)
    for (int j = 0; j < cols && j < static_cast<int>(v.col_labels->size()); ++j) {
      if (!labelled(j, L.col_stride, keep_c)) continue;
      const ImU32 c = j == keep_c ? ink : faint;
      if (g0.x + j * L.cell_w + (L.cell_w + lfs) * 0.5f > g1.x + lfs * 0.3f) break;
      if (L.vertical) {
        // A label a little longer than the header is drawn a little smaller (down to 80 %) before it is cut:
        // "because" stays whole in an 800×480 embed.
        const std::string& whole = (*v.col_labels)[j];
        const float room = L.header_h - 6.f, w = text_width(whole, v.font);
        const float scale = w > room ? std::max(0.8f, room / w) : 1.f;
        const std::string s = fit_text(whole, room / scale, v.font);
        text_up(dl, lf, lfs * scale, g0.x + j * L.cell_w + (L.cell_w - lfs * scale) * 0.5f, g0.y - 3.f, c, s);
      } else {
        const std::string s = fit_text((*v.col_labels)[j], L.cell_w - 2.f, v.font);
        dl->AddText(lf, lfs, ImVec2(g0.x + j * L.cell_w + (L.cell_w - text_width(s, v.font)) * 0.5f, g0.y - L.header_h + 2.f),
                    c, s.c_str());
      }
      ++r.col_labels;
    }

  if (L.numbered) {
    const ImU32 pending = IM_COL32(229, 229, 234, 255);
    for (int i = 0; i < rows; ++i)
      for (int j = 0; j < cols; ++j) {
        const ImVec2 a(g0.x + j * L.cell_w, g0.y + i * L.cell_h), b(a.x + L.cell_w, a.y + L.cell_h);
        const double idx = double(i) * cols + j;
        const float x = M(i, j);
        if (idx >= v.reveal) {
          dl->AddRectFilled(a, b, pending);
          continue;
        }
        ImU32 bg;
        if (std::isinf(x) && x < 0) bg = IM_COL32(140, 140, 148, 255);
        else bg = colormap(v.scale, colormap_t(x, v.lo, v.hi));
        dl->AddRectFilled(a, b, bg);
        const std::string s = cell_number(x, v.decimals);
        const float tw = text_width(s, v.font);
        dl->AddText(lf, lfs, ImVec2(a.x + (L.cell_w - tw) * 0.5f, a.y + (L.cell_h - lfs) * 0.5f), text_color_on(bg),
                    s.c_str());
      }
    // grid lines
    for (int i = 0; i <= rows; ++i)
      dl->AddLine(ImVec2(g0.x, g0.y + i * L.cell_h), ImVec2(g1.x, g0.y + i * L.cell_h), IM_COL32(255, 255, 255, 200));
    for (int j = 0; j <= cols; ++j)
      dl->AddLine(ImVec2(g0.x + j * L.cell_w, g0.y), ImVec2(g0.x + j * L.cell_w, g1.y), IM_COL32(255, 255, 255, 200));
  } else {
    HeatmapStyle hs{v.scale, v.lo, v.hi, v.reveal, v.hl_row, v.hl_col};
    heatmap_draw(dl, v.key, M, g0, g1, hs);
  }
  // Highlight outlines (drawn over cells or heatmap).
  const ImU32 hl = highlight_color();
  if (v.hl_row >= 0 && v.hl_row < rows)
    dl->AddRect(ImVec2(g0.x - 1, g0.y + v.hl_row * L.cell_h - 1), ImVec2(g1.x + 1, g0.y + (v.hl_row + 1) * L.cell_h + 1), hl, 0, 0, 2.5f);
  if (v.hl_col >= 0 && v.hl_col < cols)
    dl->AddRect(ImVec2(g0.x + v.hl_col * L.cell_w - 1, g0.y - 1), ImVec2(g0.x + (v.hl_col + 1) * L.cell_w + 1, g1.y + 1), hl, 0, 0, 2.5f);
  dl->AddRect(ImVec2(g0.x - 0.5f, g0.y - 0.5f), ImVec2(g1.x + 0.5f, g1.y + 0.5f), IM_COL32(120, 120, 130, 255));

  // Interaction: an invisible button over the grid reports hover and click.
  ImGui::SetCursorScreenPos(o);
  ImGui::Dummy(ImVec2(L.label_w, L.title_h + L.header_h));
  ImGui::SetCursorScreenPos(g0);
  ImGui::PushID(v.key.item);
  ImGui::InvisibleButton("grid", ImVec2(std::max(1.f, g1.x - g0.x), std::max(1.f, g1.y - g0.y)));
  if (ImGui::IsItemHovered()) {
    const ImVec2 mp = ImGui::GetIO().MousePos;
    r.hover_i = std::clamp(static_cast<int>((mp.y - g0.y) / L.cell_h), 0, rows - 1);
    r.hover_j = std::clamp(static_cast<int>((mp.x - g0.x) / L.cell_w), 0, cols - 1);
    if (ImGui::IsItemClicked()) { r.clicked_i = r.hover_i; r.clicked_j = r.hover_j; }
    const ImVec2 a(g0.x + r.hover_j * L.cell_w, g0.y + r.hover_i * L.cell_h);
    dl->AddRect(a, ImVec2(a.x + L.cell_w, a.y + L.cell_h), IM_COL32(20, 20, 20, 255), 0, 0, 2.f);
  }
  ImGui::PopID();
  ImGui::SetCursorScreenPos(ImVec2(o.x, o.y + L.total.y));
  ImGui::Dummy(ImVec2(L.total.x, 0));
  matrix_view_record(v.title, r, v.lo, v.hi);
  return r;
}

void color_legend(ColorScale s, float lo, float hi, float width, const char* caption) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 o = ImGui::GetCursorScreenPos();
  const float h = 10.f;
  const int segs = 32;
  for (int k = 0; k < segs; ++k) {
    const float x0 = o.x + width * k / segs, x1 = o.x + width * (k + 1) / segs;
    dl->AddRectFilledMultiColor(ImVec2(x0, o.y), ImVec2(x1, o.y + h), colormap(s, float(k) / segs),
                                colormap(s, float(k + 1) / segs), colormap(s, float(k + 1) / segs),
                                colormap(s, float(k) / segs));
  }
  dl->AddRect(o, ImVec2(o.x + width, o.y + h), IM_COL32(120, 120, 130, 255));
  const ImU32 ink = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  const std::string a = fmt(lo, 2), m = fmt((lo + hi) / 2, 2), b = fmt(hi, 2);
  const float y = o.y + h + 1;
  dl->AddText(ImVec2(o.x, y), ink, a.c_str());
  if (width >= text_width(a) + text_width(m) + text_width(b) + 16.f) dl->AddText(ImVec2(o.x + (width - text_width(m)) / 2, y), ink, m.c_str());
  dl->AddText(ImVec2(o.x + width - text_width(b), y), ink, b.c_str());
  if (caption) dl->AddText(ImVec2(o.x + width + 8, o.y - 3), ink, caption);
  ImGui::Dummy(ImVec2(width + (caption ? 8.f + text_width(caption) : 0.f), h + ImGui::GetFontSize() + 2));
}

}  // namespace ap
