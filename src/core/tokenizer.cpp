#include "tokenizer.h"

#include <cctype>
#include <cstdint>

#include "matrix.h"

namespace ap {

const char* const kPadToken = "[PAD]";

namespace {

// Decodes one UTF-8 code point at s[i]; returns its byte length, or 0 if the bytes are not valid UTF-8.
int decode_utf8(const std::string& s, size_t i, uint32_t* cp) {
  const auto b = [&](size_t k) { return static_cast<uint8_t>(s[k]); };
  const uint8_t c = b(i);
  int len;
  uint32_t v;
  if (c < 0x80) { *cp = c; return 1; }
  if ((c & 0xE0) == 0xC0) { len = 2; v = c & 0x1F; }
  else if ((c & 0xF0) == 0xE0) { len = 3; v = c & 0x0F; }
  else if ((c & 0xF8) == 0xF0) { len = 4; v = c & 0x07; }
  else return 0;
  if (i + len > s.size()) return 0;
  for (int k = 1; k < len; ++k) {
    if ((b(i + k) & 0xC0) != 0x80) return 0;
    v = (v << 6) | (b(i + k) & 0x3F);
  }
  static const uint32_t kMin[5] = {0, 0, 0x80, 0x800, 0x10000};
  if (v < kMin[len] || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) return 0;  // overlong / surrogate
  *cp = v;
  return len;
}

bool is_space(uint32_t c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v' || c == 0x3000 || c == 0xA0; }
bool is_cjk(uint32_t c) {
  return (c >= 0x2E80 && c <= 0x9FFF) || (c >= 0xF900 && c <= 0xFAFF) || (c >= 0xFF00 && c <= 0xFFEF) ||
         (c >= 0x20000 && c <= 0x2FFFF);
}
bool is_ascii_punct(uint32_t c) { return c < 0x80 && !is_space(c) && !((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')); }

}  // namespace

Status tokenize(const std::string& text, int max_tokens, std::vector<std::string>* tokens) {
  if (text.size() > limits::kMaxTextBytes)
    return Status::Error("the text is " + std::to_string(text.size()) + " bytes; the limit is " +
                         std::to_string(limits::kMaxTextBytes));
  std::vector<std::string> out;
  std::string word;
  const auto flush = [&] { if (!word.empty()) { out.push_back(word); word.clear(); } };
  for (size_t i = 0; i < text.size();) {
    uint32_t c;
    const int len = decode_utf8(text, i, &c);
    if (len == 0) return Status::Error("the text is not valid UTF-8 (byte " + std::to_string(i) + ")");
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
    return Status::Error("the text has " + std::to_string(out.size()) + " tokens; the limit is " +
                         std::to_string(max_tokens));
  *tokens = std::move(out);
  return Status::Ok();
}

}  // namespace ap
