// Browser test of the scene "The Seq2Seq bottleneck" (?scene=bottleneck): the encoder reading the notes'
// sentence, c beside the source numbers, the probe's R² per position and against the length; every stage
// photographed at 1280×720 in English and Chinese (build/screenshots/bottleneck-*.png); the URL parameters,
// hover read-outs, and bad input refused with a message while the last good state stays.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist, launch, openPage, screenshot, frames } from './helpers.mjs';

let server, url, browser;
before(async () => { ({ server, url } = await serveDist()); browser = await launch(); });
after(async () => { await browser.close(); server.close(); });

const stages = ['read', 'compress', 'probe', 'grow'];

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
