// Training engine, part 2: the activation arena.
//
// The idea in one line: plan every activation tensor once (name, rows per batch item, columns), then allocate
// ONE float buffer for all of them, so that a training step after the first allocates nothing.
//
// A slot holds `rows_per_item · max_batch` rows of `cols` floats, row-major. view(slot, B) maps the first
// rows_per_item · B rows: a smaller batch (the last one of an evaluation pass) reuses the same memory.
// The model keeps two arenas with the same plan: the activations and their gradients (llm.c's acts and
// grads_acts); the gradient arena is zeroed as one block before each backward pass.
#pragma once
#include <cstring>
#include <string>
#include <vector>

#include "core/matrix.h"

namespace ap {
namespace train {

using MatMap = Eigen::Map<Mat>;
using CMatMap = Eigen::Map<const Mat>;

class Arena {
 public:
  // Planning: returns the slot's index. Only before allocate().
  int plan(const std::string& name, int rows_per_item, int cols) {
    slots_.push_back({name, rows_per_item, cols, floats_});
    floats_ += static_cast<size_t>(rows_per_item) * cols * static_cast<size_t>(max_batch_);
    return static_cast<int>(slots_.size()) - 1;
  }
  void set_max_batch(int b) { max_batch_ = b; }
  int max_batch() const { return max_batch_; }
  void allocate() { buf_.assign(floats_, 0.f); }
  void zero() { if (!buf_.empty()) std::memset(buf_.data(), 0, buf_.size() * sizeof(float)); }

  MatMap view(int slot, int batch) {
    const Slot& s = slots_[slot];
    return MatMap(buf_.data() + s.offset, static_cast<Eigen::Index>(s.rows_per_item) * batch, s.cols);
  }
  CMatMap view(int slot, int batch) const {
    const Slot& s = slots_[slot];
    return CMatMap(buf_.data() + s.offset, static_cast<Eigen::Index>(s.rows_per_item) * batch, s.cols);
  }
  size_t floats() const { return floats_; }
  const float* data() const { return buf_.data(); }
  const std::string& name(int slot) const { return slots_[slot].name; }
  int slots() const { return static_cast<int>(slots_.size()); }

 private:
  struct Slot {
    std::string name;
    int rows_per_item, cols;
    size_t offset;
  };
  std::vector<Slot> slots_;
  std::vector<float> buf_;
  size_t floats_ = 0;
  int max_batch_ = 1;
};

}  // namespace train
}  // namespace ap
