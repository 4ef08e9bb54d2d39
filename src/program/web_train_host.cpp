// The training host in the browser (app/train_host.h) over one Web Worker. Starting the worker, passing
// messages and pausing while the tab is hidden is the little JavaScript of web/playground.js
// (window.apTrain); the worker runs src/program/train_worker.cpp. A report comes back through ap_train_report()
// as the packed array of core/train/report.h, which is checked here before the scene sees it.
#ifdef __EMSCRIPTEN__
#include <emscripten.h>

#include <string>
#include <vector>

#include "app/train_host.h"
#include "platform/platform.h"

namespace {

std::string joined(const std::vector<std::string>& words) {
  std::string s;
  for (const std::string& w : words) s += (s.empty() ? "" : " ") + w;
  return s;
}

class WebTrainHost final : public ap::TrainHost {
 public:
  const char* name() const override { return "Web Worker"; }
  void begin(const ap::train::Recipe& r, const std::vector<std::string>& words, bool with_weights) override {
    const std::string s = joined(words);
    ++run_;
    fresh_ = false;
    weights_.clear();
    const int ok = EM_ASM_INT({
      if (!window['apTrain']) return 0;
      window['apTrain']['begin']({'task': UTF8ToString($9), 'layers': $0, 'd_model': $1, 'heads': $2, 'seed': $3, 'steps': $4,
                                  'learning_rate': $5, 'batch': $6}, UTF8ToString($7), $8, $10);
      return 1;
    }, r.layers, r.d_model, r.heads, static_cast<double>(r.seed), r.steps, r.learning_rate, r.batch, s.c_str(), run_,
       r.task.c_str(), with_weights ? 1 : 0);
    if (!ok) error_ = "this page has no training worker";
  }
  void run(int until) override { EM_ASM({ if (window['apTrain']) window['apTrain']['run']($0); }, until); }
  void pause() override { EM_ASM({ if (window['apTrain']) window['apTrain']['pause'](); }); }
  void show(const std::vector<std::string>& words) override {
    const std::string s = joined(words);
    EM_ASM({ if (window['apTrain']) window['apTrain']['show'](UTF8ToString($0)); }, s.c_str());
  }
  bool poll(ap::train::TrainReport* out, std::string* error) override {
    if (!error_.empty() && error) {
      *error = error_;
      error_.clear();
    }
    if (!fresh_) return false;
    fresh_ = false;
    *out = report_;
    return true;
  }
  bool wakes_page() const override { return true; }

  // A report of the run that begin() number `run` started; one of an earlier run, still on its way, is dropped.
  // True when it is worth a frame at once: the run's first report, its last (finished or diverged), a fault;
  // the reports in between are drawn a few times a second (platform_request_frames_paced).
  bool received(const double* v, int n, int run) {
    if (run != run_) return false;
    ap::train::TrainReport r;
    const ap::Status s = ap::train::decode_report(v, static_cast<size_t>(n > 0 ? n : 0), &r);
    if (!s.ok) {
      error_ = s.message;
      return true;
    }
    const bool urgent = r.step == 0 || r.finished() || r.diverged();
    if (!weights_.empty()) r.weights = std::move(weights_);
    else if (fresh_) r.weights = std::move(report_.weights);  // a report not yet read kept them
    weights_.clear();
    report_ = std::move(r);
    fresh_ = true;
    return urgent;
  }
  // The checkpoint that goes with the next report of run `run` (the worker posts both in one message).
  void received_weights(const uint8_t* bytes, int n, int run) {
    if (run == run_ && n > 0) weights_.assign(bytes, bytes + n);
  }
  void failed(const char* e) { error_ = e ? e : "the training worker failed"; }

 private:
  ap::train::TrainReport report_;
  bool fresh_ = false;
  int run_ = 0;  // begin() calls so far (the worker tags each report with the one it trains)
  std::string error_;
  std::vector<uint8_t> weights_;  // arrived before their report
};

WebTrainHost g_web_host;

}  // namespace

namespace ap {
void install_web_train_host() { set_train_host(&g_web_host); }
}  // namespace ap

extern "C" EMSCRIPTEN_KEEPALIVE void ap_train_report(const double* v, int n, int run) {
  if (g_web_host.received(v, n, run)) ap::platform_request_frames(2);
  else ap::platform_request_frames_paced(2, 0.1);
}
extern "C" EMSCRIPTEN_KEEPALIVE void ap_train_weights(const uint8_t* bytes, int n, int run) {
  g_web_host.received_weights(bytes, n, run);
}
extern "C" EMSCRIPTEN_KEEPALIVE void ap_train_failed(const char* error) {
  g_web_host.failed(error);
  ap::platform_request_frames(2);
}
#endif
