// Browser test of the scene "Bahdanau (additive) attention" (?scene=bahdanau): the bidirectional encoder, the
// parameters and their shapes, one decoder step, the whole alignment matrix; every stage photographed at
// 1280×720 in English and Chinese (build/screenshots/bahdanau-<k>-<stage>-<lang>.png); hover read-outs; bad
// input refused with a message while the last good state stays; no console errors.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist, launch, openPage, screenshot, frames, waitForState } from './helpers.mjs';

let server, url, browser;
before(async () => { ({ server, url } = await serveDist()); browser = await launch(); });
after(async () => { await browser.close(); server.close(); });

const stages = ['encoder', 'params', 'step', 'alignment'];

test('bahdanau scene: its numbers, every stage in both languages, hover', async () => {
  const { page, errors } = await openPage(browser.context, url + '?scene=bahdanau&weights=random');
  const s = await page.evaluate(() => window.playground.getState());
  assert.equal(s.scene, 'bahdanau');
  assert.equal(s.source, 'Le chat noir est assis sur le tapis rouge dans le salon');
  assert.deepEqual([s.d_emb, s.d_h, s.d_s, s.d_a, s.seed], [12, 8, 10, 6, 42]);
  const r = s.results;
  assert.deepEqual([r.n, r.T, r.d_enc], [12, 13, 16]);
  assert.equal(r.trained, false);
  assert.equal(r.decoder_reads[0], '<s>');
  assert.equal(r.alignment.length, 13);
  for (const row of r.alignment) {
    assert.equal(row.length, 12);
    assert.ok(Math.abs(row.reduce((a, b) => a + b, 0) - 1) < 1e-5, 'each α_t sums to 1');
    assert.ok(row.every((a) => a > 0 && a < 1));
  }
  // α_t = softmax(e_t), recomputed here from the scores the page reports
  for (let t = 0; t < r.T; t++) {
    const e = r.scores[t], top = Math.max(...e);
    const ex = e.map((x) => Math.exp(x - top)), sum = ex.reduce((a, b) => a + b, 0);
    ex.forEach((x, j) => assert.ok(Math.abs(x / sum - r.alignment[t][j]) < 1e-6, `α[${t}][${j}]`));
  }
  const shapes = Object.fromEntries(r.params.map((p) => [p.name, [p.rows, p.cols]]));
  assert.deepEqual(shapes.W_a, [6, 10]);
  assert.deepEqual(shapes.U_a, [6, 16]);
  assert.deepEqual(shapes.v_a, [6, 1]);
  assert.deepEqual(shapes.W_in, [10, 28]);
  assert.equal(r.contexts[0].length, 16);
  for (const lang of ['en', 'zh']) {
    for (let k = 0; k < stages.length; k++) {
      // the step stage in the middle of its animation: step t = 4 of 13
      const step = stages[k] === 'step' ? { index: k, sub: 3 } : k;
      await page.evaluate(([step, lang]) => window.playground.setState({ step, lang }), [step, lang]);
      const st = await page.evaluate(() => window.playground.getState({ matrices: false }));
      assert.equal(st.step.name, stages[k]);
      await screenshot(page, `bahdanau-${k}-${stages[k]}-${lang}.png`);
    }
  }
  // Hover the alignment matrix: the read-out gives the exact arithmetic of one weight.
  await page.evaluate(() => window.playground.setState({ step: 3, lang: 'en' }));
  await frames(page, 3);
  let hovered = '';
  for (const [x, y] of [[700, 300], [760, 330], [820, 360]]) {
    await page.mouse.move(x, y);
    await frames(page, 3);
    const st = await page.evaluate(() => window.playground.getState({ matrices: false }));
    if (st.hover) { hovered = JSON.stringify(st.hover); break; }
  }
  assert.match(hovered, /α_\d+,\d+ = exp/, hovered);
  await screenshot(page, 'bahdanau-hover-alignment.png');
  // And the bars of a decoder step.
  await page.evaluate(() => window.playground.setState({ step: { index: 2, sub: 1 } }));
  await page.mouse.move(560, 300);
  await frames(page, 4);
  const h2 = await page.evaluate(() => window.playground.getState({ matrices: false }));
  assert.match(JSON.stringify(h2.hover), /e_2,\d+ = v_a/, JSON.stringify(h2.hover));
  await screenshot(page, 'bahdanau-hover-step.png');
  assert.deepEqual(errors, []);
  await page.close();
});

test('bahdanau scene: presets, typed sentences, bad input refused with a message and the last good state kept', async () => {
  const { page, errors } = await openPage(browser.context, url + '?scene=bahdanau&preset=three-words&step=2');
  let s = await page.evaluate(() => window.playground.getState());
  assert.deepEqual([s.results.n, s.results.T], [3, 3]);
  await screenshot(page, 'bahdanau-three-words.png');
  // A Chinese source sentence, by the page API: one token per character.
  assert.deepEqual(await page.evaluate(() => window.playground.setState({ preset: 'chinese', lang: 'zh', step: 3 })), { ok: true });
  s = await page.evaluate(() => window.playground.getState());
  assert.equal(s.results.n, 8);
  await screenshot(page, 'bahdanau-chinese-zh.png');
  // The seed changes the alignment: nothing is learned.
  const a42 = s.results.alignment;
  await page.evaluate(() => window.playground.setState({ seed: 7 }));
  const s7 = await page.evaluate(() => window.playground.getState());
  assert.notDeepEqual(s7.results.alignment, a42);
  // setState(getState()) round-trips.
  assert.deepEqual(await page.evaluate((d) => window.playground.setState(d), s7), { ok: true });
  // Bad input: refused, a message on screen, nothing changes.
  for (const [doc, says] of [[{ source: '' }, /source has no words/], [{ d_h: 0 }, /d_h must be between 1 and 64/],
    [{ target: 'w '.repeat(40) }, /target has 40 tokens; the limit is 32/], [{ d_a: 'x' }, /d_a must be a number/]]) {
    const bad = await page.evaluate((d) => window.playground.setState(d), doc);
    assert.equal(bad.ok, false, JSON.stringify(doc));
    assert.match(bad.error, says);
    const after = await page.evaluate(() => window.playground.getState());
    assert.deepEqual(after.results, s7.results, JSON.stringify(doc));
    assert.ok(after.errors.length >= 1, 'the message is on screen');
  }
  await screenshot(page, 'bahdanau-bad-input-zh.png');
  // Typing into the source field (English page): click it, select all, type.
  await page.evaluate(() => window.playground.setState({ lang: 'en', preset: 'notes', step: 0 }));
  await frames(page, 3);
  await page.mouse.click(160, 223);
  await frames(page, 2);
  await page.keyboard.press('Control+A');
  await page.keyboard.type('le chien dort');
  await frames(page, 4);
  const typed = await page.evaluate(() => window.playground.getState({ matrices: false }));
  assert.equal(typed.source, 'le chien dort');
  assert.deepEqual(typed.results.source_tokens, ['le', 'chien', 'dort']);
  assert.equal(typed.results.n, 3);
  await screenshot(page, 'bahdanau-typed.png');
  assert.deepEqual(errors, []);
  await page.close();
});

// The trained view (#18): the build's GRU encoder–decoder (checkpoints/bahdanau.apsq, fetched when asked for,
// never on a first visit) on the notes' sentences: every α_t sums to 1, "black" reads "noir" and "cat" reads
// "chat" (the order crosses), the label names the model and its held-out figures; a word outside the model's
// vocabulary is refused by name and the view stays; every stage photographed in English and Chinese.
test('bahdanau scene: the trained view aligns the notes\' sentence across the crossed order', async () => {
  const { page, errors } = await openPage(browser.context, url + '?scene=bahdanau&weights=random');
  const requested = [];
  page.on('request', (r) => { if (r.url().includes('checkpoints/')) requested.push(r.url()); });
  assert.deepEqual(requested, [], 'nothing fetched before the trained view is asked for');
  const set = (doc) => page.evaluate((d) => window.playground.setState(d), doc);
  const state = () => page.evaluate(() => window.playground.getState());
  assert.deepEqual(await set({ weights: 'trained', source: 'le chat noir est assis sur le tapis rouge dans le salon',
    target: 'the black cat is sitting on the red carpet in the living room' }), { ok: true });
  const s = await waitForState(page, (x) => x.results && x.results.trained === true && x.results.checkpoint === 'loaded');
  assert.ok(requested.some((u) => /checkpoints\/bahdanau\.apsq/.test(u)), requested.join(', '));
  const r = s.results;
  assert.equal(s.weights, 'trained');
  assert.deepEqual([r.n, r.T], [12, 14]);
  assert.equal(r.target_tokens[13], '</s>');
  for (const row of r.alignment) assert.ok(Math.abs(row.reduce((a, b) => a + b, 0) - 1) < 1e-5);
  const reads = (t) => r.source_tokens[r.alignment[t].indexOf(Math.max(...r.alignment[t]))];
  assert.equal(reads(1), 'noir');   // black
  assert.equal(reads(2), 'chat');   // cat
  assert.equal(reads(7), 'rouge');  // red
  assert.equal(reads(8), 'tapis');  // carpet
  assert.match(r.label, /^trained on the toy translation \(French → English\), 600 steps: held-out \d+\.\d % of words right, \d+\.\d % of words aligned to their source word$/);
  assert.deepEqual(r.translation, r.target_tokens.slice(0, 13));
  for (const lang of ['en', 'zh']) {
    for (let k = 0; k < stages.length; k++) {
      assert.deepEqual(await set({ lang, step: k }), { ok: true });
      await frames(page, 3);
      await screenshot(page, `bahdanau-trained-${k}-${stages[k]}-${lang}.png`);
    }
  }
  assert.deepEqual(await set({ lang: 'en' }), { ok: true });
  // A word the model never saw: refused by name, the view as it was.
  const bad = await set({ source: 'le chat violet dort' });
  assert.equal(bad.ok, false);
  assert.match(bad.error, /'violet'/);
  assert.deepEqual((await state()).results.alignment, r.alignment);
  // The document comes back as it is.
  const doc = await state();
  assert.deepEqual(await set(doc), { ok: true });
  assert.deepEqual(errors, []);
});

// The scene opens on the trained model (#18): a bare link fetches the checkpoint and shows it; the seeded view
// is one click (or weights=random) away.
test('bahdanau scene: a bare link opens trained', async () => {
  const { page, errors } = await openPage(browser.context, url + '?scene=bahdanau');
  const s = await waitForState(page, (x) => x.results && x.results.trained === true && x.results.checkpoint === 'loaded');
  assert.equal(s.weights, 'trained');
  assert.equal(s.source, 'le chat noir est assis sur le tapis rouge dans le salon');
  await frames(page, 3);
  await screenshot(page, 'bahdanau-opens-trained.png');
  assert.deepEqual(await page.evaluate(() => window.playground.setState({ weights: 'random' })), { ok: true });
  assert.equal((await page.evaluate(() => window.playground.getState({ matrices: false }))).results.trained, false);
  assert.deepEqual(errors, []);
});

// The build's recipe trained in the page (#18, the training panel): when done, the trained view shows this page's
// model, labelled so; reset brings the build's back.
test('bahdanau scene: the recipe trained in the page becomes the trained view', async () => {
  const { page, errors } = await openPage(browser.context, url + '?scene=bahdanau&step=3');
  const set = (doc) => page.evaluate((d) => window.playground.setState(d), doc);
  let s = await waitForState(page, (x) => x.results && x.results.trained === true && x.results.checkpoint === 'loaded');
  const build = s.results.label;
  assert.deepEqual(await set({ training: 'start' }), { ok: true });
  const t0 = Date.now();
  s = await waitForState(page, (x) => x.results && x.results.label && x.results.label.startsWith('trained in this page'), 120000, 500);
  const seconds = (Date.now() - t0) / 1000;
  console.log('bahdanau in the page:', JSON.stringify({ seconds, longest_slice_ms: s.training.longest_slice_ms, label: s.results.label }));
  assert.equal(s.training.state, 'done');
  assert.ok(s.training.runs[0].heldout_accuracy >= 0.95, `${s.training.runs[0].heldout_accuracy}`);
  assert.ok(s.training.runs[0].alignment >= 0.90, `words aligned: ${s.training.runs[0].alignment}`);  // determiners included
  assert.equal(s.results.trained, true);
  await frames(page, 3);
  await screenshot(page, 'bahdanau-trained-in-page.png');
  assert.deepEqual(await set({ training: 'reset' }), { ok: true });
  s = await waitForState(page, (x) => x.results && x.results.trained === true && x.results.label === build);
  assert.equal(s.training.state, 'idle');
  assert.deepEqual(errors, []);
});

// With the controls hidden (a phone upright) the stage alone asks for the checkpoint: the scene still opens trained.
test('bahdanau scene: a phone opens trained too', async () => {
  const { page, errors } = await openPage(browser.context, url + '?scene=bahdanau&step=2', { viewport: { width: 390, height: 844 } });
  const s = await waitForState(page, (x) => x.results && x.results.trained === true && x.results.checkpoint === 'loaded');
  assert.equal(s.weights, 'trained');
  await frames(page, 3);
  await screenshot(page, 'bahdanau-opens-trained-phone.png');
  assert.deepEqual(errors, []);
});

test('bahdanau scene: the whole alignment of a long sentence on a phone labels every target word', async () => {
  // 28 × 30 words at 390 px: square cells 11 px wide cut the rows below the text and every other word went
  // unlabelled; the rows now keep the labels' height (the stage scrolls) while the columns stay width-bound.
  const words = (w, n) => Array.from({ length: n }, (_, i) => w + i).join(' ');
  const q = `?scene=bahdanau&weights=random&source=${encodeURIComponent(words('mot', 30))}&target=${encodeURIComponent(words('word', 28))}`;
  const { page, errors } = await openPage(browser.context, url + q, { viewport: { width: 390, height: 844 } });
  const count = (await page.evaluate(() => window.playground.getState({ matrices: false }))).step.count;
  await page.evaluate((k) => window.playground.setState({ step: k }), count - 1);
  await frames(page, 4);
  const a = (await page.evaluate(() => window.playground.getState({ matrices: false }))).view.matrices.find((m) => m.id === 'α');
  assert.ok(a, 'the whole alignment is drawn');
  assert.equal(a.rows, 28);
  assert.equal(a.row_labels, 28, `row labels ${a.row_labels} of 28 (cells ${a.cell_w.toFixed(1)}×${a.cell_h.toFixed(1)} px)`);
  assert.ok(a.col_labels >= 10, `column labels ${a.col_labels} of 30`);
  await screenshot(page, 'bahdanau-phone-long-alignment.png');
  assert.deepEqual(errors, []);
  await page.close();
});
