// Shared by the app tests that train: a training thread installed for one test, polling a scene as the frame
// loop does, and where the SDPA scene's "it" row points.
#pragma once
#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <thread>

#include "app/scenes/sdpa_scene.h"
#include "app/train_host.h"

namespace ap {
namespace test {

// Installs a training thread for one test (none under Emscripten: the page's host is a Web Worker, which
// the browser tests train.test.mjs and panel.test.mjs cover; these tests are skipped there).
#define NEEDS_THREAD_HOST() \
  if (!make_thread_train_host()) GTEST_SKIP() << "no training thread in this build"
struct WithHost {
  std::unique_ptr<TrainHost> host = make_thread_train_host();
  WithHost() { set_train_host(host.get()); }
  ~WithHost() { set_train_host(nullptr); }
};

// Polls `s` (as the frame loop does) until `done` or about `seconds`.
template <class S, class F>
bool wait_for(S& s, F done, double seconds = 30) {
  const auto t0 = std::chrono::steady_clock::now();
  while (std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() < seconds) {
    s.poll();
    if (done()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return false;
}

// The key the "it" row of the SDPA scene's trained view weighs most.
inline int it_argmax(const SdpaScene& s) {
  const Mat& A = s.model().trace.weights();
  const int it = s.trained_qkv().it_pos;
  int best = 0;
  for (int j = 1; j < A.cols(); ++j)
    if (A(it, j) > A(it, best)) best = j;
  return best;
}

}  // namespace test
}  // namespace ap
