// Reading and writing the fields of the state document (nlohmann::json), shared by every scene.
// Each reader validates and explains what is wrong with an error template (see core/status.h); none of
// them throws, and none converts a number to float before checking that it fits.
#pragma once
#include <nlohmann/json.hpp>

#include <initializer_list>
#include <string>
#include <vector>

#include "core/matrix.h"

namespace ap {

// A JSON value quoted for a message: ASCII-escaped and cut at `max` bytes (a cut can then never split a
// UTF-8 character).
std::string quote_json(const nlohmann::json& v, size_t max = 60);

Status read_int(const nlohmann::json& v, const char* name, long long lo, long long hi, long long* out);
Status read_number(const nlohmann::json& v, const char* name, double lo, double hi, double* out);
Status read_bool(const nlohmann::json& v, const char* name, bool* out);
Status read_string(const nlohmann::json& v, const char* name, std::string* out);
Status read_string_list(const nlohmann::json& v, const char* name, std::vector<std::string>* out);
// An array of rows, each an array of numbers, at most max_rows × max_cols, every |value| <= kMaxAbsValue.
Status read_matrix(const nlohmann::json& v, const std::string& name, int max_rows, int max_cols, Mat* out);

// An error naming the first field of `doc` (an object) that is not among `known`.
Status check_known_fields(const nlohmann::json& doc, const std::vector<const char*>& known);
inline Status check_known_fields(const nlohmann::json& doc, std::initializer_list<const char*> known) {
  return check_known_fields(doc, std::vector<const char*>(known));
}

// Rows of numbers; non-finite values become null (−∞ in a masked matrix) when `neg_inf_as_null`.
nlohmann::json matrix_json(const Mat& m, bool neg_inf_as_null = false);

// Whether `v` (a value as getState wrote it) equals matrix `m`, within `tol` relative to the larger
// magnitude (null stands for −∞). On a mismatch `where` gets "[i][j]: v vs m".
bool matrix_agrees(const nlohmann::json& v, const Mat& m, double tol, std::string* where);

// The deepest nesting of arrays and objects in JSON text, counted without parsing it (strings skipped).
// Used to refuse a document nested too deep before the recursive parser sees it.
int json_nesting_depth(const char* text, size_t size);
constexpr int kMaxJsonDepth = 16;

}  // namespace ap
