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

std::string format_template(const char* tmpl, const std::vector<std::string>& args) {
  std::string out;
  for (const char* p = tmpl; p && *p; ++p) {
    if (p[0] == '{' && p[1] >= '0' && p[1] <= '9' && p[2] == '}' && static_cast<size_t>(p[1] - '0') < args.size()) {
      // A value quoted in a message may hold control characters (a page sent "\u0000" as a scene's name): they
      // are written as \xNN, so that the message on screen (where a NUL would end it) and the page API's agree.
      for (const char c : args[static_cast<size_t>(p[1] - '0')]) {
        const unsigned char u = static_cast<unsigned char>(c);
        if ((u < 0x20 && c != '\n' && c != '\t') || u == 0x7f) {
          char esc[8];
          std::snprintf(esc, sizeof esc, "\\x%02X", u);
          out += esc;
        } else {
          out += c;
        }
      }
      p += 2;
    } else {
      out += *p;
    }
  }
  return out;
}

Status check_in_range(double v, const char* name, double lo, double hi) {
  if (!(v >= lo && v <= hi))  // also refuses NaN
    return Status::Error("{0} must be between {1} and {2}, got {3}",
                         {name, format_number(lo), format_number(hi), format_number(v)});
  return Status::Ok();
}

Status check_size(long long value, const char* name, long long max) {
  if (value < 1 || value > max) return Status::Error("{0} must be between 1 and {1}, got {2}", {name, arg(max), arg(value)});
  return Status::Ok();
}

Status check_matrix(const Mat& m, const char* name, int expect_rows, int expect_cols, int max_rows,
                    int max_cols) {
  const std::string n(name);
  if (m.rows() == 0 || m.cols() == 0) return Status::Error("{0} is empty", {n});
  if (expect_rows >= 0 && m.rows() != expect_rows)
    return Status::Error("{0} has {1} rows, expected {2}", {n, arg(m.rows()), arg(expect_rows)});
  if (expect_cols >= 0 && m.cols() != expect_cols)
    return Status::Error("{0} has {1} columns, expected {2}", {n, arg(m.cols()), arg(expect_cols)});
  if (m.rows() > max_rows) return Status::Error("{0} has {1} rows; the limit is {2}", {n, arg(m.rows()), arg(max_rows)});
  if (m.cols() > max_cols)
    return Status::Error("{0} has {1} columns; the limit is {2}", {n, arg(m.cols()), arg(max_cols)});
  // The cell's name is spelt out only for the message: building it for every element made this check
  // cost more than the attention it guards.
  const auto cell = [&](Eigen::Index i, Eigen::Index j) { return n + "[" + arg(i) + "][" + arg(j) + "]"; };
  for (Eigen::Index i = 0; i < m.rows(); ++i)
    for (Eigen::Index j = 0; j < m.cols(); ++j) {
      const float v = m(i, j);
      if (!std::isfinite(v))
        return Status::Error("{0} is {1}; every value must be a finite number", {cell(i, j), format_number(v)});
      if (std::fabs(v) > limits::kMaxAbsValue)
        return Status::Error("{0} = {1} is too large; the limit is ±1e6", {cell(i, j), format_number(v)});
    }
  return Status::Ok();
}

}  // namespace ap
