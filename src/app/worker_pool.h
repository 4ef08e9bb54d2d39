// Parallel workers for the cost lab's measured speed-up: Web Workers in the browser (each with its own wasm
// module, web/kernel_worker.js), threads in the desktop build. The scene decides what to run and computes the
// speed-ups; a pool only runs one job at a time and reports its wall time.
//
// A job is one layer split over `workers` (core/split_work.h): attention by query rows (no communication), a
// GRU by hidden units (a hand-off of h_t after each of the n steps). Inputs are prepared first, untimed; the
// timed part runs from the moment the first worker starts to the moment the last one finishes, `reps` times.
#pragma once
#include <cstdint>
#include <memory>
#include <string>

namespace ap {

enum class WorkerJobKind { Attention, Gru };

struct WorkerJob {
  WorkerJobKind kind = WorkerJobKind::Attention;
  int n = 512;        // tokens (attention) or time steps (GRU)
  int d = 64;         // attention: d_k = d_v; GRU: input width = hidden size
  int workers = 1;    // 1 .. max_workers()
  long long reps = 1; // calls (attention) or whole sequences (GRU) in the timed span
  uint64_t seed = 1;
};

struct WorkerResult {
  bool ok = false;
  std::string error;     // English, when !ok
  double ms = 0.0;       // wall time of the timed span divided by reps: one call
  double checksum = 0.0; // attention: sum of all output rows; GRU: sum of h_{n−1} (equal for every W)
};

class WorkerPool {
 public:
  virtual ~WorkerPool() = default;
  virtual int max_workers() const = 0;       // 0: no parallel workers here
  virtual const char* name() const = 0;      // "Web Workers", "threads"
  virtual bool submit(const WorkerJob& job) = 0;  // false when a job is still running
  virtual bool poll(WorkerResult* out) = 0;       // true once, when the submitted job has finished
  virtual void cancel() = 0;                      // drops the running job (its result never arrives)
  // True when the pool asks the page for a frame as its job ends (then nothing needs to draw meanwhile).
  virtual bool wakes_page() const { return false; }
};

// Threads of this process (desktop build; nullptr under Emscripten, whose page uses Web Workers).
std::unique_ptr<WorkerPool> make_thread_pool();

// The pool of this build (set by the executable at start; nullptr in the unit tests unless they set one).
WorkerPool* worker_pool();
void set_worker_pool(WorkerPool* pool);

}  // namespace ap
