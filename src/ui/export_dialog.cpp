// "Export" (E, the Display section): the current view as PNG, and any matrix of the current scene as CSV,
// JSON, NumPy .npy, a LaTeX bmatrix (copied) or a vector heatmap (SVG) or a PNG heatmap. The matrices are
// found generically: every numeric 2-D array in the scene's document with matrices (app/api.h), named by its
// JSON path ("results.weights_bug", "weights[0][3]"). Also here: files picked or dropped onto the page are
// read into the import scene (files_poll, every frame).
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "app/api.h"
#include "app/array_io.h"
#include "app/i18n.h"
#include "app/json_fields.h"
#include "app/scenes/import_scene.h"
#include "ui/ui_state.h"
#include "widgets/colormap.h"
#include "widgets/plot.h"
#include "widgets/svg_snapshot.h"
#include "widgets/tooltip.h"


namespace ap {

using nlohmann::json;

namespace {

const TrPair kExportStrings[] = {
    {"Export", "导出"},
    {"Export (E)", "导出 (E)"},
    {"export: PNG or SVG of the view, a matrix as SVG, CSV, JSON, .npy or LaTeX", "导出：视图的 PNG 或 SVG，或把一个矩阵导出为 SVG、CSV、JSON、.npy 或 LaTeX"},
    {"The view", "当前视图"},
    {"PNG of the view", "视图的 PNG"},
    {"SVG of the view", "视图的 SVG"},
    {"A plot of this view", "当前视图中的一幅图"},
    {"Vector shapes and text (glyph outlines), matrices drawn as heatmaps as images of their cells: for slides and papers.",
     "矢量图形和文字（字形轮廓），以热力图显示的矩阵作为其单元格的图像嵌入：用于幻灯片和论文。"},
    {"A matrix of this scene", "本场景的一个矩阵"},
    {"no matrix in this scene's state", "本场景的状态中没有矩阵"},
    {"decimals", "小数位数"},
    {"Copy LaTeX", "复制 LaTeX"},
    {"SVG heatmap", "SVG 热力图"},
    {"PNG heatmap", "PNG 热力图"},
    {"Saved {0}", "已保存 {0}"},
    {"Downloaded {0}", "已下载 {0}"},
    {"LaTeX copied to the clipboard.", "LaTeX 已复制到剪贴板。"},
    {"{0}: {1}", "{0}：{1}"},
    {"SVG and PNG for slides and papers; CSV, JSON and .npy for your own code. Matrices are those of the scene's state (getState).",
     "SVG 和 PNG 用于幻灯片和论文；CSV、JSON 和 .npy 用于你自己的代码。矩阵即场景状态（getState）中的矩阵。"},
};

struct ExportMatrix {
  std::string name;  // its JSON path
  Mat m;
  std::vector<std::string> rows, cols;  // labels (tokens) when the document has a list of the right length
};

struct ExportCache {
  std::string key;  // scene id / generation
  std::vector<ExportMatrix> list;
  std::string note;
  int png_stage = 0;  // 1: capture asked at the next frame (the dialog hidden), 2: waiting for the pixels
  int svg_stage = 0;  // the same for the SVG of the view (svg_snapshot.h)
  // One plot instead of the whole view: its rectangle (empty: the view) and its name for the file.
  ImVec4 crop = ImVec4(0, 0, 0, 0);
  std::string crop_name = "view";
} g_export;

// A non-empty array of equal-length arrays of numbers (null: a masked −∞ cell).
bool as_matrix(const json& v, Mat* out) {
  if (!v.is_array() || v.empty() || !v[0].is_array() || v[0].empty()) return false;
  const size_t cols = v[0].size();
  for (const json& row : v) {
    if (!row.is_array() || row.size() != cols) return false;
    for (const json& e : row)
      if (!e.is_number() && !e.is_null()) return false;
  }
  Mat m(static_cast<Eigen::Index>(v.size()), static_cast<Eigen::Index>(cols));
  for (size_t i = 0; i < v.size(); ++i)
    for (size_t j = 0; j < cols; ++j) {
      const json& e = v[i][j];
      m(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) = e.is_null() ? -INFINITY : e.get<float>();
    }
  *out = std::move(m);
  return true;
}

void collect(const json& v, const std::string& path, int depth, std::vector<ExportMatrix>* out) {
  if (out->size() >= 300 || depth > 6) return;
  Mat m;
  if (as_matrix(v, &m)) {
    out->push_back({path, std::move(m), {}, {}});
    return;
  }
  if (v.is_object()) {
    for (auto it = v.begin(); it != v.end(); ++it) collect(*it, path.empty() ? it.key() : path + "." + it.key(), depth + 1, out);
  } else if (v.is_array() && !v.empty() && (v[0].is_array() || v[0].is_object())) {
    for (size_t i = 0; i < v.size(); ++i) collect(v[i], path + "[" + std::to_string(i) + "]", depth + 1, out);
  }
}

// A list of strings of length n in the document (results first): the labels of a matrix with n rows / columns.
const json* token_list(const json& doc, const char* field) {
  for (const json* o : {doc.contains("results") ? &doc["results"] : nullptr, &doc}) {
    if (!o || !o->contains(field)) continue;
    const json& t = (*o)[field];
    if (t.is_array() && !t.empty() && t[0].is_string()) return &t;
  }
  return nullptr;
}

void refresh(const PlaygroundState& st) {
  const std::string key = std::string(st.scene().id()) + "/" + std::to_string(st.scene().generation());
  if (key == g_export.key) return;
  g_export.key = key;
  g_export.list.clear();
  const json doc = state_document(st, true, true, false);
  for (auto it = doc.begin(); it != doc.end(); ++it)
    if (it.key() != "step") collect(*it, it.key(), 0, &g_export.list);
  const json* toks = token_list(doc, "tokens");
  const json* qt = token_list(doc, "query_tokens");
  const json* kt = token_list(doc, "key_tokens");
  for (ExportMatrix& e : g_export.list) {
    const auto fill = [](const json* t, Eigen::Index n, std::vector<std::string>* out) {
      if (!t || static_cast<Eigen::Index>(t->size()) != n) return false;
      for (const json& s : *t) out->push_back(s.is_string() ? s.get<std::string>() : s.dump());
      return true;
    };
    if (!fill(qt, e.m.rows(), &e.rows)) fill(toks, e.m.rows(), &e.rows);
    if (!fill(kt, e.m.cols(), &e.cols)) fill(toks, e.m.cols(), &e.cols);
  }
}

std::string file_name(const PlaygroundState& st, const std::string& matrix, const char* ext) {
  std::string s = std::string(st.scene().id()) + (matrix.empty() ? "" : "-" + matrix);
  for (char& c : s)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_')) c = '_';
  return s + "." + ext;
}

void save(const std::string& name, const std::vector<unsigned char>& bytes, const char* mime) {
  std::string error;
  const std::string where = platform_download(name.c_str(), bytes, mime, &error);
  if (!error.empty()) g_export.note = error;
  else g_export.note = tr_format(where.empty() ? N_("Downloaded {0}")
                                               : N_("Saved {0}"), {where.empty() ? name : where});
}

std::vector<unsigned char> bytes_of(const std::string& s) { return std::vector<unsigned char>(s.begin(), s.end()); }

// The colour scale of a matrix: sequential over [0, max(1, max)] when nothing is negative, else diverging ±max|v|.
struct Range { bool diverging; float lo, hi; };
Range range_of(const Mat& m) {
  float lo = 0, hi = 0;
  for (Eigen::Index k = 0; k < m.size(); ++k)
    if (std::isfinite(m.data()[k])) { lo = std::min(lo, m.data()[k]); hi = std::max(hi, m.data()[k]); }
  if (lo < 0) { const float a = std::max(-lo, hi); return {true, -a, a}; }
  return {false, 0.f, std::max(1.f, hi)};
}
uint32_t sequential(float t) { return colormap(ColorScale::Sequential, t); }
uint32_t diverging(float t) { return colormap(ColorScale::Diverging, t); }

// One matrix as the chosen format.
void export_matrix(const PlaygroundState& st, const ExportMatrix& e, const std::string& kind, int decimals) {
  const std::vector<std::string>* rows = e.rows.empty() ? nullptr : &e.rows;
  const std::vector<std::string>* cols = e.cols.empty() ? nullptr : &e.cols;
  const Range r = range_of(e.m);
  if (kind == "csv") save(file_name(st, e.name, "csv"), bytes_of(matrix_csv(e.m, rows, cols)), "text/csv");
  else if (kind == "json") {
    json j = {{"scene", st.scene().id()}, {"name", e.name}, {"matrix", matrix_json(e.m, true)}};
    if (rows) j["row_labels"] = e.rows;
    if (cols) j["col_labels"] = e.cols;
    save(file_name(st, e.name, "json"), bytes_of(j.dump(1)), "application/json");
  } else if (kind == "npy") save(file_name(st, e.name, "npy"), write_npy(e.m), "application/octet-stream");
  else if (kind == "svg") {
    const std::string title = std::string(st.scene().id()) + ": " + e.name + "  (" + std::to_string(e.m.rows()) + " × " + std::to_string(e.m.cols()) + ")";
    save(file_name(st, e.name, "svg"), bytes_of(matrix_svg(e.m, rows, cols, title, r.lo, r.hi, r.diverging ? diverging : sequential,
                                                           e.m.rows() <= 40 && e.m.cols() <= 40 ? decimals : -1)),
         "image/svg+xml");
  } else if (kind == "pngmatrix") {
    // Cells of `c` pixels, no text (the SVG has the numbers and labels).
    const int c = std::clamp(static_cast<int>(512 / std::max<Eigen::Index>(1, std::max(e.m.rows(), e.m.cols()))), 1, 32);
    const int w = static_cast<int>(e.m.cols()) * c, h = static_cast<int>(e.m.rows()) * c;
    std::vector<unsigned char> px(static_cast<size_t>(w) * h * 4);
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        const float v = e.m(y / c, x / c);
        const float t = std::isinf(v) ? (v < 0 ? 0.f : 1.f) : std::clamp((v - r.lo) / (r.hi - r.lo), 0.f, 1.f);
        const uint32_t col = r.diverging ? diverging(t) : sequential(t);
        unsigned char* p = &px[(static_cast<size_t>(y) * w + x) * 4];
        p[0] = col & 0xFF; p[1] = (col >> 8) & 0xFF; p[2] = (col >> 16) & 0xFF; p[3] = 255;
      }
    save(file_name(st, e.name, "png"), encode_png(w, h, px), "image/png");
  } else if (kind == "latex") {
    g_export.note = platform_copy_text(matrix_latex(e.m, decimals)) ? tr("LaTeX copied to the clipboard.") : tr("The browser refused: select the text and copy it.");
  }
}

void choose_plot(const PlotDrawn& p) {
  g_export.crop = ImVec4(p.p0.x, p.p0.y, p.p1.x, p.p1.y);
  g_export.crop_name = "plot-" + p.title.substr(0, 40);
}

const ExportMatrix* find_matrix(const std::string& name) {
  for (const ExportMatrix& e : g_export.list)
    if (e.name == name) return &e;
  return nullptr;
}

}  // namespace

// Files picked or dropped: into the import scene, which is then shown; a bad file changes nothing and says why.
// Also the PNG of the view: the pixels arrive a frame after they were asked for. And requests from the page
// ("png", "csv:results.shown" …; platform_take_export_request) as if the dialog's buttons were pressed.
void files_poll(PlaygroundState& st, UiState& ui) {
  static bool registered = false;
  if (!registered) {
    add_translations(kExportStrings, sizeof kExportStrings / sizeof kExportStrings[0]);
    registered = true;
  }
  std::string name, error;
  std::vector<unsigned char> bytes;
  while (platform_take_file(&name, &bytes, &error)) {
    ImportScene* sc = st.get<ImportScene>();
    if (!sc) continue;
    if (!error.empty()) {
      // Refused by the page before it was read (over 64 MiB, unreadable): the name is the prefix, once; the
      // text was "attn.npy: attn.npy: the file has … bytes" when the name went into the message as well.
      LocalText t;
      t.prefix = name;
      t.tmpl = "{0}";
      t.args = {error};
      report(st, "import", t);
      continue;
    }
    const Status s = sc->import_file(name, bytes);
    if (!s) {
      report(st, "import", local_text(s, name));  // "attn.npy: the .npy file is truncated …"
      continue;
    }
    clear_report(st, "import");
    switch_scene(st, sc->id());
  }
  std::string what;
  while (platform_take_export_request(&what)) {
    if (what == "png" || what == "svg") {
      ui.show_export = true;
      g_export.crop = ImVec4(0, 0, 0, 0);
      g_export.crop_name = "view";
      (what == "png" ? g_export.png_stage : g_export.svg_stage) = 1;
      continue;
    }
    if (what.rfind("plot-png:", 0) == 0 || what.rfind("plot-svg:", 0) == 0) {  // "plot-svg:0": the first plot shown
      const std::vector<PlotDrawn> plots = plots_drawn();
      const int k = std::atoi(what.c_str() + 9);
      if (k < 0 || k >= static_cast<int>(plots.size())) { g_export.note = "no such plot: " + what; continue; }
      choose_plot(plots[static_cast<size_t>(k)]);
      ui.show_export = true;
      (what[5] == 'p' ? g_export.png_stage : g_export.svg_stage) = 1;
      continue;
    }
    const size_t colon = what.find(':');
    refresh(st);
    const ExportMatrix* e = colon == std::string::npos ? nullptr : find_matrix(what.substr(colon + 1));
    if (e) export_matrix(st, *e, what.substr(0, colon), ui.export_decimals);
    else g_export.note = "no such matrix: " + what;
  }
  if (g_export.png_stage == 1) {
    platform_request_capture();  // this frame, drawn without the dialog
    g_export.png_stage = 2;
  } else if (g_export.png_stage == 2) {
    int w = 0, h = 0;
    std::vector<unsigned char> rgba;
    if (platform_take_capture(&w, &h, &rgba)) {
      g_export.png_stage = 0;
      const ImVec4 c = g_export.crop;
      if (c.z > c.x && c.w > c.y && ui.frame.width > 0) {
        // One plot: its rectangle, in framebuffer pixels (the capture's), cut out of the view.
        const float k = static_cast<float>(w) / ui.frame.width;
        const int x0 = std::clamp(static_cast<int>(std::floor(c.x * k)), 0, w - 1), y0 = std::clamp(static_cast<int>(std::floor(c.y * k)), 0, h - 1);
        const int x1 = std::clamp(static_cast<int>(std::ceil(c.z * k)), x0 + 1, w), y1 = std::clamp(static_cast<int>(std::ceil(c.w * k)), y0 + 1, h);
        std::vector<unsigned char> cut(static_cast<size_t>(x1 - x0) * (y1 - y0) * 4);
        for (int y = y0; y < y1; ++y)
          std::copy_n(&rgba[(static_cast<size_t>(y) * w + x0) * 4], static_cast<size_t>(x1 - x0) * 4, &cut[static_cast<size_t>(y - y0) * (x1 - x0) * 4]);
        rgba = std::move(cut);
        w = x1 - x0;
        h = y1 - y0;
      }
      save(file_name(st, g_export.crop_name, "png"), encode_png(w, h, rgba), "image/png");
    } else {
      platform_request_frames(2);
    }
  }
  // The SVG: the next frame is drawn without anti-aliasing (ImGui's fringes and line texture would turn
  // into thick or half-transparent shapes; an SVG renderer anti-aliases by itself), and without the dialog.
  static bool aa_lines = true, aa_fill = true;
  if (g_export.svg_stage == 1) {
    ImGuiStyle& style = ImGui::GetStyle();
    aa_lines = style.AntiAliasedLines;
    aa_fill = style.AntiAliasedFill;
    style.AntiAliasedLines = style.AntiAliasedFill = false;  // from the next frame on
    platform_request_frames(3);
    g_export.svg_stage = 2;
  } else if (g_export.svg_stage == 2) {
    ImGuiStyle& style = ImGui::GetStyle();
    if (style.AntiAliasedLines || style.AntiAliasedFill) {
      // The style was made anew before this frame (a font rebuild: the language, the text size), so this
      // frame is anti-aliased: switch it off again and take the next one.
      style.AntiAliasedLines = style.AntiAliasedFill = false;
    } else {
      svg_snapshot_request(g_export.crop);  // this frame
      g_export.svg_stage = 3;
    }
    platform_request_frames(2);
  } else if (g_export.svg_stage == 3) {
    std::string svg;
    if (svg_snapshot_take(&svg)) {
      g_export.svg_stage = 0;
      ImGui::GetStyle().AntiAliasedLines = aa_lines;
      ImGui::GetStyle().AntiAliasedFill = aa_fill;
      save(file_name(st, g_export.crop_name, "svg"), bytes_of(svg), "image/svg+xml");
    } else {
      platform_request_frames(2);
    }
  }
}

void export_dialog(PlaygroundState& st, UiState& ui) {
  if (g_export.png_stage != 0 || g_export.svg_stage != 0) return;  // the view is being photographed: the dialog stays out
  refresh(st);
  const float fs = ImGui::GetFontSize();
  ImGui::SetNextWindowPos(ImVec2(ui.frame.width * 0.5f, fs * 3.f), ImGuiCond_Appearing, ImVec2(0.5f, 0.f));
  ImGui::SetNextWindowSize(ImVec2(std::min(ui.frame.width - fs, fs * 34.f), 0.f));
  if (!ImGui::Begin((std::string(tr("Export")) + "###export").c_str(), &ui.show_export,
                    ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_AlwaysAutoResize)) {
    ImGui::End();
    return;
  }
  ImGui::TextUnformatted(tr("The view"));
  const auto whole_view = []() {
    g_export.crop = ImVec4(0, 0, 0, 0);
    g_export.crop_name = "view";
  };
  if (ImGui::Button((std::string(tr("PNG of the view")) + "###png_view").c_str())) { whole_view(); g_export.png_stage = 1; }
  ImGui::SameLine();
  if (ImGui::Button((std::string(tr("SVG of the view")) + "###svg_view").c_str())) { whole_view(); g_export.svg_stage = 1; }
  if (ImGui::IsItemHovered())
    tooltip("%s", tr("Vector shapes and text (glyph outlines), matrices drawn as heatmaps as images of their cells: for slides and papers."));
  // The plots on screen (the √d_k sweep, the cost curves …): each one alone, cut out of the view.
  const std::vector<PlotDrawn> plots = plots_drawn();
  if (!plots.empty()) {
    ImGui::Spacing();
    ImGui::Separator();
    ImGui::TextUnformatted(tr("A plot of this view"));
    for (size_t k = 0; k < plots.size(); ++k) {
      ImGui::PushID(static_cast<int>(k));
      if (ImGui::Button("SVG")) { choose_plot(plots[k]); g_export.svg_stage = 1; }
      ImGui::SameLine();
      if (ImGui::Button("PNG")) { choose_plot(plots[k]); g_export.png_stage = 1; }
      ImGui::SameLine();
      ImGui::AlignTextToFramePadding();
      ImGui::TextUnformatted(plots[k].title.c_str());
      ImGui::PopID();
    }
  }
  ImGui::Spacing();
  ImGui::Separator();
  ImGui::TextUnformatted(tr("A matrix of this scene"));
  if (g_export.list.empty()) {
    ImGui::TextDisabled("%s", tr("no matrix in this scene's state"));
  } else {
    ui.export_choice = std::clamp(ui.export_choice, 0, static_cast<int>(g_export.list.size()) - 1);
    const ExportMatrix& cur = g_export.list[static_cast<size_t>(ui.export_choice)];
    const auto label = [](const ExportMatrix& e) {
      return e.name + "  (" + std::to_string(e.m.rows()) + " × " + std::to_string(e.m.cols()) + ")";
    };
    ImGui::SetNextItemWidth(-1);
    if (ImGui::BeginCombo("##matrix", label(cur).c_str())) {
      for (int k = 0; k < static_cast<int>(g_export.list.size()); ++k)
        if (ImGui::Selectable((label(g_export.list[static_cast<size_t>(k)]) + "###m" + std::to_string(k)).c_str(), k == ui.export_choice))
          ui.export_choice = k;
      ImGui::EndCombo();
    }
    ImGui::SetNextItemWidth(fs * 6.f);
    ImGui::SliderInt((std::string(tr("decimals")) + "###decimals").c_str(), &ui.export_decimals, 0, 6);
    const ExportMatrix& e = g_export.list[static_cast<size_t>(ui.export_choice)];
    if (ImGui::Button((std::string(tr("SVG heatmap")) + "###svg").c_str())) export_matrix(st, e, "svg", ui.export_decimals);
    ImGui::SameLine();
    if (ImGui::Button((std::string(tr("PNG heatmap")) + "###pngm").c_str())) export_matrix(st, e, "pngmatrix", ui.export_decimals);
    ImGui::SameLine();
    if (ImGui::Button("CSV###csv")) export_matrix(st, e, "csv", ui.export_decimals);
    ImGui::SameLine();
    if (ImGui::Button("JSON###json")) export_matrix(st, e, "json", ui.export_decimals);
    ImGui::SameLine();
    if (ImGui::Button("NumPy .npy###npy")) export_matrix(st, e, "npy", ui.export_decimals);
    ImGui::SameLine();
    if (ImGui::Button((std::string(tr("Copy LaTeX")) + "###latex").c_str())) export_matrix(st, e, "latex", ui.export_decimals);
  }
  ImGui::Spacing();
  ImGui::PushTextWrapPos(0.f);
  ImGui::TextDisabled("%s", tr("SVG and PNG for slides and papers; CSV, JSON and .npy for your own code. Matrices are those of the scene's state (getState)."));
  ImGui::PopTextWrapPos();
  if (!g_export.note.empty()) ImGui::TextUnformatted(g_export.note.c_str());
  ImGui::End();
  if (!ui.show_export) g_export.note.clear();
}

}  // namespace ap
