// Browser test of links and embedding: the address bar follows the view (history.replaceState) and that
// address restores it; the Share dialog (link and iframe snippet); a course page on another origin drives an
// embed by postMessage and follows its events (web/examples/scrollytelling.html); an embed on the same origin
// leaves the host's focus and scroll alone at load; ?hide= hides panels.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist, launch, openPage, screenshot, frames } from './helpers.mjs';

let server, url, browser;
before(async () => { ({ server, url } = await serveDist()); browser = await launch(); });
after(async () => { await browser.close(); server.close(); });

const params = (s) => { const o = { ...s }; for (const k of ['errors', 'frames', 'view', 'hover', 'quiz', 'fonts', 'results']) delete o[k]; return o; };

test('the address bar follows the view, and that address restores it exactly', async () => {
  for (const [scene, change] of [['scaling', { d_k: 128, seed: 5 }], ['masks', { bug: 'scale-after-softmax', causal: true, sentence: 2 }],
    ['sdpa', { text: '我爱猫 and dogs', d_k: 2, mask: 'causal' }]]) {
    const { page, errors } = await openPage(browser.context, url + '?scene=' + scene);
    assert.deepEqual(await page.evaluate((c) => window.playground.setState({ ...c, step: 1, lang: 'zh' }), change), { ok: true });
    await frames(page, 3);
    const link = page.url();
    assert.match(link, new RegExp('scene=' + scene));
    assert.match(link, /lang=zh/);
    const want = params(await page.evaluate(() => window.playground.getState({ matrices: false })));
    const again = await openPage(browser.context, link);
    const got = params(await again.page.evaluate(() => window.playground.getState({ matrices: false })));
    assert.deepEqual(got, want, `${link} restores the view`);
    assert.deepEqual(errors, []);
    assert.deepEqual(again.errors, []);
    await again.page.close();
    await page.close();
  }
});

test('Share: the link and the embed snippet, copied', async () => {
  const { page, errors } = await openPage(browser.context, url + '?scene=masks&step=2');
  await page.mouse.click(1047, 21);  // "Share" in the top bar
  await frames(page, 3);
  await screenshot(page, 'share-dialog-en.png');
  await page.evaluate(() => window.playground.setState({ lang: 'zh' }));
  await frames(page, 3);
  await screenshot(page, 'share-dialog-zh.png');
  assert.deepEqual(errors, []);
});

test('a course page on another origin drives the embed and follows its events', async () => {
  // Host on 127.0.0.1, playground on localhost: two origins, only postMessage crosses.
  const port = new URL(url).port;
  const embed = `http://localhost:${port}/index.html?scene=sdpa&embed=1&hide=controls&step=0`;
  const host = `${url}examples/scrollytelling.html?playground=${encodeURIComponent(embed)}`;
  const page = await browser.context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto(host);
  await page.waitForFunction(() => document.getElementById('status').textContent.includes('ready') || window.pageLog.length > 0, null, { timeout: 60000 });
  const frame = page.frames().find((f) => f.url().startsWith(`http://localhost:${port}/`));
  assert.ok(frame, 'the embed is on the second origin');
  // Scroll the text to its fourth section: the host posts setState({step: 3}); the embed answers with an event.
  await page.evaluate(() => document.querySelector('section[data-step="3"]').scrollIntoView({ block: 'center' }));
  await page.waitForFunction(() => window.pageLog.some((m) => m.step && m.step.index === 3), null, { timeout: 30000 })
    .catch((e) => { throw new Error(`no step-4 event after scrolling: ${e.message}`); });
  let st = await frame.evaluate(() => window.playground.getState({ matrices: false }));
  assert.equal(st.step.index, 3);
  await screenshot(page, 'embed-scrollytelling-step4.png');
  // The learner steps inside the playground: the host's text follows.
  await page.mouse.click(900, 400);
  await frames(page, 3);
  const focused = await frame.evaluate(() => document.activeElement.id);
  // A key can arrive while the embed's loop is waking up from idle: press again if nothing moved.
  let moved = false;
  for (let attempt = 0; attempt < 3 && !moved; attempt++) {
    if ((await frame.evaluate(() => window.playground.getState({ matrices: false }).step.index)) < 4) await page.keyboard.press('PageDown');
    moved = await page.waitForFunction(() => window.pageLog.some((m) => m.type === 'step' && m.step.index >= 4), null, { timeout: 8000 })
      .then(() => true, () => false);
  }
  assert.ok(moved, `no event after PageDown (focus in the embed: ${focused}); log ${JSON.stringify(await page.evaluate(() => window.pageLog))}`);
  st = await frame.evaluate(() => window.playground.getState({ matrices: false }));
  assert.ok(st.step.index >= 4, JSON.stringify(st.step));
  await frames(page, 2);
  const active = await page.evaluate(() => document.querySelector('section.active').dataset.step);
  const last = await page.evaluate(() => window.pageLog[window.pageLog.length - 1].step.index);
  assert.equal(active, String(last), 'the text follows the embed');
  await screenshot(page, 'embed-scrollytelling-followed.png');
  assert.deepEqual(errors, []);
  await page.close();
});

test('an embed on the same origin leaves the host page focus and scroll alone; hide= hides panels', async () => {
  const page = await browser.context.newPage();
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto(url + 'examples/scrollytelling.html');
  await page.waitForFunction(() => window.pageLog.length > 0, null, { timeout: 60000 });
  const at = await page.evaluate(() => ({ active: document.activeElement.tagName, y: window.scrollY }));
  assert.equal(at.active, 'BODY', 'the host keeps the focus');
  await page.keyboard.press('Space');
  await page.waitForTimeout(400);
  const y = await page.evaluate(() => window.scrollY);
  assert.ok(y > at.y, `Space scrolls the course page (${at.y} -> ${y})`);
  // hide=topbar,timeline: the embed shows the scene alone.
  const { page: p2 } = await openPage(browser.context, url + '?scene=scaling&embed=1&hide=topbar,timeline,controls', { viewport: { width: 800, height: 480 } });
  await screenshot(p2, 'embed-800x480-hidden-panels.png');
  const bad = await openPage(browser.context, url + '?scene=scaling&hide=sidebar');
  const s = await bad.page.evaluate(() => window.playground.getState({ matrices: false }));
  assert.ok(s.errors.some((e) => /sidebar/.test(e)), JSON.stringify(s.errors));
  await page.close();
});
