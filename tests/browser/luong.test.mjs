// Browser test of the scene "Luong: multiplicative attention" (?scene=luong): the encoder and decoder states,
// one decoder step's three scores, the three alignments, the comparison with Bahdanau; every stage
// photographed at 1280×720 in English and Chinese (build/screenshots/luong-*.png); a hover read-out of an
// alignment cell; the dot score explained when d_s ≠ d_h; bad input refused with a message.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist, launch, openPage, screenshot, frames } from './helpers.mjs';

let server, url, browser;
before(async () => { ({ server, url } = await serveDist()); browser = await launch(); });
after(async () => { await browser.close(); server.close(); });

const stages = ['states', 'step', 'alignments', 'compare'];

test('luong scene: the numbers, every stage in both languages, hover', async () => {
  const { page, errors } = await openPage(browser.context, url + '?scene=luong');
  let s = await page.evaluate(() => window.playground.getState());
  assert.equal(s.scene, 'luong');
  assert.equal(s.results.n, 9);
  assert.equal(s.results.T, 9);
  assert.deepEqual(s.results.available, ['dot', 'general', 'concat']);
  assert.equal(s.results.decoder_inputs[0], '<s>');
  assert.equal(s.results.score_params.dot, 0);
  assert.equal(s.results.score_params.general, 16 * 16);
  for (const k of s.results.available) {
    const A = s.results.alignments[k];
    assert.equal(A.length, 9);
    for (const row of A) assert.ok(Math.abs(row.reduce((a, b) => a + b, 0) - 1) < 1e-5, `${k}: a row sums to 1`);
  }
  for (const lang of ['en', 'zh']) {
    for (let k = 0; k < stages.length; k++) {
      const step = k === 1 ? { index: 1, sub: 2 } : k;  // the step stage at t = 3 ("cat")
      await page.evaluate(([step, lang]) => window.playground.setState({ step, lang }), [step, lang]);
      await screenshot(page, `luong-${k}-${stages[k]}-${lang}.png`);
    }
  }
  // Hover over the alignments: the read-out spells out e and α of a cell.
  await page.evaluate(() => window.playground.setState({ step: 2, lang: 'en' }));
  await frames(page, 3);
  let hover = '';
  for (let y = 260; y < 560 && !hover.includes('α ='); y += 20) {
    for (let x = 420; x < 620 && !hover.includes('α ='); x += 25) {
      await page.mouse.move(x, y);
      await frames(page, 2);
      hover = (await page.evaluate(() => window.playground.getState({ matrices: false }))).hover || '';
    }
  }
  assert.match(hover, /t = \d+ .* j = \d+/);
  assert.match(hover, /α = exp\(e − max\)/);
  await screenshot(page, 'luong-hover.png');
  s = await page.evaluate(() => window.playground.getState({ matrices: false }));
  assert.equal(s.step.name, 'alignments');
  assert.deepEqual(errors, []);
});

test('luong scene: dot explained when d_s ≠ d_h, bad input refused with a message, last good state kept', async () => {
  const { page, errors } = await openPage(browser.context, url + '?scene=luong&preset=dot-needs-equal-sizes&step=1');
  let s = await page.evaluate(() => window.playground.getState({ matrices: false }));
  assert.equal(s.d_s, 24);
  assert.deepEqual(s.results.available, ['general', 'concat']);
  assert.deepEqual(s.errors, []);
  await screenshot(page, 'luong-dot-undefined-en.png');
  await page.evaluate(() => window.playground.setState({ step: 2, lang: 'zh' }));
  await screenshot(page, 'luong-dot-undefined-zh.png');
  // Asking for the dot score with these sizes: refused, the message on screen, nothing changes.
  const bad = await page.evaluate(() => window.playground.setState({ score: 'dot', lang: 'en' }));
  assert.equal(bad.ok, false);
  assert.match(bad.error, /same size, got d_s = 24 and d_enc = 16/);
  let after = await page.evaluate(() => window.playground.getState({ matrices: false }));
  assert.equal(after.score, 'all');
  assert.deepEqual(after.results, s.results);
  assert.ok(after.errors.length >= 1, 'the message is on screen');
  await screenshot(page, 'luong-bad-dot.png');
  const empty = await page.evaluate(() => window.playground.setState({ target: '' }));
  assert.equal(empty.ok, false);
  assert.match(empty.error, /target sentence has no tokens/);
  after = await page.evaluate(() => window.playground.getState({ matrices: false }));
  assert.equal(after.target, s.target);
  // A sentence typed in Chinese through the page API.
  assert.deepEqual(await page.evaluate(() => window.playground.setState({ source: '黑猫坐在红地毯上', d_s: 16, lang: 'zh' })), { ok: true });
  s = await page.evaluate(() => window.playground.getState({ matrices: false }));
  assert.equal(s.results.n, 8);
  await page.evaluate(() => window.playground.setState({ step: 2 }));
  await screenshot(page, 'luong-chinese-source.png');
  assert.deepEqual(errors, []);
});
