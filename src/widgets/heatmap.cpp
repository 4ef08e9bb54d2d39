#include "heatmap.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <deque>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "widgets/gl.h"
#include "widgets/gl_program.h"
#include "widgets/shaders_data.h"

namespace ap {

namespace {

struct Texture {
  GLuint id = 0;
  int rows = 0, cols = 0;
  long long version = -1;
};

struct DrawRecord {
  GLuint values = 0;
  int rows = 0, cols = 0;
  ImVec2 p0, p1;
  HeatmapStyle style;
  const Mat* m = nullptr;  // for the SVG of the view
};

struct Gl {
  bool started = false, tried = false, ok = false;  // started: the compile was issued (heatmap_prepare)
  GLuint program = 0, vao = 0, lut[2] = {0, 0};
  int lut_palette = -1;  // colormap_palette_version() the lookup textures were made for
  GLint u_rect, u_values, u_lut, u_range, u_size, u_reveal, u_highlight, u_pending, u_hidden;
  std::map<std::pair<const void*, int>, Texture> textures;
  std::deque<DrawRecord> records;  // deque: pointers stay valid while we append during the frame
} g;

void init_gl() {
  g.tried = true;
  if (!g.started) heatmap_prepare();
  g.program = gl_program_finish(g.program, "heatmap");
  if (!g.program) return;  // heatmap_draw falls back to rectangles
  g.u_rect = glGetUniformLocation(g.program, "u_rect");
  g.u_values = glGetUniformLocation(g.program, "u_values");
  g.u_lut = glGetUniformLocation(g.program, "u_lut");
  g.u_range = glGetUniformLocation(g.program, "u_range");
  g.u_size = glGetUniformLocation(g.program, "u_size");
  g.u_reveal = glGetUniformLocation(g.program, "u_reveal");
  g.u_highlight = glGetUniformLocation(g.program, "u_highlight");
  g.u_pending = glGetUniformLocation(g.program, "u_pending");
  g.u_hidden = glGetUniformLocation(g.program, "u_hidden");
  glGenVertexArrays(1, &g.vao);  // empty: corners come from gl_VertexID
  glGenTextures(2, g.lut);
  g.ok = true;
}

// One 256×1 lookup texture per colour scale, from the same function the numbered cells use; made again
// when the palette changes (the colour-blind-safe option).
void fill_luts() {
  g.lut_palette = colormap_palette_version();
  for (int s = 0; s < 2; ++s) {
    std::vector<uint32_t> px(256);
    for (int i = 0; i < 256; ++i) px[i] = colormap(static_cast<ColorScale>(s), i / 255.f);
    glBindTexture(GL_TEXTURE_2D, g.lut[s]);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 256, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE, px.data());  // ImU32 = RGBA bytes
  }
}

void upload(Texture& t, const Mat& m, long long version) {
  if (!t.id) glGenTextures(1, &t.id);
  glBindTexture(GL_TEXTURE_2D, t.id);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  // Row-major: m.data() is row 0 then row 1 …, exactly GL's texel order (x fastest) for cols × rows.
  glTexImage2D(GL_TEXTURE_2D, 0, GL_R32F, static_cast<GLsizei>(m.cols()), static_cast<GLsizei>(m.rows()), 0, GL_RED,
               GL_FLOAT, m.data());
  t.rows = static_cast<int>(m.rows());
  t.cols = static_cast<int>(m.cols());
  t.version = version;
}

void draw_callback(const ImDrawList*, const ImDrawCmd* cmd) {
  const DrawRecord& r = *static_cast<const DrawRecord*>(cmd->UserCallbackData);
  const ImDrawData* dd = ImGui::GetDrawData();
  const ImVec2 pos = dd->DisplayPos, size = dd->DisplaySize, fb = dd->FramebufferScale;
  const int fb_h = static_cast<int>(size.y * fb.y);
  // Scissor to the window's clip rectangle (ImGui coordinates -> framebuffer pixels, y up).
  const ImVec4 c = cmd->ClipRect;
  glEnable(GL_SCISSOR_TEST);
  glScissor(static_cast<int>((c.x - pos.x) * fb.x), static_cast<int>(fb_h - (c.w - pos.y) * fb.y),
            static_cast<int>((c.z - c.x) * fb.x), static_cast<int>((c.w - c.y) * fb.y));
  const auto nx = [&](float x) { return (x - pos.x) / size.x * 2.f - 1.f; };
  const auto ny = [&](float y) { return 1.f - (y - pos.y) / size.y * 2.f; };
  glDisable(GL_BLEND);
  glUseProgram(g.program);
  glBindVertexArray(g.vao);
  glActiveTexture(GL_TEXTURE1);
  glBindTexture(GL_TEXTURE_2D, g.lut[static_cast<int>(r.style.scale)]);
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, r.values);
  glUniform1i(g.u_values, 0);
  glUniform1i(g.u_lut, 1);
  glUniform4f(g.u_rect, nx(r.p0.x), ny(r.p0.y), nx(r.p1.x), ny(r.p1.y));
  glUniform2f(g.u_range, r.style.lo, r.style.hi);
  glUniform2i(g.u_size, r.cols, r.rows);
  glUniform1f(g.u_reveal, static_cast<float>(std::min(r.style.reveal, 1e30)));
  glUniform2i(g.u_highlight, r.style.hl_col, r.style.hl_row);
  glUniform4f(g.u_pending, 0.90f, 0.90f, 0.92f, 1.f);
  glUniform4f(g.u_hidden, 0.55f, 0.55f, 0.58f, 1.f);
  glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
}

}  // namespace

void heatmap_begin_frame() { g.records.clear(); }

ImU32 heatmap_cell_color(const Mat& m, int i, int j, const HeatmapStyle& style) {
  const float x = m(i, j);
  if (double(i) * static_cast<double>(m.cols()) + j >= style.reveal) return IM_COL32(229, 229, 234, 255);
  if (std::isinf(x) && x < 0) return IM_COL32(140, 140, 148, 255);
  return colormap(style.scale, colormap_t(x, style.lo, style.hi));
}

bool heatmap_drawn(const ImDrawCmd& cmd, HeatmapDrawn* out) {
  if (cmd.UserCallback != draw_callback || !cmd.UserCallbackData) return false;
  const auto* r = static_cast<const DrawRecord*>(cmd.UserCallbackData);
  *out = {r->m, r->p0, r->p1, r->style};
  return r->m != nullptr;
}

void heatmap_prepare() {
  if (g.started) return;
  g.started = true;
  g.program = gl_program_start(shaders::heatmap_vert, shaders::heatmap_frag);
}

bool heatmap_available() {
  if (!g.tried) init_gl();
  return g.ok;
}

namespace {
// Without the shader: the same colours as rectangles, at most 128 × 128 blocks.
void draw_rectangles(ImDrawList* dl, const Mat& m, ImVec2 p0, ImVec2 p1, const HeatmapStyle& st) {
  const int rows = static_cast<int>(m.rows()), cols = static_cast<int>(m.cols());
  const int br = std::min(rows, 128), bc = std::min(cols, 128);
  const float w = (p1.x - p0.x) / bc, h = (p1.y - p0.y) / br;
  for (int a = 0; a < br; ++a)
    for (int b = 0; b < bc; ++b) {
      const int i = a * rows / br, j = b * cols / bc;
      const ImU32 c = heatmap_cell_color(m, i, j, st);
      dl->AddRectFilled(ImVec2(p0.x + b * w, p0.y + a * h), ImVec2(p0.x + (b + 1) * w, p0.y + (a + 1) * h), c);
    }
}
}  // namespace

void heatmap_draw(ImDrawList* dl, const HeatmapKey& key, const Mat& m, ImVec2 p0, ImVec2 p1, const HeatmapStyle& style) {
  if (m.rows() == 0 || m.cols() == 0) return;
  if (!heatmap_available()) { draw_rectangles(dl, m, p0, p1, style); return; }
  if (g.lut_palette != colormap_palette_version()) fill_luts();
  Texture& t = g.textures[{key.owner, key.item}];
  if (t.version != key.version || t.rows != m.rows() || t.cols != m.cols()) upload(t, m, key.version);
  g.records.push_back({t.id, t.rows, t.cols, p0, p1, style, &m});
  dl->AddCallback(draw_callback, &g.records.back());
  dl->AddCallback(ImDrawCallback_ResetRenderState, nullptr);  // hand GL state back to the ImGui backend
}

void heatmap_release(const void* owner) {
  for (auto it = g.textures.begin(); it != g.textures.end();) {
    if (it->first.first == owner) {
      if (it->second.id) glDeleteTextures(1, &it->second.id);
      it = g.textures.erase(it);
    } else {
      ++it;
    }
  }
}

void heatmap_shutdown() {
  for (auto& [k, t] : g.textures)
    if (t.id) glDeleteTextures(1, &t.id);
  g.textures.clear();
  if (g.lut[0]) glDeleteTextures(2, g.lut);
  if (g.vao) glDeleteVertexArrays(1, &g.vao);
  if (g.program) glDeleteProgram(g.program);
  g = Gl{};
}

}  // namespace ap
