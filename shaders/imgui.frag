// Vertex colour times the atlas's coverage (one channel, R8: 1 inside a glyph, 0 outside).
// Solid shapes skip the texture fetch: with software WebGL (SwiftShader, a school PC without a GPU) the
// fetch was about two-thirds of the time spent filling a frame's pixels.
uniform sampler2D u_texture;
in vec2 v_uv;
in vec4 v_color;
flat in float v_solid;
layout (location = 0) out vec4 o_color;
void main() {
  if (v_solid > 0.5) {
    o_color = v_color;
  } else {
    o_color = vec4(v_color.rgb, v_color.a * texture(u_texture, v_uv).r);
  }
}
