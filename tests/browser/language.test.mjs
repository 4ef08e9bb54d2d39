// The language switch from every scene and every stage, both ways, by key (L) and by the page API, in the
// page, in an embed and in the offline single file (issue 14, item 1). The first switch to Chinese rebuilds
// the font atlas; the SDPA view kept a font pointer across that rebuild and the default page froze for good
// ("memory access out of bounds" in every later frame). Only a first switch shows it, so each case starts
// from a fresh page in English. Health after each switch: no page error, frames still come after an input,
// getState answers in the new language.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { serveDist, launch, frames, dist, shots, screenshot } from './helpers.mjs';

let server, url, browser;
before(async () => { ({ server, url } = await serveDist()); browser = await launch(); });
after(async () => { await browser.close(); server.close(); });

function watch(page) {
  const errors = [];
  // (the course page has no icon: the browser's own favicon.ico request is not the app's)
  page.on('console', (m) => { if (m.type() === 'error' && !/favicon\.ico/.test(m.location().url || '')) errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  return errors;
}

// `app`: a function giving the frame (page or iframe) that holds the playground.
async function state(app) { return app.evaluate(() => window.playground.getState({ matrices: false })); }

// Frames still come: an input (a stage step and back) draws at least one more frame.
async function framesAdvance(page, app) {
  const before = (await state(app)).frames;
  for (let k = 0; k < 40; k++) {
    await app.evaluate(() => { window.playground.step(-1); window.playground.step(1); });
    await frames(page, 2);
    if ((await state(app)).frames > before) return true;
  }
  return false;
}

async function switchLang(page, app, to, how) {
  if (how === 'key') {
    await app.evaluate(() => document.getElementById('canvas').focus());
    await page.keyboard.press('l');
  } else {
    assert.deepEqual(await app.evaluate((l) => window.playground.setState({ lang: l }), to), { ok: true });
  }
  for (let k = 0; k < 30 && (await state(app)).lang !== to; k++) await frames(page, 1);
  await frames(page, 4);  // the atlas is rebuilt on the frame after the switch
}

// One case: a fresh page, then en → zh → en, each switch checked.
async function roundTrip(page, app, errors, label, first) {
  const second = first === 'key' ? 'api' : 'key';
  await switchLang(page, app, 'zh', first);
  assert.deepEqual(errors, [], `${label}: en → zh by ${first}`);
  let s = await state(app);
  assert.equal(s.lang, 'zh', label);
  assert.ok(await framesAdvance(page, app), `${label}: frames stopped after the switch to Chinese`);
  await switchLang(page, app, 'en', second);
  s = await state(app);
  assert.equal(s.lang, 'en', label);
  assert.ok(await framesAdvance(page, app), `${label}: frames stopped after the switch back`);
  assert.deepEqual(errors, [], `${label}: zh → en by ${second}`);
}

test('every scene and every stage switches to Chinese and back (page, by key and by API)', async () => {
  const page = await browser.context.newPage();
  const errors = watch(page);
  await page.goto(url + 'index.html');
  await page.evaluate(() => window.playground.ready);
  const scenes = await page.evaluate(async () => {
    const out = [];
    const ids = ['bottleneck', 'bahdanau', 'luong', 'self', 'sdpa', 'scaling', 'multihead', 'masks', 'train', 'cost', 'import'];
    for (const id of ids) {
      window.playground.setState({ scene: id });
      out.push([id, window.playground.getState({ matrices: false }).step.count]);
    }
    return out;
  });
  // A page a scene, opened in English at its first stage (the first switch of a page fetches the Chinese font and
  // text: the first stage); each of its stages then switches there and back, as a learner does mid-lesson.
  let cases = 0;
  for (const [id, count] of scenes) {
    await page.goto(url + `index.html?scene=${id}&step=0&lang=en`);
    await page.evaluate(() => window.playground.ready);
    for (let stage = 0; stage < count; stage++) {
      const how = (cases++ % 2) ? 'api' : 'key';
      if (stage > 0) assert.deepEqual(await page.evaluate((k) => window.playground.setState({ step: k }), stage), { ok: true });
      await frames(page, 2);
      assert.equal((await state(page)).step.index, stage);
      await roundTrip(page, page, errors, `${id} stage ${stage}`, how);
    }
  }
  console.log(`# ${cases} stages (every stage of ${scenes.length} scenes) switched to Chinese and back`);
  assert.ok(cases >= 40, `only ${cases} cases`);
  await page.close();
});

test('the default page, the embed and the single file switch to Chinese and back', async () => {
  // The default page as a learner opens it (no parameter at all), by key.
  let page = await browser.context.newPage();
  let errors = watch(page);
  await page.goto(url);
  await page.evaluate(() => window.playground.ready);
  await roundTrip(page, page, errors, 'the bare page', 'key');
  await switchLang(page, page, 'zh', 'key');
  await screenshot(page, 'language-default-zh.png');
  await page.close();

  // An embed in a course page (same origin), by key inside the iframe and by its API.
  for (const first of ['key', 'api']) {
    page = await browser.context.newPage();
    errors = watch(page);
    await page.goto(url + 'examples/course.html');
    const handle = await page.waitForSelector('iframe[src*="scene=sdpa"]');
    await handle.scrollIntoViewIfNeeded();
    const app = await handle.contentFrame();
    await app.waitForFunction(() => window.playground && window.playground.ready);
    await app.evaluate(() => window.playground.ready);
    await roundTrip(page, app, errors, `embed (${first} first)`, first);
    await page.close();
  }

  // The offline single file from file://.
  page = await browser.context.newPage();
  errors = watch(page);
  await page.goto(pathToFileURL(path.join(dist, 'attention-playground.html')).href);
  await page.evaluate(() => window.playground.ready);
  await roundTrip(page, page, errors, 'single file', 'key');
  await page.close();
});

// A fresh page at `query` whose Chinese font (cjk_ui.otf.gz) takes `delay` ms to come, once ready.
async function slowFontPage(query, delay) {
  const page = await browser.context.newPage();
  const errors = watch(page);
  await page.route('**/cjk_ui.otf*', async (route) => { await new Promise((r) => setTimeout(r, delay)); await route.continue(); });
  await page.goto(url + query);
  await page.evaluate(() => window.playground.ready);
  return { page, errors };
}

test('an English visit downloads no Chinese font nor text; the first switch fetches them and draws English until they are in', async () => {
  // The font takes a second and a half: the switch must neither wait for it nor show boxes meanwhile.
  const { page, errors } = await slowFontPage('?scene=sdpa&step=2', 1500);
  await frames(page, 4);
  const fonts = () => page.evaluate(() => performance.getEntriesByType('resource').map((r) => r.name).filter((n) => /cjk_|zh_strings/.test(n)));
  assert.deepEqual(await fonts(), [], 'the first visit in English fetches no Chinese font nor text');
  // The page's module carries the English of each string only (src/app/i18n.h, AP_ZH_FETCHED).
  const inModule = await page.evaluate(async () => {
    const wasm = new Uint8Array(await (await fetch('attention_playground.wasm')).arrayBuffer());
    const has = (text) => {
      const b = new TextEncoder().encode(text);
      outer: for (let i = 0; i + b.length <= wasm.length; i++) {
        for (let k = 0; k < b.length; k++) if (wasm[i + k] !== b[k]) continue outer;
        return true;
      }
      return false;
    };
    return { zh: ['控制面板', '缩放点积注意力', '上一课'].filter(has), en: ['Controls', 'Previous lesson'].filter(has) };
  });
  assert.deepEqual(inModule, { zh: [], en: ['Controls', 'Previous lesson'] }, 'the module holds the English strings, not their Chinese');
  let s = await state(page);
  assert.equal(s.fonts.ui_requested, false);
  await page.evaluate(() => document.getElementById('canvas').focus());
  await page.keyboard.press('l');
  for (let k = 0; k < 30 && (await state(page)).lang !== 'zh'; k++) await frames(page, 1);
  s = await state(page);
  assert.equal(s.lang, 'zh', 'the switch is made at once');
  assert.equal(s.fonts.ui_requested, true);
  assert.equal(s.fonts.ui_loaded, false, 'the font is still on its way');
  assert.ok(await framesAdvance(page, page), 'frames keep coming while the font loads');
  await frames(page, 3);
  await page.screenshot({ path: path.join(shots, 'language-font-pending.png') });  // English, with "中文…"
  await page.waitForFunction(() => window.playground.getState({ matrices: false }).fonts.ui_loaded, null, { timeout: 10000 });
  assert.deepEqual((await fonts()).map((n) => n.replace(/^.*\//, '')).sort(), ['cjk_ui.otf.gz', 'zh_strings.bin.gz'],
    'only the interface font and text, compressed');
  // The text is in: the page API's texts are Chinese (a refusal on screen, in the learner's language; the
  // answer to the call itself is English, for the course page's code).
  const refusal = await page.evaluate(() => window.playground.setState({ scene: 'nope' }));
  assert.match(refusal.error, /^unknown scene 'nope'/, refusal.error);
  assert.ok((await state(page)).errors.some((e) => /未知场景“nope”/.test(e)), JSON.stringify((await state(page)).errors));
  assert.equal((await state(page)).fonts.missing, '', 'every character of the Chinese interface has its glyph');
  assert.ok(await framesAdvance(page, page));
  await screenshot(page, 'language-font-arrived-zh.png');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a page that starts in Chinese is ready once its font is in', async () => {
  const { page, errors } = await slowFontPage('?scene=masks&lang=zh', 1000);
  const s = await state(page);
  assert.equal(s.lang, 'zh');
  assert.equal(s.fonts.ui_loaded, true, 'ready came before the Chinese font');
  assert.equal(s.fonts.missing, '');
  await screenshot(page, 'language-start-zh.png');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a Chinese font that cannot be fetched is reported, and the screen stays readable (English)', async () => {
  const page = await browser.context.newPage();
  const errors = watch(page);
  await page.route('**/cjk_ui.otf*', (route) => route.abort());
  await page.goto(url + '?scene=sdpa');
  await page.evaluate(() => window.playground.ready);
  assert.deepEqual(await page.evaluate(() => window.playground.setState({ lang: 'zh' })), { ok: true });
  await page.waitForFunction(() => window.playground.getState({ matrices: false }).errors.some((e) => /中文字体/.test(e)), null, { timeout: 10000 });
  const s = await state(page);
  assert.equal(s.fonts.ui_loaded, false);
  assert.ok(await framesAdvance(page, page), 'frames keep coming');
  await screenshot(page, 'language-font-failed-zh.png');
  // The failed fetch itself is the browser's console error (net::ERR_FAILED), nothing else.
  assert.ok(errors.every((e) => /Failed to load resource|ERR_FAILED/.test(e)), JSON.stringify(errors));
  await page.close();
});

test('Chinese text that cannot be fetched, or is not in its format, is reported; the interface stays English and alive', async () => {
  for (const [how, fulfil] of [['aborted', (route) => route.abort()],
                               ['malformed', (route) => route.fulfill({ status: 200, contentType: 'application/octet-stream', body: Buffer.from('not the strings') })]]) {
    const page = await browser.context.newPage();
    const errors = watch(page);
    await page.route('**/zh_strings.bin*', fulfil);
    await page.goto(url + '?scene=sdpa');
    await page.evaluate(() => window.playground.ready);
    assert.deepEqual(await page.evaluate(() => window.playground.setState({ lang: 'zh' })), { ok: true });
    await page.waitForFunction(() => window.playground.getState({ matrices: false }).errors.some((e) => /Chinese strings could not be loaded/.test(e)),
      null, { timeout: 10000 });
    const s = await state(page);
    assert.equal(s.lang, 'zh', how);
    const shown = s.errors.find((e) => /Chinese strings/.test(e));
    if (how === 'malformed') assert.match(shown, /not in their format/, shown);
    await page.waitForFunction(() => window.playground.getState({ matrices: false }).fonts.ui_loaded, null, { timeout: 10000 });
    await page.evaluate(() => window.playground.setState({ scene: 'nope' }));
    const shownNow = (await state(page)).errors;
    assert.ok(shownNow.some((e) => /^setState: unknown scene 'nope'/.test(e)) && !shownNow.some((e) => /未知场景|：/.test(e)),
      `English, the text being absent: ${JSON.stringify(shownNow)}`);
    assert.ok(await framesAdvance(page, page), 'frames keep coming');
    await screenshot(page, `language-strings-${how}.png`);
    assert.ok(errors.every((e) => /Failed to load resource|ERR_FAILED/.test(e)), JSON.stringify(errors));
    await page.close();
  }
});
