// Browser tests of the scene interface: the scene switcher, the "Why √dₖ" scene in both languages, the state
// document round trip (setState(getState()), links), and the page API's safety limits (the largest allowed
// matrices, deep nesting). Screenshots go to build/screenshots/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist, launch, openPage, screenshot, frames, BARE, chineseFontIn } from './helpers.mjs';

let server, url, browser;
before(async () => { ({ server, url } = await serveDist()); browser = await launch(); });
after(async () => { await browser.close(); server.close(); });

// (fonts: what the page has loaded so far, at its own pace: the Chinese font arrives when it arrives)
const view = (s) => { const c = { ...s }; for (const k of ['errors', 'frames', 'view', 'hover', 'fonts']) delete c[k]; return JSON.stringify(c); };

test('the √dₖ scene: its numbers, each stage drawn, in English and Chinese', async () => {
  const { page, errors } = await openPage(browser.context, url + BARE);
  assert.deepEqual(await page.evaluate(() => window.playground.setState({ scene: 'scaling' })), { ok: true });
  const s = await page.evaluate(() => window.playground.getState());
  assert.equal(s.scene, 'scaling');
  assert.equal(s.d_k, 64);
  assert.equal(s.step.count, 4);
  const r = s.results;
  assert.ok(Math.abs(r.var_raw / 64 - 1) < 0.15, `var(q·k) = ${r.var_raw}, expected about d_k = 64`);
  assert.ok(Math.abs(r.var_scaled - 1) < 0.15, `var(q·k/√d_k) = ${r.var_scaled}, expected about 1`);
  const last = r.sweep[r.sweep.length - 1];
  assert.equal(last.d_k, 1024);
  assert.ok(last.max_weight_raw > 0.8 && last.max_weight_scaled < 0.5, JSON.stringify(last));
  for (const lang of ['en', 'zh']) {
    for (let k = 0; k < 4; k++) {
      await page.evaluate(([k, lang]) => window.playground.setState({ step: k, lang }), [k, lang]);
      await screenshot(page, `scaling-${k}-${lang}-1280x720.png`);
    }
  }
  // A change recomputes; a refused one keeps the numbers and says why, in the language on screen.
  assert.deepEqual(await page.evaluate(() => window.playground.setState({ d_k: 512, samples: 2000 })), { ok: true });
  const big = await page.evaluate(() => window.playground.getState());
  assert.ok(Math.abs(big.results.var_raw / 512 - 1) < 0.2, `var ${big.results.var_raw}`);
  const bad = await page.evaluate(() => window.playground.setState({ d_k: 0 }));
  assert.equal(bad.ok, false);
  const after = await page.evaluate(() => window.playground.getState());
  assert.equal(after.d_k, 512);
  assert.ok(after.errors.some((e) => e.includes('必须')), `a Chinese message: ${JSON.stringify(after.errors)}`);
  await screenshot(page, 'scaling-error-zh.png');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the scene switcher: the key S and the URL open scenes; each scene keeps its state', async () => {
  const { page, errors } = await openPage(browser.context, url + '?scene=scaling&d_k=16&step=1');
  let s = await page.evaluate(() => window.playground.getState({ matrices: false }));
  assert.equal(s.scene, 'scaling');
  assert.equal(s.d_k, 16);
  assert.equal(s.step.index, 1);
  await page.locator('#canvas').focus();
  // S goes round the scenes in the registry's order; press it until a scene comes up.
  const pressUntil = async (scene) => {
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press('s');
      await frames(page, 3);
      const st = await page.evaluate(() => window.playground.getState({ matrices: false }));
      if (st.scene === scene) return st;
    }
    assert.fail(`S never reached ${scene}`);
  };
  s = await pressUntil('sdpa');
  await page.evaluate(() => window.playground.setState({ preset: 'causal', step: 2 }));
  s = await pressUntil('scaling');
  assert.equal(s.d_k, 16, 'the √dₖ scene kept its d_k');
  assert.equal(s.step.index, 1, 'and its step');
  s = await pressUntil('sdpa');
  assert.equal(s.mask, 'causal', 'the SDPA scene kept its preset');
  assert.equal(s.step.index, 2);
  // The top bar's switcher, opened with the mouse.
  await page.mouse.click(420, 14);
  await frames(page, 3);
  await screenshot(page, 'scene-switcher-open.png');
  assert.deepEqual(errors, []);
  await page.close();
});

// Every preset of every scene round-trips in the unit tests (EveryPreset/AppDocument.*, natively, under the
// sanitizers and in wasm); here the same through the page's bridge (JSON strings both ways), for the presets that
// differ in kind (the largest, 512 tokens, crosses the bridge in the largest-matrices test below).
test('setState(getState()) restores the presets through the page API, also on a page that shows something else', async () => {
  const { page, errors } = await openPage(browser.context, url);
  const cases = await page.evaluate(() => [['sdpa', ['animal', 'cats', 'one-query', 'causal', 'padding', 'chinese']],
    ['scaling', ['dk64', 'dk4', 'dk512']]]);
  for (const [scene, presets] of cases) {
    for (const preset of presets) {
      const r = await page.evaluate(([scene, preset]) => window.playground.setState({ scene, preset, step: 1 }), [scene, preset]);
      assert.deepEqual(r, { ok: true }, `${scene}/${preset}`);
      const doc = await page.evaluate(() => window.playground.getState());
      await page.evaluate(() => window.playground.setState({ scene: 'sdpa', text: 'something else entirely', d_k: 3 }));
      const back = await page.evaluate((d) => window.playground.setState(d), doc);
      assert.deepEqual(back, { ok: true }, `${scene}/${preset}: ${JSON.stringify(back).slice(0, 200)}`);
      const again = await page.evaluate(() => window.playground.getState());
      assert.equal(view(again), view(doc), `${scene}/${preset}`);
    }
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('a link restores the view, hand-set matrices included', async () => {
  const { page, errors } = await openPage(browser.context, url + BARE);
  await page.evaluate(() => window.playground.setState({ preset: 'cats' }));
  await page.evaluate(() => window.playground.setState({ matrices: { Q: [[0.5, -1.25], [2, 0], [1, 1]] }, mask: 'causal', step: { index: 4, sub: 5 }, lang: 'zh' }));
  await chineseFontIn(page);  // its texts (the quiz) are Chinese once the interface's Chinese has arrived, as a link's are at ready
  const want = await page.evaluate(() => window.playground.getState());
  const link = await page.evaluate(() => window.playground.link());
  assert.match(link, /[?&]m=v1\./);
  const other = await openPage(browser.context, link);
  const got = await other.page.evaluate(() => window.playground.getState());
  assert.equal(view(got), view(want), link);
  assert.deepEqual(got.errors, []);
  await screenshot(other.page, 'link-restored.png');
  assert.deepEqual(errors, []);
  assert.deepEqual(other.errors, []);
  await other.page.close();
  await page.close();
});

test('the largest allowed matrices (1024 × 512 for Q, K and V) go through the heap, and the page keeps working', async () => {
  const { page, errors } = await openPage(browser.context, url);
  const r = await page.evaluate(() => {
    let x = 12345;
    const rnd = () => { x = (x * 1103515245 + 12345) % 2147483648; return x / 2147483648 - 0.5; };
    const m = () => Array.from({ length: 1024 }, () => Array.from({ length: 512 }, rnd));
    return window.playground.setState({ matrices: { Q: m(), K: m(), V: m() } });
  });
  assert.deepEqual(r, { ok: true });
  let s = await page.evaluate(() => window.playground.getState({ matrices: false }));
  assert.deepEqual([s.n, s.m, s.d_k, s.d_v], [1024, 1024, 512, 512]);
  await page.evaluate(() => window.playground.step(-3));
  await frames(page, 3);
  await screenshot(page, 'largest-matrices.png');
  // One past the limit is refused, and the page is still alive.
  const past = await page.evaluate(() => window.playground.setState({ matrices: { Q: Array.from({ length: 1025 }, () => [1]) } }));
  assert.equal(past.ok, false);
  assert.match(past.error, /1025 rows; the limit is 1024/);
  const deep = await page.evaluate(() => {
    let v = 1;
    for (let i = 0; i < 5000; i++) v = [v];
    return window.playground.setState({ step: v });
  });
  assert.equal(deep.ok, false);
  assert.match(deep.error, /nested/);
  assert.deepEqual(await page.evaluate(() => window.playground.setState({ preset: 'cats' })), { ok: true });
  s = await page.evaluate(() => window.playground.getState());
  assert.equal(s.n, 3);
  const f0 = s.frames;
  await frames(page, 4);
  assert.ok((await page.evaluate(() => window.playground.getState({ matrices: false }))).frames > f0);
  assert.deepEqual(errors, []);
  await page.close();
});

test('an idle page draws nothing and keeps the main thread free; input and the page API draw again', async () => {
  const { page, errors } = await openPage(browser.context, url);
  await frames(page, 10);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const busy = async () => (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'TaskDuration').value;
  const f0 = (await page.evaluate(() => window.playground.getState({ matrices: false }))).frames;
  const t0 = await busy();
  await page.waitForTimeout(3000);
  const t1 = await busy();
  const f1 = (await page.evaluate(() => window.playground.getState({ matrices: false }))).frames;
  const share = (t1 - t0) / 3;
  console.log(`idle: ${f1 - f0} frames drawn in 3 s, main thread busy ${(100 * share).toFixed(1)} %`);
  assert.ok(f1 - f0 <= 1, `an idle page drew ${f1 - f0} frames`);
  assert.ok(share < 0.02, `main thread busy ${(100 * share).toFixed(1)} % while idle`);
  // The page API and the keyboard still get frames drawn.
  await page.evaluate(() => window.playground.setState({ step: 2 }));
  await frames(page, 3);
  const f2 = (await page.evaluate(() => window.playground.getState({ matrices: false }))).frames;
  assert.ok(f2 > f1, 'setState drew a frame');
  await page.locator('#canvas').focus();
  // A bare page: the welcome (idle like the rest) holds the scene's keys; Escape closes it.
  await page.keyboard.press('Escape');
  await frames(page, 3);
  assert.equal((await page.evaluate(() => window.playground.getState({ matrices: false }))).welcome, false);
  await page.keyboard.press('ArrowRight');
  await frames(page, 3);
  const s = await page.evaluate(() => window.playground.getState({ matrices: false }));
  assert.equal(s.step.index, 3);
  assert.ok(s.frames > f2, 'a key drew frames');
  // Playing animates without input.
  await page.evaluate(() => window.playground.setState({ playing: true }));
  await page.waitForTimeout(500);
  const f3 = (await page.evaluate(() => window.playground.getState({ matrices: false }))).frames;
  assert.ok(f3 - s.frames >= 5, `only ${f3 - s.frames} frames while playing`);
  await screenshot(page, 'after-idle.png');
  assert.deepEqual(errors, []);
  await page.close();
});
