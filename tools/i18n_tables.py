"""The interface's translation tables, read from the sources: every {"English", "中文"} pair inside a
`TrPair name[] = { … };` table under src/ (the shared table in src/app/i18n.cpp, and each scene's and view's
own table in its own file), and the quiz's questions (src/app/quiz.cpp's kQuiz: each question, option and
explanation an {"English", "中文"} pair, gathered by quiz_translations()). Used by check_i18n.py (completeness) and zh_strings.py (the page's Chinese, fetched
on demand).
"""
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parent.parent
SRC = ROOT / "src"
LIT = r'"((?:[^"\\]|\\.)*)"'
LITS = r'((?:\s*"(?:[^"\\]|\\.)*")+)'  # adjacent literals, joined by the compiler


def join(group):
    return "".join(re.findall(LIT, group))


def unescape(s):
    """A C++ literal's text as the compiler stores it (\\n, \\", \\\\, \\xNN …), UTF-8 kept."""
    return s.encode("utf-8").decode("unicode_escape").encode("latin-1").decode("utf-8") if "\\" in s else s


def sources():
    for f in sorted(SRC.rglob("*.[ch]*")):
        if f.suffix in (".cpp", ".h"):
            yield f, f.read_text(encoding="utf-8")


def read_tables(report=print):
    """{English: Chinese} as written (escapes not resolved), in the order of the sources."""
    table = {}
    for _, text in sources():
        blocks = list(re.finditer(r"TrPair\s+\w+\[\]\s*=\s*\{(.*?)\n\};", text, re.S))
        blocks += re.finditer(r"std::vector<QuizText>>\s+kQuiz\s*=\s*\{(.*?)\n  \};", text, re.S)
        for block in blocks:
            for m in re.finditer(r"\{" + LITS + r"\s*,\s*" + LITS + r"\s*\}", block.group(1), re.S):
                en, zh = join(m.group(1)), join(m.group(2))
                if en in table and table[en] != zh:
                    report(f"  two translations for {en!r}: {table[en]!r} and {zh!r}")
                table[en] = zh
    return table
