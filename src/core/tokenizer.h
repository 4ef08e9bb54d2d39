// A small, predictable tokenizer for the playground: it is a teaching aid, not a BPE.
//   - words: runs of letters, digits and inner apostrophes ("didn't" is one token)
//   - each ASCII punctuation mark is a token of its own ("tired." -> "tired", ".")
//   - each CJK ideograph or CJK punctuation mark is a token ("我爱猫" -> "我", "爱", "猫")
//   - "[PAD]" is the padding token; the padding mask hides keys that are "[PAD]"
#pragma once
#include <string>
#include <vector>

#include "status.h"

namespace ap {

extern const char* const kPadToken;  // "[PAD]"

// Fails on invalid UTF-8, text over limits::kMaxTextBytes, no tokens at all, or more than max_tokens
// tokens (the message gives the count). On failure `tokens` is untouched.
Status tokenize(const std::string& text, int max_tokens, std::vector<std::string>* tokens);

// The runs of text between ASCII white space (what `std::istringstream >> word` reads in the C locale, without
// pulling iostreams and locales into the page's module): "  the cat\tsat " -> "the", "cat", "sat". The trained
// models' sentences and the training worker's messages are split this way; no UTF-8 check, no limit.
std::vector<std::string> split_on_spaces(const std::string& text);

}  // namespace ap
