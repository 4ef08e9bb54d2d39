// Dear ImGui's vertices: position in pixels, texture coordinate (the font atlas or a white texel), colour.
layout (location = 0) in vec2 a_pos;
layout (location = 1) in vec2 a_uv;
layout (location = 2) in vec4 a_color;
uniform mat4 u_proj;
out vec2 v_uv;
out vec4 v_color;
void main() {
  v_uv = a_uv;
  v_color = a_color;
  gl_Position = u_proj * vec4(a_pos, 0.0, 1.0);
}
