// The training Web Worker of "Watch attention learn" (web/playground.js starts it; src/program/web_train_host.cpp
// decides what it does). It loads its own wasm module (src/program/train_worker.cpp, the core's Trainer) and
// trains in chunks of about kChunkMs, posting the packed progress (core/train/report.h) after each, so that a
// 'pause' or a new sentence is read between two chunks. Nothing is shared with the page.
// The same worker runs one run of a race instead (app/seq2seq_race.h; src/program/web_race_host.cpp decides):
// 'race-begin' (the recipe's bytes, the lengths to measure), 'race-run', 'race-pause'; it posts 'race-report'
// (core/train/seq2seq_run.h's packed progress) after each chunk, and with the last one the run's checkpoint.
'use strict';
importScripts('train_worker_wasm.js');

var kChunkMs = 40;
var mod = null;
var until = 0;          // train up to this step
var run = 0;            // the page's number of the run being trained (its begin message's), on every report
var perStep = 2;        // measured milliseconds per step (for the chunk size)
var timer = 0;          // a chunk is scheduled
var pending = [];       // messages that arrived before the module
var weights = false;    // the run's begin asked for weights: each new evaluation's checkpoint goes with its report
var weightsStep = -1;   // the evaluation whose checkpoint was posted last
var racing = false;     // a race's run is being trained (rw_*), not "Watch attention learn"'s model (tw_*)
// The next chunk is a message to ourselves: it runs after the messages already queued (a 'pause' is read
// between two chunks), without the 4 ms that nested setTimeout calls are clamped to.
var tick = new MessageChannel();
tick.port1.onmessage = function () { if (timer) chunk(); };
function schedule() { if (!timer) { timer = 1; tick.port2.postMessage(0); } }

function fail(e) { postMessage({ type: 'error', error: String(e && e.message || e) }); }
function error() { return mod.UTF8ToString(mod._tw_error()); }
function report() {
  var at = mod._tw_report() >> 3, n = mod._tw_report_length();
  var data = mod.HEAPF64.slice(at, at + n);
  var m = { type: 'report', run: run, data: data }, moved = [data.buffer];
  if (weights && mod._tw_evaluated_step() !== weightsStep) {
    weightsStep = mod._tw_evaluated_step();
    var p = mod._tw_weights();
    m.weights = mod.HEAPU8.slice(p, p + mod._tw_weights_length());
    moved.push(m.weights.buffer);
  }
  postMessage(m, moved);
}
// Calls f with a string copied into the module's heap (freed after).
function withString(s, f) {
  var len = mod.lengthBytesUTF8(s) + 1, p = mod._malloc(len);
  mod.stringToUTF8(s, p, len);
  try { return f(p); } finally { mod._free(p); }
}
function show(sentence) { return withString(sentence, mod._tw_show); }
function raceReport(last) {
  var at = mod._rw_report() >> 3, data = mod.HEAPF64.slice(at, at + mod._rw_report_length());
  var m = { type: 'race-report', data: data }, moved = [data.buffer];
  if (last) {
    var p = mod._rw_checkpoint();
    m.checkpoint = mod.HEAPU8.slice(p, p + mod._rw_checkpoint_length());
    moved.push(m.checkpoint.buffer);
  }
  postMessage(m, moved);
}
function raceChunk() {
  var more = mod._rw_chunk(kChunkMs);
  raceReport(!more);
  if (more && until > 0) schedule();
}
function chunk() {
  timer = 0;
  if (racing) { raceChunk(); return; }
  if (mod._tw_stopped() || mod._tw_step() >= until) return;
  var n = Math.max(1, Math.min(until - mod._tw_step(), Math.floor(kChunkMs / perStep)));
  var t0 = performance.now();
  var done = mod._tw_advance(n);
  if (done > 0) perStep = Math.max(0.05, (performance.now() - t0) / done);
  report();
  if (!mod._tw_stopped() && mod._tw_step() < until) schedule();
}
function handle(m) {
  if (m.type === 'race-begin') {
    timer = 0;
    until = 0;
    racing = false;
    var recipe = new Uint8Array(m.recipe), lengths = new Int32Array(m.lengths || []);
    var rp = mod._malloc(recipe.length + 1), lp = mod._malloc(lengths.length * 4 + 4);
    mod.HEAPU8.set(recipe, rp);
    mod.HEAP32.set(lengths, lp >> 2);
    var ok = mod._rw_begin(rp, recipe.length, lp, lengths.length, m.per_length | 0);
    mod._free(rp);
    mod._free(lp);
    if (!ok) { fail(error()); return; }
    racing = true;
    raceReport(false);
  } else if (m.type === 'race-run') {
    if (!racing) return;
    until = 1;
    schedule();
  } else if (m.type === 'race-pause') {
    until = 0;
    timer = 0;
  } else if (m.type === 'begin') {
    racing = false;
    timer = 0;
    until = 0;
    run = m.run | 0;
    weights = !!m.weights;
    weightsStep = -1;
    var r = m.recipe;
    var begun = withString(String(r.task || 'coref'), function (task) {
      return mod._tw_begin(task, r.layers, r.d_model, r.heads, r.seed, r.steps, r.learning_rate, r.batch);
    });
    if (!begun) { fail(error()); return; }
    if (!show(m.sentence)) { fail(error()); return; }
    report();
  } else if (m.type === 'run') {
    until = m.until;
    schedule();
  } else if (m.type === 'pause') {
    until = 0;
    timer = 0;
    report();
  } else if (m.type === 'show') {
    if (!show(m.sentence)) { fail(error()); return; }
    report();
  } else {
    fail('the training worker got a message it does not know: ' + m.type);
  }
}

onmessage = function (e) {
  try {
    if (!mod) pending.push(e.data);
    else handle(e.data);
  } catch (ex) { fail(ex); }
};

createTrainWorker().then(function (m) {
  mod = m;
  postMessage({ type: 'loaded' });
  try { pending.forEach(handle); } catch (ex) { fail(ex); }
  pending = [];
}, fail);
