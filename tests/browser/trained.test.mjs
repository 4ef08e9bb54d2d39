// Browser test of the SDPA scene's trained view (preset "it-trained", issue 16 item 4): a bare page fetches no
// checkpoint; the preset fetches the build's (dist/checkpoints/coref.aptc) and shows the deciding layer, whose
// "it" row points at "animal"; "wide" moves it to "street"; an unknown word is named and changes nothing; the
// other layer is one field away; setState(getState()) and a link restore the view; a broken, truncated or
// foreign checkpoint leaves a message and the weights the scene had. Screenshots at 1280×720 in English and
// Chinese (build/screenshots/sdpa-trained-en.png, -zh.png).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { serveDist, launch, openPage, screenshot, frames, dist, waitForState } from './helpers.mjs';

let server, url, browser;
before(async () => { ({ server, url } = await serveDist()); browser = await launch(); });
after(async () => { await browser.close(); server.close(); });

const state = (page, opts) => page.evaluate((o) => window.playground.getState(o), opts);
const set = (page, doc) => page.evaluate((d) => window.playground.setState(d), doc);
const waitFor = (page, pred, ms = 15000) => waitForState(page, pred, ms, 50);
const argmax = (row) => row.reduce((b, v, j) => (v > row[b] ? j : b), 0);
const itRow = (s) => s.matrices.weights[s.tokens.indexOf('it')];
const checkpointRequests = (page) => {
  const seen = [];
  page.on('request', (r) => { if (/checkpoints\//.test(r.url())) seen.push(r.url()); });
  return seen;
};

test('a bare page fetches no checkpoint; the preset loads it and "it" points at "animal"; "wide" moves it to "street"', async () => {
  const page = await browser.context.newPage();
  const seen = checkpointRequests(page);
  try {
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(url);
    await page.evaluate(() => window.playground.ready.then(() => true));
    await frames(page, 10);
    let s = await state(page);
    assert.equal(s.weights, 'random');
    assert.equal(s.checkpoint, 'none');
    assert.deepEqual(seen, [], 'the first visit downloads no checkpoint');

    assert.deepEqual(await set(page, { preset: 'it-trained' }), { ok: true });
    s = await waitFor(page, (x) => x.checkpoint !== 'loading' && x.checkpoint !== 'none');
    assert.equal(s.weights, 'trained', JSON.stringify({ checkpoint: s.checkpoint, errors: s.errors }));
    assert.equal(seen.length, 1, seen.join(', '));
    assert.equal(s.checkpoint, 'loaded');
    assert.equal(s.layer, 2);
    assert.equal(s.recipe.task, 'coref');
    assert.equal(s.recipe.steps, 1500);
    assert.match(s.label, /^trained on coreference, 1500 steps, held-out accuracy \d+\.\d %$/);
    assert.equal(s.trained.step, 1500);
    assert.ok(s.trained.heldout_accuracy >= 0.95, String(s.trained.heldout_accuracy));
    assert.equal(s.d_k, 16);
    assert.equal(s.mask, undefined);  // no mask field: the trained view hides nothing
    assert.equal(s.matrices.Q.length, 11);
    assert.equal(s.matrices.Q[0].length, 16);
    assert.equal(s.tokens[argmax(itRow(s))], 'animal');
    await screenshot(page, 'sdpa-trained-en.png');

    assert.deepEqual(await set(page, { text: "the animal didn't cross the street because it was too wide" }), { ok: true });
    s = await state(page);
    assert.equal(s.weights, 'trained');
    assert.equal(s.tokens[argmax(itRow(s))], 'street');
    await screenshot(page, 'sdpa-trained-wide-en.png');

    // A word outside the vocabulary: named, nothing changes.
    const before = JSON.stringify(s.matrices.weights);
    const r = await set(page, { text: "the zebra didn't cross the street because it was too wide" });
    assert.equal(r.ok, false);
    assert.match(r.error, /"zebra"/);
    s = await state(page);
    assert.equal(JSON.stringify(s.matrices.weights), before);
    assert.ok(s.errors.some((e) => /zebra/.test(e)), JSON.stringify(s.errors));

    // The other layer, one field away; and back.
    assert.deepEqual(await set(page, { layer: 1 }), { ok: true });
    s = await state(page);
    assert.equal(s.layer, 1);
    assert.notEqual(JSON.stringify(s.matrices.weights), before);
    assert.deepEqual(await set(page, { layer: 2 }), { ok: true });

    // Chinese: the same view, labelled in Chinese.
    assert.deepEqual(await set(page, { lang: 'zh', text: "the animal didn't cross the street because it was too tired" }), { ok: true });
    await screenshot(page, 'sdpa-trained-zh.png');
    assert.deepEqual(await set(page, { lang: 'en' }), { ok: true });
    assert.equal(seen.length, 1, 'fetched once');
    assert.deepEqual(errors, []);
  } finally { await page.close(); }
});

test('setState(getState()) and a link restore the trained view (the link loads the checkpoint)', async () => {
  const { page } = await openPage(browser.context, url + '?scene=sdpa&preset=it-trained');
  try {
    let s = await waitFor(page, (x) => x.checkpoint !== 'loading' && x.checkpoint !== 'none');
    assert.equal(s.weights, 'trained');
    assert.equal(s.tokens[argmax(itRow(s))], 'animal');
    assert.deepEqual(await set(page, { text: "the animal didn't cross the street because it was too wide", layer: 2 }), { ok: true });
    s = await state(page);
    assert.deepEqual(await set(page, s), { ok: true });
    const again = await state(page);
    assert.deepEqual(again.matrices, s.matrices);
    const link = await page.evaluate(() => window.playground.link());
    assert.match(link, /weights=trained/);
    const { page: other } = await openPage(browser.context, link);
    try {
      const o = await waitFor(other, (x) => x.checkpoint !== 'loading' && x.checkpoint !== 'none');
      assert.equal(o.weights, 'trained');
      assert.equal(o.text, s.text);
      assert.equal(o.layer, 2);
      assert.deepEqual(o.matrices.weights, s.matrices.weights);
      assert.equal(o.tokens[argmax(itRow(o))], 'street');
    } finally { await other.close(); }
  } finally { await page.close(); }
});

test('a broken, truncated or foreign checkpoint: a message, and the scene keeps the weights it had', async () => {
  const good = fs.readFileSync(path.join(dist, 'checkpoints', 'coref.aptc'));
  const foreign = Buffer.from(good);
  foreign[4] = 9;  // another version
  const cases = [
    ['missing', null, /could not be fetched|HTTP 404/],
    ['truncated', good.subarray(0, 300), /truncated/],
    ['another version', foreign, /version 9/],
    ['not a checkpoint', Buffer.from('hello, this is not a checkpoint at all'), /not a checkpoint/],
  ];
  for (const [name, body, message] of cases) {
    const page = await browser.context.newPage();
    try {
      await page.route('**/checkpoints/coref.aptc*', (route) => (body ? route.fulfill({ status: 200, body, contentType: 'application/octet-stream' }) : route.fulfill({ status: 404, body: 'no' })));
      await page.goto(url + '?scene=sdpa&text=I%20love%20cats');
      await page.evaluate(() => window.playground.ready.then(() => true));
      const before = await state(page);
      assert.deepEqual(await set(page, { preset: 'it-trained' }), { ok: true });
      const s = await waitFor(page, (x) => x.checkpoint === 'failed');
      assert.equal(s.checkpoint, 'failed', name);
      assert.match(s.checkpoint_error, message, name);
      assert.ok(s.errors.some((e) => message.test(e)), `${name}: ${JSON.stringify(s.errors)}`);
      assert.equal(s.weights, 'random', name);
      assert.deepEqual(s.matrices.weights, before.matrices.weights, name);
      // Asked again: refused at once with the same message, nothing changes.
      const r = await set(page, { preset: 'it-trained' });
      assert.equal(r.ok, false, name);
      if (name === 'truncated') await screenshot(page, 'sdpa-trained-broken-en.png');
    } finally { await page.close(); }
  }
});

// The multi-head scene's trained heads (preset "trained"): the build's heads checkpoint (dist/checkpoints/heads.aptc,
// fetched when first asked for), its two heads' maps with what each reads, measured on the held-out set; a link
// restores the view; the coreference checkpoint served in its place is refused by name.
test('multi-head scene: the trained heads and what each reads, a link restores them, another task is refused', async () => {
  const page = await browser.context.newPage();
  const seen = checkpointRequests(page);
  try {
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(url + '?scene=multihead');
    await page.evaluate(() => window.playground.ready.then(() => true));
    await frames(page, 5);
    const get = (o) => page.evaluate((x) => window.playground.getState(x), o);
    let s = await get();
    assert.equal(s.weights, 'random');
    assert.equal(s.results.label, 'random, seed 42');
    assert.deepEqual(seen, [], 'no checkpoint before a trained view is asked for');
    assert.deepEqual(await set(page, { preset: 'trained', step: 1 }), { ok: true });
    await waitForState(page, (x) => x.results && x.results.checkpoint === 'loaded', 15000, 50);
    s = await get();
    assert.equal(s.weights, 'trained');
    assert.equal(seen.length, 1, seen.join(', '));
    assert.match(seen[0], /checkpoints\/heads\.aptc/);
    assert.match(s.results.label, /^trained on naming the referent, 1500 steps, held-out accuracy \d+\.\d %$/);
    assert.equal(s.h, 2);
    assert.equal(s.results.weights.length, 2);
    assert.equal(s.results.trained.task, 'heads');
    assert.ok(s.results.trained.heldout_accuracy >= 0.95, String(s.results.trained.heldout_accuracy));
    const reads = s.results.trained.head_patterns.map((p) => p.reads);
    assert.equal(reads.length, 2);
    assert.notEqual(reads[0], reads[1], 'the two heads read different words');
    const it = s.results.tokens.indexOf('it');
    const tired = s.results.weights.map((A) => A[it]);
    await screenshot(page, 'multihead-trained-en.png');
    // The adjective flips what the heads' "it" rows read.
    assert.deepEqual(await set(page, { text: "the animal didn't cross the street because it was too wide" }), { ok: true });
    s = await get();
    const moved = Math.max(...s.results.weights.map((A, h) => Math.max(...A[it].map((v, j) => Math.abs(v - tired[h][j])))));
    assert.ok(moved > 0.1, String(moved));
    assert.deepEqual(await set(page, { lang: 'zh' }), { ok: true });
    await screenshot(page, 'multihead-trained-zh.png');
    assert.deepEqual(await set(page, { lang: 'en' }), { ok: true });
    // A size the layer fixes: refused with a message, nothing changes.
    const r = await set(page, { h: 4 });
    assert.equal(r.ok, false);
    assert.deepEqual((await get()).results.weights, s.results.weights);
    // The link: the same trained heads in a new page.
    const link = await page.evaluate(() => window.playground.link());
    assert.match(link, /weights=trained/);
    const { page: other } = await openPage(browser.context, link);
    try {
      await waitForState(other, (x) => x.results && x.results.checkpoint === 'loaded', 15000, 50);
      const o = await other.evaluate(() => window.playground.getState());
      assert.equal(o.weights, 'trained');
      assert.deepEqual(o.results.weights, s.results.weights);
    } finally { await other.close(); }
    // On a phone, where the controls start hidden, the link loads the trained heads too (the stage fetches).
    const { page: phone } = await openPage(browser.context, link, { viewport: { width: 390, height: 844 } });
    try {
      await waitForState(phone, (x) => x.results && x.results.checkpoint === 'loaded', 15000, 50);
      const o = await phone.evaluate(() => window.playground.getState());
      assert.equal(o.results.checkpoint, 'loaded');
      assert.deepEqual(o.results.weights, s.results.weights);
      await screenshot(phone, 'multihead-trained-phone.png');
    } finally { await phone.close(); }
    assert.deepEqual(errors, []);
  } finally { await page.close(); }
  // The coreference checkpoint where the heads' should be: refused by name, the weights stay.
  const wrong = await browser.context.newPage();
  try {
    const coref = fs.readFileSync(path.join(dist, 'checkpoints', 'coref.aptc'));
    await wrong.route('**/checkpoints/heads.aptc*', (route) => route.fulfill({ status: 200, body: coref, contentType: 'application/octet-stream' }));
    await wrong.goto(url + '?scene=multihead');
    await wrong.evaluate(() => window.playground.ready.then(() => true));
    const before = await wrong.evaluate(() => window.playground.getState());
    assert.deepEqual(await set(wrong, { preset: 'trained' }), { ok: true });
    await waitForState(wrong, (x) => x.results && x.results.checkpoint === 'failed', 15000, 50);
    const s = await wrong.evaluate(() => window.playground.getState());
    assert.match(s.results.checkpoint_error, /"coref"/);
    assert.equal(s.weights, 'random');
    assert.deepEqual(s.results.weights, before.results.weights);
    assert.ok(s.errors.some((e) => /coref/.test(e)), JSON.stringify(s.errors));
  } finally { await wrong.close(); }
});

// The import scene's trained example (preset "trained"): nothing fetched before it is asked for; then the build's
// example model (dist/checkpoints/example.aptc: coreference, 2 layers × 2 heads) gives every head of both layers
// for the notes' sentence, with its words as tokens and the model's measured label; layer 2's pointer head puts
// "it" on "animal". Screenshots in English and Chinese.
test('import scene: opens on the trained example, every head of a 2 × 2 trained model, with tokens and its measured label', async () => {
  const page = await browser.context.newPage();
  const seen = checkpointRequests(page);
  try {
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    // The scene opens on it: the checkpoint is fetched once, and the document names it from the start.
    await page.goto(url + '?scene=import');
    await page.evaluate(() => window.playground.ready.then(() => true));
    let s = await state(page);
    assert.equal(s.source, 'trained');
    s = await waitFor(page, (x) => x.checkpoint === 'loaded' && x.source === 'trained' && x.results.layers === 2);
    assert.equal(seen.length, 1, seen.join(', '));
    // The built-in example a preset away, and back: the model is not fetched again.
    assert.deepEqual(await set(page, { preset: 'example' }), { ok: true });
    assert.equal((await state(page)).results.layers, 1);
    assert.deepEqual(await set(page, { preset: 'trained' }), { ok: true });
    s = await waitFor(page, (x) => x.source === 'trained' && x.results.layers === 2);
    assert.equal(seen.length, 1, seen.join(', '));
    assert.match(seen[0], /checkpoints\/example\.aptc/);
    assert.equal(s.results.layers, 2);
    assert.equal(s.results.heads, 2);
    assert.equal(s.tokens.length, 11);
    assert.ok(s.results.rows_sum_to_one);
    assert.match(s.results.label, /^trained on coreference, 1500 steps, held-out accuracy \d+\.\d %, 2 layers × 2 heads$/);
    const pointer = s.weights[1][0];
    assert.equal(s.tokens[argmax(pointer[s.tokens.indexOf('it')])], 'animal');
    assert.deepEqual(await set(page, { layer: 1, head: 0 }), { ok: true });
    await screenshot(page, 'import-trained-en.png');
    assert.deepEqual(await set(page, { lang: 'zh', step: 1 }), { ok: true });
    await screenshot(page, 'import-trained-one-head-zh.png');
    // The document comes back as it is, in a new page too (the weights travel in it).
    const doc = await state(page);
    assert.deepEqual(await set(page, doc), { ok: true });
    assert.deepEqual(errors, []);
  } finally { await page.close(); }
});
