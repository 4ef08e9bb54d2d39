// Browser test of the offline single file (dist/attention-playground.html, tools/make_single_file.py): opened
// straight from disk (file://), with no server, it starts, computes, switches scenes and loads the larger
// Chinese font from inside itself.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { dist, launch, screenshot, frames } from './helpers.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser.close(); });

test('the single file runs from file://', async () => {
  const file = path.join(dist, 'attention-playground.html');
  assert.ok(fs.existsSync(file), 'dist/attention-playground.html is built');
  const page = await browser.context.newPage();
  const errors = [];
  const requests = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('request', (r) => { if (!r.url().startsWith('data:') && !r.url().startsWith('blob:')) requests.push(r.url()); });
  await page.goto(pathToFileURL(file).href + '?scene=masks&lang=zh');
  await page.evaluate(() => window.playground.ready.then(() => true));
  let s = await page.evaluate(() => window.playground.getState({ matrices: false }));
  assert.equal(s.scene, 'masks');
  assert.deepEqual(s.results.lengths, [3, 6, 6, 1]);
  // Chinese beyond the interface's own characters: the font comes from inside the file.
  assert.deepEqual(await page.evaluate(() => window.playground.setState({ scene: 'sdpa', text: '鹦鹉螺旋桨' })), { ok: true });
  for (let k = 0; k < 60; k++) {
    await frames(page, 1);
    s = await page.evaluate(() => window.playground.getState({ matrices: false }));
    if (s.fonts.extra_loaded && s.fonts.missing === '') break;
  }
  assert.equal(s.fonts.extra_loaded, true, s.fonts.error);
  assert.equal(s.fonts.missing, '');
  await screenshot(page, 'offline-file.png');
  // A race trains in slices of the frame loop here (the file has no worker files beside it), to the same end.
  assert.deepEqual(await page.evaluate(() => window.playground.setState({ scene: 'luong' })), { ok: true });
  assert.deepEqual(await page.evaluate(() => window.playground.setState({ training: 'start' })), { ok: true });
  for (let k = 0; k < 240 && s.training?.state !== 'done'; k++) {
    await page.waitForTimeout(250);
    s = await page.evaluate(() => window.playground.getState({ matrices: false }));
  }
  assert.equal(s.training.state, 'done');
  assert.equal(s.training.where, 'page');
  assert.ok(s.training.runs.every((r) => r.heldout_accuracy >= 0.95), JSON.stringify(s.training.runs.map((r) => r.heldout_accuracy)));
  // Nothing was fetched but the file itself.
  assert.deepEqual(requests.filter((u) => !u.startsWith('file://') || !u.includes('attention-playground.html')), []);
  assert.deepEqual(errors, []);
  await page.close();
});
