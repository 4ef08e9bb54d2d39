// Interface strings in English and Chinese.
//
// Code writes the English text: `tr("Play")`. In Chinese, tr() looks it up in the table in i18n.cpp and
// falls back to English if a string is missing (tools/check_i18n.py, run by the tests, reports any).
// The Chinese font is subset at build time from the characters of src/**/*.cpp, so a Chinese string
// can live anywhere under src/ (tools/make_fonts.py scans them all).
#pragma once

namespace ap {

enum class Lang { En, Zh };

void set_lang(Lang l);
Lang lang();
const char* lang_code(Lang l);  // "en", "zh"
bool parse_lang(const char* s, Lang* out);

const char* tr(const char* english);
int translation_count();
const char* translation_key(int i);  // for the completeness test

}  // namespace ap
