#include "fonts.h"

#include "ui/fonts_data.h"

namespace ap {

namespace {
ImFont* add_merged(ImFontAtlas* atlas, float px, bool with_cjk) {
  ImFontConfig cfg;
  cfg.FontDataOwnedByAtlas = false;  // the bytes are static arrays in the binary
  cfg.OversampleH = 2;
  cfg.OversampleV = 1;
  cfg.PixelSnapH = false;
  const auto add = [&](const fonts::FontBlob& f, bool merge) {
    ImFontConfig c = cfg;
    c.MergeMode = merge;
    return atlas->AddFontFromMemoryTTF(const_cast<unsigned char*>(f.data), static_cast<int>(f.size), px, &c,
                                       reinterpret_cast<const ImWchar*>(f.ranges));
  };
  ImFont* font = add(fonts::latin, false);
  add(fonts::math, true);
  add(fonts::symbols, true);
  if (with_cjk) add(fonts::cjk, true);
  return font;
}
}  // namespace

void build_fonts(UiFonts* out, float pixel_scale, float zoom) {
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
  const float s = pixel_scale;
  out->body = add_merged(io.Fonts, 16.f * s, true);
  out->small = add_merged(io.Fonts, 13.f * s, true);
  out->formula = add_merged(io.Fonts, 22.f * s, false);  // math only: keeps the atlas small
  io.Fonts->Build();
  io.FontGlobalScale = zoom / pixel_scale;
  io.FontDefault = out->body;
}

}  // namespace ap
