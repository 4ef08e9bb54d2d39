// The .npy reader (app/array_io.h read_npy): every input is refused with a message or read into an array
// within the limits whose write_npy reads back the same; attention_from_array then never crashes.
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "app/array_io.h"
#include "fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ap::NdArray a;
  const ap::Status s = ap::read_npy(data, size, &a);
  if (!s.ok) {
    AP_FUZZ_CHECK(s.code && !s.message.empty(), "a refusal without a message");
    return 0;
  }
  long long count = 1;
  for (long long d : a.shape) count *= d;
  AP_FUZZ_CHECK(static_cast<size_t>(count) == a.data.size(), "shape and values disagree");
  AP_FUZZ_CHECK(count <= ap::io_limits::kMaxValues, "over the value limit");
  const std::vector<unsigned char> f = ap::write_npy(a);
  ap::NdArray b;
  const ap::Status s2 = ap::read_npy(f.data(), f.size(), &b);
  AP_FUZZ_CHECK(s2.ok, "write_npy's file refused: " + s2.message);
  AP_FUZZ_CHECK(b.shape == a.shape, "shape does not round-trip");
  // Bit for bit (an empty array, a zero in its shape, has no data pointer to compare).
  AP_FUZZ_CHECK(b.data.size() == a.data.size() && (a.data.empty() || std::memcmp(b.data.data(), a.data.data(), 4 * a.data.size()) == 0),
                "values do not round-trip");
  ap::AttentionWeights w;
  (void)ap::attention_from_array(a, &w);
  return 0;
}
