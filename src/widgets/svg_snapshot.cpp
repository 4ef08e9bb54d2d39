#include "widgets/svg_snapshot.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <vector>

#include "widgets/heatmap.h"

// stb_truetype for the glyph outlines: the one copy of the program, ImGui's (src/platform/stb_truetype.cpp).
#include <imstb_truetype.h>
// The PNG encoder for heatmaps' cells (the export dialog uses it too). A system header: its warnings are not
// ours.
#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STBI_WRITE_NO_STDIO
#include <stb/stb_image_write.h>

namespace ap {

namespace {

std::string num(float v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.2f", static_cast<double>(v));
  // "12.50" -> "12.5", "3.00" -> "3": a frame has tens of thousands of numbers.
  char* e = b + std::strlen(b) - 1;
  while (e > b && *e == '0') *e-- = '\0';
  if (*e == '.') *e = '\0';
  return std::strcmp(b, "-0") == 0 ? "0" : b;
}

// ImU32 is 0xAABBGGRR.
std::string fill_attr(ImU32 c) {
  char b[64];
  const unsigned a = (c >> 24) & 0xFF;
  std::snprintf(b, sizeof b, "fill=\"#%02x%02x%02x\"", c & 0xFF, (c >> 8) & 0xFF, (c >> 16) & 0xFF);
  std::string s = b;
  if (a != 255) s += " fill-opacity=\"" + num(a / 255.f) + "\"";
  return s;
}

std::string base64(const std::vector<unsigned char>& in) {
  static const char* k = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  for (size_t i = 0; i < in.size(); i += 3) {
    const unsigned n = (in[i] << 16) | ((i + 1 < in.size() ? in[i + 1] : 0) << 8) | (i + 2 < in.size() ? in[i + 2] : 0);
    out += k[(n >> 18) & 63];
    out += k[(n >> 12) & 63];
    out += i + 1 < in.size() ? k[(n >> 6) & 63] : '=';
    out += i + 2 < in.size() ? k[n & 63] : '=';
  }
  return out;
}

// A heatmap's cells as an <image> (one pixel per cell, drawn without smoothing), the same colours as the
// shader.
std::string heatmap_image(const HeatmapDrawn& h) {
  const Mat& m = *h.m;
  const int rows = static_cast<int>(m.rows()), cols = static_cast<int>(m.cols());
  std::vector<unsigned char> px(static_cast<size_t>(rows) * cols * 4);
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) {
      const ImU32 c = heatmap_cell_color(m, i, j, h.style);
      unsigned char* p = &px[(static_cast<size_t>(i) * cols + j) * 4];
      p[0] = c & 0xFF; p[1] = (c >> 8) & 0xFF; p[2] = (c >> 16) & 0xFF; p[3] = 255;
    }
  const std::vector<unsigned char> png = encode_png(cols, rows, px);
  return "<image x=\"" + num(h.p0.x) + "\" y=\"" + num(h.p0.y) + "\" width=\"" + num(h.p1.x - h.p0.x) + "\" height=\"" +
         num(h.p1.y - h.p0.y) + "\" preserveAspectRatio=\"none\" style=\"image-rendering:pixelated\" href=\"data:image/png;base64," +
         base64(png) + "\"/>\n";
}

// Where each glyph of the atlas came from: the font source (ImFontConfig) whose outline it is.
struct GlyphSource {
  const ImFont* font = nullptr;
  const ImFontGlyph* glyph = nullptr;
  int config = -1;   // index into the atlas's ConfigData
  int index = 0;     // the glyph's index in that font file
};

class Glyphs {
 public:
  explicit Glyphs(ImFontAtlas* atlas) : atlas_(atlas) {
    infos_.resize(static_cast<size_t>(atlas->ConfigData.Size));
    ok_.assign(static_cast<size_t>(atlas->ConfigData.Size), false);
    for (int c = 0; c < atlas->ConfigData.Size; ++c) {
      const ImFontConfig& cfg = atlas->ConfigData[c];
      const auto* data = static_cast<const unsigned char*>(cfg.FontData);
      const int offset = stbtt_GetFontOffsetForIndex(data, cfg.FontNo);
      ok_[static_cast<size_t>(c)] = offset >= 0 && stbtt_InitFont(&infos_[static_cast<size_t>(c)], data, offset);
    }
    for (int f = 0; f < atlas->Fonts.Size; ++f) {
      const ImFont* font = atlas->Fonts[f];
      for (int g = 0; g < font->Glyphs.Size; ++g) {
        const ImFontGlyph& gl = font->Glyphs[g];
        by_uv_[key(gl.U0, gl.V0)] = {font, &gl, -1, 0};
      }
    }
  }

  // The glyph whose atlas rectangle starts at (u0, v0), with its source font resolved (first source that
  // has the character, as ImGui merges them); nullptr for anything else (a line texture, the white texel).
  const GlyphSource* find(float u0, float v0) {
    const auto it = by_uv_.find(key(u0, v0));
    if (it == by_uv_.end()) return nullptr;
    GlyphSource& s = it->second;
    if (s.config == -1) {
      s.config = -2;
      const unsigned cp = s.glyph->Codepoint;
      for (int c = 0; c < atlas_->ConfigData.Size && s.config == -2; ++c) {
        const ImFontConfig& cfg = atlas_->ConfigData[c];
        if (cfg.DstFont != s.font || !ok_[static_cast<size_t>(c)]) continue;
        bool in_ranges = !cfg.GlyphRanges;
        for (const ImWchar* r = cfg.GlyphRanges; r && r[0]; r += 2) in_ranges = in_ranges || (cp >= r[0] && cp <= r[1]);
        if (!in_ranges) continue;
        const int gi = stbtt_FindGlyphIndex(&infos_[static_cast<size_t>(c)], static_cast<int>(cp));
        if (gi != 0) { s.config = c; s.index = gi; }
      }
    }
    return s.config >= 0 ? &s : nullptr;
  }

  // The outline in font units (y up) as path data; "" for a glyph without one (a space).
  std::string outline(const GlyphSource& s) {
    stbtt_vertex* v = nullptr;
    const int n = stbtt_GetGlyphShape(&infos_[static_cast<size_t>(s.config)], s.index, &v);
    std::string d;
    for (int k = 0; k < n; ++k) {
      const stbtt_vertex& p = v[k];
      char b[96];
      if (p.type == STBTT_vmove) std::snprintf(b, sizeof b, "M%d %d", p.x, p.y);
      else if (p.type == STBTT_vline) std::snprintf(b, sizeof b, "L%d %d", p.x, p.y);
      else if (p.type == STBTT_vcurve) std::snprintf(b, sizeof b, "Q%d %d %d %d", p.cx, p.cy, p.x, p.y);
      else std::snprintf(b, sizeof b, "C%d %d %d %d %d %d", p.cx, p.cy, p.cx1, p.cy1, p.x, p.y);
      d += b;
    }
    stbtt_FreeShape(&infos_[static_cast<size_t>(s.config)], v);
    return d;
  }

  // Font units -> the font's pixels: x right from the pen, y down from the line's top (baseline at the
  // rounded ascent, as ImGui places glyphs).
  void font_to_pixels(const GlyphSource& s, float* scale, float* baseline) const {
    const ImFontConfig& cfg = atlas_->ConfigData[s.config];
    *scale = stbtt_ScaleForPixelHeight(&infos_[static_cast<size_t>(s.config)], cfg.SizePixels);
    *baseline = std::round(s.font->Ascent) + cfg.GlyphOffset.y;
  }

 private:
  static unsigned long long key(float u, float v) {
    unsigned a, b;
    std::memcpy(&a, &u, 4);
    std::memcpy(&b, &v, 4);
    return (static_cast<unsigned long long>(a) << 32) | b;
  }
  ImFontAtlas* atlas_;
  std::vector<stbtt_fontinfo> infos_;
  std::vector<bool> ok_;
  std::map<unsigned long long, GlyphSource> by_uv_;
};

bool same(ImVec2 a, ImVec2 b) { return a.x == b.x && a.y == b.y; }

}  // namespace

std::string draw_data_svg(const ImDrawData& dd, ImVec4 background, ImVec4 crop) {
  const ImVec2 o = dd.DisplayPos, size = dd.DisplaySize;
  ImFontAtlas* atlas = ImGui::GetIO().Fonts;
  const ImVec2 white = atlas->TexUvWhitePixel;
  Glyphs glyphs(atlas);
  std::map<const ImFontGlyph*, std::string> glyph_ids;  // outlines defined once, placed with <use>
  std::string defs, body;
  std::map<std::string, std::string> clip_ids;
  std::string open_clip;   // the clip of the open <g>
  std::string path_fill;   // the fill of the open <path> of solid triangles ("" = none open)
  std::string path_d;
  const auto flush_path = [&]() {
    if (!path_fill.empty() && !path_d.empty()) body += "<path " + path_fill + " d=\"" + path_d + "\"/>\n";
    path_fill.clear();
    path_d.clear();
  };
  const auto set_clip = [&](const ImVec4& r) {
    const std::string rect = "x=\"" + num(r.x - o.x) + "\" y=\"" + num(r.y - o.y) + "\" width=\"" + num(r.z - r.x) +
                             "\" height=\"" + num(r.w - r.y) + "\"";
    auto it = clip_ids.find(rect);
    if (it == clip_ids.end()) {
      it = clip_ids.emplace(rect, "c" + std::to_string(clip_ids.size())).first;
      defs += "<clipPath id=\"" + it->second + "\"><rect " + rect + "/></clipPath>\n";
    }
    if (it->second == open_clip) return;
    flush_path();
    if (!open_clip.empty()) body += "</g>\n";
    open_clip = it->second;
    body += "<g clip-path=\"url(#" + open_clip + ")\">\n";
  };

  for (int n = 0; n < dd.CmdListsCount; ++n) {
    const ImDrawList* list = dd.CmdLists[n];
    const ImDrawVert* vtx = list->VtxBuffer.Data;
    for (int c = 0; c < list->CmdBuffer.Size; ++c) {
      const ImDrawCmd& cmd = list->CmdBuffer[c];
      if (cmd.ClipRect.z <= cmd.ClipRect.x || cmd.ClipRect.w <= cmd.ClipRect.y) continue;
      if (cmd.UserCallback) {
        HeatmapDrawn h;
        if (heatmap_drawn(cmd, &h) && h.m->rows() > 0 && h.m->cols() > 0) {
          set_clip(cmd.ClipRect);
          flush_path();
          HeatmapDrawn shifted = h;
          shifted.p0 = ImVec2(h.p0.x - o.x, h.p0.y - o.y);
          shifted.p1 = ImVec2(h.p1.x - o.x, h.p1.y - o.y);
          body += heatmap_image(shifted);
        }
        continue;
      }
      set_clip(cmd.ClipRect);
      const ImDrawIdx* idx = list->IdxBuffer.Data + cmd.IdxOffset;
      int last_glyph_corner = -1;
      for (unsigned t = 0; t + 2 < cmd.ElemCount; t += 3) {
        const ImDrawVert& a = vtx[idx[t]];
        const ImDrawVert& b = vtx[idx[t + 1]];
        const ImDrawVert& cc = vtx[idx[t + 2]];
        const bool solid = same(a.uv, white) && same(b.uv, white) && same(cc.uv, white);
        if (!solid) {
          // A glyph: two triangles share its first corner; the first of them places the outline.
          const float u0 = std::min({a.uv.x, b.uv.x, cc.uv.x}), v0 = std::min({a.uv.y, b.uv.y, cc.uv.y});
          if (const GlyphSource* g = glyphs.find(u0, v0)) {
            if (static_cast<int>(idx[t]) == last_glyph_corner) continue;
            last_glyph_corner = static_cast<int>(idx[t]);
            // The affine map atlas (u, v) -> screen from the triangle's three corners.
            const float du1 = b.uv.x - a.uv.x, dv1 = b.uv.y - a.uv.y, du2 = cc.uv.x - a.uv.x, dv2 = cc.uv.y - a.uv.y;
            const float det = du1 * dv2 - du2 * dv1;
            if (std::fabs(det) < 1e-12f) continue;
            const float ex = b.pos.x - a.pos.x, ey = b.pos.y - a.pos.y, fx = cc.pos.x - a.pos.x, fy = cc.pos.y - a.pos.y;
            // screen = a.pos + M·(uv − a.uv), M = [e f]·[d1 d2]⁻¹
            const float m00 = (ex * dv2 - fx * dv1) / det, m01 = (fx * du1 - ex * du2) / det;
            const float m10 = (ey * dv2 - fy * dv1) / det, m11 = (fy * du1 - ey * du2) / det;
            const ImFontGlyph& gl = *g->glyph;
            float s, base;
            glyphs.font_to_pixels(*g, &s, &base);
            // Font units (x, y up) -> font pixels (s·x, base − s·y) -> atlas uv -> screen: all linear.
            const float ku = (gl.U1 - gl.U0) / std::max(1e-6f, gl.X1 - gl.X0), kv = (gl.V1 - gl.V0) / std::max(1e-6f, gl.Y1 - gl.Y0);
            const auto to_screen = [&](float x, float y) {
              const float px = s * x, py = base - s * y;
              const float u = gl.U0 + (px - gl.X0) * ku - a.uv.x, v = gl.V0 + (py - gl.Y0) * kv - a.uv.y;
              return ImVec2(a.pos.x + m00 * u + m01 * v - o.x, a.pos.y + m10 * u + m11 * v - o.y);
            };
            const ImVec2 p0 = to_screen(0, 0), px = to_screen(1, 0), py = to_screen(0, 1);
            auto id = glyph_ids.find(&gl);
            if (id == glyph_ids.end()) {
              const std::string d = glyphs.outline(*g);
              id = glyph_ids.emplace(&gl, d.empty() ? std::string() : "g" + std::to_string(glyph_ids.size())).first;
              if (!d.empty()) defs += "<path id=\"" + id->second + "\" d=\"" + d + "\"/>\n";
            }
            if (id->second.empty()) continue;
            flush_path();
            char tr[200];
            std::snprintf(tr, sizeof tr, "matrix(%g %g %g %g %g %g)", static_cast<double>(px.x - p0.x), static_cast<double>(px.y - p0.y),
                          static_cast<double>(py.x - p0.x), static_cast<double>(py.y - p0.y), static_cast<double>(p0.x),
                          static_cast<double>(p0.y));
            body += "<use href=\"#" + id->second + "\" transform=\"" + tr + "\" " + fill_attr(a.col) + "/>\n";
            continue;
          }
          // Anything else textured (ImGui's anti-aliased line texture): drawn as a solid triangle below.
        }
        // A solid triangle (the export draws its frame without ImGui's anti-aliasing; should a fringe
        // remain, a corner fully transparent, it is left to the SVG renderer's own anti-aliasing). A
        // gradient (colour legends) takes its corners' mean colour.
        const ImU32 cols[3] = {a.col, b.col, cc.col};
        bool fringe = false;
        unsigned sum[4] = {0, 0, 0, 0};
        for (ImU32 col : cols) {
          fringe = fringe || ((col >> 24) & 0xFF) == 0;
          for (int k = 0; k < 4; ++k) sum[k] += (col >> (8 * k)) & 0xFF;
        }
        if (fringe) continue;
        ImU32 mean = 0;
        for (int k = 0; k < 4; ++k) mean |= ((sum[k] + 1) / 3) << (8 * k);
        const std::string f = fill_attr(mean);
        if (f != path_fill) { flush_path(); path_fill = f; }
        path_d += "M" + num(a.pos.x - o.x) + " " + num(a.pos.y - o.y) + "L" + num(b.pos.x - o.x) + " " + num(b.pos.y - o.y) + "L" +
                  num(cc.pos.x - o.x) + " " + num(cc.pos.y - o.y) + "Z";
      }
    }
  }
  flush_path();
  if (!open_clip.empty()) body += "</g>\n";
  char bg[16];
  std::snprintf(bg, sizeof bg, "#%02x%02x%02x", static_cast<int>(background.x * 255.f + 0.5f), static_cast<int>(background.y * 255.f + 0.5f),
                static_cast<int>(background.z * 255.f + 0.5f));
  // The page's rectangle, or the crop's (everything is still in the file; the view box shows the crop).
  float x = 0, y = 0, w = size.x, h = size.y;
  if (crop.z > crop.x && crop.w > crop.y) { x = crop.x - o.x; y = crop.y - o.y; w = crop.z - crop.x; h = crop.w - crop.y; }
  return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + num(w) + "\" height=\"" + num(h) + "\" viewBox=\"" + num(x) + " " +
         num(y) + " " + num(w) + " " + num(h) + "\">\n<defs>\n" + defs + "</defs>\n<rect x=\"" + num(x) + "\" y=\"" + num(y) +
         "\" width=\"" + num(w) + "\" height=\"" + num(h) + "\" fill=\"" + bg + "\"/>\n" + body + "</svg>\n";
}

std::vector<unsigned char> encode_png(int width, int height, const std::vector<unsigned char>& rgba) {
  std::vector<unsigned char> png;
  stbi_write_png_to_func(
      [](void* ctx, void* data, int size) {
        auto* out = static_cast<std::vector<unsigned char>*>(ctx);
        out->insert(out->end(), static_cast<unsigned char*>(data), static_cast<unsigned char*>(data) + size);
      },
      &png, width, height, 4, rgba.data(), width * 4);
  return png;
}

namespace {
bool g_asked = false, g_ready = false;
ImVec4 g_crop;
std::string g_svg;
}  // namespace

void svg_snapshot_request(ImVec4 crop) {
  g_asked = true;
  g_crop = crop;
}
bool svg_snapshot_pending() { return g_asked; }

void svg_snapshot_after_render(const ImDrawData* dd, ImVec4 background) {
  if (!g_asked || !dd || !dd->Valid) return;
  g_asked = false;
  g_svg = draw_data_svg(*dd, background, g_crop);
  g_ready = true;
}

bool svg_snapshot_take(std::string* svg) {
  if (!g_ready) return false;
  g_ready = false;
  *svg = std::move(g_svg);
  g_svg.clear();
  return true;
}

}  // namespace ap
