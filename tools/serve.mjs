// A tiny static file server for dist/ (127.0.0.1 only), with the right MIME types for .wasm.
// usage: node tools/serve.mjs DIR PORT [FRAME_ANCESTORS]      (the browser tests import startServer)
//   FRAME_ANCESTORS (or $AP_FRAME_ANCESTORS): who may frame the pages, a CSP source list such as
//   "'self' https://course.example.edu"; by default none is sent and any page may frame these (the course
//   pages of a dev server, and also host pages opened from disk or made by script: an opaque origin, which
//   even "frame-ancestors *" refuses).
//
// Each page's Content-Security-Policy is the one its <meta> states (web/index.html, the examples, the single
// file), sent again as a header, with frame-ancestors added when set: a meta policy cannot say who may frame the page,
// and a worker script (kernel_worker.js) takes its policy from its own response only. Other files get
// index.html's policy.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript',
  '.css': 'text/css; charset=utf-8', '.wasm': 'application/wasm', '.json': 'application/json',
  '.png': 'image/png', '.svg': 'image/svg+xml', '.ico': 'image/x-icon', '.txt': 'text/plain; charset=utf-8',
  '.otf': 'font/otf', '.gz': 'application/gzip',  // the fonts loaded on demand (sent as they are: no Content-Encoding)
};

const META = /<meta http-equiv="Content-Security-Policy" content="([^"]*)"/;

// The policy a page states in its first few kilobytes (the single file is megabytes long; its meta is near
// the top), or null.
function pagePolicy(file) {
  let fd;
  try {
    fd = fs.openSync(file, 'r');
    const buf = Buffer.alloc(16384);
    const n = fs.readSync(fd, buf, 0, buf.length, 0);
    const m = META.exec(buf.toString('utf8', 0, n));
    return m ? m[1] : null;
  } catch (e) { return null; } finally { if (fd !== undefined) fs.closeSync(fd); }
}

export function startServer(dir, port = 0, host = '127.0.0.1', { frameAncestors = process.env.AP_FRAME_ANCESTORS || '' } = {}) {
  const root = path.resolve(dir);
  const policyOf = (file) => {
    const own = file.endsWith('.html') ? pagePolicy(file) : null;
    const policy = own || pagePolicy(path.join(root, 'index.html'));
    const ancestors = frameAncestors ? `frame-ancestors ${frameAncestors}` : '';
    return [policy, ancestors].filter(Boolean).join('; ');
  };
  const server = http.createServer((req, res) => {
    // A request path that is no URL ("//", a broken %-escape) is answered 400, not thrown: it stopped the server.
    let file;
    try {
      file = path.normalize(path.join(root, decodeURIComponent(new URL(req.url, 'http://localhost').pathname)));
    } catch (e) { res.writeHead(400, { 'content-type': 'text/plain' }).end('bad request path'); return; }
    if (!file.startsWith(root)) { res.writeHead(403).end(); return; }
    if (file.endsWith(path.sep)) file = path.join(file, 'index.html');
    fs.stat(file, (err, st) => {
      if (err || !st.isFile()) { res.writeHead(404, { 'content-type': 'text/plain' }).end('not found'); return; }
      res.writeHead(200, { 'content-type': TYPES[path.extname(file)] || 'application/octet-stream',
                           'content-length': st.size, 'cache-control': 'no-cache',
                           'content-security-policy': policyOf(file) });
      fs.createReadStream(file).pipe(res);
    });
  });
  return new Promise((resolve) => server.listen(port, host, () => resolve(server)));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = process.argv[2] || 'dist';
  const port = Number(process.argv[3] || 8000);
  startServer(dir, port, '127.0.0.1', process.argv[4] ? { frameAncestors: process.argv[4] } : {}).then((s) => {
    console.log(`Attention Playground: http://127.0.0.1:${s.address().port}/`);
  });
}
