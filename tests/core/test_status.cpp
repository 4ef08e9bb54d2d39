// A status's message (core/status.h, format_template in core/matrix.cpp): the values fill the template's {k}, and
// control characters inside a value are written as \xNN (a NUL sent as a scene's name ended the message on
// screen, while the page API returned all of it: found by the page-API fuzz test; the localized message is
// tests/app/test_i18n.cpp's).
#include <gtest/gtest.h>

#include <string>

#include "core/status.h"

namespace ap {
namespace AP_UNITY_ID {  // this file's own namespace in a unity build (CMakeLists.txt, AP_UNITY)

TEST(CoreStatus, ValuesFillTheTemplateAndControlCharactersAreEscaped) {
  EXPECT_EQ(Status::Error("{0} must be between {1} and {2}", {"d_k", "1", "64"}).message, "d_k must be between 1 and 64");
  const Status nul = Status::Error("unknown scene '{0}'", {std::string("a\0b", 3)});
  EXPECT_EQ(nul.message, "unknown scene 'a\\x00b'");
  EXPECT_EQ(nul.message.find('\0'), std::string::npos);
  EXPECT_EQ(Status::Error("'{0}'", {"\x1b[31m\x7f"}).message, "'\\x1B[31m\\x7F'");
  EXPECT_EQ(Status::Error("'{0}'", {"two\nlines\ttab, 中文"}).message, "'two\nlines\ttab, 中文'");  // kept as they are
  EXPECT_EQ(Status::Error("{1} {0} {9}", {"a", "b"}).message, "b a {9}");  // a missing value stays as written
}

}  // namespace
}  // namespace ap
