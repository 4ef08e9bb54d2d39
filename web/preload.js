// A page of its own starts downloading the app and its wasm at once, beside playground.js, instead of one
// after the other (startup time). An embed in a course page waits until it is scrolled into view
// (playground.js), so it preloads nothing. The offline single file has no such files: this is left out.
// A page that starts in Chinese (?lang=zh) also needs the interface's Chinese font and text before it is ready
// (src/ui/font_loader.cpp; playground.js fetches the .gz where the browser can unpack them): they download
// beside the wasm.
// A file, not an inline script: the Content-Security-Policy allows scripts from this site only.
(function () {
  if (window.parent !== window) return;
  var files = [['attention_playground.js', 'script'], ['attention_playground.wasm', 'fetch']];
  if (/[?&]lang=(zh|zh-CN|cn)(&|$)/.test(location.search) && typeof DecompressionStream === 'function') {
    files.push(['cjk_ui.otf.gz', 'fetch'], ['zh_strings.bin.gz', 'fetch']);
  }
  files.forEach(function (f) {
    var l = document.createElement('link');
    l.rel = 'preload'; l.href = f[0]; l.as = f[1];
    if (f[1] === 'fetch') l.crossOrigin = 'anonymous';  // as Emscripten and playground.js fetch (same-origin credentials)
    document.head.appendChild(l);
  });
})();
