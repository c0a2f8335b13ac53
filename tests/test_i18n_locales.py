"""The committed catalogs: valid PO, one per template and language, every check passing."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulebook.i18n import LANGUAGES, catalog_path
from rulebook.i18n.catalogs import read_catalog
from rulebook.i18n.checks import check_locales, po_files
from rulebook.i18n.glossary import load_glossary

REPO = Path(__file__).resolve().parent.parent
LOCALES = REPO / "locales"
TEMPLATES = sorted((LOCALES / "templates").glob("*.pot"))
CATALOGS = po_files(LOCALES)


def test_glossary_and_card_names_load_without_problems():
    glossary = load_glossary(LOCALES)
    assert [str(p) for p in glossary.problems] == []
    assert glossary.terms


@pytest.mark.parametrize("template", TEMPLATES, ids=lambda p: p.stem)
def test_every_template_has_a_catalog_per_language(template):
    expected, problems = read_catalog(template)
    assert problems == []
    contexts = {m.context for m in expected if m.id}
    assert contexts and all(c.startswith(f"{template.stem}") for c in contexts)
    for language in LANGUAGES:
        path = catalog_path(LOCALES, language, template.stem)
        assert path.exists(), f"{path.relative_to(REPO)} is missing: run `rulebook i18n update`"
        catalog, problems = read_catalog(path)
        assert problems == []
        missing = contexts - {m.context for m in catalog if m.id}
        assert not missing, f"{path.relative_to(REPO)} lacks {sorted(missing)[:5]}: run `rulebook i18n update`"


@pytest.mark.parametrize(("language", "path"), CATALOGS, ids=[f"{lang}/{p.stem}" for lang, p in CATALOGS])
def test_catalog_is_valid_po_for_its_language(language, path):
    catalog, problems = read_catalog(path)
    assert [str(p) for p in problems] == []
    assert str(catalog.locale) == language
    assert catalog.plural_forms.startswith(f"nplurals={3 if language == 'ru' else 2};")


def test_every_catalog_passes_the_checks():
    problems = [str(p) for p in check_locales(LOCALES)]
    assert not problems, "translation problems:\n" + "\n".join(problems)


def test_catalogs_follow_the_rulebooks(monkeypatch, capsys):
    """An edit to rules/ without `rulebook i18n update` fails here, naming what to run."""
    from rulebook.cli import main

    monkeypatch.chdir(REPO)
    code = main(["i18n", "update", "--check"])
    assert code == 0, capsys.readouterr().out


@pytest.mark.parametrize("language", [lang for lang in LANGUAGES if lang != "it"])
def test_every_rulebook_is_fully_translated(language):
    """Nothing falls back to Italian: no missing, fuzzy or check-failing message."""
    from rulebook.i18n.translate import translate_book
    from rulebook.loader import load_library, rulebook_paths

    for book in load_library(rulebook_paths(REPO / "rules")).values():
        translated = translate_book(book, language, LOCALES)
        assert not translated.fallback, f"{book.id} [{language}] falls back for {sorted(translated.fallback)[:5]}"
