#include "worker_pool.h"

#ifndef __EMSCRIPTEN__
#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>
#include <vector>

#include "core/split_work.h"
#endif

namespace ap {

namespace {
WorkerPool* g_pool = nullptr;
}  // namespace

WorkerPool* worker_pool() { return g_pool; }
void set_worker_pool(WorkerPool* pool) { g_pool = pool; }

#ifdef __EMSCRIPTEN__
std::unique_ptr<WorkerPool> make_thread_pool() { return nullptr; }
#else
namespace {

double now_ms() {
  using namespace std::chrono;
  return duration<double, std::milli>(steady_clock::now().time_since_epoch()).count();
}

// All threads wait here until the last one arrives (a generation counter, spinning with yields: a hand-off
// costs what the processor's caches cost, not a system call).
class SpinBarrier {
 public:
  explicit SpinBarrier(int count) : count_(count), waiting_(0), generation_(0) {}
  void wait(const std::atomic<bool>& cancelled) {
    const int gen = generation_.load(std::memory_order_acquire);
    if (waiting_.fetch_add(1, std::memory_order_acq_rel) + 1 == count_) {
      waiting_.store(0, std::memory_order_relaxed);
      generation_.fetch_add(1, std::memory_order_acq_rel);
      return;
    }
    while (generation_.load(std::memory_order_acquire) == gen && !cancelled.load(std::memory_order_relaxed))
      std::this_thread::yield();
  }

 private:
  const int count_;
  std::atomic<int> waiting_, generation_;
};

class ThreadPool final : public WorkerPool {
 public:
  ~ThreadPool() override { cancel(); }
  int max_workers() const override {
    return static_cast<int>(std::max(1u, std::min(8u, std::thread::hardware_concurrency())));
  }
  const char* name() const override { return "threads"; }
  bool submit(const WorkerJob& job) override {
    if (coordinator_.joinable()) return false;
    done_ = false;
    cancelled_ = false;
    coordinator_ = std::thread([this, job] { run(job); });
    return true;
  }
  bool poll(WorkerResult* out) override {
    if (!coordinator_.joinable() || !done_.load(std::memory_order_acquire)) return false;
    coordinator_.join();
    *out = result_;
    return true;
  }
  void cancel() override {
    cancelled_ = true;
    if (coordinator_.joinable()) coordinator_.join();
  }

 private:
  // Prepares W workers' inputs, then times the span from the first start to the last end.
  void run(const WorkerJob& job) {
    WorkerResult r;
    const int W = std::max(1, job.workers);
    std::vector<double> start(static_cast<size_t>(W)), end(static_cast<size_t>(W)), sums(static_cast<size_t>(W));
    std::vector<std::thread> threads;
    Status failed;
    std::mutex m;
    if (job.kind == WorkerJobKind::Attention) {
      const std::vector<UnitRange> rows = split_even(job.n, W);
      std::vector<SplitAttention> parts(rows.size());
      for (size_t i = 0; i < parts.size() && failed.ok; ++i)
        failed = parts[i].prepare(false, job.n, job.d, rows[i].begin, rows[i].end, job.seed);
      SpinBarrier go(static_cast<int>(parts.size()));
      for (size_t i = 0; failed.ok && i < parts.size(); ++i)
        threads.emplace_back([&, i] {
          go.wait(cancelled_);
          start[i] = now_ms();
          sums[i] = parts[i].run(job.reps);
          end[i] = now_ms();
          if (!parts[i].last_status().ok) {
            std::lock_guard<std::mutex> lock(m);
            failed = parts[i].last_status();
          }
        });
      for (auto& t : threads) t.join();
      start.resize(parts.size());
      end.resize(parts.size());
    } else {
      const std::vector<UnitRange> units = split_even(job.d, W);
      const int P = static_cast<int>(units.size());
      std::vector<SplitGru> parts(units.size());
      for (size_t i = 0; i < parts.size() && failed.ok; ++i)
        failed = parts[i].prepare(job.n, job.d, job.d, units[i].begin, units[i].end, job.seed);
      // h_t is exchanged through one shared array: each worker writes its units, all wait, each copies the
      // whole of it, all wait again (so nobody writes step t + 1 while another still reads step t).
      std::vector<float> shared(static_cast<size_t>(job.d), 0.0f);
      SpinBarrier go(P), written(P), read(P);
      for (int i = 0; failed.ok && i < P; ++i)
        threads.emplace_back([&, i] {
          SplitGru& g = parts[static_cast<size_t>(i)];
          go.wait(cancelled_);
          start[static_cast<size_t>(i)] = now_ms();
          for (long long rep = 0; rep < job.reps && !cancelled_; ++rep) {
            g.reset();
            for (int t = 0; t < job.n && !cancelled_; ++t) {
              (void)g.step(t);
              if (P > 1) {
                std::copy(g.next() + g.u0(), g.next() + g.u1(), shared.begin() + g.u0());
                written.wait(cancelled_);
                std::copy(shared.begin(), shared.end(), g.next());
                read.wait(cancelled_);
              }
              g.advance();
            }
          }
          end[static_cast<size_t>(i)] = now_ms();
          sums[static_cast<size_t>(i)] = g.checksum();
        });
      for (auto& t : threads) t.join();
      start.resize(static_cast<size_t>(P));
      end.resize(static_cast<size_t>(P));
      sums.resize(1);  // every worker holds the whole h_{n−1}
    }
    if (!failed.ok) {
      r.error = failed.message;
    } else if (cancelled_) {
      r.error = "cancelled";
    } else {
      r.ok = true;
      r.ms = (*std::max_element(end.begin(), end.end()) - *std::min_element(start.begin(), start.end())) /
             static_cast<double>(std::max(1LL, job.reps));
      for (double s : sums) r.checksum += s;
    }
    result_ = r;
    done_.store(true, std::memory_order_release);
  }

  std::thread coordinator_;
  std::atomic<bool> done_{false}, cancelled_{false};
  WorkerResult result_;
};

}  // namespace

std::unique_ptr<WorkerPool> make_thread_pool() { return std::make_unique<ThreadPool>(); }
#endif

}  // namespace ap
