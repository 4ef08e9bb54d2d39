#!/usr/bin/env python3
"""Writes dist/attention-playground.html: the whole playground in one file that runs when opened straight
from disk (file://), for learning platforms that accept a single upload.

usage: make_single_file.py DIST_DIR

Inside the file: the CSS and both scripts inline; the wasm and the on-demand fonts (the interface's Chinese,
cjk_ui.otf, and its text, zh_strings.bin, the larger Chinese font, cjk_common.otf, and the trained checkpoints checkpoints/coref.aptc,
heads.aptc, example.aptc, bahdanau.apsq and luong.apsq, all gzip-compressed as the site serves them) as
base64 in window.AP_EMBEDDED, which web/playground.js hands to Emscripten (Module.wasmBinary) and to the
on-demand loader instead of fetching. The cost lab's parallel workers need files of their own, so the single
file runs without them (the scene says so); everything else is the same page.

Its Content-Security-Policy is index.html's with the inline parts allowed by their SHA-256 hashes (never
'unsafe-inline'): the stylesheet, the two page scripts and the app's code (playground.js runs it as an inline
script when the page is seen); nothing is fetched and no worker is started, so connect-src and worker-src are
'none'; the wasm, compiled from bytes, needs 'wasm-unsafe-eval' as on the site.
"""
import base64
import hashlib
import os
import re
import sys


def script_text(js):
    # An inline script ends at the first "</script": keep any inside the code from closing it.
    return js.replace("</script", "<\\/script")


def csp_hash(text):
    # The hash of an inline element is over its text exactly as the browser sees it (UTF-8).
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii") + "'"


def set_directive(policy, name, value):
    parts = [p.strip() for p in policy.split(";") if p.strip()]
    out = [name + " " + value if p.split()[0] == name else p for p in parts]
    assert any(p.split()[0] == name for p in parts), "index.html: no " + name + " in the policy"
    return "; ".join(out)


def main():
    dist = sys.argv[1]
    read = lambda name, mode="r": open(os.path.join(dist, name), mode, **({} if "b" in mode else {"encoding": "utf-8"})).read()
    html = read("index.html")
    css = read("style.css")
    page_js = read("playground.js")
    app_js = read("attention_playground.js")
    wasm = base64.b64encode(read("attention_playground.wasm", "rb")).decode("ascii")
    # Inlined, not fetched (a file opened from disk may fetch nothing): still loaded into the app only when
    # needed. Unpacking them takes the browser's DecompressionStream, as on the site.
    assets = ", ".join('"%s": "%s"' % (name, base64.b64encode(read(name, "rb")).decode("ascii"))
                       for name in ("cjk_ui.otf.gz", "zh_strings.bin.gz", "cjk_common.otf.gz", "checkpoints/coref.aptc.gz", "checkpoints/heads.aptc.gz",
                                    "checkpoints/example.aptc.gz", "checkpoints/bahdanau.apsq.gz",
                                    "checkpoints/luong.apsq.gz"))
    embedded = 'window.AP_EMBEDDED = {wasm: "%s", assets: {%s}};' % (wasm, assets)
    # No preloading of files that are inside this one.
    out, n = re.subn(r'<script id="ap-preload" src="preload.js"></script>\n', "", html)
    assert n == 1, "index.html: the preload script changed"
    style = "\n" + css
    out, n = re.subn(r'<link rel="stylesheet" href="style.css">', lambda m: "<style>" + style + "</style>", out)
    assert n == 1, "index.html: the stylesheet link changed"
    # The app's code waits in a text/plain block: playground.js runs it when the page (or the embed) is seen.
    app_code, data_js, page_code = "\n" + script_text(app_js), "\n" + embedded + "\n", "\n" + script_text(page_js)
    out, n = re.subn(r'<script src="playground.js"></script>',
                     lambda m: '<script type="text/plain" id="ap-app-code">' + app_code + "</script>\n<script>" +
                     data_js + "</script>\n<script>" + page_code + "</script>", out)
    assert n == 1, "index.html: the playground.js tag changed"
    meta = re.search(r'(<meta http-equiv="Content-Security-Policy" content=")([^"]*)(">)', out)
    assert meta, "index.html: the Content-Security-Policy meta changed"
    policy = meta.group(2)
    policy = set_directive(policy, "script-src", " ".join(csp_hash(t) for t in (app_code, data_js, page_code)) + " 'wasm-unsafe-eval'")
    policy = set_directive(policy, "style-src", csp_hash(style))
    for name in ("connect-src", "worker-src", "font-src"):
        policy = set_directive(policy, name, "'none'")
    policy = set_directive(policy, "img-src", "data: blob:")
    out = out[:meta.start(2)] + policy + out[meta.end(2):]
    path = os.path.join(dist, "attention-playground.html")
    with open(path, "w", encoding="utf-8") as f:
        f.write(out)
    print(f"{path}: {os.path.getsize(path) / 1e6:.1f} MB (wasm and the Chinese fonts inside)")


if __name__ == "__main__":
    main()
