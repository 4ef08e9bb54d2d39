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

// Central differences: n_i = (loss(x + ε·e_i) − loss(x − ε·e_i)) / 2ε, entry by entry (x restored after).
inline Mat numeric_gradient(Mat& x, const std::function<double()>& loss, double eps = 1e-3) {
  Mat n(x.rows(), x.cols());
  for (Eigen::Index i = 0; i < x.size(); ++i) {
    const float keep = x.data()[i];
    const float up = keep + static_cast<float>(eps), down = keep - static_cast<float>(eps);
    x.data()[i] = up;
    const double lp = loss();
    x.data()[i] = down;
    const double lm = loss();
    x.data()[i] = keep;
    n.data()[i] = static_cast<float>((lp - lm) / (static_cast<double>(up) - static_cast<double>(down)));
  }
  return n;
}

// Largest entrywise relative error |a − n| / max(|a|, |n|, floor). The floor keeps entries whose true
// gradient is ~0 from dividing float rounding noise by ~0. NaN anywhere gives +inf.
inline double max_rel_error(const Mat& analytic, const Mat& numeric, double floor) {
  double worst = 0.0;
  for (Eigen::Index i = 0; i < analytic.size(); ++i) {
    const double a = analytic.data()[i], n = numeric.data()[i];
    const double rel = std::fabs(n - a) / std::max({std::fabs(n), std::fabs(a), floor});
    if (!(rel == rel)) return INFINITY;
    worst = std::max(worst, rel);
  }
  return worst;
}

// Norm-wise relative error of a whole tensor: ‖a − n‖ / max(‖a‖ + ‖n‖, floor·√size).
inline double norm_rel_error(const Mat& analytic, const Mat& numeric, double floor) {
  const double d = (analytic - numeric).cast<double>().norm();
  const double s = analytic.cast<double>().norm() + numeric.cast<double>().norm();
  const double r = d / std::max(s, floor * std::sqrt(static_cast<double>(analytic.size())));
  return r == r ? r : INFINITY;
}

// One op's input: the floor is 1e-2 of that tensor's largest gradient (at least 1e-4).
inline double max_rel_error(Mat& x, const Mat& analytic, const std::function<double()>& loss, double eps = 1e-3) {
  const double gmax = analytic.size() ? static_cast<double>(analytic.cwiseAbs().maxCoeff()) : 0.0;
  return max_rel_error(analytic, numeric_gradient(x, loss, eps), std::max(1e-4, 1e-2 * gmax));
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
