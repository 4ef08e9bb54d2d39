#include "platform/imgui_renderer.h"

#include <cstddef>
#include <cstdint>

#include "widgets/gl.h"
#include "widgets/gl_program.h"
#include "widgets/shaders_data.h"

namespace ap {

namespace {

struct Renderer {
  GLuint program = 0, vao = 0, vbo = 0, ebo = 0, font = 0;
  GLint u_proj = -1, u_texture = -1, u_white_uv = -1;
  int fb_w = 0, fb_h = 0;
} g;

// The whole state ImGui's triangles need. Called at the start of a frame and after a callback that asks
// for it (ImDrawCallback_ResetRenderState), never by reading the current state.
void set_state(const ImDrawData* dd) {
  glViewport(0, 0, g.fb_w, g.fb_h);
  glEnable(GL_BLEND);
  glBlendEquation(GL_FUNC_ADD);
  glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
  glDisable(GL_CULL_FACE);
  glDisable(GL_DEPTH_TEST);
  glDisable(GL_STENCIL_TEST);
  glEnable(GL_SCISSOR_TEST);
  glUseProgram(g.program);
  // Orthographic projection: ImGui's display rectangle -> clip space, y down. Column-major for GL.
  const float L = dd->DisplayPos.x, R = dd->DisplayPos.x + dd->DisplaySize.x;
  const float T = dd->DisplayPos.y, B = dd->DisplayPos.y + dd->DisplaySize.y;
  const float proj[16] = {2.f / (R - L), 0, 0, 0, 0, 2.f / (T - B), 0, 0, 0, 0, -1.f, 0,
                          (R + L) / (L - R), (T + B) / (B - T), 0, 1.f};
  glUniformMatrix4fv(g.u_proj, 1, GL_FALSE, proj);
  glUniform1i(g.u_texture, 0);
  const ImVec2 white = ImGui::GetIO().Fonts->TexUvWhitePixel;  // solid shapes: no texture fetch (imgui.frag)
  glUniform2f(g.u_white_uv, white.x, white.y);
  glActiveTexture(GL_TEXTURE0);
  glBindVertexArray(g.vao);  // holds the attribute layout and the element buffer
  glBindBuffer(GL_ARRAY_BUFFER, g.vbo);
}

}  // namespace

bool imgui_renderer_init() {
  g.program = gl_program(shaders::imgui_vert, shaders::imgui_frag, "imgui");
  if (!g.program) return false;
  g.u_proj = glGetUniformLocation(g.program, "u_proj");
  g.u_texture = glGetUniformLocation(g.program, "u_texture");
  g.u_white_uv = glGetUniformLocation(g.program, "u_white_uv");
  glGenVertexArrays(1, &g.vao);
  glGenBuffers(1, &g.vbo);
  glGenBuffers(1, &g.ebo);
  glBindVertexArray(g.vao);
  glBindBuffer(GL_ARRAY_BUFFER, g.vbo);
  glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, g.ebo);
  glEnableVertexAttribArray(0);
  glEnableVertexAttribArray(1);
  glEnableVertexAttribArray(2);
  const GLsizei stride = sizeof(ImDrawVert);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, stride, reinterpret_cast<void*>(offsetof(ImDrawVert, pos)));
  glVertexAttribPointer(1, 2, GL_FLOAT, GL_FALSE, stride, reinterpret_cast<void*>(offsetof(ImDrawVert, uv)));
  glVertexAttribPointer(2, 4, GL_UNSIGNED_BYTE, GL_TRUE, stride, reinterpret_cast<void*>(offsetof(ImDrawVert, col)));
  glBindVertexArray(0);
  ImGuiIO& io = ImGui::GetIO();
  io.BackendRendererName = "attention_playground_gl";
  // No ImGuiBackendFlags_RendererHasVtxOffset: WebGL2 has no glDrawElementsBaseVertex, so ImGui keeps
  // each draw list under 65,536 vertices (16-bit indices).
  return true;
}

void imgui_renderer_fonts() {
  ImGuiIO& io = ImGui::GetIO();
  unsigned char* pixels = nullptr;
  int w = 0, h = 0;
  // One channel (coverage), not RGBA: a quarter of the upload, and imgui.frag reads .r.
  io.Fonts->GetTexDataAsAlpha8(&pixels, &w, &h);
  if (g.font) glDeleteTextures(1, &g.font);
  glGenTextures(1, &g.font);
  glBindTexture(GL_TEXTURE_2D, g.font);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_R8, w, h, 0, GL_RED, GL_UNSIGNED_BYTE, pixels);
  io.Fonts->SetTexID(reinterpret_cast<ImTextureID>(static_cast<intptr_t>(g.font)));
}

void imgui_renderer_render(ImDrawData* dd, int fb_w, int fb_h) {
  if (!g.program || fb_w <= 0 || fb_h <= 0 || dd->DisplaySize.x <= 0 || dd->DisplaySize.y <= 0) return;
  g.fb_w = fb_w;
  g.fb_h = fb_h;
  const ImVec2 origin = dd->DisplayPos;
  const ImVec2 scale(fb_w / dd->DisplaySize.x, fb_h / dd->DisplaySize.y);
  set_state(dd);
  for (int n = 0; n < dd->CmdListsCount; ++n) {
    const ImDrawList* list = dd->CmdLists[n];
    // Fresh buffers each list (orphaning): no wait on the GPU still reading the previous contents.
    glBindVertexArray(g.vao);  // the element buffer binding lives in it
    glBindBuffer(GL_ARRAY_BUFFER, g.vbo);
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(list->VtxBuffer.Size) * sizeof(ImDrawVert), list->VtxBuffer.Data,
                 GL_STREAM_DRAW);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, static_cast<GLsizeiptr>(list->IdxBuffer.Size) * sizeof(ImDrawIdx),
                 list->IdxBuffer.Data, GL_STREAM_DRAW);
    for (int c = 0; c < list->CmdBuffer.Size; ++c) {
      const ImDrawCmd& cmd = list->CmdBuffer[c];
      if (cmd.UserCallback) {
        if (cmd.UserCallback == ImDrawCallback_ResetRenderState) set_state(dd);
        else cmd.UserCallback(list, &cmd);
        continue;
      }
      // Clip rectangle in framebuffer pixels, y up.
      const float x0 = (cmd.ClipRect.x - origin.x) * scale.x, y0 = (cmd.ClipRect.y - origin.y) * scale.y;
      const float x1 = (cmd.ClipRect.z - origin.x) * scale.x, y1 = (cmd.ClipRect.w - origin.y) * scale.y;
      if (x1 <= x0 || y1 <= y0) continue;
      glScissor(static_cast<GLint>(x0), static_cast<GLint>(fb_h - y1), static_cast<GLsizei>(x1 - x0),
                static_cast<GLsizei>(y1 - y0));
      glBindTexture(GL_TEXTURE_2D, static_cast<GLuint>(reinterpret_cast<intptr_t>(cmd.GetTexID())));
      glDrawElements(GL_TRIANGLES, static_cast<GLsizei>(cmd.ElemCount),
                     sizeof(ImDrawIdx) == 2 ? GL_UNSIGNED_SHORT : GL_UNSIGNED_INT,
                     reinterpret_cast<void*>(static_cast<intptr_t>(cmd.IdxOffset * sizeof(ImDrawIdx))));
    }
  }
  glDisable(GL_SCISSOR_TEST);
}

void imgui_renderer_shutdown() {
  if (g.font) glDeleteTextures(1, &g.font);
  if (g.vbo) glDeleteBuffers(1, &g.vbo);
  if (g.ebo) glDeleteBuffers(1, &g.ebo);
  if (g.vao) glDeleteVertexArrays(1, &g.vao);
  if (g.program) glDeleteProgram(g.program);
  g = Renderer{};
}

}  // namespace ap
