"""An engine's translations follow its Italian sentences, not its English msgids: a reworded
Italian msgstr marks every translation of it fuzzy on `rulebook i18n update` (kept, never
dropped), and `rulebook i18n check` says which entries it left behind before the update.

Run on a project `rulebook new` makes with its rules in Italian: its engine's domain
(``src/pig/locale/engine.pig.*``) has English msgids, an Italian catalog and a French one."""

from __future__ import annotations

import logging
import sys
from collections.abc import Iterator
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po, write_po

from rulebook import engines
from rulebook.adapters import generator
from rulebook.cli import main
from rulebook.i18n.catalogs import serialize
from rulebook.i18n.followed import add_records, recorded
from rulebook.i18n.pofile import read_catalog

MSGID = "game over"
OTHER = "the die is rolling (chance)"


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    folder = tmp_path / "pig"
    assert main(["new", str(folder), "--source", "it", "-l", "fr", "-l", "en"]) == 0
    monkeypatch.syspath_prepend(str(folder / "src"))
    ours = list(engines.entry_points(group=engines.GROUP))  # the book's engine `pig`, registered as its pyproject.toml does
    monkeypatch.setattr(engines, "entry_points",
                        lambda group: [*ours, EntryPoint("pig", "pig.engine", engines.GROUP)] if group == engines.GROUP else [])
    monkeypatch.chdir(folder)
    yield folder
    for name in [n for n in sys.modules if n.partition(".")[0] == "pig"]:
        del sys.modules[name]


def _path(project: Path, language: str) -> Path:
    return project / "src" / "pig" / "locale" / language / "LC_MESSAGES" / "engine.pig.po"


def _read(project: Path, language: str) -> Catalog:
    """The catalog as `rulebook i18n check` reads it (a message's line: its msgstr's)."""
    catalog, problems = read_catalog(_path(project, language), domain="engine.pig")
    assert catalog is not None, problems
    return catalog


def _edit(project: Path, language: str, strings: dict[str, str]) -> None:
    """Set msgstrs by msgid, as a translator's editor would (Babel's writer)."""
    with _path(project, language).open("rb") as f:
        catalog = read_po(f)
    for msgid, string in strings.items():
        catalog[msgid].string = string
    with _path(project, language).open("wb") as f:
        write_po(f, catalog)


def _message(project: Path, language: str, msgid: str) -> Message:
    message = _read(project, language).get(msgid)
    assert message is not None
    return message


def test_every_translation_records_the_italian_it_was_made_from(project: Path) -> None:
    italian = _message(project, "it", MSGID)
    assert italian.string
    assert recorded(italian, "it") is None
    for language in ("fr", "en"):
        message = _message(project, language, MSGID)
        assert recorded(message, "it") == (italian.string,)
        assert f"it: {italian.string}" in message.auto_comments
        assert not message.fuzzy
    with (project / "src" / "pig" / "locale" / "engine.pig.pot").open("rb") as f:
        assert recorded(read_po(f)[MSGID], "it") == (italian.string,)  # what a new language starts from
    assert main(["i18n", "update", "--check"]) == 0


def test_a_reworded_italian_is_flagged_by_check_and_marks_the_translations_fuzzy_on_update(
        project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    french, english = _message(project, "fr", MSGID).string, _message(project, "en", MSGID).string
    _edit(project, "fr", {OTHER: ""})  # untranslated: nothing to mark
    _edit(project, "it", {MSGID: "la partita è terminata", OTHER: "il dado rotola (caso)"})
    capsys.readouterr()
    assert main(["i18n", "check"]) == 1
    told = capsys.readouterr().out
    french_line = _message(project, "fr", MSGID).lineno
    assert (f"src/pig/locale/fr/LC_MESSAGES/engine.pig.po:{french_line}:1: 'game over': translated from the Italian 'partita finita', "
            "but src/pig/locale/it/LC_MESSAGES/engine.pig.po now says 'la partita è terminata'; run `rulebook i18n update`") in told, told
    assert "src/pig/locale/en/LC_MESSAGES/engine.pig.po" in told
    assert f"locale/en/LC_MESSAGES/engine.pig.po:{_message(project, 'en', OTHER).lineno}:1: {OTHER!r}" in told
    assert f"locale/fr/LC_MESSAGES/engine.pig.po:{_message(project, 'fr', OTHER).lineno}:" not in told  # untranslated

    assert main(["i18n", "update"]) == 0
    assert "(1 fuzzy: the text they follow changed)" in capsys.readouterr().out
    for language, before in (("fr", french), ("en", english)):
        message = _message(project, language, MSGID)
        assert message.fuzzy
        assert message.string == before
        assert recorded(message, "it") == ("la partita è terminata",)
    untranslated = _message(project, "fr", OTHER)
    assert not untranslated.fuzzy
    assert recorded(untranslated, "it") == ("il dado rotola (caso)",)
    assert _message(project, "en", OTHER).fuzzy
    assert not any(m.fuzzy for m in _read(project, "fr") if m.id and m.id not in (MSGID, OTHER))
    assert not any(m.fuzzy for m in _read(project, "it") if m.id)
    assert main(["i18n", "check"]) == 0  # fuzzy: the translator's work now, shown in Italian until done
    assert main(["i18n", "update", "--check"]) == 0


def test_the_same_italian_wrapped_otherwise_changes_nothing(project: Path) -> None:
    italian = _message(project, "it", MSGID).string
    assert isinstance(italian, str)
    _edit(project, "it", {MSGID: f"  {italian.replace(' ', chr(10))} "})  # other blanks, the same words
    assert main(["i18n", "check"]) == 0
    assert main(["i18n", "update"]) == 0
    assert not _message(project, "fr", MSGID).fuzzy


def test_a_catalog_without_records_gets_them_without_going_fuzzy(project: Path) -> None:
    """The first update after this feature: nothing says what a translation was made from, so
    nothing is marked; from then on the record is there."""
    catalog = _read(project, "fr")
    for message in catalog:
        message.auto_comments = []
    with _path(project, "fr").open("wb") as f:
        write_po(f, catalog)
    _edit(project, "it", {MSGID: "la partita è terminata"})
    assert main(["i18n", "check"]) == 1  # English has its record: it was made from 'partita finita'
    assert main(["i18n", "update"]) == 0
    french = _message(project, "fr", MSGID)
    assert not french.fuzzy
    assert recorded(french, "it") == ("la partita è terminata",)
    assert _message(project, "en", MSGID).fuzzy


@pytest.mark.slow
def test_the_strict_build_fails_on_a_translation_left_behind(project: Path, caplog: pytest.LogCaptureFixture) -> None:
    """One verdict: what `rulebook i18n check` says of it fails `mkdocs build --strict` too."""
    generator.as_its_command()
    _edit(project, "it", {MSGID: "la partita è terminata"})
    config = generator.load_config(str(project / "mkdocs.yml"), strict=True)
    with pytest.raises(generator.Abort):
        generator.module("commands.build").build(config)
    errors = "\n".join(r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR)
    assert "2 problems in strict mode" in errors, errors  # French and English, nothing else
    assert (f"src/pig/locale/fr/LC_MESSAGES/engine.pig.po:{_message(project, 'fr', MSGID).lineno}:1: 'game over': translated from "
            "the Italian 'partita finita'") in errors, errors


def test_a_plural_and_a_long_italian_are_recorded_form_by_form_and_read_back_as_written(tmp_path: Path) -> None:
    """Each form its own comment (it[0]:, it[1]:); a comment the writer wraps over several lines
    reads back as the one text it was, so an unchanged Italian never looks reworded."""
    long = "il giocatore {player} " + " ".join(["deve scartare una carta"] * 8)
    template = Catalog(domain="engine.x")
    template.add(("{n} card", "{n} cards"), None, [("engine.py", None)], auto_comments=["a developer's note"])
    template.add("a long one", None, [("engine.py", None)])
    italian = Catalog(locale="it", domain="engine.x")
    italian.add(("{n} card", "{n} cards"), ("{n} carta", "{n} carte"))
    italian.add("a long one", long)
    add_records(template, italian, "it")
    path = tmp_path / "engine.x.pot"
    path.write_bytes(serialize(template, include_lineno=False))
    text = path.read_text(encoding="utf-8")
    assert "#. a developer's note\n#. it[0]: {n} carta\n#. it[1]: {n} carte\n" in text
    assert text.count("#. ") > 4  # the long Italian wrapped
    again, problems = read_catalog(path)
    assert again is not None, problems
    assert recorded(again.get("{n} card"), "it") == ("{n} carta", "{n} carte")
    assert recorded(again.get("a long one"), "it") == (long,)
    add_records(again, italian, "it")  # recorded again: the same comments, nothing added
    assert serialize(again, include_lineno=False) == path.read_bytes()


def test_a_kept_verdict_is_never_the_old_one(project: Path) -> None:
    """The strict build asks every build for the stale entries and keeps the answer between builds
    (``stale translations``): an edited Italian or translation is asked again, never answered
    with what the files said before."""
    from rulebook.cache import BuildCache, using
    from rulebook.i18n.domains import engine_domain
    from rulebook.i18n.engine_domains import stale_translations
    from rulebook.keeping import save

    domain = engine_domain("pig")
    assert domain is not None
    folder = project / ".cache" / "kept"

    def stale() -> list[str]:
        with using(BuildCache(folder)) as cache:  # a new build, reading what the last one kept
            found = [problem.message for problem in stale_translations(domain, "fr", "it")]
            save(cache)
            return found

    assert stale() == stale() == []
    _edit(project, "it", {MSGID: "la partita è terminata"})
    assert len(stale()) == 1 and "la partita è terminata" in stale()[0]
    _edit(project, "fr", {MSGID: ""})  # untranslated: nothing left behind
    assert stale() == []
