// Heatmap quad. No vertex buffer: the four corners come from gl_VertexID (triangle strip).
// u_rect = (x0, y0, x1, y1) in clip space; v_uv = (0,0) at the top-left cell, (1,1) at the bottom-right.
uniform vec4 u_rect;
out vec2 v_uv;
void main() {
  vec2 corner = vec2(float(gl_VertexID & 1), float((gl_VertexID >> 1) & 1));
  v_uv = corner;
  gl_Position = vec4(mix(u_rect.xy, u_rect.zw, corner), 0.0, 1.0);
}
