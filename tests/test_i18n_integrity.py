"""Nothing lost, nothing stale: duplicate entries, a catalog edited while a build reads it.

A catalog holding one msgctxt and msgid twice (the usual leftover of a git merge of two catalog
edits) is refused by every reader with both lines named: `rulebook i18n check` fails, the build
shows none of it (never the first entry, empty or not), `rulebook i18n update` leaves it as it
is. What a build keeps of a catalog is made from the very bytes it fingerprints.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rulebook.cache import BuildCache
from rulebook.cli import main
from rulebook.i18n import translate
from rulebook.i18n.translate import translate_book
from rulebook.loader import load_book
from tests.conftest import demo_book

BOOK = demo_book("""
sections:
  - id: primo
    title: Primo
    rules:
      - id: r1
        text: Un testo.
      - id: r2
        text: Due carte.
""")

HEADER = ('msgid ""\nmsgstr ""\n"Project-Id-Version: demo\\n"\n"Language: en\\n"\n'
          '"Content-Type: text/plain; charset=UTF-8\\n"\n"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n')


def entry(context: str, msgid: str, msgstr: str, obsolete: bool = False) -> str:
    mark = "#~ " if obsolete else ""
    return f'\n{mark}msgctxt "{context}"\n{mark}msgid "{msgid}"\n{mark}msgstr "{msgstr}"\n'


def msgstr_lines(path: Path, text: str) -> list[int]:
    """The numbers of the lines holding ``msgstr "text"`` (live or #~)."""
    return [n for n, line in enumerate(path.read_text(encoding="utf-8").split("\n"), start=1)
            if line.removeprefix("#~ ") == f'msgstr "{text}"']


@pytest.fixture
def project(write_rules, tmp_path, monkeypatch):
    """The demo book and the path of its English catalog (not written yet)."""
    book = load_book(write_rules(BOOK))
    path = tmp_path / "locales" / "en" / "LC_MESSAGES" / "demo.po"
    path.parent.mkdir(parents=True)
    return book, path


# The second entry of each pair holds the translation: a reader that keeps the first shows nothing.
DUPLICATES = {
    "live": entry("demo/r2:text", "Due carte.", "") + entry("demo/r1:text", "Un testo.", "A text.")
    + entry("demo/r2:text", "Due carte.", "Two cards."),
    "obsolete": entry("demo/r1:text", "Un testo.", "A text.") + entry("demo/old:text", "Vecchio.", "Old one.", obsolete=True)
    + entry("demo/old:text", "Vecchio.", "Old two.", obsolete=True),
}


@pytest.mark.parametrize("kind", DUPLICATES)
def test_a_duplicate_entry_is_an_error_naming_both_lines_everywhere(project, kind, capsys):
    book, path = project
    path.write_text(HEADER + DUPLICATES[kind], encoding="utf-8")
    before = path.read_bytes()
    first, second = (msgstr_lines(path, "") [-1:] + msgstr_lines(path, "Two cards.")) if kind == "live" else (
        msgstr_lines(path, "Old one.") + msgstr_lines(path, "Old two."))
    shown = "locales/en/LC_MESSAGES/demo.po"
    said = f"{shown}:{second}:1: {'the #~ entry ' if kind == 'obsolete' else ''}msgid "
    both = f"is defined twice, here and at {shown}:{first}; keep the entry with the right translation and delete the other"

    assert main(["i18n", "check"]) == 1
    out = capsys.readouterr().out
    assert said in out and both in out, out

    # The build: the whole book in the source language, said at both lines (a warning: --strict fails).
    translated = translate_book(book, "en", Path("locales"))
    assert [(p.line, p.message.endswith(both)) for p in translated.unreadable] == [(second, True)]
    assert translated.book.sections[0].rules[1].text == "Due carte."
    assert translated.book.sections[0].rules[0].text == "Un testo."

    # update rewrites nothing: both translations stay for the translator to choose.
    assert main(["i18n", "update", "-l", "en"]) == 1
    out = capsys.readouterr().out
    assert said in out and f"{both} (catalog not updated)" in out, out
    assert path.read_bytes() == before


def test_a_msgid_both_live_and_obsolete_fails_the_check_and_update_keeps_one(project, capsys):
    """GNU msgfmt's "duplicate message definition" too; with one translation between them,
    update resolves it, and then the check passes."""
    book, path = project
    path.write_text(HEADER + entry("demo/r1:text", "Un testo.", "A text.") + entry("demo/r2:text", "Due carte.", "Two cards.")
                    + entry("demo/r2:text", "Due carte.", "", obsolete=True), encoding="utf-8")
    [live], [old] = msgstr_lines(path, "Two cards."), msgstr_lines(path, "")[-1:]
    shown = "locales/en/LC_MESSAGES/demo.po"
    assert main(["i18n", "check", "-l", "en"]) == 1
    assert (f"{shown}:{old}:1: 'Due carte.' is both a message ({shown}:{live}) and an obsolete #~ entry; "
            "run `rulebook i18n update`, which keeps one, or delete the #~ entry") in capsys.readouterr().out
    # The build shows the live translation and says what the check says.
    translated = translate_book(book, "en", Path("locales"))
    assert translated.book.sections[0].rules[1].text == "Two cards."
    assert [p.line for p in translated.whole] == [old] and translated.whole[0] in translated.problems
    assert main(["i18n", "update", "-l", "en"]) == 0
    assert "#~" not in path.read_text(encoding="utf-8")
    capsys.readouterr()
    assert main(["i18n", "check", "-l", "en"]) == 0, capsys.readouterr().out


def test_a_catalog_saved_while_a_build_reads_it_leaves_no_stale_translation(project, monkeypatch, tmp_path):
    """The catalog changes from A to B between the moment a build reads it and the moment it
    parses it (an editor's save, a checkout); later A is back. What the build kept must be A's
    or B's under its own fingerprint, never B's under A's: else every later build of A shows B."""
    book, path = project
    version_a = HEADER + entry("demo/r1:text", "Un testo.", "Text A.") + entry("demo/r2:text", "Due carte.", "Two cards.")
    version_b = version_a.replace("Text A.", "Text B.")
    path.write_text(version_a, encoding="utf-8")
    folder = tmp_path / "cache"
    cache = BuildCache(folder)  # one build's, or one serve session's

    parse = translate.read_catalog

    def saved_meanwhile(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202 - read_catalog's
        path.write_text(version_b, encoding="utf-8")  # B lands on disk after A was read, before it is parsed
        return parse(*args, **kwargs)

    monkeypatch.setattr(translate, "read_catalog", saved_meanwhile)
    during = translate_book(book, "en", Path("locales"), cache=cache)
    assert during.book.sections[0].rules[0].text in ("Text A.", "Text B.")  # either version, whole
    monkeypatch.setattr(translate, "read_catalog", parse)
    assert list((folder / "translations").iterdir())  # something was kept

    path.write_text(version_a, encoding="utf-8")  # A is back
    again = translate_book(book, "en", Path("locales"), cache=cache)  # what this process remembers
    assert again.book.sections[0].rules[0].text == "Text A."
    kept = translate_book(book, "en", Path("locales"), cache=folder)  # what the cache folder keeps (a new build's cache)
    assert kept.book.sections[0].rules[0].text == "Text A."
    path.write_text(version_b, encoding="utf-8")
    assert translate_book(book, "en", Path("locales"), cache=cache).book.sections[0].rules[0].text == "Text B."


def test_a_catalog_duplicated_whole_reports_at_most_the_cap(tmp_path):
    """A merge that doubled every entry: the first fifty duplicates, then how many more."""
    from rulebook.i18n.pofile import read_catalog
    from rulebook.limits import MAX_PROBLEMS

    entries = "".join(entry(f"demo/r{n}:text", f"Testo {n}.", f"Text {n}.") for n in range(MAX_PROBLEMS + 10))
    path = tmp_path / "demo.po"
    path.write_text(HEADER + entries + entries, encoding="utf-8")
    catalog, problems = read_catalog(path)
    assert catalog is None and len(problems) == MAX_PROBLEMS + 1
    assert all("is defined twice" in p.message for p in problems[:-1])
    assert problems[-1].message == "too many problems; 10 more not shown: fix these first"
