#!/usr/bin/env python3
"""Writes dist/attention-playground.html: the whole playground in one file that runs when opened straight
from disk (file://), for learning platforms that accept a single upload.

usage: make_single_file.py DIST_DIR

Inside the file: the CSS and both scripts inline; the wasm and the larger Chinese font (cjk_common.otf) as
base64 in window.AP_EMBEDDED, which web/playground.js hands to Emscripten (Module.wasmBinary) and to the
on-demand loader instead of fetching. The cost lab's parallel workers need files of their own, so the single
file runs without them (the scene says so); everything else is the same page.
"""
import base64
import os
import re
import sys


def script_text(js):
    # An inline script ends at the first "</script": keep any inside the code from closing it.
    return js.replace("</script", "<\\/script")


def main():
    dist = sys.argv[1]
    read = lambda name, mode="r": open(os.path.join(dist, name), mode, **({} if "b" in mode else {"encoding": "utf-8"})).read()
    html = read("index.html")
    css = read("style.css")
    page_js = read("playground.js")
    app_js = read("attention_playground.js")
    wasm = base64.b64encode(read("attention_playground.wasm", "rb")).decode("ascii")
    font = base64.b64encode(read("cjk_common.otf", "rb")).decode("ascii")
    embedded = ('window.AP_EMBEDDED = {wasm: "%s", assets: {"cjk_common.otf": "%s"}};' % (wasm, font))
    # No preloading of files that are inside this one.
    out, n = re.subn(r'<script id="ap-preload">.*?</script>\n', "", html, flags=re.S)
    assert n == 1, "index.html: the preload script changed"
    out, n = re.subn(r'<link rel="stylesheet" href="style.css">', lambda m: "<style>\n" + css + "</style>", out)
    assert n == 1, "index.html: the stylesheet link changed"
    # The app's code waits in a text/plain block: playground.js runs it when the page (or the embed) is seen.
    out, n = re.subn(r'<script src="playground.js"></script>',
                     lambda m: '<script type="text/plain" id="ap-app-code">\n' + script_text(app_js) + "</script>\n<script>\n" +
                     embedded + "\n</script>\n<script>\n" + script_text(page_js) + "</script>", out)
    assert n == 1, "index.html: the playground.js tag changed"
    path = os.path.join(dist, "attention-playground.html")
    with open(path, "w", encoding="utf-8") as f:
        f.write(out)
    print(f"{path}: {os.path.getsize(path) / 1e6:.1f} MB (wasm and the larger Chinese font inside)")


if __name__ == "__main__":
    main()
