// The URL's matrices fragment (app/url.h decode_matrices): every input is refused or decodes to matrices that
// re-encode and decode to the same JSON. The bytes are tried twice: as the text of the link (mostly refused
// at "v1."), and as the binary the fragment carries (wrapped in "v1." + base64url), where the sizes are.
#include <cstddef>
#include <cstdint>
#include <string>

#include "app/url.h"
#include "fuzz_common.h"

namespace {

std::string base64url(const uint8_t* data, size_t size) {
  static const char k[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  std::string out;
  uint32_t acc = 0;
  int bits = 0;
  for (size_t i = 0; i < size; ++i) {
    acc = (acc << 8) | data[i];
    bits += 8;
    while (bits >= 6) { bits -= 6; out += k[(acc >> bits) & 63]; }
  }
  if (bits) out += k[(acc << (6 - bits)) & 63];
  return out;
}

void check(const std::string& text) {
  nlohmann::json m;
  const ap::Status s = ap::decode_matrices(text, &m);
  if (!s.ok) {
    AP_FUZZ_CHECK(s.code && !s.message.empty(), "a refusal without a message");
    return;
  }
  AP_FUZZ_CHECK(m.is_object(), "decoded matrices are not an object");
  const std::string again = ap::encode_matrices(m);
  nlohmann::json back;
  const ap::Status s2 = ap::decode_matrices(again, &back);
  AP_FUZZ_CHECK(s2.ok, "re-encoded matrices refused: " + s2.message);
  AP_FUZZ_CHECK(back == m, "matrices do not round-trip");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  check(std::string(reinterpret_cast<const char*>(data), size));
  check("v1." + base64url(data, size));
  return 0;
}
