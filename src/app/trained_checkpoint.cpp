#include "trained_checkpoint.h"

#include "core/train/checkpoint.h"

namespace ap {

const char* CheckpointSlot::state_name() const {
  switch (state_) {
    case State::None: return "none";
    case State::Wanted: return "loading";
    case State::Ready: return "loaded";
    case State::Failed: return "failed";
  }
  return "";
}

Status CheckpointSlot::receive(const std::vector<unsigned char>& bytes) {
  auto t = std::make_unique<train::Trainer>();
  Status s = train::read_checkpoint(bytes.data(), bytes.size(), t.get());
  // The views explain the pointer model of the coreference task; a checkpoint of another task is refused.
  if (s.ok && t->recipe().task != "coref")
    s = Status::Error("the checkpoint holds a model of the task {0}, this view shows the coreference model (\"coref\")",
                      {"\"" + t->recipe().task + "\""});
  if (!s.ok) {
    fail(s);
    return s;
  }
  trainer_ = std::move(t);
  state_ = State::Ready;
  error_ = Status::Ok();
  return s;
}

void CheckpointSlot::fail(const Status& error) {
  state_ = State::Failed;
  error_ = error;
  ++failures_;
}

}  // namespace ap
