// GLSL sources from shaders/, embedded at build time by tools/embed_text.py (without a #version line:
// widgets/gl_program.cpp prepends "#version 300 es" on WebGL2 or "#version 330 core" natively).
#pragma once
namespace ap::shaders {
extern const char* const heatmap_vert;  // a matrix as one textured quad (widgets/heatmap.cpp)
extern const char* const heatmap_frag;
extern const char* const imgui_vert;    // Dear ImGui's triangles (platform/imgui_renderer.cpp)
extern const char* const imgui_frag;
}  // namespace ap::shaders
