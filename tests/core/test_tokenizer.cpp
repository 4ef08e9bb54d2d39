// Unit tests for the playground tokenizer (core/tokenizer.h).
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "core/matrix.h"
#include "core/tokenizer.h"

namespace ap {
namespace AP_UNITY_ID {  // this file's own namespace in a unity build (CMakeLists.txt, AP_UNITY)

using Tokens = std::vector<std::string>;

// Tokenizes with the app's limit and expects success.
Tokens tok(const std::string& text) {
  Tokens t;
  const Status s = tokenize(text, limits::kMaxTokens, &t);
  EXPECT_TRUE(s.ok) << s.message;
  return t;
}

// Expects failure with a message (containing `must_mention` when given) and an untouched output.
void expect_refused(const std::string& text, int max_tokens, const std::string& must_mention = "") {
  Tokens t = {"sentinel", "tokens"};
  const Status s = tokenize(text, max_tokens, &t);
  EXPECT_FALSE(s.ok) << "text of " << text.size() << " bytes";
  EXPECT_FALSE(s.message.empty());
  if (!must_mention.empty()) {
    EXPECT_NE(s.message.find(must_mention), std::string::npos) << s.message;
  }
  EXPECT_EQ(t, (Tokens{"sentinel", "tokens"}));
}

std::string words(int count) {
  std::string s;
  for (int i = 0; i < count; ++i) s += (i ? " w" : "w");
  return s;
}

TEST(CoreTokenizer, DefaultSentenceHasElevenTokens) {
  const Tokens t = tok("The animal didn't cross the street because it was too tired");
  EXPECT_EQ(t, (Tokens{"The", "animal", "didn't", "cross", "the", "street", "because", "it", "was", "too",
                       "tired"}));
  EXPECT_EQ(t.size(), 11u);
}

TEST(CoreTokenizer, PunctuationIsSplitOff) {
  EXPECT_EQ(tok("it was too tired."), (Tokens{"it", "was", "too", "tired", "."}));
  EXPECT_EQ(tok("Hello, world! (yes)"), (Tokens{"Hello", ",", "world", "!", "(", "yes", ")"}));
  EXPECT_EQ(tok("a--b"), (Tokens{"a", "-", "-", "b"}));
  EXPECT_EQ(tok("3.14"), (Tokens{"3", ".", "14"}));
  EXPECT_EQ(tok("?!"), (Tokens{"?", "!"}));
}

TEST(CoreTokenizer, InnerApostrophesStayInTheWord) {
  EXPECT_EQ(tok("didn't it's"), (Tokens{"didn't", "it's"}));
  EXPECT_EQ(tok("cats'"), (Tokens{"cats", "'"}));         // trailing: punctuation
  EXPECT_EQ(tok("'tis"), (Tokens{"'", "tis"}));           // leading: punctuation
  EXPECT_EQ(tok("rock 'n' roll"), (Tokens{"rock", "'", "n", "'", "roll"}));
}

TEST(CoreTokenizer, ChineseIdeographsAreOneTokenEach) {
  EXPECT_EQ(tok("我爱猫"), (Tokens{"我", "爱", "猫"}));
  EXPECT_EQ(tok("我爱猫。"), (Tokens{"我", "爱", "猫", "。"}));     // CJK full stop
  EXPECT_EQ(tok("猫，狗"), (Tokens{"猫", "，", "狗"}));              // full-width comma
  EXPECT_EQ(tok("I love 猫s"), (Tokens{"I", "love", "猫", "s"}));
}

TEST(CoreTokenizer, OtherUnicodeLettersFormWords) {
  EXPECT_EQ(tok("café naïve"), (Tokens{"café", "naïve"}));
  EXPECT_EQ(tok("cats \xF0\x9F\x90\xB1"), (Tokens{"cats", "\xF0\x9F\x90\xB1"}));  // 4-byte code point intact
}

TEST(CoreTokenizer, PadTokenIsRecognised) {
  EXPECT_EQ(tok("The cat [PAD] [PAD]"), (Tokens{"The", "cat", kPadToken, kPadToken}));
  EXPECT_EQ(tok("[PAD][PAD]"), (Tokens{"[PAD]", "[PAD]"}));
  EXPECT_EQ(tok("cats[PAD]."), (Tokens{"cats", "[PAD]", "."}));
  // only the exact spelling
  EXPECT_EQ(tok("[pad]"), (Tokens{"[", "pad", "]"}));
  EXPECT_EQ(tok("[PAD"), (Tokens{"[", "PAD"}));
  EXPECT_STREQ(kPadToken, "[PAD]");
}

TEST(CoreTokenizer, MixedWhitespaceSeparates) {
  EXPECT_EQ(tok(" \tThe\nanimal\r\n\v\fdidn't   cross \t"), (Tokens{"The", "animal", "didn't", "cross"}));
  EXPECT_EQ(tok("cat\xC2\xA0" "dog"), (Tokens{"cat", "dog"}));        // no-break space
  EXPECT_EQ(tok("cat\xE3\x80\x80" "dog"), (Tokens{"cat", "dog"}));    // ideographic space
}

TEST(CoreTokenizer, EmptyOrBlankTextIsRefused) {
  expect_refused("", limits::kMaxTokens);
  expect_refused("   ", limits::kMaxTokens);
  expect_refused("\t\n\r ", limits::kMaxTokens);
  expect_refused("\xE3\x80\x80", limits::kMaxTokens);  // only an ideographic space
}

TEST(CoreTokenizer, InvalidUtf8IsRefused) {
  const char* bad[] = {
      "\xff",               // never valid
      "abc\xc3",            // truncated 2-byte sequence
      "\x80",               // lone continuation byte
      "\xc0\xaf",           // overlong '/'
      "\xed\xa0\x80",       // UTF-16 surrogate
      "\xf4\x90\x80\x80",   // above U+10FFFF
      "ok \xe6\x88",        // truncated 3-byte sequence at the end
      "\xe6\x88" "a",       // broken continuation
  };
  for (const char* text : bad) {
    SCOPED_TRACE(text);
    expect_refused(text, limits::kMaxTokens, "UTF-8");
  }
}

TEST(CoreTokenizer, TooManyTokensGivesTheCount) {
  expect_refused(words(10000), limits::kMaxTokens, "10000");
  expect_refused(words(limits::kMaxTokens + 1), limits::kMaxTokens, "1025");
  expect_refused("a b c", 2, "3");
  EXPECT_EQ(tok(words(limits::kMaxTokens)).size(), static_cast<size_t>(limits::kMaxTokens));
}

TEST(CoreTokenizer, TextOverTheByteLimitIsRefused) {
  expect_refused(std::string(limits::kMaxTextBytes + 1, 'a'), limits::kMaxTokens,
                 std::to_string(limits::kMaxTextBytes));
  // the limit itself is fine: one long word
  const Tokens t = tok(std::string(limits::kMaxTextBytes, 'a'));
  ASSERT_EQ(t.size(), 1u);
  EXPECT_EQ(t[0].size(), limits::kMaxTextBytes);
}

TEST(CoreTokenizer, SuccessReplacesPreviousContent) {
  Tokens t = {"old", "old", "old", "old", "old"};
  ASSERT_TRUE(tokenize("new text", 10, &t).ok);
  EXPECT_EQ(t, (Tokens{"new", "text"}));
}

// split_on_spaces is what `istringstream >> word` reads (the reference), on every ASCII space and on bytes that
// are not spaces (UTF-8, punctuation, NUL-free control characters).
TEST(CoreTokenizer, SplitOnSpacesReadsWhatAnInputStreamReads) {
  const std::vector<std::string> texts = {"", " ", "the cat", "  the\tcat\n\nsat \r\f\v on  ", "one",
                                          "le chat  noir", "\x01a\x02 b", "猫 在\t垫子上", "a.b, c;d"};
  for (const std::string& text : texts) {
    Tokens expected;
    std::istringstream in(text);
    for (std::string w; in >> w;) expected.push_back(w);
    EXPECT_EQ(split_on_spaces(text), expected) << "text: " << text;
  }
  EXPECT_EQ(split_on_spaces(" x  y "), (Tokens{"x", "y"}));  // and not vacuously: a known answer
}

}  // namespace
}  // namespace ap
