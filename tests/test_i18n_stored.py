"""What a build keeps for the next one (i18n.stored, issue 15.2): an unchanged catalog is neither
read nor checked again, an edited one has only its changed messages checked, and what the build
reports and shows is exactly what reading and checking everything gives."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from mkdocs.commands.build import build
from mkdocs.config import load_config

from rulebook import cache as build_cache
from rulebook.i18n import stored, translate
from rulebook.i18n.checks import CHECKS
from rulebook.i18n.glossary import Glossary, Term
from rulebook.i18n.translate import _translate
from rulebook.loader import load_library, rulebook_paths

from .test_render_reuse import project
from .test_site_build import RUSSIAN, make_project, write_catalog

#: One message fails a check ([html]): its problem must come back from what was kept too.
BROKEN = {**RUSSIAN, "demo/pesca:text": "Игрок берёт карту <b>из колоды</b>."}


@pytest.fixture
def checked(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str]]:
    """Every (source, translation) the checks really run on."""
    seen: list[tuple[str, str]] = []
    original = stored.check_translation

    def counting(source: str, translation: str, *rest: object) -> list[tuple[str, str]]:
        seen.append((source, translation))
        return original(source, translation, *rest)

    monkeypatch.setattr(stored, "check_translation", counting)
    return seen


@pytest.fixture
def parsed(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """Every catalog read."""
    seen: list[Path] = []
    original = translate.read_catalog

    def counting(path: Path, *args: object, **kwargs: object):  # noqa: ANN202
        seen.append(path)
        return original(path, *args, **kwargs)

    monkeypatch.setattr(translate, "read_catalog", counting)
    return seen


def test_kept_results_give_the_same_translation_and_spare_reading_and_checking(tmp_path: Path, checked: list, parsed: list) -> None:
    rules, locales = project(tmp_path)
    write_catalog(locales, "ru", "demo", BROKEN, rules=rules)
    book = load_library(rulebook_paths(rules))["demo"]
    cache = tmp_path / "cache"
    everything = _translate(book, "ru", locales)
    assert any("[html]" in p.message for p in everything.problems) and "demo/pesca:text" in everything.fallback

    first = _translate(book, "ru", locales, cache)
    assert first == everything and len(checked) > 3
    kept = json.loads((cache / "checks" / "demo.ru.json").read_text(encoding="utf-8"))
    assert len(kept["details"]) == len(checked)
    assert (cache / "translations" / "demo.ru.json").is_file()

    checked.clear(), parsed.clear()
    again = _translate(book, "ru", locales, cache)
    assert again == everything and again.book.sections[0].rules[0].title == everything.book.sections[0].rules[0].title
    assert checked == [] and parsed == []

    # One changed msgstr: the catalog is read again, and that message alone is checked again.
    write_catalog(locales, "ru", "demo", {**BROKEN, "demo/pesca:text": "Игрок берёт карту из колоды."}, rules=rules)
    edited = _translate(book, "ru", locales, cache)
    assert checked == [("Il giocatore pesca una carta dal mazzo.", "Игрок берёт карту из колоды.")] and len(parsed) == 1
    assert not any("[html]" in p.message for p in edited.problems) and "demo/pesca:text" not in edited.fallback
    assert edited == _translate(book, "ru", locales)

    # A changed source text: its translation is outdated, whatever was kept.
    demo = rules / "demo.yaml"
    demo.write_text(demo.read_text(encoding="utf-8").replace("Il giocatore pesca una carta", "Il giocatore pesca due carte"), encoding="utf-8")
    changed = load_library(rulebook_paths(rules))["demo"]
    outdated = _translate(changed, "ru", locales, cache)
    assert "demo/pesca:text" in outdated.outdated and outdated == _translate(changed, "ru", locales)


def test_other_code_or_a_broken_file_means_reading_and_checking_again(tmp_path: Path, checked: list, monkeypatch: pytest.MonkeyPatch) -> None:
    rules, locales = project(tmp_path)
    write_catalog(locales, "ru", "demo", BROKEN, rules=rules)
    book = load_library(rulebook_paths(rules))["demo"]
    cache = tmp_path / "cache"
    everything = _translate(book, "ru", locales, cache)
    once = len(checked)

    real = build_cache.code_version
    monkeypatch.setattr(build_cache, "code_version", lambda: "a changed check")
    assert _translate(book, "ru", locales, cache) == everything and len(checked) == 2 * once
    monkeypatch.setattr(build_cache, "code_version", real)
    _translate(book, "ru", locales, cache)  # kept again for this code

    translations, details = cache / "translations" / "demo.ru.json", cache / "checks" / "demo.ru.json"
    for broken in (b"{not json", b'{"version": 1}', b"\xff\xfe"):
        translations.write_bytes(broken)
        details.write_bytes(broken)
        checked.clear()
        assert _translate(book, "ru", locales, cache) == everything and len(checked) == once
        assert json.loads(details.read_text(encoding="utf-8"))["details"]  # written anew
        assert json.loads(translations.read_text(encoding="utf-8"))["shown"]
    # Entries of the right version but the wrong shape are not believed.
    data = json.loads(translations.read_text(encoding="utf-8"))
    translations.write_text(json.dumps({**data, "shown": {"demo/nessuna:text": "чужой текст"}}), encoding="utf-8")
    data = json.loads(details.read_text(encoding="utf-8"))
    details.write_text(json.dumps({**data, "details": {key: "nothing wrong" for key in data["details"]}}), encoding="utf-8")
    checked.clear()
    assert _translate(book, "ru", locales, cache) == everything and len(checked) == once


def test_the_checks_that_ran_are_part_of_a_verdicts_key(tmp_path: Path) -> None:
    rules, locales = project(tmp_path)
    write_catalog(locales, "ru", "demo", BROKEN, rules=rules)
    book = load_library(rulebook_paths(rules))["demo"]
    cache = build_cache.BuildCache(tmp_path / "cache")
    glossary = translate.load_glossary(locales, source="it")
    kept = stored.StoredChecks.of(cache, "demo.ru.json", "ru", glossary)
    assert kept is not None
    source, translation = "Il giocatore pesca una carta.", "Игрок берёт <b>карту</b>."
    assert kept.details(source, translation, "ru", glossary, CHECKS) != []
    kept.save()
    again = stored.StoredChecks.of(cache, "demo.ru.json", "ru", glossary)
    assert again is not None and again.details(source, translation, "ru", glossary, {}) == []  # no check ran: none failed
    assert _translate(book, "ru", locales, cache).fallback == _translate(book, "ru", locales).fallback


def test_the_glossary_fingerprint_follows_what_a_check_reads() -> None:
    def glossary(origin: str = "glossary.yaml:3", books: frozenset[str] = frozenset({"a", "b", "c"})) -> Glossary:
        return Glossary((Term({"it": ("mana",), "ru": ("мана",)}, origin, books=books),), source="it")

    assert glossary().fingerprint == glossary(books=frozenset({"c", "b", "a"})).fingerprint
    # A problem names the term's origin: another origin is another result.
    assert glossary().fingerprint != glossary(origin="glossary.yaml:4").fingerprint
    assert glossary().fingerprint != glossary(books=frozenset({"a"})).fingerprint
    assert glossary().fingerprint != Glossary(glossary().terms, source="en").fingerprint


def test_the_site_keeps_its_check_results_in_its_cache_dir(tmp_path: Path) -> None:
    # The project's one catalog is Russian: the other languages and the examples keep nothing.
    config = make_project(tmp_path, check_examples=False, languages=["it", "ru"])
    build(load_config(str(config)))
    site = tmp_path / "site"
    pages = {p: p.read_bytes() for p in site.rglob("*.html")}
    assert (tmp_path / ".cache" / "plugin" / "rulebook" / "checks" / "demo.ru.json").is_file()
    build(load_config(str(config)))
    assert {p: p.read_bytes() for p in site.rglob("*.html")} == pages


def test_another_babel_release_is_another_code_version(monkeypatch: pytest.MonkeyPatch) -> None:
    """A build cache made under one Babel is not read under another (its CLDR data decides the
    plural rules a check compares with): the installed version is part of the key."""
    today = build_cache.code_version()
    real = build_cache.metadata.version
    for library in ("babel", "pygments"):
        with monkeypatch.context() as other:
            other.setattr(build_cache.metadata, "version", lambda name, changed=library: "0.0-other" if name == changed else real(name))
            assert build_cache.code_version() != today
    assert build_cache.code_version() == today
