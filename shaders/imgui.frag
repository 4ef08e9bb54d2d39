// Vertex colour times the texture (the font atlas: white where there is no glyph).
uniform sampler2D u_texture;
in vec2 v_uv;
in vec4 v_color;
layout (location = 0) out vec4 o_color;
void main() {
  o_color = v_color * texture(u_texture, v_uv);
}
