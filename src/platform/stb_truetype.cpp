// The one stb_truetype in the program, compiled into the imgui library: Dear ImGui rasterises its fonts with
// it (imgui_draw.cpp, built with IMGUI_DISABLE_STB_TRUETYPE_IMPLEMENTATION, sees only the declarations) and
// the SVG snapshot reads glyph outlines with it (widgets/svg_snapshot.cpp). Before, each had a private, static
// copy: the same code twice in the page's module.
// stb_rect_pack comes first and here too (IMGUI_DISABLE_STB_RECT_PACK_IMPLEMENTATION): stb_truetype's packing
// (stbtt_PackBegin) must set up the same stbrp_context that ImGui packs with. Without it, stb_truetype uses a
// fallback of its own layout, and ImGui's stbrp_pack_rects divided by zero building the font atlas.
#include <imgui.h>
#include <imgui_internal.h>

// ImGui's own choices for its copy (imgui_draw.cpp): its allocator and its maths.
#define STBTT_malloc(x, u) ((void)(u), IM_ALLOC(x))
#define STBTT_free(x, u) ((void)(u), IM_FREE(x))
#define STBTT_assert(x) do { IM_ASSERT(x); } while (0)
#define STBTT_fmod(x, y) ImFmod(x, y)
#define STBTT_sqrt(x) ImSqrt(x)
#define STBTT_pow(x, y) ImPow(x, y)
#define STBTT_fabs(x) ImFabs(x)
#define STBTT_ifloor(x) ((int)ImFloorSigned(x))
#define STBTT_iceil(x) ((int)ImCeil(x))
#define STBRP_ASSERT(x) do { IM_ASSERT(x); } while (0)
#define STBRP_SORT ImQsort
#define STB_RECT_PACK_IMPLEMENTATION
#include <imstb_rectpack.h>
#define STB_TRUETYPE_IMPLEMENTATION
#include <imstb_truetype.h>
