"""Check results kept between builds (i18n.stored_checks, issue 15.2): a message checked by an
earlier build with the same code, glossary and language is not checked again, and what the
build reports and shows is exactly what checking everything gives."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from mkdocs.commands.build import build
from mkdocs.config import load_config

from rulebook.i18n import stored_checks
from rulebook.i18n.glossary import Glossary, Term
from rulebook.i18n.translate import _translate
from rulebook.loader import load_library, rulebook_paths

from .test_render_reuse import project
from .test_site_build import RUSSIAN, make_project, write_catalog

#: One message fails a check ([html]): its problem must come back from the stored results too.
BROKEN = {**RUSSIAN, "demo/pesca:text": "Игрок берёт карту <b>из колоды</b>."}


@pytest.fixture
def checked(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str]]:
    """Every (source, translation) the checks really run on."""
    seen: list[tuple[str, str]] = []
    original = stored_checks.check_translation

    def counting(source: str, translation: str, *rest: object) -> list[tuple[str, str]]:
        seen.append((source, translation))
        return original(source, translation, *rest)

    monkeypatch.setattr(stored_checks, "check_translation", counting)
    return seen


def test_stored_results_give_the_same_translation_and_spare_the_checks(tmp_path: Path, checked: list) -> None:
    rules, locales = project(tmp_path)
    write_catalog(locales, "ru", "demo", BROKEN, rules=rules)
    book = load_library(rulebook_paths(rules))["demo"]
    cache = tmp_path / "cache"
    everything = _translate(book, "ru", locales)
    assert any("[html]" in p.message for p in everything.problems) and "demo/pesca:text" in everything.fallback

    first = _translate(book, "ru", locales, cache)
    assert first == everything and len(checked) > 3
    stored = json.loads((cache / "checks" / "demo.ru.json").read_text(encoding="utf-8"))
    assert len(stored["details"]) == len(checked)

    checked.clear()
    assert _translate(book, "ru", locales, cache) == everything and checked == []

    # One changed msgstr: that message alone is checked again.
    write_catalog(locales, "ru", "demo", {**BROKEN, "demo/pesca:text": "Игрок берёт карту из колоды."}, rules=rules)
    edited = _translate(book, "ru", locales, cache)
    assert checked == [("Il giocatore pesca una carta dal mazzo.", "Игрок берёт карту из колоды.")]
    assert not any("[html]" in p.message for p in edited.problems) and "demo/pesca:text" not in edited.fallback


def test_other_code_or_an_unreadable_file_means_checking_again(tmp_path: Path, checked: list, monkeypatch: pytest.MonkeyPatch) -> None:
    rules, locales = project(tmp_path)
    write_catalog(locales, "ru", "demo", BROKEN, rules=rules)
    book = load_library(rulebook_paths(rules))["demo"]
    cache = tmp_path / "cache"
    everything = _translate(book, "ru", locales, cache)
    once = len(checked)

    real = stored_checks.code_version
    monkeypatch.setattr(stored_checks, "code_version", lambda: "a changed check")
    assert _translate(book, "ru", locales, cache) == everything and len(checked) == 2 * once
    monkeypatch.setattr(stored_checks, "code_version", real)

    stored = cache / "checks" / "demo.ru.json"
    for broken in (b"{not json", b'{"version": 1}', b"\xff\xfe"):
        stored.write_bytes(broken)
        checked.clear()
        assert _translate(book, "ru", locales, cache) == everything and len(checked) == once
        assert json.loads(stored.read_text(encoding="utf-8"))["details"]  # written anew
    # A forged entry of the right version but the wrong shape is not believed.
    data = json.loads(stored.read_text(encoding="utf-8"))
    data["details"] = {key: "nothing wrong" for key in data["details"]}
    stored.write_text(json.dumps(data), encoding="utf-8")
    checked.clear()
    assert _translate(book, "ru", locales, cache) == everything and len(checked) == once


def test_the_glossary_fingerprint_follows_what_a_check_reads() -> None:
    def glossary(origin: str = "glossary.yaml:3", books: frozenset[str] = frozenset({"a", "b", "c"})) -> Glossary:
        return Glossary((Term({"it": ("mana",), "ru": ("мана",)}, origin, books=books),), source="it")

    assert glossary().fingerprint == glossary(books=frozenset({"c", "b", "a"})).fingerprint
    # A problem names the term's origin: another origin is another result.
    assert glossary().fingerprint != glossary(origin="glossary.yaml:4").fingerprint
    assert glossary().fingerprint != glossary(books=frozenset({"a"})).fingerprint
    assert glossary().fingerprint != Glossary(glossary().terms, source="en").fingerprint


def test_the_site_keeps_its_check_results_in_its_cache_dir(tmp_path: Path) -> None:
    config = make_project(tmp_path)
    build(load_config(str(config)))
    site = tmp_path / "site"
    pages = {p: p.read_bytes() for p in site.rglob("*.html")}
    assert (tmp_path / ".cache" / "plugin" / "rulebook" / "checks" / "demo.ru.json").is_file()
    build(load_config(str(config)))
    assert {p: p.read_bytes() for p in site.rglob("*.html")} == pages
