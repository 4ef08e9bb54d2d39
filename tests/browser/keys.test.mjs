// Browser test of short key presses (issue 17, item 7): a press shorter than a frame acts exactly once. At
// 1920×1080 on software WebGL a scene switch draws a long frame; a keydown and its keyup that arrive within
// one frame are queued (src/platform/platform.cpp holds the release back to the next frame), so S (next scene)
// and → (next stage) pressed that briefly act once each, never zero times and never twice. A held → steps on only
// by the browser's own key repeats (at the delay and rate the user set), however slow the frames.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist, launch, openPage, frames } from './helpers.mjs';

let server, url, browser;
before(async () => { ({ server, url } = await serveDist()); browser = await launch(); });
after(async () => { await browser.close(); server.close(); });

const state = (page) => page.evaluate(() => window.playground.getState({ matrices: false }));
const SCENES = ['bottleneck', 'bahdanau', 'luong', 'self', 'sdpa', 'scaling', 'multihead', 'masks', 'train', 'cost', 'import'];

// Both events in one task: nothing can draw a frame between them.
async function tapInOneTask(page, key, code, keyCode) {
  await page.evaluate(([key, code, keyCode]) => {
    const canvas = document.getElementById('canvas');
    for (const type of ['keydown', 'keyup']) {
      const e = new KeyboardEvent(type, { key, code, bubbles: true, cancelable: true });
      Object.defineProperty(e, 'keyCode', { get: () => keyCode });
      Object.defineProperty(e, 'which', { get: () => keyCode });
      canvas.dispatchEvent(e);
    }
  }, [key, code, keyCode]);
}

// The driver's own key events, sent back to back without waiting for a frame.
async function tapByDriver(page, key) {
  await Promise.all([page.keyboard.down(key), page.keyboard.up(key)]);
}

for (const [how, tap] of [['in one task', (page) => tapInOneTask(page, 's', 'KeyS', 83)], ['by the driver', (page) => tapByDriver(page, 's')]]) {
  test(`a press shorter than a frame switches the scene exactly once (1920×1080, ${how})`, async () => {
    const { page, errors } = await openPage(browser.context, url + '?scene=bottleneck', { viewport: { width: 1920, height: 1080 } });
    await page.locator('#canvas').focus();
    await frames(page, 3);
    let at = SCENES.indexOf((await state(page)).scene);
    assert.equal(at, 0);
    const frameMs = [];
    for (let k = 0; k < 6; k++) {
      await page.evaluate(() => {
        window.__frames = [];
        let t0 = 0;
        Module.preMainLoop = () => { t0 = performance.now(); };
        Module.postMainLoop = () => { window.__frames.push(performance.now() - t0); };
      });
      await tap(page);
      await frames(page, 4);
      frameMs.push(...await page.evaluate(() => window.__frames));
      const s = await state(page);
      const now = SCENES.indexOf(s.scene);
      assert.equal(now, at + 1, `press ${k + 1}: ${SCENES[at]} → ${s.scene} (once, not ${now - at} times)`);
      at = now;
    }
    console.log(`# ${how}: longest frame after a press ${Math.max(...frameMs).toFixed(1)} ms`);
    // And → steps one stage per short press, the same.
    assert.deepEqual(await page.evaluate(() => window.playground.setState({ scene: 'sdpa', step: 0 })), { ok: true });
    await frames(page, 3);
    for (let k = 1; k <= 3; k++) {
      if (how === 'in one task') await tapInOneTask(page, 'ArrowRight', 'ArrowRight', 39);
      else await tapByDriver(page, 'ArrowRight');
      await frames(page, 3);
      assert.equal((await state(page)).step.index, k, `→ press ${k}`);
    }
    assert.deepEqual(errors, []);
    await page.close();
  });
}

// One key event in the page, as the browser sends it; `repeat`: one of its autorepeats of a held key.
async function keyEvent(page, type, repeat = false) {
  await page.evaluate(([type, repeat]) => {
    const e = new KeyboardEvent(type, { key: 'ArrowRight', code: 'ArrowRight', repeat, bubbles: true, cancelable: true });
    Object.defineProperty(e, 'keyCode', { get: () => 39 });
    Object.defineProperty(e, 'which', { get: () => 39 });
    document.getElementById('canvas').dispatchEvent(e);
  }, [type, repeat]);
}

test('a held → steps once, then once for each of the browser\'s repeats, however slow the frames', async () => {
  const { page, errors } = await openPage(browser.context, url + '?scene=sdpa&step=0');
  await page.locator('#canvas').focus();
  await frames(page, 3);
  // Held for 0.8 s with frames drawn meanwhile (longer than Dear ImGui's own 0.275 s repeat delay), no repeat sent:
  // one stage, as on a machine whose key release reached a slow page late.
  await keyEvent(page, 'keydown');
  const t0 = Date.now();
  while (Date.now() - t0 < 800) await frames(page, 1);
  await keyEvent(page, 'keyup');
  await frames(page, 3);
  assert.equal((await state(page)).step.index, 1, 'a held key without repeats acts once');
  // Held with three repeats from the browser, a frame apart: three stages more.
  await keyEvent(page, 'keydown');
  await frames(page, 2);
  for (let k = 0; k < 3; k++) { await keyEvent(page, 'keydown', true); await frames(page, 2); }
  await keyEvent(page, 'keyup');
  await frames(page, 3);
  assert.equal((await state(page)).step.index, 5, 'each repeat of the browser steps once more');
  assert.deepEqual(errors, []);
  await page.close();
});
