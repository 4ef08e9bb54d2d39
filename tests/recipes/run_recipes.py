#!/usr/bin/env python3
"""The recipes of docs/recipes/ (shown by the import scene's "How do I get this file?" and in the README)
write files that the playground imports. Each recipe runs unchanged, in a fresh folder, against the stand-ins
in tests/recipes/standin/ (NumPy, PyTorch and transformers are not installed here: the stand-ins implement
the calls the recipes make, and numpy.save writes the real .npy format); then import_check feeds the files
it wrote through the import scene, as the page does. Also: the README quotes every recipe verbatim.

usage: run_recipes.py IMPORT_CHECK"""
import json
import os
import pathlib
import subprocess
import sys
import tempfile

root = pathlib.Path(__file__).resolve().parents[2]
standin = root / "tests" / "recipes" / "standin"
# recipe → the shape the stand-ins make it write: (layers, heads, n)
expected = {"huggingface_attentions.py": (2, 3, 15), "pytorch_hook.py": (1, 2, 5)}

failures = 0
def fail(msg):
    global failures
    failures += 1
    print("FAIL:", msg)

recipes = sorted(p.name for p in (root / "docs" / "recipes").glob("*.py"))
if recipes != sorted(expected):
    fail(f"docs/recipes/ holds {recipes}, this test knows {sorted(expected)}")
readme = (root / "README.md").read_text(encoding="utf-8")
for name in recipes:
    text = (root / "docs" / "recipes" / name).read_text(encoding="utf-8")
    if text not in readme:
        fail(f"README.md does not quote docs/recipes/{name} verbatim")
    with tempfile.TemporaryDirectory() as d:
        env = dict(os.environ, PYTHONPATH=str(standin))
        run = subprocess.run([sys.executable, str(root / "docs" / "recipes" / name)], cwd=d, env=env,
                             capture_output=True, text=True)
        if run.returncode != 0:
            fail(f"{name} failed: {run.stderr.strip()}")
            continue
        files = [os.path.join(d, f) for f in ("attention.npy", "tokens.json")]
        got = subprocess.run([sys.argv[1]] + files, capture_output=True, text=True)
        if got.returncode != 0:
            fail(f"{name}: the import refused its files: {got.stderr.strip()}")
            continue
        r = json.loads(got.stdout)
        layers, heads, n = expected.get(name, (0, 0, 0))
        print(f"{name}: imported layers {r['layers']}, heads {r['heads']}, n {r['n']}, "
              f"{len(r['tokens'])} tokens, largest |row sum − 1| {r['max_row_sum_dev']:.2e}")
        if (r["layers"], r["heads"], r["n"]) != (layers, heads, n):
            fail(f"{name}: expected layers {layers}, heads {heads}, n {n}")
        if len(r["tokens"]) != n or r["example"]:
            fail(f"{name}: the tokens beside the weights were not taken")
        if r["max_row_sum_dev"] > 1e-5:
            fail(f"{name}: rows that do not sum to 1")
print(f"{len(recipes)} recipes, {failures} failures")
sys.exit(1 if failures else 0)
