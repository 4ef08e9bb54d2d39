// Work spread over frames, one slice at a time: what the frame loop's races and the trained views' measuring of
// a run's weights share.
#pragma once
#include <chrono>

namespace ap {

// One slice: work() while busy() and under budget_ms (at least once); the time spent is added to *seconds and the
// longest slice kept in *longest_ms. False when there was nothing to do. A slice can run over its budget by one
// unit of work: the callers keep their units to a few milliseconds (a training step, 20 held-out pairs, one
// batch), so that a frame stays near its budget and still does as much work as fits in it.
template <class Busy, class Work>
bool timed_slice(double budget_ms, Busy busy, Work work, double* seconds, double* longest_ms) {
  if (!busy()) return false;
  using clock = std::chrono::steady_clock;
  const auto t0 = clock::now();
  const auto spent_ms = [&] { return std::chrono::duration<double, std::milli>(clock::now() - t0).count(); };
  do work();
  while (busy() && spent_ms() < budget_ms);
  const double spent = spent_ms();
  *seconds += spent / 1000.0;
  if (spent > *longest_ms) *longest_ms = spent;
  return true;
}

}  // namespace ap
