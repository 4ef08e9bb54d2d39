#!/usr/bin/python3
"""Subsets Debian's Noto fonts to the glyphs the playground draws, and embeds them as C++ arrays.

usage: make_fonts.py --common OUT.otf                    the larger Chinese subset the page loads on demand
       make_fonts.py --chars CHARS.txt SOURCE_FILE...   collect the CJK characters of the sources; CHARS.txt is
                                                        rewritten only when that set changes
       make_fonts.py OUT.cpp CHARS.txt UI.otf           subset the fonts: embed the small ones in OUT.cpp, write
                                                        the interface's Chinese to UI.otf (loaded on demand)
Each .otf is written beside a gzip-compressed copy (.otf.gz) that the web page fetches.

Two steps, so that editing a source file re-runs only the cheap first one: the build subsets the fonts
again only when the set of characters the interface draws has changed (Ninja's restat sees CHARS.txt
unchanged and skips the second step).

  latin   Noto Sans          ASCII, Latin-1, Greek, super/subscripts (ᵀ, ₖ, ᵢ, ⱼ), general punctuation
  math    Noto Sans Math     √ ∞ − ≈ → ∑ ∈ ℝ ⋯ …  (merged into the same ImGui font)
  symbols Noto Sans Symbols2 ▶ ⏸ ◀ ■ (timeline buttons)
  cjk     Noto Sans CJK SC   every CJK character that appears in the SOURCE_FILEs (the UI strings and
                             presets), so the Chinese interface is complete: not embedded but written to
                             UI.otf, fetched when the interface turns Chinese or shows one of these characters
                             (src/ui/font_loader.cpp); OUT.cpp keeps only its list of code points
  cjk_en  Noto Sans CJK SC   the few hanzi an English screen shows (the "中文" button, English strings that
                             quote Chinese: the first string of each {"English", "中文"} pair): embedded

For each font the .cpp gets the bytes and the list of code points it covers, as ImGui glyph ranges
(pairs of first/last code point, 0-terminated), so that ImGui rasterises exactly those glyphs.
Run with Debian's /usr/bin/python3 (python3-fonttools).
"""
import gzip
import io
import re
import sys

from fontTools import subset
from fontTools.ttLib import TTFont

NOTO = "/usr/share/fonts/truetype/noto/"
CJK = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"

def rng(a, b):
    return set(range(a, b + 1))

def cps(s):
    return {ord(c) for c in s}

LATIN = rng(0x20, 0x7E) | rng(0xA0, 0xFF) | rng(0x391, 0x3C9) | rng(0x2070, 0x209C) | rng(0x2010, 0x2027) \
    | cps("ᵀᵢⱼₖₘₙ•‹›")
MATH = cps("√∞−≈→←↑↓∑∈ℝ⋯≤≥±∓⊤⟨⟩⊙∙↦⇒∝≡↻⌈⌉")
SYMBOLS = cps("▶⏸◀■⏮⏭⏩⏪●○⚠✕✓")
CJK_PUNCT = cps("，。：；！？（）、「」《》“”‘’…—·")

def is_cjk(cp):
    return 0x2E80 <= cp <= 0x9FFF or 0xF900 <= cp <= 0xFAFF or 0xFF00 <= cp <= 0xFFEF or 0x3000 <= cp <= 0x303F

def subset_font(path, codepoints, font_number=0):
    font = TTFont(path, fontNumber=font_number, lazy=False)
    cmap = font.getBestCmap()
    present = sorted(cp for cp in codepoints if cp in cmap)
    opts = subset.Options()
    opts.layout_features = []          # ImGui 1.86 does no shaping
    opts.name_IDs = [1, 2]
    opts.notdef_outline = True
    opts.hinting = False
    opts.desubroutinize = True
    sub = subset.Subsetter(opts)
    sub.populate(unicodes=present)
    sub.subset(font)
    buf = io.BytesIO()
    font.save(buf)
    return buf.getvalue(), present

def ranges(cps_sorted):
    out = []
    for cp in cps_sorted:
        if out and out[-1][1] == cp - 1:
            out[-1][1] = cp
        else:
            out.append([cp, cp])
    return out

# The English side of the translation tables ({"English", "中文"} pairs, i18n.h's TrPair) and the language
# button: what an English screen draws in Chinese before any text arrives (font_loader.cpp computes the same
# set at run time from the tables; a character this misses is fetched with the interface's font).
EN_PAIR = re.compile(r'\{\s*"((?:[^"\\\n]|\\.)*)"\s*,\s*"')
EN_ALWAYS = "中文"

def collect_chars(out_path, sources):
    text = ""
    english = EN_ALWAYS
    for s in sources:
        with open(s, encoding="utf-8") as f:
            t = f.read()
        text += t
        english += "".join(m.group(1) for m in EN_PAIR.finditer(t))
    cjk_sorted = lambda t: "".join(sorted({c for c in t if is_cjk(ord(c))}))
    chars = cjk_sorted(text) + "\n" + cjk_sorted(english)  # every CJK character, then the English screen's
    try:
        with open(out_path, encoding="utf-8") as f:
            if f.read() == chars:
                return  # unchanged: leave the file (and its time stamp) alone
    except FileNotFoundError:
        pass
    with open(out_path, "w", encoding="utf-8") as f:
        f.write(chars)

# --check: every character in a string literal of the interface code (src/, the numeric core excepted) must
# have a glyph in the fonts the atlas is built from; otherwise it would show as "?" on screen.
def check_glyphs(root):
    import glob
    import re
    fonts = [(NOTO + "NotoSans-Regular.ttf", LATIN, 0), (NOTO + "NotoSansMath-Regular.ttf", MATH, 0),
             (NOTO + "NotoSansSymbols2-Regular.ttf", SYMBOLS, 0)]
    have = set()
    for path, want, idx in fonts:
        cmap = TTFont(path, fontNumber=idx, lazy=True).getBestCmap()
        have |= {cp for cp in want if cp in cmap}
    cjk_cmap = TTFont(CJK, fontNumber=2, lazy=True).getBestCmap()
    literal = re.compile(r'"((?:[^"\\\n]|\\.)*)"')
    missing = {}
    files = sorted(glob.glob(root + "/**/*.cpp", recursive=True) + glob.glob(root + "/**/*.h", recursive=True))
    for f in files:
        if "/core/" in f or f.endswith("_data.h") or f.endswith("_data.cpp"):
            continue
        with open(f, encoding="utf-8") as fh:
            for n, line in enumerate(fh, 1):
                for m in literal.finditer(line):
                    for c in m.group(1):
                        cp = ord(c)
                        ok = cp < 0x80 or cp in have or (is_cjk(cp) and (cp in cjk_cmap)) or cp in (CJK_PUNCT & set(cjk_cmap))
                        if not ok:
                            missing.setdefault(c, []).append(f"{f}:{n}")
    for c, where in sorted(missing.items()):
        print(f"no glyph for U+{ord(c):04X} {c!r} ({len(where)}×, first at {where[0]}): add it to make_fonts.py or write it another way")
    if missing:
        sys.exit(1)
    print(f"every character in the interface's strings has a glyph ({len(files)} files)")

# --common OUT.otf: the Chinese a learner may type, loaded by the page only when text arrives with characters
# the interface's own subset lacks (src/ui/font_loader.cpp): every character of GB2312 (6,763 hanzi, the
# full-width forms and punctuation), about 1.5 MB, never part of the first visit.
def gb2312_chars():
    out = set()
    for hi in range(0xA1, 0xF8):
        for lo in range(0xA1, 0xFF):
            try:
                out.add(ord(bytes([hi, lo]).decode("gb2312")))
            except UnicodeDecodeError:
                pass
    return out

def write_font_file(out_path, data):
    """OUT and OUT.gz (gzip -9, no time stamp: the same bytes every build)."""
    with open(out_path, "wb") as f:
        f.write(data)
    with open(out_path + ".gz", "wb") as f:
        with gzip.GzipFile(filename="", mode="wb", fileobj=f, compresslevel=9, mtime=0) as z:
            z.write(data)

def write_common(out_path):
    data, present = subset_font(CJK, gb2312_chars() | CJK_PUNCT, 2)
    write_font_file(out_path, data)

def main():
    if sys.argv[1] == "--common":
        write_common(sys.argv[2])
        return
    if sys.argv[1] == "--check":
        check_glyphs(sys.argv[2])
        return
    if sys.argv[1] == "--chars":
        collect_chars(sys.argv[2], sys.argv[3:])
        return
    out_path, chars_path, ui_path = sys.argv[1], sys.argv[2], sys.argv[3]
    with open(chars_path, encoding="utf-8") as f:
        all_text, _, en_text = f.read().partition("\n")
    cjk = {ord(c) for c in all_text if is_cjk(ord(c))} | CJK_PUNCT
    cjk_en = {ord(c) for c in en_text if is_cjk(ord(c))}
    fonts = [
        ("latin", NOTO + "NotoSans-Regular.ttf", LATIN, 0),
        ("math", NOTO + "NotoSansMath-Regular.ttf", MATH, 0),
        ("symbols", NOTO + "NotoSansSymbols2-Regular.ttf", SYMBOLS, 0),
        ("cjk_en", CJK, cjk_en, 2),
        ("cjk", CJK, cjk, 2),  # not embedded: written to UI.otf
    ]
    w = io.StringIO()
    w.write("// Generated by tools/make_fonts.py from Debian's Noto fonts (SIL Open Font License). Do not edit.\n")
    w.write("#include \"ui/fonts_data.h\"\n\nnamespace ap::fonts {\n")
    for name, path, want, idx in fonts:
        data, present = subset_font(path, want, idx)
        if name == "cjk":  # only the code points here: the bytes go to UI.otf
            write_font_file(ui_path, data)
            w.write(f"\n// {name}: {len(present)} glyphs, {len(data)} bytes in {ui_path.split('/')[-1]} (loaded on demand)\n")
            blob = f"nullptr, {len(data)}"
        else:
            w.write(f"\n// {name}: {len(present)} glyphs, {len(data)} bytes\n")
            w.write(f"static const unsigned char {name}_bytes[] = {{")
            for i, b in enumerate(data):
                if i % 24 == 0:
                    w.write("\n")
                w.write(f"{b},")
            w.write("\n};\n")
            blob = f"{name}_bytes, sizeof({name}_bytes)"
        w.write(f"static const unsigned short {name}_ranges[] = {{")
        for a, b in ranges(present):
            w.write(f"0x{a:X},0x{b:X},")
        w.write("0};\n")
        w.write(f"const FontBlob {name} = {{{blob}, {name}_ranges}};\n")
    w.write("\n}  // namespace ap::fonts\n")
    with open(out_path, "w", encoding="utf-8") as f:
        f.write(w.getvalue())

if __name__ == "__main__":
    main()
