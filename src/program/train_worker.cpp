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
//
// A race's run (app/seq2seq_race.h: the bottleneck, Bahdanau and Luong scenes train each run in a worker of its
// own, this module too; core/train/seq2seq_run.h):
//   rw_begin(recipe, n, lengths, n_lengths, per_length)         a fresh run of the recipe's bytes
//                                                               (write_seq2seq_recipe) and its measurement by
//                                                               length (int32 lengths); 0 when refused (tw_error)
//   rw_chunk(ms)                                                units of work for about ms; 1 while work is left
//   rw_report()                                                 the packed progress (encode_run_report), length
//                                                               rw_report_length()
//   rw_checkpoint()                                             once done, the run's checkpoint (bytes;
//                                                               rw_checkpoint_length(); 0 if it diverged)
#include <emscripten.h>

#include <string>
#include <vector>

#include "core/timed_slice.h"
#include "core/tokenizer.h"
#include "core/train/checkpoint.h"
#include "core/train/report.h"
#include "core/train/seq2seq_checkpoint.h"
#include "core/train/seq2seq_run.h"
#include "program/worker_status.h"

namespace {
ap::train::Trainer g_trainer;
bool g_ready = false;
std::vector<std::string> g_words;
std::vector<double> g_report;
std::vector<uint8_t> g_weights;
std::string g_error;

ap::train::Seq2SeqRun g_run;
double g_run_seconds = 0, g_run_longest_ms = 0;  // (the longest chunk: timed_slice's, unused)
std::vector<double> g_run_report;
std::vector<uint8_t> g_run_checkpoint;

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

EMSCRIPTEN_KEEPALIVE int rw_begin(const uint8_t* recipe, int n, const int32_t* lengths, int n_lengths, int per_length) {
  ap::train::Seq2SeqRecipe r;
  ap::Status s = ap::train::read_seq2seq_recipe(recipe, n > 0 ? static_cast<size_t>(n) : 0, &r);
  if (s.ok) s = g_run.init(r, std::vector<int>(lengths, lengths + (lengths && n_lengths > 0 ? n_lengths : 0)), per_length);
  g_run_seconds = g_run_longest_ms = 0;
  return result(s);
}
EMSCRIPTEN_KEEPALIVE int rw_chunk(double ms) {
  if (!g_run.ready()) return 0;  // (refused by rw_begin: nothing to train)
  ap::timed_slice(ms, [] { return !g_run.done(); }, [] { g_run.advance(); }, &g_run_seconds, &g_run_longest_ms);
  return g_run.done() ? 0 : 1;
}
EMSCRIPTEN_KEEPALIVE const double* rw_report() {
  ap::train::encode_run_report(ap::train::make_run_report(g_run, g_run_seconds), &g_run_report);
  return g_run_report.data();
}
EMSCRIPTEN_KEEPALIVE int rw_report_length() { return static_cast<int>(g_run_report.size()); }
EMSCRIPTEN_KEEPALIVE const uint8_t* rw_checkpoint() {
  g_run_checkpoint.clear();
  if (g_run.done() && !g_run.trainer().diverged()) ap::train::write_seq2seq_checkpoint(g_run.trainer(), &g_run_checkpoint);
  return g_run_checkpoint.data();
}
EMSCRIPTEN_KEEPALIVE int rw_checkpoint_length() { return static_cast<int>(g_run_checkpoint.size()); }
}
