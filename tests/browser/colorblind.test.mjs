// Browser test of the colour-blind-safe switch (?colors=colorblind, the Display option) in every scene (issue
// 15, item 6): each stage of each scene photographed with the safe colours, and with the default ones up to the
// first stage that differs (build/screenshots/colorblind-<scene>-<stage>-{safe,default}.png). The switch must reach each view: in
// every scene some stage's two pictures differ (a stage of tables alone has nothing to recolour), and no
// safe picture holds a pixel of the default warm and cool accents (214, 96, 77) and (67, 147, 195), which
// views drew from literals before the colours came from widgets/colormap.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist, launch, openPage, screenshot, frames, shots, inImage } from './helpers.mjs';
import fs from 'node:fs';
import path from 'node:path';

let server, url, browser;
before(async () => { ({ server, url } = await serveDist()); browser = await launch(); });
after(async () => { await browser.close(); server.close(); });

// How many pixels of a PNG have exactly each of `colours` ([r, g, b]), decoded in a blank page.
async function countColours(png, colours) {
  return inImage(browser.context, png, (d, width, height, colours) => {
    const n = colours.map(() => 0);
    for (let i = 0; i < d.length; i += 4)
      colours.forEach(([r, g, b], k) => { if (d[i] === r && d[i + 1] === g && d[i + 2] === b) n[k]++; });
    return n;
  }, colours);
}

// The scenes, as the page lists them (a refusal names every known scene).
async function sceneIds() {
  const { page } = await openPage(browser.context, url + 'index.html?welcome=0');
  const r = await page.evaluate(() => window.playground.setState({ scene: 'no-such-scene' }));
  await page.close();
  const m = /known: ([^)]*)\)/.exec(r.error);
  assert.ok(m, r.error);
  return m[1].split(', ');
}

async function open(scene, colours) {
  const { page, errors } = await openPage(browser.context, `${url}index.html?welcome=0&scene=${scene}${colours}`,
    { viewport: { width: 1280, height: 720 } });
  await page.mouse.move(1279, 719);  // no hover text over the picture
  return { page, errors };
}

async function stage(page, k) {
  assert.deepEqual(await page.evaluate((k) => window.playground.setState({ step: k }), k), { ok: true });
  await frames(page, 4);
  return page.evaluate(() => window.playground.getState({ matrices: false }).step);
}

test('the colour-blind-safe switch reaches every scene', async () => {
  const ids = await sceneIds();
  assert.ok(ids.length >= 10, ids.join(', '));
  const accents = [[214, 96, 77], [67, 147, 195]];
  const report = [];
  for (const scene of ids) {
    const plain = await open(scene, ''), safe = await open(scene, '&colors=colorblind');
    const count = (await stage(plain.page, 0)).count;
    // Every stage with the switch on is photographed and searched for the default accents; a stage is photographed
    // with the default colours too until one of the scene's stages differs (what the switch must show once).
    let differ = 0;
    for (let k = 0; k < count; k++) {
      const step = await stage(safe.page, k);
      const b = fs.readFileSync(await screenshot(safe.page, `colorblind-${scene}-${k}-${step.name}-safe.png`));
      const now = await countColours(b, accents);
      let line = `${scene} ${k} ${step.name}: with the switch ${now.join('/')} px of the default accents`;
      if (!differ) {
        assert.equal((await stage(plain.page, k)).name, step.name);
        const a = fs.readFileSync(await screenshot(plain.page, `colorblind-${scene}-${k}-${step.name}-default.png`));
        line += `, without it ${(await countColours(a, accents)).join('/')} px` + (Buffer.compare(a, b) === 0 ? ' (same picture)' : '');
        differ += Buffer.compare(a, b) !== 0;
      }
      report.push(line);
      assert.deepEqual(now, [0, 0], `${scene}, stage ${step.name}: default accent colours drawn with the colour-blind switch on`);
    }
    assert.ok(differ > 0, `${scene}: the switch changed no pixel in any of its ${count} stages`);
    assert.deepEqual(plain.errors, [], scene);
    assert.deepEqual(safe.errors, [], scene);
    await plain.page.close();
    await safe.page.close();
  }
  fs.writeFileSync(path.join(shots, 'colorblind-report.txt'), report.join('\n') + '\n');  // (beside the pictures)
  console.log(report.join('\n'));
});
