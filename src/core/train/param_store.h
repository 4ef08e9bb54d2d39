// Training engine, part 1: parameters (named matrices with gradients and Adam moments) and the optimiser.
//
// The idea in one line: every trainable number lives in a ParamStore entry {name, value, grad, m, v}; layers
// read `value` in their forward pass and ADD into `grad` in their backward pass; Adam then moves `value`.
//
// Layout of the training engine (src/core/train/, no ImGui, SDL or GL; row-major ap::Mat throughout):
//   param_store.h  parameters, seeded initialisation, global-norm clipping, Adam          (this file)
//   arena.h        one pre-sized float buffer for the activations and their gradients
//   ops.h          each layer's forward and backward side by side, shapes in the comments (llm.c style)
//   model.h        an attention model built from those ops: embedding → L attention layers → loss
//   coref.h        the coreference task ("The cat didn't cross the road because it was too tired")
//
// Room for recurrent models (a GRU, later): nothing here knows what a layer is. A GRU would register
// "gru.Wx" [d_in, 3H], "gru.Wh" [H, 3H], "gru.bx", "gru.bh" [1, 3H] in the same store; its forward keeps, per
// time step t, the gates r_t, z_t, the candidate h̃_t and h_t in the arena (slots of [T·B, H] rows, step t at
// rows t·B …); its backward walks t = T−1 … 0 with the same affine/sigmoid/tanh backward ops of ops.h,
// accumulating into the same `grad` matrices (the sum over time steps of a shared weight's gradient is what
// "+=" gives for free). Clipping and Adam are unchanged: they see only the store.
#pragma once
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "core/matrix.h"

namespace ap {
namespace train {

enum class Init { Zeros, Ones, Gaussian };

struct Param {
  std::string name;  // "layer1.attn.Wq", unique in its store
  Mat value;         // rows × cols
  Mat grad;          // same shape; backward passes ADD into it (zero_grad() before each step)
  Mat m, v;          // Adam's first and second moments, same shape, start at 0
};

class ParamStore {
 public:
  // Adds a parameter. Gaussian entries are N(0, stddev²) drawn from ap::SeededRng (core/embedding.h) with the
  // stream hash_string(name): a parameter's initial value depends on (seed, name) only, not on the order in
  // which parameters are added. Fails on a duplicate name or a size outside [1, 4096].
  Status add(const std::string& name, int rows, int cols, Init init, double stddev, uint64_t seed, Param** out);
  Param* find(const std::string& name);
  const Param* find(const std::string& name) const;

  void zero_grad();
  // sqrt(Σ grad²) over every parameter, accumulated in double (an order-fixed sum: deterministic).
  double grad_norm() const;
  // If the global norm exceeds max_norm, scales every gradient by max_norm / norm (one factor for all
  // parameters, so the update keeps its direction). Returns the norm before clipping. max_norm <= 0: no-op.
  double clip_grad_norm(double max_norm);

  size_t size() const { return params_.size(); }
  long long count() const;  // number of scalar parameters
  // Every parameter's values, concatenated in the store's order (count() floats, each matrix column-major as Eigen
  // holds it): a trainer's copy of its last good weights, and what load_values brings back.
  void save_values(std::vector<float>* out) const;
  // in: what save_values wrote for this store; of another size, nothing is written (false).
  bool load_values(const std::vector<float>& in);
  Param& operator[](size_t i) { return params_[i]; }
  const Param& operator[](size_t i) const { return params_[i]; }

 private:
  std::deque<Param> params_;  // deque: adding never moves existing entries (layers keep Param* pointers)
};

// Adam (Kingma & Ba 2015) with bias correction:
//   m ← β1·m + (1−β1)·g        v ← β2·v + (1−β2)·g²
//   m̂ = m / (1−β1^t)           v̂ = v / (1−β2^t)          w ← w − lr · m̂ / (√v̂ + ε)
// Bias correction: m and v start at 0, so early on they underestimate the moments by the factors 1−β^t;
// dividing by those factors removes the bias (without it the first steps would be ~10× too small for m and
// the ratio m/√v would be wrong by √(1−β2^t)/(1−β1^t)). ε keeps the step finite where v̂ ≈ 0.
struct AdamConfig {
  double lr = 1e-3, beta1 = 0.9, beta2 = 0.999, eps = 1e-8;
  double clip_norm = 1.0;  // global gradient-norm clipping before the update (<= 0: off)
};

class Adam {
 public:
  explicit Adam(AdamConfig c = {}) : c_(c) {}
  // Clips (if configured), then updates every parameter of `store`. Returns the gradient norm before clipping.
  double step(ParamStore& store);
  int steps() const { return t_; }
  const AdamConfig& config() const { return c_; }
  void set_lr(double lr) { c_.lr = lr; }  // a schedule's rate for the next steps

 private:
  AdamConfig c_;
  int t_ = 0;
};

}  // namespace train
}  // namespace ap
