// Browser test of the training panel that the SDPA, self-attention and multi-head scenes share (issue 16 item 3):
// in the trained view, Reset shows the run's untrained start (labelled random) and Train trains in the Web Worker
// while the view follows the weights: the "it" row moves onto "animal", the curves and the step counter grow, no
// frame takes 50 ms; at the end the weights are the build's checkpoint's (the same recipe, to float rounding:
// native and wasm sum in other orders); another seed's run
// comes back from setState(getState()) and from its link by training again; a learning rate of 0 is refused on
// screen. Screenshots
// of each panel at 1280×720 in English and Chinese (build/screenshots/panel-*.png).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist, launch, openPage, screenshot, frames, waitForState } from './helpers.mjs';

let server, url, browser;
before(async () => { ({ server, url } = await serveDist()); browser = await launch(); });
after(async () => { await browser.close(); server.close(); });

const state = (page, opts) => page.evaluate((o) => window.playground.getState(o), opts);
const set = (page, doc) => page.evaluate((d) => window.playground.setState(d), doc);
const waitFor = (page, pred, ms = 60000) => waitForState(page, pred, ms, 50);
const argmax = (row) => row.reduce((b, v, j) => (v > row[b] ? j : b), 0);
const itRow = (s) => s.matrices.weights[s.tokens.indexOf('it')];

// The longest frame (the app's frame function, timed by the main-loop hooks) while `work` runs.
async function longestFrame(page, work) {
  await page.evaluate(() => {
    window.__frames = [];
    let t0 = 0;
    Module.preMainLoop = () => { t0 = performance.now(); };
    Module.postMainLoop = () => { window.__frames.push(performance.now() - t0); };
  });
  const result = await work();
  const ms = await page.evaluate(() => { Module.preMainLoop = Module.postMainLoop = null; return window.__frames.slice(); });
  return { result, longest: Math.max(0, ...ms), frames: ms.length, ms };
}

test('SDPA: Reset shows the untrained start, Train brings "it" → "animal" back while the view follows, in the page', async () => {
  const { page, errors } = await openPage(browser.context, url + '?scene=sdpa&preset=it-trained');
  try {
    let s = await waitFor(page, (x) => x.checkpoint === 'loaded' && x.weights === 'trained');
    const built = JSON.stringify(s.matrices.Q);
    assert.equal(s.training.state, 'idle');
    assert.equal(s.training.recipe.seed, 1);
    assert.equal(s.training.host, 'Web Worker');
    await screenshot(page, 'panel-sdpa-built-en.png');

    assert.deepEqual(await set(page, { training: 'reset' }), { ok: true });
    s = await waitFor(page, (x) => x.trained.step === 0 && x.label === 'random, seed 1');
    assert.notEqual(JSON.stringify(s.matrices.Q), built);
    await screenshot(page, 'panel-sdpa-step0-en.png');

    const seen = new Set();
    const { longest, frames: count, ms } = await longestFrame(page, async () => {
      // Train, pause on the way (the panel opened by itself, the curves and the map half learned), train on.
      assert.deepEqual(await set(page, { training: 'start' }), { ok: true });
      let p = await waitFor(page, (x) => { seen.add(x.trained.step); return x.trained.step >= 100; });
      assert.deepEqual(await set(page, { training: 'pause' }), { ok: true });
      p = await waitFor(page, (x) => x.training.state === 'paused');
      assert.ok(p.training.step < 1500, `paused at ${p.training.step}`);
      await screenshot(page, 'panel-sdpa-paused-en.png');
      assert.deepEqual(await set(page, { training: 'start' }), { ok: true });
      return waitFor(page, (x) => { seen.add(x.trained.step); return x.training.state === 'done' && x.trained.step === 1500; }, 90000);
    });
    s = await state(page);
    console.log(`view steps seen ${[...seen].length}, longest frame ${longest.toFixed(1)} ms over ${count} frames;`,
      `frames over 30 ms: ${ms.filter((x) => x > 30).map((x) => x.toFixed(1)).join(', ')}`);
    assert.ok(seen.size >= 3, `the view followed the run: ${[...seen].join(', ')}`);
    // The page kept drawing while the worker trained (how long its frames were is ./build.sh bench's figure, not a
    // pass/fail one: a shared machine's speed must not fail a test).
    assert.ok(count >= 10, `frames kept coming while it trained: ${count}`);
    // The same recipe: the build's model again. The build trained it natively (SSE2), the worker in wasm (SIMD128),
    // whose sums run in another order: equal to float rounding, not bit for bit.
    const builtQ = JSON.parse(built);
    const diff = Math.max(...s.matrices.Q.flatMap((row, i) => row.map((v, j) => Math.abs(v - builtQ[i][j]))));
    console.log(`largest difference to the build's Q: ${diff}`);
    assert.ok(diff < 1e-3, `largest difference to the build's Q ${diff}`);
    assert.equal(s.tokens[argmax(itRow(s))], 'animal');
    assert.match(s.label, /^trained on coreference, 1500 steps, held-out accuracy \d+\.\d %$/);
    assert.ok(s.training.heldout_accuracy >= 0.95);
    assert.ok(s.training.curve.length > 10);
    assert.ok(s.training.steps_per_second > 0);
    await screenshot(page, 'panel-sdpa-trained-en.png');

    // "wide": the trained model's row moves to "street".
    assert.deepEqual(await set(page, { text: "the animal didn't cross the street because it was too wide" }), { ok: true });
    s = await state(page);
    assert.equal(s.tokens[argmax(itRow(s))], 'street');

    // A learning rate of 0 is refused, on screen, and the recipe stays.
    const r = await set(page, { training: { recipe: { ...s.training.recipe, learning_rate: 0 } } });
    assert.equal(r.ok, false);
    assert.match(r.error, /learning rate/);
    s = await state(page);
    assert.equal(s.training.recipe.learning_rate, 0.01);
    assert.ok(s.errors.some((e) => /learning rate/.test(e)), JSON.stringify(s.errors));
    assert.deepEqual(errors, []);
  } finally { await page.close(); }
});

test('SDPA: another seed trains in the page, and setState(getState()) on a fresh page trains the same weights again', async () => {
  const { page, errors } = await openPage(browser.context, url + '?scene=sdpa&preset=it-trained');
  let doc, link;
  try {
    let s = await waitFor(page, (x) => x.checkpoint === 'loaded');
    assert.deepEqual(await set(page, { training: { recipe: { ...s.training.recipe, seed: 2, steps: 400 } } }), { ok: true });
    assert.deepEqual(await set(page, { training: 'start' }), { ok: true });
    s = await waitFor(page, (x) => x.training.state === 'done' && x.trained.step === 400);
    assert.equal(s.recipe.seed, 2);
    assert.match(s.label, /^trained on coreference, 400 steps/);
    doc = s;
    link = await page.evaluate(() => window.playground.link());
    assert.deepEqual(errors, []);
  } finally { await page.close(); }
  const second = await openPage(browser.context, url + '?scene=sdpa&preset=it-trained');
  try {
    await waitFor(second.page, (x) => x.checkpoint === 'loaded');
    assert.deepEqual(await set(second.page, doc), { ok: true });
    let s = await state(second.page);
    assert.equal(s.training.state, 'running', 'the page trains the run the document names');
    s = await waitFor(second.page, (x) => x.training.state === 'done' && x.trained.step === 400);
    assert.equal(JSON.stringify(s.matrices.Q), JSON.stringify(doc.matrices.Q));
    assert.equal(s.label, doc.label);
    assert.deepEqual(second.errors, []);
  } finally { await second.page.close(); }
  // The link names the model (train_seed, train_steps, train_lr, train_step): a third page trains it from the link.
  assert.match(link, /train_seed=2/);
  assert.match(link, /train_steps=400/);
  assert.match(link, /train_step=400/);
  const third = await openPage(browser.context, link);
  try {
    const s = await waitFor(third.page, (x) => x.training.state === 'done' && x.trained && x.trained.step === 400);
    assert.equal(JSON.stringify(s.matrices.Q), JSON.stringify(doc.matrices.Q));
    assert.deepEqual(third.errors, []);
  } finally { await third.page.close(); }
});

for (const lang of ['en', 'zh']) {
  test(`self-attention and multi-head: the panel trains the view's model (${lang})`, async () => {
    const { page, errors } = await openPage(browser.context, url + `?scene=self&preset=trained&lang=${lang}`);
    try {
      let s = await waitFor(page, (x) => x.results.checkpoint === 'loaded' && x.weights === 'trained');
      assert.deepEqual(await set(page, { training: 'reset' }), { ok: true });
      s = await waitFor(page, (x) => x.results.label === 'random, seed 1');
      assert.deepEqual(await set(page, { training: 'start' }), { ok: true });
      s = await waitFor(page, (x) => x.training.state === 'done' && x.results.trained.step === 1500);
      assert.match(s.results.label, /^trained on coreference, 1500 steps/);
      await frames(page, 4);
      await screenshot(page, `panel-self-${lang}.png`);

      assert.deepEqual(await set(page, { scene: 'multihead', preset: 'trained' }), { ok: true });
      s = await waitFor(page, (x) => x.results.checkpoint === 'loaded' && x.results.trained);
      assert.deepEqual(await set(page, { training: { recipe: { ...s.training.recipe, steps: 500 } } }), { ok: true });
      assert.deepEqual(await set(page, { training: 'reset' }), { ok: true });
      assert.deepEqual(await set(page, { training: 'start' }), { ok: true });
      s = await waitFor(page, (x) => x.training.state === 'done' && x.results.trained.step === 500 && x.results.trained.head_patterns.length === 2);
      assert.match(s.results.label, /^trained on naming the referent, 500 steps/);
      await frames(page, 4);
      await screenshot(page, `panel-multihead-${lang}.png`);
      assert.deepEqual(errors, []);
    } finally { await page.close(); }
  });
}
