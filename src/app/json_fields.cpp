#include "json_fields.h"

#include <cmath>
#include <limits>

namespace ap {

using nlohmann::json;

std::string quote_json(const json& v, size_t max) {
  // A whole number read as a double (a link's "step=5") is quoted as typed, "5", not as nlohmann writes it, "5.0".
  if (v.is_number_float() && std::isfinite(v.get<double>()) && v.get<double>() == std::floor(v.get<double>()) &&
      std::fabs(v.get<double>()) < 1e15)
    return std::to_string(static_cast<long long>(v.get<double>()));
  std::string s = v.dump(-1, ' ', /*ensure_ascii=*/true, json::error_handler_t::replace);
  if (s.size() > max) s = s.substr(0, max) + "…";
  return s;
}

Status read_int(const json& v, const char* name, long long lo, long long hi, long long* out) {
  if (!v.is_number()) return Status::Error("{0} must be a number, got {1}", {name, quote_json(v)});
  const double d = v.get<double>();
  if (!std::isfinite(d) || d != std::floor(d)) return Status::Error("{0} must be a whole number, got {1}", {name, quote_json(v)});
  if (d < static_cast<double>(lo) || d > static_cast<double>(hi))
    return Status::Error("{0} must be between {1} and {2}, got {3}", {name, arg(lo), arg(hi), quote_json(v)});
  *out = static_cast<long long>(d);
  return Status::Ok();
}

Status read_number(const json& v, const char* name, double lo, double hi, double* out) {
  if (!v.is_number()) return Status::Error("{0} must be a number, got {1}", {name, quote_json(v)});
  const double d = v.get<double>();
  if (!(d >= lo && d <= hi))
    return Status::Error("{0} must be between {1} and {2}, got {3}", {name, format_number(lo), format_number(hi), quote_json(v)});
  *out = d;
  return Status::Ok();
}

Status read_bool(const json& v, const char* name, bool* out) {
  if (!v.is_boolean()) return Status::Error("{0} must be true or false, got {1}", {name, quote_json(v)});
  *out = v.get<bool>();
  return Status::Ok();
}

Status read_string(const json& v, const char* name, std::string* out) {
  if (!v.is_string()) return Status::Error("{0} must be a string, got {1}", {name, quote_json(v)});
  *out = v.get<std::string>();
  return Status::Ok();
}

Status read_string_list(const json& v, const char* name, std::vector<std::string>* out) {
  if (!v.is_array()) return Status::Error("{0} must be an array of strings", {name});
  std::vector<std::string> r;
  r.reserve(v.size());
  for (const auto& e : v) {
    if (!e.is_string()) return Status::Error("{0} must contain only strings, got {1}", {name, quote_json(e)});
    r.push_back(e.get<std::string>());
  }
  *out = std::move(r);
  return Status::Ok();
}

Status read_matrix(const json& v, const std::string& name, int max_rows, int max_cols, Mat* out) {
  if (!v.is_array() || v.empty()) return Status::Error("{0} must be a non-empty array of rows", {name});
  if (v.size() > static_cast<size_t>(max_rows))
    return Status::Error("{0} has {1} rows; the limit is {2}", {name, arg(static_cast<long long>(v.size())), arg(max_rows)});
  const json& first = v[0];
  if (!first.is_array() || first.empty()) return Status::Error("{0}[0] must be a non-empty array of numbers", {name});
  const size_t cols = first.size();
  if (cols > static_cast<size_t>(max_cols))
    return Status::Error("{0} has {1} columns; the limit is {2}", {name, arg(static_cast<long long>(cols)), arg(max_cols)});
  Mat m(static_cast<Eigen::Index>(v.size()), static_cast<Eigen::Index>(cols));
  for (size_t i = 0; i < v.size(); ++i) {
    const json& row = v[i];
    if (!row.is_array() || row.size() != cols)
      return Status::Error("{0}[{1}] must have {2} numbers like row 0", {name, arg(static_cast<long long>(i)), arg(static_cast<long long>(cols))});
    for (size_t j = 0; j < cols; ++j) {
      const std::string cell = name + "[" + arg(static_cast<long long>(i)) + "][" + arg(static_cast<long long>(j)) + "]";
      if (!row[j].is_number()) return Status::Error("{0} is not a number: {1}", {cell, quote_json(row[j])});
      // Checked as a double: a value past float's range must be refused, not turned into infinity.
      const double d = row[j].get<double>();
      if (!std::isfinite(d)) return Status::Error("{0} is {1}; every value must be a finite number", {cell, format_number(d)});
      if (std::fabs(d) > limits::kMaxAbsValue)
        return Status::Error("{0} = {1} is too large; the limit is ±1e6", {cell, format_number(d)});
      m(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) = static_cast<float>(d);
    }
  }
  *out = std::move(m);
  return Status::Ok();
}

Status check_known_fields(const json& doc, const std::vector<const char*>& known) {
  for (auto it = doc.begin(); it != doc.end(); ++it) {
    bool found = false;
    for (const char* k : known) found = found || it.key() == k;
    if (!found) return Status::Error("unknown field '{0}'", {it.key()});
  }
  return Status::Ok();
}

json matrix_json(const Mat& m, bool neg_inf_as_null) {
  json rows = json::array();
  for (Eigen::Index i = 0; i < m.rows(); ++i) {
    json r = json::array();
    for (Eigen::Index j = 0; j < m.cols(); ++j) {
      const float v = m(i, j);
      if (std::isfinite(v)) r.push_back(v);
      else if (neg_inf_as_null) r.push_back(nullptr);
      else r.push_back(v > 0 ? 1e38 : -1e38);  // never reached for validated inputs
    }
    rows.push_back(std::move(r));
  }
  return rows;
}

bool matrix_agrees(const json& v, const Mat& m, double tol, std::string* where) {
  const auto say = [&](const std::string& s) { if (where) *where = s; return false; };
  if (!v.is_array() || v.size() != static_cast<size_t>(m.rows()))
    return say(arg(v.is_array() ? static_cast<long long>(v.size()) : 0) + " rows vs " + arg(m.rows()));
  for (Eigen::Index i = 0; i < m.rows(); ++i) {
    const json& row = v[static_cast<size_t>(i)];
    if (!row.is_array() || row.size() != static_cast<size_t>(m.cols()))
      return say("[" + arg(i) + "]: " + arg(row.is_array() ? static_cast<long long>(row.size()) : 0) + " columns vs " + arg(m.cols()));
    for (Eigen::Index j = 0; j < m.cols(); ++j) {
      const json& e = row[static_cast<size_t>(j)];
      const double want = m(i, j);
      const std::string at = "[" + arg(i) + "][" + arg(j) + "]: ";
      if (e.is_null()) {
        if (!(std::isinf(want) && want < 0)) return say(at + "null vs " + format_number(want));
        continue;
      }
      if (!e.is_number()) return say(at + quote_json(e) + " vs " + format_number(want));
      const double got = e.get<double>();
      if (!std::isfinite(want) || std::fabs(got - want) > tol * std::max(1.0, std::max(std::fabs(got), std::fabs(want))))
        return say(at + format_number(got) + " vs " + format_number(want));
    }
  }
  return true;
}

int json_nesting_depth(const char* text, size_t size) {
  int depth = 0, deepest = 0;
  bool in_string = false;
  for (size_t i = 0; i < size; ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') ++i;  // skip the escaped character
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') in_string = true;
    else if (c == '[' || c == '{') deepest = std::max(deepest, ++depth);
    else if (c == ']' || c == '}') --depth;
  }
  return deepest;
}

}  // namespace ap
