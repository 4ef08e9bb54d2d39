// A monkey (issue 14): a few thousand random actions — every documented key, mouse clicks, drags and the
// wheel, touch taps, page-API calls — across all scenes and both languages, with a health check every few
// dozen actions: no console or page error, frames still advance after an input, getState answers, and
// setState(getState()) is accepted and gives the same document back. On a failure it prints the seed and
// the shortest run of the last actions that still fails from a fresh page. Fixed seed (MONKEY_SEED
// overrides it), bounded length (MONKEY_ACTIONS).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist, launch, frames, screenshot } from './helpers.mjs';

const SEED = Number(process.env.MONKEY_SEED || 20261201);
// ./build.sh test runs it short (about a minute); ./build.sh soak (AP_SOAK=1) at full size.
const ACTIONS = Number(process.env.MONKEY_ACTIONS || (process.env.AP_SOAK ? 2400 : 320));
const CHECK_EVERY = 40;
const SCENES = ['bottleneck', 'bahdanau', 'luong', 'self', 'sdpa', 'scaling', 'multihead', 'masks', 'train', 'cost', 'import'];
// Every key of the help panel (F1), the scenes' own keys among them, and a few a learner hits by accident.
const KEYS = ['Space', 'ArrowRight', 'ArrowLeft', 'ArrowUp', 'ArrowDown', 'Shift+ArrowRight', 'Shift+ArrowLeft',
  'Shift+ArrowDown', 'Shift+ArrowUp', 'PageDown', 'PageUp', ']', '[', 'Home', 'End', '1', '2', '3', '4', '5', '6',
  '7', '8', '9', 'r', 'n', 'p', 'g', 's', 'l', 'c', '+', '-', 't', 'f', 'e', 'Tab', 'Shift+Tab', 'Escape', 'F1', '?',
  'Enter', 'Backspace', 'a', 'x', '0', 'Delete'];

function rng(seed) {  // mulberry32: the same actions for the same seed
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6D2B79F5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function makeActions(seed, count) {
  const r = rng(seed);
  const pick = (a) => a[Math.floor(r() * a.length)];
  const out = [];
  for (let i = 0; i < count; i++) {
    const u = r();
    const x = Math.floor(r() * 1280), y = Math.floor(r() * 720);
    if (u < 0.50) out.push({ t: 'key', key: pick(KEYS) });
    else if (u < 0.65) out.push({ t: 'click', x, y });
    else if (u < 0.70) out.push({ t: 'drag', x, y, dx: Math.floor(r() * 200 - 100), dy: Math.floor(r() * 200 - 100) });
    else if (u < 0.74) out.push({ t: 'wheel', x, y, dy: Math.floor(r() * 600 - 300) });
    else if (u < 0.78) out.push({ t: 'tap', x, y });
    else if (u < 0.86) out.push({ t: 'api', call: { scene: pick(SCENES) } });
    else if (u < 0.90) out.push({ t: 'api', call: { lang: pick(['en', 'zh']) } });
    else if (u < 0.95) out.push({ t: 'step', k: Math.floor(r() * 9) - 4 });
    else out.push({ t: 'api', call: { step: Math.floor(r() * 8), playing: r() < 0.3 } });
  }
  return out;
}

async function act(page, a) {
  switch (a.t) {
    case 'key': await page.keyboard.press(a.key, { delay: 20 }); break;
    case 'click': await page.mouse.click(a.x, a.y); break;
    case 'drag':
      await page.mouse.move(a.x, a.y); await page.mouse.down();
      await page.mouse.move(a.x + a.dx, a.y + a.dy, { steps: 3 }); await page.mouse.up(); break;
    case 'wheel': await page.mouse.move(a.x, a.y); await page.mouse.wheel(0, a.dy); break;
    case 'tap': await page.touchscreen.tap(a.x, a.y); break;
    case 'api': await page.evaluate((c) => window.playground.setState(c), a.call); break;
    case 'step': await page.evaluate((k) => window.playground.step(k), a.k); break;
  }
}

// What setState(getState()) must give back; the page's own reports and a running measurement are left out.
function comparable(s) {
  const c = JSON.parse(JSON.stringify(s));
  for (const k of ['errors', 'frames', 'hover', 'view', 'fonts', 'quiz']) delete c[k];
  if (c.results && c.results.measured) delete c.results.measured;  // the cost lab's clock
  if (c.measured) delete c.measured;
  return JSON.stringify(c);
}

// Returns null when healthy, else what is wrong.
async function health(page, errors) {
  if (errors.length) return `console: ${errors.join(' | ')}`;
  // A text overlay or a dialog may hold the keys: Escape gives them back (a learner would do the same).
  const before = await page.evaluate(() => window.playground.getState({ matrices: false }).frames).catch((e) => `getState threw: ${e}`);
  if (typeof before !== 'number') return String(before);
  let advanced = false;
  for (let k = 0; k < 30 && !advanced; k++) {
    await page.evaluate(() => { window.playground.step(1); window.playground.step(-1); });
    await frames(page, 2);
    advanced = (await page.evaluate(() => window.playground.getState({ matrices: false }).frames)) > before;
  }
  if (!advanced) return 'frames stopped';
  const rt = await page.evaluate(() => {
    window.playground.setState({ playing: false });
    const s = window.playground.getState();
    const r = window.playground.setState(s);
    return { r, s, t: window.playground.getState() };
  });
  if (!rt.r.ok) return `setState(getState()) refused: ${rt.r.error}`;
  if (comparable(rt.s) !== comparable(rt.t)) {
    const a = comparable(rt.s), b = comparable(rt.t);
    let i = 0;
    while (i < a.length && a[i] === b[i]) i++;
    return `setState(getState()) changed the document at ${i}: …${a.slice(Math.max(0, i - 60), i + 60)}… vs …${b.slice(Math.max(0, i - 60), i + 60)}…`;
  }
  if (errors.length) return `console: ${errors.join(' | ')}`;
  return null;
}

async function freshPage(context, url) {
  const page = await context.newPage();
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('dialog', (d) => d.dismiss().catch(() => {}));
  page.on('filechooser', () => {});  // the import button: nothing chosen
  await page.goto(url);
  await page.evaluate(() => window.playground.ready);
  return { page, errors };
}

// Replays `seq` on a fresh page; true when it ends unhealthy.
async function fails(context, url, seq) {
  const { page, errors } = await freshPage(context, url);
  try {
    for (const a of seq) await act(page, a);
    await frames(page, 3);
    return (await health(page, errors)) !== null;
  } catch (e) { return true; } finally { await page.close(); }
}

let server, url, browser;
before(async () => {
  ({ server, url } = await serveDist());
  browser = await launch();
});
after(async () => { await browser.close(); server.close(); });

test(`monkey: ${ACTIONS} random actions, seed ${SEED}`, { timeout: 20 * 60 * 1000 }, async () => {
  // Touch needs a context that has it; the monkey's own context is the test browser's, with touch on.
  const context = await browser.context.browser()?.newContext?.({ hasTouch: true, viewport: { width: 1280, height: 720 } }) ?? browser.context;
  const actions = makeActions(SEED, ACTIONS);
  const { page, errors } = await freshPage(context, url + 'index.html');
  const t0 = Date.now();
  let failure = null, at = -1, checks = 0;
  for (let i = 0; i < actions.length && !failure; i++) {
    try { await act(page, actions[i]); } catch (e) { failure = `action threw: ${e}`; at = i; break; }
    if ((i + 1) % CHECK_EVERY === 0 || i === actions.length - 1) {
      checks++;
      failure = await health(page, errors);
      if (failure) at = i;
    }
  }
  const secs = (Date.now() - t0) / 1000;
  if (!failure) {
    await screenshot(page, 'monkey-end.png');
    console.log(`# monkey seed ${SEED}: ${ACTIONS} actions, ${checks} health checks, ${secs.toFixed(0)} s, healthy`);
    await page.close();
    return;
  }
  await page.close();
  // The shortest tail of the run that still fails from a fresh page (1, 2, 4 … actions before the failure).
  let shortest = null;
  for (let k = 1; k <= at + 1; k *= 2) {
    const seq = actions.slice(at + 1 - k, at + 1);
    if (await fails(context, url + 'index.html', seq)) { shortest = seq; break; }
  }
  if (!shortest && await fails(context, url + 'index.html', actions.slice(0, at + 1))) shortest = actions.slice(0, at + 1);
  console.log(`# monkey seed ${SEED} failed after action ${at}: ${failure}`);
  console.log(`# shortest failing sequence from a fresh page (${shortest ? shortest.length : 'none reproduces'} actions):`);
  if (shortest) console.log(JSON.stringify(shortest));
  assert.fail(`monkey seed ${SEED}, action ${at}: ${failure}`);
});
