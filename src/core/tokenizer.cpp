#include "tokenizer.h"

#include <cctype>
#include <cstdint>

#include "matrix.h"
#include "utf8.h"

namespace ap {

const char* const kPadToken = "[PAD]";

namespace {

bool is_space(uint32_t c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v' || c == 0x3000 || c == 0xA0; }
bool is_cjk(uint32_t c) {
  return (c >= 0x2E80 && c <= 0x9FFF) || (c >= 0xF900 && c <= 0xFAFF) || (c >= 0xFF00 && c <= 0xFFEF) ||
         (c >= 0x20000 && c <= 0x2FFFF);
}
bool is_ascii_punct(uint32_t c) { return c < 0x80 && !is_space(c) && !((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')); }

}  // namespace

Status tokenize(const std::string& text, int max_tokens, std::vector<std::string>* tokens) {
  if (text.size() > limits::kMaxTextBytes)
    return Status::Error("the text is {0} bytes; the limit is {1}",
                         {arg(static_cast<long long>(text.size())), arg(static_cast<long long>(limits::kMaxTextBytes))});
  std::vector<std::string> out;
  std::string word;
  const auto flush = [&] { if (!word.empty()) { out.push_back(word); word.clear(); } };
  for (size_t i = 0; i < text.size();) {
    uint32_t c;
    const int len = utf8_decode(text, i, &c);
    if (len == 0) return Status::Error("the text is not valid UTF-8 (byte {0})", {arg(static_cast<long long>(i))});
    const std::string ch = text.substr(i, len);
    if (text.compare(i, 5, kPadToken) == 0) {  // the padding token, written as-is
      flush();
      out.push_back(kPadToken);
      i += 5;
      continue;
    }
    if (is_space(c) || c < 0x20) {
      flush();
    } else if (c == '\'' && !word.empty() && i + 1 < text.size() &&
               std::isalnum(static_cast<unsigned char>(text[i + 1]))) {
      word += ch;  // inner apostrophe: didn't, it's
    } else if (is_ascii_punct(c) || is_cjk(c)) {
      flush();
      out.push_back(ch);
    } else {
      word += ch;
    }
    i += len;
  }
  flush();
  if (out.empty()) return Status::Error("the text has no tokens: type at least one word");
  if (static_cast<int>(out.size()) > max_tokens)
    return Status::Error("the text has {0} tokens; the limit is {1}",
                         {arg(static_cast<long long>(out.size())), arg(max_tokens)});
  *tokens = std::move(out);
  return Status::Ok();
}

std::vector<std::string> split_on_spaces(const std::string& text) {
  std::vector<std::string> words;
  const auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; };
  for (size_t i = 0; i < text.size();) {
    while (i < text.size() && space(text[i])) ++i;
    const size_t from = i;
    while (i < text.size() && !space(text[i])) ++i;
    if (i > from) words.push_back(text.substr(from, i - from));
  }
  return words;
}

}  // namespace ap
