// UTF-8, the one helper the whole program uses (tokenizer, URL and page-API text, math text, labels).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

namespace ap {

// Decodes the code point at s[i] (of `size` bytes). Returns its byte length, or 0 when the bytes there are
// not valid UTF-8: a stray continuation byte, a truncated sequence, an overlong form, a surrogate or a
// value above U+10FFFF.
int utf8_decode(const char* s, size_t size, size_t i, uint32_t* cp);
inline int utf8_decode(const std::string& s, size_t i, uint32_t* cp) { return utf8_decode(s.data(), s.size(), i, cp); }

// True when every byte of `s` belongs to a valid UTF-8 sequence.
bool utf8_valid(const std::string& s);

// Byte length of the sequence a lead byte announces (1 for ASCII and for invalid bytes, so that a loop
// over text always moves on). For drawing, where the text is already known to be valid.
int utf8_lead_length(unsigned char c);

// The longest prefix of `s` of at most `max_bytes` bytes that does not cut a character in two.
std::string utf8_prefix(const std::string& s, size_t max_bytes);

// Appends code point `cp` encoded as UTF-8.
void utf8_append(std::string* out, uint32_t cp);

}  // namespace ap
