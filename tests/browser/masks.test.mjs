// Browser test of the scene "Masks and a bug lab" (?scene=masks): the padded batch, the mask, the weights with
// and without a bug, the damage table; every stage photographed at 1280×720 in English and Chinese
// (build/screenshots/masks-*.png); sentences typed into the field (Chinese included) and bad input refused.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist, launch, openPage, screenshot, frames, waitForState, assertDrawnAtRest } from './helpers.mjs';

let server, url, browser;
before(async () => { ({ server, url } = await serveDist()); browser = await launch(); });
after(async () => { await browser.close(); server.close(); });

const stages = ['batch', 'masks', 'weights', 'damage', 'training'];

test('masks scene: every stage in both languages, the bug visible in the row sums, hover', async () => {
  const { page, errors } = await openPage(browser.context, url + '?scene=masks&preset=mask-after-softmax');
  let s = await page.evaluate(() => window.playground.getState());
  assert.equal(s.scene, 'masks');
  assert.equal(s.bug, 'mask-after-softmax');
  assert.deepEqual(s.results.lengths, [3, 6, 6, 1]);
  assert.equal(s.results.L, 6);
  assert.equal(s.results.bugs.length, 8);
  // Mask after softmax: the real rows of the first sentence ("I love cats", padded) sum to less than 1.
  const sums = s.results.weights_bug.slice(0, 3).map((r) => r.reduce((a, b) => a + b, 0));
  assert.ok(sums.some((x) => x < 0.99), JSON.stringify(sums));
  for (const lang of ['en', 'zh']) {
    for (let k = 0; k < stages.length; k++) {
      await page.evaluate(([k, lang]) => window.playground.setState({ step: k, lang, sentence: 0 }), [k, lang]);
      await screenshot(page, `masks-${k}-${stages[k]}-${lang}.png`);
    }
  }
  // Hover a weight cell of the correct matrix: the scene says why it is hidden or visible.
  await page.evaluate(() => window.playground.setState({ step: 2, lang: 'en' }));
  await frames(page, 3);
  s = await page.evaluate(() => window.playground.getState({ matrices: false }));
  assert.equal(s.step.name, 'weights');
  assert.deepEqual(errors, []);
});

test('masks scene opens correct ("no bug") on a padded first sentence: the padding mask shows in the default walk', async () => {
  const { page, errors } = await openPage(browser.context, url + '?scene=masks');
  const s = await page.evaluate(() => window.playground.getState());
  assert.equal(s.bug, 'none');
  assert.equal(s.sentence, 0);
  assert.deepEqual(s.results.lengths, [3, 6, 6, 1]);
  assert.deepEqual(s.results.weights_bug, s.results.weights_correct, 'no bug: the weights shown are the correct ones');
  assert.ok(s.results.damage.max_row_sum_dev < 1e-5);
  // Every [PAD] key of "I love cats" is hidden from its real queries.
  for (let i = 0; i < 3; i++) for (let j = 3; j < 6; j++) assert.equal(s.results.hidden[i][j], 1, `${i},${j}`);
  // The bugs stay one click away: a preset each.
  assert.equal(s.results.bugs.length, 8);
  for (const lang of ['en', 'zh']) {
    for (const [k, name] of [[1, 'mask'], [2, 'weights']]) {
      assert.deepEqual(await page.evaluate(([k, lang]) => window.playground.setState({ step: k, lang }), [k, lang]), { ok: true });
      await screenshot(page, `masks-default-${name}-${lang}.png`);
    }
  }
  assert.deepEqual(await page.evaluate(() => window.playground.setState({ preset: 'mask-after-softmax' })), { ok: true });
  assert.equal((await page.evaluate(() => window.playground.getState({ matrices: false }))).bug, 'mask-after-softmax');
  assert.deepEqual(errors, []);
});

test('masks scene: sentences typed (Chinese too), bad input refused with a message, last good state kept', async () => {
  const { page, errors } = await openPage(browser.context, url + '?scene=masks&step=0');
  // Type into the sentences field: click it, select all, type two lines.
  await page.mouse.click(160, 385);  // inside the sentences field
  await frames(page, 2);
  await page.keyboard.press('Control+A');
  await page.keyboard.type('the cat sat down\nI love cats');
  await frames(page, 4);
  let s = await page.evaluate(() => window.playground.getState({ matrices: false }));
  await screenshot(page, 'masks-typed.png');
  assert.deepEqual(s.sentences, ['the cat sat down', 'I love cats'], JSON.stringify(s.sentences));
  assert.deepEqual(s.results.lengths, [4, 3]);
  // Chinese through the page API (a canvas field takes no IME text yet: issue #8's input overlay).
  assert.deepEqual(await page.evaluate(() => window.playground.setState({ sentences: ['我爱猫', '猫坐在垫子上'], lang: 'zh' })), { ok: true });
  s = await page.evaluate(() => window.playground.getState({ matrices: false }));
  assert.deepEqual(s.results.lengths, [3, 6]);
  await screenshot(page, 'masks-chinese-sentences.png');
  // Bad input through the page API: refused, message on screen, nothing changes.
  const bad = await page.evaluate(() => window.playground.setState({ sentences: ['ok', ''] }));
  assert.equal(bad.ok, false);
  const after = await page.evaluate(() => window.playground.getState({ matrices: false }));
  assert.deepEqual(after.sentences, s.sentences);
  assert.ok(after.errors.length >= 1, 'the message is on screen');
  await screenshot(page, 'masks-bad-input.png');
  const bug = await page.evaluate(() => window.playground.setState({ causal: false, bug: 'causal-transposed' }));
  assert.equal(bug.ok, false);
  assert.match(bug.error, /needs the causal mask/);
  assert.deepEqual(errors, []);
});

// "Train with the bug" (#18): the same tiny causal language model trained with its causal mask, with the mask
// forgotten and with the mask after the softmax, in the page: the bug's training loss ends far lower, and writing on its own it fails where the
// correct model writes the repeat. Both languages photographed.
test('masks scene: a model trained with the causal mask forgotten cheats', async () => {
  const { page, errors } = await openPage(browser.context, url + '?scene=masks&step=4');
  const set = (doc) => page.evaluate((d) => window.playground.setState(d), doc);
  await screenshot(page, 'masks-training-idle-en.png');
  assert.equal((await set({ training: 'go' })).ok, false);
  assert.deepEqual(await set({ training: 'start' }), { ok: true });
  const t0 = Date.now();
  const s = await waitForState(page, (x) => x.training && x.training.state === 'done', 120000, 500);
  const seconds = (Date.now() - t0) / 1000;
  const b = s.results.bug_training;
  console.log('masks bug training:', JSON.stringify({ seconds, longest_slice_ms: s.training.longest_slice_ms, ...b }));
  assert.equal(b.bug, 'causal_forgotten');
  assert.ok(b.train_loss_bug < b.train_loss_correct / 10, `losses ${b.train_loss_bug} vs ${b.train_loss_correct}`);
  assert.ok(b.teacher_forced_accuracy_bug >= 0.99);
  assert.ok(b.generation_accuracy_correct >= 0.9, `correct writes ${b.generation_accuracy_correct}`);
  assert.ok(b.generation_accuracy_bug < b.generation_accuracy_correct - 0.5, `the bug writes ${b.generation_accuracy_bug}`);
  // The second bug, the mask after the softmax: on this budget it learns far less than the correct model.
  const a = b.mask_after_softmax;
  assert.ok(a.train_loss > 10 * b.train_loss_correct, `mask after softmax: loss ${a.train_loss}`);
  assert.ok(a.generation_accuracy < b.generation_accuracy_correct - 0.3, `mask after softmax writes ${a.generation_accuracy}`);
  assert.deepEqual(s.training.runs.map((r) => r.mask), ['causal', 'forgotten', 'after_softmax']);
  // The training ends in a turn that only works (no frame drawn) or in a drawn frame's slice: either way the
  // page draws where it ended, with no input.
  await assertDrawnAtRest(page, 'masks-training');
  for (const lang of ['en', 'zh']) {
    assert.deepEqual(await set({ lang }), { ok: true });
    await frames(page, 3);
    await screenshot(page, `masks-training-${lang}.png`);
  }
  assert.deepEqual(await set(await page.evaluate(() => window.playground.getState())), { ok: true });
  assert.deepEqual(errors, []);
});
