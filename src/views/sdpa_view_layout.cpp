// SdpaView, part 2 of 3: the stage layout. Every stage is planned as rows of matrices and products, one
// cell geometry is chosen for all of them (numbered cells, else heatmaps), and the plan is placed or measured.
// The rest of the view is in sdpa_view.cpp (controls, flow strip, stage) and sdpa_view_cells.cpp (cell editor).
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "app/scenes/sdpa_scene.h"
#include "views/sdpa_view.h"
#include "widgets/colormap.h"
#include "widgets/heatmap.h"
#include "widgets/math_text.h"
#include "widgets/matrix_view.h"

namespace ap {

namespace {

std::string dims(const char* name, const Mat& m) {
  return std::string(name) + "  " + std::to_string(m.rows()) + "×" + std::to_string(m.cols());
}

MatrixView view(const Mat& m, std::string title, const std::vector<std::string>* rows,
                const std::vector<std::string>* cols, ColorScale s, float lo, float hi) {
  MatrixView v;
  v.m = &m;
  v.title = std::move(title);
  v.row_labels = rows;
  v.col_labels = cols;
  v.scale = s;
  v.lo = lo;
  v.hi = hi;
  // Cells grow with the text size (projector) but stay at most ~4.5 characters wide.
  v.max_cell_w = ImGui::GetFontSize() * 4.2f;
  v.max_cell_h = ImGui::GetFontSize() * 1.9f;
  return v;
}

void op_text(ImVec2 pos, float h, const char* s) {
  const ImVec2 ts = ImGui::CalcTextSize(s);
  ImGui::GetWindowDrawList()->AddText(ImVec2(pos.x - ts.x * 0.5f, pos.y + h * 0.5f - ts.y * 0.5f),
                                      ImGui::GetColorU32(ImGuiCol_Text), s);
}

}  // namespace

// ---- stage view ------------------------------------------------------------------------------------------------

MatrixViewResult SdpaView::place(ViewContext& ctx, MatrixView v, MatrixId id, ImVec2 pos, ImVec2 size) {
  if (v.key.owner == nullptr) v.key = key(static_cast<int>(id));
  ImGui::SetCursorScreenPos(pos);
  const MatrixViewResult r = matrix_view(v, size);
  if (r.hover_i >= 0) { ctx.hover_what = static_cast<int>(id); ctx.hover_i = r.hover_i; ctx.hover_j = r.hover_j; }
  if (r.hover_i >= 0 && id == MatrixId::WeightColumn) {  // a cell of that column is A(weight_row, key)
    ctx.hover_what = static_cast<int>(MatrixId::Weights);
    ctx.hover_i = weight_row_;
    ctx.hover_j = r.hover_i;
  }
  if (r.clicked_i >= 0 && (id == MatrixId::Q || id == MatrixId::K || id == MatrixId::V) &&
      scene_.timeline.stage() == static_cast<int>(SdpaStage::Qkv))
    begin_cell_edit(ctx.st, id, r.clicked_i, r.clicked_j);
  return r;
}

// A row of matrices separated by operators ("→", "+", "="), or a matrix product laid out as
//        [ top ]             top = Kᵀ (or V), left = Q (or A), the result below top, level with left's rows
// [left] [result]            (and `beside`, optional: a column left of top, its rows level with top's).
// Every stage is planned first, so that one cell geometry serves them all: the same matrices keep their
// numbers from one stage to the next, or are heatmaps in every stage.
SdpaView::Plan SdpaView::plan(int stage_index, bool custom) {
  const SdpaModel& m = scene_.model();
  const AttentionTrace& t = m.trace;
  const Timeline& tl = scene_.timeline;
  const bool now = stage_index == tl.stage();
  const int done = now ? tl.done_substeps() : 1 << 30;
  const double frac = !now ? 1.0 : tl.substeps(tl.stage()) == 1 ? std::min(1.0, tl.sub()) : 1.0;
  const double all = static_cast<double>(t.n) * t.m;
  const auto* qt = &m.query_tokens;
  const auto* kt = &m.key_tokens;
  const ColorScale D = ColorScale::Diverging, Sq = ColorScale::Sequential;
  const float rq = range_qkv_, rs = range_scores_, rx = range_x_, rw = range_weights_;
  Plan p;
  switch (static_cast<SdpaStage>(stage_index)) {
    case SdpaStage::Qkv: {
      if (m.params.source == QkvSource::Projection) {
        p.items.push_back({view(m.X, dims("X", m.X), qt, nullptr, D, -rx, rx), MatrixId::X});
        p.ops.push_back("·W →");
        p.items.back().free = true;  // the embeddings: numbered only where there is room
      }
      p.items.push_back({view(m.Q, dims("Q", m.Q), qt, nullptr, D, -rq, rq), MatrixId::Q});
      p.items.push_back({view(Kt_, dims("Kᵀ", Kt_), nullptr, kt, D, -rq, rq), MatrixId::K});
      p.items.push_back({view(m.V, dims("V", m.V), kt, nullptr, D, -rq, rq), MatrixId::V});
      p.ops.push_back(" ");
      p.ops.push_back(" ");
      // Projected Q, K, V appear as the stage plays; hand-set ones are there from the start (click to edit).
      if (!custom)
        for (auto& it : p.items) if (it.id != MatrixId::X) it.v.reveal = frac * it.v.m->size();
      break;
    }
    case SdpaStage::Scores: {
      const int cell = std::min(done, t.n * t.m - 1);
      const bool running = done < t.n * t.m;
      MatrixView q = view(m.Q, dims("Q", m.Q), qt, nullptr, D, -rq, rq);
      MatrixView k = view(Kt_, dims("Kᵀ", Kt_), nullptr, kt, D, -rq, rq);
      MatrixView s = view(t.scores, dims("S = QKᵀ", t.scores), nullptr, nullptr, D, -rs, rs);
      s.reveal = now ? done : 1e18;
      if (now && running) { q.hl_row = s.hl_row = cell / t.m; k.hl_col = s.hl_col = cell % t.m; }
      p.product = true;
      p.items = {{q, MatrixId::Q}, {k, MatrixId::K}, {s, MatrixId::Scores}};
      break;
    }
    case SdpaStage::Scale: {
      MatrixView a = view(t.scores, dims("S", t.scores), qt, kt, D, -rs, rs);
      MatrixView b = view(t.scaled, dims("S/√dₖ", t.scaled), qt, kt, D, -rs, rs);
      b.reveal = frac * all;
      scale_op_ = "÷ " + fmt(t.sqrt_dk, 2) + " →";
      p.items = {{a, MatrixId::Scores}, {b, MatrixId::Scaled}};
      p.ops = {scale_op_};
      break;
    }
    case SdpaStage::Mask: {
      // S/√dₖ was the previous stage: here the mask, and the sum with its −∞ cells.
      MatrixView mm = view(t.mask, dims("M", t.mask), qt, kt, D, -1.f, 1.f);
      mm.decimals = 0;  // 0 or −∞
      MatrixView b = view(t.masked, dims("S/√dₖ + M", t.masked), qt, kt, D, -rs, rs);
      b.reveal = frac * all;
      p.items = {{mm, MatrixId::Mask}, {b, MatrixId::Masked}};
      p.ops = {"→"};
      break;
    }
    case SdpaStage::Softmax: {
      const SoftmaxCursor c = softmax_cursor(now ? done : 1 << 30, t.n);
      MatrixView e = view(t.softmax.exps, dims("exp(z − max)", t.softmax.exps), qt, kt, Sq, 0.f, 1.f);
      MatrixView sum = view(row_sums_, "Σ", qt, nullptr, Sq, 0.f, static_cast<float>(t.m));
      MatrixView a = view(t.weights(), dims("A = softmax", t.weights()), qt, kt, Sq, 0.f, rw);
      e.reveal = static_cast<double>(c.rows_with_exps) * t.m;
      sum.reveal = c.rows_with_sum;
      a.reveal = static_cast<double>(c.rows_done) * t.m;
      if (now && c.running) e.hl_row = sum.hl_row = a.hl_row = c.row;
      p.items = {{e, MatrixId::Exps}, {sum, MatrixId::RowSum}, {a, MatrixId::Weights}};
      p.ops = {" ", "→"};
      break;
    }
    case SdpaStage::WeightedSum: {
      const int row = std::min(done, t.n - 1);
      MatrixView a = view(t.weights(), dims("A", t.weights()), qt, nullptr, Sq, 0.f, rw);
      MatrixView v = view(m.V, dims("V", m.V), nullptr, nullptr, D, -rq, rq);
      MatrixView out = view(t.output, dims("A·V", t.output), nullptr, nullptr, D, -rq, rq);
      out.reveal = now ? static_cast<double>(done) * t.d_v : 1e18;
      if (now && done < t.n) a.hl_row = out.hl_row = row;
      p.product = true;
      p.items = {{a, MatrixId::Weights}, {v, MatrixId::V}, {out, MatrixId::Output}};
      if (now) {
        // Beside V: row `row` of A as a column, each weight level with the value row it scales, so the output
        // row reads as that mix of value rows.
        weight_col_ = t.weights().row(row).transpose();
        MatrixView wc = view(weight_col_, std::string("A") + subscript(row + 1) + "ⱼ", kt, nullptr, Sq, 0.f, rw);
        wc.key = key(static_cast<int>(MatrixId::WeightColumn), static_cast<long long>(scene_.generation()) * 4096 + row + 1);
        weight_row_ = row;
        p.items.push_back({wc, MatrixId::WeightColumn});
      } else {
        p.items.push_back({view(m.V, "", nullptr, nullptr, Sq, 0.f, 1.f), MatrixId::WeightColumn});  // measured only
        p.items.back().v.m = nullptr;
      }
      break;
    }
    case SdpaStage::Output:
    default: {
      MatrixView a = view(t.weights(), dims(tr("attention weights A"), t.weights()), qt, kt, Sq, 0.f, rw);
      MatrixView out = view(t.output, dims(tr("output A·V"), t.output), qt, nullptr, D, -rq, rq);
      p.items = {{a, MatrixId::Weights}, {out, MatrixId::Output}};
      p.ops = {"→"};
      break;
    }
  }
  return p;
}

namespace {

// A matrix with many more columns than the others (d_k = 256 beside 11 tokens) takes at most this share of
// the width, its columns narrowed, so that the rest keeps legible cells.
constexpr float kWideShare = 0.4f;


bool is_wide(int cols, int rows_max) { return cols > 3 * std::max(rows_max, 8); }

// Width of a numbered cell for the values of `v` (a sign only if one is negative, "00.0" past 10): the same
// matrix keeps its width from one stage to the next.
float number_w(const MatrixView& v, ImFont* f) {
  const Mat& m = *v.m;
  float lo = -1, hi = 0;  // large matrices (never numbered in practice): the widest form, unscanned
  if (m.size() <= 65536) lo = 0;
  if (m.size() <= 65536) for (Eigen::Index k = 0; k < m.size(); ++k) {
    const float x = m.data()[k];
    if (std::isfinite(x)) { lo = std::min(lo, x); hi = std::max(hi, x); }
  }
  const float a = std::max(-lo, hi);
  std::string t = v.decimals <= 0 ? "−∞" : a >= 99.5f ? "000" : a >= 9.995f ? "00.0" : "0.00";
  if (lo < 0 && v.decimals > 0) t = "−" + t;
  const float fs = f->FontSize * f->Scale * ImGui::GetIO().FontGlobalScale;
  return f->CalcTextSizeA(fs, 1e9f, 0.f, t.c_str()).x + std::max(4.f, fs * 0.35f);
}

}  // namespace

// Places (or, with draw = false, only measures) a plan with cells of `g`; returns the size it takes.
// Numbered: every cell g.cw × g.ch. Heatmap: square cells, as large as the area allows.
ImVec2 SdpaView::lay_out(ViewContext& ctx, Plan& p, const Geo& g, ImVec2 o, ImVec2 avail, bool draw) {
  const float fs = ImGui::GetFontSize();
  const float title_h = fs + 4.f, gap = fs * 1.6f;
  ImFont* lf = g.font(ctx);
  const float hmax = std::max(fs * 2.f, avail.y * 0.2f);  // upright column labels take at most this
  const auto label_w_of = [&](const MatrixView& v) { return matrix_label_width(v.row_labels, static_cast<int>(v.m->rows()), lf); };
  const auto title_w = [&](const MatrixView& v) { return math_text_width(v.title.c_str(), fs) + fs * 0.5f; };
  // The smallest heatmap cell for `rows` rows: half a text line, or whatever makes the matrix 12 lines tall
  // when it has more rows. A short screen (a phone held sideways) then scrolls instead of drawing 1-pixel cells.
  const auto min_cell = [&](int rows) { return std::min(fs * 0.5f, fs * 12.f / std::max(1, rows)); };
  if (!p.product && p.wrap > 0 && p.wrap < static_cast<int>(p.items.size())) {
    // Two lines, each a row of its own in half the height (a phone held upright: the free height below one
    // long row of small cells becomes larger cells). The cell size reported is the smaller line's.
    Plan first, second;
    first.items.assign(p.items.begin(), p.items.begin() + p.wrap);
    first.ops.assign(p.ops.begin(), p.ops.begin() + (p.wrap - 1));
    second.items.assign(p.items.begin() + p.wrap, p.items.end());
    second.ops.assign(p.ops.begin() + p.wrap, p.ops.end());
    const ImVec2 half(avail.x, avail.y < 1e5f ? std::max(0.f, (avail.y - fs) * 0.5f) : avail.y);
    const ImVec2 a = lay_out(ctx, first, g, o, half, draw);
    const float cell_a = last_cell_;
    const ImVec2 b = lay_out(ctx, second, g, ImVec2(o.x, o.y + a.y + fs), half, draw);
    last_cell_ = std::min(cell_a, last_cell_);
    return ImVec2(std::max(a.x, b.x), a.y + fs + b.y);
  }
  if (!p.product) {
    std::vector<int> cols;
    int rows_max = 1, narrow_cols = 0;
    for (auto& it : p.items) {
      cols.push_back(static_cast<int>(it.v.m->cols()));
      rows_max = std::max<int>(rows_max, static_cast<int>(it.v.m->rows()));
    }
    int wide = 0;
    for (int c : cols) { if (is_wide(c, rows_max)) ++wide; else narrow_cols += c; }
    const float label_w = label_w_of(p.items[0].v);
    std::vector<float> op_gap;  // each operator's gap: at least its text and some air
    float gaps = 0;
    for (size_t k = 0; k + 1 < p.items.size(); ++k) {
      op_gap.push_back(std::max(gap, ImGui::CalcTextSize(p.ops[k].c_str()).x + fs * 0.8f));
      gaps += op_gap.back();
    }
    const float wide_w = wide ? std::max(0.f, avail.x - label_w - gaps) * kWideShare : 0.f;
    float cw = g.ch, ch = g.ch;
    if (!g.numbered) {  // square cells filling the area
      const float cx = (avail.x - label_w - gaps - wide_w * wide) / std::max(1, narrow_cols);
      float c = std::min(cx, (avail.y - title_h) / rows_max);
      float header = 0;
      for (auto& it : p.items) header = std::max(header, matrix_header_height(it.v.col_labels, static_cast<int>(it.v.m->cols()), c, lf, hmax));
      c = std::min({cx, (avail.y - title_h - header) / rows_max, fs * 2.4f}) * 0.99f;
      cw = ch = std::max(c, min_cell(rows_max));
    }
    last_cell_ = ch;
    // Widths of the boxes and the row's height.
    std::vector<float> cell_w, box_w;
    float total_w = 0, header = 0;
    std::vector<bool> numbered;
    for (size_t k = 0; k < p.items.size(); ++k) {
      const float want = g.numbered ? number_w(p.items[k].v, lf) * g.grow : cw;
      const bool w = is_wide(cols[k], rows_max) && cols[k] * want > wide_w;
      cell_w.push_back(w ? wide_w / cols[k] : want);
      numbered.push_back(g.numbered && !w);
      header = std::max(header, matrix_header_height(p.items[k].v.col_labels, cols[k], cell_w.back(), lf, hmax));
      const float grid = (k == 0 ? label_w : 0.f) + cols[k] * cell_w.back();
      box_w.push_back(std::max(grid, title_w(p.items[k].v) + (k == 0 ? label_w : 0.f)));
      total_w += box_w.back();
    }
    total_w += gaps;
    // Titles wider than their grids that push the row past the area (a phone: "output A·V  11×4" over four
    // narrow columns) drop their sizes ("  11×4", said by the grid itself), rather than make the row scroll.
    // (Cut in this layout's own copies: the plan keeps its titles for the other forms best_form measures.)
    std::vector<std::string> titles;
    for (const auto& it : p.items) titles.push_back(it.v.title);
    if (total_w > avail.x - fs * 0.5f)
      for (size_t k = 0; k < p.items.size(); ++k) {
        const size_t cut = titles[k].rfind("  ");
        const float grid = (k == 0 ? label_w : 0.f) + cols[k] * cell_w[k];
        if (cut == std::string::npos || box_w[k] <= grid + 0.5f) continue;
        titles[k].resize(cut);
        MatrixView shorter = p.items[k].v;
        shorter.title = titles[k];
        const float w = std::max(grid, title_w(shorter) + (k == 0 ? label_w : 0.f));
        total_w -= box_w[k] - w;
        box_w[k] = w;
      }
    // The embeddings X (first, `free`) give way: without room they become a heatmap.
    if (g.numbered && total_w > avail.x - fs * 0.5f && p.items[0].free) {
      const float others = total_w - box_w[0];
      // Never thinner than a heatmap's smallest cell (a short stage laid out taller gave it 0.05 px): the row
      // then runs past the area and scrolls.
      cell_w[0] = std::max(min_cell(rows_max), std::min(ch, (avail.x - fs * 0.5f - others - label_w) / cols[0]));
      numbered[0] = false;
      MatrixView first = p.items[0].v;
      first.title = titles[0];
      total_w = others + std::max(label_w + cols[0] * cell_w[0], title_w(first) + label_w);
      box_w[0] = total_w - others;
    }
    const ImVec2 size(total_w, title_h + header + rows_max * ch);
    if (!draw) return size;
    float x = o.x + (avail.x < 1e5f ? std::max(0.f, (avail.x - total_w) * 0.5f) : 0.f);  // centred, unless scrolling
    for (size_t k = 0; k < p.items.size(); ++k) {
      MatrixView v = p.items[k].v;
      v.title = titles[k];
      if (k > 0) v.row_labels = nullptr;  // the first matrix names the rows for the whole row
      v.cell_w = cell_w[k];
      v.cell_h = ch;
      v.numbers = numbered[k] ? 1 : 0;
      v.font = lf;
      v.label_w = k == 0 ? label_w : 0.f;
      // Rows line up across the row: a matrix without column labels starts lower by the header's height.
      v.header_max = hmax;
      const float hh = matrix_header_height(v.col_labels, cols[k], cell_w[k], lf, hmax);
      place(ctx, v, p.items[k].id, ImVec2(x, o.y + header - hh), ImVec2(box_w[k], size.y));
      x += box_w[k];
      if (k + 1 < p.items.size()) {
        op_text(ImVec2(x + op_gap[k] * 0.5f, o.y + title_h + header), rows_max * ch, p.ops[k].c_str());
        x += op_gap[k];
      }
    }
    return size;
  }
  // Product.
  const float pgap = fs * 0.9f;
  MatrixView left = p.items[0].v, top = p.items[1].v, result = p.items[2].v;
  const int n = static_cast<int>(left.m->rows()), inner = static_cast<int>(left.m->cols());
  const int out_cols = static_cast<int>(top.m->cols());
  const float label_w = label_w_of(left);
  const bool wide_inner = is_wide(inner, std::max(n, out_cols));
  // Numbered: each column as wide as its numbers need (top and result share columns).
  float cw = g.numbered ? std::max(number_w(top, lf), number_w(result, lf)) * g.grow : g.ch;
  float ch = g.ch, cw_in = g.numbered ? number_w(left, lf) * g.grow : g.ch, ch_in = g.ch;
  float header = matrix_header_height(top.col_labels, out_cols, cw, lf, hmax);
  if (wide_inner) {  // d_k = 256: Q and Kᵀ as thin strips, the n × m result keeps its cells
    cw_in = std::min(cw, avail.x * 0.3f / inner);
    ch_in = std::min(ch, avail.y * 0.3f / inner);
  }
  if (!g.numbered) {
    const auto solve = [&](float hdr) {
      if (wide_inner) {
        cw_in = avail.x * 0.3f / inner;
        ch_in = avail.y * 0.25f / inner;
        const float c = std::min((avail.x - label_w - pgap - inner * cw_in) / out_cols,
                                 (avail.y - 2 * title_h - hdr - pgap - inner * ch_in) / n);
        cw = ch = std::clamp(c, min_cell(n), fs * 2.4f);
        cw_in = std::min(cw_in, cw);
        ch_in = std::min(ch_in, ch);
      } else {
        const float c = std::min((avail.x - label_w - pgap) / (inner + out_cols), (avail.y - 2 * title_h - hdr - pgap) / (inner + n));
        cw = ch = cw_in = ch_in = std::clamp(c, min_cell(inner + n), fs * 2.4f);
      }
    };
    solve(0.f);
    header = matrix_header_height(top.col_labels, out_cols, cw, lf, hmax);
    solve(header);
  }
  last_cell_ = ch;
  const float left_w = label_w + inner * cw_in;
  const float top_h = title_h + header + inner * ch_in;
  const float right_w = std::max(out_cols * cw, std::max(title_w(top), title_w(result)));
  const ImVec2 size(left_w + pgap + right_w, top_h + pgap + title_h + n * ch);
  if (!draw) return size;
  const float x0 = o.x + (avail.x < 1e5f ? std::max(0.f, (avail.x - size.x) * 0.5f) : 0.f);
  const float right_x = x0 + left_w + pgap;
  left.font = top.font = result.font = lf;
  top.header_max = hmax;
  left.cell_w = cw_in; left.cell_h = ch;
  top.cell_w = cw; top.cell_h = ch_in;
  result.cell_w = cw; result.cell_h = ch;
  left.numbers = g.numbered && !wide_inner ? 1 : 0;
  top.numbers = g.numbered && !wide_inner ? 1 : 0;
  result.numbers = g.numbered ? 1 : 0;
  left.label_w = label_w;
  top.row_labels = nullptr;
  result.row_labels = nullptr;
  result.col_labels = nullptr;
  left.col_labels = nullptr;
  const MatrixViewResult r_top = place(ctx, top, p.items[1].id, ImVec2(right_x, o.y), ImVec2(right_w, top_h));
  if (p.items.size() > 3 && p.items[3].v.m && r_top.cell_h > 0) {
    MatrixView b = p.items[3].v;
    b.col_labels = nullptr;
    b.font = lf;
    b.cell_h = r_top.cell_h;  // row j level with value row j
    b.cell_w = g.numbered ? cw : std::max(ch_in, fs * 0.8f);
    b.numbers = g.numbered && !wide_inner ? 1 : 0;
    b.label_w = b.row_labels && r_top.cell_h >= fs * 0.6f ? matrix_label_width(b.row_labels, inner, lf) : 0.f;
    if (b.label_w == 0.f) b.row_labels = nullptr;
    const float bw = b.cell_w + b.label_w;
    place(ctx, b, p.items[3].id, ImVec2(right_x - pgap - bw, r_top.grid_min.y - title_h), ImVec2(bw, title_h + r_top.cell_h * inner));
  }
  const float by = o.y + top_h + pgap;
  place(ctx, left, p.items[0].id, ImVec2(x0, by), ImVec2(left_w, title_h + ch * n));
  place(ctx, result, p.items[2].id, ImVec2(right_x, by), ImVec2(right_w, title_h + ch * n));
  return size;
}

// A product stacked (top above result) or as a row "left · top = result": whichever gives larger cells in
// `avail` (a wide, low area: the row). A row on a phone held upright: one line, or two when that gives larger
// cells (the other sizes keep their one line). Turns `p` into that form and returns its size.
ImVec2 SdpaView::best_form(ViewContext& ctx, Plan& p, const Geo& g, ImVec2 avail) {
  const auto ratio = [&](ImVec2 s) { return std::min(avail.x / std::max(1.f, s.x), avail.y / std::max(1.f, s.y)); };
  const ImVec2 stacked = lay_out(ctx, p, g, ImVec2(0, 0), avail, false);
  const float stacked_cell = last_cell_;
  if (!p.product) {
    if (!ctx.compact || p.items.size() < 2) return stacked;
    Plan two = p;
    two.wrap = static_cast<int>((p.items.size() + 1) / 2);
    const ImVec2 wrapped = lay_out(ctx, two, g, ImVec2(0, 0), avail, false);
    const bool better = g.numbered ? ratio(wrapped) > ratio(stacked) && ratio(stacked) < 1.f : last_cell_ > stacked_cell * 1.15f;
    if (!better) return stacked;
    p = two;
    return wrapped;
  }
  Plan row;
  row.items = {p.items[0], p.items[1], p.items[2]};
  row.items[0].v.col_labels = nullptr;
  row.items[2].v.col_labels = row.items[1].v.col_labels;  // the result's columns are the keys
  row.ops = {"·", "="};
  const ImVec2 flat = lay_out(ctx, row, g, ImVec2(0, 0), avail, false);
  const bool better = g.numbered ? ratio(flat) > ratio(stacked) && ratio(stacked) < 1.f : last_cell_ > stacked_cell * 1.15f;
  if (!better) return stacked;
  p = row;
  return flat;
}

// One cell geometry for every stage of the model: numbered cells in the body font (grown to fill the area,
// up to 1.5×), else in the small font, else square heatmap cells; `numbers_forced_` asks for the small
// numbered cells whatever the room (the stage then scrolls).
SdpaView::Geo SdpaView::choose_geometry(ViewContext& ctx, ImVec2 avail, bool custom, bool* fits, int only_stage) {
  std::vector<Plan> plans;
  for (int k = 0; k < kSdpaStageCount; ++k) plans.push_back(plan(k, custom));
  // The embeddings X decide only with their smallest heatmap: without room for numbers they become a heatmap in
  // their own stage (lay_out gives them the width left), but a geometry whose numbers leave X less than a
  // heatmap's smallest cells does not fit (on a short stage X had 0.05-pixel columns).
  const auto fit_ratio = [&](const Geo& g) {
    float r = 1e9f;
    for (int k = 0; k < kSdpaStageCount; ++k) {
      if (only_stage >= 0 && k != only_stage) continue;
      Plan q = plans[static_cast<size_t>(k)];
      const ImVec2 s = best_form(ctx, q, g, avail);
      r = std::min({r, avail.x / std::max(1.f, s.x), avail.y / std::max(1.f, s.y)});
    }
    return r;
  };
  *fits = true;
  for (const bool small : {false, true}) {
    ImFont* f = small ? ctx.fonts.small : ctx.fonts.body;
    const ImVec2 nc = matrix_number_cell(f, 2);
    Geo g{true, small, 1.f, nc.y};
    if (fit_ratio(g) < 1.f) {
      // Last before no numbers: the small font in rows with less leading (88 %: the digits still clear
      // each other). Large text on a projector is often a few pixels short of the numbered rows.
      g.ch = nc.y * 0.88f;
      if (!small || fit_ratio(g) < 1.f) continue;
      return g;
    }
    // Room to spare: first squarer cells (taller, up to about the width of "0.00"), then larger ones (body
    // font only, up to 1.5×).
    const float square = nc.x * 0.85f;
    for (int k = 0; k < 12 && g.ch * 1.08f <= square; ++k) {
      Geo h = g;
      h.ch *= 1.08f;
      if (fit_ratio(h) < 1.f) break;
      g = h;
    }
    for (int k = 0; k < 6 && !small && g.grow * 1.08f <= 1.5f; ++k) {
      Geo h = g;
      h.grow *= 1.08f;
      h.ch *= 1.08f;
      if (fit_ratio(h) < 1.f) break;
      g = h;
    }
    return g;
  }
  *fits = false;
  const ImVec2 ns = matrix_number_cell(ctx.fonts.small, 2);
  if (numbers_forced_) return {true, true, 1.f, ns.y};
  return {false, true, 1.f, 0.f};
}

}  // namespace ap
