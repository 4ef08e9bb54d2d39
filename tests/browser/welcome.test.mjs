// Browser test of the start (issue 17, item 1): a bare visit opens the lesson map as a welcome, reported by
// getState().welcome; Enter starts lesson 1, Escape leaves the page as a bare visit always opened; the page's own
// keys and setState work under it; links that name a view, embeds and iframes open without it; each scene's first
// stage says how to start; "Check yourself" is one click away at 1280×720. Screenshots in English and Chinese:
// build/screenshots/welcome-*.png, first-stage-*.png, quiz-jump-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist, launch, openPage, screenshot, frames } from './helpers.mjs';

let server, url, browser;
before(async () => { ({ server, url } = await serveDist()); browser = await launch(); });
after(async () => { await browser.close(); server.close(); });

const state = (page) => page.evaluate(() => window.playground.getState({ matrices: false }));

test('a bare visit opens the welcome; Escape closes it and leaves the page as it always opened', async () => {
  const { page, errors } = await openPage(browser.context, url);
  let s = await state(page);
  assert.equal(s.welcome, true);
  assert.equal(s.scene, 'sdpa');
  assert.equal(s.step.index, s.step.count - 1, 'behind the welcome: the SDPA scene, complete, as before');
  const behind = s.step;
  await screenshot(page, 'welcome-en.png');
  // The page's own keys work under it: L switches the language (and back).
  await page.keyboard.press('l');
  await frames(page, 3);
  s = await state(page);
  assert.equal(s.lang, 'zh');
  assert.equal(s.welcome, true);
  await screenshot(page, 'welcome-zh.png');
  await page.keyboard.press('l');
  await frames(page, 2);
  // A scene key waits while the welcome holds the keyboard.
  await page.keyboard.press('ArrowLeft');
  await frames(page, 2);
  assert.deepEqual((await state(page)).step, behind);
  await page.keyboard.press('Escape');
  await frames(page, 2);
  s = await state(page);
  assert.equal(s.welcome, false);
  assert.equal(s.lang, 'en');
  assert.equal(s.scene, 'sdpa');
  assert.deepEqual(s.step, behind);
  // Now the scene has the keys.
  await page.keyboard.press('ArrowLeft');
  await frames(page, 2);
  assert.equal((await state(page)).step.index, behind.index - 1);
  assert.deepEqual(errors, []);
  await page.close();
});

test('Enter starts lesson 1 at its first stage, which says how to go on; Space starts it', async () => {
  for (const lang of ['en', 'zh']) {
    const { page, errors } = await openPage(browser.context, url + `?lang=${lang}`);
    assert.equal((await state(page)).welcome, true, `?lang=${lang} alone is a bare visit`);
    await page.keyboard.press('Enter');
    await frames(page, 3);
    let s = await state(page);
    assert.equal(s.welcome, false);
    assert.equal(s.scene, 'bottleneck', 'lesson 1 of the path');
    assert.equal(s.step.index, 0);
    assert.equal(s.step.sub, 0);
    assert.equal(s.step.playing, false);
    await screenshot(page, `first-stage-bottleneck-${lang}.png`);
    // Another scene's first stage: the prompt over its still empty matrices.
    assert.deepEqual(await page.evaluate(() => window.playground.setState({ scene: 'sdpa', step: { index: 0, sub: 0 } })), { ok: true });
    await screenshot(page, `first-stage-sdpa-${lang}.png`);
    await page.keyboard.press('Space');
    await frames(page, 2);
    s = await state(page);
    assert.equal(s.step.playing, true, 'Space plays');
    assert.deepEqual(errors, []);
    await page.close();
  }
});

test('setState works under the welcome and sets it; the link carries no welcome', async () => {
  const { page, errors } = await openPage(browser.context, url + 'index.html');
  assert.deepEqual(await page.evaluate(() => window.playground.setState({ scene: 'masks', step: 1 })), { ok: true });
  let s = await state(page);
  assert.deepEqual([s.scene, s.step.index, s.welcome], ['masks', 1, true]);
  // setState(getState()) keeps it as it is.
  assert.deepEqual(await page.evaluate(() => window.playground.setState(window.playground.getState())), { ok: true });
  assert.equal((await state(page)).welcome, true);
  const bad = await page.evaluate(() => window.playground.setState({ welcome: 'no' }));
  assert.equal(bad.ok, false);
  assert.match(bad.error, /welcome/);
  assert.equal((await state(page)).welcome, true, 'a refusal changes nothing');
  assert.deepEqual(await page.evaluate(() => window.playground.setState({ welcome: false })), { ok: true });
  s = await state(page);
  assert.equal(s.welcome, false);
  assert.equal(s.scene, 'masks');
  const link = await page.evaluate(() => window.playground.link());
  assert.doesNotMatch(link, /welcome/);
  assert.match(link, /scene=masks/);
  // G opens the map again (not the welcome), and G closes it.
  await page.keyboard.press('g');
  await frames(page, 2);
  assert.equal((await state(page)).welcome, false);
  await page.keyboard.press('g');
  await frames(page, 2);
  // setState({welcome: true}) opens it (a course page may show it); Escape closes it.
  assert.deepEqual(await page.evaluate(() => window.playground.setState({ welcome: true })), { ok: true });
  await frames(page, 2);
  await page.keyboard.press('Escape');
  await frames(page, 2);
  assert.equal((await state(page)).welcome, false);
  // The addresses the bar took meanwhile open the view without the welcome.
  const other = await openPage(browser.context, link);
  assert.equal((await state(other.page)).welcome, false);
  await other.page.close();
  await page.close();
  assert.deepEqual(errors.filter((e) => !/welcome/.test(e)), []);
});

test('links that name a view, embeds and iframes open without the welcome, exactly as before', async () => {
  const cases = [['?scene=sdpa', false], ['?preset=cats', false], ['?embed=1', false], ['?hide=controls', false],
    ['?step=2', false], ['?text=I%20love%20cats', false], ['?welcome=0', false], ['?lang=zh&zoom=1.2', true],
    ['?present=1', true], ['?scene=masks&welcome=1', true]];
  for (const [query, want] of cases) {
    const { page, errors } = await openPage(browser.context, url + 'index.html' + query);
    assert.equal((await state(page)).welcome, want, query);
    assert.deepEqual(errors, [], query);
    await page.close();
  }
  // A bare page inside an iframe (a course page's embed) opens without it.
  const page = await browser.context.newPage();
  await page.goto(url + 'examples/course.html');
  await page.evaluate(() => {
    const f = document.createElement('iframe');
    f.id = 'bare';
    f.src = '../index.html';
    f.style.cssText = 'position:fixed;left:0;top:0;width:800px;height:480px;z-index:10;border:0';
    document.body.appendChild(f);
  });
  const handle = await page.waitForSelector('#bare');
  const app = await handle.contentFrame();
  await app.waitForFunction(() => window.playground && window.playground.ready);
  await app.evaluate(() => window.playground.ready);
  const s = await app.evaluate(() => window.playground.getState({ matrices: false }));
  assert.equal(s.welcome, false, 'an iframe: no welcome');
  assert.equal(s.scene, 'sdpa');
  await page.close();
});

test('"Check yourself" is one click away at 1280×720: the button on the side panel\'s first line opens and shows it', async () => {
  for (const lang of ['en', 'zh']) {
    const { page, errors } = await openPage(browser.context, url + `?scene=sdpa&lang=${lang}`);
    await screenshot(page, `quiz-jump-before-${lang}.png`);
    // The button sits at the right end of the "Examples" heading, the panel's first line.
    const box = await page.evaluate(() => ({ w: window.innerWidth }));
    const side = Math.min(330, box.w * 0.34);
    await page.mouse.click(side - 50, 52);
    await frames(page, 4);
    await screenshot(page, `quiz-jump-${lang}.png`);
    // The screenshot shows the questions opened at the top of the panel; the click changed no view.
    const s = await state(page);
    assert.ok(s.quiz.length >= 2, JSON.stringify(s.quiz));
    assert.equal(s.scene, 'sdpa');
    assert.deepEqual(errors, []);
    await page.close();
  }
});
