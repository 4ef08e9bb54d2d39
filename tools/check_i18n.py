#!/usr/bin/env python3
"""Checks that every interface string has a Chinese translation.

Translations: the tables of tools/i18n_tables.py.
Wanted: the literals of tr("…") and N_("…") (strings that reach tr() later, from a table), and the error
templates of Status::Error("…") (an error is shown in the learner's language; see src/core/status.h).
Prints what is missing; exits 1 if anything is.
"""
import re
import sys

from i18n_tables import LITS, ROOT, join, read_tables, sources, unescape

table = read_tables()
wanted = {}
for f, text in sources():
    rel = str(f.relative_to(ROOT))
    for pat in (r"\btr\(" + LITS + r"\s*\)", r"\bN_\(" + LITS + r"\s*\)", r"Status::Error\(" + LITS + r"\s*[,)]"):
        for m in re.finditer(pat, text, re.S):
            wanted.setdefault(join(m.group(1)), rel)

missing = sorted((v, k) for k, v in wanted.items() if k not in table and unescape(k) not in table)
print(f"{len(wanted)} interface strings and error templates, {len(table)} translations")
for where, s in missing:
    print(f"  missing Chinese for {s!r} ({where})")
if missing:
    sys.exit(1)
print("every interface string and error template has a Chinese translation")
