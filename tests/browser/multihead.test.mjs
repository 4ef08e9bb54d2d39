// Browser test of the scene "Multi-head attention" (?scene=multihead): h heads on the notes' sentence, every
// head's weights, the concatenation and W^O, the parameter count 4·d_model² for every h; every stage photographed
// at 1280×720 in English and Chinese (build/screenshots/multihead-*.png); bad input refused with a message.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist, launch, openPage, screenshot, frames } from './helpers.mjs';

let server, url, browser;
before(async () => { ({ server, url } = await serveDist()); browser = await launch(); });
after(async () => { await browser.close(); server.close(); });

const stages = ['split', 'heads', 'concat', 'params'];

test('multihead scene: its numbers, every stage in both languages', async () => {
  const { page, errors } = await openPage(browser.context, url + '?scene=multihead');
  let s = await page.evaluate(() => window.playground.getState());
  assert.equal(s.scene, 'multihead');
  assert.equal(s.text, 'The cat sat on the mat because it was tired');
  assert.equal(s.h, 4);
  assert.equal(s.results.n, 10);
  assert.equal(s.results.d_k, 4);
  assert.equal(s.results.weights.length, 4);
  for (const A of s.results.weights)
    for (const row of A) assert.ok(Math.abs(row.reduce((a, b) => a + b, 0) - 1) < 1e-5);
  assert.equal(s.results.output.length, 10);
  assert.equal(s.results.output[0].length, 16);
  assert.equal(s.results.concat[0].length, 16);
  assert.equal(s.results.param_count.total, 4 * 16 * 16);
  assert.deepEqual(s.results.param_table.map((r) => r.h), [1, 2, 4, 8, 16]);
  for (const r of s.results.param_table) assert.equal(r.total, 1024);
  // The heads differ (measured): not every head has the same mean entropy.
  const ent = s.results.heads.map((h) => h.mean_entropy);
  assert.ok(Math.max(...ent) - Math.min(...ent) > 1e-3, JSON.stringify(ent));
  for (const lang of ['en', 'zh']) {
    for (let k = 0; k < stages.length; k++) {
      await page.evaluate(([k, lang]) => window.playground.setState({ step: k, lang }), [k, lang]);
      await screenshot(page, `multihead-${k}-${stages[k]}-${lang}.png`);
    }
  }
  // Hover a weight of head 1: the scene explains that cell with its tokens and its value.
  await page.evaluate(() => window.playground.setState({ step: 1, lang: 'en' }));
  await frames(page, 2);
  await page.mouse.move(450, 297);
  await frames(page, 3);
  s = await page.evaluate(() => window.playground.getState({ matrices: false }));
  assert.match(String(s.hover), /weights of head 1: query \d+ “\w+” → key \d+ “\w+”: A = 0\.\d+/, String(s.hover));
  await page.mouse.move(5, 710);
  // The heads stage half way: two heads computed, the rest waiting.
  await page.evaluate(() => window.playground.setState({ step: { index: 1, sub: 2 }, lang: 'en' }));
  await screenshot(page, 'multihead-heads-partial.png');
  // h = 8 and the paper's size through the URL: d_k shrinks, the count stays 4·d_model².
  const p8 = await openPage(browser.context, url + '?scene=multihead&h=8&step=1');
  s = await p8.page.evaluate(() => window.playground.getState({ matrices: false }));
  assert.equal(s.results.d_k, 2);
  assert.equal(s.results.param_count.total, 1024);
  await screenshot(p8.page, 'multihead-h8-heads-en.png');
  const paper = await openPage(browser.context, url + '?scene=multihead&preset=paper');
  s = await paper.page.evaluate(() => window.playground.getState({ matrices: false }));
  assert.equal(s.d_model, 512);
  assert.equal(s.results.d_k, 64);
  for (const r of s.results.param_table) assert.equal(r.total, 4 * 512 * 512);
  for (let k = 0; k < stages.length; k++) {
    await paper.page.evaluate((k) => window.playground.setState({ step: k }), k);
    await screenshot(paper.page, `multihead-paper-${k}-${stages[k]}-en.png`);
  }
  assert.deepEqual(errors, []);
  assert.deepEqual(p8.errors, []);
  assert.deepEqual(paper.errors, []);
});

test('multihead scene: bad input refused with a message on screen, last good state kept', async () => {
  const { page, errors } = await openPage(browser.context, url + '?scene=multihead&h=2&step=1');
  const before = await page.evaluate(() => window.playground.getState());
  for (const [doc, re] of [[{ h: 3 }, /must divide/], [{ h: 0 }, /between/], [{ text: '' }, /no tokens/],
    [{ text: 'cat '.repeat(49) }, /limit is 48/], [{ d_model: 10, h: 4 }, /must divide/], [{ mask: 'sideways' }, /mask must be/]]) {
    const r = await page.evaluate((d) => window.playground.setState(d), doc);
    assert.equal(r.ok, false, JSON.stringify(doc));
    assert.match(r.error, re);
    const now = await page.evaluate(() => window.playground.getState());
    assert.deepEqual(now.results, before.results, JSON.stringify(doc));
    assert.equal(now.h, 2);
  }
  const s = await page.evaluate(() => window.playground.getState({ matrices: false }));
  assert.ok(s.errors.length >= 1, 'the message is on screen');
  await screenshot(page, 'multihead-bad-input-en.png');
  await page.evaluate(() => window.playground.setState({ lang: 'zh' }));
  await page.evaluate(() => window.playground.setState({ h: 3 }));
  await screenshot(page, 'multihead-bad-input-zh.png');
  // Typed into the sentence field: a new sentence computes; erased, the field's empty text is refused on screen
  // and the last sentence stays.
  await page.evaluate(() => window.playground.setState({ lang: 'en', h: 2 }));
  await page.mouse.click(160, 448);  // the sentence field (1280×720, controls with a scrollbar; below the weights choice)
  await frames(page, 2);
  await page.keyboard.press('Control+A');
  await page.keyboard.type('the cat sat on it');
  await frames(page, 4);
  let typed = await page.evaluate(() => window.playground.getState({ matrices: false }));
  assert.equal(typed.text, 'the cat sat on it');
  assert.equal(typed.results.n, 5);
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Backspace');
  await frames(page, 4);
  typed = await page.evaluate(() => window.playground.getState({ matrices: false }));
  assert.equal(typed.text, 'the cat sat on it', 'the empty text is refused: the last good sentence stays');
  assert.ok(typed.errors.some((e) => /no tokens/.test(e.text ?? JSON.stringify(e))), JSON.stringify(typed.errors));
  await screenshot(page, 'multihead-typed-empty-en.png');
  // Chinese text through the page API.
  assert.deepEqual(await page.evaluate(() => window.playground.setState({ text: '猫坐在垫子上，因为它累了', h: 4, lang: 'zh' })), { ok: true });
  const zh = await page.evaluate(() => window.playground.getState({ matrices: false }));
  assert.equal(zh.results.n, 12);
  assert.equal(zh.results.heads[0].top_key.length, 12);
  await frames(page, 2);
  await screenshot(page, 'multihead-chinese-sentence.png');
  assert.deepEqual(errors, []);
});
