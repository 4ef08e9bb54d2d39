#include "train_host.h"

#include "core/train/checkpoint.h"

#ifndef __EMSCRIPTEN__
#include <condition_variable>
#include <mutex>
#include <thread>
#endif

namespace ap {

namespace {
TrainHost* g_host = nullptr;
}  // namespace

TrainHost* train_host() { return g_host; }
void set_train_host(TrainHost* host) { g_host = host; }

#ifdef __EMSCRIPTEN__
std::unique_ptr<TrainHost> make_thread_train_host() { return nullptr; }
#else
namespace {

// One thread owns the Trainer. Commands set fields under the mutex and wake it; it trains in chunks of
// kEvalEvery steps (a curve point each), publishing a report after each.
class ThreadTrainHost final : public TrainHost {
 public:
  ThreadTrainHost() : thread_([this] { loop(); }) {}
  ~ThreadTrainHost() override {
    {
      std::lock_guard<std::mutex> lock(m_);
      quit_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }
  const char* name() const override { return "thread"; }
  void begin(const train::Recipe& recipe, const std::vector<std::string>& words, bool with_weights) override {
    command([&] {
      begin_ = true;
      ++run_;
      fresh_ = false;  // a report of the run before, not yet read, is not this run's
      report_ = train::TrainReport();
      with_weights_ = with_weights;
      recipe_ = recipe;
      words_ = words;
      until_ = 0;
    });
  }
  void run(int until_step) override { command([&] { until_ = until_step; }); }
  void pause() override { command([&] { until_ = 0; pause_ = true; }); }
  void show(const std::vector<std::string>& words) override {
    command([&] {
      words_ = words;
      show_ = true;
    });
  }
  bool poll(train::TrainReport* out, std::string* error) override {
    std::lock_guard<std::mutex> lock(m_);
    if (!error_.empty() && error) {
      *error = error_;
      error_.clear();
    }
    if (!fresh_) return false;
    fresh_ = false;
    *out = report_;
    return true;
  }

 private:
  template <class F>
  void command(F f) {
    {
      std::lock_guard<std::mutex> lock(m_);
      f();
    }
    cv_.notify_all();
  }

  void loop() {
    train::Trainer t;
    bool have = false;
    std::vector<std::string> words;
    int run = 0;  // the begin() whose run the trainer holds
    bool with_weights = false;
    int weights_step = -1;  // the evaluation whose weights were sent last
    for (;;) {
      bool begin = false, show = false, pause = false;
      int until = 0;
      train::Recipe recipe;
      {
        std::unique_lock<std::mutex> lock(m_);
        cv_.wait(lock, [&] { return quit_ || begin_ || show_ || pause_ || (have && until_ > t.step() && !t.finished() && !t.diverged()); });
        if (quit_) return;
        begin = begin_;
        if (begin) run = run_, with_weights = with_weights_, weights_step = -1;
        show = show_ || begin_;
        pause = pause_;
        begin_ = show_ = pause_ = false;
        until = until_;
        recipe = recipe_;
        words = words_;
      }
      if (begin) {
        const Status s = t.init(recipe);
        have = s.ok;
        if (!s.ok) fail(s.message);
      }
      if (!have) continue;
      bool trained = false;
      if (!begin && until > t.step()) {
        t.advance(std::min(train::kEvalEvery - t.step() % train::kEvalEvery, until - t.step()));
        trained = true;
      }
      if (trained || show || pause) publish(t, words, run, with_weights ? &weights_step : nullptr);
    }
  }

  // weights_step (null: no weights wanted): the evaluation sent last; the weights go when a newer one exists.
  void publish(train::Trainer& t, const std::vector<std::string>& words, int run, int* weights_step) {
    train::SentenceAttention a;
    const Status s = t.attention_of(words, &a);
    if (!s.ok) a.layers = t.recipe().layers, a.heads = t.recipe().heads;  // no maps: the words were refused
    train::TrainReport r = train::make_report(t, a);
    if (weights_step && *weights_step != t.evaluated_step()) {
      *weights_step = t.evaluated_step();
      train::write_checkpoint(t, &r.weights, train::CheckpointWeights::LastEvaluation);
    }
    std::lock_guard<std::mutex> lock(m_);
    if (run != run_) return;  // a begin() came while this chunk trained: its run is no longer asked for
    if (fresh_ && r.weights.empty()) r.weights = std::move(report_.weights);  // a report not yet read kept them
    report_ = std::move(r);
    fresh_ = true;
  }
  void fail(const std::string& e) {
    std::lock_guard<std::mutex> lock(m_);
    error_ = e;
  }

  std::mutex m_;
  std::condition_variable cv_;
  bool quit_ = false, begin_ = false, show_ = false, pause_ = false, fresh_ = false, with_weights_ = false;
  int until_ = 0;
  int run_ = 0;  // begin() calls so far
  train::Recipe recipe_;
  std::vector<std::string> words_;
  train::TrainReport report_;
  std::string error_;
  std::thread thread_;  // last: started once every other member exists
};

}  // namespace

std::unique_ptr<TrainHost> make_thread_train_host() { return std::make_unique<ThreadTrainHost>(); }
#endif

}  // namespace ap
