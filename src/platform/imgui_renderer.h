// Draws Dear ImGui's draw data with WebGL2 / GL 3.3 core, without reading any GL state back.
//
// Why not the OpenGL3 backend that comes with Dear ImGui: it saves and restores the whole GL state around
// every frame with glGetIntegerv / glIsEnabled (about 25 queries). In a browser each such query is a
// synchronous round trip that waits for the GPU process to finish the previous frame: most of the main thread
// went there (README, "Measurements behind the code"). This program owns the context, so nothing needs
// restoring: the renderer sets the state it needs, every frame, and never asks.
// User callbacks (the heatmap shader) set their own state; ImDrawCallback_ResetRenderState hands it back.
#pragma once
#include <imgui.h>

namespace ap {

bool imgui_renderer_init();        // program, buffers, vertex array; false if the shaders fail
void imgui_renderer_fonts();       // (re)creates the font texture from io.Fonts
void imgui_renderer_render(ImDrawData* draw_data, int framebuffer_width, int framebuffer_height);
void imgui_renderer_shutdown();

}  // namespace ap
