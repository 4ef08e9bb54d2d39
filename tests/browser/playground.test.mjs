// Browser tests: the built site (dist/) in Debian's headless Chromium with software WebGL2.
// Screenshots go to build/screenshots/ so that anyone can look at them.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist, launch, openPage, screenshot, frames, BARE } from './helpers.mjs';

let server, url, browser;
before(async () => { ({ server, url } = await serveDist()); browser = await launch(); });
after(async () => { await browser.close(); server.close(); });

const round2 = (row) => row.map((x) => Math.round(x * 100) / 100);
// The page's reports that follow the drawing (a message on screen moves the matrices down: view.matrices).
const withoutErrors = (s) => { const c = { ...s }; delete c.errors; delete c.frames; if (c.view) c.view = { ...c.view, matrices: undefined }; return JSON.stringify(c); };

test('loads with no console error and no request to another host; ready resolves; state has the documented fields', async () => {
  const { page, errors, foreign } = await openPage(browser.context, url);
  const s = await page.evaluate(() => window.playground.getState());
  assert.equal(s.scene, 'sdpa');
  assert.equal(s.welcome, true, 'a bare visit opens with the welcome');
  assert.deepEqual(s.tokens.slice(0, 3), ['The', 'animal', "didn't"]);
  assert.equal(s.n, 11);
  for (const k of ['d_model', 'd_k', 'mask', 'step', 'errors', 'matrices']) assert.ok(k in s, k);
  for (const k of ['Q', 'K', 'V', 'scores', 'scaled', 'weights', 'output']) assert.ok(Array.isArray(s.matrices[k]), k);
  assert.equal(s.matrices.weights.length, 11);
  for (const row of s.matrices.weights) assert.ok(Math.abs(row.reduce((a, b) => a + b, 0) - 1) < 1e-5);
  assert.deepEqual(Object.keys(s.step).sort(), ['count', 'index', 'name', 'playing', 'sub', 'sub_count']);
  assert.equal(await page.locator('#loading').isHidden(), true, 'the loading indicator goes once a frame is drawn');
  await screenshot(page, 'default-1280x720.png');
  assert.deepEqual(errors, []);
  assert.deepEqual(foreign, []);
  await page.close();
});

test('keyboard: Home, arrows, End and Space move getState().step', async () => {
  const { page, errors } = await openPage(browser.context, url + BARE);
  await page.locator('#canvas').focus();
  const step = () => page.evaluate(() => window.playground.getState({ matrices: false }).step);
  await page.keyboard.press('Home'); await frames(page);
  assert.equal((await step()).index, 0);
  await page.keyboard.press('ArrowRight'); await frames(page);
  let s = await step();
  assert.equal(s.index, 1);
  assert.equal(s.name, 'scores');
  await page.keyboard.press('Space'); await frames(page);   // pause the stage animation
  await page.keyboard.press('Shift+ArrowRight'); await frames(page);
  assert.equal((await step()).playing, false);
  await page.keyboard.press('End'); await frames(page);
  assert.equal((await step()).index, 6);
  await page.keyboard.press('ArrowLeft'); await frames(page);
  s = await step();
  assert.equal(s.index, 5);
  assert.equal(s.sub, s.sub_count, 'going back shows the previous stage complete');
  await page.keyboard.press('Space'); await frames(page);
  assert.equal((await step()).playing, true);
  // What presentation clickers send: PageDown / PageUp move a stage; ↓ / ↑ one cell or row; ] and [ the speed.
  await page.keyboard.press('Space'); await frames(page);   // pause again
  await page.keyboard.press('Home'); await frames(page);
  await page.keyboard.press('PageDown'); await frames(page);
  await page.keyboard.press('PageDown'); await frames(page);
  assert.equal((await step()).index, 2);
  await page.keyboard.press('PageUp'); await frames(page);
  s = await step();
  assert.equal(s.index, 1);
  const sub = s.sub;
  await page.keyboard.press('ArrowUp'); await frames(page);
  assert.equal((await step()).sub, sub - 1);
  await page.keyboard.press('ArrowDown'); await frames(page);
  assert.equal((await step()).sub, sub);
  const speed = () => page.evaluate(() => window.playground.getState({ matrices: false }).speed);
  const v0 = await speed();
  await page.keyboard.press(']'); await frames(page);
  assert.equal(await speed(), v0 * 2);
  // One key press per frame: a press and release inside one frame can reach ImGui 1.86 as no press at all.
  await page.keyboard.press('['); await frames(page);
  await page.keyboard.press('['); await frames(page);
  assert.equal(await speed(), v0 / 2);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a browser set to Chinese (zh-CN) starts in Chinese; the link\'s lang= wins', async () => {
  const zh = await launch({ locale: 'zh-CN' });
  try {
    const { page, errors } = await openPage(zh.context, url);
    assert.equal(await page.evaluate(() => navigator.language), 'zh-CN');
    assert.equal(await page.evaluate(() => window.playground.getState({ matrices: false }).lang), 'zh');
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh-CN');
    await screenshot(page, 'browser-zh-CN-default.png');
    const en = await openPage(zh.context, url + '?lang=en');
    assert.equal(await en.page.evaluate(() => window.playground.getState({ matrices: false }).lang), 'en');
    assert.deepEqual([...errors, ...en.errors], []);
  } finally {
    await zh.close();
  }
});

test('preset "I love cats": the seed QKᵀ, and the correctly computed softmax to two decimals', async () => {
  const { page, errors } = await openPage(browser.context, url + '?preset=cats');
  const s = await page.evaluate(() => window.playground.getState());
  assert.equal(s.d_k, 2);
  assert.deepEqual(s.tokens, ['I', 'love', 'cats']);
  assert.deepEqual(s.matrices.scores, [[1, 0, 0.5], [0, 1, 0.5], [1, 1, 1]]);
  assert.deepEqual(s.matrices.scaled.map(round2), [[0.71, 0, 0.35], [0, 0.71, 0.35], [0.71, 0.71, 0.71]]);
  assert.deepEqual(s.matrices.weights.map(round2), [[0.46, 0.22, 0.32], [0.22, 0.46, 0.32], [0.33, 0.33, 0.33]]);
  await page.evaluate(() => window.playground.setState({ step: 4 }));
  await screenshot(page, 'preset-cats-softmax.png');
  assert.deepEqual(errors, []);
  await page.close();
});

test('preset "one query": softmax([2,1,0]) ≈ [0.665, 0.245, 0.090], output ≈ 5.75', async () => {
  const { page, errors } = await openPage(browser.context, url);
  const r = await page.evaluate(() => window.playground.setState({ preset: 'one-query' }));
  assert.deepEqual(r, { ok: true });
  const s = await page.evaluate(() => window.playground.getState());
  assert.equal(s.n, 1);
  assert.equal(s.m, 3);
  const w = s.matrices.weights[0];
  [0.665, 0.245, 0.090].forEach((x, j) => assert.ok(Math.abs(w[j] - x) < 5e-4, `w[${j}] = ${w[j]}`));
  assert.ok(Math.abs(s.matrices.output[0][0] - 5.75) < 5e-3, `output ${s.matrices.output[0][0]}`);
  await page.evaluate(() => window.playground.setState({ step: 5 }));
  await screenshot(page, 'preset-one-query-weighted-sum.png');
  assert.deepEqual(errors, []);
  await page.close();
});

test('setState with bad values is refused, nothing changes, the message is on screen, the page keeps working', async () => {
  const { page, errors } = await openPage(browser.context, url);
  const before = await page.evaluate(() => window.playground.getState());
  const bad = [
    { d_k: 0 }, { d_k: 'abc' }, { d_model: 100000 }, { text: '' }, { text: 'word '.repeat(10000) },
    { mask: 'diagonal' }, { unknown_field: 1 }, { matrices: { Q: [['abc']] } }, { matrices: { Q: [[NaN]] } },
    { matrices: { weights: [[1]] } }, { matrices: { Q: [[1, 2], [3]] } }, { step: 42 }, 'not an object',
  ];
  for (const b of bad) {
    const r = await page.evaluate((x) => window.playground.setState(x), b);
    assert.equal(r.ok, false, JSON.stringify(b).slice(0, 60));
    assert.ok(typeof r.error === 'string' && r.error.length > 0);
  }
  const afterBad = await page.evaluate(() => window.playground.getState());
  assert.equal(withoutErrors(afterBad), withoutErrors(before), 'refused input changed the state');
  assert.ok(afterBad.errors.length > 0, 'no message on screen');
  await screenshot(page, 'bad-input-message.png');
  // Still alive: a good change goes through and frames keep coming.
  const f0 = afterBad.frames;
  assert.deepEqual(await page.evaluate(() => window.playground.setState({ d_k: 8 })), { ok: true });
  await frames(page, 4);
  const s = await page.evaluate(() => window.playground.getState());
  assert.equal(s.d_k, 8);
  assert.ok(s.frames > f0);
  assert.equal(s.errors.length, 0, 'a good setState clears the API message');
  assert.deepEqual(errors, []);
  await page.close();
});

test('bad input typed into the UI: an empty sentence and NaN in a cell show a message and keep the last good state', async () => {
  const { page, errors } = await openPage(browser.context, url + BARE);
  const before = await page.evaluate(() => window.playground.getState());
  // The sentence field sits in the controls at the left (1280×720 layout); a click opens its HTML input.
  await page.mouse.click(160, 434);
  await frames(page, 2);
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  await frames(page, 3);
  let s = await page.evaluate(() => window.playground.getState());
  assert.ok(s.errors.some((e) => /no tokens/.test(e)), `errors: ${JSON.stringify(s.errors)}`);
  assert.equal(withoutErrors(s), withoutErrors(before));
  await screenshot(page, 'ui-empty-sentence.png');
  await page.keyboard.type('I love cats');
  await frames(page, 16);
  s = await page.evaluate(() => window.playground.getState({ matrices: false }));
  assert.equal(s.n, 3);
  assert.equal(s.errors.length, 0, 'the message goes away once the sentence is fixed');

  // A cell: the "I love cats" example, first stage; Q[0][0] is drawn at (667, 255) in this layout, and
  // 61 px lower while an error message is shown above the flow strip.
  await page.evaluate(() => window.playground.setState({ preset: 'cats', step: 0 }));
  await frames(page, 3);
  const good = await page.evaluate(() => window.playground.getState());
  for (const [typed, y] of [['NaN', 255], ['abc', 316]]) {
    await page.mouse.click(667, y);
    await frames(page, 3);
    await page.keyboard.press('Control+A');
    await page.keyboard.type(typed);
    await page.keyboard.press('Enter');
    await frames(page, 10);  // one key per frame reaches the app (see platform.cpp)
    s = await page.evaluate(() => window.playground.getState());
    assert.ok(s.errors.some((e) => e.includes('Not a number') && e.includes(typed)), `errors: ${JSON.stringify(s.errors)}`);
    assert.equal(withoutErrors(s), withoutErrors(good));
    if (typed === 'NaN') await screenshot(page, 'ui-cell-nan.png');
    await page.keyboard.press('Escape');
    await frames(page, 4);
  }
  // A number goes in, and everything downstream is recomputed from it.
  await page.mouse.click(667, 316);
  await frames(page, 3);
  await page.keyboard.press('Control+A');
  await page.keyboard.type('2');
  await page.keyboard.press('Enter');
  await frames(page, 10);
  s = await page.evaluate(() => window.playground.getState());
  assert.equal(s.matrices.Q[0][0], 2);
  assert.deepEqual(s.matrices.scores[0], [2, 0, 1]);
  assert.equal(s.errors.length, 0);
  assert.deepEqual(errors, []);
  await page.close();
});

test('hover shows the arithmetic of a cell; the canvas follows the window size; Tab reaches the controls', async () => {
  const { page, errors } = await openPage(browser.context, url + '?preset=cats');
  await page.evaluate(() => window.playground.setState({ step: 1 }));
  await frames(page, 3);
  await page.mouse.move(869, 376);  // S[1][2] in this layout: "I" → "love"
  await frames(page, 3);
  const hover = (await page.evaluate(() => window.playground.getState({ matrices: false }))).hover;
  assert.match(hover, /“I” → “love”/);
  assert.match(hover, /q₁·k₂ = 1\.00×0\.00 \+ 0\.00×1\.00 = 0\.000/);
  await screenshot(page, 'hover-score-cell.png');
  await page.setViewportSize({ width: 1024, height: 600 });
  await frames(page, 4);
  let v = (await page.evaluate(() => window.playground.getState({ matrices: false }))).view;
  assert.deepEqual([v.width, v.height], [1024, 600]);
  await page.setViewportSize({ width: 1280, height: 720 });
  await frames(page, 4);
  v = (await page.evaluate(() => window.playground.getState({ matrices: false }))).view;
  assert.deepEqual([v.width, v.height], [1280, 720]);
  // Keyboard only: Tab into the controls, move with the arrows, Space selects the focused mask button.
  await page.locator('#canvas').focus();
  await page.keyboard.press('Tab');
  await frames(page, 2);
  for (let i = 0; i < 30; i++) { await page.keyboard.press('ArrowDown'); await frames(page, 1); }
  await screenshot(page, 'keyboard-nav-controls.png');
  await page.keyboard.press('Escape');
  await frames(page, 2);
  await page.keyboard.press('ArrowLeft');
  await frames(page, 2);
  assert.equal((await page.evaluate(() => window.playground.getState({ matrices: false }))).step.index, 0,
    'after Esc the arrows step the animation again');
  assert.deepEqual(errors, []);
  await page.close();
});

test('touch screens: a tap on the sentence or on a hand-set cell opens an HTML input (the on-screen keyboard comes up)', async () => {
  const page = await browser.context.newPage();
  await page.addInitScript(() => {
    const orig = window.matchMedia.bind(window);
    window.matchMedia = (q) => (q === '(pointer: coarse)' ? { matches: true, media: q, addEventListener() {}, removeEventListener() {} } : orig(q));
  });
  const dialogs = [];
  page.on('dialog', async (d) => { dialogs.push(d.message()); await d.dismiss(); });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(url + BARE);
  await page.evaluate(() => window.playground.ready);
  await page.mouse.click(160, 434);  // the sentence field: an HTML input, focused inside the tap
  await frames(page, 2);
  assert.equal(await page.evaluate(() => document.activeElement && document.activeElement.className), 'ap-input');
  await page.keyboard.press('Control+A');
  await page.keyboard.type('I love dogs');
  await page.keyboard.press('Enter');
  await frames(page, 4);
  let s = await page.evaluate(() => window.playground.getState({ matrices: false }));
  assert.equal(s.text, 'I love dogs');
  assert.equal(s.n, 3);
  await page.evaluate(() => window.playground.setState({ preset: 'cats', step: 0 }));
  await frames(page, 3);
  // Q[0][0]: the cell editor's field is an HTML input too, with the number selected and a screen-reader name.
  const cell = async () => {
    await page.mouse.click(667, 255);
    await frames(page, 4);
    return page.evaluate(() => {
      const el = document.activeElement;
      return el && el.className === 'ap-input' ? { value: el.value, label: el.getAttribute('aria-label'), selected: el.selectionEnd - el.selectionStart } : null;
    });
  };
  let field = await cell();
  assert.ok(field, 'the cell editor opened an HTML input');
  assert.equal(field.value, '1');
  assert.equal(field.label, 'Q[1][1]');
  assert.equal(field.selected, 1, 'the number starts selected');
  await screenshot(page, 'touch-cell-editor.png');
  await page.keyboard.type('abc');  // replaces the selection
  await page.keyboard.press('Enter');
  await frames(page, 4);
  s = await page.evaluate(() => window.playground.getState());
  assert.ok(s.errors.some((e) => e.includes('Not a number')), JSON.stringify(s.errors));
  assert.equal(s.matrices.Q[0][0], 1);
  await page.keyboard.press('Escape');  // the popup (still open after a refused value) closes
  await frames(page, 4);
  await page.mouse.move(5, 700);
  await frames(page, 2);
  // Types into Q[0][0] (61 px lower while a message is shown above the flow strip), ends with `key`.
  const typeInCell = async (text, key) => {
    if (!(await cell())) { await page.mouse.click(667, 316); await frames(page, 4); }
    await page.keyboard.type(text);
    await page.keyboard.press(key);
    await frames(page, 4);
    return page.evaluate(() => window.playground.getState());
  };
  s = await typeInCell('3', 'Enter');
  assert.equal(s.matrices.Q[0][0], 3);
  s = await typeInCell('7', 'Escape');  // Escape in the field cancels: nothing set
  assert.equal(s.matrices.Q[0][0], 3);
  assert.notEqual(await page.evaluate(() => document.activeElement && document.activeElement.className), 'ap-input');
  assert.deepEqual(dialogs, [], 'no browser prompt any more');
  assert.deepEqual(errors, []);
  await page.close();
});

test('odd URL parameters: messages on screen, defaults kept, page drawn', async () => {
  const { page, errors } = await openPage(browser.context, url + '?d_k=abc&lang=xx&bogus=1&mask=causal&text=%ZZ');
  const s = await page.evaluate(() => window.playground.getState({ matrices: false }));
  assert.equal(s.mask, 'causal', 'the good parameter still applies');
  assert.equal(s.d_k, 4);
  assert.equal(s.errors.length, 1);
  for (const w of ['d_k', 'lang', 'bogus', 'text']) assert.ok(s.errors[0].includes(w), w);
  await screenshot(page, 'odd-url.png');
  assert.deepEqual(errors, []);
  await page.close();
});

test('512 tokens: every matrix as a heatmap, weights still normalised', async () => {
  const { page, errors } = await openPage(browser.context, url + '?preset=long');
  const s = await page.evaluate(() => window.playground.getState());
  assert.equal(s.n, 512);
  assert.equal(s.matrices.weights.length, 512);
  assert.equal(s.matrices.weights[0].length, 512);
  for (const i of [0, 255, 511]) assert.ok(Math.abs(s.matrices.weights[i].reduce((a, b) => a + b, 0) - 1) < 1e-4);
  await page.evaluate(() => window.playground.setState({ step: { index: 1, sub: 100000 } }));
  await screenshot(page, 'long-512-scores.png');
  await page.evaluate(() => window.playground.setState({ step: 6 }));
  await screenshot(page, 'long-512-output.png');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the stage animation: mid-way through Q·Kᵀ at 1280×720', async () => {
  const { page, errors } = await openPage(browser.context, url + BARE);
  const r = await page.evaluate(() => window.playground.setState({ step: { index: 1, sub: 40 } }));
  assert.deepEqual(r, { ok: true });
  const s = await page.evaluate(() => window.playground.getState({ matrices: false }).step);
  assert.deepEqual([s.index, s.sub, s.sub_count], [1, 40, 121]);
  await screenshot(page, 'stage-scores-1280x720.png');
  for (let k = 2; k <= 6; k++) {
    await page.evaluate((k) => window.playground.setState({ step: { index: k, sub: k === 4 ? 16 : k === 5 ? 5 : 1 } }), k);
    await screenshot(page, `stage-${k}-1280x720.png`);
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('Chinese interface, phone viewport, and inside an iframe', async () => {
  let { page, errors } = await openPage(browser.context, url + '?lang=zh');
  assert.equal((await page.evaluate(() => window.playground.getState({ matrices: false }))).lang, 'zh');
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh-CN');
  await screenshot(page, 'zh-1280x720.png');
  assert.deepEqual(errors, []);
  await page.close();

  ({ page, errors } = await openPage(browser.context, url + '?preset=cats', { viewport: { width: 390, height: 844 } }));
  await page.evaluate(() => window.playground.setState({ step: 1 }));
  await screenshot(page, 'phone-390x844.png');
  assert.deepEqual(errors, []);
  await page.close();

  // An instructor's page with the playground in an iframe, driven through postMessage.
  const host = await browser.context.newPage();
  const hostErrors = [];
  host.on('pageerror', (e) => hostErrors.push(String(e)));
  await host.setContent(`<h3 style="font-family:sans-serif">Course page</h3>
    <iframe id="pg" src="${url}?embed=1&preset=causal" style="width:800px;height:480px;border:1px solid #888"></iframe>`);
  const frame = await (await host.$('#pg')).contentFrame();
  await frame.waitForFunction(() => window.playground && window.playground.ready);
  await frame.evaluate(() => window.playground.ready);
  const reply = await host.evaluate(() => new Promise((resolve) => {
    window.addEventListener('message', (e) => { if (e.data && e.data.playground === 'reply') resolve(e.data); });
    document.getElementById('pg').contentWindow.postMessage({ playground: 'setState', args: [{ step: 3 }], id: 7 }, '*');
  }));
  assert.equal(reply.id, 7);
  assert.deepEqual(reply.result, { ok: true });
  const st = await frame.evaluate(() => window.playground.getState({ matrices: false }));
  assert.equal(st.step.index, 3);
  assert.equal(st.mask, 'causal');
  await frames(frame.page ? host : host, 3);
  await host.screenshot({ path: (await import('./helpers.mjs')).shots + '/iframe-800x480.png' });
  assert.deepEqual(hostErrors, []);
  await host.close();
});

test('before ready: the loading indicator shows and the API says to wait', async () => {
  const page = await browser.context.newPage();
  // Hold the wasm back so that the page is caught before its first frame.
  let release;
  const held = new Promise((r) => { release = r; });
  await page.route('**/attention_playground.wasm', async (route) => { await held; await route.continue(); });
  await page.goto(url);
  assert.equal(await page.locator('#loading').isVisible(), true);
  const early = await page.evaluate(() => window.playground.setState({ d_k: 8 }));
  assert.equal(early.ok, false);
  assert.match(early.error, /not ready/);
  await screenshot(page, 'loading.png');
  release();
  await page.evaluate(() => window.playground.ready);
  assert.equal(await page.locator('#loading').isHidden(), true);
  await page.close();
});

test('a browser without WebGL2 gets a plain message, not a blank page', async () => {
  const page = await browser.context.newPage();
  await page.addInitScript(() => {
    const orig = HTMLCanvasElement.prototype.getContext;
    HTMLCanvasElement.prototype.getContext = function (type, ...rest) { return type === 'webgl2' ? null : orig.call(this, type, ...rest); };
  });
  await page.goto(url);
  const text = await page.locator('#fallback').innerText();
  assert.match(text, /WebGL2/);
  assert.equal(await page.locator('#fallback').isVisible(), true);
  const rejected = await page.evaluate(() => window.playground.ready.then(() => false, () => true));
  assert.equal(rejected, true);
  await screenshot(page, 'no-webgl2.png');
  await page.close();
});
