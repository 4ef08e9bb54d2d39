// Every scene at the five sizes of issue 17 (1280×720; a projector: 1920×1080, 2× text, presenter mode,
// controls hidden; an 800×480 embed with the controls hidden; a phone, 390×844 upright and 844×390 sideways),
// at its first and its last stage: photographed (build/screenshots/sizes-<scene>-<size>-<stage>.png), and
// checked through getState().view.matrices (what the matrix views drew): the page keeps drawing, no console
// error, no matrix drawn with cells smaller than 4 px. The report of each is printed, for the closing note.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist, launch, openPage, screenshot, frames } from './helpers.mjs';

let server, url, browser;
before(async () => { ({ server, url } = await serveDist()); browser = await launch(); });
after(async () => { await browser.close(); server.close(); });

const SCENES = ['bottleneck', 'bahdanau', 'luong', 'self', 'sdpa', 'scaling', 'multihead', 'masks', 'train', 'cost', 'import'];
const SIZES = [
  ['1280x720', '', 1280, 720],
  ['projector', '&present=1&zoom=2&hide=controls', 1920, 1080],
  ['embed-800x480', '&embed=1&hide=controls', 800, 480],
  ['phone-390x844', '', 390, 844],
  ['phone-844x390', '', 844, 390],
];

test('every scene at every size: drawn, no console error, no matrix with cells under 4 px', async () => {
  const small = [];
  for (const [name, q, width, height] of SIZES) {
    // One page a size, opened on the first scene; the others are reached as a learner reaches them, by switching
    // (the page API's setState({ scene }), the scene list's own call), with the size's options kept.
    const { page, errors } = await openPage(browser.context, `${url}?scene=${SCENES[0]}${q}`, { viewport: { width, height } });
    for (const scene of SCENES) {
      assert.deepEqual(await page.evaluate((scene) => window.playground.setState({ scene }), scene), { ok: true });
      const count = (await page.evaluate(() => window.playground.getState({ matrices: false }))).step.count;
      for (const k of [0, count - 1]) {
        // The count before the call: a loaded machine may draw the call's frames before a second round trip.
        const f0 = (await page.evaluate(() => window.playground.getState({ matrices: false }))).frames;
        await page.evaluate((k) => window.playground.setState({ step: k }), k);
        await frames(page, 3);
        const s = await page.evaluate(() => window.playground.getState({ matrices: false }));
        assert.ok(s.frames > f0 || k === count - 1, `${scene} at ${name}, stage ${k}: no frame after setState`);
        const ms = s.view.matrices;
        console.log(`${name} ${scene} stage ${k}: ` + ms.map((m) => `${m.id} ${m.rows}×${m.cols} ${m.cell_w.toFixed(0)}×${m.cell_h.toFixed(0)}px` +
          `${m.numbers ? ' numbers' : ''} labels ${m.row_labels}/${m.col_labels}${m.clipped ? ' clipped' : ''}`).join('; '));
        // The whole alignment labels every target word (row) and source word (column): on a projector its rows
        // were shorter than the 2× text and every other word was left out.
        if (scene === 'bahdanau' && k === count - 1) {
          const a = ms.find((m) => m.id === 'α');
          assert.ok(a && a.row_labels === a.rows && a.col_labels === a.cols,
            `bahdanau at ${name}: α labels ${a ? `${a.row_labels}/${a.rows} rows, ${a.col_labels}/${a.cols} columns` : 'not drawn'}`);
        }
        for (const m of ms) if (m.cell_w < 4 || m.cell_h < 4) small.push(`${scene} at ${name}, stage ${k}: ${m.id} ${m.cell_w.toFixed(1)}×${m.cell_h.toFixed(1)} px`);
        await screenshot(page, `sizes-${scene}-${name}-${k}.png`);
      }
      assert.deepEqual(errors, [], `${scene} at ${name}`);
    }
    await page.close();
  }
  assert.deepEqual(small, [], 'matrices drawn with cells under 4 px');
});
