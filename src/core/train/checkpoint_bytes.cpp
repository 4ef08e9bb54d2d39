#include "checkpoint_bytes.h"

namespace ap {
namespace train {

namespace {
constexpr size_t kHeader = 12, kTrailer = 8;

uint64_t fnv1a(const uint8_t* p, size_t n) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 1099511628211ull;
  return h;
}
}  // namespace

void put_bytes(std::vector<uint8_t>* out, const void* p, size_t n) {
  const size_t at = out->size();
  out->resize(at + n);
  if (n) std::memcpy(out->data() + at, p, n);
}

void put_string(std::vector<uint8_t>* out, const std::string& s) {
  const size_t len = std::min<size_t>(s.size(), 255);
  put<uint8_t>(out, static_cast<uint8_t>(len));
  put_bytes(out, s.data(), len);
}

std::string Reader::get_string() {
  const size_t len = get<uint8_t>();
  if (at + len > n) {
    short_read = true;
    at = n;
    return {};
  }
  std::string s(reinterpret_cast<const char*>(p + at), len);
  at += len;
  return s;
}

void seal_checkpoint(const char magic[4], uint32_t version, const std::vector<uint8_t>& payload, std::vector<uint8_t>* out) {
  out->clear();
  put_bytes(out, magic, 4);
  put<uint32_t>(out, version);
  put<uint32_t>(out, static_cast<uint32_t>(payload.size()));
  put_bytes(out, payload.data(), payload.size());
  put<uint64_t>(out, fnv1a(payload.data(), payload.size()));
}

Status open_checkpoint(const uint8_t* bytes, size_t size, const char magic[4], uint32_t version, Reader* payload) {
  // 1) the header
  if (!bytes || size < kHeader + kTrailer)
    return Status::Error("the checkpoint is too short to be one ({0} bytes)", {arg(static_cast<long long>(size))});
  if (std::memcmp(bytes, magic, 4) != 0)
    return Status::Error("this is not a checkpoint of the playground (it does not start with {0})", {std::string(magic, 4)});
  uint32_t v, payload_bytes;
  std::memcpy(&v, bytes + 4, 4);
  std::memcpy(&payload_bytes, bytes + 8, 4);
  if (v != version) return Status::Error("the checkpoint is version {0}; this build reads version {1}", {arg(v), arg(version)});
  const size_t want = kHeader + static_cast<size_t>(payload_bytes) + kTrailer;
  if (size < want)
    return Status::Error("the checkpoint is truncated: {0} bytes, its header says {1}", {arg(static_cast<long long>(size)), arg(static_cast<long long>(want))});
  if (size > want) return Status::Error("the checkpoint has {0} bytes after its end", {arg(static_cast<long long>(size - want))});
  // 2) the checksum
  const uint8_t* p = bytes + kHeader;
  uint64_t sum;
  std::memcpy(&sum, p + payload_bytes, 8);
  if (sum != fnv1a(p, payload_bytes)) return Status::Error("the checkpoint is damaged: its checksum does not match");
  *payload = Reader{p, payload_bytes};
  return Status::Ok();
}

Status split_checkpoints(const uint8_t* bytes, size_t size, std::vector<std::pair<const uint8_t*, size_t>>* parts) {
  std::vector<std::pair<const uint8_t*, size_t>> v;
  size_t at = 0;
  while (bytes && at < size) {
    uint32_t payload_bytes = 0;
    if (size - at >= kHeader) std::memcpy(&payload_bytes, bytes + at + 8, 4);
    const size_t want = kHeader + static_cast<size_t>(payload_bytes) + kTrailer;
    if (size - at < want)  // too short for even a header, or a payload longer than what is left
      return Status::Error("checkpoint {0} of the file is truncated: {1} bytes left, it needs {2}",
                           {arg(static_cast<long long>(v.size() + 1)), arg(static_cast<long long>(size - at)),
                            arg(static_cast<long long>(size - at >= kHeader ? want : kHeader + kTrailer))});
    v.push_back({bytes + at, want});
    at += want;
  }
  if (v.empty()) return Status::Error("the checkpoint is too short to be one ({0} bytes)", {arg(static_cast<long long>(size))});
  *parts = std::move(v);
  return Status::Ok();
}

void put_params(std::vector<uint8_t>* out, const ParamStore& ps, const float* values) {
  put<uint32_t>(out, static_cast<uint32_t>(ps.size()));
  size_t at = 0;
  for (size_t i = 0; i < ps.size(); ++i) {
    const size_t count = static_cast<size_t>(ps[i].value.size());
    put_string(out, ps[i].name);
    put<uint32_t>(out, static_cast<uint32_t>(ps[i].value.rows()));
    put<uint32_t>(out, static_cast<uint32_t>(ps[i].value.cols()));
    put_bytes(out, values ? values + at : ps[i].value.data(), sizeof(float) * count);
    at += count;
  }
}

Status get_params(Reader& rd, std::vector<std::pair<std::string, Mat>>* weights) {
  const uint32_t count = rd.get<uint32_t>();
  if (rd.short_read) return Status::Error("the checkpoint's payload ends in the middle of a field");
  weights->clear();
  for (uint32_t i = 0; i < count; ++i) {
    std::string name = rd.get_string();
    const uint32_t rows = rd.get<uint32_t>(), cols = rd.get<uint32_t>();
    if (rd.short_read || rows > 4096 || cols > 4096 || static_cast<size_t>(rows) * cols * 4 > rd.n - rd.at)
      return Status::Error("the checkpoint's payload ends in the middle of a field");
    Mat m(rows, cols);
    std::memcpy(m.data(), rd.p + rd.at, static_cast<size_t>(rows) * cols * 4);
    rd.at += static_cast<size_t>(rows) * cols * 4;
    weights->emplace_back(std::move(name), std::move(m));
  }
  return Status::Ok();
}

Status check_params(const std::vector<std::pair<std::string, Mat>>& weights, const ParamStore& ps) {
  if (weights.size() != ps.size())
    return Status::Error("the checkpoint has {0} parameters, its recipe needs {1}", {arg(static_cast<long long>(weights.size())), arg(static_cast<long long>(ps.size()))});
  for (const auto& [name, m] : weights) {
    const Param* p = ps.find(name);
    if (!p) return Status::Error("the checkpoint has a parameter {0} that its recipe does not have", {name});
    if (p->value.rows() != m.rows() || p->value.cols() != m.cols())
      return Status::Error("the checkpoint's parameter {0} is {1} × {2}, its recipe needs {3} × {4}",
                           {name, arg(m.rows()), arg(m.cols()), arg(p->value.rows()), arg(p->value.cols())});
    if (!m.allFinite()) return Status::Error("the checkpoint's parameter {0} holds a value that is not a finite number", {name});
  }
  return Status::Ok();
}

}  // namespace train
}  // namespace ap
