#!/usr/bin/env python3
"""Checks that every interface string has a Chinese translation.

Translations: every {"English", "中文"} pair inside a `TrPair name[] = { … };` table under src/ (the shared
table in src/app/i18n.cpp, and each scene's own table in its own file).
Wanted: the literals of tr("…") and N_("…") (strings that reach tr() later, from a table), and the error
templates of Status::Error("…") (an error is shown in the learner's language; see src/core/status.h).
Prints what is missing; exits 1 if anything is.
"""
import pathlib
import re
import sys

root = pathlib.Path(__file__).resolve().parent.parent
src = root / "src"
lit = r'"((?:[^"\\]|\\.)*)"'
lits = r'((?:\s*"(?:[^"\\]|\\.)*")+)'  # adjacent literals, joined by the compiler

def join(group):
    return "".join(re.findall(lit, group))

table = {}
wanted = {}
for f in sorted(src.rglob("*.[ch]*")):
    if f.suffix not in (".cpp", ".h"):
        continue
    text = f.read_text(encoding="utf-8")
    rel = str(f.relative_to(root))
    for block in re.finditer(r"TrPair\s+\w+\[\]\s*=\s*\{(.*?)\n\};", text, re.S):
        for m in re.finditer(r"\{" + lits + r"\s*,\s*" + lits + r"\s*\}", block.group(1), re.S):
            en, zh = join(m.group(1)), join(m.group(2))
            if en in table and table[en] != zh:
                print(f"  two translations for {en!r}: {table[en]!r} and {zh!r}")
            table[en] = zh
    for pat in (r"\btr\(" + lits + r"\s*\)", r"\bN_\(" + lits + r"\s*\)", r"Status::Error\(" + lits + r"\s*[,)]"):
        for m in re.finditer(pat, text, re.S):
            wanted.setdefault(join(m.group(1)), rel)

def unescape(s):
    return s.encode("utf-8").decode("unicode_escape").encode("latin-1").decode("utf-8") if "\\" in s else s

missing = sorted((v, k) for k, v in wanted.items() if k not in table and unescape(k) not in table)
print(f"{len(wanted)} interface strings and error templates, {len(table)} translations")
for where, s in missing:
    print(f"  missing Chinese for {s!r} ({where})")
if missing:
    sys.exit(1)
print("every interface string and error template has a Chinese translation")
