// Work spread over frames, one slice at a time: what the frame loop's races, the trained views' measuring of a
// run's weights and a race worker's chunks (src/program/train_worker.cpp) share.
#pragma once
#include <chrono>

namespace ap {

// One slice: work() while busy() and under budget_ms (at least once); the time spent is added to *seconds and the
// longest slice kept in *longest_ms. False when there was nothing to do. A unit is begun only when it should end
// within the budget, judged by the longest unit of this slice so far: a slice ends near its budget instead of a
// unit past it (a race's training step is 5 to 16 ms in the page). It can still run over by the difference
// between a unit and a longer one that follows; the callers keep their units to a few milliseconds (a training
// step, 20 held-out pairs, one batch).
// (Clock: the unit tests' fake clock.)
template <class Clock = std::chrono::steady_clock, class Busy, class Work>
bool timed_slice(double budget_ms, Busy busy, Work work, double* seconds, double* longest_ms) {
  if (!busy()) return false;
  using clock = Clock;
  const auto t0 = clock::now();
  const auto spent_ms = [&] { return std::chrono::duration<double, std::milli>(clock::now() - t0).count(); };
  double spent = 0, longest_unit = 0;
  do {
    const double before = spent;
    work();
    spent = spent_ms();
    if (spent - before > longest_unit) longest_unit = spent - before;
  } while (busy() && spent + longest_unit <= budget_ms);
  *seconds += spent / 1000.0;
  if (spent > *longest_ms) *longest_ms = spent;
  return true;
}

}  // namespace ap
