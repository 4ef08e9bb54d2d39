// Builds the ImGui font atlas from the embedded Noto subsets, at the size the screen needs.
#pragma once
#include <imgui.h>

#include <cstdint>
#include <vector>

namespace ap {

struct UiFonts {
  ImFont* body = nullptr;     // 16 logical px: Noto Sans + Math + Symbols + CJK merged
  ImFont* formula = nullptr;  // 22 logical px, for the formula of the stage
  ImFont* small = nullptr;    // 13 logical px, for matrix labels and cell numbers
  int generation = 0;         // one more per build: the pointers above are new then (views key caches by it)
};

// Rasterises at `pixel_scale` = device pixel ratio × UI zoom, so text is sharp on high-DPI screens; sets
// io.FontGlobalScale so that sizes stay in logical pixels. Call outside a frame, then recreate the GL
// font texture (platform_rebuild_font_texture).
// `extra`: the larger Chinese font loaded on demand (font_loader.cpp), merged into the body and small fonts
// for the code points in `extra_ranges` (ImGui ranges, 0-terminated; both must outlive the atlas); or null.
struct ExtraFont {
  const std::vector<unsigned char>* bytes = nullptr;
  const std::vector<ImWchar>* ranges = nullptr;
  // The interface's own Chinese font (fonts::cjk's file, cjk_ui.otf) once loaded, or null: until then only
  // the few hanzi embedded for an English screen (fonts::cjk_en) are in the atlas. Must outlive the atlas.
  const std::vector<unsigned char>* own_cjk_bytes = nullptr;
  // The interface's own Chinese glyphs to bake from it: nullptr for all of them (the Chinese interface), else
  // only these ranges (English: the few hanzi on screen). Rasterising the CJK outlines was most of the
  // first atlas's time.
  const std::vector<ImWchar>* own_cjk_ranges = nullptr;
};
void build_fonts(UiFonts* fonts, float pixel_scale, float zoom, const ExtraFont& extra = {});

// True when the interface's own Chinese font (fonts::cjk) has a glyph for `cp`.
bool own_cjk_has(uint32_t cp);
// True when the embedded hanzi of an English screen (fonts::cjk_en) include `cp`.
bool embedded_cjk_has(uint32_t cp);

}  // namespace ap
