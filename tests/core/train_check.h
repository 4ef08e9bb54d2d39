// Helpers for the training engine's tests: central finite differences against analytic gradients.
#pragma once
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <string>

#include "core/matrix.h"

namespace ap {
namespace traintest {

// Σ w ⊙ y in double: a fixed random projection of an op's output, so every output entry carries weight.
inline double dot(const Mat& w, const Eigen::Ref<const Mat>& y) {
  double s = 0.0;
  for (Eigen::Index i = 0; i < w.rows(); ++i)
    for (Eigen::Index j = 0; j < w.cols(); ++j) s += static_cast<double>(w(i, j)) * y(i, j);
  return s;
}

// Largest relative error between `analytic` (the backward pass's gradient of `loss` with respect to `x`) and
// the central difference (loss(x + ε) − loss(x − ε)) / 2ε, entry by entry. Relative to max(|a|, |n|, floor):
// the floor (1e-2 of the tensor's largest gradient, at least 1e-4) keeps entries whose true gradient is ~0
// from dividing float rounding noise by ~0.
inline double max_rel_error(Mat& x, const Mat& analytic, const std::function<double()>& loss, double eps = 1e-3) {
  double gmax = 0.0;
  for (Eigen::Index i = 0; i < analytic.size(); ++i) gmax = std::max(gmax, std::fabs(double(analytic.data()[i])));
  const double floor = std::max(1e-4, 1e-2 * gmax);
  double worst = 0.0;
  for (Eigen::Index i = 0; i < x.size(); ++i) {
    const float keep = x.data()[i];
    x.data()[i] = keep + static_cast<float>(eps);
    const double lp = loss();
    x.data()[i] = keep - static_cast<float>(eps);
    const double lm = loss();
    x.data()[i] = keep;
    const double actual_eps = (static_cast<double>(keep + static_cast<float>(eps)) -
                               static_cast<double>(keep - static_cast<float>(eps))) / 2.0;
    const double num = (lp - lm) / (2.0 * actual_eps);
    const double a = analytic.data()[i];
    const double rel = std::fabs(num - a) / std::max({std::fabs(num), std::fabs(a), floor});
    if (!(rel == rel)) return INFINITY;  // NaN
    worst = std::max(worst, rel);
  }
  return worst;
}

inline double report_rel(const std::string& what, double rel) {
  std::printf("    [max rel err] %-46s %.3e\n", what.c_str(), rel);
  std::string key = "max_rel_err_";
  for (char c : what) key += (std::isalnum(static_cast<unsigned char>(c)) ? c : '_');
  ::testing::Test::RecordProperty(key, std::to_string(rel));
  return rel;
}

}  // namespace traintest
}  // namespace ap
