// Unit tests for the URL query (app/api.h apply_url_query): each good parameter applies, each bad one is
// reported on screen (key "url") and skipped.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/api.h"
#include "app/url.h"
#include "helpers.h"
#include "app/i18n.h"
#include "core/utf8.h"

namespace ap {
namespace AP_UNITY_ID {  // this file's own namespace in a unity build (CMakeLists.txt, AP_UNITY)

using namespace ::ap::test;
using nlohmann::json;

std::string all_errors(const PlaygroundState& st) {
  std::string s;
  for (const auto& m : st.errors) s += "[" + m.key + "] " + localize(m.text) + "\n";
  return s;
}

bool has_key(const PlaygroundState& st, const std::string& key) {
  for (const auto& m : st.errors)
    if (m.key == key) return true;
  return false;
}

class AppUrl : public ::testing::Test {
 protected:
  void SetUp() override { set_lang(Lang::En); }
  void TearDown() override { set_lang(Lang::En); }
  PlaygroundState st;
};

TEST_F(AppUrl, AppliesEveryGoodParameter) {
  apply_url_query(st, "?lang=zh&mask=causal&d_k=8");
  EXPECT_EQ(lang(), Lang::Zh);
  EXPECT_EQ(model(st).params.mask, MaskKind::Causal);
  EXPECT_EQ(model(st).trace.d_k, 8);
  EXPECT_EQ(model(st).Q.cols(), 8);
  EXPECT_TRUE(st.errors.empty()) << all_errors(st);
  EXPECT_EQ(sdpa(st).generation(), 1);  // one rebuild for the whole query
}

TEST_F(AppUrl, WorksWithoutTheQuestionMark) {
  apply_url_query(st, "mask=causal");
  EXPECT_EQ(model(st).params.mask, MaskKind::Causal);
  EXPECT_TRUE(st.errors.empty()) << all_errors(st);
}

TEST_F(AppUrl, ABadNumberIsReportedAndTheRestStillApplies) {
  apply_url_query(st, "?d_k=abc&mask=causal");
  EXPECT_EQ(model(st).params.mask, MaskKind::Causal);
  EXPECT_EQ(model(st).trace.d_k, 4);  // unchanged
  ASSERT_TRUE(has_key(st, "url")) << all_errors(st);
  EXPECT_NE(all_errors(st).find("d_k"), std::string::npos) << all_errors(st);
}

TEST_F(AppUrl, AnOutOfRangeNumberIsReported) {
  apply_url_query(st, "?d_k=0&seed=7");
  EXPECT_EQ(model(st).trace.d_k, 4);
  EXPECT_EQ(model(st).params.seed, 7u);
  EXPECT_NE(all_errors(st).find("d_k"), std::string::npos) << all_errors(st);
}

TEST_F(AppUrl, AValueThatParsesButCannotBuildIsSkippedAlone) {
  // text "  " is a string, so it parses; only building the model shows it has no tokens. The other
  // parameters must still apply (each one is tried on its own), and the message names the text.
  apply_url_query(st, "?mask=causal&text=%20%20&d_k=6");
  EXPECT_EQ(model(st).params.mask, MaskKind::Causal);
  EXPECT_EQ(model(st).trace.d_k, 6);
  EXPECT_EQ(model(st).trace.n, 11);
  EXPECT_TRUE(has_key(st, "url")) << all_errors(st);
  EXPECT_FALSE(has_key(st, "api")) << all_errors(st);
  EXPECT_NE(all_errors(st).find("text"), std::string::npos) << all_errors(st);
}

TEST_F(AppUrl, AFractionIsReported) {
  apply_url_query(st, "?d_model=2.5");
  EXPECT_EQ(model(st).params.d_model, 16);
  EXPECT_NE(all_errors(st).find("d_model"), std::string::npos) << all_errors(st);
}

TEST_F(AppUrl, UnknownParameterIsReported) {
  apply_url_query(st, "?foo=1");
  ASSERT_TRUE(has_key(st, "url"));
  EXPECT_NE(all_errors(st).find("unknown parameter"), std::string::npos) << all_errors(st);
  EXPECT_NE(all_errors(st).find("foo"), std::string::npos) << all_errors(st);
  EXPECT_EQ(sdpa(st).generation(), 0);
}

// hosts= is the page's (web/playground.js applies it): good origins pass silently, a bad entry is shown.
TEST_F(AppUrl, HostsIsAPageParameterAndBadOriginsAreReported) {
  apply_url_query(st, "?hosts=https%3A%2F%2Fcourse.example.edu,http%3A%2F%2F127.0.0.1%3A8001&embed=1");
  EXPECT_TRUE(st.errors.empty()) << all_errors(st);
  for (const char* bad : {"javascript%3Aalert(1)", "https%3A%2F%2Fa.example%2Fpath", "ftp%3A%2F%2Fa.example", "",
                          "https%3A%2F%2Fa.example%3Ax", "https%3A%2F%2Fa.example,"}) {
    st.errors.clear();
    apply_url_query(st, std::string("?hosts=") + bad);
    ASSERT_TRUE(has_key(st, "url")) << bad;
    EXPECT_NE(all_errors(st).find("not an http(s) origin"), std::string::npos) << all_errors(st);
    EXPECT_EQ(all_errors(st).find("unknown parameter"), std::string::npos) << all_errors(st);
  }
}

TEST_F(AppUrl, SeveralProblemsAreReportedTogether) {
  apply_url_query(st, "?foo=1&d_k=abc&mask=diagonal&text=I%20love%20cats");
  EXPECT_EQ(model(st).trace.n, 3);  // the good one applied
  const std::string e = all_errors(st);
  EXPECT_NE(e.find("foo"), std::string::npos) << e;
  EXPECT_NE(e.find("d_k"), std::string::npos) << e;
  EXPECT_NE(e.find("mask"), std::string::npos) << e;
  int url_messages = 0;
  for (const auto& m : st.errors) url_messages += m.key == "url";
  EXPECT_EQ(url_messages, 1);  // one message listing them all
}

TEST_F(AppUrl, PercentEncodedText) {
  apply_url_query(st, "?text=I%20love%20cats");
  ASSERT_EQ(model(st).query_tokens.size(), 3u);
  EXPECT_EQ(model(st).query_tokens[0], "I");
  EXPECT_EQ(model(st).query_tokens[1], "love");
  EXPECT_EQ(model(st).query_tokens[2], "cats");
  EXPECT_EQ(model(st).params.text, "I love cats");
  EXPECT_TRUE(st.errors.empty()) << all_errors(st);
}

TEST_F(AppUrl, PlusIsASpace) {
  apply_url_query(st, "?text=a+b");
  ASSERT_EQ(model(st).query_tokens.size(), 2u);
  EXPECT_EQ(model(st).query_tokens[0], "a");
  EXPECT_EQ(model(st).query_tokens[1], "b");
}

TEST_F(AppUrl, PercentEncodedUtf8) {
  apply_url_query(st, "?text=%E6%88%91%E7%88%B1%E7%8C%AB");  // 我爱猫
  ASSERT_EQ(model(st).query_tokens.size(), 3u);
  EXPECT_EQ(model(st).query_tokens[0], "我");
  EXPECT_EQ(model(st).query_tokens[2], "猫");
}

TEST_F(AppUrl, BadPercentEscapeIsReported) {
  const std::string text_before = model(st).params.text;
  apply_url_query(st, "?text=%ZZ");
  EXPECT_EQ(model(st).params.text, text_before);
  ASSERT_TRUE(has_key(st, "url"));
  EXPECT_NE(all_errors(st).find("escape"), std::string::npos) << all_errors(st);
}

TEST_F(AppUrl, TruncatedPercentEscapeIsReported) {
  apply_url_query(st, "?mask=causal&text=ab%4");
  EXPECT_EQ(model(st).params.mask, MaskKind::Causal);
  EXPECT_EQ(model(st).query_tokens.size(), 11u);
  EXPECT_NE(all_errors(st).find("escape"), std::string::npos) << all_errors(st);
}

TEST_F(AppUrl, EscapesThatDecodeToInvalidUtf8AreReportedSafely) {
  // %FF, a lone %C3, a surrogate and raw 0xFF are not UTF-8: each is reported, nothing applies, and the
  // page API's JSON still serialises (nlohmann's dump() refuses invalid UTF-8).
  for (const char* q : {"?text=%FF", "?%FF=1", "?d_k=%C3", "?mask=%C3%28", "?lang=%E4%B8", "?source=%ED%A0%80",
                        "?text=a\xFF" "b", "?mask=\xC3"}) {
    PlaygroundState s;
    const std::string before = get_state_json(s, false);
    apply_url_query(s, q);
    bool reported = false;
    for (const auto& m : s.errors) reported |= m.key == "url";
    EXPECT_TRUE(reported) << q;
    EXPECT_EQ(sdpa(s).generation(), 0) << q;
    const std::string after = get_state_json(s, false);  // must serialise
    nlohmann::json j = nlohmann::json::parse(after, nullptr, false);
    ASSERT_FALSE(j.is_discarded()) << q;
    EXPECT_EQ(j["errors"].size(), 1u) << q;
    EXPECT_EQ(j["n"], 11) << q;
  }
}

// A bad escape beside raw bytes that are not UTF-8: the message quotes the pair %-escaped, never the raw bytes.
TEST_F(AppUrl, ABadEscapeBesideRawBytesIsQuotedAsValidUtf8) {
  apply_url_query(st, "?text=%ZZ\xFF" "b");
  ASSERT_TRUE(has_key(st, "url")) << all_errors(st);
  EXPECT_TRUE(utf8_valid(message(st, "url"))) << message(st, "url");
  EXPECT_NE(message(st, "url").find("text%3D%25ZZ%FFb: bad % escape"), std::string::npos) << message(st, "url");
}

TEST_F(AppUrl, PercentEscapeAtTheVeryEnd) {
  apply_url_query(st, "?text=ab%41");  // "abA"
  ASSERT_EQ(model(st).query_tokens.size(), 1u);
  EXPECT_EQ(model(st).query_tokens[0], "abA");
  EXPECT_TRUE(st.errors.empty()) << all_errors(st);
}

TEST_F(AppUrl, EmbedHidesTheControls) {
  apply_url_query(st, "?embed=1");
  EXPECT_TRUE(st.embed);
  EXPECT_FALSE(st.show_controls);
  EXPECT_TRUE(st.errors.empty()) << all_errors(st);
  apply_url_query(st, "?embed=0");
  EXPECT_FALSE(st.embed);
  EXPECT_TRUE(st.show_controls);
}

TEST_F(AppUrl, ControlsCanBeHiddenOnTheirOwn) {
  apply_url_query(st, "?controls=0");
  EXPECT_FALSE(st.show_controls);
  EXPECT_FALSE(st.embed);
}

// The colour maps and the text size are part of a link (issue 8: a lecturer's view restores whole).
TEST_F(AppUrl, ColorsAndZoomRoundTrip) {
  apply_url_query(st, "?colors=colorblind&zoom=1.7");
  EXPECT_TRUE(st.colorblind);
  EXPECT_FLOAT_EQ(st.ui_scale, 1.7f);
  EXPECT_TRUE(st.errors.empty()) << all_errors(st);
  const std::string q = layout_query(st);
  EXPECT_NE(q.find("colors=colorblind"), std::string::npos) << q;
  EXPECT_NE(q.find("zoom=1.7"), std::string::npos) << q;
  PlaygroundState back;
  apply_url_query(back, q);
  EXPECT_TRUE(back.colorblind);
  EXPECT_FLOAT_EQ(back.ui_scale, 1.7f);
  apply_url_query(back, "?colors=default&zoom=1");
  EXPECT_FALSE(back.colorblind);
  EXPECT_EQ(layout_query(back), "");  // the defaults are not written
}

// The weights' colour scale: fixed 0 … 1 by default (issue 17: a uniform 0.09 must not look as dark as 0.80),
// stretched on request, and the request travels in the link.
TEST_F(AppUrl, TheWeightsContrastIsFixedUnlessStretchedAndTravels) {
  EXPECT_FALSE(st.stretch_weights);
  apply_url_query(st, "?contrast=stretch");
  EXPECT_TRUE(st.stretch_weights);
  EXPECT_TRUE(st.errors.empty()) << all_errors(st);
  const std::string q = layout_query(st);
  EXPECT_NE(q.find("contrast=stretch"), std::string::npos) << q;
  PlaygroundState back;
  apply_url_query(back, q);
  EXPECT_TRUE(back.stretch_weights);
  apply_url_query(back, "?contrast=fixed");
  EXPECT_FALSE(back.stretch_weights);
  EXPECT_EQ(layout_query(back), "");
  PlaygroundState bad;
  apply_url_query(bad, "?contrast=max");
  EXPECT_FALSE(bad.stretch_weights);
  ASSERT_EQ(bad.errors.size(), 1u);
  EXPECT_NE(all_errors(bad).find("contrast: max is not fixed or stretch"), std::string::npos) << all_errors(bad);
}

TEST_F(AppUrl, BadColorsAndZoomAreReportedAndChangeNothing) {
  for (const char* q : {"?zoom=9", "?zoom=0", "?zoom=nan", "?zoom=", "?zoom=1.5x", "?colors=rainbow"}) {
    PlaygroundState s;
    apply_url_query(s, q);
    EXPECT_FLOAT_EQ(s.ui_scale, 1.f) << q;
    EXPECT_FALSE(s.colorblind) << q;
    ASSERT_TRUE(has_key(s, "url")) << q;
    const std::string e = all_errors(s);
    EXPECT_TRUE(e.find("zoom") != std::string::npos || e.find("rainbow") != std::string::npos) << q << ": " << e;
  }
}

TEST_F(AppUrl, PresenterKeepsItsLargeTypeWhateverTheOrder) {
  PlaygroundState a, b;
  apply_url_query(a, "?present=1&zoom=1.2");
  apply_url_query(b, "?zoom=1.2&present=1");
  EXPECT_FLOAT_EQ(a.ui_scale, 1.6f);
  EXPECT_FLOAT_EQ(b.ui_scale, 1.6f);
}

TEST_F(AppUrl, Preset) {
  apply_url_query(st, "?preset=cats");
  EXPECT_EQ(model(st).params.source, QkvSource::Custom);
  EXPECT_EQ(model(st).trace.n, 3);
  EXPECT_EQ(model(st).trace.d_k, 2);
  EXPECT_EQ(model(st).query_tokens[2], "cats");
  EXPECT_TRUE(st.errors.empty()) << all_errors(st);
}

TEST_F(AppUrl, UnknownPresetIsReported) {
  apply_url_query(st, "?preset=nope");
  EXPECT_EQ(model(st).trace.n, 11);
  EXPECT_NE(all_errors(st).find("nope"), std::string::npos) << all_errors(st);
}

TEST_F(AppUrl, Step) {
  apply_url_query(st, "?step=3");
  EXPECT_EQ(st.timeline().stage(), 3);
  EXPECT_TRUE(st.errors.empty()) << all_errors(st);
}

// ---- the matrices fragment (m=v1.…): sizes checked in 64 bits before anything is read or built ----------------

// base64url of `bytes` (what encode_matrices wraps in "v1."), for fragments written byte by byte.
std::string fragment(const std::vector<unsigned char>& bytes) {
  static const char k[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  std::string out = "v1.";
  uint32_t acc = 0;
  int bits = 0;
  for (unsigned char c : bytes) {
    acc = (acc << 8) | c;
    bits += 8;
    while (bits >= 6) { bits -= 6; out += k[(acc >> bits) & 63]; }
  }
  if (bits) out += k[(acc << (6 - bits)) & 63];
  return out;
}
// One matrix named Q: rows, cols (u16 little-endian), then `values` float32 zeros.
std::vector<unsigned char> one_matrix(uint32_t rows, uint32_t cols, size_t values) {
  std::vector<unsigned char> b = {1, 1, 'Q', static_cast<unsigned char>(rows & 0xFF), static_cast<unsigned char>(rows >> 8),
                                  static_cast<unsigned char>(cols & 0xFF), static_cast<unsigned char>(cols >> 8)};
  b.resize(b.size() + 4 * values, 0);
  return b;
}

// The link from the issue: one 32768 × 32768 matrix with no data. rows·cols·4 = 2^32 wrapped to 0 in wasm32's
// size_t, the check passed and the decoder read past its buffer (the page aborted). It must be refused for
// what it is, before anything is read.
TEST_F(AppUrl, AMatrixLargerThanItsLinkIsRefusedBeforeItIsRead) {
  const std::string before = get_state_json(st);
  ASSERT_EQ(fragment(one_matrix(32768, 32768, 0)), "v1.AQFRAIAAgA");
  apply_url_query(st, "?scene=sdpa&m=v1.AQFRAIAAgA");
  ASSERT_TRUE(has_key(st, "url")) << all_errors(st);
  EXPECT_NE(message(st, "url").find("m=v1.AQFRAIAAgA: matrices: Q is 32768 × 32768; the limit is 1024 × 1024"), std::string::npos)
      << message(st, "url");
  EXPECT_EQ(parse(get_state_json(st))["matrices"], parse(before)["matrices"]);
  json m;
  const Status s = decode_matrices("v1.AQFRAIAAgA", &m);
  EXPECT_FALSE(s.ok);
  EXPECT_STREQ(s.code, "matrices: {0} is {1} × {2}; the limit is {3} × {3}");
}

TEST_F(AppUrl, MatrixSizesThatWrapIn32BitsOrOutnumberTheirBytesAreRefused) {
  json m;
  struct Case { uint32_t rows, cols; size_t values; const char* code; };
  const Case cases[] = {
      // 65535 × 65535 · 4 and 65536-multiples: wrap a 32-bit size_t; 1024 × 1024 is within the side limit
      {65535, 65535, 0, "matrices: {0} is {1} × {2}; the limit is {3} × {3}"},
      {1024, 1024, 3, "matrices: {0} is {1} × {2} but only {3} values follow"},
      {3, 3, 8, "matrices: {0} is {1} × {2} but only {3} values follow"},
      // empty columns: 65535 JSON rows out of seven bytes
      {65535, 0, 0, "matrices: {0} is {1} × {2}; only a 0 × 0 matrix may be empty"},
      {1, 0, 0, "matrices: {0} is {1} × {2}; only a 0 × 0 matrix may be empty"},
      {0, 7, 0, "matrices: {0} is {1} × {2}; only a 0 × 0 matrix may be empty"},
  };
  for (const Case& c : cases) {
    const std::string f = fragment(one_matrix(c.rows, c.cols, c.values));
    const Status s = decode_matrices(f, &m);
    EXPECT_FALSE(s.ok) << c.rows << " × " << c.cols;
    EXPECT_STREQ(s.ok ? "ok" : s.code, c.code) << c.rows << " × " << c.cols << ": " << s.message;
  }
  EXPECT_EQ(decode_matrices(fragment(one_matrix(3, 3, 8)), &m).message, "matrices: Q is 3 × 3 but only 8 values follow");
  // What the encoder writes still reads: 0 × 0 ([]), and a matrix with exactly its values.
  ASSERT_TRUE(decode_matrices(fragment(one_matrix(0, 0, 0)), &m).ok);
  EXPECT_EQ(m, json({{"Q", json::array()}}));
  ASSERT_TRUE(decode_matrices(fragment(one_matrix(2, 3, 6)), &m).ok);
  EXPECT_EQ(m["Q"].size(), 2u);
  // And the link says so on screen rather than "ok" for each.
  for (const Case& c : cases) {
    PlaygroundState fresh;
    apply_url_query(fresh, "?scene=sdpa&m=" + fragment(one_matrix(c.rows, c.cols, c.values)));
    EXPECT_NE(message(fresh, "url").find("matrices: Q is"), std::string::npos) << message(fresh, "url");
  }
}

// The welcome (main.cpp opens it for a page outside an iframe): a bare query keeps it; a link to a view, an
// embed's layout or welcome=0 closes it; welcome=1 asks for it; a bad value is reported and changes nothing.
TEST_F(AppUrl, ABareVisitKeepsTheWelcomeAndALinkToAViewDoesNot) {
  for (const char* q : {"?lang=zh", "?zoom=1.5&present=1", "?colors=colorblind&contrast=stretch", "?", ""}) {
    PlaygroundState s;
    s.welcome = true;
    apply_url_query(s, q);
    EXPECT_TRUE(s.welcome) << q;
    EXPECT_TRUE(s.errors.empty()) << q << all_errors(s);
  }
  for (const char* q : {"?scene=sdpa", "?preset=cats", "?embed=1", "?hide=controls", "?controls=0", "?step=2", "?d_k=8",
                        "?lang=zh&text=I%20love%20cats", "?welcome=0", "?hosts=http://127.0.0.1:8001", "?speed=2"}) {
    PlaygroundState s;
    s.welcome = true;
    apply_url_query(s, q);
    EXPECT_FALSE(s.welcome) << q;
  }
  PlaygroundState asked;
  apply_url_query(asked, "?scene=masks&welcome=1");
  EXPECT_TRUE(asked.welcome);
  EXPECT_EQ(asked.scene().id(), std::string("masks"));
  PlaygroundState bad;
  bad.welcome = true;
  apply_url_query(bad, "?welcome=yes");
  EXPECT_TRUE(bad.welcome);
  EXPECT_TRUE(has_key(bad, "url")) << all_errors(bad);
  // The link of a view never carries it.
  EXPECT_EQ(state_to_query(asked).find("welcome"), std::string::npos) << state_to_query(asked);
  // getState reports it and setState sets it (a boolean, all or nothing).
  EXPECT_TRUE(state(asked, false)["welcome"].get<bool>());
  EXPECT_FALSE(parse(set_state_json(asked, R"({"welcome": "no", "scene": "sdpa"})")).value("ok", true));
  EXPECT_TRUE(asked.welcome);
  EXPECT_EQ(asked.scene().id(), std::string("masks"));
  EXPECT_TRUE(parse(set_state_json(asked, R"({"welcome": false})")).value("ok", false));
  EXPECT_FALSE(asked.welcome);
}

TEST_F(AppUrl, EmptyQueriesChangeNothing) {
  const std::string before = get_state_json(st);
  for (const char* q : {"", "?", "?&", "&&"}) {
    apply_url_query(st, q);
    EXPECT_EQ(get_state_json(st), before) << "query '" << q << "'";
    EXPECT_TRUE(st.errors.empty()) << "query '" << q << "': " << all_errors(st);
    EXPECT_EQ(sdpa(st).generation(), 0) << "query '" << q << "'";
    EXPECT_FALSE(st.embed);
    EXPECT_TRUE(st.show_controls);
  }
}

// Issue 14, item 9: a key given twice was resolved by order without a word.
TEST_F(AppUrl, ARepeatedKeyIsReportedAndTheFirstValueIsUsed) {
  apply_url_query(st, "?d_k=4&d_k=5");
  EXPECT_EQ(num(state(st, false)["d_k"]), 4);
  EXPECT_NE(message(st, "url").find("d_k is given more than once"), std::string::npos) << all_errors(st);
  st.errors.clear();
  apply_url_query(st, "?scene=sdpa&scene=masks");
  EXPECT_EQ(st.scene().id(), std::string("sdpa"));
  EXPECT_NE(message(st, "url").find("scene is given more than once"), std::string::npos) << all_errors(st);
  st.errors.clear();
  apply_url_query(st, "?preset=cats&preset=one-query");
  EXPECT_NE(message(st, "url").find("preset is given more than once"), std::string::npos) << all_errors(st);
}

// Issue 14, item 4: link() dropped the animation speed.
TEST_F(AppUrl, TheSpeedTravelsInTheLink) {
  st.timeline().set_speed(4);
  const std::string q = state_to_query(st);
  EXPECT_NE(q.find("speed=4"), std::string::npos) << q;
  PlaygroundState other;
  apply_url_query(other, q);
  EXPECT_DOUBLE_EQ(other.timeline().speed(), 4.0);
  EXPECT_TRUE(other.errors.empty()) << all_errors(other);
  apply_url_query(other, "?speed=100");  // out of range: refused with a message, the speed kept
  EXPECT_DOUBLE_EQ(other.timeline().speed(), 4.0);
  EXPECT_TRUE(has_key(other, "url"));
}

}  // namespace
}  // namespace ap
