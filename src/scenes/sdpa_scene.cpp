// Scene "Scaled dot-product attention": lays the matrices of the current stage out along the flow
// Q, Kᵀ → QKᵀ → ÷√dₖ → mask → softmax → ×V → output, and reveals them as the timeline advances.
// It only reads st.model (computed by src/core) and st.timeline; it computes nothing.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "app/i18n.h"
#include "ui/ui_state.h"
#include "widgets/matrix_view.h"

namespace ap {

namespace {

std::string dims(const char* name, const Mat& m) {
  return std::string(name) + "  " + std::to_string(m.rows()) + "×" + std::to_string(m.cols());
}

// One matrix of the scene: draws it in a box of `size` at the cursor, reports hover and clicks.
struct Placer {
  PlaygroundState& st;
  UiState& ui;
  int weight_row = -1;  // the query whose weights the WeightColumn shows
  MatrixViewResult draw(MatrixView v, MatrixId id, ImVec2 pos, ImVec2 size) {
    v.key = static_cast<int>(id);
    if (v.generation == 0) v.generation = st.generation;
    ImGui::SetCursorScreenPos(pos);
    const MatrixViewResult r = matrix_view(v, size);
    if (r.hover_i >= 0) { ui.hover_id = id; ui.hover_i = r.hover_i; ui.hover_j = r.hover_j; }
    if (r.hover_i >= 0 && id == MatrixId::WeightColumn) {  // a cell of that column is A(weight_row, key)
      ui.hover_id = MatrixId::Weights;
      ui.hover_i = weight_row;
      ui.hover_j = r.hover_i;
    }
    if (r.clicked_i >= 0 && (id == MatrixId::Q || id == MatrixId::K || id == MatrixId::V) &&
        st.timeline.stage() == static_cast<int>(Stage::Qkv))
      begin_cell_edit(st, ui, id, r.clicked_i, r.clicked_j);
    return r;
  }
};

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

// Splits `width` among boxes in proportion to their column counts (each at least `min_w`), leaving `gap`
// between them.
std::vector<float> split(float width, const std::vector<int>& cols, float gap, float label_w) {
  float total = 0;
  for (int c : cols) total += static_cast<float>(c);
  const float usable = width - gap * (cols.size() - 1) - label_w * cols.size();
  std::vector<float> out;
  for (int c : cols) out.push_back(label_w + std::max(usable * c / total, 24.f));
  return out;
}

void op_text(ImVec2 pos, float h, const char* s) {
  const ImVec2 ts = ImGui::CalcTextSize(s);
  ImGui::GetWindowDrawList()->AddText(ImVec2(pos.x - ts.x * 0.5f, pos.y + h * 0.5f - ts.y * 0.5f),
                                      ImGui::GetColorU32(ImGuiCol_Text), s);
}

// A row of matrices separated by operators ("→", "+", "="): box i gets a width share ∝ its columns.
void row_of(Placer& P, const std::vector<std::pair<MatrixView, MatrixId>>& items,
            const std::vector<const char*>& ops, ImVec2 origin, ImVec2 avail) {
  const float gap = ImGui::GetFontSize() * 2.4f;
  const float label_w = std::min(90.f, avail.x * 0.08f);
  std::vector<int> cols;
  int max_rows = 1;
  for (auto& it : items) {
    cols.push_back(static_cast<int>(it.first.m->cols()));
    max_rows = std::max<int>(max_rows, static_cast<int>(it.first.m->rows()));
  }
  const std::vector<float> w = split(avail.x, cols, gap, label_w);
  // One row height for the whole row of matrices, so that row i lines up across them.
  const float fs = ImGui::GetFontSize();
  const float ch = std::min(fs * 1.9f, (avail.y - 2.f * (fs + 4.f)) / max_rows);
  float x = origin.x;
  for (size_t k = 0; k < items.size(); ++k) {
    MatrixView v = items[k].first;
    if (k > 0) v.row_labels = nullptr;  // the first matrix names the rows for the whole row
    v.square = false;
    v.max_cell_h = ch;
    v.max_cell_w = std::min(v.max_cell_w, (w[k] - (k > 0 ? label_w : 0.f) - (k == 0 ? label_w : 0.f)) / cols[k]);
    const ImVec2 size(k > 0 ? w[k] - label_w : w[k], avail.y);
    P.draw(v, items[k].second, ImVec2(x, origin.y), size);
    x += size.x;
    if (k + 1 < items.size()) {
      op_text(ImVec2(x + gap * 0.5f, origin.y), std::min(avail.y, ImGui::GetFontSize() * 8.f), ops[k]);
      x += gap;
    }
  }
}

// Matrix-product layout:      [ top ]          top = Kᵀ (or V), left = Q (or A), result below top.
//                     [left] [result]
// `beside_top` (optional, rows like `top`): drawn in the empty corner left of `top`, its rows aligned.
void product_layout(Placer& P, MatrixView left, MatrixId lid, MatrixView top, MatrixId tid, MatrixView result,
                    MatrixId rid, ImVec2 o, ImVec2 avail, MatrixView* beside_top = nullptr,
                    MatrixId bid = MatrixId::WeightColumn) {
  const float fs = ImGui::GetFontSize();
  const int n = static_cast<int>(left.m->rows()), inner = static_cast<int>(left.m->cols());
  const int out_cols = static_cast<int>(top.m->cols());
  const float label_w = std::min(96.f, avail.x * 0.12f), title_h = fs + 4.f, header_h = fs + 4.f;
  const float gap = fs * 1.2f;
  // Heights: top part holds `inner` rows, bottom `n` rows; widths: left `inner` columns, right `out_cols`.
  const float usable_h = avail.y - 2 * title_h - header_h - gap;
  const float usable_w = avail.x - label_w - gap;
  const float max_w = fs * 4.2f, max_h = fs * 1.9f;
  float ch = std::min(max_h, usable_h / (inner + n));
  float cw_left = std::min(max_w, usable_w * 0.42f / inner);
  float cw_right = std::min(max_w, (usable_w - cw_left * inner) / out_cols);
  float ch_top = ch, ch_bottom = ch;
  if (ch < fs + 2.f) {  // too small for numbers: give each part what it needs
    ch_top = std::min(max_h, usable_h * 0.3f / inner);
    ch_bottom = std::min(max_h, (usable_h - ch_top * inner) / n);
  }
  const float left_w = label_w + cw_left * inner;
  const float right_x = o.x + left_w + gap;
  const float top_h = title_h + header_h + ch_top * inner;
  // Square-ish heatmap cells would break the row alignment: stretch instead.
  left.square = top.square = result.square = false;
  left.max_cell_w = cw_left; left.max_cell_h = ch_bottom;
  top.max_cell_w = cw_right; top.max_cell_h = ch_top;
  result.max_cell_w = cw_right; result.max_cell_h = ch_bottom;
  top.row_labels = nullptr;
  result.row_labels = nullptr;
  result.col_labels = nullptr;
  left.col_labels = nullptr;
  const MatrixViewResult tr_top = P.draw(top, tid, ImVec2(right_x, o.y), ImVec2(cw_right * out_cols, top_h));
  if (beside_top && tr_top.cell_h > 0) {
    MatrixView b = *beside_top;
    b.square = false;
    b.col_labels = nullptr;
    b.max_cell_h = tr_top.cell_h;  // row j level with value row j
    b.max_cell_w = std::min(fs * 3.f, left_w);
    const float bw = b.max_cell_w + (b.row_labels ? label_w : 0.f);
    P.draw(b, bid, ImVec2(right_x - gap - bw, tr_top.grid_min.y - title_h), ImVec2(bw, title_h + tr_top.cell_h * inner));
  }
  const float by = o.y + top_h + gap;
  P.draw(left, lid, ImVec2(o.x, by), ImVec2(left_w, title_h + ch_bottom * n));
  P.draw(result, rid, ImVec2(right_x, by), ImVec2(cw_right * out_cols, title_h + ch_bottom * n));
}

}  // namespace

void sdpa_scene(PlaygroundState& st, UiState& ui) {
  const SdpaModel& m = st.model;
  const AttentionTrace& t = m.trace;
  const Timeline& tl = st.timeline;
  const struct { float qkv, scores, x; } R = {ui.range_qkv, ui.range_scores, ui.range_x};
  Placer P{st, ui};
  const ImVec2 o = ImGui::GetCursorScreenPos();
  ImVec2 avail = ImGui::GetContentRegionAvail();
  avail.y -= ImGui::GetFontSize() * (ui.compact ? 4.6f : 2.2f);  // legend lines
  const auto* qt = &m.query_tokens;
  const auto* kt = &m.key_tokens;
  const int done = tl.done_substeps();
  const double frac = tl.substeps(tl.stage()) == 1 ? std::min(1.0, tl.sub()) : 1.0;
  const double all = static_cast<double>(t.n) * t.m;
  const ColorScale D = ColorScale::Diverging, Sq = ColorScale::Sequential;

  switch (static_cast<Stage>(tl.stage())) {
    case Stage::Qkv: {
      std::vector<std::pair<MatrixView, MatrixId>> items;
      std::vector<const char*> ops;
      if (m.params.source == QkvSource::Projection) {
        items.push_back({view(m.X, dims("X", m.X), qt, nullptr, D, -R.x, R.x), MatrixId::X});
        ops.push_back("·W →");
      }
      items.push_back({view(m.Q, dims("Q", m.Q), qt, nullptr, D, -R.qkv, R.qkv), MatrixId::Q});
      items.push_back({view(ui.Kt, dims("Kᵀ", ui.Kt), nullptr, kt, D, -R.qkv, R.qkv), MatrixId::K});
      items.push_back({view(m.V, dims("V", m.V), kt, nullptr, D, -R.qkv, R.qkv), MatrixId::V});
      ops.push_back(" ");
      ops.push_back(" ");
      // Reveal the projections as the stage plays.
      for (auto& it : items) if (it.second != MatrixId::X) it.first.reveal = frac * it.first.m->size();
      row_of(P, items, ops, o, avail);
      break;
    }
    case Stage::Scores: {
      const int cell = std::min(done, t.n * t.m - 1);
      const bool running = done < t.n * t.m;
      MatrixView q = view(m.Q, dims("Q", m.Q), qt, nullptr, D, -R.qkv, R.qkv);
      MatrixView k = view(ui.Kt, dims("Kᵀ", ui.Kt), nullptr, kt, D, -R.qkv, R.qkv);
      MatrixView s = view(t.scores, dims("S = QKᵀ", t.scores), nullptr, nullptr, D, -R.scores, R.scores);
      s.reveal = done;
      if (running) { q.hl_row = s.hl_row = cell / t.m; k.hl_col = s.hl_col = cell % t.m; }
      product_layout(P, q, MatrixId::Q, k, MatrixId::K, s, MatrixId::Scores, o, avail);
      break;
    }
    case Stage::Scale: {
      MatrixView a = view(t.scores, dims("S", t.scores), qt, kt, D, -R.scores, R.scores);
      MatrixView b = view(t.scaled, dims("S/√dₖ", t.scaled), qt, kt, D, -R.scores, R.scores);
      b.reveal = frac * all;
      static std::string op;
      op = "÷ " + fmt(t.sqrt_dk, 2) + " →";
      row_of(P, {{a, MatrixId::Scores}, {b, MatrixId::Scaled}}, {op.c_str()}, o, avail);
      break;
    }
    case Stage::Mask: {
      MatrixView a = view(t.scaled, dims("S/√dₖ", t.scaled), qt, kt, D, -R.scores, R.scores);
      MatrixView mm = view(t.mask, dims("M", t.mask), qt, kt, D, -1.f, 1.f);
      MatrixView b = view(t.masked, dims("S/√dₖ + M", t.masked), qt, kt, D, -R.scores, R.scores);
      b.reveal = frac * all;
      row_of(P, {{a, MatrixId::Scaled}, {mm, MatrixId::Mask}, {b, MatrixId::Masked}}, {"+", "="}, o, avail);
      break;
    }
    case Stage::Softmax: {
      const int row = std::min(done / 3, t.n - 1);
      const bool running = done < t.n * 3;
      MatrixView z = view(t.masked, dims("z = S/√dₖ + M", t.masked), qt, kt, D, -R.scores, R.scores);
      MatrixView e = view(t.softmax.exps, dims("exp(z − max)", t.softmax.exps), qt, kt, Sq, 0.f, 1.f);
      MatrixView sum = view(ui.row_sums, "Σ", qt, nullptr, Sq, 0.f, static_cast<float>(t.m));
      MatrixView a = view(t.weights(), dims("A = softmax", t.weights()), qt, kt, Sq, 0.f, 1.f);
      e.reveal = static_cast<double>((done + 2) / 3) * t.m;
      sum.reveal = (done + 1) / 3;
      a.reveal = static_cast<double>(done / 3) * t.m;
      if (running) z.hl_row = e.hl_row = sum.hl_row = a.hl_row = row;
      (void)z;  // z was the previous stage's result; the caption gives its row maximum
      e.row_labels = qt;
      row_of(P, {{e, MatrixId::Exps}, {sum, MatrixId::RowSum}, {a, MatrixId::Weights}}, {" ", "→"}, o, avail);
      break;
    }
    case Stage::WeightedSum: {
      const int row = std::min(done, t.n - 1);
      MatrixView a = view(t.weights(), dims("A", t.weights()), qt, nullptr, Sq, 0.f, 1.f);
      MatrixView v = view(m.V, dims("V", m.V), nullptr, nullptr, D, -R.qkv, R.qkv);
      MatrixView out = view(t.output, dims("A·V", t.output), nullptr, nullptr, D, -R.qkv, R.qkv);
      out.reveal = static_cast<double>(done) * t.d_v;
      if (done < t.n) a.hl_row = out.hl_row = row;
      // Beside V: row `row` of A as a column, each weight level with the value row it scales, so the output
      // row reads as that mix of value rows.
      static Mat weight_col;
      weight_col = t.weights().row(row).transpose();
      MatrixView wc = view(weight_col, std::string("A") + subscript(row + 1) + "ⱼ", kt, nullptr, Sq, 0.f, 1.f);
      wc.generation = (st.generation % 100000) * 4096 + row + 1;
      P.weight_row = row;
      product_layout(P, a, MatrixId::Weights, v, MatrixId::V, out, MatrixId::Output, o, avail, &wc);
      break;
    }
    case Stage::Output:
    default: {
      MatrixView a = view(t.weights(), dims(tr("attention weights A"), t.weights()), qt, kt, Sq, 0.f, 1.f);
      MatrixView out = view(t.output, dims(tr("output A·V"), t.output), qt, nullptr, D, -R.qkv, R.qkv);
      row_of(P, {{a, MatrixId::Weights}, {out, MatrixId::Output}}, {"→"}, o, avail);
      break;
    }
  }
  // Legends: the colour scales with their value ranges, wrapped onto a second line on narrow screens.
  ImGui::SetCursorScreenPos(ImVec2(o.x, o.y + avail.y + 4.f));
  const float lw = std::clamp(avail.x * 0.16f, 90.f, 160.f);
  const struct { ColorScale s; float lo, hi; const char* caption; } legends[] = {
      {ColorScale::Diverging, -R.qkv, R.qkv, tr("Q, K, V, output")},
      {ColorScale::Diverging, -R.scores, R.scores, tr("scores")},
      {ColorScale::Sequential, 0.f, 1.f, tr("weights")}};
  float x = 0;
  for (const auto& l : legends) {
    const float w = lw + 16.f + ImGui::CalcTextSize(l.caption).x;
    if (x > 0 && x + w <= avail.x) ImGui::SameLine(0, 16.f);
    else if (x > 0) x = 0;
    color_legend(l.s, l.lo, l.hi, lw, l.caption);
    x += w + 16.f;
  }
  cell_editor(st, ui);
}

}  // namespace ap
