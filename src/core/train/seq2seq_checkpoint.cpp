#include "seq2seq_checkpoint.h"

#include <memory>
#include <string>

#include "checkpoint_bytes.h"

namespace ap {
namespace train {

namespace {
constexpr char kMagic[4] = {'A', 'P', 'S', 'Q'};
}  // namespace

void write_seq2seq_checkpoint(const Seq2SeqTrainer& t, std::vector<uint8_t>* out) {
  const Seq2SeqRecipe& r = t.recipe();
  std::vector<uint8_t> payload;
  put_string(&payload, r.task);
  put_string(&payload, seq2seq_attention_name(r.attention));
  put_string(&payload, seq2seq_cell_name(r.cell));
  put<uint8_t>(&payload, r.bidirectional ? 1 : 0);
  put<int32_t>(&payload, r.d_emb);
  put<int32_t>(&payload, r.d_h);
  put<int32_t>(&payload, r.min_len);
  put<int32_t>(&payload, r.max_len);
  put<uint64_t>(&payload, r.seed);
  put<int32_t>(&payload, r.steps);
  put<double>(&payload, r.learning_rate);
  put<int32_t>(&payload, r.batch);
  put<double>(&payload, r.decay_from);
  put<int32_t>(&payload, t.evaluated_step());
  put<double>(&payload, t.heldout_accuracy());
  put_params(&payload, t.model().params(), t.evaluated_weights().data());
  seal_checkpoint(kMagic, kSeq2SeqCheckpointVersion, payload, out);
}

Status train_seq2seq_checkpoint(const Seq2SeqRecipe& r, std::vector<uint8_t>* out, Seq2SeqTrainer* trained) {
  auto t = std::make_unique<Seq2SeqTrainer>();
  AP_TRY(t->init(r));
  while (!t->finished() && !t->diverged()) t->advance(r.steps);
  if (t->diverged()) return t->divergence();
  write_seq2seq_checkpoint(*t, out);
  if (trained) *trained = std::move(*t);
  return Status::Ok();
}

Status read_seq2seq_checkpoint(const uint8_t* bytes, size_t size, Seq2SeqTrainer* out) {
  // 1) the envelope, 2) the recipe, step and accuracy
  Reader rd;
  AP_TRY(open_checkpoint(bytes, size, kMagic, kSeq2SeqCheckpointVersion, &rd));
  Seq2SeqRecipe r;
  r.task = rd.get_string();
  const std::string attention = rd.get_string();
  const std::string cell = rd.get_string();
  r.bidirectional = rd.get<uint8_t>() != 0;
  r.d_emb = rd.get<int32_t>();
  r.d_h = rd.get<int32_t>();
  r.min_len = rd.get<int32_t>();
  r.max_len = rd.get<int32_t>();
  r.seed = rd.get<uint64_t>();
  r.steps = rd.get<int32_t>();
  r.learning_rate = rd.get<double>();
  r.batch = rd.get<int32_t>();
  r.decay_from = rd.get<double>();
  const int step = rd.get<int32_t>();
  const double acc = rd.get<double>();
  if (rd.short_read) return Status::Error("the checkpoint's payload ends in the middle of a field");
  if (!parse_seq2seq_attention(attention, &r.attention)) return Status::Error("unknown attention '{0}'", {attention});
  if (!parse_seq2seq_cell(cell, &r.cell)) return Status::Error("unknown encoder cell '{0}'", {cell});
  // 3) the parameters, against the model of the recipe
  std::vector<std::pair<std::string, Mat>> weights;
  AP_TRY(get_params(rd, &weights));
  if (rd.at != rd.n) return Status::Error("the checkpoint has {0} bytes after its end", {arg(static_cast<long long>(rd.n - rd.at))});
  auto t = std::make_unique<Seq2SeqTrainer>();
  AP_TRY(t->init(r, 0, /*measure_untrained=*/false));  // set_weights measures the weights
  AP_TRY(t->set_weights(weights, step, acc));
  *out = std::move(*t);
  return Status::Ok();
}

Status read_seq2seq_checkpoints(const uint8_t* bytes, size_t size, std::vector<std::unique_ptr<Seq2SeqTrainer>>* out) {
  std::vector<std::pair<const uint8_t*, size_t>> parts;
  AP_TRY(split_checkpoints(bytes, size, &parts));
  std::vector<std::unique_ptr<Seq2SeqTrainer>> v;
  for (size_t k = 0; k < parts.size(); ++k) {
    auto t = std::make_unique<Seq2SeqTrainer>();
    const Status s = read_seq2seq_checkpoint(parts[k].first, parts[k].second, t.get());
    if (!s.ok) return s;  // its own message (translated as it is)
    v.push_back(std::move(t));
  }
  *out = std::move(v);
  return Status::Ok();
}

}  // namespace train
}  // namespace ap
