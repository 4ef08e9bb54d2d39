// The view as SVG (Export → "SVG of the view"): vector shapes and vector text for slides and papers.
//
// It is made from what ImGui drew, after ImGui::Render(): every solid triangle becomes a filled path
// (neighbours of one colour and clip joined into one path, so no hairline seams), every glyph quad becomes
// the glyph's own outline from its font (stb_truetype), placed by the quad's corners (rotated labels too),
// and every heatmap (drawn by a shader, heatmap.h) becomes an image of its cells. Clip rectangles become
// clip paths.
#pragma once
#include <imgui.h>

#include <string>
#include <vector>

namespace ap {

// The whole frame `dd` as an SVG document, `background` under everything (the cleared colour). `crop`
// (x0, y0, x1, y1 in ImGui's coordinates; none if empty) cuts it to one rectangle (one plot).
std::string draw_data_svg(const ImDrawData& dd, ImVec4 background, ImVec4 crop = ImVec4(0, 0, 0, 0));

// A snapshot of the next drawn frame: request it, the frame loop calls svg_snapshot_after_render after
// ImGui::Render (platform.cpp), and the next frame takes it.
void svg_snapshot_request(ImVec4 crop = ImVec4(0, 0, 0, 0));
bool svg_snapshot_pending();
void svg_snapshot_after_render(const ImDrawData* dd, ImVec4 background);
bool svg_snapshot_take(std::string* svg);

// RGBA8 pixels, top row first, as a PNG file (stb_image_write; the export dialog uses it too).
std::vector<unsigned char> encode_png(int width, int height, const std::vector<unsigned char>& rgba);

}  // namespace ap
