// Naive double-precision references for the lean kernels (core/kernels.h): Elman and GRU recurrences and a
// plain-loop attention over raw row-major arrays. Written independently of src/core: no Eigen arithmetic, no
// fast exp, std:: functions in double.
#pragma once
#include <cmath>
#include <cstddef>
#include <vector>

namespace ap {
namespace ref {

// Row-major double buffer with the shape kept alongside.
struct DBuf {
  int rows = 0, cols = 0;
  std::vector<double> a;
  DBuf() = default;
  DBuf(int r, int c) : rows(r), cols(c), a(static_cast<size_t>(r) * c, 0.0) {}
  double& at(int i, int j) { return a[static_cast<size_t>(i) * cols + j]; }
  double at(int i, int j) const { return a[static_cast<size_t>(i) * cols + j]; }
};

inline double dsigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

// softmax(Q·Kᵀ/√d)·V on n × d float arrays, in double, max-subtracted.
inline DBuf attention(const float* Q, const float* K, const float* V, int n, int d) {
  DBuf out(n, d);
  std::vector<double> s(n);
  const double scale = 1.0 / std::sqrt(static_cast<double>(d));
  for (int i = 0; i < n; ++i) {
    double mx = -INFINITY;
    for (int j = 0; j < n; ++j) {
      double acc = 0.0;
      for (int c = 0; c < d; ++c) acc += static_cast<double>(Q[static_cast<size_t>(i) * d + c]) * K[static_cast<size_t>(j) * d + c];
      s[j] = acc * scale;
      if (s[j] > mx) mx = s[j];
    }
    double sum = 0.0;
    for (int j = 0; j < n; ++j) sum += (s[j] = std::exp(s[j] - mx));
    for (int j = 0; j < n; ++j)
      for (int c = 0; c < d; ++c) out.at(i, c) += s[j] / sum * V[static_cast<size_t>(j) * d + c];
  }
  return out;
}

// h_t = tanh(W_x x_t + W_h h_{t-1} + b); X n × d_in, W_x hidden × d_in, W_h hidden × hidden; h0 may be null.
inline DBuf elman(const float* Wx, const float* Wh, const float* b, const float* X, int n, int d_in, int hidden,
                  const float* h0) {
  DBuf H(n, hidden);
  std::vector<double> h(hidden, 0.0), next(hidden);
  if (h0)
    for (int u = 0; u < hidden; ++u) h[u] = h0[u];
  for (int t = 0; t < n; ++t) {
    for (int u = 0; u < hidden; ++u) {
      double s = b[u];
      for (int c = 0; c < d_in; ++c) s += static_cast<double>(Wx[static_cast<size_t>(u) * d_in + c]) * X[static_cast<size_t>(t) * d_in + c];
      for (int c = 0; c < hidden; ++c) s += static_cast<double>(Wh[static_cast<size_t>(u) * hidden + c]) * h[c];
      next[u] = std::tanh(s);
    }
    h = next;
    for (int u = 0; u < hidden; ++u) H.at(t, u) = h[u];
  }
  return H;
}

// One GRU step in the cuDNN / PyTorch form (gate blocks r, z, n stacked in W_x, W_h, b_x, b_h):
//   r = σ(W_r x + b_r + U_r h + c_r), z = σ(W_z x + b_z + U_z h + c_z),
//   ñ = tanh(W_n x + b_n + r ⊙ (U_n h + c_n)), h' = (1 − z) ⊙ ñ + z ⊙ h
inline std::vector<double> gru_step(const float* Wx, const float* Wh, const float* bx, const float* bh,
                                    const float* x, const std::vector<double>& h, int d_in, int hidden) {
  std::vector<double> out(hidden);
  for (int u = 0; u < hidden; ++u) {
    double g[3], c[3];
    for (int k = 0; k < 3; ++k) {
      const size_t row = static_cast<size_t>(k) * hidden + u;
      g[k] = bx[row];
      for (int j = 0; j < d_in; ++j) g[k] += static_cast<double>(Wx[row * d_in + j]) * x[j];
      c[k] = bh[row];
      for (int j = 0; j < hidden; ++j) c[k] += static_cast<double>(Wh[row * hidden + j]) * h[j];
    }
    const double r = dsigmoid(g[0] + c[0]);
    const double z = dsigmoid(g[1] + c[1]);
    const double cand = std::tanh(g[2] + r * c[2]);
    out[u] = (1.0 - z) * cand + z * h[u];
  }
  return out;
}

inline DBuf gru(const float* Wx, const float* Wh, const float* bx, const float* bh, const float* X, int n, int d_in,
                int hidden, const float* h0) {
  DBuf H(n, hidden);
  std::vector<double> h(hidden, 0.0);
  if (h0)
    for (int u = 0; u < hidden; ++u) h[u] = h0[u];
  for (int t = 0; t < n; ++t) {
    h = gru_step(Wx, Wh, bx, bh, X + static_cast<size_t>(t) * d_in, h, d_in, hidden);
    for (int u = 0; u < hidden; ++u) H.at(t, u) = h[u];
  }
  return H;
}

// Largest |got[i] − want[i]| over a float array and a double buffer of the same size (NaN counts as +inf).
inline double max_abs_diff(const float* got, const DBuf& want) {
  double worst = 0.0;
  for (size_t i = 0; i < want.a.size(); ++i) {
    const double g = got[i];
    const double diff = std::isnan(g) ? INFINITY : std::fabs(g - want.a[i]);
    if (diff > worst) worst = diff;
  }
  return worst;
}

inline double max_abs_diff(const std::vector<float>& got, const std::vector<float>& want) {
  if (got.size() != want.size()) return INFINITY;
  double worst = 0.0;
  for (size_t i = 0; i < got.size(); ++i) {
    const double diff = (std::isnan(got[i]) || std::isnan(want[i])) ? INFINITY
                                                                     : std::fabs(static_cast<double>(got[i]) - want[i]);
    if (diff > worst) worst = diff;
  }
  return worst;
}

// Uniform floats in [lo, hi) from a fixed seed (xorshift64*, as ref::TestRng, repeated here so that this
// header stands alone).
inline std::vector<float> random_floats(size_t count, unsigned long long seed, double lo = -1.0, double hi = 1.0) {
  unsigned long long s = seed * 2685821657736338717ull + 0x9E3779B97F4A7C15ull;
  std::vector<float> v(count);
  for (size_t i = 0; i < count; ++i) {
    s ^= s >> 12;
    s ^= s << 25;
    s ^= s >> 27;
    const unsigned long long r = s * 2685821657736338717ull;
    v[i] = static_cast<float>(lo + (hi - lo) * ((r >> 11) * (1.0 / 9007199254740992.0)));
  }
  return v;
}

}  // namespace ref
}  // namespace ap
