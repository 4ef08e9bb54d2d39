// The workers' own wasm modules (kernel_worker.cpp, train_worker.cpp) answer each C call with 1 (done) or 0
// (refused), the reason kept in the module's error string, which its JavaScript reads (web/*_worker.js).
#pragma once
#include <string>

#include "core/status.h"

namespace ap {

inline int worker_answer(const Status& s, std::string* error) {
  *error = s.ok ? std::string() : s.message;
  return s.ok ? 1 : 0;
}

}  // namespace ap
