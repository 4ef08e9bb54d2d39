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
