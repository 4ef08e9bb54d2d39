// Page-API fuzz (issue 14): setState over every scene's documented fields — the fields getState reports —
// with values of every kind (wrong types, NaN, ±1e308, huge and empty strings, unicode, deep nesting, junk
// objects), unknown fields and mixes of good ones, in both languages. Invariants after every call:
//   - nothing throws out of setState; it answers {ok: true} or {ok: false, error};
//   - a refused call changes nothing and shows a message (the reply's error is among getState().errors);
//   - an accepted one leaves a document that setState(getState()) takes back unchanged;
//   - no console or page error; frames still come at the end of each scene.
// Fixed seed (FUZZ_SEED overrides), CALLS per scene (FUZZ_CALLS).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist, launch, openPage, frames, BARE } from './helpers.mjs';

const SEED = Number(process.env.FUZZ_SEED || 14);
// ./build.sh test runs it short (about a minute); ./build.sh soak (AP_SOAK=1) at full size.
const CALLS = Number(process.env.FUZZ_CALLS || (process.env.AP_SOAK ? 160 : 40));
const SCENES = ['bottleneck', 'bahdanau', 'luong', 'self', 'sdpa', 'scaling', 'multihead', 'masks', 'train', 'cost', 'import'];

let server, url, browser;
before(async () => { ({ server, url } = await serveDist()); browser = await launch(); });
after(async () => { await browser.close(); server.close(); });

// Runs inside the page: CALLS calls on one scene, returns the broken invariants (at most a few).
function fuzzScene([scene, seed, calls, SCENES]) {
  let a = seed >>> 0;
  const r = () => {  // mulberry32
    a = (a + 0x6D2B79F5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = (x) => x[Math.floor(r() * x.length)];
  const pg = window.playground;
  const page = ['errors', 'frames', 'hover', 'view', 'fonts', 'quiz'];
  const comparable = (s) => {
    const c = JSON.parse(JSON.stringify(s));
    for (const k of page) delete c[k];
    if (c.results && c.results.measured) delete c.results.measured;
    return JSON.stringify(c);
  };
  const deep = (n) => { let v = 1; for (let i = 0; i < n; i++) v = [v]; return v; };
  const junk = () => pick([
    null, true, false, 0, -1, 1, 2, 3, 7, 64, 1e9, -1e9, 1e308, -1e308, 5e-324, 0.5, -0.0, NaN, Infinity, 2 ** 53 + 1,
    '', ' ', 'x', 'I love cats', '我爱猫', '😀🎉', '\u0000', '\uFFFD', 'a'.repeat(5000), '[PAD]', 'null', '{}', '1e3',
    [], [[]], [1, 2, 3], [[1, 2], [3]], [[1, 2], [3, 4]], [['a']], deep(40), deep(8), {}, { x: 1 }, { f32: 'v1.AA' },
    { f32: 'v1.AQFRAIAAgA' }, { index: 2 }, { index: 1e9 }, { __proto__: null }, ['a', 'b', 'c'], [null]]);
  const mutate = (v) => {  // a value near a good one
    if (typeof v === 'number') return pick([v + 1, v - 1, v * 2, -v, v / 3, v * 1000, Math.round(v) + 0.5]);
    if (typeof v === 'string') return pick([v + ' x', v.slice(1), v.toUpperCase(), '', v.repeat(3)]);
    if (typeof v === 'boolean') return !v;
    if (Array.isArray(v)) return pick([v.slice(1), v.concat(v), [], v.map(() => junk())]);
    return junk();
  };
  const bad = [];
  const note = (s) => { if (bad.length < 6) bad.push(`${scene}: ${s}`); };
  if (!pg.setState({ scene }).ok) { note('cannot open'); return bad; }
  const good = pg.getState();  // the scene's own fields, as documented by getState
  const fields = Object.keys(good).filter((k) => !page.includes(k));
  let refused = 0, accepted = 0;
  for (let i = 0; i < calls; i++) {
    const doc = {};
    const n = 1 + Math.floor(r() * 3);
    for (let k = 0; k < n; k++) {
      const u = r();
      const f = u < 0.08 ? pick(['zzz', '__proto__', 'constructor', 'toString', '', '中文']) : pick(fields);
      const v = good[f];
      doc[f] = u < 0.45 ? junk() : u < 0.8 ? mutate(v) : v;
    }
    if (r() < 0.1) doc.lang = pick(['en', 'zh', 'fr', 1]);
    if (r() < 0.05) doc.scene = pick(SCENES.concat(['nope']));
    const before = pg.getState();
    window.__apLastCall = JSON.stringify(doc).slice(0, 2000) + ' heap ' + (Module.HEAP8.length >> 20) + ' MB, call ' + i + ', state ' + JSON.stringify(Object.fromEntries(Object.entries(before).filter(([k, v]) => typeof v !== 'object')));  // for a report if the page aborts
    let rep;
    try { rep = pg.setState(doc); } catch (e) { note(`setState threw ${e} for ${JSON.stringify(doc).slice(0, 200)}`); continue; }
    if (!rep || typeof rep.ok !== 'boolean') { note(`odd reply ${JSON.stringify(rep)}`); continue; }
    const after = pg.getState();
    if (!rep.ok) {
      refused++;
      if (comparable(before) !== comparable(after)) note(`a refused call changed the state: ${JSON.stringify(doc).slice(0, 200)} (${rep.error})`);
      if (typeof rep.error !== 'string' || !rep.error) note(`a refusal without a message: ${JSON.stringify(doc).slice(0, 200)}`);
      else if (after.lang === 'en' && !after.errors.some((e) => e.includes(rep.error.slice(0, 40))))
        note(`a refusal not on screen: ${rep.error} (on screen: ${JSON.stringify(after.errors).slice(0, 200)})`);
      else if (after.errors.length === 0) note(`a refusal not on screen: ${rep.error}`);
    } else {
      accepted++;
      pg.setState({ playing: false });
      const s = pg.getState();
      const back = pg.setState(s);
      if (!back.ok) note(`setState(getState()) refused after ${JSON.stringify(doc).slice(0, 200)}: ${back.error}`);
      else if (comparable(pg.getState()) !== comparable(s)) note(`setState(getState()) changed the document after ${JSON.stringify(doc).slice(0, 200)}`);
      if (pg.getState({ matrices: false }).scene !== scene) pg.setState({ scene });  // stay on this scene
    }
    if (!pg.getState({ matrices: false }).errors) note('getState has no errors field');
  }
  return { bad, refused, accepted };
}

test(`page-API fuzz: ${CALLS} calls on each scene, seed ${SEED}`, { timeout: 20 * 60 * 1000 }, async () => {
  const { page, errors } = await openPage(browser.context, url + BARE);
  const problems = [];
  let totalRefused = 0, totalAccepted = 0;
  for (const [i, scene] of SCENES.entries()) {
    let out;
    try { out = await page.evaluate(fuzzScene, [scene, SEED * 7919 + i, CALLS, SCENES]); } catch (e) {
      const last = await page.evaluate(() => window.__apLastCall).catch(() => '?');
      throw new Error(`${scene}: the page failed (${String(e).split('\n')[0]}) at setState(${last})`);
    }
    if (Array.isArray(out)) { problems.push(...out); continue; }
    problems.push(...out.bad);
    totalRefused += out.refused;
    totalAccepted += out.accepted;
    // Frames still come after the scene's calls.
    const f0 = await page.evaluate(() => window.playground.getState({ matrices: false }).frames);
    let advanced = false;
    for (let k = 0; k < 30 && !advanced; k++) {
      await page.evaluate(() => { window.playground.step(1); window.playground.step(-1); });
      await frames(page, 2);
      advanced = (await page.evaluate(() => window.playground.getState({ matrices: false }).frames)) > f0;
    }
    if (!advanced) problems.push(`${scene}: frames stopped`);
    if (errors.length) problems.push(`${scene}: console: ${errors.splice(0).join(' | ')}`);
  }
  console.log(`# page-API fuzz seed ${SEED}: ${totalRefused + totalAccepted} calls, ${totalRefused} refused, ${totalAccepted} accepted, ${problems.length} problems`);
  for (const p of problems) console.log('# ' + p);
  assert.deepEqual(problems, []);
  await page.close();
});
