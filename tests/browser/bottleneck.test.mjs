// Browser test of the scene "The Seq2Seq bottleneck" (?scene=bottleneck): the encoder reading the notes'
// sentence, c beside the source numbers, the probe's R² per position and against the length; every stage
// photographed at 1280×720 in English and Chinese (build/screenshots/bottleneck-*.png); the URL parameters,
// hover read-outs, and bad input refused with a message while the last good state stays.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { serveDist, launch, openPage, screenshot, frames, shots, assertDrawnAtRest } from './helpers.mjs';

let server, url, browser;
before(async () => { ({ server, url } = await serveDist()); browser = await launch(); });
after(async () => { await browser.close(); server.close(); });

const stages = ['read', 'compress', 'probe', 'grow', 'trained'];

test('bottleneck scene: the numbers, every stage in both languages, hover', async () => {
  const { page, errors } = await openPage(browser.context, url + '?scene=bottleneck');
  let s = await page.evaluate(() => window.playground.getState());
  assert.equal(s.scene, 'bottleneck');
  assert.equal(s.text, 'Le chat noir est assis sur le tapis rouge dans le salon');
  const r = s.results;
  assert.equal(r.n, 12);
  assert.equal(r.source_numbers, 96);
  assert.equal(r.c.length, 32);
  assert.equal(r.H.length, 12);
  assert.deepEqual(r.H[11], r.c, 'c is the last state');
  assert.deepEqual(r.probe.L, Array.from({ length: 16 }, (_, i) => i + 1));
  // The bottleneck: from c the mean R² falls with L and stays near the bound; from every h_j it stays high.
  const fin = r.probe.mean_r2_bottleneck, rd = r.probe.mean_r2_reader;
  assert.ok(fin[15] < fin[0] - 0.5, JSON.stringify(fin));
  for (let i = 0; i < 16; i++) {
    assert.ok(fin[i] <= r.probe.bound[i] + 0.05, `L=${i + 1}: ${fin[i]} vs bound ${r.probe.bound[i]}`);
    assert.ok(rd[i] > 0.85, `reader at L=${i + 1}: ${rd[i]}`);
  }
  assert.equal(r.at_L.L, 12);
  assert.equal(r.at_L.r2_bottleneck.length, 12);
  assert.equal(r.at_L.mean_r2_bottleneck, fin[11]);
  for (const lang of ['en', 'zh']) {
    for (let k = 0; k < stages.length; k++) {
      // the reading stage mid-way (7 of 12 tokens read), the others complete
      const step = k === 0 ? { index: 0, sub: 7 } : k;
      await page.evaluate(([step, lang]) => window.playground.setState({ step, lang }), [step, lang]);
      await screenshot(page, `bottleneck-${k}-${stages[k]}-${lang}.png`);
    }
  }
  // Hover the middle of the curve (stage 4) and a bar group (stage 3): the exact numbers are read out.
  await page.evaluate(() => window.playground.setState({ step: 3, lang: 'en' }));
  await frames(page, 3);
  let hover = '';
  for (let x = 700; x < 1150 && !hover.includes('L = '); x += 6) {
    for (const y of [200, 260, 320, 380, 440, 500]) {
      await page.mouse.move(x, y);
      await frames(page, 2);
      hover = (await page.evaluate(() => window.playground.getState({ matrices: false }))).hover || '';
      if (hover.includes('L = ')) break;
    }
  }
  assert.match(hover, /L = \d+: mean R² from c = /);
  await screenshot(page, 'bottleneck-hover-grow.png');
  await page.evaluate(() => window.playground.setState({ step: 2 }));
  await page.mouse.move(820, 400);
  await frames(page, 3);
  s = await page.evaluate(() => window.playground.getState({ matrices: false }));
  assert.match(s.hover, /position \d+ \(/);
  await screenshot(page, 'bottleneck-hover-probe.png');
  assert.deepEqual(errors, []);
});

test('bottleneck scene: URL parameters, bad input refused with a message, last good state kept', async () => {
  const { page, errors } = await openPage(browser.context,
    url + '?scene=bottleneck&text=' + encodeURIComponent('黑猫坐在客厅的红地毯上') + '&d_h=16&gain=0.5&seed=3&step=1');
  let s = await page.evaluate(() => window.playground.getState({ matrices: false }));
  assert.equal(s.text, '黑猫坐在客厅的红地毯上');
  assert.equal(s.d_h, 16);
  assert.equal(s.gain, 0.5);
  assert.equal(s.results.n, 11);
  assert.equal(s.results.c.length, 16);
  await screenshot(page, 'bottleneck-chinese-sentence.png');
  // Bad input through the page API: refused, a message on screen, nothing changes.
  const bads = [{ text: '' }, { text: 'a b c d e f g h i j k l m n o p q r s t' }, { d_h: 0 }, { gain: 5 },
    { d_h: 128, n_train: 4096, n_test: 4096, l_max: 32 }, { n_train: 10 }];
  for (const bad of bads) {
    const reply = await page.evaluate((b) => window.playground.setState(b), bad);
    assert.equal(reply.ok, false, JSON.stringify(bad));
    const now = await page.evaluate(() => window.playground.getState({ matrices: false }));
    assert.deepEqual(now.results, s.results, JSON.stringify(bad));
    assert.ok(now.errors.length >= 1, 'the message is on screen');
  }
  const budget = await page.evaluate(() => window.playground.setState({ d_h: 128, n_train: 4096, n_test: 4096, l_max: 32 }));
  assert.match(budget.error, /budget/);
  await screenshot(page, 'bottleneck-bad-input.png');
  await page.evaluate(() => window.playground.setState({ lang: 'zh' }));
  const refused = await page.evaluate(() => window.playground.setState({ text: 'a b c d e f g h i j k l m n o p q r s t' }));
  assert.equal(refused.ok, false);
  await screenshot(page, 'bottleneck-bad-input-zh.png');
  // A good change after the refusals still works.
  assert.deepEqual(await page.evaluate(() => window.playground.setState({ text: 'Le chat noir', lang: 'en' })), { ok: true });
  s = await page.evaluate(() => window.playground.getState({ matrices: false }));
  assert.equal(s.results.n, 3);
  // Type into the sentence field: click it, select all, type.
  await page.mouse.click(160, 223);
  await frames(page, 2);
  await page.keyboard.press('Control+A');
  await page.keyboard.type('the black cat sits on the red carpet');
  await frames(page, 4);
  s = await page.evaluate(() => window.playground.getState({ matrices: false }));
  await screenshot(page, 'bottleneck-typed.png');
  assert.equal(s.text, 'the black cat sits on the red carpet');
  assert.equal(s.results.n, 8);
  assert.equal(s.results.at_L.L, 8);
  assert.deepEqual(errors, []);
});

// The papers' measurement, trained in the page's workers (#18): Seq2Seq without and with attention, the same data and
// budget (reversal of 4 … 24 symbols, 1200 steps each, the rate decaying over the second half), held-out accuracy against length. The frames around the
// training are timed; the figures go to build/screenshots/bottleneck-race.json.
test('bottleneck scene: both models trained in the page, accuracy against length', async () => {
  const { page, errors } = await openPage(browser.context, url + '?scene=bottleneck&step=4');
  await page.evaluate(() => {
    window.__frames = [];
    let t0 = 0;
    Module.preMainLoop = () => { t0 = performance.now(); };
    Module.postMainLoop = () => { window.__frames.push(performance.now() - t0); };
  });
  const set = (doc) => page.evaluate((d) => window.playground.setState(d), doc);
  assert.equal((await set({ training: 'begin' })).ok, false);
  assert.deepEqual(await set({ training: 'start' }), { ok: true });
  await frames(page, 20);
  await screenshot(page, 'bottleneck-trained-running-en.png');
  const t0 = Date.now();
  let s;
  while (Date.now() - t0 < 180000) {
    s = await page.evaluate(() => window.playground.getState({ matrices: false }));
    if (s.training.state === 'done') break;
    await page.waitForTimeout(500);
  }
  const seconds = (Date.now() - t0) / 1000;
  assert.equal(s.training.state, 'done', JSON.stringify(s.training).slice(0, 300));
  const a = s.results.accuracy_by_length;
  const at16 = a.lengths.indexOf(16), last = a.lengths.length - 1;
  const frameMs = await page.evaluate(() => window.__frames.slice());
  const sorted = [...frameMs].sort((x, y) => x - y);
  const report = { seconds, where: s.training.where, train_seconds: +s.training.seconds.toFixed(2), longest_slice_ms: +s.training.longest_slice_ms.toFixed(1),
    frames: frameMs.length, longest_frame_ms: +sorted[sorted.length - 1].toFixed(1), median_frame_ms: +sorted[Math.floor(sorted.length / 2)].toFixed(1),
    over_50ms: frameMs.filter((x) => x > 50).length, accuracy_by_length: a,
    heldout: s.training.runs.map((r) => ({ attention: r.attention, accuracy: r.heldout_accuracy, sentences: r.heldout_sentences })) };
  console.log('bottleneck race:', JSON.stringify(report));
  fs.mkdirSync(shots, { recursive: true });
  fs.writeFileSync(path.join(shots, 'bottleneck-race.json'), JSON.stringify(report, null, 2));
  // Each model in a Web Worker of its own, in parallel (the page only reads their reports).
  assert.equal(s.training.where, 'workers', s.training.host_error);
  assert.ok(a.with_attention[at16] >= 0.99, `with attention at 16: ${a.with_attention[at16]}`);
  assert.ok(a.without_attention[at16] < a.with_attention[at16] - 0.1, `without attention at 16: ${a.without_attention[at16]}`);
  assert.ok(a.without_attention[last] < a.without_attention[0] - 0.1, 'without attention falls with length');
  assert.ok(Math.min(...a.with_attention) >= 0.97, `with attention it does not: ${a.with_attention}`);
  // #18's target is 30 s (60 at most): the time is reported here (and in the JSON) and ./build.sh bench checks it;
  // a timed test does not gate it.
  if (seconds > 30) console.log(`NOTE: the race took ${seconds.toFixed(1)} s (target 30 s, 60 at most), ${report.over_50ms} frames over 50 ms`);
  await assertDrawnAtRest(page, 'bottleneck-race');  // the last report came with no input: drawn all the same
  for (const lang of ['en', 'zh']) {
    assert.deepEqual(await set({ lang }), { ok: true });
    await frames(page, 3);
    await screenshot(page, `bottleneck-trained-${lang}.png`);
  }
  // getState comes back in setState: accepted, the measurement stays.
  const doc = await page.evaluate(() => window.playground.getState());
  assert.deepEqual(await set(doc), { ok: true });
  assert.equal((await page.evaluate(() => window.playground.getState({ matrices: false }))).training.state, 'done');
  assert.deepEqual(await set({ training: 'reset', lang: 'en' }), { ok: true });
  assert.equal((await page.evaluate(() => window.playground.getState({ matrices: false }))).results.accuracy_by_length, undefined);
  assert.deepEqual(errors, []);
});
