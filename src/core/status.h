// Status: how every core entry point reports failure. Nothing in src/core aborts or throws on bad input;
// it returns a Status whose message is meant to be shown to the learner as it is.
#pragma once
#include <string>
#include <utility>

namespace ap {

struct Status {
  bool ok = true;
  std::string message;  // empty when ok

  static Status Ok() { return {}; }
  static Status Error(std::string msg) { return {false, std::move(msg)}; }
  explicit operator bool() const { return ok; }
};

// Early-return helper: `AP_TRY(check_something(...));`
#define AP_TRY(expr)                 \
  do {                               \
    ::ap::Status ap_try_s_ = (expr); \
    if (!ap_try_s_.ok) return ap_try_s_; \
  } while (0)

}  // namespace ap
