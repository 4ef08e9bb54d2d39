// The races' host in the browser (app/seq2seq_race.h: RaceHost): each run of a race in a Web Worker of its own,
// the training worker's module (web/train_worker.js, src/program/train_worker.cpp's rw_* functions), so that the
// runs train in parallel and off the main thread, whose frames only read their reports. Starting the workers and
// passing messages is the little JavaScript of web/playground.js (window.apRace); a report comes back through
// ap_race_report() as core/train/seq2seq_run.h's packed array, checked here before the race sees it.
#ifdef __EMSCRIPTEN__
#include <emscripten.h>

#include <string>
#include <vector>

#include "app/seq2seq_race.h"
#include "core/train/seq2seq_checkpoint.h"

namespace {

class WebRaceHost final : public ap::RaceHost {
 public:
  int begin(const ap::train::Seq2SeqRecipe& r, const std::vector<int>& lengths, int per_length) override {
    std::vector<uint8_t> recipe;
    ap::train::write_seq2seq_recipe(r, &recipe);
    const std::vector<int32_t> L(lengths.begin(), lengths.end());
    const int handle = next_++;
    const int ok = EM_ASM_INT({
      if (!window['apRace'] || !window['apRace']['available']()) return 0;
      return window['apRace']['begin']($0, HEAPU8.slice($1, $1 + $2), Array.from(HEAP32.subarray($3 >> 2, ($3 >> 2) + $4)), $5);
    }, handle, recipe.data(), static_cast<int>(recipe.size()), L.data(), static_cast<int>(L.size()), per_length);
    if (!ok) return 0;
    runs_.push_back(Run());
    runs_.back().handle = handle;
    return handle;
  }
  void run(int h) override { EM_ASM({ if (window['apRace']) window['apRace']['run']($0); }, h); }
  void pause(int h) override { EM_ASM({ if (window['apRace']) window['apRace']['pause']($0); }, h); }
  void end(int h) override {
    EM_ASM({ if (window['apRace']) window['apRace']['end']($0); }, h);
    if (Run* r = find(h)) {
      *r = std::move(runs_.back());
      runs_.pop_back();
    }
  }
  bool poll(int h, ap::train::RunReport* out, std::vector<uint8_t>* checkpoint, std::string* error) override {
    Run* found = find(h);
    if (!found) return false;
    Run& r = *found;
    if (!r.error.empty()) {
      *error = r.error;
      r.error.clear();
    }
    if (!r.fresh) return false;
    r.fresh = false;
    *out = r.report;
    if (!r.checkpoint.empty()) *checkpoint = std::move(r.checkpoint);
    r.checkpoint.clear();
    return true;
  }

  void received(int h, const double* v, int n, const uint8_t* checkpoint, int checkpoint_n) {
    Run* r = find(h);
    if (!r) return;  // a run ended while its report was on its way
    ap::train::RunReport report;
    const ap::Status s = ap::train::decode_run_report(v, static_cast<size_t>(n > 0 ? n : 0), &report);
    if (!s.ok) {
      r->error = s.message;
      return;
    }
    r->report = std::move(report);
    r->fresh = true;
    if (checkpoint && checkpoint_n > 0) r->checkpoint.assign(checkpoint, checkpoint + checkpoint_n);
  }
  void failed(int h, const char* e) {
    if (Run* r = find(h)) r->error = e && *e ? e : "the training worker failed";
  }

 private:
  struct Run {
    int handle = 0;
    ap::train::RunReport report;
    bool fresh = false;
    std::vector<uint8_t> checkpoint;  // with the report that says the run is done, until polled
    std::string error;
  };
  Run* find(int h) {
    for (Run& r : runs_)
      if (r.handle == h) return &r;
    return nullptr;
  }
  std::vector<Run> runs_;  // the runs begun and not ended (a race's few)
  int next_ = 1;  // handles: 0 is "could not begin"
};

WebRaceHost g_race_host;

}  // namespace

namespace ap {
void install_web_race_host() { set_race_host(&g_race_host); }
}  // namespace ap

extern "C" EMSCRIPTEN_KEEPALIVE void ap_race_report(int handle, const double* v, int n, const uint8_t* checkpoint, int checkpoint_n) {
  g_race_host.received(handle, v, n, checkpoint, checkpoint_n);
}
extern "C" EMSCRIPTEN_KEEPALIVE void ap_race_failed(int handle, const char* error) { g_race_host.failed(handle, error); }
#endif
