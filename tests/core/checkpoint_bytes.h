// The default coreference checkpoint for the tests: the file tools/make_checkpoint.cpp wrote into the build
// (native, AP_CHECKPOINT_FILE), or — where there is none (the wasm tests) — the same recipe trained here
// (deterministic: the same bytes). Made once per test run.
#pragma once
#include <cstdio>
#include <vector>

#include "core/train/checkpoint.h"

namespace ap {

inline const std::vector<uint8_t>& default_checkpoint_bytes() {
  static const std::vector<uint8_t> bytes = [] {
    std::vector<uint8_t> b;
#ifdef AP_CHECKPOINT_FILE
    if (FILE* f = std::fopen(AP_CHECKPOINT_FILE, "rb")) {
      unsigned char buf[65536];
      size_t got;
      while ((got = std::fread(buf, 1, sizeof buf, f)) > 0) b.insert(b.end(), buf, buf + got);
      std::fclose(f);
      return b;
    }
#endif
    (void)train::train_checkpoint(train::Recipe{}, &b);
    return b;
  }();
  return bytes;
}

}  // namespace ap
