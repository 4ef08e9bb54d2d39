// Interface strings in English and Chinese.
//
// Code writes the English text: tr(“Play”). In Chinese, tr() looks it up in the translation tables and
// falls back to English if a string is missing (tools/check_i18n.py, run by the tests, reports any).
// The shared table is in i18n.cpp; a scene brings its own table in its own file (Scene::translations()),
// registered with the scene, and its view the strings it draws (View::strings(), views/view_registry.cpp),
// so adding a scene touches no shared table.
// Strings that reach tr() later, from a table, are marked N_(…) where they are written, so that the
// check finds them. Error templates (the English template of a Status error) are translated the same way.
// The Chinese font is subset at build time from the characters of src/**/*.cpp, so a Chinese string
// can live anywhere under src/ (tools/make_fonts.py scans them all).
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "core/status.h"

// Marks a string literal for translation without translating it here (it goes through tr() later).
#define N_(s) s

namespace ap {

enum class Lang { En, Zh };

// In the page (AP_ZH_FETCHED, the wasm build) the Chinese half of a pair is not compiled in: the constructor drops
// it, so the literal is never emitted and the first visit, in English, does not carry the interface's Chinese.
// It arrives when the interface turns Chinese, beside its font (zh_strings.bin, written from these same tables by
// tools/zh_strings.py; ui/font_loader.cpp fetches it), through add_fetched_translations(). Until then tr()
// answers in English.
struct TrPair {
  const char* en;
  const char* zh;
#ifdef AP_ZH_FETCHED
  constexpr TrPair() : en(nullptr), zh(nullptr) {}
  constexpr TrPair(const char* english, const char* /*chinese: fetched*/) : en(english), zh(nullptr) {}
#endif
};

void set_lang(Lang l);
Lang lang();
// Whether Chinese text can be drawn (its font is in place). While it cannot, lang() already says Zh (the page
// API and the link see the switch at once) but tr() still answers in English, so that the screen never shows
// boxes for characters the font atlas lacks: ui_frame clears it while it draws a frame, until the interface's
// Chinese font has arrived on the web (a few hundred milliseconds), and sets it again after the frame, so the
// page API's texts are Chinese at once. True unless told otherwise.
void set_chinese_drawable(bool drawable);
const char* lang_code(Lang l);  // "en", "zh"
bool parse_lang(const char* s, Lang* out);

const char* tr(const char* english);
// tr(tmpl) with "{0}", "{1}", … filled in (the arguments, numbers and names, are not translated).
std::string tr_format(const char* tmpl, const std::vector<std::string>& args);

// Adds a table of pairs (kept by pointer: static storage). Adding the same table twice is harmless.
void add_translations(const TrPair* pairs, size_t count);
// A static table and its size, as Scene::translations and the views' strings() hand them over.
template <size_t N>
const TrPair* translation_table(const TrPair (&table)[N], size_t* count) {
  *count = N;
  return table;
}

// The interface's Chinese fetched as a file (tools/zh_strings.py's format: "apzh 1\n", then English NUL Chinese
// NUL per pair, UTF-8). Checked whole before anything is taken: a malformed file changes nothing. A pair whose
// English is in no table is ignored. Tables added later get their Chinese from it too.
Status add_fetched_translations(const std::vector<unsigned char>& bytes);
// Whether the Chinese of the tables is here: compiled in (native), or fetched (the page, once it arrived).
bool chinese_strings_in();

// Every pair of every table, for the completeness tests (zh: compiled in or fetched; nullptr before).
int translation_count();
TrPair translation_at(int i);
const char* translation_key(int i);  // translation_at(i).en, or nullptr out of range

// A message as data: its template (an error code, see core/status.h) and arguments. Shown in the current
// language with localize(); `english()` is what the page API and logs carry.
struct LocalText {
  std::string tmpl;
  std::vector<std::string> args;
  std::string prefix;  // a translated-on-display prefix such as "setState" or "URL" (may be empty)
  std::string english() const;
};
LocalText local_text(const Status& s, std::string prefix = {});
std::string localize(const LocalText& t);        // in the current language
std::string localize(const Status& s);            // the error of `s` in the current language

}  // namespace ap
