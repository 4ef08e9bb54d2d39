// Browser test of the issue "Hardening" (its web items): the scrollytelling page frames only http(s)
// playgrounds (?playground=javascript:… ran script in the site's origin); postMessage calls only the page
// API's own four methods (names were looked up through the prototype chain); hosts= limits who may drive an
// embed and where its events go; refusals made in playground.js are shown on screen like the app's own; every
// page (index.html, both examples, the single file from file://) runs under a strict Content-Security-Policy
// with no violation.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { dist, serveDist, launch, openPage, frames, screenshot, clickInFrames, chineseFontIn } from './helpers.mjs';

let server, url, browser;
before(async () => { ({ server, url } = await serveDist()); browser = await launch(); });
after(async () => { await browser.close(); server.close(); });

// The view without the page's reports (messages, frame count, hover), to say "nothing else changed".
const view = (s) => { const o = { ...s }; for (const k of ['errors', 'frames', 'hover', 'fonts']) delete o[k]; if (o.view) o.view = { ...o.view, matrices: undefined }; return o; };

async function until(fn, ms = 60000) {
  const t0 = Date.now();
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() - t0 > ms) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
}

test('scrollytelling: ?playground= takes only http(s) addresses; anything else is refused with a note', async () => {
  for (const bad of ['javascript:parent.__xss=7;void 0', 'JavaScript:parent.__xss=8', 'data:text/html,<script>parent.__xss=9</script>']) {
    const page = await browser.context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${url}examples/scrollytelling.html?playground=${encodeURIComponent(bad)}`);
    // The site's own playground is shown instead, and says it is ready.
    await page.waitForFunction(() => document.getElementById('status').textContent.includes('ready'), null, { timeout: 60000 });
    assert.equal(await page.evaluate(() => window.__xss), undefined, `${bad} ran in the host page`);
    const note = page.locator('#note');
    assert.equal(await note.isVisible(), true, 'a note says why');
    assert.match(await note.innerText(), /not an http\(s\) address/);
    assert.equal(new URL(await page.evaluate(() => document.getElementById('pg').src)).pathname, '/index.html');
    assert.deepEqual(errors, []);
    if (bad.startsWith('javascript')) await screenshot(page, 'hardening-scrolly-refused.png');
    await page.close();
  }
  // A relative or absolute http(s) address is taken (resolved against the page), and no note shows.
  const page = await browser.context.newPage();
  await page.goto(`${url}examples/scrollytelling.html?playground=${encodeURIComponent('../index.html?scene=masks&embed=1')}`);
  await page.waitForFunction(() => document.getElementById('status').textContent.includes('ready'), null, { timeout: 60000 });
  assert.equal(await page.evaluate(() => document.getElementById('pg').src), `${url}index.html?scene=masks&embed=1`);
  assert.equal(await page.locator('#note').isVisible(), false);
  await page.close();
});

// Posts {playground: name} to the page itself (the handler answers ev.source) and returns the reply.
function ask(page, name, args, id) {
  return page.evaluate(([name, args, id]) => new Promise((resolve) => {
    const on = (e) => {
      if (e.data && e.data.playground === 'reply' && e.data.id === id) { window.removeEventListener('message', on); resolve(e.data); }
    };
    window.addEventListener('message', on);
    window.postMessage({ playground: name, args, id }, '*');
  }), [name, args, id]);
}

test('postMessage calls the page API\'s four methods only; every other name is an unknown method, shown', async () => {
  const { page, errors } = await openPage(browser.context, url + '?scene=scaling');
  const before = view(await page.evaluate(() => window.playground.getState({ matrices: false })));
  let id = 1;
  for (const name of ['toString', 'constructor', 'valueOf', 'hasOwnProperty', '__lookupGetter__', '__lookupSetter__',
    '__defineGetter__', '__defineSetter__', '__proto__', 'isPrototypeOf', 'propertyIsEnumerable', 'toLocaleString',
    'ready', 'apply', 'call', 'bind', 'prototype', '']) {
    const r = await ask(page, name, [{ d_k: 8 }], id++);
    assert.deepEqual(r, { playground: 'reply', id: id - 1, error: `unknown method ${name}` }, name);
    await frames(page, 2);
    const s = await page.evaluate(() => window.playground.getState({ matrices: false }));
    assert.ok(s.errors.includes(`postMessage: unknown method ${name}`), `${name}: ${JSON.stringify(s.errors)}`);
    assert.deepEqual(view(s), before, `${name} changed nothing`);
  }
  // The four methods answer.
  assert.deepEqual((await ask(page, 'setState', [{ d_k: 8 }], id++)).result, { ok: true });
  assert.equal((await ask(page, 'getState', [{ matrices: false }], id++)).result.d_k, 8);
  const stepped = (await ask(page, 'step', [1], id++)).result;
  assert.equal(stepped.index, (await page.evaluate(() => window.playground.getState({ matrices: false }))).step.index);
  assert.match((await ask(page, 'link', [], id++)).result, /scene=scaling/);
  await screenshot(page, 'hardening-unknown-method.png');
  assert.deepEqual(errors, []);
  await page.close();
});

test('refusals made in playground.js are shown on screen; nothing else changes', async () => {
  const { page, errors } = await openPage(browser.context, url + '?scene=sdpa&d_k=4');
  const before = view(await page.evaluate(() => window.playground.getState({ matrices: false })));
  const cases = {
    cyclic: () => { const o = { d_k: 8 }; o.self = o; return window.playground.setState(o); },
    bigint: () => window.playground.setState({ d_k: 8n }),
    fn: () => window.playground.setState(function () {}),
    undef: () => window.playground.setState(undefined),
    symbol: () => window.playground.setState(Symbol('s')),
    stepText: () => window.playground.step('x'),
    stepFraction: () => window.playground.step(1.5),
    stepHuge: () => window.playground.step(1e6),
  };
  const want = { cyclic: /^not serialisable: /, bigint: /^not serialisable: .*BigInt/, fn: /^expects an object, got a function$/,
    undef: /^expects an object, got undefined$/, symbol: /^expects an object, got a symbol$/,
    stepText: /^step\(k\) takes a whole number .*"x"$/, stepFraction: /whole number.*1\.5$/, stepHuge: /whole number.*1000000$/ };
  for (const [name, fn] of Object.entries(cases)) {
    const r = await page.evaluate(`(${fn.toString()})()`);
    assert.equal(r.ok, false, name);
    assert.match(r.error, want[name], name);
    await frames(page, 2);
    const s = await page.evaluate(() => window.playground.getState({ matrices: false }));
    const call = name.startsWith('step') ? 'step' : 'setState';
    assert.ok(s.errors.includes(`${call}: ${r.error}`), `${name}: ${JSON.stringify(s.errors)} lacks ${r.error}`);
    assert.deepEqual(view(s), before, `${name} changed nothing`);
  }
  // In Chinese (once its text is in: fetched on the first switch), the same refusal in Chinese.
  assert.deepEqual(await page.evaluate(() => window.playground.setState({ lang: 'zh' })), { ok: true });
  await chineseFontIn(page);
  await page.evaluate(() => window.playground.step('x'));
  await frames(page, 2);
  const zh = await page.evaluate(() => window.playground.getState({ matrices: false }));
  assert.ok(zh.errors.some((e) => /^[^:]+：step\(k\) 需要 -1000 到 1000 之间的整数/.test(e)), JSON.stringify(zh.errors));
  await screenshot(page, 'hardening-refusal-zh.png');
  assert.deepEqual(errors, []);
  await page.close();
});

test('hosts=: only the listed host pages drive the embed, and its events go to them only', async () => {
  const port = new URL(url).port;
  const hostOrigin = `http://127.0.0.1:${port}`;
  const open = async (hosts) => {
    const embed = `http://localhost:${port}/index.html?scene=sdpa&embed=1&hide=controls&step=0&hosts=${encodeURIComponent(hosts)}`;
    const page = await browser.context.newPage();
    const warnings = [], errors = [];
    page.on('console', (m) => { if (m.type() === 'warning') warnings.push(m.text()); if (m.type() === 'error') errors.push(m.text()); });
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${url}examples/scrollytelling.html?playground=${encodeURIComponent(embed)}`);
    const frame = await until(() => page.frames().find((f) => f.url().startsWith(`http://localhost:${port}/`)));
    // (The frames' addresses in the message: once, under a loaded CI machine, no frame reached the second
    // origin within the minute, and nothing said where it was.)
    assert.ok(frame, `the embed is on the second origin; frames: ${page.frames().map((f) => f.url()).join(', ')}`);
    await frame.waitForFunction(() => window.playground && window.playground.ready);
    await frame.evaluate(() => window.playground.ready);
    return { page, frame, warnings, errors };
  };
  // The host in the list, alone or among others (then the referrer names it): it works as without hosts=.
  for (const hosts of [hostOrigin, `https://course.example.edu,${hostOrigin}`]) {
    const { page, frame, errors } = await open(hosts);
    await page.waitForFunction(() => document.getElementById('status').textContent.includes('ready'), null, { timeout: 30000 });
    await page.evaluate(() => document.querySelector('section[data-step="3"]').scrollIntoView({ block: 'center' }));
    await page.waitForFunction(() => window.pageLog.some((m) => m.step && m.step.index === 3), null, { timeout: 30000 });
    assert.equal((await frame.evaluate(() => window.playground.getState({ matrices: false }))).step.index, 3);
    const st = await frame.evaluate(() => window.playground.getState({ matrices: false }));
    assert.equal(st.errors.length, 0, JSON.stringify(st.errors));  // hosts= is a parameter the app knows
    assert.deepEqual(errors, []);
    await page.close();
  }
  // A host not in the list: its commands are ignored (one warning), it gets no 'ready' and no events.
  const { page, frame, warnings, errors } = await open('https://course.example.edu');
  await page.evaluate(() => document.querySelector('section[data-step="3"]').scrollIntoView({ block: 'center' }));
  const sent = await page.evaluate(() => {
    const f = document.getElementById('pg').contentWindow;
    for (let i = 0; i < 3; i++) f.postMessage({ playground: 'setState', args: [{ step: 4 }], id: 100 + i }, '*');
    return new Promise((r) => setTimeout(() => r(true), 1500));
  });
  assert.ok(sent);
  await frame.evaluate(() => window.playground.step(1));  // an event the host must not get
  await frames(page, 3);
  await page.waitForTimeout(500);
  const st = await frame.evaluate(() => window.playground.getState({ matrices: false }));
  assert.equal(st.step.index, 1, 'the host page did not move the embed');
  assert.deepEqual(await page.evaluate(() => window.pageLog), [], 'no event reached the host');
  assert.match(await page.locator('#status').innerText(), /waiting/);
  const ignored = warnings.filter((w) => /ignored messages from http:\/\/127\.0\.0\.1/.test(w));
  assert.equal(ignored.length, 1, JSON.stringify(warnings));
  assert.deepEqual(errors, []);
  await page.close();
  // A bad entry is shown on screen (not as an unknown parameter), and no host is trusted.
  const bad = await openPage(browser.context, url + '?scene=sdpa&hosts=' + encodeURIComponent('javascript:alert(1),https://a.example/x'));
  const s = await bad.page.evaluate(() => window.playground.getState({ matrices: false }));
  assert.ok(s.errors.some((e) => /hosts=.*not an http\(s\) origin/.test(e)), JSON.stringify(s.errors));
  assert.ok(!s.errors.some((e) => /unknown parameter/.test(e)), JSON.stringify(s.errors));
  // The address bar keeps hosts= as the view changes (a reload keeps the list).
  assert.deepEqual(await bad.page.evaluate(() => window.playground.setState({ d_k: 8 })), { ok: true });
  await frames(bad.page, 3);
  assert.match(bad.page.url(), /hosts=javascript/);
  await bad.page.close();
});

// A page under its policy: violations are recorded from before the first script runs, in every frame.
async function openWatched(target) {
  const page = await browser.context.newPage();
  await page.addInitScript(() => {
    window.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) => {
      window.__csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`);
    });
  });
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error' || /Content.Security.Policy/i.test(m.text())) errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  const response = await page.goto(target);
  return { page, errors, response };
}

function checkMeta(policy, where) {
  assert.ok(policy, `${where}: a Content-Security-Policy meta`);
  assert.doesNotMatch(policy, /'unsafe-inline'/, where);
  assert.doesNotMatch(policy, /'unsafe-eval'/, where);  // 'wasm-unsafe-eval' is not this token
  for (const d of ["object-src 'none'", "base-uri 'none'", "default-src 'none'"]) assert.ok(policy.includes(d), `${where}: ${d}`);
}

const metaOf = (frameOrPage) => frameOrPage.evaluate(() => {
  const m = document.querySelector('meta[http-equiv="Content-Security-Policy"]');
  return m && m.content;
});

test('Content-Security-Policy: every page loads, starts and draws with no violation', async () => {
  // The app's own page, served with the same policy as a header, plus frame-ancestors.
  {
    const { page, errors, response } = await openWatched(url + '?scene=masks');
    await page.evaluate(() => window.playground.ready);
    const policy = await metaOf(page);
    checkMeta(policy, 'index.html');
    assert.match(policy, /script-src 'self' 'wasm-unsafe-eval'/);
    assert.equal(response.headers()['content-security-policy'], policy);
    // As written (the live DOM has style attributes: element.style, which the policy allows, sets them).
    const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
    assert.doesNotMatch(html, /<script(?![^>]*\bsrc=)[^>]*>|\sstyle=|\son[a-z]+=|<style/i);
    const s = await page.evaluate(() => window.playground.getState({ matrices: false }));
    assert.ok(s.frames > 0);
    assert.deepEqual(s.results.lengths, [3, 6, 6, 1]);
    // Chinese beyond the interface's own: the font is fetched (connect-src 'self').
    assert.deepEqual(await page.evaluate(() => window.playground.setState({ scene: 'sdpa', text: '鹦鹉螺旋桨' })), { ok: true });
    const fonts = await until(async () => {
      await frames(page, 1);
      const f = (await page.evaluate(() => window.playground.getState({ matrices: false }))).fonts;
      return f.extra_loaded && f.missing === '' ? f : null;
    });
    assert.ok(fonts, 'the larger Chinese font loads');
    // A cost-lab worker starts under the policy its script is served with (importScripts and its wasm).
    const worker = await page.evaluate(() => new Promise((resolve) => {
      const w = new Worker('kernel_worker.js');
      w.onmessage = (e) => { w.terminate(); resolve(e.data.type === 'loaded' ? 'loaded' : e.data.error); };
      w.onerror = (e) => { e.preventDefault(); resolve('error: ' + e.message); };
    }));
    assert.equal(worker, 'loaded');
    await screenshot(page, 'csp-index.png');
    assert.deepEqual(await page.evaluate(() => window.__csp), []);
    assert.deepEqual(errors, []);
    await page.close();
  }
  // Both examples: their own policy, and the embeds inside under theirs.
  for (const example of ['course.html', 'scrollytelling.html']) {
    const { page, errors, response } = await openWatched(`${url}examples/${example}`);
    const policy = await metaOf(page);
    checkMeta(policy, example);
    assert.match(policy, /frame-src 'self' http: https:/);
    assert.doesNotMatch(fs.readFileSync(path.join(dist, 'examples', example), 'utf8'), /<script(?![^>]*\bsrc=)[^>]*>|\sstyle=|\son[a-z]+=|<style/i);
    assert.equal(response.headers()['content-security-policy'], policy);
    // An embed whose page API is there. A frame found early may be replaced (lazy iframes, a navigation) and
    // never answer: look again, and say which frames there were if none starts.
    let embed = null;
    for (let attempt = 0; attempt < 4 && !embed; attempt++) {
      const f = await until(() => page.frames().find((x) => x !== page.mainFrame() && !x.isDetached() && x.url().includes('index.html')));
      assert.ok(f, `${example}: an embed`);
      try {
        await f.waitForFunction(() => window.playground && window.playground.ready, null, { timeout: 10000 });
        embed = f;
      } catch (e) {
        if (attempt === 3) throw new Error(`${example}: no embed started: ${page.frames().map((x) => x.url() + (x.isDetached() ? ' (detached)' : '')).join(', ')}`);
      }
    }
    await embed.evaluate(() => window.playground.ready);
    assert.ok((await embed.evaluate(() => window.playground.getState({ matrices: false }))).frames > 0);
    checkMeta(await metaOf(embed), `${example}'s embed`);
    if (example === 'scrollytelling.html') {
      // "the playground is ready", soon replaced by the embed's first change ("playground: sdpa, step 1 of 7 …"):
      // either shows that the page heard the embed (waiting for the first alone raced with the second).
      await page.waitForFunction(() => /ready|, step \d+ of \d+/.test(document.getElementById('status').textContent), null, { timeout: 30000 });
    }
    await screenshot(page, `csp-${example.replace('.html', '')}.png`);
    assert.deepEqual(await page.evaluate(() => window.__csp), [], example);
    assert.deepEqual(await embed.evaluate(() => window.__csp), [], `${example}'s embed`);
    assert.deepEqual(errors, [], example);
    await page.close();
  }
  // The offline single file from disk: inline parts allowed by hash, nothing fetched, the wasm from bytes.
  {
    const file = path.join(dist, 'attention-playground.html');
    assert.ok(fs.existsSync(file));
    const { page, errors } = await openWatched(pathToFileURL(file).href + '?scene=masks&lang=zh');
    await page.evaluate(() => window.playground.ready);
    const policy = await metaOf(page);
    checkMeta(policy, 'the single file');
    assert.match(policy, /script-src 'sha256-[^']+' 'sha256-[^']+' 'sha256-[^']+' 'wasm-unsafe-eval'/);
    assert.match(policy, /style-src 'sha256-[^']+'/);
    assert.match(policy, /connect-src 'none'/);
    const s = await page.evaluate(() => window.playground.getState({ matrices: false }));
    assert.deepEqual(s.results.lengths, [3, 6, 6, 1]);
    assert.ok(s.frames > 0);
    assert.deepEqual(await page.evaluate(() => window.playground.setState({ scene: 'sdpa', text: '鹦鹉螺旋桨' })), { ok: true });
    const fonts = await until(async () => {
      await frames(page, 1);
      const f = (await page.evaluate(() => window.playground.getState({ matrices: false }))).fonts;
      return f.extra_loaded && f.missing === '' ? f : null;
    });
    assert.ok(fonts, 'the larger Chinese font loads from inside the file');
    await screenshot(page, 'csp-single-file.png');
    assert.deepEqual(await page.evaluate(() => window.__csp), []);
    assert.deepEqual(errors, []);
    await page.close();
  }
});

// The monkey (seed 20261201) found it: "0" typed into the text-size slider (Tab or Ctrl+click turns a slider
// into a field) set the text size to 0, every size became 0 and the frame read outside memory ("memory access
// out of bounds", the page stopped). A typed value is clamped to the slider's limits, 0.6 … 3.
test('a text size typed into its slider is kept within 0.6 … 3; the page keeps drawing', async () => {
  for (const [typed, zoom] of [['0', '0.6'], ['-5', '0.6'], ['99', '3']]) {
    const { page, errors } = await openPage(browser.context, url + '?scene=scaling', { viewport: { width: 1280, height: 720 } });
    await page.keyboard.down('Control');
    await frames(page, 2);  // the frame must see Ctrl held before the click (else the click sets the slider)
    // The "text size" slider (Display, under the scene's controls at 1280×720): press and release in frames of
    // their own, Ctrl still held, so that ImGui reads a Ctrl+click (a press and release within one frame was
    // sometimes read as a plain click, which sets the slider where it lands).
    await clickInFrames(page, 80, 372, 1);
    await page.keyboard.up('Control');
    await frames(page, 3);
    await page.keyboard.press('Control+A');
    await page.keyboard.type(typed);
    await page.keyboard.press('Enter');
    await frames(page, 8);
    const f0 = (await page.evaluate(() => window.playground.getState({ matrices: false }))).frames;
    await page.evaluate(() => window.playground.step(1));
    await frames(page, 3);
    const s = await page.evaluate(() => window.playground.getState({ matrices: false }));
    assert.ok(s.frames > f0, `frames stopped after typing ${typed}`);
    assert.match(await page.evaluate(() => location.search), new RegExp(`zoom=${zoom}(&|$)`), `typed ${typed}: the address holds the text size`);
    if (typed === '0') await screenshot(page, 'hardening-text-size-typed-0.png');
    assert.deepEqual(errors, [], `typed ${typed}`);
    await page.close();
  }
});

// The development server (tools/serve.mjs, ./build.sh serve) answers a request path that is no URL with 400 and
// keeps serving: a request for "//" threw in its handler and stopped it.
test('the server answers a malformed request path with 400 and keeps serving', { timeout: 20000 }, async () => {
  const get = (p) => new Promise((resolve, reject) => {
    const { port } = server.address();
    http.get({ host: '127.0.0.1', port, path: p }, (res) => { res.resume(); resolve(res.statusCode); }).on('error', reject);
  });
  assert.equal(await get('//'), 400);
  assert.equal(await get('/%E0%A4%A'), 400);
  assert.equal(await get('/no-such-file.js'), 404);
  assert.equal(await get('/index.html'), 200);
});
