#!/usr/bin/python3
"""Writes the interface's Chinese as a file the page fetches when it turns Chinese (with its font), so that
the first visit, in English, does not carry it: src/app/i18n.h (AP_ZH_FETCHED, add_fetched_translations).

usage: zh_strings.py OUT            writes OUT and OUT.gz (gzip -9, no name or time: reproducible)

Format (read by ap::add_fetched_translations, which checks it): the line "apzh 1\\n", then each pair of the
translation tables (tools/i18n_tables.py) as its English text, a NUL byte, its Chinese text, a NUL byte; UTF-8,
escapes resolved as the compiler does. A native unit test checks that it holds every pair of the tables that
the program registers, with the same Chinese.
"""
import gzip
import pathlib
import re
import sys

from i18n_tables import read_tables, unescape

MAGIC = b"apzh 1\n"


def main():
    out = pathlib.Path(sys.argv[1])
    problems = []
    table = read_tables(problems.append)
    if problems:
        print("\n".join(problems))
        sys.exit(1)
    data = bytearray(MAGIC)
    for en, zh in table.items():
        # unescape() resolves the escapes the tables use, after joining adjacent literals; the compiler resolves
        # each literal first. They agree for \" \\ and \n only: refuse anything else rather than differ.
        for raw in (en, zh):
            if re.search(r'\\[^"\\n]', raw.replace("\\\\", "")):
                sys.exit(f"zh_strings.py: an escape other than \\\" \\\\ \\n in {raw!r}: write the character itself")
        for s in (unescape(en), unescape(zh)):
            b = s.encode("utf-8")
            if b"\0" in b:
                sys.exit(f"a NUL byte in {s!r}")
            data += b + b"\0"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(bytes(data))
    pathlib.Path(str(out) + ".gz").write_bytes(gzip.compress(bytes(data), 9, mtime=0))


if __name__ == "__main__":
    main()
