// GLSL sources from shaders/, embedded at build time by tools/embed_text.py (without a #version line:
// widgets/heatmap.cpp prepends "#version 300 es" on WebGL2 or "#version 330 core" natively).
#pragma once
namespace ap::shaders {
extern const char* const heatmap_vert;
extern const char* const heatmap_frag;
}  // namespace ap::shaders
