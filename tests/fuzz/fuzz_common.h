// Shared by the libFuzzer targets (tests/fuzz/, built with -DAP_FUZZ=ON in build/san; see build.sh san_build).
// An invariant that does not hold aborts with a message, which libFuzzer reports as a crash with its input.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <string>

#define AP_FUZZ_CHECK(cond, what)                                                   \
  do {                                                                              \
    if (!(cond)) {                                                                  \
      std::fprintf(stderr, "invariant broken: %s (%s:%d)\n", std::string(what).c_str(), __FILE__, __LINE__); \
      std::abort();                                                                 \
    }                                                                               \
  } while (0)
