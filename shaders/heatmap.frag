// Heatmap of a matrix: one float texel per cell (R32F, row-major: texel (x=j, y=i) holds M[i][j]),
// coloured through a 256-entry lookup texture built on the CPU by widgets/colormap.cpp, so numbered cells
// (drawn by ImGui) and heatmaps use the very same colours.
uniform sampler2D u_values;   // R32F, cols × rows, read with texelFetch (no filtering of float textures)
uniform sampler2D u_lut;      // RGBA8, 256 × 1
uniform vec2 u_range;         // value mapped to the LUT's first and last entry
uniform ivec2 u_size;         // (cols, rows)
uniform float u_reveal;       // cells shown, row-major; later cells are drawn as "not computed yet"
uniform ivec2 u_highlight;    // (col, row) to outline; -1 for none
uniform vec4 u_pending;       // colour of cells not computed yet
uniform vec4 u_hidden;        // colour of -inf (masked) cells
in vec2 v_uv;
out vec4 frag;

void main() {
  ivec2 cell = clamp(ivec2(v_uv * vec2(u_size)), ivec2(0), u_size - 1);
  float index = float(cell.y) * float(u_size.x) + float(cell.x);
  float v = texelFetch(u_values, cell, 0).r;
  vec4 c;
  if (index >= u_reveal) {
    c = u_pending;
  } else if (isinf(v) && v < 0.0) {
    // masked: hatch so that "hidden" reads differently from "small"
    vec2 px = gl_FragCoord.xy;
    c = mod(px.x + px.y, 8.0) < 3.0 ? u_hidden * 0.85 : u_hidden;
  } else {
    float t = clamp((v - u_range.x) / max(u_range.y - u_range.x, 1e-12), 0.0, 1.0);
    c = texture(u_lut, vec2((t * 255.0 + 0.5) / 256.0, 0.5));
  }
  // Highlighted row and column (the query row and key column of the cell being computed).
  bool in_row = cell.y == u_highlight.y;
  bool in_col = cell.x == u_highlight.x;
  if (in_row || in_col) c.rgb = mix(c.rgb, vec3(1.0, 0.85, 0.2), (in_row && in_col) ? 0.55 : 0.25);
  frag = vec4(c.rgb, 1.0);
}
