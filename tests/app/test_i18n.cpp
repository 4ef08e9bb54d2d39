// Unit tests for the interface strings (app/i18n.h): language switching, the translation table and lookups.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "app/i18n.h"
#include "app/scene_registry.h"
#include "app/scenes/sdpa_presets.h"

namespace ap {
namespace AP_UNITY_ID {  // this file's own namespace in a unity build (CMakeLists.txt, AP_UNITY)

// Strict UTF-8: no overlong forms, no surrogates, nothing above U+10FFFF, no NUL (a C string cannot hold one
// anyway, so this also checks that the text is not cut short by an embedded "\0" in the table).
bool valid_utf8(const char* s) {
  const auto* p = reinterpret_cast<const unsigned char*>(s);
  while (*p) {
    const unsigned c = *p;
    int len;
    uint32_t v;
    if (c < 0x80) { ++p; continue; }
    if ((c & 0xE0) == 0xC0) { len = 2; v = c & 0x1F; }
    else if ((c & 0xF0) == 0xE0) { len = 3; v = c & 0x0F; }
    else if ((c & 0xF8) == 0xF0) { len = 4; v = c & 0x07; }
    else return false;
    for (int k = 1; k < len; ++k) {
      if ((p[k] & 0xC0) != 0x80) return false;  // also stops at the terminating NUL
      v = (v << 6) | (p[k] & 0x3F);
    }
    static const uint32_t kMin[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (v < kMin[len] || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) return false;
    p += len;
  }
  return true;
}

bool has_non_ascii(const char* s) {
  for (const char* p = s; *p; ++p)
    if (static_cast<unsigned char>(*p) >= 0x80) return true;
  return false;
}

// tools/zh_strings.py's file (gen/zh_strings.bin): the page's Chinese, fetched when it turns Chinese.
std::vector<unsigned char> zh_strings_file() {
  std::ifstream f(AP_ZH_STRINGS, std::ios::binary);
  return std::vector<unsigned char>(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

#ifdef AP_ZH_FETCHED
// The wasm build, like the page, compiles no Chinese into its tables: these tests take it from the file before
// any of them runs, as the page does when it turns Chinese.
const bool g_zh_loaded = add_fetched_translations(zh_strings_file()).ok;
#endif

class AppI18n : public ::testing::Test {
 protected:
  void SetUp() override { set_lang(Lang::En); }
  void TearDown() override { set_lang(Lang::En); }
};

TEST_F(AppI18n, ValidUtf8HelperRejectsBadBytes) {
  // The checker itself must be able to say no, or the table tests below prove nothing.
  EXPECT_TRUE(valid_utf8("abc 中文 ∞ 😀"));
  EXPECT_FALSE(valid_utf8("\xC3"));          // truncated
  EXPECT_FALSE(valid_utf8("\xC0\xAF"));      // overlong '/'
  EXPECT_FALSE(valid_utf8("\xED\xA0\x80"));  // surrogate
  EXPECT_FALSE(valid_utf8("\xFF"));
}

TEST_F(AppI18n, EnglishIsTheDefaultAndReturnsTheKeyItself) {
  EXPECT_EQ(lang(), Lang::En);
  const char* key = "Controls";
  EXPECT_EQ(tr(key), key);  // the same pointer: no lookup in English
  EXPECT_STREQ(tr("Play"), "Play");
  for (int i = 0; i < translation_count(); ++i) EXPECT_EQ(tr(translation_key(i)), translation_key(i));
}

// A value with a NUL inside (a page sent "\u0000" as a scene's name) is shown whole, escaped, in both languages:
// the word lookup took it as a C string and cut it at the NUL, so the screen said "unknown scene ''".
TEST_F(AppI18n, AValueWithANulInsideIsShownWholeAndEscaped) {
  const Status s = Status::Error("unknown scene '{0}' (known: {1})", {std::string("x\0y", 3), "sdpa"});
  EXPECT_EQ(localize(s), "unknown scene 'x\\x00y' (known: sdpa)");
  EXPECT_EQ(localize(local_text(s)), localize(s));
  set_lang(Lang::Zh);
  EXPECT_NE(localize(s).find("x\\x00y"), std::string::npos) << localize(s);
}

TEST_F(AppI18n, ChineseTranslatesAKnownString) {
  set_lang(Lang::Zh);
  EXPECT_EQ(lang(), Lang::Zh);
  EXPECT_STREQ(tr("Controls"), "控制面板");
  EXPECT_STREQ(tr("Mask"), "掩码");
  set_lang(Lang::En);
  EXPECT_STREQ(tr("Controls"), "Controls");
}

TEST_F(AppI18n, EveryKeyHasANonEmptyValidChineseString) {
  ASSERT_GT(translation_count(), 20);
  set_lang(Lang::Zh);
  int differs = 0;
  for (int i = 0; i < translation_count(); ++i) {
    const char* en = translation_key(i);
    ASSERT_NE(en, nullptr) << i;
    EXPECT_GT(std::strlen(en), 0u) << "key " << i;
    EXPECT_TRUE(valid_utf8(en)) << "key " << i;
    const char* zh = tr(en);
    ASSERT_NE(zh, nullptr) << en;
    EXPECT_GT(std::strlen(zh), 0u) << en;
    EXPECT_TRUE(valid_utf8(zh)) << en;
    differs += std::strcmp(zh, en) != 0;
  }
  // A few strings (e.g. "English / 中文") are the same in both languages, but almost all differ.
  EXPECT_GE(differs, translation_count() * 9 / 10);
}

// The file, read naively: English → Chinese.
std::map<std::string, std::string> read_zh_strings(const std::vector<unsigned char>& bytes) {
  std::map<std::string, std::string> out;
  const std::string magic = "apzh 1\n";
  if (bytes.size() < magic.size() || std::string(bytes.begin(), bytes.begin() + static_cast<long>(magic.size())) != magic) return out;
  std::vector<std::string> strings(1);
  for (size_t i = magic.size(); i < bytes.size(); ++i) {
    if (bytes[i] == 0) strings.emplace_back();
    else strings.back() += static_cast<char>(bytes[i]);
  }
  for (size_t i = 0; i + 1 < strings.size(); i += 2) out[strings[i]] = strings[i + 1];
  return out;
}

TEST_F(AppI18n, TheFetchedFileHoldsEveryPairOfTheTablesWithItsChinese) {
  const std::map<std::string, std::string> file = read_zh_strings(zh_strings_file());
  ASSERT_GT(file.size(), 1000u) << AP_ZH_STRINGS;
  (void)make_scenes(true);  // registers every scene's table and the quiz's (the views' are not in these tests)
#ifdef AP_ZH_FETCHED
  EXPECT_TRUE(g_zh_loaded) << "the wasm tests' Chinese: " << AP_ZH_STRINGS;
#endif
  EXPECT_TRUE(chinese_strings_in());
  int checked = 0;
  for (int i = 0; i < translation_count(); ++i) {
    const TrPair p = translation_at(i);
    ASSERT_NE(p.zh, nullptr) << p.en;
    const auto it = file.find(p.en);
    ASSERT_NE(it, file.end()) << "not in " << AP_ZH_STRINGS << ": " << p.en;
    EXPECT_EQ(it->second, p.zh) << p.en;  // natively the compiled Chinese: tools/zh_strings.py read it alike
    ++checked;
  }
  EXPECT_EQ(checked, translation_count());
  EXPECT_GT(checked, 900);
}

TEST_F(AppI18n, AMalformedStringsFileIsRefusedAndChangesNothing) {
  set_lang(Lang::Zh);
  auto bytes = [](const std::string& s) { return std::vector<unsigned char>(s.begin(), s.end()); };
  const std::string ok = std::string("apzh 1\n") + "Controls" + '\0' + "X" + '\0';
  const std::vector<std::string> bad = {
      "",                                                          // empty
      "apzh 1\n",                                                  // no pair at all
      "apzh 2\nControls\0X\0",                                   // another format
      std::string("apzh 1\nControls") + '\0' + "X",              // cut short: no NUL after the Chinese
      std::string("apzh 1\nControls"),                            // cut short: no Chinese
      std::string("apzh 1\n") + '\0' + "X" + '\0',               // empty English
      std::string("apzh 1\nControls") + '\0' + "\xC3" + '\0',   // not UTF-8
      ok + "Mask" + '\0',                                         // the last pair cut short
  };
  for (const std::string& b : bad) {
    const Status s = add_fetched_translations(bytes(b));
    EXPECT_FALSE(s.ok) << b;
    EXPECT_FALSE(localize(s).empty());
    EXPECT_STREQ(tr("Controls"), "控制面板") << "a refused file changed the strings";
  }
  // The real file again: taken (idempotent).
  EXPECT_TRUE(add_fetched_translations(zh_strings_file()).ok);
  EXPECT_STREQ(tr("Controls"), "控制面板");
  EXPECT_STREQ(tr("Mask"), "掩码");
}

TEST_F(AppI18n, KeysAreUnique) {
  // A duplicate key would silently shadow one of the two Chinese strings.
  std::set<std::string> seen;
  for (int i = 0; i < translation_count(); ++i)
    EXPECT_TRUE(seen.insert(translation_key(i)).second) << "duplicate key: " << translation_key(i);
}

TEST_F(AppI18n, TranslationKeyOutOfRangeIsNull) {
  EXPECT_EQ(translation_key(-1), nullptr);
  EXPECT_EQ(translation_key(translation_count()), nullptr);
  EXPECT_NE(translation_key(0), nullptr);
  EXPECT_NE(translation_key(translation_count() - 1), nullptr);
}

TEST_F(AppI18n, UnknownStringIsReturnedUnchanged) {
  set_lang(Lang::Zh);
  const char* unknown = "this string is not in the table";
  EXPECT_EQ(tr(unknown), unknown);
  EXPECT_EQ(tr(""), std::string(""));
  EXPECT_EQ(tr(nullptr), nullptr);
}

TEST_F(AppI18n, EveryPresetTitleAndNoteIsTranslated) {
  set_lang(Lang::Zh);
  for (const Preset& p : presets()) {
    EXPECT_STRNE(tr(p.title), p.title) << p.id;
    EXPECT_STRNE(tr(p.note), p.note) << p.id;
    EXPECT_TRUE(has_non_ascii(tr(p.note))) << p.id;
  }
}

TEST_F(AppI18n, LangCodes) {
  EXPECT_STREQ(lang_code(Lang::En), "en");
  EXPECT_STREQ(lang_code(Lang::Zh), "zh");
}

TEST_F(AppI18n, ParseLang) {
  Lang l = Lang::En;
  EXPECT_TRUE(parse_lang("zh", &l));
  EXPECT_EQ(l, Lang::Zh);
  EXPECT_TRUE(parse_lang("en", &l));
  EXPECT_EQ(l, Lang::En);
  EXPECT_TRUE(parse_lang("zh-CN", &l));
  EXPECT_EQ(l, Lang::Zh);
  // Rejected: the output is left alone.
  l = Lang::En;
  EXPECT_FALSE(parse_lang("xx", &l));
  EXPECT_EQ(l, Lang::En);
  EXPECT_FALSE(parse_lang("", &l));
  EXPECT_FALSE(parse_lang("EN ", &l));
  EXPECT_FALSE(parse_lang("zhx", &l));
  EXPECT_FALSE(parse_lang(nullptr, &l));
  EXPECT_EQ(l, Lang::En);
  // Round trip through the codes.
  for (Lang x : {Lang::En, Lang::Zh}) {
    Lang y = x == Lang::En ? Lang::Zh : Lang::En;
    EXPECT_TRUE(parse_lang(lang_code(x), &y));
    EXPECT_EQ(y, x);
  }
}

}  // namespace
}  // namespace ap
