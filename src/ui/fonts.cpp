#include "fonts.h"

#include "ui/fonts_data.h"

namespace ap {

namespace {
bool ranges_have(const unsigned short* r, uint32_t cp) {
  for (; r[0]; r += 2)
    if (cp >= r[0] && cp <= r[1]) return true;
  return false;
}

ImFont* add_merged(ImFontAtlas* atlas, float px, bool with_cjk, const ExtraFont& extra) {
  ImFontConfig cfg;
  cfg.FontDataOwnedByAtlas = false;  // the bytes are static arrays in the binary, or kept by the caller
  cfg.OversampleH = 2;
  cfg.OversampleV = 1;
  cfg.PixelSnapH = false;
  const auto add = [&](const unsigned char* data, size_t size, bool merge, const ImWchar* ranges, bool hanzi = false) {
    ImFontConfig c = cfg;
    c.MergeMode = merge;
    if (hanzi) c.OversampleH = 1;  // square hanzi gain little from sub-pixel placement; half the work
    return atlas->AddFontFromMemoryTTF(const_cast<unsigned char*>(data), static_cast<int>(size), px, &c, ranges);
  };
  const auto blob = [&](const fonts::FontBlob& f, bool merge, bool hanzi = false) {
    return add(f.data, f.size, merge, reinterpret_cast<const ImWchar*>(f.ranges), hanzi);
  };
  ImFont* font = blob(fonts::latin, false);
  blob(fonts::math, true);
  blob(fonts::symbols, true);
  if (!with_cjk) return font;
  // The interface's own hanzi, from its file once loaded (merged first: a glyph already in the font is skipped).
  if (const auto* own = extra.own_cjk_bytes) {
    const ImWchar* ranges = extra.own_cjk_ranges ? extra.own_cjk_ranges->data() : reinterpret_cast<const ImWchar*>(fonts::cjk.ranges);
    if (ranges[0]) add(own->data(), own->size(), true, ranges, true);
  }
  blob(fonts::cjk_en, true, true);
  // Typed Chinese beyond the interface's own: only the characters asked for, so the atlas stays small and
  // rebuilding it stays quick.
  if (extra.bytes && extra.ranges && extra.ranges->size() > 1) add(extra.bytes->data(), extra.bytes->size(), true, extra.ranges->data(), true);
  return font;
}
}  // namespace

bool own_cjk_has(uint32_t cp) { return ranges_have(fonts::cjk.ranges, cp); }
bool embedded_cjk_has(uint32_t cp) { return ranges_have(fonts::cjk_en.ranges, cp); }

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
