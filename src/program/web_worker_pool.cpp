// The cost lab's parallel workers in the browser: a WorkerPool (app/worker_pool.h) over Web Workers. The
// pool itself (starting workers, wiring their MessagePorts, timing a job) is the little JavaScript of
// web/playground.js (window['apWorkers']); each worker runs src/program/kernel_worker.cpp. A finished job comes
// back through ap_worker_done(), which also asks for a frame so the scene can collect it.
#ifdef __EMSCRIPTEN__
#include <emscripten.h>

#include <string>

#include "app/worker_pool.h"
#include "platform/platform.h"

namespace {

class WebWorkerPool final : public ap::WorkerPool {
 public:
  int max_workers() const override {
    return EM_ASM_INT({ return window['apWorkers'] ? window['apWorkers']['maxWorkers']() : 0; });
  }
  const char* name() const override { return "Web Workers"; }
  bool submit(const ap::WorkerJob& job) override {
    if (busy_) return false;
    busy_ = true;
    done_ = false;
    ++job_id_;
    const int ok = EM_ASM_INT({
      if (!window['apWorkers']) return 0;
      window['apWorkers']['submit']($0, $1 ? 'gru' : 'attention', $2, $3, $4, $5, $6);
      return 1;
    }, job_id_, job.kind == ap::WorkerJobKind::Gru ? 1 : 0, job.n, job.d, job.workers, static_cast<double>(job.reps),
       static_cast<int>(job.seed & 0x7fffffff));
    if (!ok) busy_ = false;
    return ok != 0;
  }
  bool poll(ap::WorkerResult* out) override {
    if (!busy_ || !done_) return false;
    busy_ = false;
    *out = result_;
    return true;
  }
  void cancel() override {
    if (!busy_) return;
    busy_ = false;
    ++job_id_;  // a late reply of the cancelled job no longer matches
    EM_ASM({ if (window['apWorkers']) window['apWorkers']['cancel'](); });
  }
  bool wakes_page() const override { return true; }

  void finished(int id, bool ok, double ms, double checksum, const char* error) {
    if (!busy_ || id != job_id_) return;
    result_ = ap::WorkerResult{};
    result_.ok = ok;
    result_.ms = ms;
    result_.checksum = checksum;
    result_.error = error ? error : "";
    done_ = true;
  }

 private:
  int job_id_ = 0;
  bool busy_ = false, done_ = false;
  ap::WorkerResult result_;
};

WebWorkerPool g_web_pool;

}  // namespace

namespace ap {
void install_web_worker_pool() { set_worker_pool(&g_web_pool); }
}  // namespace ap

extern "C" EMSCRIPTEN_KEEPALIVE void ap_worker_done(int id, int ok, double ms, double checksum, const char* error) {
  g_web_pool.finished(id, ok != 0, ms, checksum, error);
  ap::platform_request_frames(2);
}
#endif
