// Dear ImGui's vertices: position in pixels, texture coordinate (the font atlas, whose white texel serves
// every solid shape), colour.
layout (location = 0) in vec2 a_pos;
layout (location = 1) in vec2 a_uv;
layout (location = 2) in vec4 a_color;
uniform mat4 u_proj;
uniform vec2 u_white_uv;  // ImFontAtlas::TexUvWhitePixel: rectangles, lines and fills use exactly this
out vec2 v_uv;
out vec4 v_color;
flat out float v_solid;   // 1: the triangle needs no texture (same value at all three corners)
void main() {
  v_uv = a_uv;
  v_color = a_color;
  v_solid = a_uv == u_white_uv ? 1.0 : 0.0;
  gl_Position = u_proj * vec4(a_pos, 0.0, 1.0);
}
