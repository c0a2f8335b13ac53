"""Issue 16 and 12.2, PO side: each catalog that crashed, hung or was silently ignored.

A catalog that cannot be read is an error at FILE:LINE for every command and for the strict
build, never a book quietly shown in Italian as "not translated yet".
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest
from mkdocs.exceptions import Abort

from rulebook.cli import main
from rulebook.i18n.catalogs import read_catalog
from rulebook.i18n.pofile import sharing_catalogs
from rulebook.limits import MAX_CATALOG_BYTES, MAX_PLURAL_FORMS
from tests.conftest import MINIMAL
from tests.linear import assert_linear
from tests.thorough import every_text, examples
from tests.test_site_build import build, make_project

HEADER = """msgid ""
msgstr ""
"Project-Id-Version: rulebook demo\\n"
"POT-Creation-Date: 2024-05-01 12:00+0200\\n"
"Language: en\\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\\n"
"Content-Type: text/plain; charset=UTF-8\\n"

msgctxt "demo/r1:text"
msgid "Vedi [[r2]]."
msgstr "See [[r2]]."
"""

PLURAL_ENTRY = '\nmsgid "uno"\nmsgid_plural "molti"\nmsgstr[0] "one"\nmsgstr[1] "many"\n'

# (what the issue found, the broken catalog, the line it is reported at, what the report says)
BROKEN = [
    ("charset-foo", HEADER.replace("charset=UTF-8", "charset=foo"), 7, "charset=foo is not supported; save the file as UTF-8"),
    ("charset-base64", HEADER.replace("charset=UTF-8", "charset=base64"), 7, "charset=base64 is not supported"),
    ("charset-rot13", HEADER.replace("charset=UTF-8", "charset=rot13"), 7, "charset=rot13 is not supported"),
    ("charset-hex", HEADER.replace("charset=UTF-8", "charset=hex"), 7, "charset=hex is not supported"),
    ("charset-latin1", HEADER.replace("charset=UTF-8", "charset=ISO-8859-1"), 7, "charset=iso-8859-1 is not supported"),
    ("unicode-escape", HEADER.replace("charset=UTF-8", "charset=unicode_escape").replace('"See [[r2]]."', '"See [[r2]].\\x"'), 7,
     "charset=unicode_escape is not supported"),
    ("header-continuation", HEADER.replace('"POT-Creation-Date: 2024-05-01 12:00+0200\\n"', '"POT-Creation-Date: 2024-05-01 12:00+0200\\n"\n"  continued\\n"'), 4,
     "header 'pot-creation-date' continues on a second line; write each header on one line"),
    ("bad-date", HEADER.replace("2024-05-01 12:00+0200", "yesterday"), 4, "pot-creation-date 'yesterday' is not a date like 2024-05-01 12:00+0200"),
    ("bad-zone", HEADER.replace("12:00+0200", "12:00+9999"), 4, "pot-creation-date '2024-05-01 12:00+9999' is not a date"),
    ("billion-plurals", HEADER.replace("nplurals=2", "nplurals=1000000000") + PLURAL_ENTRY, 6,
     f"nplurals=1000000000 must be a number from 1 to {MAX_PLURAL_FORMS}"),
    ("no-plurals", HEADER.replace("nplurals=2", "nplurals=0"), 6, "nplurals=0 must be a number"),
    ("word-plurals", HEADER.replace("nplurals=2", "nplurals=two"), 6, "nplurals=two must be a number"),
    ("bad-language", HEADER.replace("Language: en", "Language: ../../etc"), 5, "unknown language '../../etc'"),
    ("syntax", HEADER.replace('msgstr "See', 'msgstri "See'), 11, "not a valid PO file (as Babel reads it: "),
    ("not-utf8", HEADER.replace("See", "S\udce4e"), 11, "not valid utf-8: save the file as UTF-8 (byte 0xe4 is not UTF-8)"),
]


@pytest.fixture(scope="module", autouse=True)
def _shipped_catalogs_parsed_once():
    """Every command reads the package's shipped templates and catalogs again: parsed once here."""
    with sharing_catalogs():
        yield


@pytest.fixture
def project(write_rules, tmp_path):
    write_rules(MINIMAL)
    path = tmp_path / "locales" / "en" / "LC_MESSAGES" / "demo.po"
    path.parent.mkdir(parents=True)

    def write(text: str) -> Path:
        path.write_bytes(text.encode("utf-8", "surrogateescape"))
        return path

    return write


@pytest.mark.parametrize(("case", "text", "line", "message"), BROKEN, ids=[b[0] for b in BROKEN])
def test_a_broken_catalog_is_one_problem_at_its_line(project, case, text, line, message):
    catalog, problems = read_catalog(project(text))
    assert catalog is None
    assert [(p.path, p.line) for p in problems] == [("locales/en/LC_MESSAGES/demo.po", line)]
    assert problems[0].message.startswith(message), problems[0].message


@pytest.mark.parametrize(("case", "text", "line", "message"), BROKEN, ids=[b[0] for b in BROKEN])
def test_every_command_names_a_broken_catalog_and_fails(project, capsys, case, text, line, message):
    project(text)
    where = f"locales/en/LC_MESSAGES/demo.po:{line}:"
    for command in (["i18n", "check"], ["i18n", "stats"], ["i18n", "update", "--check"], ["i18n", "compile"]):
        assert main(command) == 1, command
        captured = capsys.readouterr()
        assert f"{where}" in captured.out and message in captured.out, (command, captured.out)
        assert "Traceback" not in captured.err


def test_stats_never_shows_a_broken_catalog_as_merely_untranslated(project, capsys):
    project(HEADER.replace('msgstr "See', 'msgstri "See'))
    assert main(["i18n", "stats"]) == 1
    out = capsys.readouterr().out
    assert "locales/en/LC_MESSAGES/demo.po:11:1: not a valid PO file" in out and "(counted as untranslated)" in out


def test_a_catalog_over_the_size_limit_is_refused(project):
    catalog, problems = read_catalog(project(HEADER + "#" * MAX_CATALOG_BYTES + "\n"))
    assert catalog is None and problems[0].message.startswith(f"the file is larger than the limit of {MAX_CATALOG_BYTES:,} bytes")
    assert "`catalogs: sections` under `book:`" in problems[0].message  # a book's catalog that large: file it per section
    catalog, problems = read_catalog(project(HEADER + "#" * (MAX_CATALOG_BYTES - len(HEADER.encode()) - 2) + "\n"))
    assert catalog is not None  # at the limit: read


def test_a_billion_plurals_cost_nothing():
    import tempfile

    text = HEADER.replace("nplurals=2", "nplurals=1000000000") + PLURAL_ENTRY * 2_000
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "x.po"
        path.write_text(text, encoding="utf-8")
        assert_linear(lambda: read_catalog(path), text, "nplurals")


def test_the_line_of_a_translation_problem_is_its_msgstr(project, capsys):
    project(HEADER.replace('msgstr "See [[r2]]."', 'msgstr ""\n"See\\n"\n"now."'))
    assert main(["i18n", "check"]) == 1
    out = capsys.readouterr().out
    assert "locales/en/LC_MESSAGES/demo.po:11:1: demo/r1:text: [references] cross-reference missing: [[r2]]" in out
    assert out.rstrip().endswith("rulebook i18n check: 1 problem")


def test_compile_writes_a_mo_only_for_a_clean_catalog(project, capsys):
    import gettext

    path = project(HEADER)
    assert main(["i18n", "compile"]) == 0
    assert "rulebook i18n compile: 1 catalog written, 0 refused" in capsys.readouterr().out
    with path.with_suffix(".mo").open("rb") as handle:
        assert gettext.GNUTranslations(handle).pgettext("demo/r1:text", "Vedi [[r2]].") == "See [[r2]]."
    path.with_suffix(".mo").unlink()
    project(HEADER.replace('msgstr "See [[r2]]."', 'msgstr "See <script>x</script>."'))
    assert main(["i18n", "compile"]) == 1
    assert "refused locales/en/LC_MESSAGES/demo.po: 2 problems" in capsys.readouterr().out
    assert not path.with_suffix(".mo").exists()


# --- nothing is written outside the project ------------------------------------------------


def test_update_refuses_a_language_folder_linked_outside_the_project(write_rules, tmp_path, capsys):
    write_rules(MINIMAL)
    outside = tmp_path.parent / f"{tmp_path.name}-outside"
    outside.mkdir()
    (tmp_path / "locales").mkdir()
    os.symlink(outside, tmp_path / "locales" / "de")
    (outside / "LC_MESSAGES").mkdir()
    assert main(["i18n", "update"]) == 2
    err = capsys.readouterr().err
    assert re.search(r"locales/de/LC_MESSAGES/demo\.po leads to .*outside the project .*replace the link with a real file or folder", err)
    assert list(outside.rglob("*")) == [outside / "LC_MESSAGES"]  # nothing written there


@pytest.mark.parametrize("language", ["../../x", "en/../../x", "..", "en US", "x;y"])
def test_a_language_that_looks_like_a_path_is_refused(write_rules, tmp_path, capsys, language):
    write_rules(MINIMAL)
    assert main(["i18n", "update", "-l", language]) == 2
    assert f"unknown language {language!r}" in capsys.readouterr().err
    assert not (tmp_path.parent / "x").exists()


# --- the strict build fails, with the file and line ----------------------------------------


@pytest.mark.parametrize(("case", "damage", "where"), [
    ("syntax", lambda text: text.replace('msgstr "Пробная', 'msgstri "Пробная'), r"ru/LC_MESSAGES/demo\.po:\d+:1: not a valid PO file"),
    ("charset", lambda text: text.replace("charset=utf-8", "charset=rot13"), r"ru/LC_MESSAGES/demo\.po:\d+:1: charset=rot13 is not supported"),
    ("check", lambda text: text.replace("Пробная книга", "<script>alert(1)</script>"), r"ru/LC_MESSAGES/demo\.po:\d+:1: demo:summary: \[html\]"),
])
def test_a_broken_catalog_fails_the_strict_build_at_its_line(tmp_path, caplog, case, damage, where):
    config = make_project(tmp_path, check_examples=False, languages=["it", "ru"])  # the damaged catalog's language
    po = tmp_path / "locales" / "ru" / "LC_MESSAGES" / "demo.po"
    po.write_text(damage(po.read_text(encoding="utf-8")), encoding="utf-8")
    with pytest.raises(Abort):
        build(config, strict=True)
    warnings = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert any(re.search(where, w) for w in warnings), warnings


# --- writing: Babel's line wrapping is quadratic on a long word --------------------------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


_WORD_PIECES = ["a", "Z", "1", "_", "-", "--", ".", "[", " ", "é", "!", "'", "\n", "x-y"]


def test_our_word_splitting_is_babels_on_every_short_text():
    from babel.messages import pofile as babel_pofile

    from rulebook.i18n.pofile import WORD_SEP

    # Every text of up to four pieces (40,197), and of up to six of the kinds of character the
    # expression tells apart (55,987: a letter, a digit, a hyphen, punctuation that may stand
    # before an em-dash, a space), in a plain loop: a quarter of a second.
    texts = every_text(_WORD_PIECES, 4) + every_text(["a", "1", "-", ".", " ", "'"], 6)
    differ = [text for text in texts if WORD_SEP.split(text) != babel_pofile.WORD_SEP.split(text)]
    assert not differ, differ[:10]


# The longer texts of every piece. The loop above catches every change to WORD_SEP that 3,000
# examples here alone caught (a hyphenated word after a digit, "a1-aa", needs five pieces, and
# 500 examples missed it), so 500 remain, in a fifth of the time; THOROUGH=1 runs the 3,000
# (tests/thorough.py).
@pytest.mark.slow
@settings(max_examples=examples(500, 3000))
@given(st.lists(st.sampled_from(_WORD_PIECES), max_size=16).map("".join))
def test_our_word_splitting_is_babels(text):
    from babel.messages import pofile as babel_pofile

    from rulebook.i18n.pofile import WORD_SEP

    assert WORD_SEP.split(text) == babel_pofile.WORD_SEP.split(text)


@pytest.mark.parametrize("word", ["a", "[", "é", "[a"])
def test_a_catalog_with_a_huge_word_is_written_in_linear_time(word):
    # A 1 MB "Language-Team: [[[[…" header took hours in `rulebook i18n update --check`.
    from babel.messages.catalog import Catalog

    from rulebook.i18n.catalogs import serialize

    catalog = Catalog(locale="en")
    text = word * 200_000
    catalog.add("Paga {W}.", text, context="demo/r1:text")
    assert_linear(lambda: serialize(catalog), text, f"serialize {word!r}")
    assert text in serialize(catalog).decode("utf-8").replace('"\n"', "")


def test_a_catalog_with_thousands_of_problems_reports_the_first_fifty_and_a_count(project, capsys):
    from rulebook.limits import MAX_PROBLEMS

    entries = "".join(f'\nmsgctxt "demo/x{n}:text"\nmsgid "Vedi [[r2]]."\nmsgstr "See."\n' for n in range(2_000))
    project(HEADER + entries)
    assert main(["i18n", "check"]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == MAX_PROBLEMS + 2  # the first fifty, the count, the summary
    assert lines[MAX_PROBLEMS].endswith(f"too many problems; {2_000 - MAX_PROBLEMS:,} more not shown: fix these first")
    assert lines[-1] == f"rulebook i18n check: {MAX_PROBLEMS + 1} problems"


_ESCAPED = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Language: en\\n"\n\nmsgid "a"\nmsgstr "{}"\n'


@pytest.mark.parametrize("escape", ["\\x41", "\\101", "\\u00e9"])
def test_an_escape_gnu_and_babel_read_apart_is_refused_at_its_place(tmp_path, escape):
    """GNU msgfmt reads \\x41 and \\101 as 'A' (and \\x41b as one byte, 0x1b), Babel kept the letters
    as text: the build and a compiled .mo would disagree, so the line is refused where the escape is."""
    path = tmp_path / "en.po"
    path.write_text(_ESCAPED.format(escape + "b"), encoding="utf-8")
    catalog, problems = read_catalog(path)
    assert catalog is None
    (problem,) = problems
    assert (problem.line, problem.column) == (7, 9) and f"the escape {escape[:2]} means one thing to GNU gettext" in problem.message


def test_the_escapes_both_tools_read_alike_are_kept(tmp_path):
    path = tmp_path / "en.po"
    path.write_text(_ESCAPED.format('a\\\\x41 \\"q\\"\\t\\n'), encoding="utf-8")
    catalog, problems = read_catalog(path)
    assert not problems and catalog["a"].string == 'a\\x41 "q"\t\n'


@pytest.mark.skipif(not shutil.which("msgfmt"), reason="GNU gettext is not installed")
def test_gnu_msgfmt_reads_a_hex_escape_as_a_character(tmp_path):
    """Why the escape is refused rather than kept: GNU's reading differs from Babel's."""
    import gettext
    import subprocess

    path = tmp_path / "en.po"
    path.write_text(_ESCAPED.format("\\x41\\101"), encoding="utf-8")
    subprocess.run(["msgfmt", "-o", str(tmp_path / "en.mo"), str(path)], check=True, capture_output=True)
    with open(tmp_path / "en.mo", "rb") as compiled:
        assert gettext.GNUTranslations(compiled).gettext("a") == "AA"
