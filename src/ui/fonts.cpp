#include "fonts.h"

#include "ui/fonts_data.h"

namespace ap {

namespace {
ImFont* add_merged(ImFontAtlas* atlas, float px, bool with_cjk, const ExtraFont& extra) {
  ImFontConfig cfg;
  cfg.FontDataOwnedByAtlas = false;  // the bytes are static arrays in the binary
  cfg.OversampleH = 2;
  cfg.OversampleV = 1;
  cfg.PixelSnapH = false;
  const auto add = [&](const fonts::FontBlob& f, bool merge, const ImWchar* ranges = nullptr) {
    ImFontConfig c = cfg;
    c.MergeMode = merge;
    if (&f == &fonts::cjk) c.OversampleH = 1;  // square hanzi gain little from sub-pixel placement; half the work
    return atlas->AddFontFromMemoryTTF(const_cast<unsigned char*>(f.data), static_cast<int>(f.size), px, &c,
                                       ranges ? ranges : reinterpret_cast<const ImWchar*>(f.ranges));
  };
  ImFont* font = add(fonts::latin, false);
  add(fonts::math, true);
  add(fonts::symbols, true);
  if (with_cjk && !extra.own_cjk_ranges) add(fonts::cjk, true);
  else if (with_cjk && extra.own_cjk_ranges->size() > 1) add(fonts::cjk, true, extra.own_cjk_ranges->data());
  // Typed Chinese beyond the interface's own: only the characters asked for, so the atlas stays small and
  // rebuilding it stays quick.
  if (with_cjk && extra.bytes && extra.ranges && extra.ranges->size() > 1) {
    ImFontConfig c = cfg;
    c.MergeMode = true;
    c.OversampleH = 1;
    atlas->AddFontFromMemoryTTF(const_cast<unsigned char*>(extra.bytes->data()), static_cast<int>(extra.bytes->size()), px, &c,
                                extra.ranges->data());
  }
  return font;
}
}  // namespace

bool own_cjk_has(uint32_t cp) {
  for (const unsigned short* r = fonts::cjk.ranges; r[0]; r += 2)
    if (cp >= r[0] && cp <= r[1]) return true;
  return false;
}

void build_fonts(UiFonts* out, float pixel_scale, float zoom, const ExtraFont& extra) {
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
  const float s = pixel_scale;
  out->body = add_merged(io.Fonts, 16.f * s, true, extra);
  out->small = add_merged(io.Fonts, 13.f * s, true, extra);
  out->formula = add_merged(io.Fonts, 22.f * s, false, extra);  // math only: keeps the atlas small
  io.Fonts->Build();
  io.FontGlobalScale = zoom / pixel_scale;
  io.FontDefault = out->body;
  ++out->generation;
}

}  // namespace ap
