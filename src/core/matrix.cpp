#include "matrix.h"

#include <cmath>
#include <cstdio>

namespace ap {

std::string format_number(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.4g", v);
  return buf;
}

Status check_size(long long value, const char* name, long long max) {
  if (value < 1 || value > max)
    return Status::Error(std::string(name) + " must be between 1 and " + std::to_string(max) + ", got " +
                         std::to_string(value));
  return Status::Ok();
}

Status check_matrix(const Mat& m, const char* name, int expect_rows, int expect_cols, int max_rows,
                    int max_cols) {
  const std::string n(name);
  if (m.rows() == 0 || m.cols() == 0) return Status::Error(n + " is empty");
  if (expect_rows >= 0 && m.rows() != expect_rows)
    return Status::Error(n + " has " + std::to_string(m.rows()) + " rows, expected " +
                         std::to_string(expect_rows));
  if (expect_cols >= 0 && m.cols() != expect_cols)
    return Status::Error(n + " has " + std::to_string(m.cols()) + " columns, expected " +
                         std::to_string(expect_cols));
  if (m.rows() > max_rows)
    return Status::Error(n + " has " + std::to_string(m.rows()) + " rows; the limit is " +
                         std::to_string(max_rows));
  if (m.cols() > max_cols)
    return Status::Error(n + " has " + std::to_string(m.cols()) + " columns; the limit is " +
                         std::to_string(max_cols));
  for (Eigen::Index i = 0; i < m.rows(); ++i)
    for (Eigen::Index j = 0; j < m.cols(); ++j) {
      const float v = m(i, j);
      if (!std::isfinite(v))
        return Status::Error(n + "[" + std::to_string(i) + "][" + std::to_string(j) + "] is " +
                             format_number(v) + "; every value must be a finite number");
      if (std::fabs(v) > limits::kMaxAbsValue)
        return Status::Error(n + "[" + std::to_string(i) + "][" + std::to_string(j) + "] = " +
                             format_number(v) + " is too large; the limit is ±1e6");
    }
  return Status::Ok();
}

}  // namespace ap
