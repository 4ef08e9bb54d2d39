// Training engine: the bytes every checkpoint shares — an envelope (magic, version, payload length, payload,
// FNV-1a checksum) and a list of named row-major float32 parameters. checkpoint.h (the attention models) and
// seq2seq_checkpoint.h (the encoder–decoders) write their recipes inside it.
//
//   envelope  4-byte magic · u32 version · u32 payload bytes · payload · u64 FNV-1a of the payload
//   params    u32 count · per parameter: u8 len + name · u32 rows · u32 cols · rows·cols f32
#pragma once
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "core/matrix.h"
#include "core/status.h"
#include "param_store.h"

namespace ap {
namespace train {

void put_bytes(std::vector<uint8_t>* out, const void* p, size_t n);
template <typename T>
void put(std::vector<uint8_t>* out, T v) {
  put_bytes(out, &v, sizeof(T));
}
void put_string(std::vector<uint8_t>* out, const std::string& s);  // u8 length + bytes (at most 255)

// Reads a payload; any read past its end marks it short (and returns zeros).
struct Reader {
  const uint8_t* p = nullptr;
  size_t n = 0, at = 0;
  bool short_read = false;
  template <typename T>
  T get() {
    T v{};
    if (at + sizeof(T) > n) {
      short_read = true;
      at = n;
      return v;
    }
    std::memcpy(&v, p + at, sizeof(T));
    at += sizeof(T);
    return v;
  }
  std::string get_string();
};

// `payload` in its envelope.
void seal_checkpoint(const char magic[4], uint32_t version, const std::vector<uint8_t>& payload, std::vector<uint8_t>* out);
// Checks, in order: length, magic, version, payload length (truncated / bytes after the end), checksum; then
// *payload reads the payload. Each failure says which, by name.
Status open_checkpoint(const uint8_t* bytes, size_t size, const char magic[4], uint32_t version, Reader* payload);

// A file of several checkpoints one after the other (the Luong scene's three models): the byte ranges of each,
// by the payload length its header gives. Refused: an empty file, or one whose last envelope is cut (named by
// its place); each range is then read by open_checkpoint, which checks the rest.
Status split_checkpoints(const uint8_t* bytes, size_t size, std::vector<std::pair<const uint8_t*, size_t>>* parts);

// Every parameter of `ps`, in order; `values` (may be null): the parameters' values concatenated in that order,
// written instead of the current ones (a run's last measured weights).
void put_params(std::vector<uint8_t>* out, const ParamStore& ps, const float* values = nullptr);
// The list written by put_params (names, shapes within 4096, bytes present), the reader left after it; the
// names and shapes against a model are the caller's to check (check_params).
Status get_params(Reader& rd, std::vector<std::pair<std::string, Mat>>* weights);
// The weights against `ps`: the same count, every name present with its shape, every value finite.
Status check_params(const std::vector<std::pair<std::string, Mat>>& weights, const ParamStore& ps);

}  // namespace train
}  // namespace ap
