// Browser test of "Check yourself" (app/quiz.h): the section opens with a click, an option is picked with the
// mouse, the answer is judged and explained; in Chinese too (build/screenshots/quiz-*.png).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist, launch, openPage, screenshot, frames, chineseFontIn } from './helpers.mjs';

let server, url, browser;
before(async () => { ({ server, url } = await serveDist()); browser = await launch(); });
after(async () => { await browser.close(); server.close(); });

test('check yourself: open, pick an option with the mouse, the explanation shows; Chinese', async () => {
  const { page, errors } = await openPage(browser.context, url + '?scene=scaling');
  const quiz = async () => (await page.evaluate(() => window.playground.getState({ matrices: false }))).quiz;
  let q = await quiz();
  assert.equal(q.length, 2);
  assert.equal(q[0].picked, -1);
  await page.mouse.click(88, 302);  // the "Check yourself" header under the scene's controls
  await frames(page, 3);
  await screenshot(page, 'quiz-open.png');
  // The first question's second option ("the variance of q·k grows as dₖ …"): find its radio button by
  // walking down the panel until the state says it was picked.
  let picked = -1;
  for (let y = 320; y < 700 && picked < 0; y += 6) {
    await page.mouse.click(22, y);
    await frames(page, 2);
    picked = (await quiz())[0].picked;
  }
  assert.ok(picked >= 0, 'an option of the first question was picked with the mouse');
  q = await quiz();
  assert.equal(typeof q[0].right, 'boolean');
  assert.ok(q[0].explanation.length > 20);
  await screenshot(page, 'quiz-answered-en.png');
  // The right answer through the page API, then the same panel in Chinese.
  assert.deepEqual(await page.evaluate(() => window.playground.setState({ answer: { id: 'why-sqrt', option: 1 }, lang: 'zh' })), { ok: true });
  await chineseFontIn(page);  // the interface's Chinese text arrives with its font (fetched on the first switch)
  q = await quiz();
  assert.equal(q[0].right, true);
  assert.match(q[0].explanation, /方差/);
  await screenshot(page, 'quiz-answered-zh.png');
  const bad = await page.evaluate(() => window.playground.setState({ answer: { id: 'why-sqrt', option: 7 } }));
  assert.equal(bad.ok, false);
  assert.deepEqual(errors, []);
});
