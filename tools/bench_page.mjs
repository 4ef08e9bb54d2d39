// ./build.sh bench, part 2: what the page costs, each figure beside a baseline measured in the same run
// (issue 8, item 1). Merged into build/bench.json as "page_cost", with a table.
//   idle            main-thread busy share over 10 s with nothing changing (CDP Performance.getMetrics
//                   TaskDuration), against a bare WebGL2 page that clears every frame
//   animating       median frame interval while the SDPA animation plays at 1280×720 (main-loop turns),
//                   against the bare WebGL2 clear loop's requestAnimationFrame interval
//   startup         navigation to `ready` (the first frame) over 5 fresh browsers, against the bare WebGL2
//                   page's first frame in fresh browsers too, with a breakdown from performance marks:
//                   download (the .wasm's responseEnd), compile and instantiate (ap-runtime-ready), first model
//                   (ap-main → ap-model-ready), font atlas (→ ap-fonts-ready), first frame's work (→ ap-frame-1),
//                   first frame on screen (ap-first-frame: `ready`); the same for ?lang=zh (the Chinese font
//                   is fetched first); AP_BENCH_BEFORE_DIST=<a dist/ folder> measures that build too, interleaved
//   course page     web/examples/course.html, six embeds (loading="lazy"): how many load before scrolling,
//                   each one's start as it scrolls into view, then the idle page's main-thread share over 10 s
//   races           the bottleneck's, Luong's and Bahdanau's trainings from "start" to done in the page's Web
//                   Workers, the masks bug lab's (in slices), and the bottleneck's in the offline single file (no
//                   workers: slices of the frame loop), the baseline; with each its held-out figures
//   reported        what the browser tests report but do not gate: the train scene's seconds to its target and
//                   longest frame while it trains, the cost lab's quick measurement (seconds, longest slice, frame)
// Targets: idle <= 2 %, animating <= 1.25 × baseline, startup <= 1.5 × baseline, course page idle <= 5 %, each
// race <= 30 s (#18) with no main-loop turn over 50 ms, and #18's held-out targets on the models trained.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(path.join(root, 'tests', 'browser'));
const { serveDist, launch } = await import(path.join(root, 'tests/browser/helpers.mjs'));
const { startServer } = await import(path.join(root, 'tools/serve.mjs'));

// The baseline: a bare WebGL2 page that clears the canvas every frame (what any WebGL2 page costs at least).
const baseDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ap-baseline-'));
fs.writeFileSync(path.join(baseDir, 'index.html'), `<!doctype html><html><head><meta charset="utf-8">
<style>html,body{margin:0;height:100%;overflow:hidden}canvas{position:fixed;inset:0;width:100%;height:100%}</style></head>
<body><canvas id="c"></canvas><script>
const c = document.getElementById('c'); const gl = c.getContext('webgl2'); let first = true, k = 0;
window.stamps = [];
function frame(t) {
  const dpr = window.devicePixelRatio || 1;
  const w = Math.round(c.clientWidth * dpr), h = Math.round(c.clientHeight * dpr);
  if (c.width !== w || c.height !== h) { c.width = w; c.height = h; }
  gl.viewport(0, 0, w, h); k = (k + 1) % 256; gl.clearColor(k / 255, 0.5, 0.7, 1); gl.clear(gl.COLOR_BUFFER_BIT);
  window.stamps.push(t);
  if (first) { first = false; requestAnimationFrame(() => performance.mark('bl-first-frame')); }
  requestAnimationFrame(frame);
}
requestAnimationFrame(frame);
</script></body></html>`);

const median = (a) => { const s = [...a].sort((x, y) => x - y); return s.length ? s[Math.floor(s.length / 2)] : null; };
const r1 = (v) => (v == null ? null : +v.toFixed(1));
async function busyShare(page, ms) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const get = async () => Object.fromEntries((await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value]));
  const a = await get();
  await page.waitForTimeout(ms);
  const b = await get();
  await cdp.detach();
  return (b.TaskDuration - a.TaskDuration) / ((b.Timestamp - a.Timestamp) || ms / 1000);
}
async function intervals(page, ms, expr) {
  await page.evaluate(expr);
  await page.waitForTimeout(ms);
  const t = await page.evaluate(() => window.__t || window.stamps);
  const d = [];
  for (let i = 1; i < t.length; i++) d.push(t[i] - t[i - 1]);
  return d.slice(5);
}

// A page at 1280×720, ready, whose main-loop turns are timed into window.__turns (Emscripten's main-loop hooks).
async function openTimed(browser, pageUrl) {
  const p = await browser.context.newPage();
  await p.setViewportSize({ width: 1280, height: 720 });
  await p.goto(pageUrl);
  await p.evaluate(() => window.playground.ready.then(() => true));
  await p.evaluate(() => {
    window.__turns = [];
    let t0 = 0;
    Module.preMainLoop = () => { t0 = performance.now(); };
    Module.postMainLoop = () => { window.__turns.push(performance.now() - t0); };
  });
  return p;
}

const { server, url } = await serveDist();
const base = await startServer(baseDir, 0);
const baseUrl = `http://127.0.0.1:${base.address().port}/`;
const out = {};
try {
  // 1 and 2: idle and animating, one browser for both pages.
  {
    const browser = await launch({ frameRateLimit: true });
    const bp = await browser.context.newPage();
    await bp.goto(baseUrl);
    await bp.waitForTimeout(1500);
    const baseIdle = await busyShare(bp, 10000);
    const baseInt = await intervals(bp, 4000, () => { window.stamps = []; });
    await bp.close();
    const pp = await browser.context.newPage();
    await pp.goto(url + '?scene=sdpa');
    await pp.evaluate(() => window.playground.ready.then(() => true));
    await pp.waitForTimeout(2000);  // the loop pauses half a second after the last change
    const idle = await busyShare(pp, 10000);
    const framesBefore = await pp.evaluate(() => window.playground.getState({ matrices: false }).frames);
    const anim = await intervals(pp, 4000, () => {
      window.__t = [];
      Module.postMainLoop = () => { window.__t.push(performance.now()); };
      window.playground.setState({ step: 0, playing: true, speed: 0.5 });
    });
    const drawn = await pp.evaluate(() => window.playground.getState({ matrices: false }).frames);
    await pp.close();
    await browser.close();
    out.idle = { busy_share: +idle.toFixed(4), baseline_busy_share: +baseIdle.toFixed(4), target: 0.02 };
    out.animating = { median_interval_ms: r1(median(anim)), baseline_median_interval_ms: r1(median(baseInt)),
      ratio: median(baseInt) ? +(median(anim) / median(baseInt)).toFixed(2) : null, frames_drawn: drawn - framesBefore, target_ratio: 1.25 };
  }
  // 3: startup in fresh browsers: the bare page, the playground in English (the default page) and in Chinese
  // (?lang=zh: the interface's Chinese font is fetched before it is ready), and, with AP_BENCH_BEFORE_DIST set,
  // another build (say the previous commit's dist/) interleaved with this one, for a before/after in one run.
  const beforeDir = process.env.AP_BENCH_BEFORE_DIST;
  const before = beforeDir ? await startServer(beforeDir, 0) : null;
  const beforeUrl = before ? `http://127.0.0.1:${before.address().port}/` : null;
  const startup = async (pageUrl) => {
    const browser = await launch({ frameRateLimit: true });
    try {
      const p = await browser.context.newPage();
      await p.goto(pageUrl);
      await p.evaluate(() => window.playground.ready.then(() => true));
      return await p.evaluate(() => {
        const mark = (n) => { const e = performance.getEntriesByName(n); return e.length ? e[0].startTime : null; };
        const res = performance.getEntriesByType('resource');
        const end = (suffix) => { const r = res.find((x) => x.name.endsWith(suffix)); return r ? r.responseEnd : null; };
        return { download: end('.wasm'), js: end('attention_playground.js'), font: end('cjk_ui.otf.gz'), runtime: mark('ap-runtime-ready'),
          main: mark('ap-main'), model: mark('ap-model-ready'), fonts: mark('ap-fonts-ready'), frame1: mark('ap-frame-1'), first: mark('ap-first-frame') };
      });
    } finally { await browser.close(); }
  };
  const runs = { baseline: [], en: [], zh: [], before: [] };
  for (let i = 0; i < 5; i++) {
    let browser = await launch({ frameRateLimit: true });
    let p = await browser.context.newPage();
    await p.goto(baseUrl + '?i=' + i);
    await p.waitForFunction(() => performance.getEntriesByName('bl-first-frame').length > 0);
    runs.baseline.push(await p.evaluate(() => performance.getEntriesByName('bl-first-frame')[0].startTime));
    await browser.close();
    runs.en.push(await startup(url + '?i=' + i));
    if (beforeUrl) runs.before.push(await startup(beforeUrl + '?i=' + i));
    runs.zh.push(await startup(url + '?lang=zh&i=' + i));
  }
  const med = (list, f) => { const v = list.map(f).filter((x) => x != null && !Number.isNaN(x)); return v.length ? r1(median(v)) : null; };
  const breakdown = (list) => ({ download: med(list, (m) => m.download), compile_and_instantiate: med(list, (m) => m.runtime - m.download),
    first_model: med(list, (m) => m.model - m.main), font_atlas: med(list, (m) => m.fonts - m.model),
    first_frame_drawn: med(list, (m) => m.frame1 != null ? m.frame1 - m.fonts : null),
    first_frame: med(list, (m) => m.first - m.fonts) });
  const baseMed = median(runs.baseline);
  out.startup = { ready_ms: med(runs.en, (m) => m.first), baseline_first_frame_ms: r1(baseMed),
    ratio: +(median(runs.en.map((m) => m.first)) / baseMed).toFixed(2), target_ratio: 1.5,
    samples_ms: runs.en.map((m) => r1(m.first)), baseline_samples_ms: runs.baseline.map(r1),
    // download: the .wasm's responseEnd; compile_and_instantiate: from there to the runtime's start; first_model:
    // every scene's first model and the link; font_atlas: the first atlas; first_frame_drawn: from the atlas to
    // the end of the first frame's work; first_frame: from the atlas to `ready` (the first frame on screen).
    breakdown_median_ms: breakdown(runs.en),
    chinese: { ready_ms: med(runs.zh, (m) => m.first), ratio: +(median(runs.zh.map((m) => m.first)) / baseMed).toFixed(2),
      font_downloaded_ms: med(runs.zh, (m) => m.font), samples_ms: runs.zh.map((m) => r1(m.first)), breakdown_median_ms: breakdown(runs.zh) } };
  if (before) {
    out.startup.before = { dist: beforeDir, ready_ms: med(runs.before, (m) => m.first),
      ratio: +(median(runs.before.map((m) => m.first)) / baseMed).toFixed(2), samples_ms: runs.before.map((m) => r1(m.first)),
      breakdown_median_ms: breakdown(runs.before) };
    before.close();
  }
  // 4: the course page with six embeds.
  {
    const browser = await launch({ frameRateLimit: true });
    const p = await browser.context.newPage();
    await p.goto(url + 'examples/course.html');
    await p.waitForTimeout(6000);
    const status = () => p.evaluate(() => [...document.querySelectorAll('iframe')].map((f) => {
      try { const pg = f.contentWindow.playground; return pg ? { frames: pg.getState({ matrices: false }).frames } : { frames: -1 }; }
      catch (e) { return { frames: -1 }; }
    }));
    const atTop = await status();
    const started = atTop.map((s) => (s.frames > 0 ? 0 : null));
    const scrollStart = Date.now();
    const height = await p.evaluate(() => document.body.scrollHeight);
    for (let y = 0; y <= height; y += 360) {
      await p.mouse.wheel(0, 360);
      await p.waitForTimeout(1500);
      (await status()).forEach((s, k) => { if (started[k] == null && s.frames > 0) started[k] = y; });
    }
    const before = await status();
    const idle = await busyShare(p, 10000);
    const after = await status();
    await browser.close();
    out.course_page = { embeds: atTop.length, drawing_before_scroll: atTop.filter((s) => s.frames > 0).length,
      started_at_scroll_px: started, idle_busy_share: +idle.toFixed(4), target: 0.05,
      frames_while_idle: after.map((s, k) => s.frames - before[k].frames), scroll_ms: Date.now() - scrollStart };
  }
  // 5: the trainings of #18, from "start" to done: the bottleneck's two models, Luong's three and Bahdanau's one in
  // the page's Web Workers, the masks bug lab in slices, and the bottleneck's in the offline single file, where no
  // worker starts (slices of the frame loop): the baseline, in the same run. The main loop's turns are timed.
  {
    const browser = await launch({ frameRateLimit: true });
    const race = async (pageUrl) => {
      const p = await openTimed(browser, pageUrl);
      const t0 = Date.now();
      await p.evaluate(() => window.playground.setState({ training: 'start' }));
      let s;
      do {
        await p.waitForTimeout(250);
        s = await p.evaluate(() => window.playground.getState({ matrices: false }));
      } while (s.training.state !== 'done' && Date.now() - t0 < 180000);
      const seconds = (Date.now() - t0) / 1000;
      const turns = await p.evaluate(() => window.__turns);
      await p.close();
      return { seconds: +seconds.toFixed(2), state: s.training.state, where: s.training.where || 'page', train_seconds: +s.training.seconds.toFixed(2),
        longest_turn_ms: r1(Math.max(...turns)), turns_over_50ms: turns.filter((x) => x > 50).length,
        figures: { accuracy_by_length: s.results.accuracy_by_length, heldout: s.training.runs.map((r) => r.heldout_accuracy),
          aligned: s.training.runs.map((r) => r.alignment), bug_training: s.results.bug_training } };
    };
    const single = pathToFileURL(path.join(root, 'dist/attention-playground.html')).href;
    out.races = { bottleneck: await race(url + '?scene=bottleneck&step=4'), luong: await race(url + '?scene=luong'),
      bahdanau: await race(url + '?scene=bahdanau'), masks_bug_lab: await race(url + '?scene=masks&step=4'),
      bottleneck_in_slices: await race(single + '?scene=bottleneck&step=4'), target_seconds: 30, ceiling_seconds: 60 };
    // The workers' figures are the slices' to the bit (the same units in each run's own order).
    out.races.same_figures_in_workers_and_slices = JSON.stringify(out.races.bottleneck.figures) === JSON.stringify(out.races.bottleneck_in_slices.figures);
    await browser.close();
  }
  // 6: the figures the browser tests used to gate and now only report (a shared machine's speed must not fail a
  // test): the "Watch attention learn" default training (seconds to its target accuracy, the longest frame while
  // the worker trains) and the cost lab's quick measurement (longest slice of measuring work, longest frame), each
  // frame against the bare WebGL2 page's frame interval measured above.
  {
    const browser = await launch({ frameRateLimit: true });
    const timed = async (pageUrl, start, done, ms) => {
      const p = await openTimed(browser, pageUrl);
      const t0 = Date.now();
      let reached = null, s;
      await p.evaluate(start);
      do {
        await p.waitForTimeout(100);
        s = await p.evaluate(() => window.playground.getState({ matrices: false }));
        if (reached === null && s.training && (s.training.curve || []).some((c) => c[2] >= 0.95)) reached = (Date.now() - t0) / 1000;
      } while (!done(s) && Date.now() - t0 < ms);
      const turns = await p.evaluate(() => window.__turns);
      await p.close();
      return { s, seconds: +((Date.now() - t0) / 1000).toFixed(2), reached, longest: r1(Math.max(...turns)), frames: turns.length };
    };
    const train = await timed(url + '?scene=train', () => window.playground.setState({ training: 'start' }),
      (s) => s.training.state === 'done' || s.training.state === 'diverged', 120000);
    const cost = await timed(url + '?scene=cost&step=1', () => window.playground.setState({ step: 2 }),
      (s) => s.measured.state === 'finished', 30000);
    await browser.close();
    const frame = out.animating.baseline_median_interval_ms;
    out.reported = {
      train: { state: train.s.training.state, seconds_to_target: train.reached, seconds: train.seconds, longest_frame_ms: train.longest,
        longest_frame_ratio: +(train.longest / frame).toFixed(2), target_seconds: 30, target_frame_ms: 50 },
      cost_quick: { state: cost.s.measured.state, seconds: cost.seconds, longest_slice_ms: r1(cost.s.measured.longest_slice_ms),
        longest_frame_ms: cost.longest, longest_frame_ratio: +(cost.longest / frame).toFixed(2), target_seconds: 3, target_frame_ms: 50 },
    };
  }
} finally {
  server.close();
  base.close();
  fs.rmSync(baseDir, { recursive: true, force: true });
}

const file = path.join(root, 'build/bench.json');
const all = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : {};
all.page_cost = out;
fs.mkdirSync(path.dirname(file), { recursive: true });
fs.writeFileSync(file, JSON.stringify(all, null, 2));
const pct = (v) => `${(v * 100).toFixed(2)} %`;
const ok = (c) => (c ? 'ok' : 'MISSED');
const rows = [
  ['idle: main thread busy (10 s)', `${pct(out.idle.busy_share)} (bare WebGL2 page: ${pct(out.idle.baseline_busy_share)})`, `<= 2 % ${ok(out.idle.busy_share <= 0.02)}`],
  ['animating: median frame interval', `${out.animating.median_interval_ms} ms (bare WebGL2: ${out.animating.baseline_median_interval_ms} ms) = ${out.animating.ratio}×`, `<= 1.25× ${ok(out.animating.ratio <= 1.25)}`],
  ['startup: ready, median of 5 fresh browsers', `${out.startup.ready_ms} ms (bare WebGL2 first frame: ${out.startup.baseline_first_frame_ms} ms) = ${out.startup.ratio}×`, `<= 1.5× ${ok(out.startup.ratio <= 1.5)}`],
  ['startup breakdown (median ms)', Object.entries(out.startup.breakdown_median_ms).map(([k, v]) => `${k} ${v}`).join(', '), ''],
  ['startup in Chinese (?lang=zh): ready', `${out.startup.chinese.ready_ms} ms = ${out.startup.chinese.ratio}× (font downloaded at ${out.startup.chinese.font_downloaded_ms} ms)`, ''],
  ...(out.startup.before ? [['startup of AP_BENCH_BEFORE_DIST: ready', `${out.startup.before.ready_ms} ms = ${out.startup.before.ratio}×; ` +
    Object.entries(out.startup.before.breakdown_median_ms).map(([k, v]) => `${k} ${v}`).join(', '), '']] : []),
  ['course page: embeds drawing before scrolling', `${out.course_page.drawing_before_scroll} of ${out.course_page.embeds}`, ''],
  ['course page: each embed started at scroll (px)', out.course_page.started_at_scroll_px.join(', '), ''],
  ...[['bottleneck', 'the bottleneck race (2 models)'], ['luong', 'the Luong race (3 models)'],
    ['bahdanau', "Bahdanau's model trained in the page"], ['masks_bug_lab', 'the masks bug lab (3 models, in slices)']].map(([k, name]) => {
    const r = out.races[k], sl = out.races.bottleneck_in_slices;
    const base = k === 'bottleneck' ? `; in slices (the offline file, no workers) ${sl.seconds} s = ${+(sl.seconds / r.seconds).toFixed(2)}× as long, ` +
      `the same figures: ${out.races.same_figures_in_workers_and_slices ? 'yes' : 'NO'}` : '';
    return [`${name}: start to done`, `${r.seconds} s in ${r.where}${base}; longest main-loop turn ${r.longest_turn_ms} ms, ${r.turns_over_50ms} over 50 ms`,
      `<= 30 s, none over 50 ms ${ok(r.state === 'done' && r.seconds <= 30 && r.turns_over_50ms === 0 && (k !== 'bottleneck' || out.races.same_figures_in_workers_and_slices))}`];
  }),
  ...(() => {
    // #18's held-out targets, measured on the models the page trained: toy translation >= 95 % of words right and
    // >= 90 % of words with a known source word aligned to it; reversal at length 16 >= 99 % with attention and
    // below it without; the masks bug lab's model with the bug reaches a lower training loss and generates worse.
    // (a race that did not finish has no figures to meet them with: MISSED)
    const done = (k) => out.races[k].state === 'done';
    const f = (k) => out.races[k].figures;
    const fmt = (xs) => (xs.length ? xs.map((x) => (x == null ? '–' : pct(x))).join(', ') : '–');
    const translation = ['bahdanau', 'luong'].map((k) => [`${k}: held-out words right; words aligned`,
      `${fmt(f(k).heldout)}; ${fmt(f(k).aligned)}`,
      `>= 95 %; >= 90 % ${ok(done(k) && f(k).heldout.length > 0 && f(k).heldout.every((x) => x >= 0.95) && f(k).aligned.every((x) => x >= 0.9))}`]);
    const a = f('bottleneck').accuracy_by_length || { lengths: [], with_attention: [], without_attention: [] };
    const at16 = a.lengths.indexOf(16), w = a.with_attention[at16], wo = a.without_attention[at16];
    const b = f('masks_bug_lab').bug_training;
    return [...translation,
      ['bottleneck: held-out tokens at length 16, with / without attention', at16 < 0 ? '–' : `${pct(w)} / ${pct(wo)}`,
        `>= 99 % / lower ${ok(done('bottleneck') && at16 >= 0 && w >= 0.99 && wo < w)}`],
      ['masks bug lab: training loss correct / bug; generation correct / bug',
        !b ? '–' : `${b.train_loss_correct.toFixed(3)} / ${b.train_loss_bug.toFixed(3)}; ${pct(b.generation_accuracy_correct)} / ${pct(b.generation_accuracy_bug)}`,
        `bug lower; bug worse ${ok(done('masks_bug_lab') && !!b && b.train_loss_bug < b.train_loss_correct && b.generation_accuracy_bug < b.generation_accuracy_correct)}`]];
  })(),
  (() => { const t = out.reported.train; return ['train scene: seconds to 95 % held-out; longest frame while it trains',
    `${t.seconds_to_target} s (done in ${t.seconds} s); ${t.longest_frame_ms} ms = ${t.longest_frame_ratio}× a bare frame`,
    `<= 30 s, <= 50 ms ${ok(t.state === 'done' && t.seconds_to_target !== null && t.seconds_to_target <= 30 && t.longest_frame_ms <= 50)}`]; })(),
  (() => { const c = out.reported.cost_quick; return ["cost lab's quick measurement: seconds; longest slice; longest frame",
    `${c.seconds} s; ${c.longest_slice_ms} ms; ${c.longest_frame_ms} ms = ${c.longest_frame_ratio}× a bare frame`,
    `<= 3 s, <= 50 ms ${ok(c.state === 'finished' && c.seconds <= 3 && c.longest_slice_ms <= 50 && c.longest_frame_ms <= 50)}`]; })(),
  ['course page: idle main thread (10 s)', pct(out.course_page.idle_busy_share), `<= 5 % ${ok(out.course_page.idle_busy_share <= 0.05)}`],
];
const w0 = Math.max(...rows.map((r) => r[0].length));
for (const r of rows) console.log(`${r[0].padEnd(w0)}  ${r[1]}  ${r[2]}`);
console.log('written: build/bench.json (page_cost)');
