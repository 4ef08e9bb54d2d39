// Browser test of the SDPA scene's matrix layout (issue 8, item 5): every stage photographed at 1280×720,
// at 1920×1080 with 2× text and at 800×480 embedded; the 512-token preset, d_k = 256, 20 tokens, Q, K, V by
// hand and the colour-blind-safe colours (build/screenshots/layout-*.png). Asserts what a script can: no
// console error, the state each view shows, the text size, the top bar's tooltips drawn dark on light, a
// message that goes once the sentence is valid again.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist, launch, openPage, screenshot, frames, clickInFrames, inImage } from './helpers.mjs';

let server, url, browser;
before(async () => { ({ server, url } = await serveDist()); browser = await launch(); });
after(async () => { await browser.close(); server.close(); });

const stages = ['qkv', 'scores', 'scale', 'mask', 'softmax', 'weighted_sum', 'output'];
const state = (page) => page.evaluate(() => window.playground.getState({ matrices: false }));

// The text size: each '+' key adds 0.1 (the top bar's A+ does the same).
async function textSize(page, times) {
  for (let i = 0; i < times; i++) { await page.keyboard.press('Equal'); await frames(page, 2); }
  await frames(page, 4);
}

async function everyStage(page, prefix) {
  for (let k = 0; k < stages.length; k++) {
    await page.evaluate((k) => window.playground.setState({ step: k }), k);
    const s = await state(page);
    assert.equal(s.step.name, stages[k]);
    await screenshot(page, `layout-${prefix}-${k}-${stages[k]}.png`);
  }
}

test('every SDPA stage at 1280×720, 1920×1080 with 2× text, and 800×480 embedded', async () => {
  {
    const { page, errors } = await openPage(browser.context, url + '?scene=sdpa', { viewport: { width: 1280, height: 720 } });
    const s = await state(page);
    assert.equal(s.scene, 'sdpa');
    assert.equal(s.n, 11);
    await everyStage(page, '1280x720');
    // Chinese: the idea and the step's arithmetic wrap between characters, never inside a number.
    await page.evaluate(() => window.playground.setState({ lang: 'zh', step: 4 }));
    await screenshot(page, 'layout-1280x720-zh-4-softmax.png');
    await page.evaluate(() => window.playground.setState({ lang: 'zh', step: 5 }));
    await screenshot(page, 'layout-1280x720-zh-5-weighted_sum.png');
    assert.deepEqual(errors, []);
    await page.close();
  }
  {
    const { page, errors } = await openPage(browser.context, url + '?scene=sdpa', { viewport: { width: 1920, height: 1080 } });
    await frames(page, 3);
    await textSize(page, 10);
    await everyStage(page, '1920x1080-2x');
    // Numbers do not fit at 2× on 1080 lines: the "show numbers" toggle beside the legends shows them (scrolling).
    await page.evaluate(() => window.playground.setState({ step: 4 }));
    await frames(page, 4);
    await page.mouse.move(1562, 844);
    await frames(page, 2);
    await page.mouse.down();
    await frames(page, 2);
    await page.mouse.up();
    await page.mouse.move(1900, 1000);
    await screenshot(page, 'layout-1920x1080-2x-4-softmax-numbers.png');
    await page.evaluate(() => window.playground.setState({ step: 1 }));
    await screenshot(page, 'layout-1920x1080-2x-1-scores-numbers.png');
    await page.evaluate(() => window.playground.setState({ step: 6 }));
    // The tooltips of the top bar's A+ and of the timeline's play button: dark text on a light box.
    await page.mouse.move(1779, 42);
    await frames(page, 10);
    await screenshot(page, 'layout-1920x1080-2x-tooltip-aplus.png');
    await page.mouse.move(843, 944);
    await frames(page, 10);
    await screenshot(page, 'layout-1920x1080-2x-tooltip-play.png');
    assert.deepEqual(errors, []);
    await page.close();
  }
  {
    const { page, errors } = await openPage(browser.context, url + '?scene=sdpa&embed=1', { viewport: { width: 800, height: 480 } });
    await everyStage(page, '800x480-embed');
    assert.deepEqual(errors, []);
    await page.close();
  }
});

test('512 tokens, d_k = 256, 20 tokens and Q, K, V by hand keep their labels and fit the area', async () => {
  const { page, errors } = await openPage(browser.context, url + '?scene=sdpa&preset=long', { viewport: { width: 1280, height: 720 } });
  let s = await state(page);
  assert.equal(s.n, 512);
  for (const k of [1, 4, 6]) {
    await page.evaluate((k) => window.playground.setState({ step: k }), k);
    await screenshot(page, `layout-512-${k}-${stages[k]}.png`);
  }
  assert.deepEqual(await page.evaluate(() => window.playground.setState({ preset: 'animal' })), { ok: true });
  assert.deepEqual(await page.evaluate(() => window.playground.setState({ source: 'projection', d_k: 256, step: 1 })), { ok: true });
  s = await state(page);
  assert.equal(s.d_k, 256);
  await screenshot(page, 'layout-dk256-1-scores.png');
  await page.evaluate(() => window.playground.setState({ step: 6 }));
  await screenshot(page, 'layout-dk256-6-output.png');
  const twenty = 'one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty';
  assert.deepEqual(await page.evaluate((t) => window.playground.setState({ text: t, d_k: 4, step: 4 }), twenty), { ok: true });
  s = await state(page);
  assert.equal(s.n, 20);
  await screenshot(page, 'layout-20tokens-4-softmax.png');
  await page.evaluate(() => window.playground.setState({ step: 3, mask: 'causal' }));
  await screenshot(page, 'layout-20tokens-3-mask-causal.png');
  // By hand: the first stage shows Q, Kᵀ and V filled in (the caption asks to click their cells).
  assert.deepEqual(await page.evaluate(() => window.playground.setState({ preset: 'cats' })), { ok: true });
  await page.keyboard.press('Home');  // the first stage, nothing played yet
  await frames(page, 4);
  s = await state(page);
  assert.equal(s.step.index, 0);
  assert.equal(s.source, 'custom');
  assert.equal(s.step.sub, 0);
  await screenshot(page, 'layout-custom-0-qkv-home.png');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a refused sentence leaves a message that goes once the sentence is valid again', async () => {
  const { page, errors } = await openPage(browser.context, url + '?scene=sdpa', { viewport: { width: 1280, height: 720 } });
  const bad = await page.evaluate(() => window.playground.setState({ text: '' }));
  assert.equal(bad.ok, false);
  let s = await state(page);
  assert.ok(s.errors.length >= 1);
  await screenshot(page, 'layout-error-shown.png');
  assert.deepEqual(await page.evaluate(() => window.playground.setState({ text: 'the cat sat on the mat' })), { ok: true });
  s = await state(page);
  assert.deepEqual(s.errors, []);
  await screenshot(page, 'layout-error-gone.png');
  assert.deepEqual(errors, []);
  await page.close();
});

test('colour-blind-safe colours: the Display option changes the matrices', async () => {
  const { page, errors } = await openPage(browser.context, url + '?scene=sdpa&step=4', { viewport: { width: 1280, height: 720 } });
  await frames(page, 4);
  const before = await page.screenshot({ clip: { x: 340, y: 210, width: 930, height: 360 } });
  // Scroll the controls panel to its end, where the Display section is, and tick the option.
  await page.mouse.move(160, 400);
  for (let i = 0; i < 10; i++) { await page.mouse.wheel(0, 400); await frames(page, 1); }
  await frames(page, 4);
  await screenshot(page, 'layout-display-section.png');
  // At 1280×720 the option's checkbox is then 133 px above the bottom of the panel (see the screenshot).
  await clickInFrames(page, 20, 587);
  await page.mouse.move(800, 700);
  await frames(page, 6);
  const after = await page.screenshot({ clip: { x: 340, y: 210, width: 930, height: 360 } });
  assert.notEqual(Buffer.compare(before, after), 0, 'the matrices changed colour');
  await screenshot(page, 'layout-colorblind-4-softmax.png');
  await page.evaluate(() => window.playground.setState({ step: 3, mask: 'causal' }));
  await screenshot(page, 'layout-colorblind-3-mask.png');
  await page.evaluate(() => window.playground.setState({ preset: 'long' }));
  await page.evaluate(() => window.playground.setState({ step: 4 }));
  await screenshot(page, 'layout-colorblind-512-4-softmax.png');
  assert.deepEqual(errors, []);
  await page.close();
});

// Issue 17: the weights are coloured on 0 … 1 unless stretched. The hand-set "it → animal" preset's uniform
// 0.09 rows must then look pale beside the 0.80 cell; stretched (?contrast=stretch) they darken (the
// legend says so: layout-contrast-*.png).
// The darkest pixel of a w × h region of a screenshot, as the mean of its channels, decoded in a blank page.
async function darkest(png, x, y, w = 1, h = 1) {
  return inImage(browser.context, png, (d, width, height, { x, y, w, h }) => {
    let min = 255;
    for (let r = y; r < y + h; r++)
      for (let c = x; c < x + w; c++) { const i = (r * width + c) * 4; min = Math.min(min, (d[i] + d[i + 1] + d[i + 2]) / 3); }
    return min;
  }, { x, y, w, h });
}

// Issue 17: a lecturer at 2× text in presenter mode, the controls hidden, on a 1920×1080 projector: the
// numbers of the notes' sentence are drawn. Every stage's numbers do not fit one cell size there; the
// current stage's alone do (layout-projector-*.png). The cell (The, The) of A holds 0.04 in dark digits
// on a pale ground: its darkest pixel is dark only when the number is drawn.
test('a projector at 2× text shows the numbers of the notes\' sentence', async () => {
  const { page, errors } = await openPage(browser.context, url + '?scene=sdpa&present=1&zoom=2&hide=controls',
    { viewport: { width: 1920, height: 1080 } });
  await frames(page, 4);
  const png = await page.screenshot();
  await screenshot(page, 'layout-projector-6-output.png');
  const ink = await darkest(png, 612, 470, 28, 18);
  console.log('darkest pixel in the cell (The, The) of A:', ink);
  assert.ok(ink < 110, `no number drawn in A at 2× text on 1920×1080 (darkest ${ink}; layout-projector-6-output.png)`);
  for (const k of [0, 4]) {
    await page.evaluate((k) => window.playground.setState({ step: k }), k);
    await screenshot(page, `layout-projector-${k}-${stages[k]}.png`);
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('the weights keep the scale 0 … 1 unless the learner stretches it', async () => {
  // The pixel at the centre of cell (The, The) = 0.09.
  const brightness = (png, x, y) => darkest(png, x, y);
  const seen = {};
  for (const contrast of ['fixed', 'stretch']) {
    const { page, errors } = await openPage(browser.context, url + `?scene=sdpa&preset=it-animal&contrast=${contrast}`,
      { viewport: { width: 1280, height: 720 } });
    await frames(page, 4);
    const png = await page.screenshot();
    await screenshot(page, `layout-contrast-${contrast}.png`);
    seen[contrast] = { small: await brightness(png, 616, 271), large: await brightness(png, 645, 461) };
    assert.deepEqual(errors, []);
    await page.close();
  }
  console.log('brightness of a 0.09 and the 0.80 cell:', JSON.stringify(seen));
  assert.ok(seen.fixed.small > 200, `0.09 on the scale 0 … 1 is pale: ${seen.fixed.small}`);
  assert.ok(seen.fixed.large < 140, `0.80 on the scale 0 … 1 is dark: ${seen.fixed.large}`);
  assert.ok(seen.stretch.small < 140, `0.09 on the stretched scale 0 … 0.1 is dark: ${seen.stretch.small}`);
});

// The monkey test's screenshot: after a click on the controls, their buttons were drawn through the open
// export dialog (the controls, with no background beside the scene, came to the front). The dialog's part
// over the controls must look the same after such a click; and on a phone's width the controls, laid over
// the scene, must lie above it (they fell behind it when they could no longer come to the front).
test('an open dialog stays above the controls after a click on them; overlaid controls stay above the scene', async () => {
  const { page, errors } = await openPage(browser.context, url + '?scene=sdpa', { viewport: { width: 900, height: 640 } });
  await page.keyboard.press('e');
  await frames(page, 4);
  const overlap = { x: 180, y: 80, width: 115, height: 235 };  // the dialog over the controls' column at 900 px
  const before = await page.screenshot({ clip: overlap });
  await page.mouse.click(40, 294);  // the controls' "Input" heading: a click on the window, on no widget
  await frames(page, 4);
  const after = await page.screenshot({ clip: overlap });
  await screenshot(page, 'layout-dialog-over-controls.png');
  assert.ok(before.equals(after), 'the controls were drawn through the export dialog (layout-dialog-over-controls.png)');
  await page.keyboard.press('e');
  await frames(page, 3);
  // A phone after a desktop start: the controls are the overlay, and they must look as they do on a page
  // opened at a phone's width with its ≡ (a scene drawn over them shows its matrices and timeline through).
  await page.setViewportSize({ width: 390, height: 844 });
  await frames(page, 6);
  const lower = { x: 0, y: 430, width: 390, height: 414 };
  const resized = await page.screenshot({ clip: lower });
  await screenshot(page, 'layout-phone-controls-over-scene.png');
  const phone = await openPage(browser.context, url + '?scene=sdpa', { viewport: { width: 390, height: 844 } });
  await phone.page.mouse.click(20, 20);  // ≡: a phone opens with the controls folded away
  await frames(phone.page, 6);
  const opened = await phone.page.screenshot({ clip: lower });
  assert.ok(resized.equals(opened), 'the overlaid controls differ from a phone start (layout-phone-controls-over-scene.png)');
  assert.deepEqual(errors, []);
  assert.deepEqual(phone.errors, []);
  await phone.page.close();
  await page.close();
});

// getState().view.matrices: what the matrix views drew in the last frame (issue 17, item 9). The projector
// shows every number and every token label of the notes' sentence; the weights keep the scale 0 … 1; on a
// phone, either way up, and in an 800×480 embed, no matrix shrinks below a readable cell (a phone held
// sideways drew 1-pixel cells beside the controls: they are now a drawer there, and the matrices scroll).
test('the view reports what it drew: every number on a projector, readable cells on a phone and in an embed', async () => {
  const drawn = async (page, k) => {
    await page.evaluate((k) => window.playground.setState({ step: k }), k);
    await frames(page, 3);
    return (await page.evaluate(() => window.playground.getState({ matrices: false }))).view.matrices;
  };
  const show = (ms) => ms.map((m) => `${m.id} ${m.rows}×${m.cols} cell ${m.cell_w.toFixed(0)}×${m.cell_h.toFixed(0)} numbers ${m.numbers} labels ${m.row_labels}/${m.col_labels}${m.clipped ? ' clipped' : ''}`).join('; ');
  {
    const { page, errors } = await openPage(browser.context, url + '?scene=sdpa&present=1&zoom=2&hide=controls', { viewport: { width: 1920, height: 1080 } });
    for (let k = 0; k < stages.length; k++) {
      const ms = await drawn(page, k);
      console.log(`projector, stage ${k}: ${show(ms)}`);
      assert.ok(ms.length >= 2, `stage ${k} drew its matrices`);
      // X (11 × 16 embeddings) gives way to Q, K, V at the first stage: a heatmap by design (sdpa_view lay_out).
      for (const m of ms.filter((m) => m.id !== 'X')) {
        assert.ok(m.numbers, `stage ${k}: ${m.id} without numbers at 2× text on 1920×1080`);
        assert.ok(!m.clipped, `stage ${k}: ${m.id} cut`);
      }
      assert.ok(ms.some((m) => m.rows === 11 && m.row_labels === 11), `stage ${k}: every row labelled: ${show(ms)}`);
      // A · V (stage 5) names A's columns by V's rows beside them: no column labels there.
      if (stages[k] !== 'weighted_sum') assert.ok(ms.some((m) => m.cols === 11 && m.col_labels === 11), `stage ${k}: every column labelled: ${show(ms)}`);
      const A = ms.find((m) => m.id.startsWith('A =') || m.id.startsWith('attention weights'));
      if (A) assert.deepEqual([A.lo, A.hi], [0, 1], 'the weights on the fixed scale 0 … 1');
    }
    assert.deepEqual(errors, []);
    await page.close();
  }
  // Self-attention on the same projector: cells grow with the text (they had 58 × 26 px at most, so no
  // number fitted at 2× text and every other row lost its label): every row labelled at every stage; the
  // weights, V and the output numbered.
  {
    const { page, errors } = await openPage(browser.context, url + '?scene=self&present=1&zoom=2&hide=controls', { viewport: { width: 1920, height: 1080 } });
    for (let k = 0; k < 3; k++) {
      const ms = await drawn(page, k);
      console.log(`self-attention projector, stage ${k}: ${show(ms)}`);
      assert.ok(ms.length >= 2, `stage ${k} drew its matrices`);
      for (const m of ms) {
        assert.equal(m.row_labels, 11, `stage ${k}: every row of ${m.id} labelled: ${show(ms)}`);
        assert.ok(!m.clipped, `stage ${k}: ${m.id} cut`);
      }
      for (const m of ms.filter((m) => /^(weights A|V$|output)/.test(m.id)))
        assert.ok(m.numbers && (m.col_labels === 0 || m.col_labels === m.cols), `stage ${k}: ${m.id} numbered and labelled: ${show(ms)}`);
    }
    await screenshot(page, 'layout-projector-self-output.png');
    assert.deepEqual(errors, []);
    await page.close();
  }
  for (const [q, w, h] of [['?scene=sdpa', 844, 390], ['?scene=sdpa', 390, 844], ['?scene=sdpa&embed=1&hide=controls', 800, 480]]) {
    const { page, errors } = await openPage(browser.context, url + q, { viewport: { width: w, height: h } });
    for (const k of [0, 1, 4, 6]) {
      const ms = await drawn(page, k);
      console.log(`${w}×${h}, stage ${k}: ${show(ms)}`);
      assert.ok(ms.length >= 2, `${w}×${h} stage ${k} drew its matrices`);
      for (const m of ms) assert.ok(m.cell_w >= 6 && m.cell_h >= 6, `${w}×${h} stage ${k}: ${m.id} has ${m.cell_w}×${m.cell_h} px cells`);
      assert.ok(ms.some((m) => m.row_labels >= 6 || m.col_labels >= 6), `${w}×${h} stage ${k}: token labels drawn`);
    }
    await screenshot(page, `layout-view-report-${w}x${h}.png`);
    assert.deepEqual(errors, []);
    await page.close();
  }
});

// 2× text in a 1280×720 window (a small projector, a laptop zoomed in): the self-attention weights stage's
// title and turned key labels took the height, and the matrix view (widgets/matrix_view.cpp) gave its cells
// 0.05 px: two headers over nothing. The cells now keep a floor (a third of a text line) and the stage scrolls.
test('2× text in a small window: a heatmap keeps its cells under its labels', async () => {
  const { page, errors } = await openPage(browser.context, url + 'index.html?welcome=0&scene=self&step=1&zoom=2');
  await frames(page, 5);
  const st = await state(page);
  const mats = st.view.matrices.filter((m) => m.id.startsWith('scores') || m.id.startsWith('weights'));
  assert.equal(mats.length, 2, JSON.stringify(st.view.matrices.map((m) => m.id)));
  for (const m of mats) {
    assert.equal(m.rows, 11);
    assert.ok(m.cell_h >= 3, `${m.id}: cells ${m.cell_h} px high`);
    assert.ok(m.h >= m.rows * 3, `${m.id}: ${m.h} px for ${m.rows} rows`);
  }
  await screenshot(page, 'layout-self-zoom2-1280x720.png');
  assert.deepEqual(errors, []);
});

// Phones (issue 17, item 4), through what the view reports: the training maps stacked full width on a phone
// upright with every label (side by side they had 11-px cells and every other label); Luong's own grids are in
// the report too, and keep readable cells (sideways they were 2 × 2 px) with every token label, one alignment
// a row on a phone upright; the welcome's start button and lessons are not cut on a small phone, in both languages.
test('phones: training maps, Luong grids and the welcome keep their labels and are not cut', async () => {
  const view = async (page) => (await page.evaluate(() => window.playground.getState({ matrices: false }))).view;
  const show = (ms) => ms.map((m) => `${m.id} ${m.rows}×${m.cols} cell ${m.cell_w.toFixed(0)}×${m.cell_h.toFixed(0)} labels ${m.row_labels}/${m.col_labels}`).join('; ');
  {
    const { page, errors } = await openPage(browser.context, url + '?scene=train&preset=heads-2&step=1', { viewport: { width: 390, height: 844 } });
    await page.waitForFunction(() => window.playground.getState({ matrices: false }).view.matrices.length === 2, null, { timeout: 15000 });
    const ms = (await view(page)).matrices;
    console.log(`train heads-2 at 390×844: ${show(ms)}`);
    for (const m of ms) {
      assert.equal(m.row_labels, m.rows, `${m.id}: every row labelled: ${show(ms)}`);
      assert.equal(m.col_labels, m.cols, `${m.id}: every column labelled: ${show(ms)}`);
    }
    assert.ok(ms[1].y > ms[0].y + ms[0].h, 'the second map below the first');
    await screenshot(page, 'layout-phone-train-heads.png');
    assert.deepEqual(errors, []);
    await page.close();
  }
  for (const [w, h, k, grids] of [[844, 390, 0, 2], [390, 844, 2, 3], [1280, 720, 2, 3]]) {
    const { page, errors } = await openPage(browser.context, url + `?scene=luong&weights=random&step=${k}`, { viewport: { width: w, height: h } });
    await frames(page, 3);
    const ms = (await view(page)).matrices.filter((m) => m.rows > 1);
    console.log(`luong at ${w}×${h}, stage ${k}: ${show(ms)}`);
    assert.equal(ms.length, grids, `luong at ${w}×${h}, stage ${k} reports its grids: ${show(ms)}`);
    for (const m of ms) {
      assert.ok(m.cell_w >= 12.8, `${m.id} at ${w}×${h}: ${m.cell_w} px cells`);
      assert.equal(m.row_labels, m.rows, `${m.id} at ${w}×${h}: every row labelled`);
    }
    if (w === 390) assert.ok(ms[1].y > ms[0].y + ms[0].h, 'one alignment a row on a phone upright');
    if (w === 1280) assert.ok(Math.abs(ms[1].y - ms[0].y) < 1 && Math.abs(ms[2].y - ms[0].y) < 1, 'three side by side at 1280×720');
    await screenshot(page, `layout-luong-${w}x${h}-${k}.png`);
    assert.deepEqual(errors, []);
    await page.close();
  }
  // A phone upright stacks what sat side by side (self-attention's scores and weights, A above V and O;
  // Bahdanau's →H and ←H above H): every row of every matrix labelled, nothing cut at the right.
  for (const [scene, k] of [['self', 1], ['self', 2], ['bahdanau', 0]]) {
    const { page, errors } = await openPage(browser.context, url + `?scene=${scene}&step=${k}${scene === 'bahdanau' ? '&weights=random' : ''}`, { viewport: { width: 390, height: 844 } });
    await frames(page, 3);
    const ms = (await view(page)).matrices;
    console.log(`${scene} at 390×844, stage ${k}: ${show(ms)}`);
    assert.ok(ms.length >= 2, `${scene} stage ${k} drew its matrices`);
    for (const m of ms) {
      assert.equal(m.row_labels, m.rows, `${scene} stage ${k}: every row of ${m.id} labelled: ${show(ms)}`);
      assert.ok(m.x + m.w <= 390, `${scene} stage ${k}: ${m.id} inside the screen`);
    }
    await screenshot(page, `layout-phone-${scene}-${k}.png`);
    assert.deepEqual(errors, []);
    await page.close();
  }
  for (const [w, h] of [[390, 844], [320, 568]]) {
    for (const lang of ['en', 'zh']) {
      const { page, errors } = await openPage(browser.context, url + (lang === 'zh' ? '?lang=zh' : ''), { viewport: { width: w, height: h } });
      await frames(page, 3);
      const s = await page.evaluate(() => window.playground.getState({ matrices: false }));
      assert.equal(s.welcome, true);
      assert.deepEqual(s.view.cut, [], `nothing cut on the welcome at ${w}×${h} (${lang})`);
      await screenshot(page, `welcome-phone-${w}x${h}-${lang}.png`);
      assert.deepEqual(errors, []);
      await page.close();
    }
  }
});
