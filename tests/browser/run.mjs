// The browser tests' runner (./build.sh test): the files run by node's test runner, AP_BROWSER_JOBS (default 2) at a
// time, each with a headless Chromium of its own (helpers.mjs launch(): one a file, or one a test where a test needs
// it), each file's output printed whole when it ends, then each file's seconds and counts and the plain closing
// line "N passed, N failed". A file that passed is not run again while everything it runs on is the same bytes
// (dist/, the file, this folder's other files, playwright's lock, Chromium's and Node's versions, the variables that
// shape a run): it says so and counts as it passed (build/browser-logs/passed.json). AP_RERUN=1 runs every file.
//   node tests/browser/run.mjs [FILE.test.mjs ...]     (default: every tests/browser/*.test.mjs)
import { spawn, execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const named = process.argv.slice(2).map((f) => path.basename(f));
const files = (named.length ? named : fs.readdirSync(here).filter((f) => f.endsWith('.test.mjs')).sort());
const jobs = Math.max(1, Number(process.env.AP_BROWSER_JOBS || 2));
const logs = path.resolve(here, '../../build/browser-logs');
fs.mkdirSync(logs, { recursive: true });

// The longest files first, by the last run's times (build/browser-logs/times.json): two at once finish together.
const timesFile = path.join(logs, 'times.json');
let last = {};
try { last = JSON.parse(fs.readFileSync(timesFile, 'utf8')); } catch { /* first run */ }
const queue = [...files].sort((a, b) => (last[b]?.seconds ?? 0) - (last[a]?.seconds ?? 0));

const results = {};

// What a file's result depends on, hashed: the files under dist/ and this folder (not node_modules), the versions
// and the settings; then the file itself.
function filesUnder(dir, skip) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (skip(p)) return [];
    return e.isDirectory() ? filesUnder(p, skip) : [p];
  }).sort();
}
const root = path.resolve(here, '../..');
const base = crypto.createHash('sha1');
for (const f of [...filesUnder(path.join(root, 'dist'), () => false),
  ...filesUnder(here, (p) => p.endsWith('node_modules') || p.endsWith('.test.mjs')), path.join(root, 'tools/serve.mjs')]) {
  base.update(path.relative(root, f) + '\0');
  base.update(fs.readFileSync(f));
}
let chromium = 'no chromium';
try { chromium = execFileSync(process.env.CHROMIUM || '/usr/bin/chromium', ['--version'], { stdio: ['ignore', 'pipe', 'ignore'] }).toString(); } catch { /* no browser: every file runs and fails */ }
base.update([chromium, process.version, ...Object.entries(process.env)
  .filter(([k]) => /^(AP_SOAK|MONKEY_|FUZZ_|CHROMIUM)/.test(k)).sort().map(([k, v]) => `${k}=${v}`)].join('\n'));
const baseKey = base.digest('hex');
const keyOf = (file) => crypto.createHash('sha1').update(baseKey).update(fs.readFileSync(path.join(here, file))).digest('hex');
const passedFile = path.join(logs, 'passed.json');
let kept = {};
try { kept = JSON.parse(fs.readFileSync(passedFile, 'utf8')); } catch { /* none yet */ }
const unchanged = [];
if (!process.env.AP_RERUN) {
  for (const f of files) {
    const k = kept[f];
    if (k && k.key === keyOf(f)) {
      unchanged.push(f);
      results[f] = { seconds: 0, passed: k.passed, failed: 0, skipped: k.skipped, cancelled: 0, code: 0, kept: true };
      queue.splice(queue.indexOf(f), 1);
      process.stdout.write(`\n---- ${f}: the same inputs as the run that passed (${k.date}), not run again\n`);
    }
  }
}

function runFile(file) {
  return new Promise((resolve) => {
    const t0 = Date.now();
    const child = spawn(process.execPath, ['--test', '--test-reporter=spec', path.join(here, file)],
      { cwd: here, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', (d) => { out += d; });
    child.on('close', (code) => {
      const seconds = (Date.now() - t0) / 1000;
      const count = (word) => Number((out.match(new RegExp(`^ℹ ${word} (\\d+)$`, 'm')) || [])[1] || 0);
      results[file] = { seconds: +seconds.toFixed(1), passed: count('pass'), failed: count('fail'),
        skipped: count('skipped'), cancelled: count('cancelled'), code };
      fs.writeFileSync(path.join(logs, file.replace(/\.test\.mjs$/, '.log')), out);
      process.stdout.write(`\n---- ${file} (${seconds.toFixed(1)} s, exit ${code})\n${out}`);
      resolve();
    });
  });
}

const t0 = Date.now();
await Promise.all(Array.from({ length: Math.min(jobs, queue.length) }, async () => {
  while (queue.length) await runFile(queue.shift());
}));

let passed = 0, failed = 0, skipped = 0;
console.log(`\n---- browser test files (seconds; ${jobs} at a time, a Chromium each, ${((Date.now() - t0) / 1000).toFixed(1)} s in all)`);
for (const f of files) {
  const r = results[f];
  const bad = r.failed + r.cancelled + (r.code !== 0 && r.failed + r.cancelled === 0 ? 1 : 0);
  passed += r.passed; failed += bad; skipped += r.skipped;
  console.log(`  ${f.padEnd(24)} ${r.kept ? '   kept' : r.seconds.toFixed(1).padStart(7)}  ${r.passed} passed${bad ? `, ${bad} FAILED` : ''}${r.skipped ? `, ${r.skipped} skipped` : ''}`);
}
const ran = Object.fromEntries(Object.entries(results).filter(([, r]) => !r.kept));
fs.writeFileSync(timesFile, JSON.stringify({ ...last, ...ran }, null, 1));  // (a run of some files keeps the others' times)
for (const [f, r] of Object.entries(ran)) {
  if (r.code === 0 && r.failed === 0 && r.cancelled === 0) kept[f] = { key: keyOf(f), passed: r.passed, skipped: r.skipped, date: new Date().toISOString() };
  else delete kept[f];
}
fs.writeFileSync(passedFile, JSON.stringify(kept, null, 1));
if (unchanged.length) console.log(`  (${unchanged.length} file(s) not run again: the same inputs as when they passed; AP_RERUN=1 runs them)`);
const closing = `${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`;
fs.writeFileSync(path.join(logs, 'summary.txt'), closing + '\n');
console.log(closing);
process.exit(failed ? 1 : 0);
