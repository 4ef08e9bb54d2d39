// ./build.sh bench: page and core benchmarks -> build/bench.json and a table.
//   page.first_frame_ms  page load to the first drawn frame (headless Chromium, 127.0.0.1), median of 5
//   page.wasm_bytes, js_bytes, gzip_bytes (everything a first visit downloads, gzip -9)
//   page.core_wasm_ms    the core in the page (wasm): one head of attention at n = 64…1024, d = 64, median
//   core.*               native Google Benchmark of the core (ms per call)
// Targets (issue #2): first frame <= 1000 ms, gzip <= 500 KB.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(path.join(root, 'tests', 'browser'));  // where playwright-core is installed
const { serveDist, launch } = await import(path.join(root, 'tests/browser/helpers.mjs'));

const dist = path.join(root, 'dist');
const size = (f) => fs.statSync(path.join(dist, f)).size;
const firstVisit = ['index.html', 'style.css', 'playground.js', 'attention_playground.js', 'attention_playground.wasm'];
const gzipBytes = firstVisit.reduce((n, f) => n + zlib.gzipSync(fs.readFileSync(path.join(dist, f)), { level: 9 }).length, 0);

const { server, url } = await serveDist();
const browser = await launch();
const samples = [];
const wasmCore = {};
try {
  for (let i = 0; i < 5; i++) {
    const page = await browser.context.newPage();
    await page.goto(url + '?bench=' + i);
    await page.evaluate(() => window.playground.ready);
    samples.push(await page.evaluate(() => performance.getEntriesByName('ap-first-frame')[0].startTime));
    await page.close();
  }
  // Core speed inside the page (wasm, this browser): one head, d = 64, every intermediate kept.
  const page = await browser.context.newPage();
  await page.goto(url);
  await page.evaluate(() => window.playground.ready);
  for (const n of [64, 256, 512, 1024])
    wasmCore[`sdpa_n${n}_d64`] = await page.evaluate((n) => Module.ccall('ap_bench_sdpa', 'number', ['number', 'number', 'number'], [n, 64, 7]), n);
  await page.close();
} finally {
  await browser.close();
  server.close();
}
samples.sort((a, b) => a - b);
const page = {
  first_frame_ms: Math.round(samples[2]),
  first_frame_samples_ms: samples.map(Math.round),
  wasm_bytes: size('attention_playground.wasm'),
  js_bytes: size('attention_playground.js') + size('playground.js'),
  gzip_bytes: gzipBytes,
};

let core = {};
const benchBin = path.join(root, 'build/native/ap_bench');
if (fs.existsSync(benchBin)) {
  const out = JSON.parse(execFileSync(benchBin, ['--benchmark_format=json', '--benchmark_min_time=0.2'], { encoding: 'utf8' }));
  for (const b of out.benchmarks) core[b.name] = { ms: +b.real_time.toFixed(3), unit: b.time_unit };
}

page.core_wasm_ms = Object.fromEntries(Object.entries(wasmCore).map(([k, v]) => [k, +v.toFixed(3)]));
const result = { date: new Date().toISOString(), page, core,
  targets: { first_frame_ms: 1000, gzip_bytes: 500 * 1024 } };
fs.mkdirSync(path.join(root, 'build'), { recursive: true });
fs.writeFileSync(path.join(root, 'build/bench.json'), JSON.stringify(result, null, 2));

const ok = (v, t) => (v <= t ? 'ok' : 'MISSED');
const rows = [
  ['page: first frame (median of 5)', `${page.first_frame_ms} ms`, `<= 1000 ms ${ok(page.first_frame_ms, 1000)}`],
  ['page: wasm', `${(page.wasm_bytes / 1024).toFixed(0)} KB`, ''],
  ['page: js', `${(page.js_bytes / 1024).toFixed(0)} KB`, ''],
  ['page: first visit, gzipped', `${(page.gzip_bytes / 1024).toFixed(0)} KB`, `<= 500 KB ${ok(page.gzip_bytes, 500 * 1024)}`],
  ...Object.entries(page.core_wasm_ms).map(([k, v]) => [`core (wasm, in the page): ${k}`, `${v} ms`, '']),
  ...Object.entries(core).map(([k, v]) => [`core (native): ${k}`, `${v.ms} ${v.unit}`, '']),
];
const w0 = Math.max(...rows.map((r) => r[0].length)), w1 = Math.max(...rows.map((r) => r[1].length));
for (const r of rows) console.log(`${r[0].padEnd(w0)}  ${r[1].padStart(w1)}  ${r[2]}`);
console.log(`\nwritten: build/bench.json`);
