// web/examples/scrollytelling.html drives its playground from here (a file: the page's Content-Security-Policy
// allows no inline script).
(function () {
  'use strict';
  var frame = document.getElementById('pg');
  var status = document.getElementById('status');
  // ?playground=<address> points the iframe at a playground elsewhere (another origin works the same way).
  // Only an http(s) address: a link to this page must not be able to run its own script here
  // (?playground=javascript:… would, in this page's origin), nor show a data: or blob: page as ours.
  var other = new URLSearchParams(location.search).get('playground');
  if (other) {
    var address = null;
    try { address = new URL(other, location.href); } catch (e) { address = null; }
    if (address && (address.protocol === 'http:' || address.protocol === 'https:')) frame.src = address.href;
    else {
      var note = document.getElementById('note');
      note.textContent = 'The link asked for a playground at “' + other.slice(0, 200) + '”, which is not an http(s) ' +
        'address: the playground of this site is shown instead.';
      note.hidden = false;
    }
  }
  // Commands go to the playground's origin only (a file:// page has none to name).
  var target = new URL(frame.src, location.href).origin;
  if (target === 'null') target = '*';
  var sections = Array.prototype.slice.call(document.querySelectorAll('section[data-step]'));
  var ready = false, nextId = 1, current = -1;
  window.pageLog = [];  // the playground's events, for tests and for the curious

  function send(method, args) {
    frame.contentWindow.postMessage({ playground: method, args: args, id: nextId++ }, target);
  }
  function highlight(step) {
    sections.forEach(function (s) { s.classList.toggle('active', Number(s.dataset.step) === step); });
  }
  window.addEventListener('message', function (ev) {
    if (ev.source !== frame.contentWindow || (target !== '*' && ev.origin !== target)) return;
    var m = ev.data || {};
    if (m.playground === 'ready') { ready = true; status.textContent = 'the playground is ready'; if (current >= 0) send('setState', [{ step: current }]); }
    if (m.playground === 'event') {
      window.pageLog.push(m);
      status.textContent = 'playground: ' + m.scene + ', step ' + (m.step.index + 1) + ' of ' + m.step.count + ' (' + m.step.name + ')';
      highlight(m.step.index);
    }
  });
  // The section nearest the middle of the window drives the playground.
  var observer = new IntersectionObserver(function (entries) {
    entries.forEach(function (e) {
      if (!e.isIntersecting) return;
      var step = Number(e.target.dataset.step);
      if (step === current) return;
      current = step;
      highlight(step);
      if (ready) send('setState', [{ step: step }]);
    });
  }, { rootMargin: '-45% 0px -45% 0px' });
  sections.forEach(function (s) { observer.observe(s); });
})();
