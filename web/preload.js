// A page of its own starts downloading the app and its wasm at once, beside playground.js, instead of one
// after the other (startup time). An embed in a course page waits until it is scrolled into view
// (playground.js), so it preloads nothing. The offline single file has no such files: this is left out.
// A file, not an inline script: the Content-Security-Policy allows scripts from this site only.
if (window.parent === window) {
  [['attention_playground.js', 'script'], ['attention_playground.wasm', 'fetch']].forEach(function (f) {
    var l = document.createElement('link');
    l.rel = 'preload'; l.href = f[0]; l.as = f[1];
    if (f[1] === 'fetch') l.crossOrigin = 'anonymous';  // as Emscripten fetches it (same-origin credentials)
    document.head.appendChild(l);
  });
}
