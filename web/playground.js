// The little JavaScript the browser forces: WebGL2 check, loading indicator, the page API object
// (window.playground), postMessage for cross-origin iframes, the ARIA live region. All logic is in C++.
(function () {
  'use strict';
  var canvas = document.getElementById('canvas');
  // A right-click (or a long press) belongs to the app, not the browser's menu. Here rather than an
  // oncontextmenu attribute: the Content-Security-Policy allows no inline script.
  canvas.addEventListener('contextmenu', function (e) { e.preventDefault(); });
  var loading = document.getElementById('loading');
  var resolveReady, rejectReady;
  var ready = new Promise(function (res, rej) { resolveReady = res; rejectReady = rej; });

  function showFallback(html) {
    var fb = document.getElementById('fallback');
    fb.innerHTML = html;
    fb.hidden = false;
    loading.classList.add('done');
  }

  // Without WebGL2 the app cannot draw: say so in words instead of leaving a blank page.
  var probe = document.createElement('canvas');
  var hasWebGL2 = false;
  try {
    var probeGl = window.WebGL2RenderingContext && probe.getContext('webgl2');
    hasWebGL2 = !!probeGl;
    // Give the probe's context back at once: a second live context costs the GPU process while we start.
    var lose = probeGl && probeGl.getExtension('WEBGL_lose_context');
    if (lose) lose.loseContext();
  } catch (e) { /* no */ }
  if (!hasWebGL2) {
    showFallback('<h1>Attention Playground needs WebGL2</h1><p>This browser (or its settings) does not offer ' +
      'WebGL2, which the playground uses to draw. Try a current Chrome, Edge, Firefox or Safari, or turn on ' +
      'hardware acceleration.</p><p>本演示需要 WebGL2。请使用新版 Chrome、Edge、Firefox 或 Safari，或开启硬件加速。</p>');
    rejectReady(new Error('WebGL2 is not available'));
    window.Module = { noInitialRun: true, preRun: [function () { throw new Error('no WebGL2'); }] };
  }

  var NOT_READY = 'the playground is not ready yet: await window.playground.ready first';
  // A call refused here, before it reaches the app, is shown on screen like the app's own refusals (the
  // README promises every refusal is shown); the app words and translates it (app/api.h page_refusal) and
  // this answers with its English text. Only once ready: before that there is no screen to show it on.
  function refuse(call, kind, detail) {
    var d;
    try { d = String(detail); } catch (e) { d = typeof detail; }  // a Symbol, an object whose toString throws
    if (d.length > 200) d = d.slice(0, 200);  // ccall copies strings onto the small wasm stack
    var text = Module.ccall('ap_page_refusal', 'string', ['string', 'string', 'string'], [call, kind, d]);
    wake();
    return text;
  }
  function call(name, type, args) {
    wake();
    var out = Module.ccall(name, 'string', [type], [args]);
    return JSON.parse(out);
  }
  // A document can be megabytes long: it goes through the heap (ccall's string argument would copy it
  // onto the small wasm stack and trap).
  // A document over the limit is refused by its size alone (the C++ side says so on screen) before it is
  // copied: the wasm heap grows to hold a copy and never shrinks. Every UTF-16 unit is at least one byte.
  function callWithText(name, text) {
    wake();
    var limit = Module._ap_max_document_bytes();
    var size = text.length > limit ? text.length : Module.lengthBytesUTF8(text);
    if (size > limit) return JSON.parse(Module.ccall(name, 'string', ['number', 'number'], [0, size]));
    var ptr = Module._malloc(size + 1);
    if (!ptr) return { ok: false, error: 'not enough memory for a document of ' + size + ' bytes' };
    try {
      Module.stringToUTF8(text, ptr, size + 1);
      return JSON.parse(Module.ccall(name, 'string', ['number', 'number'], [ptr, size]));
    } finally {
      Module._free(ptr);
    }
  }

  function fromBase64(b64) {
    var bin = atob(b64);
    var out = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  }

  function legacyCopy(text) {
    var ta = document.createElement('textarea');
    ta.value = text;
    ta.setAttribute('readonly', '');
    ta.style.position = 'fixed';
    ta.style.left = '-9999px';
    document.body.appendChild(ta);
    ta.select();
    var ok = false;
    try { ok = document.execCommand('copy'); } catch (e) { ok = false; }
    document.body.removeChild(ta);
    canvas.focus({ preventScroll: true });
    return ok;
  }

  // ---- text fields: a real HTML input over the canvas field being edited ----
  // Input methods (pinyin composition), paste, phones' on-screen keyboards and screen readers need a real
  // element; the canvas has none. The C++ side tells where each field is (textField); a click or tap on one
  // opens the overlay inside the pointer event (a phone raises its keyboard only then), Tab opens it from C++.
  var fields = {}, input = null;
  function sendText() {
    if (!input || input.composing) return;
    var text = input.el.value;
    var size = Module.lengthBytesUTF8(text);
    var ptr = Module._malloc(size + 1);
    if (!ptr) return;
    Module.stringToUTF8(text, ptr, size + 1);
    Module._ap_text_input(input.fieldId, ptr);
    Module._free(ptr);
    if (fields[input.fieldId]) fields[input.fieldId].text = text;
    wake();
  }
  function placeInput() {
    var f = fields[input.fieldId];
    if (!f) return;
    var st = input.el.style;
    st.left = f.x + 'px'; st.top = f.y + 'px'; st.width = f.w + 'px'; st.height = f.h + 'px';
    st.fontSize = f.font + 'px';
  }
  // how: 0 left (blur, a click elsewhere), 2 Enter, 3 Escape; the C++ side may act on Enter and Escape
  // (the cell editor sets its value or cancels).
  function closeInput(refocus, how) {
    if (!input) return;
    var old = input;
    input = null;
    old.el.remove();
    Module._ap_text_overlay(old.fieldId, how || 0);
    if (refocus) canvas.focus({ preventScroll: true });
    wake();
  }
  function openInput(id) {
    var f = fields[id];
    if (!f) return;
    if (input && input.fieldId === id) { input.el.focus(); return; }
    if (input) closeInput(false);
    var el = document.createElement(f.multiline ? 'textarea' : 'input');
    el.className = 'ap-input';
    el.value = f.text;
    el.setAttribute('aria-label', f.name || '');
    el.spellcheck = false;
    input = { el: el, fieldId: id, composing: false };
    placeInput();
    document.body.appendChild(el);
    el.addEventListener('compositionstart', function () { if (input) input.composing = true; });
    el.addEventListener('compositionend', function () { if (input) { input.composing = false; sendText(); } });
    el.addEventListener('input', function (e) { if (!e.isComposing) sendText(); });
    el.addEventListener('keydown', function (e) {
      if (e.key === 'Escape') { e.preventDefault(); closeInput(true, 3); }
      else if (e.key === 'Enter' && !f.multiline && !e.isComposing) { e.preventDefault(); closeInput(true, 2); }
    });
    el.addEventListener('blur', function () { if (input && input.el === el) closeInput(false); });
    el.focus({ preventScroll: true });
    var end = el.value.length;
    try { el.setSelectionRange(f.selectAll ? 0 : end, end); } catch (e) { /* some inputs refuse */ }
    Module._ap_text_overlay(id, 1);
  }
  function fieldAt(x, y) {
    for (var id in fields) {
      var f = fields[id];
      if (x >= f.x && x < f.x + f.w && y >= f.y && y < f.y + f.h) return Number(id);
    }
    return null;
  }
  canvas.addEventListener('pointerdown', function (e) {
    var r = canvas.getBoundingClientRect();
    var id = fieldAt(e.clientX - r.left, e.clientY - r.top);
    // A click elsewhere on the canvas ends the editing: the app's mouse handling prevents the default, so
    // the input would otherwise keep the focus (and the keys) without a blur.
    if (id === null) {
      if (input) closeInput(true);
      else if (document.activeElement !== canvas) canvas.focus({ preventScroll: true });  // the keys follow the click
      return;
    }
    e.preventDefault();  // the canvas would take the focus back
    openInput(id);
  }, true);

  // ---- files in and out (issue 8): a file chooser, files dropped anywhere on the page, downloads ----
  // A picked or dropped file goes to the wasm heap and _ap_file_arrived (src/platform/platform.cpp) takes it;
  // the C++ side reads it (app/array_io.h) and opens the import scene, or says what is wrong. Files over
  // 64 MiB are refused here, before they are read.
  var MAX_FILE_BYTES = 64 * 1024 * 1024;
  function sendFile(name, bytes, error) {
    var n = Module.lengthBytesUTF8(name) + 1;
    var namePtr = Module._malloc(n);
    Module.stringToUTF8(name, namePtr, n);
    var errPtr = 0;
    var dataPtr = 0;
    if (error) {
      var en = Module.lengthBytesUTF8(error) + 1;
      errPtr = Module._malloc(en);
      Module.stringToUTF8(error, errPtr, en);
    } else if (bytes.length > 0) {
      dataPtr = Module._malloc(bytes.length);
      if (!dataPtr) { Module._free(namePtr); sendFile(name, null, 'not enough memory for ' + bytes.length + ' bytes'); return; }
      Module.HEAPU8.set(bytes, dataPtr);
    }
    Module._ap_file_arrived(namePtr, dataPtr, error ? 0 : bytes.length, errPtr);
    Module._free(namePtr);
    if (errPtr) Module._free(errPtr);
    wake();
  }
  function readFile(file) {
    if (file.size > MAX_FILE_BYTES) return Promise.resolve([file.name, null, 'the file has ' + file.size + ' bytes; the limit is ' + MAX_FILE_BYTES]);
    return file.arrayBuffer().then(function (buf) { return [file.name, new Uint8Array(buf), null]; },
      function (e) { return [file.name, null, 'the file could not be read: ' + String((e && e.message) || e)]; });
  }
  // Several files at once (weights saved with numpy.save and their tokens in a JSON beside them): all are read,
  // then handed over in order, the .npy files first, so the tokens find their weights.
  function readFiles(list) {
    if (!firstFrame || !list || !list.length) return;
    var files = Array.prototype.slice.call(list);
    files.sort(function (a, b) { return (/\.npy$/i.test(b.name) ? 1 : 0) - (/\.npy$/i.test(a.name) ? 1 : 0); });
    Promise.all(files.map(readFile)).then(function (read) { read.forEach(function (r) { sendFile(r[0], r[1], r[2]); }); });
  }
  var fileInput = document.createElement('input');
  fileInput.type = 'file';
  fileInput.id = 'ap-file';
  fileInput.hidden = true;
  fileInput.multiple = true;
  fileInput.setAttribute('aria-label', 'Open attention weights (.npy or .json)');
  fileInput.addEventListener('change', function () {
    readFiles(fileInput.files);
    fileInput.value = '';
  });
  document.body.appendChild(fileInput);
  window.addEventListener('dragover', function (e) { e.preventDefault(); if (e.dataTransfer) e.dataTransfer.dropEffect = 'copy'; });
  window.addEventListener('drop', function (e) {
    e.preventDefault();
    var files = e.dataTransfer && e.dataTransfer.files;
    readFiles(files);
  });
  function downloadBytes(name, ptr, size, mime) {
    try {
      var blob = new Blob([Module.HEAPU8.slice(ptr, ptr + size)], { type: mime || 'application/octet-stream' });
      var a = document.createElement('a');
      a.href = URL.createObjectURL(blob);
      a.download = name;
      document.body.appendChild(a);
      a.click();
      a.remove();
      setTimeout(function () { URL.revokeObjectURL(a.href); }, 10000);
      return true;
    } catch (e) { return false; }
  }

  // Functions the C++ side calls (src/platform/platform.cpp).
  var firstFrame = false;
  var hostsParam = new URLSearchParams(location.search).get('hosts');
  window.apBridge = {
    frameDrawn: function () {
      if (firstFrame) return;
      firstFrame = true;
      loading.classList.add('done');
      if (window.performance && performance.mark) performance.mark('ap-first-frame');
      resolveReady(window.playground);
      // Take the keyboard only as a page of our own: inside a course page (an iframe) the focus and the
      // scroll keys stay with the host until the learner clicks or tabs into the playground.
      if (window.parent === window) canvas.focus();
      watchVisibility();
    },
    paused: function () { loopPaused = true; },
    wake: function () { wake(); },  // something arrived outside the event loop (a file fetched on demand)
    // Full screen needs a user gesture: the request waits for the next key or pointer release.
    toggleFullscreen: function () {
      var run = function () {
        window.removeEventListener('keyup', run, true);
        window.removeEventListener('pointerup', run, true);
        try {
          if (document.fullscreenElement) document.exitFullscreen();
          else if (document.documentElement.requestFullscreen) document.documentElement.requestFullscreen().catch(function () {});
        } catch (e) { /* not allowed here (an iframe without allow="fullscreen") */ }
      };
      window.addEventListener('keyup', run, true);
      window.addEventListener('pointerup', run, true);
    },
    // Files (issue 8): the file chooser and downloads (the files block above).
    pickFile: function (accept) { fileInput.accept = accept; fileInput.click(); return true; },
    download: function (name, ptr, size, mime) { return downloadBytes(name, ptr, size, mime); },
    // Text fields (src/platform/text_field.cpp): where each is and what it holds; the overlay edits them.
    textField: function (id, x, y, w, h, font, multiline, text, name, selectAll) {
      fields[id] = { x: x, y: y, w: w, h: h, font: font, multiline: multiline, text: text, name: name, selectAll: selectAll };
      if (input && input.fieldId === id) placeInput();
    },
    dropField: function (id) { delete fields[id]; if (input && input.fieldId === id) closeInput(false); },
    openInput: function (id) { openInput(id); },
    // The view as a link, kept in the address bar as the learner works (no history entry, no reload).
    // hosts= stays: the app does not keep it (it is the page's), and a reload must not drop the allow-list.
    replaceUrl: function (query) {
      if (hostsParam !== null) query += (query ? '&' : '') + 'hosts=' + encodeURIComponent(hostsParam);
      try { history.replaceState(history.state, '', location.pathname + (query ? '?' + query : '') + location.hash); }
      catch (e) { /* file:// pages may refuse; the link is still in the Share dialog */ }
    },
    pageUrl: function () { return location.href.split('#')[0].split('?')[0]; },
    // Step and scene changes, for a host page whose text follows the playground (scrollytelling).
    postEvent: function (json) {
      var body;
      try { body = Object.assign({ playground: 'event' }, JSON.parse(json)); } catch (e) { return; }
      postToParent(body);
    },
    // The system clipboard; the Clipboard API needs a secure context, the old way works in more places.
    copyText: function (text) {
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(text).catch(function () { legacyCopy(text); });
        return true;
      }
      return legacyCopy(text);
    },
    // A file beside the page, loaded on demand (the larger Chinese font): its bytes go to the wasm heap and
    // _ap_asset_arrived (src/platform/platform.cpp) takes them, or an error text.
    fetchAsset: function (slot, name) {
      function fail(e) {
        var s = String((e && e.message) || e || 'failed');
        var n = Module.lengthBytesUTF8(s) + 1, p = Module._malloc(n);
        Module.stringToUTF8(s, p, n);
        Module._ap_asset_arrived(slot, 0, 0, p);
        Module._free(p);
        wake();
      }
      // The files ship gzip-compressed beside the plain ones (build.sh): the browser unpacks them natively.
      // A server that already sent the .gz with Content-Encoding: gzip hands over the plain bytes.
      var gz = typeof DecompressionStream === 'function', file = gz ? name + '.gz' : name;
      var unpack = function (buf) {
        var b = new Uint8Array(buf);
        if (!gz || b[0] !== 0x1f || b[1] !== 0x8b) return buf;
        return new Response(new Blob([b]).stream().pipeThrough(new DecompressionStream('gzip'))).arrayBuffer();
      };
      var embedded = window.AP_EMBEDDED && window.AP_EMBEDDED.assets && window.AP_EMBEDDED.assets[file];
      (embedded ? Promise.resolve(fromBase64(embedded).buffer) : fetch(file).then(function (r) {
        if (!r.ok) throw new Error(file + ': HTTP ' + r.status);
        return r.arrayBuffer();
      })).then(unpack).then(function (buf) {
        var p = Module._malloc(buf.byteLength);
        if (!p) { fail(name + ': not enough memory for ' + buf.byteLength + ' bytes'); return; }
        Module.HEAPU8.set(new Uint8Array(buf), p);
        Module._ap_asset_arrived(slot, p, buf.byteLength, 0);
        wake();
      }).catch(fail);
    },
    announce: function (text) { document.getElementById('live').textContent = text; },
    setLang: function (code) { document.documentElement.lang = code === 'zh' ? 'zh-CN' : 'en'; }
  };

  // The frame loop runs only while it has something to do. The app pauses it after half a second without
  // change (apBridge.paused); input, a page-API call or a resize wakes it. An embed scrolled out of view
  // stays paused (hidden tabs get no frames anyway).
  var loopPaused = false, inView = true;
  function wake() {
    if (loopPaused && inView && typeof Module.resumeMainLoop === 'function') { loopPaused = false; Module.resumeMainLoop(); }
  }
  ['keydown', 'keyup', 'pointerdown', 'pointermove', 'pointerup', 'wheel', 'touchstart', 'touchmove', 'touchend',
    'mousedown', 'mouseup', 'mousemove', 'focusin', 'focusout', 'resize', 'compositionupdate', 'paste'].forEach(function (t) {
    window.addEventListener(t, wake, true);
  });
  function watchVisibility() {
    if (!('IntersectionObserver' in window) || typeof Module.pauseMainLoop !== 'function') return;
    new IntersectionObserver(function (entries) {
      inView = entries[entries.length - 1].isIntersecting;
      if (inView) wake();
      else if (!loopPaused) { loopPaused = true; Module.pauseMainLoop(); }
    }).observe(canvas);
  }

  // The cost lab's parallel workers (src/program/web_worker_pool.cpp drives this; the C++ scene decides the
  // jobs and computes the speed-ups). Each Web Worker (kernel_worker.js) loads its own small wasm module; nothing is
  // shared. One job at a time: prepare every worker's share (untimed), then 'go' to all, and the span from the
  // first worker's start to the last one's end, divided by reps, is one call's wall time.
  window.apWorkers = (function () {
    var pool = [], current = 0;
    function maxWorkers() {
      if (typeof Worker === 'undefined') return 0;
      if (window.AP_EMBEDDED) return 0;  // the offline single file has no worker files beside it
      return Math.max(1, Math.min(8, navigator.hardwareConcurrency || 1));
    }
    function spawn() {
      return new Promise(function (resolve, reject) {
        var w;
        try { w = new Worker('kernel_worker.js'); } catch (e) { reject(e); return; }
        w.onmessage = function (e) {
          if (e.data.type === 'loaded') resolve(w);
          else reject(new Error(e.data.error || 'the worker did not start'));
        };
        w.onerror = function (e) { e.preventDefault(); reject(new Error(e.message || 'the worker did not load')); };
      });
    }
    function ensure(count) {
      var more = [];
      for (var i = pool.length; i < count; ++i) more.push(spawn());
      return Promise.all(more).then(function (ws) { pool = pool.concat(ws); return pool.slice(0, count); });
    }
    // Posts one message and resolves with the worker's next reply.
    function ask(w, msg, transfer) {
      return new Promise(function (resolve, reject) {
        w.onmessage = function (e) {
          if (e.data.type === 'error') reject(new Error(e.data.error));
          else if (e.data.ok === false) reject(new Error(e.data.error || 'failed'));
          else resolve(e.data);
        };
        w.onerror = function (e) { e.preventDefault(); reject(new Error(e.message || 'the worker stopped')); };
        w.postMessage(msg, transfer || []);
      });
    }
    function split(count, parts) {
      var out = [], at = 0, base = Math.floor(count / parts), extra = count % parts;
      for (var p = 0; p < parts; ++p) { var len = base + (p < extra ? 1 : 0); out.push([at, at + len]); at += len; }
      return out;
    }
    function run(kind, n, d, W, reps, seed) {
      return ensure(W).then(function (ws) {
        var ranges = split(kind === 'gru' ? d : n, W);
        var ports = ws.map(function () { return []; });
        if (kind === 'gru') {  // every pair of workers gets a channel for the slices of h_t
          for (var i = 0; i < W; ++i) for (var j = i + 1; j < W; ++j) {
            var ch = new MessageChannel();
            ports[i].push(ch.port1);
            ports[j].push(ch.port2);
          }
        }
        return Promise.all(ws.map(function (w, i) {
          var r = ranges[i];
          return kind === 'gru'
            ? ask(w, { type: 'gru', n: n, d: d, hidden: d, u0: r[0], u1: r[1], seed: seed, ports: ports[i] }, ports[i])
            : ask(w, { type: 'attention', tiled: false, n: n, d: d, r0: r[0], r1: r[1], seed: seed });
        })).then(function () {
          return Promise.all(ws.map(function (w) { return ask(w, { type: 'go', reps: reps }); }));
        }).then(function (done) {
          var start = Infinity, end = -Infinity, sum = 0;
          done.forEach(function (r) { start = Math.min(start, r.start); end = Math.max(end, r.end); sum += r.checksum; });
          if (kind === 'gru') sum = done[0].checksum;  // every worker holds the whole h
          return { ms: (end - start) / reps, checksum: sum };
        });
      });
    }
    return {
      maxWorkers: maxWorkers,
      submit: function (id, kind, n, d, W, reps, seed) {
        current = id;
        run(kind, n, d, W, reps, seed).then(function (r) {
          if (current !== id) return;
          wake();
          Module.ccall('ap_worker_done', null, ['number', 'number', 'number', 'number', 'string'], [id, 1, r.ms, r.checksum, '']);
        }, function (e) {
          if (current !== id) return;
          pool.forEach(function (w) { w.terminate(); });  // a failed job may leave workers waiting for a slice
          pool = [];
          wake();
          Module.ccall('ap_worker_done', null, ['number', 'number', 'number', 'number', 'string'],
            [id, 0, 0, 0, String(e && e.message || e)]);
        });
      },
      // Stops a job: the workers are terminated (a GRU waiting for a slice would otherwise wait forever).
      cancel: function () {
        current = 0;
        pool.forEach(function (w) { w.terminate(); });
        pool = [];
      }
    };
  })();

  // Calls f with a copy of the typed array `a` in the page module's heap (its address; freed after; 0 when empty).
  function withCopy(a, f) {
    var n = a ? a.byteLength : 0, p = n ? Module._malloc(n) : 0;
    if (n) Module.HEAPU8.set(new Uint8Array(a.buffer, a.byteOffset, n), p);
    try { return f(p); } finally { if (p) Module._free(p); }
  }

  // The training worker of "Watch attention learn" (src/program/web_train_host.cpp drives this). One Web
  // Worker with its own wasm module (train_worker.js: the core's Trainer), started when the scene first asks; it trains
  // in chunks and posts packed reports, which go to the page's module as they arrive. A hidden tab pauses the
  // training (document.visibilitychange) and a visible one resumes it.
  window.apTrain = (function () {
    var worker = null, until = 0, hiddenPaused = false;
    function toPage(data, run, weights) {
      if (weights) {  // before the report they belong to (the page attaches them to the next one)
        withCopy(weights, function (w) {
          Module.ccall('ap_train_weights', null, ['number', 'number', 'number'], [w, weights.length, run | 0]);
        });
      }
      withCopy(data, function (p) {
        Module.ccall('ap_train_report', null, ['number', 'number', 'number'], [p, data.length, run | 0]);
      });
      wake();
    }
    function failed(msg) {
      if (worker) { worker.terminate(); worker = null; }
      until = 0;
      Module.ccall('ap_train_failed', null, ['string'], [String(msg).slice(0, 500)]);
      wake();
    }
    function ensure() {
      if (worker) return worker;
      if (typeof Worker === 'undefined' || window.AP_EMBEDDED) { failed('Web Workers are not available on this page'); return null; }
      try { worker = new Worker(window.AP_TRAIN_WORKER || 'train_worker.js'); } catch (e) { failed(e && e.message || e); return null; }
      worker.onmessage = function (e) {
        var m = e.data;
        if (m.type === 'report') toPage(m.data, m.run, m.weights);
        else if (m.type === 'error') failed(m.error);
      };
      worker.onerror = function (e) { e.preventDefault(); failed(e.message || 'the training worker did not load'); };
      return worker;
    }
    function post(m) { var w = ensure(); if (w) w.postMessage(m); }
    document.addEventListener('visibilitychange', function () {
      if (!worker) return;
      if (document.hidden && until > 0) { hiddenPaused = true; worker.postMessage({ type: 'pause' }); }
      else if (!document.hidden && hiddenPaused) { hiddenPaused = false; worker.postMessage({ type: 'run', until: until }); }
    });
    return {
      // run: the page's count of begin calls; every report says which run it is of (a report of the run before,
      // still on its way, is dropped by the page).
      begin: function (recipe, sentence, run, weights) {
        until = 0; hiddenPaused = false;
        post({ type: 'begin', recipe: recipe, sentence: sentence, run: run, weights: !!weights });
      },
      run: function (to) {
        until = to;
        if (document.hidden) { hiddenPaused = true; return; }
        post({ type: 'run', until: to });
      },
      pause: function () { until = 0; hiddenPaused = false; post({ type: 'pause' }); },
      show: function (sentence) { post({ type: 'show', sentence: sentence }); },
      hiddenPaused: function () { return hiddenPaused; }
    };
  })();

  // The races' workers (src/program/web_race_host.cpp drives this): each run of a race (bottleneck, Bahdanau,
  // Luong) in a Web Worker of its own, the training worker's module, so that the runs train in parallel and off
  // the main thread. Each posts its packed progress after every chunk, and its checkpoint with the last; both go
  // to the page's module as they arrive. A hidden tab pauses the runs and a visible one resumes them.
  window.apRace = (function () {
    var runs = {};  // handle → {worker, running, answered}
    var kFirstReportMs = 30000;  // a worker silent this long after its begin has failed (a stale cached script)
    // No wake(): while its scene trains the loop turns anyway (the scene wants time), and a report of a race
    // whose scene is not shown waits for it.
    function toPage(handle, data, checkpoint) {
      runs[handle].answered = true;
      withCopy(checkpoint, function (c) {
        withCopy(data, function (p) {
          Module.ccall('ap_race_report', null, ['number', 'number', 'number', 'number', 'number'],
            [handle, p, data.length, c, checkpoint ? checkpoint.length : 0]);
        });
      });
    }
    function end(handle) {
      var r = runs[handle];
      if (r) { r.worker.terminate(); clearTimeout(r.timer); delete runs[handle]; }
    }
    function failed(handle, msg) {
      if (!runs[handle]) return;
      end(handle);
      Module.ccall('ap_race_failed', null, ['number', 'string'], [handle, String(msg).slice(0, 500)]);
      wake();
    }
    document.addEventListener('visibilitychange', function () {
      Object.keys(runs).forEach(function (h) {
        if (runs[h].running) runs[h].worker.postMessage({ type: document.hidden ? 'race-pause' : 'race-run' });
      });
    });
    return {
      available: function () { return typeof Worker !== 'undefined' && !window.AP_EMBEDDED; },
      // A worker for the run `handle`: the recipe's bytes, the lengths to measure. 0 when no worker could start.
      begin: function (handle, recipe, lengths, perLength) {
        var w;
        try { w = new Worker(window.AP_TRAIN_WORKER || 'train_worker.js'); } catch (e) { return 0; }
        runs[handle] = { worker: w, running: false, answered: false,
          timer: setTimeout(function () { if (runs[handle] && !runs[handle].answered) failed(handle, 'the training worker did not answer'); }, kFirstReportMs) };
        w.onmessage = function (e) {
          var m = e.data;
          if (!runs[handle]) return;
          if (m.type === 'race-report') toPage(handle, m.data, m.checkpoint);
          else if (m.type === 'error') failed(handle, m.error);
        };
        w.onerror = function (e) { e.preventDefault(); failed(handle, e.message || 'the training worker did not load'); };
        w.postMessage({ type: 'race-begin', recipe: recipe, lengths: lengths, per_length: perLength }, [recipe.buffer]);
        return 1;
      },
      run: function (handle) {
        var r = runs[handle];
        if (!r) return;
        r.running = true;
        if (!document.hidden) r.worker.postMessage({ type: 'race-run' });
      },
      pause: function (handle) {
        var r = runs[handle];
        if (!r) return;
        r.running = false;
        r.worker.postMessage({ type: 'race-pause' });
      },
      end: end
    };
  })();

  // The page API (README "Page API").
  window.playground = {
    ready: ready,
    getState: function (opts) {
      if (!firstFrame) throw new Error(NOT_READY);
      var m = opts ? opts.matrices : true;  // false: none; 'compact': {f32: 'v1.…'} (README "Page API")
      return call('ap_get_state', 'number', m === false ? 0 : m === 'compact' ? 2 : 1);
    },
    setState: function (partial) {
      if (!firstFrame) return { ok: false, error: NOT_READY };
      var text;
      // Cycles and BigInt make JSON.stringify throw; functions, symbols and undefined give no text at all.
      try { text = JSON.stringify(partial); } catch (e) { return { ok: false, error: refuse('setState', 'not-serialisable', e && e.message || e) }; }
      if (text === undefined) {
        return { ok: false, error: refuse('setState', 'not-object', typeof partial === 'function' ? 'a function' : typeof partial === 'symbol' ? 'a symbol' : 'undefined') };
      }
      try { return callWithText('ap_set_state', text); } catch (e) { return { ok: false, error: String(e && e.message || e) }; }
    },
    // The address of the current view: this page with the query string that restores it.
    link: function () {
      if (!firstFrame) throw new Error(NOT_READY);
      var q = Module.ccall('ap_link_query', 'string', [], []);
      return location.href.split('?')[0].split('#')[0] + '?' + q;
    },
    step: function (k) {
      if (!firstFrame) return { ok: false, error: NOT_READY };
      var n = Number(k === undefined ? 1 : k);
      if (!Number.isInteger(n) || Math.abs(n) > 1000) return { ok: false, error: refuse('step', 'not-integer', typeof k === 'string' ? JSON.stringify(k) : k) };
      return call('ap_step', 'number', n);
    }
  };

  // Cross-origin embedding: the parent page posts {playground: 'getState'|'setState'|'link'|'step', args: [...],
  // id} and gets {playground: 'reply', id, result} (or {..., error}). A 'ready' message is posted when ready.
  // Only these four may be called: a name is looked up in this list, never through window.playground's
  // prototype chain (where 'constructor', 'toString' or '__proto__' would answer).
  var METHODS = { getState: true, setState: true, link: true, step: true };
  // The host pages allowed to drive the embed (README "Embedding": hosts=, or data-hosts on <html> in a copy
  // of the site, which a link cannot change). null: any page, as before (course pages rely on it). With a
  // list, messages from other origins are ignored, and events go to the host's origin only, once known: the
  // single allowed one, the referrer's when it is in the list, or the first accepted message's.
  var hosts = allowedHosts(), hostOrigin = null, readyHeld = false, warned = {};
  function parseOrigins(text) {
    var out = [];
    text.split(',').forEach(function (o) {
      o = o.trim();
      // Nothing after host[:port], as the app's own check says on screen (app/url.cpp check_hosts).
      if (!/^https?:\/\/[^\/?#@\s\\]+$/i.test(o)) return;
      try { out.push(new URL(o).origin); } catch (e) { /* not an origin: the app reports it */ }
    });
    return out;
  }
  function allowedHosts() {
    var fromUrl = new URLSearchParams(location.search).get('hosts');
    var fromPage = document.documentElement.getAttribute('data-hosts');
    if (fromUrl === null && fromPage === null) return null;
    if (fromPage === null) return parseOrigins(fromUrl);
    var list = parseOrigins(fromPage);
    if (fromUrl === null) return list;
    var narrower = parseOrigins(fromUrl);  // a link may narrow the page's own list, never widen it
    return list.filter(function (o) { return narrower.indexOf(o) >= 0; });
  }
  if (hosts) {
    var referrer = null;
    try { referrer = document.referrer ? new URL(document.referrer).origin : null; } catch (e) { referrer = null; }
    if (hosts.length === 1) hostOrigin = hosts[0];
    else if (referrer && hosts.indexOf(referrer) >= 0) hostOrigin = referrer;
  }
  // Where events go: anywhere without a list (today's behaviour), the host's origin with one, or nowhere yet.
  function eventTarget() { return hosts ? hostOrigin : '*'; }
  function postToParent(body) {
    var target = eventTarget();
    if (window.parent === window || !target) return false;
    try { window.parent.postMessage(body, target); } catch (e) { /* none */ }
    return true;
  }
  window.addEventListener('message', function (ev) {
    var msg = ev.data;
    if (!msg || typeof msg !== 'object' || typeof msg.playground !== 'string' || msg.playground === 'reply') return;
    if (hosts && hosts.indexOf(ev.origin) < 0) {
      if (!warned[ev.origin]) {
        warned[ev.origin] = true;
        console.warn('Attention Playground: ignored messages from ' + ev.origin + ' (not in hosts=' + hosts.join(',') + ')');
      }
      return;
    }
    if (hosts && !hostOrigin) {
      hostOrigin = ev.origin;
      if (readyHeld) { readyHeld = false; postToParent({ playground: 'ready' }); }
    }
    var reply = function (body) {
      body.playground = 'reply';
      body.id = msg.id;
      if (ev.source) ev.source.postMessage(body, ev.origin === 'null' ? '*' : ev.origin);
    };
    ready.then(function () {
      var name = msg.playground;
      if (!Object.prototype.hasOwnProperty.call(METHODS, name)) { reply({ error: refuse('postMessage', 'unknown-method', name) }); return; }
      try { reply({ result: window.playground[name].apply(null, Array.isArray(msg.args) ? msg.args : []) }); }
      catch (e) { reply({ error: String(e && e.message || e) }); }
    });
  });
  ready.then(function () {
    if (window.parent !== window && !postToParent({ playground: 'ready' })) readyHeld = true;
  }, function () {});

  if (hasWebGL2) {
    window.Module = {
      canvas: canvas,
      print: function (t) { console.log(t); },
      printErr: function (t) { console.warn(t); },
      onAbort: function (what) {
        showFallback('<h1>The playground stopped</h1><p>' + String(what).replace(/</g, '&lt;') +
          '</p><p>Reload the page to start again. 请刷新页面重试。</p>');
        rejectReady(new Error('aborted: ' + what));
      }
    };
    // Startup breakdown (./build.sh bench): the wasm compiled and instantiated.
    window.Module.onRuntimeInitialized = function () { if (window.performance && performance.mark) performance.mark('ap-runtime-ready'); };
    // The offline single file (tools/make_single_file.py) carries the wasm inside the page.
    if (window.AP_EMBEDDED) window.Module.wasmBinary = fromBase64(window.AP_EMBEDDED.wasm);
    loadAppWhenSeen();
  }

  // The app itself (attention_playground.js and its wasm). A page of its own loads it at once; an embed in a
  // course page waits until it scrolls into view, so that six embeds further down cost the page nothing:
  // no download, no compile, no frame.
  function loadApp() {
    var s = document.createElement('script');
    var inline = document.getElementById('ap-app-code');  // the offline single file carries the code inline
    if (inline) s.textContent = inline.textContent;
    else { s.src = 'attention_playground.js'; s.async = true; }
    document.body.appendChild(s);
  }
  function loadAppWhenSeen() {
    if (window.parent === window || !('IntersectionObserver' in window)) { loadApp(); return; }
    var io = new IntersectionObserver(function (entries) {
      if (!entries[entries.length - 1].isIntersecting) return;
      io.disconnect();
      loadApp();
    });
    io.observe(canvas);
  }
})();
