// The browser tests' runner (./build.sh test): the files run by node's test runner, AP_BROWSER_JOBS (default 2) at a
// time, each with a headless Chromium of its own (helpers.mjs launch(): one a file, or one a test where a test needs
// it), each file's output printed whole when it ends, then each file's seconds and counts and the plain closing
// line "N passed, N failed".
//   node tests/browser/run.mjs [FILE.test.mjs ...]     (default: every tests/browser/*.test.mjs)
import { spawn } from 'node:child_process';
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
  console.log(`  ${f.padEnd(24)} ${r.seconds.toFixed(1).padStart(7)}  ${r.passed} passed${bad ? `, ${bad} FAILED` : ''}${r.skipped ? `, ${r.skipped} skipped` : ''}`);
}
fs.writeFileSync(timesFile, JSON.stringify({ ...last, ...results }, null, 1));  // (a run of some files keeps the others' times)
const closing = `${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`;
fs.writeFileSync(path.join(logs, 'summary.txt'), closing + '\n');
console.log(closing);
process.exit(failed ? 1 : 0);
