#include "trained_checkpoint.h"

#include "app/seq2seq_race.h"
#include "core/timed_slice.h"
#include "core/train/checkpoint.h"
#include "core/train/seq2seq_checkpoint.h"

namespace ap {

namespace {
CheckpointTrainer g_checkpoint_trainer = nullptr;
}  // namespace
void set_checkpoint_trainer(CheckpointTrainer t) { g_checkpoint_trainer = t; }
CheckpointTrainer checkpoint_trainer() { return g_checkpoint_trainer; }

const char* checkpoint_asset(BuildCheckpoint which) {
  switch (which) {
    case BuildCheckpoint::Heads: return "checkpoints/heads.aptc";
    case BuildCheckpoint::Example: return "checkpoints/example.aptc";
    case BuildCheckpoint::Bahdanau: return "checkpoints/bahdanau.apsq";
    case BuildCheckpoint::Luong: return "checkpoints/luong.apsq";
    case BuildCheckpoint::Coref: break;
  }
  return "checkpoints/coref.aptc";
}

bool is_seq2seq(BuildCheckpoint which) { return which == BuildCheckpoint::Bahdanau || which == BuildCheckpoint::Luong; }

std::vector<train::Seq2SeqRecipe> seq2seq_checkpoint_recipes(BuildCheckpoint which) {
  using train::Seq2SeqAttention;
  if (which == BuildCheckpoint::Luong)
    return {train::luong_recipe(Seq2SeqAttention::Dot), train::luong_recipe(Seq2SeqAttention::General), train::luong_recipe(Seq2SeqAttention::Concat)};
  if (which == BuildCheckpoint::Bahdanau) return {train::bahdanau_recipe()};
  return {};
}

train::Recipe checkpoint_recipe(BuildCheckpoint which) {
  switch (which) {
    case BuildCheckpoint::Heads: return train::heads_recipe(2);
    case BuildCheckpoint::Example: return train::attention_example_recipe();
    case BuildCheckpoint::Coref:
    case BuildCheckpoint::Bahdanau:
    case BuildCheckpoint::Luong: break;
  }
  return train::Recipe{};
}

const char* CheckpointSlot::state_name() const {
  switch (state_) {
    case State::None: return "none";
    case State::Wanted:
    case State::Reading: return "loading";
    case State::Ready: return "loaded";
    case State::Failed: return "failed";
  }
  return "";
}

Status CheckpointSlot::receive(const std::vector<unsigned char>& bytes) {
  // The build's checkpoint arriving after a run's weights (a link that trains its own model): the run's stay.
  if ((trainer_ || !seq2seq_.empty()) && from_run_) {
    state_ = State::Ready;
    return Status::Ok();
  }
  if (is_seq2seq(which_)) {  // encoder–decoders: the build's recipes, nothing else; measured in slices too
    auto reader = std::make_unique<train::Seq2SeqCheckpointReader>();
    Status s = reader->open(bytes.data(), bytes.size());
    if (s.ok) s = check_seq2seq_models(reader->recipes());
    if (!s.ok) {
      fail(s);
      return s;
    }
    drop_incoming();
    seq2seq_reader_ = std::move(reader);
    state_ = State::Reading;
    error_ = Status::Ok();
    return s;
  }
  // An attention model: the head is checked now (the task and sizes this view explains), the weights read and
  // measured in slices (read_slice).
  train::Recipe r;
  Status s = train::peek_checkpoint(bytes.data(), bytes.size(), &r);
  if (s.ok) s = check_model(r);
  if (!s.ok) {
    fail(s);
    return s;
  }
  incoming_bytes_ = bytes;
  incoming_.reset();
  state_ = State::Reading;
  error_ = Status::Ok();
  return s;
}

bool CheckpointSlot::read_slice(double budget_ms) {
  Status s;
  bool ended = false;
  double seconds = 0, longest_ms = 0;
  timed_slice(
      budget_ms, [&] { return reading() && !ended; },
      [&] {
        if (seq2seq_reader_) {  // encoder–decoders: a model's set-up, or kRaceEvalPairs pairs of its measurement
          ended = seq2seq_reader_->step(train::kRaceEvalPairs, &s);
          return;
        }
        if (!incoming_) {  // 1) the model of the checkpoint's recipe (its data and step-0 evaluation): one unit
          train::Recipe r;
          auto t = std::make_unique<train::Trainer>();
          s = train::peek_checkpoint(incoming_bytes_.data(), incoming_bytes_.size(), &r);
          if (s.ok) s = t->init(r, /*measure_untrained=*/false);
          // 2) the weights staged (names, shapes, values, step), to be measured with the rest
          if (s.ok) s = train::stage_checkpoint(incoming_bytes_.data(), incoming_bytes_.size(), t.get());
          ended = !s.ok;
          incoming_ = std::move(t);
          return;
        }
        // 3) a batch of the measurement: installed once the weights give the accuracy the file says
        ended = incoming_->measure_staged(1, &s);
      },
      &seconds, &longest_ms);
  if (!ended) return false;
  incoming_bytes_.clear();
  incoming_bytes_.shrink_to_fit();
  if (!s.ok) {
    fail(s);  // (drops what was read)
    return true;
  }
  if (seq2seq_reader_) seq2seq_ = seq2seq_reader_->take();
  else trainer_ = std::move(incoming_);
  seq2seq_reader_.reset();
  state_ = State::Ready;
  error_ = Status::Ok();
  return true;
}

// The encoder–decoders a view explains: the build's recipes, in order, nothing else.
Status CheckpointSlot::check_seq2seq_models(const std::vector<train::Seq2SeqRecipe>& got) const {
  const std::vector<train::Seq2SeqRecipe> want = seq2seq_checkpoint_recipes(which_);
  if (got.size() != want.size())
    return Status::Error("the checkpoint holds {0} models; this view shows {1}", {arg(static_cast<long long>(got.size())), arg(static_cast<long long>(want.size()))});
  for (size_t k = 0; k < got.size(); ++k)
    if (!(got[k] == want[k]))
      return Status::Error("the checkpoint holds another model than this view shows ({0}, {1} attention)",
                           {got[k].task, train::seq2seq_attention_name(got[k].attention)});
  return Status::Ok();
}

// A view explains its own model (the pointer model, the heads', the example's): a checkpoint of another task or
// other sizes is refused by name.
Status CheckpointSlot::check_model(const train::Recipe& got) const {
  const train::Recipe built = recipe();
  if (got.task != built.task)
    return Status::Error("the checkpoint holds a model of the task {0}, this view shows the model of the task {1}",
                         {"\"" + got.task + "\"", "\"" + built.task + "\""});
  if (got.layers != built.layers || got.heads != built.heads || got.d_model != built.d_model)
    return Status::Error("the checkpoint holds a model of {0} layers × {1} heads (d_model {2}), this view shows one of {3} × {4} (d_model {5})",
                         {arg(got.layers), arg(got.heads), arg(got.d_model), arg(built.layers), arg(built.heads), arg(built.d_model)});
  return Status::Ok();
}

void CheckpointSlot::drop_incoming() {
  seq2seq_reader_.reset();
  incoming_.reset();
  incoming_bytes_.clear();
  incoming_bytes_.shrink_to_fit();
}

void CheckpointSlot::restore_build() {
  drop_incoming();
  seq2seq_update_.reset();
  trainer_.reset();
  seq2seq_.clear();
  from_run_ = false;
  state_ = State::None;
  error_ = Status::Ok();
}

Status CheckpointSlot::update(const std::vector<unsigned char>& bytes) {
  if (is_seq2seq(which_)) {  // the same recipes as the build's (a run in the page of the same model), nothing else
    // Checked now (envelopes, recipes, parameters: cheap); set up and measured in slices (measure_update), the
    // models shown until then staying.
    auto reader = std::make_unique<train::Seq2SeqCheckpointReader>();
    AP_TRY(reader->open(bytes.data(), bytes.size()));
    AP_TRY(check_seq2seq_models(reader->recipes()));
    seq2seq_update_ = std::move(reader);
    return Status::Ok();
  }
  std::unique_ptr<train::Trainer> fresh = trainer_ ? nullptr : std::make_unique<train::Trainer>();
  train::Trainer* t = trainer_ ? trainer_.get() : fresh.get();
  // A run of this view's model only (the panel trains it): another task or sizes are refused first.
  train::Recipe r;
  AP_TRY(train::peek_checkpoint(bytes.data(), bytes.size(), &r));
  AP_TRY(check_model(r));
  if (trainer_ && trainer_->recipe() == r) return train::stage_checkpoint(bytes.data(), bytes.size(), t);  // measure_update
  AP_TRY(train::read_checkpoint(bytes.data(), bytes.size(), t));
  if (fresh) trainer_ = std::move(fresh);
  drop_incoming();  // a run's model before the build's was read: the run's is shown
  from_run_ = true;
  state_ = State::Ready;
  error_ = Status::Ok();
  return Status::Ok();
}

bool CheckpointSlot::measure_update(double budget_ms, Status* result) {
  bool ended = false;
  double seconds = 0, longest_ms = 0;
  timed_slice(
      budget_ms, [&] { return updating() && !ended; },
      [&] {
        if (seq2seq_update_) ended = seq2seq_update_->step(train::kRaceEvalPairs, result);  // a set-up, or pairs
        else ended = trainer_->measure_staged(1, result);
      },
      &seconds, &longest_ms);
  if (ended && seq2seq_update_) {
    if (result->ok) seq2seq_ = seq2seq_update_->take();
    seq2seq_update_.reset();
  }
  if (!ended || !result->ok) return ended;
  drop_incoming();  // a run's models before the build's were read: the run's are shown
  from_run_ = true;
  state_ = State::Ready;
  error_ = Status::Ok();
  return true;
}

bool CheckpointSlot::follow_run(const std::vector<unsigned char>* bytes, Status* status) {
  if (reading() && !bytes && !updating()) return read_slice(kMeasureSliceMs) && state_ == State::Ready;
  if (bytes) {
    *status = update(*bytes);
    if (!status->ok) return false;
    if (!updating()) return true;  // read at once
  }
  Status measured;
  if (!measure_update(kMeasureSliceMs, &measured)) return false;
  *status = measured;
  return measured.ok;
}

void CheckpointSlot::fail(const Status& error) {
  drop_incoming();
  state_ = State::Failed;
  error_ = error;
  ++failures_;
}

}  // namespace ap
