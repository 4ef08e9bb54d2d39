#!/usr/bin/env python3
"""Checks that every interface string has a Chinese translation in src/app/i18n.cpp.

Looks at tr("...") literals everywhere under src/, and at the strings that reach tr() through tables:
preset titles and notes, stage titles, stage ideas, help rows. Prints what is missing; exits 1 if any.
"""
import pathlib
import re
import sys

root = pathlib.Path(__file__).resolve().parent.parent
src = root / "src"
lit = r'"((?:[^"\\]|\\.)*)"'

table = set()
i18n = (src / "app" / "i18n.cpp").read_text(encoding="utf-8")
for m in re.finditer(r"\{\s*" + lit + r"\s*,\s*" + lit + r"\s*\}", i18n, re.S):
    table.add(m.group(1))

wanted = {}
for f in src.rglob("*.cpp"):
    text = f.read_text(encoding="utf-8")
    for m in re.finditer(r"\btr\(\s*" + lit + r"\s*\)", text):
        wanted.setdefault(m.group(1), str(f.relative_to(root)))

def table_strings(path, pattern, groups):
    text = (src / path).read_text(encoding="utf-8")
    for m in re.finditer(pattern, text, re.S):
        for g in groups:
            wanted.setdefault(m.group(g), path)

# Preset{"id", "title", "note", {}}: title and note (notes may be split over two literals)
text = (src / "app/presets.cpp").read_text(encoding="utf-8")
for m in re.finditer(r'Preset p\{\s*' + lit + r'\s*,\s*' + lit + r'\s*,\s*((?:"(?:[^"\\]|\\.)*"\s*)+),', text, re.S):
    wanted.setdefault(m.group(2), "src/app/presets.cpp")
    note = "".join(re.findall(lit, m.group(3)))
    wanted.setdefault(note, "src/app/presets.cpp")
table_strings("ui/formula_panel.cpp", r"\{\s*" + lit + r"\s*,\s*" + lit + r"\s*\}", [2])
text = (src / "ui/timeline_panel.cpp").read_text(encoding="utf-8")
block = re.search(r"kStageTitles\[kStageCount\] = \{(.*?)\};", text, re.S).group(1)
for s in re.findall(lit, block):
    wanted.setdefault(s, "src/ui/timeline_panel.cpp")
table_strings("ui/help_panel.cpp", r"\{\s*" + lit + r"\s*,\s*" + lit + r"\s*\}", [2])

def unescape(s):
    return s.encode("utf-8").decode("unicode_escape").encode("latin-1").decode("utf-8") if "\\" in s else s

missing = sorted((v, k) for k, v in wanted.items() if k not in table and unescape(k) not in table)
print(f"{len(wanted)} interface strings, {len(table)} translations")
for where, s in missing:
    print(f"  missing Chinese for {s!r} ({where})")
if missing:
    sys.exit(1)
print("every interface string has a Chinese translation")
