// The wasm module of the training Web Worker of "Watch attention learn" (web/train_worker.js loads it): the
// core's Trainer (core/train/trainer.h) behind a few C functions. The page's own module does not contain the
// training engine; it arrives with this worker, when the scene is first opened.
//
//   tw_begin("coref", layers, d_model, heads, seed, steps, lr, batch)
//                                                               a fresh run of the task "coref", "heads" or
//                                                               "induction" (returns 0 when refused: tw_error
//                                                               says why, validate_recipe's message)
//   tw_show("the cat … tired")                                  the sentence (induction: "A B C …") whose
//                                                               attention the reports carry
//   tw_advance(n)                                               up to n steps; returns the steps taken
//   tw_report()                                                 packs the progress (core/train/report.h) and
//                                                               returns its address; tw_report_length() doubles
//   tw_weights()                                                the checkpoint of the last evaluation (bytes;
//                                                               tw_weights_length()), tw_evaluated_step() its step
#include <emscripten.h>

#include <string>
#include <vector>

#include "core/tokenizer.h"
#include "core/train/checkpoint.h"
#include "core/train/report.h"
#include "program/worker_status.h"

namespace {
ap::train::Trainer g_trainer;
bool g_ready = false;
std::vector<std::string> g_words;
std::vector<double> g_report;
std::vector<uint8_t> g_weights;
std::string g_error;

int result(const ap::Status& s) { return ap::worker_answer(s, &g_error); }
}  // namespace

extern "C" {
EMSCRIPTEN_KEEPALIVE const char* tw_error() { return g_error.c_str(); }

EMSCRIPTEN_KEEPALIVE int tw_begin(const char* task, int layers, int d_model, int heads, double seed, int steps,
                                  double lr, int batch) {
  ap::train::Recipe r;
  r.task = task ? task : "";
  r.layers = layers;
  r.d_model = d_model;
  r.heads = heads;
  r.seed = seed >= 0 ? static_cast<uint64_t>(seed) : ~0ull;
  r.steps = steps;
  r.learning_rate = lr;
  r.batch = batch;
  const ap::Status s = g_trainer.init(r);
  g_ready = s.ok;
  return result(s);
}

EMSCRIPTEN_KEEPALIVE int tw_show(const char* sentence) {
  const std::vector<std::string> words = ap::split_on_spaces(sentence ? sentence : "");
  const ap::Status s = ap::train::check_task_words(g_trainer.recipe().task, words);
  if (s.ok) g_words = words;
  return result(s);
}

EMSCRIPTEN_KEEPALIVE int tw_advance(int n) { return g_ready ? g_trainer.advance(n) : 0; }
EMSCRIPTEN_KEEPALIVE int tw_step() { return g_trainer.step(); }
EMSCRIPTEN_KEEPALIVE int tw_stopped() { return !g_ready || g_trainer.finished() || g_trainer.diverged(); }

EMSCRIPTEN_KEEPALIVE const double* tw_report() {
  ap::train::SentenceAttention a;
  if (!g_ready || !g_trainer.attention_of(g_words, &a).ok) {
    a.layers = g_trainer.recipe().layers;
    a.heads = g_trainer.recipe().heads;
  }
  ap::train::encode_report(ap::train::make_report(g_trainer, a), &g_report);
  return g_report.data();
}
EMSCRIPTEN_KEEPALIVE int tw_report_length() { return static_cast<int>(g_report.size()); }

EMSCRIPTEN_KEEPALIVE int tw_evaluated_step() { return g_ready ? g_trainer.evaluated_step() : -1; }
EMSCRIPTEN_KEEPALIVE const uint8_t* tw_weights() {
  g_weights.clear();
  if (g_ready) ap::train::write_checkpoint(g_trainer, &g_weights, ap::train::CheckpointWeights::LastEvaluation);
  return g_weights.data();
}
EMSCRIPTEN_KEEPALIVE int tw_weights_length() { return static_cast<int>(g_weights.size()); }
}
