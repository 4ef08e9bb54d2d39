// Naive reference implementations for the core unit tests.
//
// Everything here is written independently of src/core: plain loops in double precision, no Eigen
// arithmetic. The tests compute a result with the core (float, Eigen) and with these loops, then compare
// within a tolerance and print the largest absolute difference.
#pragma once
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "core/attention.h"
#include "core/matrix.h"

namespace ap {
namespace ref {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Dense row-major matrix of doubles.
struct DMat {
  int rows = 0, cols = 0;
  std::vector<double> a;
  DMat() = default;
  DMat(int r, int c, double v = 0.0) : rows(r), cols(c), a(static_cast<size_t>(r) * c, v) {}
  double& operator()(int i, int j) { return a[static_cast<size_t>(i) * cols + j]; }
  double operator()(int i, int j) const { return a[static_cast<size_t>(i) * cols + j]; }
};

inline DMat from_mat(const Mat& m) {
  DMat d(static_cast<int>(m.rows()), static_cast<int>(m.cols()));
  for (int i = 0; i < d.rows; ++i)
    for (int j = 0; j < d.cols; ++j) d(i, j) = m(i, j);
  return d;
}

// C = A · B, textbook triple loop.
inline DMat matmul(const DMat& A, const DMat& B) {
  DMat C(A.rows, B.cols);
  for (int i = 0; i < A.rows; ++i)
    for (int j = 0; j < B.cols; ++j) {
      double s = 0.0;
      for (int k = 0; k < A.cols; ++k) s += A(i, k) * B(k, j);
      C(i, j) = s;
    }
  return C;
}

inline DMat transpose(const DMat& A) {
  DMat T(A.cols, A.rows);
  for (int i = 0; i < A.rows; ++i)
    for (int j = 0; j < A.cols; ++j) T(j, i) = A(i, j);
  return T;
}

// Additive mask: 0 where visible, -inf where hidden.
//   padding: key j hidden when flagged;  causal: query i hides keys j > i + (m - n).
inline DMat mask(const MaskSpec& spec, int n, int m) {
  DMat M(n, m, 0.0);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j) {
      bool hidden = false;
      if (spec.kind == MaskKind::Padding) hidden = spec.key_is_pad[j] != 0;
      if (spec.kind == MaskKind::Causal) hidden = j > i + (m - n);
      if (hidden) M(i, j) = -kInf;
    }
  return M;
}

struct Softmax {
  DMat exps, weights;
  std::vector<double> row_max, row_sum;
  std::vector<int> fully_masked;
};

// Row softmax with -inf entries meaning "hidden"; a fully hidden row is all zeros and flagged.
inline Softmax softmax(const DMat& z) {
  Softmax s;
  s.exps = DMat(z.rows, z.cols);
  s.weights = DMat(z.rows, z.cols);
  s.row_max.assign(z.rows, 0.0);
  s.row_sum.assign(z.rows, 0.0);
  s.fully_masked.assign(z.rows, 0);
  for (int i = 0; i < z.rows; ++i) {
    double mx = -kInf;
    for (int j = 0; j < z.cols; ++j)
      if (z(i, j) != -kInf && z(i, j) > mx) mx = z(i, j);
    if (mx == -kInf) {
      s.fully_masked[i] = 1;
      continue;
    }
    double sum = 0.0;
    for (int j = 0; j < z.cols; ++j) {
      s.exps(i, j) = z(i, j) == -kInf ? 0.0 : std::exp(z(i, j) - mx);
      sum += s.exps(i, j);
    }
    s.row_max[i] = mx;
    s.row_sum[i] = sum;
    for (int j = 0; j < z.cols; ++j) s.weights(i, j) = s.exps(i, j) / sum;
  }
  return s;
}

struct Sdpa {
  DMat scores, scaled, mask, masked, output;
  Softmax softmax;
  int fully_masked_rows = 0;
};

// softmax(Q·Kᵀ/√d_k + M) · V, every step in double.
inline Sdpa sdpa(const DMat& Q, const DMat& K, const DMat& V, const MaskSpec& spec) {
  Sdpa r;
  const int n = Q.rows, m = K.rows;
  r.scores = matmul(Q, transpose(K));
  r.scaled = r.scores;
  const double s = std::sqrt(static_cast<double>(Q.cols));
  for (double& x : r.scaled.a) x /= s;
  r.mask = mask(spec, n, m);
  r.masked = DMat(n, m);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j) r.masked(i, j) = r.mask(i, j) == -kInf ? -kInf : r.scaled(i, j);
  r.softmax = softmax(r.masked);
  for (int f : r.softmax.fully_masked) r.fully_masked_rows += f;
  r.output = matmul(r.softmax.weights, V);
  return r;
}

// Multi-head reference: per head project, attend, concatenate, then mix with W^O.
inline DMat multi_head(const DMat& Xq, const DMat& Xkv, const std::vector<DMat>& Wq, const std::vector<DMat>& Wk,
                       const std::vector<DMat>& Wv, const DMat& Wo, const MaskSpec& spec, DMat* concat_out) {
  const int heads = static_cast<int>(Wq.size());
  const int d_head = Wv[0].cols;
  DMat concat(Xq.rows, heads * d_head);
  for (int h = 0; h < heads; ++h) {
    const Sdpa a = sdpa(matmul(Xq, Wq[h]), matmul(Xkv, Wk[h]), matmul(Xkv, Wv[h]), spec);
    for (int i = 0; i < concat.rows; ++i)
      for (int c = 0; c < d_head; ++c) concat(i, h * d_head + c) = a.output(i, c);
  }
  if (concat_out) *concat_out = concat;
  return matmul(concat, Wo);
}

// Largest |got - want|. Equal infinities count as 0; NaN or a finite/infinite mismatch counts as +inf.
inline double max_abs_diff(const Mat& got, const DMat& want) {
  if (got.rows() != want.rows || got.cols() != want.cols) return kInf;
  double worst = 0.0;
  for (int i = 0; i < want.rows; ++i)
    for (int j = 0; j < want.cols; ++j) {
      const double g = got(i, j), w = want(i, j);
      double d;
      if (std::isnan(g) || std::isnan(w)) d = kInf;
      else if (std::isinf(g) || std::isinf(w)) d = (g == w) ? 0.0 : kInf;
      else d = std::fabs(g - w);
      worst = std::max(worst, d);
    }
  return worst;
}

inline double max_abs_diff(const Vec& got, const std::vector<double>& want) {
  if (static_cast<size_t>(got.size()) != want.size()) return kInf;
  double worst = 0.0;
  for (size_t i = 0; i < want.size(); ++i) {
    const double g = got(static_cast<Eigen::Index>(i));
    worst = std::max(worst, std::isnan(g) ? kInf : std::fabs(g - want[i]));
  }
  return worst;
}

// Prints the largest difference of a comparison and records it in the test's XML/JSON properties.
inline double report(const std::string& what, double diff) {
  std::printf("    [max |diff|] %-48s %.3e\n", what.c_str(), diff);
  std::string key = "max_abs_diff_";
  for (char c : what) key += (std::isalnum(static_cast<unsigned char>(c)) ? c : '_');
  ::testing::Test::RecordProperty(key, std::to_string(diff));
  return diff;
}

// Tiny independent generator for test inputs (xorshift64*), so that attention tests do not depend on
// the RNG under test in embedding.cpp.
struct TestRng {
  uint64_t s;
  explicit TestRng(uint64_t seed) : s(seed * 2685821657736338717ull + 0x9E3779B97F4A7C15ull) {}
  uint64_t next() {
    s ^= s >> 12;
    s ^= s << 25;
    s ^= s >> 27;
    return s * 2685821657736338717ull;
  }
  double uniform(double lo, double hi) { return lo + (hi - lo) * ((next() >> 11) * (1.0 / 9007199254740992.0)); }
};

inline Mat random_mat(int rows, int cols, uint64_t seed, double lo = -1.0, double hi = 1.0) {
  TestRng rng(seed);
  Mat m(rows, cols);
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) m(i, j) = static_cast<float>(rng.uniform(lo, hi));
  return m;
}

inline bool any_nan(const Mat& m) {
  for (Eigen::Index i = 0; i < m.rows(); ++i)
    for (Eigen::Index j = 0; j < m.cols(); ++j)
      if (std::isnan(m(i, j))) return true;
  return false;
}
inline bool any_nan(const Vec& v) {
  for (Eigen::Index i = 0; i < v.size(); ++i)
    if (std::isnan(v(i))) return true;
  return false;
}

// Mean and (population) variance of all entries, in double.
inline void mean_var(const Mat& m, double* mean, double* var) {
  double s = 0.0, s2 = 0.0;
  const double cnt = static_cast<double>(m.size());
  for (Eigen::Index i = 0; i < m.rows(); ++i)
    for (Eigen::Index j = 0; j < m.cols(); ++j) s += m(i, j);
  *mean = s / cnt;
  for (Eigen::Index i = 0; i < m.rows(); ++i)
    for (Eigen::Index j = 0; j < m.cols(); ++j) s2 += (m(i, j) - *mean) * (m(i, j) - *mean);
  *var = s2 / cnt;
}

// Exact float equality of two matrices (shape and every bit of value).
inline bool identical(const Mat& a, const Mat& b) {
  if (a.rows() != b.rows() || a.cols() != b.cols()) return false;
  for (Eigen::Index i = 0; i < a.rows(); ++i)
    for (Eigen::Index j = 0; j < a.cols(); ++j)
      if (!(a(i, j) == b(i, j))) return false;
  return true;
}

}  // namespace ref
}  // namespace ap
