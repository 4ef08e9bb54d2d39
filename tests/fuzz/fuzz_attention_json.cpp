// Attention weights from a file (app/array_io.h read_attention_json, read_attention_file): every input is
// refused with a message or read into weights within the limits, whose JSON (attention_weights_json and the
// tokens) reads back to the same weights.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "app/array_io.h"
#include "core/utf8.h"
#include "fuzz_common.h"

namespace {
void check_weights(const ap::AttentionWeights& w) {
  AP_FUZZ_CHECK(w.layers >= 1 && w.layers <= ap::io_limits::kMaxLayers, "layers out of range");
  AP_FUZZ_CHECK(w.heads >= 1 && w.heads <= ap::io_limits::kMaxHeads, "heads out of range");
  AP_FUZZ_CHECK(w.n >= 1 && w.n <= ap::io_limits::kMaxTokens, "n out of range");
  AP_FUZZ_CHECK(w.maps.size() == static_cast<size_t>(w.layers * w.heads), "maps and layers × heads disagree");
  AP_FUZZ_CHECK(w.tokens.empty() || w.tokens.size() == static_cast<size_t>(w.n), "tokens and n disagree");
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ap::AttentionWeights w;
  const ap::Status s = ap::read_attention_json(reinterpret_cast<const char*>(data), size, &w);
  if (s.ok) {
    check_weights(w);
    nlohmann::json doc = {{"attention", ap::attention_weights_json(w)}};
    if (!w.tokens.empty()) doc["tokens"] = w.tokens;
    const std::string text = doc.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    ap::AttentionWeights back;
    const ap::Status s2 = ap::read_attention_json(text.data(), text.size(), &back);
    // Tokens that are not UTF-8 are replaced when written out; the weights must still read back.
    AP_FUZZ_CHECK(s2.ok, "the weights' own JSON refused: " + s2.message);
    AP_FUZZ_CHECK(back.layers == w.layers && back.heads == w.heads && back.n == w.n, "sizes do not round-trip");
    AP_FUZZ_CHECK(back.maps == w.maps && back.tokens == w.tokens, "weights do not round-trip");
  } else {
    AP_FUZZ_CHECK(s.code && !s.message.empty(), "a refusal without a message");
  }
  // The import's way in: dispatch on the magic string and the name.
  const std::vector<unsigned char> bytes(data, data + size);
  for (const char* name : {"weights.json", "weights.npy"}) {
    ap::AttentionWeights f;
    if (ap::read_attention_file(name, bytes, &f).ok) check_weights(f);
  }
  return 0;
}
