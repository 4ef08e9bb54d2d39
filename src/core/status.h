// Status: how every core entry point reports failure. Nothing in src/core aborts or throws on bad input.
//
// An error is a code and its arguments, not a finished sentence, so that the interface can say it in the
// learner's language. The code is the English template itself ("{0} must be between {1} and {2}, got {3}"):
// it names the error uniquely, reads well in the source, and is the key of its Chinese translation in the
// interface's string tables (src/app/i18n.cpp; tools/check_i18n.py fails on a template without one).
// `message` is the template filled in, in English: what logs, tests and the page API's `error` carry.
#pragma once
#include <string>
#include <utility>
#include <vector>

namespace ap {

// Fills "{0}", "{1}", … in `tmpl` with `args` (a missing argument leaves its placeholder as it is).
std::string format_template(const char* tmpl, const std::vector<std::string>& args);

struct [[nodiscard]] Status {
  bool ok = true;
  const char* code = nullptr;        // the English template; nullptr when ok
  std::vector<std::string> args;     // its arguments, already formatted (numbers, names)
  std::string message;               // English: format_template(code, args); empty when ok

  static Status Ok() { return {}; }
  static Status Error(const char* tmpl, std::vector<std::string> a = {}) {
    Status s;
    s.ok = false;
    s.code = tmpl;
    s.args = std::move(a);
    s.message = format_template(tmpl, s.args);
    return s;
  }
  explicit operator bool() const { return ok; }
};

// "12" for integers and the like: a short way to pass numbers as arguments.
inline std::string arg(long long v) { return std::to_string(v); }

// Early-return helper: `AP_TRY(check_something(...));`
#define AP_TRY(expr)                 \
  do {                               \
    ::ap::Status ap_try_s_ = (expr); \
    if (!ap_try_s_.ok) return ap_try_s_; \
  } while (0)

}  // namespace ap
