// Compares two folders of screenshots pixel by pixel in headless Chromium (no image library needed):
// for each PNG in both, the number of pixels that differ by more than 30 in R+G+B and their bounding box.
//   cd tests/browser && node ../../tools/compare_screenshots.mjs OLD_DIR NEW_DIR
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { chromium } = await import(path.join(root, 'tests/browser/node_modules/playwright-core/index.mjs'));
const b = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
const p = await b.newPage();
const [oldDir, newDir] = process.argv.slice(2);
for (const f of fs.readdirSync(oldDir).sort()) {
  if (!fs.existsSync(path.join(newDir, f))) { console.log('only old', f); continue; }
  const a = fs.readFileSync(path.join(oldDir, f)).toString('base64'), c = fs.readFileSync(path.join(newDir, f)).toString('base64');
  const r = await p.evaluate(async ([a, c]) => {
    const load = (s) => new Promise((res) => { const i = new Image(); i.onload = () => res(i); i.src = 'data:image/png;base64,' + s; });
    const [ia, ic] = await Promise.all([load(a), load(c)]);
    if (ia.width !== ic.width || ia.height !== ic.height) return { size: [ia.width, ia.height, ic.width, ic.height] };
    const px = (img) => { const cv = document.createElement('canvas'); cv.width = img.width; cv.height = img.height; const x = cv.getContext('2d'); x.drawImage(img, 0, 0); return x.getImageData(0, 0, img.width, img.height).data; };
    const da = px(ia), dc = px(ic);
    let n = 0, x0 = 1e9, y0 = 1e9, x1 = -1, y1 = -1;
    for (let i = 0; i < da.length; i += 4) {
      if (Math.abs(da[i] - dc[i]) + Math.abs(da[i + 1] - dc[i + 1]) + Math.abs(da[i + 2] - dc[i + 2]) > 30) {
        n++; const k = i / 4, x = k % ia.width, y = Math.floor(k / ia.width);
        x0 = Math.min(x0, x); x1 = Math.max(x1, x); y0 = Math.min(y0, y); y1 = Math.max(y1, y);
      }
    }
    return { n, box: [x0, y0, x1, y1] };
  }, [a, c]);
  console.log(f.padEnd(36), JSON.stringify(r));
}
await b.close();
