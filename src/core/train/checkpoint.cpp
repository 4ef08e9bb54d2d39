#include "checkpoint.h"

#include <cstring>
#include <memory>
#include <string>

namespace ap {
namespace train {

namespace {

constexpr char kMagic[4] = {'A', 'P', 'T', 'C'};
constexpr size_t kHeader = 12, kTrailer = 8;

uint64_t fnv1a(const uint8_t* p, size_t n) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 1099511628211ull;
  return h;
}

void put_bytes(std::vector<uint8_t>* out, const void* p, size_t n) {
  const size_t at = out->size();
  out->resize(at + n);
  if (n) std::memcpy(out->data() + at, p, n);
}
template <typename T>
void put(std::vector<uint8_t>* out, T v) {
  put_bytes(out, &v, sizeof(T));
}
void put_string(std::vector<uint8_t>* out, const std::string& s) {
  put<uint8_t>(out, static_cast<uint8_t>(s.size()));
  put_bytes(out, s.data(), s.size());
}

// Reads the payload; any read past its end marks it truncated.
struct Reader {
  const uint8_t* p;
  size_t n, at = 0;
  bool short_read = false;
  template <typename T>
  T get() {
    T v{};
    if (at + sizeof(T) > n) { short_read = true; at = n; return v; }
    std::memcpy(&v, p + at, sizeof(T));
    at += sizeof(T);
    return v;
  }
  std::string get_string() {
    const size_t len = get<uint8_t>();
    if (at + len > n) { short_read = true; at = n; return {}; }
    std::string s(reinterpret_cast<const char*>(p + at), len);
    at += len;
    return s;
  }
};

}  // namespace

void write_checkpoint(const Trainer& t, std::vector<uint8_t>* out, CheckpointWeights which) {
  const bool evaluated = which == CheckpointWeights::LastEvaluation;
  const Recipe& r = t.recipe();
  std::vector<uint8_t> payload;
  put_string(&payload, r.task);
  put<int32_t>(&payload, r.layers);
  put<int32_t>(&payload, r.d_model);
  put<int32_t>(&payload, r.heads);
  put<uint64_t>(&payload, r.seed);
  put<int32_t>(&payload, r.steps);
  put<double>(&payload, r.learning_rate);
  put<int32_t>(&payload, r.batch);
  put<int32_t>(&payload, evaluated ? t.evaluated_step() : t.step());
  put<double>(&payload, t.heldout_accuracy());
  const ParamStore& ps = t.model().params();
  put<uint32_t>(&payload, static_cast<uint32_t>(ps.size()));
  size_t at = 0;  // into evaluated_weights(): the parameters concatenated in this order
  for (size_t i = 0; i < ps.size(); ++i) {
    const size_t count = static_cast<size_t>(ps[i].value.size());
    put_string(&payload, ps[i].name);
    put<uint32_t>(&payload, static_cast<uint32_t>(ps[i].value.rows()));
    put<uint32_t>(&payload, static_cast<uint32_t>(ps[i].value.cols()));
    put_bytes(&payload, evaluated ? t.evaluated_weights().data() + at : ps[i].value.data(), sizeof(float) * count);
    at += count;
  }
  out->clear();
  put_bytes(out, kMagic, 4);
  put<uint32_t>(out, kCheckpointVersion);
  put<uint32_t>(out, static_cast<uint32_t>(payload.size()));
  put_bytes(out, payload.data(), payload.size());
  put<uint64_t>(out, fnv1a(payload.data(), payload.size()));
}

Status train_checkpoint(const Recipe& r, std::vector<uint8_t>* out, Trainer* trained) {
  auto t = std::make_unique<Trainer>();
  AP_TRY(t->init(r));
  while (!t->finished() && !t->diverged()) t->advance(r.steps);
  if (t->diverged()) return t->divergence();
  write_checkpoint(*t, out);
  if (trained) *trained = std::move(*t);
  return Status::Ok();
}

namespace {
// Steps 1–3 of reading: the header, the checksum, the recipe, step and accuracy; the reader stands at the
// parameter count.
struct Head {
  Recipe recipe;
  int step = 0;
  double acc = 0;
  uint32_t count = 0;
};
Status read_head(const uint8_t* bytes, size_t size, Head* h, Reader* rd_out) {
  // 1) the header
  if (!bytes || size < kHeader + kTrailer)
    return Status::Error("the checkpoint is too short to be one ({0} bytes)", {arg(static_cast<long long>(size))});
  if (std::memcmp(bytes, kMagic, 4) != 0) return Status::Error("this is not a checkpoint of the playground (it does not start with APTC)");
  uint32_t version, payload_bytes;
  std::memcpy(&version, bytes + 4, 4);
  std::memcpy(&payload_bytes, bytes + 8, 4);
  if (version != kCheckpointVersion)
    return Status::Error("the checkpoint is version {0}; this build reads version {1}", {arg(version), arg(kCheckpointVersion)});
  const size_t want = kHeader + static_cast<size_t>(payload_bytes) + kTrailer;
  if (size < want)
    return Status::Error("the checkpoint is truncated: {0} bytes, its header says {1}", {arg(static_cast<long long>(size)), arg(static_cast<long long>(want))});
  if (size > want)
    return Status::Error("the checkpoint has {0} bytes after its end", {arg(static_cast<long long>(size - want))});
  // 2) the checksum
  const uint8_t* payload = bytes + kHeader;
  uint64_t sum;
  std::memcpy(&sum, payload + payload_bytes, 8);
  if (sum != fnv1a(payload, payload_bytes)) return Status::Error("the checkpoint is damaged: its checksum does not match");
  // 3) the recipe, step and accuracy
  Reader& rd = *rd_out;
  rd = Reader{payload, payload_bytes};
  Recipe& r = h->recipe;
  r.task = rd.get_string();
  r.layers = rd.get<int32_t>();
  r.d_model = rd.get<int32_t>();
  r.heads = rd.get<int32_t>();
  r.seed = rd.get<uint64_t>();
  r.steps = rd.get<int32_t>();
  r.learning_rate = rd.get<double>();
  r.batch = rd.get<int32_t>();
  h->step = rd.get<int32_t>();
  h->acc = rd.get<double>();
  h->count = rd.get<uint32_t>();
  if (rd.short_read) return Status::Error("the checkpoint's payload ends in the middle of a field");
  return Status::Ok();
}
}  // namespace

Status peek_checkpoint(const uint8_t* bytes, size_t size, Recipe* recipe, int* step) {
  Head h;
  Reader rd{nullptr, 0};
  AP_TRY(read_head(bytes, size, &h, &rd));
  *recipe = h.recipe;
  if (step) *step = h.step;
  return Status::Ok();
}

Status read_checkpoint(const uint8_t* bytes, size_t size, Trainer* out) {
  Head h;
  Reader rd{nullptr, 0};
  AP_TRY(read_head(bytes, size, &h, &rd));
  const Recipe& r = h.recipe;
  const int step = h.step;
  const double acc = h.acc;
  const uint32_t count = h.count;
  const uint8_t* payload = rd.p;
  // The same recipe as `out`'s: its weights are replaced in place (below); else a model of this recipe.
  const bool same = out->model().params().size() > 0 && out->recipe() == r;
  std::unique_ptr<Trainer> fresh;
  if (!same) {
    fresh = std::make_unique<Trainer>();
    AP_TRY(fresh->init(r));
  }
  Trainer* t = same ? out : fresh.get();
  if (count != t->model().params().size())
    return Status::Error("the checkpoint has {0} parameters, its recipe needs {1}",
                         {arg(count), arg(static_cast<long long>(t->model().params().size()))});
  // 4) the parameters
  std::vector<std::pair<std::string, Mat>> weights;
  for (uint32_t i = 0; i < count; ++i) {
    std::string name = rd.get_string();
    const uint32_t rows = rd.get<uint32_t>(), cols = rd.get<uint32_t>();
    if (rd.short_read || rows > 4096 || cols > 4096 || static_cast<size_t>(rows) * cols * 4 > rd.n - rd.at)
      return Status::Error("the checkpoint's payload ends in the middle of a field");
    Mat m(rows, cols);
    std::memcpy(m.data(), payload + rd.at, static_cast<size_t>(rows) * cols * 4);
    rd.at += static_cast<size_t>(rows) * cols * 4;
    weights.emplace_back(std::move(name), std::move(m));
  }
  if (rd.at != rd.n) return Status::Error("the checkpoint has {0} bytes after its end", {arg(static_cast<long long>(rd.n - rd.at))});
  if (!same) {
    AP_TRY(t->set_weights(weights, step, acc));
    *out = std::move(*t);
    return Status::Ok();
  }
  // In place: set_weights checks names, shapes and values before it changes anything; only the accuracy is
  // measured after. A file whose accuracy its weights do not give leaves `out` as it was: its own weights again.
  std::vector<std::pair<std::string, Mat>> kept;
  for (size_t i = 0; i < out->model().params().size(); ++i)
    kept.emplace_back(out->model().params()[i].name, out->model().params()[i].value);
  const int kept_step = out->step();
  const double kept_acc = out->heldout_accuracy();
  const Status s = out->set_weights(weights, step, acc);
  if (!s.ok) (void)out->set_weights(kept, kept_step, kept_acc);
  return s;
}

}  // namespace train
}  // namespace ap
