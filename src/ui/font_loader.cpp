// Chinese on screen: the interface's own, and what the learner types or pastes beyond it.
//
// The first visit carries no Chinese font but the few hanzi an English screen shows ("中文", make_fonts.py's
// cjk_en). The interface's own Chinese (every hanzi of the sources, about 700, cjk_ui.otf: 114 KB gzipped) is
// fetched the first time it is needed: the interface turns Chinese (the L key, the button, setState, ?lang=zh,
// a Chinese browser) or a screen shows one of those hanzi. The page fetches the interface's Chinese text with it
// (zh_strings.bin, 57 KB gzipped: the first visit carries the English only, app/i18n.h). Until the text has
// arrived the switch is made (lang() and the page API say zh) but everything answers in English; until the font
// has, the frame keeps drawing in English, with "中文…" on the language button, rather than boxes (ui_frame
// holds tr() to English while it draws). getState().fonts.ui_loaded says when both are in; `ready` waits for
// them when the page starts in Chinese. A failed fetch is reported, and the frames stay English (readable, the
// message included) while the page API says zh.
//
// Beyond the interface's own characters: when text
// arrives with a Chinese character the atlas lacks (a sentence typed or pasted, a link, the page API, an
// error message quoting it), the larger subset (GB2312: 6,763 hanzi and the full-width forms, ~1.3 MB
// gzipped) is fetched once, and the atlas is rebuilt with just the characters asked for so far: it stays
// small, and a rebuild stays quick (its time is reported as getState().fonts.last_rebuild_ms).
//
// Text is looked at when it can have changed: a new model in the current scene, another scene, a new
// message. The scene's parameters (write_params) hold every string it draws that did not come from the
// sources.
#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <set>
#include <string>
#include <vector>

#include "app/api.h"
#include "app/i18n.h"
#include "ui/fonts.h"
#include "ui/ui_state.h"

namespace ap {

namespace {

constexpr const char* kCommonFont = "cjk_common.otf";
constexpr const char* kUiFont = "cjk_ui.otf";
constexpr const char* kUiStrings = "zh_strings.bin";  // the page's Chinese text (tools/zh_strings.py)

// The ranges tools/make_fonts.py treats as Chinese (CJK ideographs, punctuation, full-width forms).
bool is_cjk(uint32_t cp) {
  return (cp >= 0x2E80 && cp <= 0x9FFF) || (cp >= 0xF900 && cp <= 0xFAFF) || (cp >= 0xFF00 && cp <= 0xFFEF) ||
         (cp >= 0x3000 && cp <= 0x303F);
}

// Decodes UTF-8 leniently (invalid bytes are skipped: the text was validated where it entered).
void cjk_code_points(const std::string& s, std::set<uint32_t>* out) {
  for (size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    uint32_t cp;
    size_t len;
    if (c < 0x80) { ++i; continue; }
    if ((c >> 5) == 6) { cp = c & 0x1F; len = 2; }
    else if ((c >> 4) == 14) { cp = c & 0x0F; len = 3; }
    else if ((c >> 3) == 30) { cp = c & 0x07; len = 4; }
    else { ++i; continue; }
    if (i + len > s.size()) break;
    for (size_t k = 1; k < len; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
    i += len;
    if (cp <= 0xFFFF && is_cjk(cp)) out->insert(cp);  // ImWchar is 16-bit in this build
  }
}

std::string utf8_of(uint32_t cp) {
  std::string s;
  if (cp < 0x800) { s += static_cast<char>(0xC0 | (cp >> 6)); }
  else { s += static_cast<char>(0xE0 | (cp >> 12)); s += static_cast<char>(0x80 | ((cp >> 6) & 0x3F)); }
  s += static_cast<char>(0x80 | (cp & 0x3F));
  return s;
}

// What the current view may draw that did not come from the sources.
std::string text_on_screen(const PlaygroundState& st) {
  nlohmann::json doc = nlohmann::json::object();
  st.scene().write_params(doc);
  std::string s = doc.dump();  // UTF-8 kept as is (not \u-escaped)
  for (const std::string& e : error_texts(st)) s += e;
  return s;
}

// The characters of `wanted` missing from the body font, as UTF-8.
std::string missing_from(const ImFont* font, const std::set<uint32_t>& wanted) {
  std::string out;
  for (uint32_t cp : wanted)
    if (!font || !font->FindGlyphNoFallback(static_cast<ImWchar>(cp))) out += utf8_of(cp);
  return out;
}

// Code points as ImGui glyph ranges: pairs of first/last, 0-terminated. `cps` is sorted, so neighbours
// join one range.
void glyph_ranges(const std::set<uint32_t>& cps, std::vector<ImWchar>* out) {
  out->clear();
  for (uint32_t cp : cps) {
    if (!out->empty() && static_cast<uint32_t>(out->back()) + 1 == cp) out->back() = static_cast<ImWchar>(cp);
    else { out->push_back(static_cast<ImWchar>(cp)); out->push_back(static_cast<ImWchar>(cp)); }
  }
  out->push_back(0);
}

// The interface's own Chinese: its font and, in the page, its text (zh_strings.bin: the page does not carry the
// Chinese of its translation tables, app/i18n.h). Asks for both once, takes them as they arrive (or the errors).
// Then the interface may draw Chinese (ui_loaded: both in).
void follow_ui_font(PlaygroundState& st, FontFollow& ff) {
  if (!st.fonts.ui_requested) {
    st.fonts.ui_requested = true;
    platform_fetch_asset(kUiFont);  // natively read at once: taken just below
    if (!chinese_strings_in()) platform_fetch_asset(kUiStrings);
  }
  if (st.fonts.ui_loaded) return;
  std::string error;
  bool changed = false;  // something arrived or failed: worth frames
  // 1. The text (taken even where the font failed: the messages are Chinese then, the frames English).
  if (!chinese_strings_in() && !ff.strings_failed) {
    std::vector<unsigned char> bytes;
    const AssetState a = platform_asset(kUiStrings, &bytes, &error);
    if (a == AssetState::Ready) {
      const Status s = add_fetched_translations(bytes);
      if (!s.ok) error = local_text(s).english();
      ff.strings_failed = !s.ok;
      changed = true;
    } else if (a == AssetState::Failed) {
      ff.strings_failed = changed = true;
    }
    if (ff.strings_failed)  // English, the message says why
      report(st, "strings", Status::Error("the interface's Chinese strings could not be loaded, so it stays in English: {0}", {error}));
  }
  // 2. The font.
  if (!ff.ui_font_in && !ff.ui_failed) {
    const AssetState a = platform_asset(kUiFont, &ff.ui_bytes, &error);
    if (a == AssetState::Ready) {
      ff.ui_font_in = changed = true;
    } else if (a == AssetState::Failed) {
      ff.ui_failed = changed = true;  // the frames stay English: the message says why
      report(st, "fonts", Status::Error("the Chinese font could not be loaded, so the interface stays in English: {0}", {error}));
    }
  }
  if (ff.ui_font_in && (chinese_strings_in() || ff.strings_failed)) {
    st.fonts.ui_loaded = true;
    ff.rebuild = true;
  }
  if (changed) platform_request_frames(2);
}

}  // namespace

void fonts_prefetch(PlaygroundState& st, UiState& ui) {
  if (lang() == Lang::Zh) follow_ui_font(st, ui.font_follow);
}

bool fonts_chinese_pending(const PlaygroundState& st, const UiState& ui) {
  return lang() == Lang::Zh && !ui.font_follow.chinese_in_atlas && !ui.font_follow.ui_failed;
}

void fonts_follow_text(PlaygroundState& st, UiState& ui) {
  FontFollow& ff = ui.font_follow;
  // 0. The interface turned Chinese: its font, then every one of its own hanzi from now on (one rebuild,
  // kept after). Until they are in the atlas, tr() answers in English (fonts_rebuild says when).
  if (lang() == Lang::Zh || ff.ui_needed) follow_ui_font(st, ff);
  if (!ff.own_all && lang() == Lang::Zh && st.fonts.ui_loaded) {
    ff.own_all = true;
    ff.rebuild = true;
    platform_request_frames(2);
  }
  // 1. The larger font arrived (or failed): the characters waiting for it go into the atlas.
  if (st.fonts.extra_requested && !st.fonts.extra_loaded && st.fonts.error.empty()) {
    std::string error;
    const AssetState a = platform_asset(kCommonFont, &ff.extra_bytes, &error);
    if (a == AssetState::Ready) {
      st.fonts.extra_loaded = true;
      ff.rebuild = ff.rebuild_typed = true;
    } else if (a == AssetState::Failed) {
      st.fonts.error = error;
      report(st, "fonts", Status::Error("the larger Chinese font could not be loaded, so some characters show as '?': {0}", {error}));
    }
  }
  // 2. Look at the text only when it can have changed.
  const std::string key = std::string(st.scene().id()) + "/" + std::to_string(st.scene().generation()) + "/" +
                          std::to_string(st.errors.size()) + "/" + (st.errors.empty() ? "" : st.errors.back().key);
  if (key == ff.seen && !ff.rebuild) return;
  ff.seen = key;
  std::set<uint32_t> cps;
  cjk_code_points(text_on_screen(st), &cps);
  std::set<uint32_t> lacking;
  for (uint32_t cp : cps) {
    if (ui.fonts.body && ui.fonts.body->FindGlyphNoFallback(static_cast<ImWchar>(cp))) continue;
    // One of the interface's own hanzi left out of an English atlas: bake it in, nothing to fetch.
    if (!ff.own_all && own_cjk_has(cp)) {
      if (ff.own_wanted.insert(cp).second) ff.rebuild = true;
      if (!embedded_cjk_has(cp) && !ff.ui_needed) {  // beyond the few embedded: the interface's font
        ff.ui_needed = true;
        follow_ui_font(st, ff);
      }
      continue;
    }
    lacking.insert(cp);
  }
  for (uint32_t cp : lacking) {
    if (ff.wanted.insert(cp).second && st.fonts.extra_loaded) ff.rebuild = ff.rebuild_typed = true;
  }
  if (!lacking.empty() && !st.fonts.extra_requested) {
    st.fonts.extra_requested = true;
    platform_fetch_asset(kCommonFont);
    // Natively the file is read at once: pick it up now rather than a frame later.
    std::string error;
    if (platform_asset(kCommonFont, &ff.extra_bytes, &error) == AssetState::Ready) {
      st.fonts.extra_loaded = true;
      ff.rebuild = ff.rebuild_typed = true;
    }
  }
  // Missing: what the atlas lacks, leaving out the interface's own hanzi that the next frame bakes in.
  std::set<uint32_t> report;
  for (uint32_t cp : cps)
    if (ff.own_all || !own_cjk_has(cp)) report.insert(cp);
  st.fonts.missing = missing_from(ui.fonts.body, report);
  if (ff.rebuild) platform_request_frames(2);
}

bool fonts_rebuild_pending(const UiState& ui) { return ui.font_follow.rebuild; }

void fonts_rebuild(PlaygroundState& st, UiState& ui, float scale, float zoom) {
  FontFollow& ff = ui.font_follow;
  const auto t0 = std::chrono::steady_clock::now();
  glyph_ranges(st.fonts.extra_loaded ? ff.wanted : std::set<uint32_t>{}, &ff.ranges);
  // A page that starts in Chinese: the font asked for in main() may be here already (preload.js fetched it
  // beside the wasm), so that the first atlas has it and no English one is built first.
  if (lang() == Lang::Zh) follow_ui_font(st, ff);
  // The interface's own hanzi: all (Chinese), or those an English screen has shown so far.
  if (!ff.own_all && lang() == Lang::Zh && st.fonts.ui_loaded) ff.own_all = true;
  if (!ff.own_all && ff.own_wanted.empty()) {
    // What an English screen shows before any text is looked at: the language button and English strings
    // that quote Chinese (a preset's title, an example).
    std::set<uint32_t> shown;
    cjk_code_points("中文", &shown);
    for (int i = 0; i < translation_count(); ++i)
      if (const char* en = translation_key(i)) cjk_code_points(en, &shown);
    for (uint32_t cp : shown)
      if (own_cjk_has(cp)) ff.own_wanted.insert(cp);  // like those added later: only the font's own
  }
  glyph_ranges(ff.own_wanted, &ff.own_ranges);
  ExtraFont extra{st.fonts.extra_loaded ? &ff.extra_bytes : nullptr, &ff.ranges, st.fonts.ui_loaded ? &ff.ui_bytes : nullptr,
                  ff.own_all ? nullptr : &ff.own_ranges};
  build_fonts(&ui.fonts, scale, zoom, extra);
  ff.chinese_in_atlas = ff.own_all && st.fonts.ui_loaded;  // Chinese can be drawn from this atlas on
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  if (ff.rebuild_typed) {  // a rebuild for typed Chinese (not the first build, a zoom change, nor own hanzi)
    ++st.fonts.rebuilds;
    st.fonts.last_rebuild_ms = ms;
  }
  ff.rebuild = ff.rebuild_typed = false;
  int glyphs = 0;
  for (uint32_t cp : ff.wanted)
    if (ui.fonts.body->FindGlyphNoFallback(static_cast<ImWchar>(cp))) ++glyphs;
  st.fonts.extra_glyphs = st.fonts.extra_loaded ? glyphs : 0;
  ff.seen.clear();  // look at the text again with the new atlas (updates `missing`)
}

}  // namespace ap
