// Where each slow thing is tested (./build.sh test): a recipe trained to its target (an accuracy, an alignment,
// the build's checkpoints retrained to the same bytes) is asserted once, natively in the Release build
// (build/native), and once in the page by the browser tests. The sanitizer tree (build/san) and the wasm unit
// tests under Node are plumbing runs (AP_PLUMBING_TESTS, set by CMakeLists.txt): there a test that trains to a
// target runs a short recipe through the same code instead — every code path and message, with the targets left
// to the Release run — or, where a short twin already exists beside it, is skipped with the reason.
#pragma once
#include <gtest/gtest.h>

namespace ap {
namespace test {

#ifdef AP_PLUMBING_TESTS
inline constexpr bool kPlumbing = true;
#else
inline constexpr bool kPlumbing = false;
#endif

// The sanitizer tree: a few tests whose size is the point (a document at its limits, a long sentence's every
// round trip) run natively and in wasm, not at the sanitizers' speed.
#if defined(__SANITIZE_ADDRESS__)
#define AP_TEST_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define AP_TEST_SANITIZED 1
#endif
#endif
#ifdef AP_TEST_SANITIZED
inline constexpr bool kSanitized = true;
#else
inline constexpr bool kSanitized = false;
#endif

// `full` in the Release run, `short_` in a plumbing run (the steps of a recipe, the sentences of a measurement).
template <class T>
constexpr T full_or_short(T full, T short_) {
  return kPlumbing ? short_ : full;
}

}  // namespace test
}  // namespace ap

// A test whose size is the point, run in build/native and in wasm; in build/san its code runs at smaller sizes in
// the tests beside it.
#define LARGE_SIZES_NOT_UNDER_SANITIZERS()                                                           \
  if (::ap::test::kSanitized)                                                                        \
  GTEST_SKIP() << "the largest sizes: run natively and in wasm; smaller ones run here in the tests beside it"

// A test that trains a recipe to its target and asserts it, with nothing a short run would check that another
// test does not: skipped in a plumbing run, which says where it is asserted.
#define TRAINED_TARGET_ASSERTED_IN_RELEASE()                                                          \
  if (::ap::test::kPlumbing)                                                                         \
  GTEST_SKIP() << "a recipe trained to its target: asserted natively (build/native, Release); "     \
                  "its code paths run short in the tests beside it"
