// Font files embedded by tools/make_fonts.py (subsets of Debian's Noto fonts).
#pragma once
#include <cstddef>

namespace ap::fonts {

struct FontBlob {
  const unsigned char* data;
  size_t size;
  const unsigned short* ranges;  // ImGui glyph ranges: pairs of first/last code point, 0-terminated
};

extern const FontBlob latin;    // Noto Sans: Latin, Greek, ᵀ, subscripts
extern const FontBlob math;     // Noto Sans Math: √ ∞ − ≈ → ∑ …
extern const FontBlob symbols;  // Noto Sans Symbols2: ▶ ⏸ ◀ ⏮ ⏭
extern const FontBlob cjk_en;   // Noto Sans CJK SC: the few hanzi an English screen shows ("中文")
// Noto Sans CJK SC: the Chinese of the interface. Only its code points are embedded (data is null): the bytes
// are the file cjk_ui.otf, loaded when first needed (ui/font_loader.cpp).
extern const FontBlob cjk;

}  // namespace ap::fonts
