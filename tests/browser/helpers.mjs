// Shared by the browser tests and the page benchmark: serve dist/ on 127.0.0.1 and drive Debian's
// headless Chromium (software WebGL2 through SwiftShader) with playwright-core.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startServer } from '../../tools/serve.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
export const root = path.resolve(here, '../..');
export const dist = path.join(root, 'dist');
export const shots = path.join(root, 'build', 'screenshots');

// A bare visit opens with the welcome (the lesson map; README "A start"). Tests of the page behind it open it
// so: `url + BARE` is the bare page as it was before the welcome, nothing else changed.
export const BARE = 'index.html?welcome=0';

export async function serveDist() {
  if (!fs.existsSync(path.join(dist, 'attention_playground.wasm'))) throw new Error('dist/ is not built: run ./build.sh web');
  const server = await startServer(dist, 0);
  return { server, url: `http://127.0.0.1:${server.address().port}/` };
}

// --disable-frame-rate-limit (the tests' browser, not the benchmark's): headless Chromium gives a page of a context
// that is not the last one opened about one animation frame a second (it reports itself visible); a test driving two
// pages of one context (the colour-blind test's pair) waited seconds a frame on the first. A page at rest still draws
// nothing. The benchmark times frames against a bare page's and so runs at the display's rate, as a learner's
// browser does (launch({ frameRateLimit: true })).
const CHROMIUM_ARGS = ['--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--disable-gpu',
  '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update',
  '--disable-sync', '--ignore-gpu-blocklist', '--disable-frame-rate-limit'];
const executablePath = () => process.env.CHROMIUM || '/usr/bin/chromium';

// A fresh browser context in a Chromium of its own with an empty profile, as a new visitor has: fresh storage,
// cache and permissions. Each test file launches one (two files run at once, tests/browser/run.mjs); playwright
// drives it over a pipe. (One Chromium shared by the run over playwright's WebSocket server cost more than a start
// a file: every message was relayed, JSON-parsed and deflated by Node on both sides.) `locale`: the browser's
// language (navigator.language), e.g. 'zh-CN'.
export async function launch({ locale, frameRateLimit = false } = {}) {
  const options = { viewport: { width: 1280, height: 720 }, ...(locale ? { locale } : {}) };
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ap-chromium-'));
  // A persistent context is how playwright takes a user-data-dir; we want a fresh, empty one.
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: executablePath(), headless: true, ...options,
    args: frameRateLimit ? CHROMIUM_ARGS.filter((a) => a !== '--disable-frame-rate-limit') : CHROMIUM_ARGS,
  });
  return { context, close: async () => { await context.close(); fs.rmSync(userDataDir, { recursive: true, force: true }); } };
}

// Opens the page, records console errors and every request that leaves 127.0.0.1, waits for `ready`.
export async function openPage(context, url, { viewport, wait = true } = {}) {
  const page = await context.newPage();
  if (viewport) await page.setViewportSize(viewport);
  const errors = [];
  const foreign = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('request', (r) => { const u = new URL(r.url()); if (u.hostname !== '127.0.0.1' && u.protocol !== 'data:' && u.protocol !== 'blob:') foreign.push(r.url()); });
  await page.goto(url);
  if (wait) await page.evaluate(() => window.playground.ready.then(() => true));
  return { page, errors, foreign };
}

// A click the frame loop sees as one: move, press and release each in frames of their own (a press and a
// release inside one frame can be read as a plain click, or a modifier held with it missed).
export async function clickInFrames(page, x, y, settle = 2) {
  await page.mouse.move(x, y);
  await frames(page, settle);
  await page.mouse.down();
  await frames(page, 2);
  await page.mouse.up();
  await frames(page, 2);
}

// Lets the app draw a few more frames (animations, font rebuilds) before a screenshot.
export async function frames(page, n = 3) {
  for (let i = 0; i < n; i++) await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r())));
}

// A Chinese interface draws in English until its font has arrived, and answers in English until its text has
// (src/ui/font_loader.cpp: both fetched on the first switch): a picture, or a check of the page API's Chinese
// texts, waits for them (a few frames on 127.0.0.1), at most 10 s.
export async function chineseFontIn(page) {
  await page.waitForFunction(() => {
    let s;
    try { s = window.playground.getState({ matrices: false }); } catch (e) { return true; }  // a host page, a page not started
    return !s || s.lang !== 'zh' || !s.fonts || s.fonts.ui_loaded || (s.errors || []).some((e) => /Chinese font|中文字体|Chinese strings/.test(e));
  }, null, { timeout: 10000, polling: 50 });
}

export async function screenshot(page, name) {
  fs.mkdirSync(shots, { recursive: true });
  const file = path.join(shots, name);
  await chineseFontIn(page);
  await frames(page, 3);
  await page.screenshot({ path: file });
  return file;
}

// Work that ended with no input (a training) was drawn where it ended, and settled: what is on screen after a
// pause equals what a frame asked for afterwards (a page-API call) draws. On a difference both pictures are kept,
// build/screenshots/<name>-at-rest.png and <name>-drawn.png.
export async function assertDrawnAtRest(page, name) {
  await page.waitForTimeout(600);
  const atRest = await page.screenshot();
  const asked = await page.evaluate(() => window.playground.setState({}));
  assert.deepEqual(asked, { ok: true });
  await frames(page, 3);
  const drawn = await page.screenshot();
  if (!atRest.equals(drawn)) {
    fs.mkdirSync(shots, { recursive: true });
    fs.writeFileSync(path.join(shots, `${name}-at-rest.png`), atRest);
    fs.writeFileSync(path.join(shots, `${name}-drawn.png`), drawn);
  }
  assert.ok(atRest.equals(drawn), `the end of the work was drawn (and settled) without input (both pictures: build/screenshots/${name}-at-rest.png, -drawn.png)`);
}

// Polls getState() (with the matrices) every `every` ms until `pred(state)` holds or `ms` pass; returns the
// last state either way (the caller asserts on it, with what it shows).
export async function waitForState(page, pred, ms = 15000, every = 50) {
  const t0 = Date.now();
  let s;
  while (Date.now() - t0 < ms) {
    s = await page.evaluate(() => window.playground.getState());
    if (pred(s)) return s;
    await page.waitForTimeout(every);
  }
  return s;
}

// The RGBA pixels of a PNG that Chromium wrote (8 bits a channel, RGB or RGBA, not interlaced): { data, width,
// height }, decoded here in Node (zlib and the five scanline filters) rather than in a page of the browser.
export function decodePng(png) {
  let at = 8, width = 0, height = 0, type = 0;
  const idat = [];
  while (at < png.length) {
    const len = png.readUInt32BE(at), kind = png.toString('latin1', at + 4, at + 8), body = png.subarray(at + 8, at + 8 + len);
    if (kind === 'IHDR') {
      width = body.readUInt32BE(0); height = body.readUInt32BE(4); type = body[9];
      if (body[8] !== 8 || (type !== 2 && type !== 6) || body[12] !== 0) throw new Error(`decodePng: an 8-bit RGB(A) PNG, not interlaced (depth ${body[8]}, type ${type})`);
    } else if (kind === 'IDAT') idat.push(body);
    else if (kind === 'IEND') break;
    at += 12 + len;
  }
  const raw = zlib.inflateSync(Buffer.concat(idat));
  const bpp = type === 6 ? 4 : 3, stride = width * bpp, rows = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)], src = y * (stride + 1) + 1, dst = y * stride;
    for (let i = 0; i < stride; i++) {
      const a = i >= bpp ? rows[dst + i - bpp] : 0, b = y > 0 ? rows[dst - stride + i] : 0;
      const c = i >= bpp && y > 0 ? rows[dst - stride + i - bpp] : 0;
      let v = raw[src + i];
      if (filter === 1) v += a;
      else if (filter === 2) v += b;
      else if (filter === 3) v += (a + b) >> 1;
      else if (filter === 4) { const p = a + b - c, pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c); v += pa <= pb && pa <= pc ? a : pb <= pc ? b : c; }
      rows[dst + i] = v & 255;
    }
  }
  if (bpp === 4) return { data: rows, width, height };
  const data = Buffer.alloc(width * height * 4);
  for (let i = 0, j = 0; i < rows.length; i += 3, j += 4) { data[j] = rows[i]; data[j + 1] = rows[i + 1]; data[j + 2] = rows[i + 2]; data[j + 3] = 255; }
  return { data, width, height };
}

// Runs `fn(data, width, height, arg)` over the RGBA pixels of a PNG screenshot (decodePng) and returns its answer.
// (`context` is not needed any more: it stays in the signature the tests call.)
export async function inImage(context, png, fn, arg) {
  const { data, width, height } = decodePng(png);
  return fn(data, width, height, arg);
}
