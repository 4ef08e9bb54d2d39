// One Web Worker of the cost lab's parallel measurement (web/playground.js starts them; the C++ scene decides
// what to run and computes the speed-ups). It loads its own small wasm module (src/program/kernel_worker.cpp)
// and runs this worker's share of one layer:
//   attention: its query rows, `reps` times; no message until it is done (one parallel step);
//   GRU: its hidden units, step by step; after every step it sends its slice of h_t to every other worker
//        (MessagePorts, no shared memory) and waits for theirs before the next step (n hand-offs).
// Times are absolute (performance.timeOrigin + now()) so the page can take the span from the first start to
// the last end over all workers.
'use strict';
importScripts('kernel_worker_wasm.js');

var mod = null;
var job = null;  // the prepared job
function now() { return performance.timeOrigin + performance.now(); }
function fail(e) { postMessage({ type: 'error', error: String(e && e.message || e) }); }

createKernelWorker().then(function (m) { mod = m; postMessage({ type: 'loaded' }); }, fail);

function error() { return mod.UTF8ToString(mod._kw_error()); }

// ---- GRU: the hand-off of h_t after every step ----
var inbox = new Map();  // global step (rep·n + t) -> slices received from the other workers
function onSlice(e) {
  var s = e.data;
  var list = inbox.get(s.step);
  if (!list) inbox.set(s.step, list = []);
  list.push(s);
  if (job && job.running) proceed();
}
function proceed() {
  var j = job;
  for (;;) {
    var step = j.rep * j.n + j.t;
    if (!j.computed) {
      if (!mod._kw_gru_step(j.t)) { j.running = false; postMessage({ type: 'done', ok: false, error: error() }); return; }
      var base = mod._kw_gru_next() >> 2;
      var mine = mod.HEAPF32.slice(base + j.u0, base + j.u1);
      for (var p = 0; p < j.ports.length; ++p) j.ports[p].postMessage({ step: step, u0: j.u0, data: mine });
      j.computed = true;
    }
    var got = inbox.get(step) || [];
    if (got.length < j.ports.length) return;  // a slice is still on its way: onSlice calls again
    var heap = mod.HEAPF32, at = mod._kw_gru_next() >> 2;
    for (var i = 0; i < got.length; ++i) heap.set(got[i].data, at + got[i].u0);
    inbox.delete(step);
    mod._kw_gru_advance();
    j.computed = false;
    if (++j.t === j.n) {
      j.t = 0;
      if (++j.rep === j.reps) {
        j.running = false;
        postMessage({ type: 'done', ok: true, start: j.start, end: now(), checksum: mod._kw_gru_checksum() });
        return;
      }
      mod._kw_gru_reset();
    }
  }
}

onmessage = function (e) {
  var m = e.data;
  try {
    if (m.type === 'attention') {
      job = { kind: 'attention' };
      var ok = mod._kw_attention_prepare(m.tiled ? 1 : 0, m.n, m.d, m.r0, m.r1, m.seed);
      postMessage({ type: 'prepared', ok: !!ok, error: ok ? '' : error() });
    } else if (m.type === 'gru') {
      if (job && job.ports) job.ports.forEach(function (p) { p.close(); });
      inbox = new Map();
      job = { kind: 'gru', n: m.n, u0: m.u0, u1: m.u1, ports: m.ports || [] };
      job.ports.forEach(function (p) { p.onmessage = onSlice; });
      var okg = mod._kw_gru_prepare(m.n, m.d, m.hidden, m.u0, m.u1, m.seed);
      postMessage({ type: 'prepared', ok: !!okg, error: okg ? '' : error() });
    } else if (m.type === 'go') {
      var start = now();
      if (job.kind === 'attention') {
        var sum = mod._kw_attention_run(m.reps);
        var err = error();
        postMessage({ type: 'done', ok: !err, error: err, start: start, end: now(), checksum: sum });
      } else if (job.ports.length === 0) {
        var s = 0;
        for (var r = 0; r < m.reps; ++r) s = mod._kw_gru_run_all();
        postMessage({ type: 'done', ok: true, start: start, end: now(), checksum: s });
      } else {
        mod._kw_gru_reset();
        job.t = 0; job.rep = 0; job.reps = m.reps; job.computed = false; job.start = start; job.running = true;
        proceed();
      }
    }
  } catch (ex) { fail(ex); }
};
