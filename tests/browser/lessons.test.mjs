// Browser test of the lesson path's shell: the lesson map (G, the "n/11" button) with its history strip,
// previous / next lesson (N / P), and Chinese beyond the interface's own characters: text with 20 hanzi that
// no source file contains loads the larger font on demand and every one of them gets a glyph.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist, launch, openPage, screenshot, frames } from './helpers.mjs';

let server, url, browser;
before(async () => { ({ server, url } = await serveDist()); browser = await launch(); });
after(async () => { await browser.close(); server.close(); });

const state = (page) => page.evaluate(() => window.playground.getState({ matrices: false }));

test('lesson map: every scene in path order with its try/notice, the history strip opens scenes, N/P step', async () => {
  const { page, errors } = await openPage(browser.context, url + '?scene=sdpa');
  const first = await state(page);
  await page.keyboard.press('g');
  await frames(page, 3);
  await screenshot(page, 'lessons-map-en.png');
  await page.evaluate(() => window.playground.setState({ lang: 'zh' }));
  await frames(page, 3);
  await screenshot(page, 'lessons-map-zh.png');
  // The map holds the keyboard: Escape closes it, the scene is unchanged.
  await page.keyboard.press('Escape');
  await frames(page, 2);
  assert.equal((await state(page)).scene, first.scene);
  // N and P walk the path in the registry's order, at the first stage of each scene.
  await page.keyboard.press('p');
  await frames(page, 2);
  const prev = await state(page);
  assert.notEqual(prev.scene, 'sdpa', 'P opens the previous lesson');
  assert.equal(prev.step.index, 0);
  await page.keyboard.press('n');
  await frames(page, 2);
  assert.equal((await state(page)).scene, 'sdpa');
  await page.keyboard.press('n');
  await frames(page, 2);
  const next = await state(page);
  assert.notEqual(next.scene, 'sdpa');
  await screenshot(page, 'lessons-next-zh.png');
  assert.deepEqual(errors, []);
});

test('Chinese beyond the sources: the larger font is fetched once and the atlas gets every character', async () => {
  const { page, errors } = await openPage(browser.context, url + '?scene=sdpa&lang=zh');
  const before = (await state(page)).fonts;
  assert.equal(before.extra_requested, false, 'the first visit does not load the larger font');
  // 20 hanzi that appear in no source file (so not in the first atlas).
  const text = '鹦鹉螺旋桨瀑峡谷骆驼蝴蝶蜻蜓琵琶瑰丽澜鲸';
  assert.equal([...text].length, 20);
  const r = await page.evaluate((text) => window.playground.setState({ text }), text);
  assert.deepEqual(r, { ok: true });
  let f;
  for (let k = 0; k < 100; k++) {
    await frames(page, 1);
    f = (await state(page)).fonts;
    if (f.extra_loaded && f.rebuilds > 0 && f.missing === '') break;
  }
  console.log(`fonts after typing 20 new hanzi: ${JSON.stringify(f)}`);
  assert.equal(f.extra_requested, true);
  assert.equal(f.extra_loaded, true, f.error);
  assert.equal(f.missing, '', 'every character has a glyph');
  assert.ok(f.extra_glyphs >= 20, `${f.extra_glyphs} glyphs added`);
  await frames(page, 3);
  await screenshot(page, 'lessons-typed-hanzi.png');
  assert.deepEqual(errors, []);
});
