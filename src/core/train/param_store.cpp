#include "param_store.h"

#include <cmath>
#include <cstring>

#include "core/embedding.h"

namespace ap {
namespace train {

Status ParamStore::add(const std::string& name, int rows, int cols, Init init, double stddev, uint64_t seed,
                       Param** out) {
  AP_TRY(check_size(rows, "parameter rows", 4096));
  AP_TRY(check_size(cols, "parameter columns", 4096));
  if (name.empty() || find(name)) return Status::Error("duplicate or empty parameter name '{0}'", {name});
  Param p;
  p.name = name;
  switch (init) {
    case Init::Zeros: p.value = Mat::Zero(rows, cols); break;
    case Init::Ones: p.value = Mat::Ones(rows, cols); break;
    case Init::Gaussian: p.value = seeded_gaussian(rows, cols, seed, hash_string(name), stddev); break;
  }
  p.grad = Mat::Zero(rows, cols);
  p.m = Mat::Zero(rows, cols);
  p.v = Mat::Zero(rows, cols);
  params_.push_back(std::move(p));
  if (out) *out = &params_.back();
  return Status::Ok();
}

Param* ParamStore::find(const std::string& name) {
  for (Param& p : params_)
    if (p.name == name) return &p;
  return nullptr;
}
const Param* ParamStore::find(const std::string& name) const {
  for (const Param& p : params_)
    if (p.name == name) return &p;
  return nullptr;
}

void ParamStore::zero_grad() {
  for (Param& p : params_) p.grad.setZero();
}

double ParamStore::grad_norm() const {
  double s = 0.0;
  for (const Param& p : params_)
    for (Eigen::Index i = 0; i < p.grad.size(); ++i) s += static_cast<double>(p.grad.data()[i]) * p.grad.data()[i];
  return std::sqrt(s);
}

double ParamStore::clip_grad_norm(double max_norm) {
  const double norm = grad_norm();
  if (max_norm > 0 && norm > max_norm) {
    const float scale = static_cast<float>(max_norm / norm);
    for (Param& p : params_) p.grad *= scale;
  }
  return norm;
}

long long ParamStore::count() const {
  long long n = 0;
  for (const Param& p : params_) n += p.value.size();
  return n;
}

void ParamStore::save_values(std::vector<float>* out) const {
  out->resize(static_cast<size_t>(count()));
  size_t at = 0;
  for (const Param& p : params_) {
    std::memcpy(out->data() + at, p.value.data(), sizeof(float) * static_cast<size_t>(p.value.size()));
    at += static_cast<size_t>(p.value.size());
  }
}

bool ParamStore::load_values(const std::vector<float>& in) {
  if (in.size() != static_cast<size_t>(count())) return false;
  size_t at = 0;
  for (Param& p : params_) {
    std::memcpy(p.value.data(), in.data() + at, sizeof(float) * static_cast<size_t>(p.value.size()));
    at += static_cast<size_t>(p.value.size());
  }
  return true;
}

double Adam::step(ParamStore& store) {
  const double norm = store.clip_grad_norm(c_.clip_norm);
  ++t_;
  // 1) bias-correction factors for this step (computed in double: β2^t is close to 1 for small t)
  const double c1 = 1.0 - std::pow(c_.beta1, t_), c2 = 1.0 - std::pow(c_.beta2, t_);
  const float b1 = static_cast<float>(c_.beta1), b2 = static_cast<float>(c_.beta2);
  const float lr = static_cast<float>(c_.lr), eps = static_cast<float>(c_.eps);
  const float inv_c1 = static_cast<float>(1.0 / c1), inv_c2 = static_cast<float>(1.0 / c2);
  for (size_t k = 0; k < store.size(); ++k) {
    Param& p = store[k];
    float* w = p.value.data();
    const float* g = p.grad.data();
    float* m = p.m.data();
    float* v = p.v.data();
    for (Eigen::Index i = 0; i < p.value.size(); ++i) {
      // 2) moments, 3) bias-corrected update
      m[i] = b1 * m[i] + (1.f - b1) * g[i];
      v[i] = b2 * v[i] + (1.f - b2) * g[i] * g[i];
      const float mhat = m[i] * inv_c1, vhat = v[i] * inv_c2;
      w[i] -= lr * mhat / (std::sqrt(vhat) + eps);
    }
  }
  return norm;
}

}  // namespace train
}  // namespace ap
