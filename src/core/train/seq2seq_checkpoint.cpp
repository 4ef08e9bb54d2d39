#include "seq2seq_checkpoint.h"

#include <cstdint>
#include <memory>
#include <string>

#include "checkpoint_bytes.h"

namespace ap {
namespace train {

namespace {
constexpr char kMagic[4] = {'A', 'P', 'S', 'Q'};

// The recipe's fields as write_seq2seq_recipe puts them; the names of its attention and cell checked (the rest is
// validate_seq2seq_recipe's, when a model is set up).
// short_read: the message when the bytes end in the middle of a field (a checkpoint's, a recipe's).
Status get_recipe(Reader& rd, Seq2SeqRecipe* out, const char* short_read) {
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
  if (rd.short_read) return Status::Error(short_read);
  if (!parse_seq2seq_attention(attention, &r.attention)) return Status::Error("unknown attention '{0}'", {attention});
  if (!parse_seq2seq_cell(cell, &r.cell)) return Status::Error("unknown encoder cell '{0}'", {cell});
  *out = r;
  return Status::Ok();
}
}  // namespace

void write_seq2seq_recipe(const Seq2SeqRecipe& r, std::vector<uint8_t>* out) {
  put_string(out, r.task);
  put_string(out, seq2seq_attention_name(r.attention));
  put_string(out, seq2seq_cell_name(r.cell));
  put<uint8_t>(out, r.bidirectional ? 1 : 0);
  put<int32_t>(out, r.d_emb);
  put<int32_t>(out, r.d_h);
  put<int32_t>(out, r.min_len);
  put<int32_t>(out, r.max_len);
  put<uint64_t>(out, r.seed);
  put<int32_t>(out, r.steps);
  put<double>(out, r.learning_rate);
  put<int32_t>(out, r.batch);
  put<double>(out, r.decay_from);
}

Status read_seq2seq_recipe(const uint8_t* bytes, size_t size, Seq2SeqRecipe* out) {
  Reader rd;
  rd.p = bytes;
  rd.n = bytes ? size : 0;
  Seq2SeqRecipe r;
  AP_TRY(get_recipe(rd, &r, "the recipe ends in the middle of a field"));
  if (rd.at != rd.n) return Status::Error("the recipe has {0} bytes after its end", {arg(static_cast<long long>(rd.n - rd.at))});
  AP_TRY(validate_seq2seq_recipe(r));
  *out = r;
  return Status::Ok();
}

void write_seq2seq_checkpoint(const Seq2SeqTrainer& t, std::vector<uint8_t>* out) {
  std::vector<uint8_t> payload;
  write_seq2seq_recipe(t.recipe(), &payload);
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

namespace {
// Steps 1–3 of reading one part: the envelope, the recipe, step and accuracy, the parameters (no model yet).
Status parse_part(const uint8_t* bytes, size_t size, Seq2SeqCheckpointReader::Part* out) {
  // 1) the envelope, 2) the recipe, step and accuracy
  Reader rd;
  AP_TRY(open_checkpoint(bytes, size, kMagic, kSeq2SeqCheckpointVersion, &rd));
  AP_TRY(get_recipe(rd, &out->recipe, "the checkpoint's payload ends in the middle of a field"));
  out->step = rd.get<int32_t>();
  out->accuracy = rd.get<double>();
  if (rd.short_read) return Status::Error("the checkpoint's payload ends in the middle of a field");
  // 3) the parameters (checked against the model of the recipe when it is set up)
  AP_TRY(get_params(rd, &out->weights));
  if (rd.at != rd.n) return Status::Error("the checkpoint has {0} bytes after its end", {arg(static_cast<long long>(rd.n - rd.at))});
  return Status::Ok();
}
}  // namespace

Status read_seq2seq_checkpoint(const uint8_t* bytes, size_t size, Seq2SeqTrainer* out) {
  Seq2SeqCheckpointReader::Part p;
  AP_TRY(parse_part(bytes, size, &p));
  // 4) the model of the recipe, 5) the weights set and measured
  auto t = std::make_unique<Seq2SeqTrainer>();
  AP_TRY(t->init(p.recipe, 0, /*measure_untrained=*/false));  // set_weights measures the weights
  AP_TRY(t->set_weights(p.weights, p.step, p.accuracy));
  *out = std::move(*t);
  return Status::Ok();
}

Status read_seq2seq_checkpoints(const uint8_t* bytes, size_t size, std::vector<std::unique_ptr<Seq2SeqTrainer>>* out) {
  Seq2SeqCheckpointReader reader;
  AP_TRY(reader.open(bytes, size));
  Status s;
  while (!reader.step(SIZE_MAX, &s)) {
  }
  if (!s.ok) return s;  // its own message (translated as it is)
  *out = reader.take();
  return Status::Ok();
}

Status Seq2SeqCheckpointReader::open(const uint8_t* bytes, size_t size) {
  std::vector<std::pair<const uint8_t*, size_t>> at;
  AP_TRY(split_checkpoints(bytes, size, &at));
  std::vector<Part> parts;
  for (const auto& [b, n] : at) {
    Part p;
    AP_TRY(parse_part(b, n, &p));
    parts.push_back(std::move(p));
  }
  parts_ = std::move(parts);
  done_.clear();
  current_.reset();
  return Status::Ok();
}

std::vector<Seq2SeqRecipe> Seq2SeqCheckpointReader::recipes() const {
  std::vector<Seq2SeqRecipe> v;
  for (const Part& p : parts_) v.push_back(p.recipe);
  return v;
}

bool Seq2SeqCheckpointReader::step(size_t pairs, Status* result) {
  if (done_.size() == parts_.size()) {
    *result = Status::Ok();
    return true;
  }
  if (!current_) {  // 4) the next part's model, its weights set (checked against it): a unit of its own
    const Part& p = parts_[done_.size()];
    auto t = std::make_unique<Seq2SeqTrainer>();
    Status s = t->init(p.recipe, 0, /*measure_untrained=*/false);
    if (s.ok) s = t->stage_weights(p.weights, p.step, p.accuracy);
    if (!s.ok) {
      *result = s;
      return true;
    }
    current_ = std::move(t);
    return false;
  }
  // 5) `pairs` more of its measurement; once measured, the next part
  Status measured;
  if (!current_->measure_weights(pairs, &measured)) return false;
  if (!measured.ok) {
    *result = measured;
    return true;
  }
  done_.push_back(std::move(current_));
  if (done_.size() < parts_.size()) return false;
  *result = Status::Ok();
  return true;
}

}  // namespace train
}  // namespace ap
