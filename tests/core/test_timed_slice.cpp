// One slice of work spread over frames (core/timed_slice.h), on a fake clock that each unit of work moves by a
// set number of milliseconds: at least one unit, no unit begun that the longest one so far says would end past
// the budget, the time and the longest slice kept.
#include <gtest/gtest.h>

#include <chrono>
#include <vector>

#include "core/timed_slice.h"

namespace ap {
namespace AP_UNITY_ID {  // this file's own namespace in a unity build (CMakeLists.txt, AP_UNITY)

struct FakeClock {
  using duration = std::chrono::microseconds;
  using rep = duration::rep;
  using period = duration::period;
  using time_point = std::chrono::time_point<FakeClock>;
  static constexpr bool is_steady = true;
  static inline long long now_us = 0;
  static time_point now() { return time_point(duration(now_us)); }
};

// Runs one slice over units of the given lengths (ms); returns how many ran.
int slice_over(const std::vector<double>& units, double budget_ms, double* seconds, double* longest_ms) {
  size_t next = 0;
  timed_slice<FakeClock>(budget_ms, [&] { return next < units.size(); },
                         [&] { FakeClock::now_us += static_cast<long long>(units[next++] * 1000); }, seconds, longest_ms);
  return static_cast<int>(next);
}

TEST(CoreTimedSlice, BeginsNoUnitThatWouldEndPastTheBudget) {
  double seconds = 0, longest = 0;
  // 5 ms units, 24 ms: 5, 10, 15 (+5 = 20 ≤ 24), 20 (+5 = 25 > 24): four units, 20 ms, not five units and 25 ms.
  EXPECT_EQ(slice_over({5, 5, 5, 5, 5, 5, 5}, 24, &seconds, &longest), 4);
  EXPECT_DOUBLE_EQ(longest, 20);
  EXPECT_DOUBLE_EQ(seconds, 0.020);
  // Exactly at the budget: 6 + 6 + 6 + 6 = 24 is begun.
  EXPECT_EQ(slice_over({6, 6, 6, 6, 6}, 24, &seconds, &longest), 4);
  EXPECT_DOUBLE_EQ(longest, 24);
  EXPECT_DOUBLE_EQ(seconds, 0.044);
}

TEST(CoreTimedSlice, AtLeastOneUnitAndTheLongestSoFarJudges) {
  double seconds = 0, longest = 0;
  EXPECT_EQ(slice_over({40, 1}, 24, &seconds, &longest), 1) << "a unit longer than the budget still runs, alone";
  EXPECT_DOUBLE_EQ(longest, 40);
  // 2, then 10 (12 ms, longest 10: 22 ≤ 24), then 2 (14 + 10 = 24 ≤ 24), then 2 (16 + 10 > 24): stop at 16.
  EXPECT_EQ(slice_over({2, 10, 2, 2, 2}, 24, &seconds, &longest), 4);
  EXPECT_DOUBLE_EQ(seconds, 0.056);
}

TEST(CoreTimedSlice, NothingToDoIsNoSlice) {
  double seconds = 0, longest = 0;
  EXPECT_EQ(slice_over({}, 24, &seconds, &longest), 0);
  EXPECT_EQ(seconds, 0);
  EXPECT_EQ(longest, 0);
}

}  // namespace
}  // namespace ap
