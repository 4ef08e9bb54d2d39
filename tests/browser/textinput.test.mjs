// Browser test of text fields as a person expects them: a click opens a real HTML input over the canvas field
// (src/platform/text_field.cpp, web/playground.js), so that typing, paste and input methods work. Chinese
// arrives through insertText (what an IME's commit and a paste send), which a canvas field never received.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist, launch, openPage, screenshot, frames } from './helpers.mjs';

let server, url, browser;
before(async () => { ({ server, url } = await serveDist()); browser = await launch(); });
after(async () => { await browser.close(); server.close(); });

const state = (page) => page.evaluate(() => window.playground.getState({ matrices: false }));
const overlay = (page) => page.evaluate(() => {
  const e = document.querySelector('.ap-input');
  return e ? { tag: e.tagName, value: e.value, focused: document.activeElement === e, label: e.getAttribute('aria-label') } : null;
});

test('the sentence field: a click opens an HTML input; typed and composed Chinese reach the model; keys stay with it', async () => {
  const { page, errors } = await openPage(browser.context, url + '?scene=sdpa');
  await page.mouse.click(160, 434);
  await frames(page, 2);
  const o = await overlay(page);
  assert.ok(o && o.tag === 'INPUT' && o.focused, JSON.stringify(o));
  assert.equal(o.value, "The animal didn't cross the street because it was too tired");
  assert.ok(o.label.length > 0, 'screen readers get a name');
  await page.keyboard.press('Control+A');
  // Letters that are shortcuts on the canvas (s: next scene, space: play, l: language) are text here.
  await page.keyboard.type('s l ');
  await page.keyboard.insertText('我爱鹦鹉');
  await frames(page, 4);
  let s = await state(page);
  assert.equal(s.text, 's l 我爱鹦鹉');
  assert.deepEqual(s.tokens, ['s', 'l', '我', '爱', '鹦', '鹉']);
  assert.equal(s.scene, 'sdpa');
  assert.equal(s.lang, 'en');
  assert.equal(s.step.playing, false);
  await screenshot(page, 'textinput-sdpa-typed.png');
  // Enter closes it and gives the keyboard back to the playground.
  await page.keyboard.press('Enter');
  await frames(page, 2);
  assert.equal(await overlay(page), null);
  await page.keyboard.press('Home');
  await frames(page, 2);
  assert.equal((await state(page)).step.index, 0, 'the keys step the animation again');
  // Text typed that the scene refuses: the message, and the field keeps what was typed.
  await page.mouse.click(160, 434);
  await frames(page, 2);
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Backspace');
  await frames(page, 3);
  s = await state(page);
  assert.equal(s.text, 's l 我爱鹦鹉', 'the last good state stays');
  assert.ok(s.errors.length > 0, 'a message says why');
  await screenshot(page, 'textinput-empty-refused.png');
  await page.keyboard.press('Escape');
  await frames(page, 2);
  assert.equal(await overlay(page), null);
  assert.deepEqual(errors, []);
});

test('the masks sentences: a textarea, one sentence per line, pasted Chinese', async () => {
  const { page, errors } = await openPage(browser.context, url + '?scene=masks&step=0');
  await page.mouse.click(160, 385);
  await frames(page, 2);
  const o = await overlay(page);
  assert.ok(o && o.tag === 'TEXTAREA' && o.focused, JSON.stringify(o));
  await page.keyboard.press('Control+A');
  await page.keyboard.type('the cat sat\n');
  await page.keyboard.insertText('猫坐在垫子上');
  await frames(page, 4);
  const s = await state(page);
  assert.deepEqual(s.sentences, ['the cat sat', '猫坐在垫子上']);
  assert.deepEqual(s.results.lengths, [3, 6]);
  await screenshot(page, 'textinput-masks-typed.png');
  assert.deepEqual(errors, []);
});
