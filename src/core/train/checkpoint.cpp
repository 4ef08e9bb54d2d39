#include "checkpoint.h"

#include "checkpoint_bytes.h"

#include <cstring>
#include <memory>
#include <string>

namespace ap {
namespace train {

namespace {
constexpr char kMagic[4] = {'A', 'P', 'T', 'C'};
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
  put_params(&payload, t.model().params(), evaluated ? t.evaluated_weights().data() : nullptr);
  seal_checkpoint(kMagic, kCheckpointVersion, payload, out);
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
// parameters.
struct Head {
  Recipe recipe;
  int step = 0;
  double acc = 0;
};
Status read_head(const uint8_t* bytes, size_t size, Head* h, Reader* rd_out) {
  // 1) the header, 2) the checksum (checkpoint_bytes.h)
  AP_TRY(open_checkpoint(bytes, size, kMagic, kCheckpointVersion, rd_out));
  // 3) the recipe, step and accuracy
  Reader& rd = *rd_out;
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

namespace {
// Steps 1–4 of reading: the head, then the parameters, checked against the number the recipe needs.
Status read_weights(const uint8_t* bytes, size_t size, Head* h, std::vector<std::pair<std::string, Mat>>* weights, size_t params) {
  Reader rd{nullptr, 0};
  AP_TRY(read_head(bytes, size, h, &rd));
  // 4) the parameters
  AP_TRY(get_params(rd, weights));
  if (weights->size() != params)
    return Status::Error("the checkpoint has {0} parameters, its recipe needs {1}",
                         {arg(static_cast<long long>(weights->size())), arg(static_cast<long long>(params))});
  if (rd.at != rd.n) return Status::Error("the checkpoint has {0} bytes after its end", {arg(static_cast<long long>(rd.n - rd.at))});
  return Status::Ok();
}
}  // namespace

Status read_checkpoint(const uint8_t* bytes, size_t size, Trainer* out) {
  Recipe r;
  AP_TRY(peek_checkpoint(bytes, size, &r));
  // The same recipe as `out`'s: its weights are replaced in place (set_weights: all or nothing); else a model
  // of this recipe, moved into `out` once its weights give what the file says.
  const bool same = out->model().params().size() > 0 && out->recipe() == r;
  std::unique_ptr<Trainer> fresh;
  if (!same) {
    fresh = std::make_unique<Trainer>();
    AP_TRY(fresh->init(r, /*measure_untrained=*/false));  // set_weights measures them
  }
  Trainer* t = same ? out : fresh.get();
  Head h;
  std::vector<std::pair<std::string, Mat>> weights;
  AP_TRY(read_weights(bytes, size, &h, &weights, t->model().params().size()));
  AP_TRY(t->set_weights(weights, h.step, h.acc));
  if (!same) *out = std::move(*t);
  return Status::Ok();
}

Status stage_checkpoint(const uint8_t* bytes, size_t size, Trainer* out) {
  Recipe r;
  AP_TRY(peek_checkpoint(bytes, size, &r));
  if (out->model().params().size() == 0 || !(out->recipe() == r))
    return Status::Error("the checkpoint holds another recipe than the model it would update");
  Head h;
  std::vector<std::pair<std::string, Mat>> weights;
  AP_TRY(read_weights(bytes, size, &h, &weights, out->model().params().size()));
  return out->stage_weights(weights, h.step, h.acc);
}

}  // namespace train
}  // namespace ap
