// Browser test of import and export (issue 8, items 7 and 8): a .npy built here imported through the file
// input and a .json dropped onto the page show their heads in the `import` scene; a malformed file gives a
// message and changes nothing; the PNG of the view is a valid image of the canvas' pixel size, the SVG heatmap
// parses, CSV and .npy downloads hold the matrix. Screenshots (1280×720, English and Chinese):
// build/screenshots/io-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serveDist, launch, openPage, screenshot, frames, chineseFontIn } from './helpers.mjs';

let server, url, browser;
before(async () => { ({ server, url } = await serveDist()); browser = await launch(); });
after(async () => { await browser.close(); server.close(); });

// A NumPy v1.0 file, '<f4', C order: magic, version, header length, the dict padded to 64 bytes, the data.
function npy(shape, values) {
  let header = `{'descr': '<f4', 'fortran_order': False, 'shape': (${shape.join(', ')}${shape.length === 1 ? ',' : ''}), }`;
  header += ' '.repeat((64 - ((10 + header.length + 1) % 64)) % 64) + '\n';
  const head = Buffer.alloc(10);
  Buffer.from([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0]).copy(head);
  head.writeUInt16LE(header.length, 8);
  const data = Buffer.alloc(values.length * 4);
  values.forEach((v, i) => data.writeFloatLE(v, i * 4));
  return Buffer.concat([head, Buffer.from(header, 'latin1'), data]);
}
// [1, 2, 5, 5]: head 0 looks at the previous token, head 1 spreads evenly (rows sum to 1).
function twoHeads() {
  const v = [];
  for (let h = 0; h < 2; h++)
    for (let i = 0; i < 5; i++)
      for (let j = 0; j < 5; j++) v.push(h === 0 ? (j === Math.max(0, i - 1) ? 1 : 0) : 1 / 5);
  return npy([1, 2, 5, 5], v);
}

async function download(page, what) {
  const [dl] = await Promise.all([
    page.waitForEvent('download', { timeout: 20000 }),
    page.evaluate((w) => { window.Module.ccall('ap_export_request', null, ['string'], [w]); }, what),
  ]);
  // (saved to a file of ours: a browser the run shares is reached remotely, and gives no path of its own)
  const file = path.join(os.tmpdir(), `ap-download-${process.pid}-${Date.now()}`);
  await dl.saveAs(file);
  const bytes = fs.readFileSync(file);
  fs.rmSync(file, { force: true });
  return { name: dl.suggestedFilename(), bytes };
}

test('import: the example, an .npy by the file input, a .json dropped, a bad file refused; screenshots', async () => {
  // The built-in example (the scene opens on the trained one: trained.test.mjs).
  const { page, errors } = await openPage(browser.context, url + '?scene=import&source=example&lang=en');
  let s = await page.evaluate(() => window.playground.getState());
  assert.equal(s.scene, 'import');
  assert.equal(s.source, 'example');
  assert.equal(s.results.heads, 1);
  assert.equal(s.results.rows_sum_to_one, true);
  await screenshot(page, 'io-example-en.png');

  // An .npy through the file input (what "Open file…" clicks).
  await page.setInputFiles('#ap-file', { name: 'attn.npy', mimeType: 'application/octet-stream', buffer: twoHeads() });
  await frames(page, 4);
  s = await page.evaluate(() => window.playground.getState());
  assert.equal(s.source, 'attn.npy');
  assert.equal(s.results.layers, 1);
  assert.equal(s.results.heads, 2);
  assert.equal(s.results.n, 5);
  assert.deepEqual(s.weights[0][0][3], [0, 0, 1, 0, 0]);
  assert.deepEqual(errors, []);

  // A .json of [2, 3, 6, 6] with tokens, dropped onto the page from another scene: the import scene opens.
  assert.deepEqual(await page.evaluate(() => window.playground.setState({ scene: 'sdpa' })), { ok: true });
  const tokens = ['the', 'cat', 'sat', 'on', 'the', 'mat'];
  const attention = [0, 1].map((l) => [0, 1, 2].map((h) => tokens.map((_, i) => tokens.map((_, j) => {
    const w = tokens.map((_, k) => Math.exp(-Math.abs(k - (i - h)) * (l + 1)));
    return w[j] / w.reduce((a, b) => a + b, 0);
  }))));
  await page.evaluate((text) => {
    const dt = new DataTransfer();
    dt.items.add(new File([text], 'attention.json', { type: 'application/json' }));
    document.getElementById('canvas').dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, JSON.stringify({ attention, tokens }));
  await frames(page, 4);
  s = await page.evaluate(() => window.playground.getState());
  assert.equal(s.scene, 'import');
  assert.equal(s.source, 'attention.json');
  assert.equal(s.results.layers, 2);
  assert.equal(s.results.heads, 3);
  assert.deepEqual(s.tokens, tokens);
  for (const lang of ['en', 'zh']) {
    await page.evaluate((lang) => window.playground.setState({ lang, step: 0, layer: 1, head: 1 }), lang);
    await screenshot(page, `io-import-0-heads-${lang}.png`);
    await page.evaluate(() => window.playground.setState({ step: 1 }));
    await screenshot(page, `io-import-1-head-${lang}.png`);
  }
  await page.evaluate(() => window.playground.setState({ lang: 'en', step: 0 }));

  // Malformed files: a message on screen, nothing changes (the data, the scene).
  const before = await page.evaluate(() => window.playground.getState());
  const truncated = twoHeads().subarray(0, 150);
  await page.setInputFiles('#ap-file', { name: 'broken.npy', mimeType: 'application/octet-stream', buffer: truncated });
  await frames(page, 4);
  let after = await page.evaluate(() => window.playground.getState());
  assert.deepEqual(after.weights, before.weights);
  assert.equal(after.source, before.source);
  assert.ok(after.errors.some((e) => e.includes('broken.npy') && e.includes('truncated')), JSON.stringify(after.errors));
  await screenshot(page, 'io-bad-file-en.png');
  await page.setInputFiles('#ap-file', { name: 'rank1.npy', mimeType: 'application/octet-stream', buffer: npy([4], [1, 2, 3, 4]) });
  await frames(page, 4);
  after = await page.evaluate(() => window.playground.getState());
  assert.equal(after.source, before.source);
  assert.ok(after.errors.some((e) => e.includes('2, 3 or 4 dimensions')), JSON.stringify(after.errors));
  await page.setInputFiles('#ap-file', { name: 'ragged.json', mimeType: 'application/json', buffer: Buffer.from('[[[1,0],[0,1]],[[1,0]]]') });
  await frames(page, 4);
  after = await page.evaluate(() => window.playground.getState());
  assert.equal(after.source, before.source);
  assert.ok(after.errors.some((e) => e.includes('ragged')), JSON.stringify(after.errors));
  // The same weights through the page API, and a bad document refused.
  const bad = await page.evaluate(() => window.playground.setState({ weights: [[1, 2, 3], [4, 5, 6]] }));
  assert.equal(bad.ok, false);
  assert.match(bad.error, /n × n/);
  const api = await page.evaluate(() => window.playground.setState({ weights: [[[0.5, 0.5], [0.2, 0.8]]], tokens: ['a', 'b'] }));
  assert.deepEqual(api, { ok: true });
  s = await page.evaluate(() => window.playground.getState());
  assert.equal(s.results.n, 2);
  assert.match(await page.evaluate(() => window.playground.link()), /scene=import.*layer=0.*head=0/);
  assert.ok(!(await page.evaluate(() => window.playground.link())).includes('weights'));
  assert.deepEqual(errors, []);
});

// numpy.save keeps no labels: the recipes (docs/recipes/) write tokens.json beside attention.npy, and the
// learner opens both at once; the page hands the .npy over first whatever the order of the files.
test('import: an .npy and its tokens.json opened together; the recipes panel', async () => {
  const { page, errors } = await openPage(browser.context, url + '?scene=import&lang=en');
  const names = ['I', 'love', 'cats', 'and', 'dogs'];
  await page.setInputFiles('#ap-file', [
    { name: 'tokens.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify({ tokens: names })) },
    { name: 'attention.npy', mimeType: 'application/octet-stream', buffer: twoHeads() },
  ]);
  await frames(page, 4);
  let s = await page.evaluate(() => window.playground.getState());
  assert.equal(s.source, 'attention.npy + tokens.json');
  assert.equal(s.results.heads, 2);
  assert.deepEqual(s.tokens, names);
  assert.deepEqual(s.errors, []);
  // Tokens that do not fit n: a message, the labels stay.
  await page.setInputFiles('#ap-file', { name: 'short.json', mimeType: 'application/json', buffer: Buffer.from('{"tokens": ["a", "b"]}') });
  await frames(page, 4);
  s = await page.evaluate(() => window.playground.getState());
  assert.deepEqual(s.tokens, names);
  assert.ok(s.errors.some((e) => e.includes('2 tokens') && e.includes('n = 5')), JSON.stringify(s.errors));
  assert.deepEqual(errors, []);
  // "How do I get this file?": open at first beside the built-in example (a fresh page), in both languages.
  const fresh = await openPage(browser.context, url + '?scene=import&lang=en');
  for (const lang of ['en', 'zh']) {
    await fresh.page.evaluate((lang) => window.playground.setState({ lang }), lang);
    await frames(fresh.page, 3);
    await screenshot(fresh.page, `io-recipes-${lang}.png`);
  }
  assert.deepEqual(fresh.errors, []);
});

test('export: the dialog, a PNG of the view, an SVG heatmap that parses, CSV and .npy', async () => {
  const { page, errors } = await openPage(browser.context, url + '?scene=import&lang=en&step=1');
  await page.setInputFiles('#ap-file', { name: 'attn.npy', mimeType: 'application/octet-stream', buffer: twoHeads() });
  await frames(page, 4);
  // The dialog (E), in both languages.
  await page.keyboard.press('e');
  await frames(page, 3);
  await screenshot(page, 'io-export-dialog-en.png');
  await page.evaluate(() => window.playground.setState({ lang: 'zh' }));
  await screenshot(page, 'io-export-dialog-zh.png');
  await page.evaluate(() => window.playground.setState({ lang: 'en' }));

  // PNG of the view: the canvas' pixels, the dialog left out of the picture.
  const png = await download(page, 'png');
  assert.match(png.name, /^import-view\.png$/);
  assert.deepEqual([...png.bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  assert.equal(png.bytes.subarray(12, 16).toString('latin1'), 'IHDR');
  const size = await page.evaluate(() => { const c = document.getElementById('canvas'); return [c.width, c.height]; });
  assert.deepEqual([png.bytes.readUInt32BE(16), png.bytes.readUInt32BE(20)], size);
  fs.writeFileSync(new URL('../../build/screenshots/io-exported-view.png', import.meta.url), png.bytes);

  // SVG of the shown head: well-formed XML with an <svg> root and 25 cells.
  const svg = await download(page, 'svg:results.shown');
  assert.equal(svg.name, 'import-results_shown.svg');
  const text = svg.bytes.toString('utf8');
  assert.ok(text.startsWith('<svg'), text.slice(0, 40));
  const parsed = await page.evaluate((t) => {
    const d = new DOMParser().parseFromString(t, 'image/svg+xml');
    return { error: d.getElementsByTagName('parsererror').length, root: d.documentElement.nodeName, rects: d.querySelectorAll('rect[x]').length };
  }, text);
  assert.deepEqual(parsed, { error: 0, root: 'svg', rects: 25 });
  fs.writeFileSync(new URL('../../build/screenshots/io-exported-head.svg', import.meta.url), text);
  const view = await browser.context.newPage();
  await view.setViewportSize({ width: 400, height: 320 });
  await view.setContent(text);
  await view.screenshot({ path: new URL('../../build/screenshots/io-exported-head-svg.png', import.meta.url).pathname });
  await view.close();

  // CSV: 5 rows of 5 numbers (no tokens in an .npy: no labels); head 0 looks at the previous token.
  await page.evaluate(() => window.playground.setState({ head: 0 }));
  await frames(page, 2);
  const csv = (await download(page, 'csv:results.shown')).bytes.toString('utf8').trim().split(/\r\n/);
  assert.equal(csv.length, 5);
  assert.deepEqual(csv[3].split(',').map(Number), [0, 0, 1, 0, 0]);
  // .npy: NumPy's header for a 5 × 5 float32 array, then 100 bytes of data.
  const n = (await download(page, 'npy:results.shown')).bytes;
  assert.equal(n.subarray(1, 6).toString('latin1'), 'NUMPY');
  const hlen = n.readUInt16LE(8);
  assert.match(n.subarray(10, 10 + hlen).toString('latin1'), /'descr': '<f4', 'fortran_order': False, 'shape': \(5, 5\)/);
  assert.equal(n.length - 10 - hlen, 100);
  assert.equal(n.readFloatLE(10 + hlen + (3 * 5 + 2) * 4), 1);
  // Another scene's matrices are found the same way (sdpa: Q, K, V, scores …).
  await page.evaluate(() => window.playground.setState({ scene: 'sdpa' }));
  await frames(page, 2);
  const q = (await download(page, 'csv:matrices.weights')).bytes.toString('utf8').trim().split(/\r\n/);
  const s = await page.evaluate(() => window.playground.getState());
  assert.equal(q.length, s.matrices.weights.length + 1, 'a header row of tokens');
  assert.equal(q[0].split(',').length, s.key_tokens.length + 1);
  assert.deepEqual(errors, []);
});

// Compares two images (data: URLs) in the page, block by block (32 × 18 blocks of mean colour): the SVG of
// the view, rendered by the browser, must look like the PNG of the same view.
async function blockDifference(page, aUrl, bUrl, w, h) {
  return page.evaluate(async ([a, b, w, h]) => {
    const load = (src) => new Promise((res, rej) => { const i = new Image(); i.onload = () => res(i); i.onerror = rej; i.src = src; });
    // Drawn at full size first (an SVG drawn straight into 32 × 18 pixels would be rendered that small).
    const blocks = async (src) => {
      const img = await load(src);
      const c = document.createElement('canvas'); c.width = w; c.height = h;
      const g = c.getContext('2d');
      g.drawImage(img, 0, 0, w, h);
      const px = g.getImageData(0, 0, w, h).data, out = new Float64Array(32 * 18 * 4), n = new Float64Array(32 * 18);
      for (let y = 0; y < h; y++)
        for (let x = 0; x < w; x++) {
          const b = Math.floor(y * 18 / h) * 32 + Math.floor(x * 32 / w), k = (y * w + x) * 4;
          for (let c2 = 0; c2 < 3; c2++) out[b * 4 + c2] += px[k + c2];
          n[b]++;
        }
      for (let b = 0; b < n.length; b++) for (let c2 = 0; c2 < 3; c2++) out[b * 4 + c2] /= n[b];
      return out;
    };
    const [x, y] = [await blocks(a), await blocks(b)];
    let sum = 0, worst = 0;
    for (let k = 0; k < x.length; k += 4)
      for (let c = 0; c < 3; c++) { const d = Math.abs(x[k + c] - y[k + c]); sum += d; worst = Math.max(worst, d); }
    return { mean: sum / (x.length / 4 * 3), worst };
  }, [aUrl, bUrl, w, h]);
}

test('export: the SVG of the view is vector shapes and glyph outlines that look like the PNG of the same view', async () => {
  const { page, errors } = await openPage(browser.context, url + '?scene=sdpa&lang=en&step=4');
  // The SVGs are parsed in a blank page: the app's Content-Security-Policy (style-src 'self') reports every
  // style attribute of a document parsed in its page, though nothing of it is shown.
  const scratch = await browser.context.newPage();
  for (const [name, state] of [['sdpa-softmax', { step: 4 }], ['sdpa-512-heatmaps', { preset: 'long', step: 4 }], ['scaling-plot', { scene: 'scaling' }],
    ['sdpa-zh', { scene: 'sdpa', preset: 'chinese', lang: 'zh', step: 1 }]]) {
    await page.evaluate((s) => window.playground.setState(s), state);
    await chineseFontIn(page);  // (the Chinese view is exported once its font has arrived, as a learner sees it)
    await frames(page, 3);
    const svg = await download(page, 'svg');
    assert.match(svg.name, /-view\.svg$/);
    const text = svg.bytes.toString('utf8');
    const parsed = await scratch.evaluate((t) => {
      const d = new DOMParser().parseFromString(t, 'image/svg+xml');
      return { error: d.getElementsByTagName('parsererror').length, root: d.documentElement.nodeName, glyphs: d.querySelectorAll('use').length,
        outlines: d.querySelectorAll('defs path').length, shapes: d.querySelectorAll('g > path').length, images: d.querySelectorAll('image').length };
    }, text);
    assert.equal(parsed.error, 0, name);
    assert.equal(parsed.root, 'svg');
    assert.ok(parsed.glyphs > 200, `${name}: ${parsed.glyphs} glyphs placed`);
    assert.ok(parsed.outlines > 30 && parsed.outlines < parsed.glyphs, `${name}: each outline defined once (${parsed.outlines})`);
    assert.ok(parsed.shapes > 20, `${name}: ${parsed.shapes} filled shapes`);
    if (name === 'sdpa-512-heatmaps') assert.ok(parsed.images >= 1, 'the shader-drawn heatmaps are in it as images');
    fs.writeFileSync(new URL(`../../build/screenshots/io-exported-${name}.svg`, import.meta.url), text);
    const png = await download(page, 'png');
    const [w, h] = [png.bytes.readUInt32BE(16), png.bytes.readUInt32BE(20)];
    const d = await blockDifference(page, 'data:image/svg+xml;base64,' + svg.bytes.toString('base64'), 'data:image/png;base64,' + png.bytes.toString('base64'), w, h);
    console.log(`# ${name}: SVG ${(svg.bytes.length / 1024).toFixed(0)} KB, ${parsed.glyphs} glyphs, ${parsed.outlines} outlines, ${parsed.shapes} shape paths, ${parsed.images} images; block difference to the PNG mean ${d.mean.toFixed(2)}, worst ${d.worst.toFixed(1)}`);
    assert.ok(d.mean < 2 && d.worst < 40, `${name}: the SVG looks like the view (mean ${d.mean}, worst ${d.worst})`);
    const view = await browser.context.newPage();
    await view.setViewportSize({ width: w, height: h });
    await view.setContent(`<body style="margin:0">${text}</body>`);
    await view.screenshot({ path: new URL(`../../build/screenshots/io-exported-${name}-svg.png`, import.meta.url).pathname });
    await view.close();
  }
  // One plot alone (the √d_k sweep): the view cut to the plot's rectangle, as SVG and as PNG, the same size.
  await page.evaluate(() => window.playground.setState({ scene: 'scaling', lang: 'en' }));
  await frames(page, 3);
  const plotSvg = await download(page, 'plot-svg:0');
  assert.match(plotSvg.name, /^scaling-plot-.*\.svg$/);
  const box = await scratch.evaluate((t) => {
    const d = new DOMParser().parseFromString(t, 'image/svg+xml');
    return { error: d.getElementsByTagName('parsererror').length, w: +d.documentElement.getAttribute('width'), h: +d.documentElement.getAttribute('height') };
  }, plotSvg.bytes.toString('utf8'));
  assert.equal(box.error, 0);
  assert.ok(box.w > 100 && box.w < 1280 && box.h > 80 && box.h < 720, JSON.stringify(box));
  const plotPng = await download(page, 'plot-png:0');
  assert.match(plotPng.name, /^scaling-plot-.*\.png$/);
  const pw = plotPng.bytes.readUInt32BE(16), ph = plotPng.bytes.readUInt32BE(20);
  assert.ok(Math.abs(pw - box.w) <= 2 && Math.abs(ph - box.h) <= 2, `PNG ${pw}×${ph}, SVG ${box.w}×${box.h}`);
  const pd = await blockDifference(page, 'data:image/svg+xml;base64,' + plotSvg.bytes.toString('base64'), 'data:image/png;base64,' + plotPng.bytes.toString('base64'), pw, ph);
  console.log(`# one plot: ${box.w}×${box.h}, block difference SVG/PNG mean ${pd.mean.toFixed(2)}, worst ${pd.worst.toFixed(1)}`);
  assert.ok(pd.mean < 3, `the plot's SVG looks like its PNG (mean ${pd.mean})`);
  fs.writeFileSync(new URL('../../build/screenshots/io-exported-plot.svg', import.meta.url), plotSvg.bytes);
  fs.writeFileSync(new URL('../../build/screenshots/io-exported-plot.png', import.meta.url), plotPng.bytes);
  await scratch.close();
  assert.deepEqual(errors, []);
});
