"""The committed catalogs: valid PO, one per template and language, every check passing.

The languages are the site's, read from the repository's mkdocs.yml like every command does;
the site's own words (the ``site`` domain) are held to the same gates in every language the
package ships. The gates are functions of a project folder, so that the round trips through
translators' tools (tests/test_i18n_tools.py) pass the very same ones on copies. They only look
at what they read, as the checks do: within ``sharing_catalogs`` each file is parsed once for
the checks and every gate.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.catalog import Catalog

from rulebook.i18n import catalog_path
from rulebook.errors import Problem
from rulebook.i18n.catalogs import live_and_obsolete, read_catalog
from rulebook.i18n.checks import check_locales, check_po_file, check_template_file, po_files
from rulebook.i18n.plurals import rule_problem
from rulebook.i18n.domains import SITE, ShippedDomain, load_messages
from rulebook.i18n.glossary import load_glossary
from rulebook.i18n.headers import PLACEHOLDER_RE
from rulebook.i18n.pofile import sharing_catalogs
from rulebook.project import read_project

REPO = Path(__file__).resolve().parent.parent
LOCALES = REPO / "locales"
TEMPLATES = sorted((LOCALES / "templates").glob("*.pot"))
CATALOGS = po_files(LOCALES)
SITE_LANGUAGES = read_project(REPO / "mkdocs.yml").languages
SOURCE = SITE_LANGUAGES.source.code
TARGETS = [lang.code for lang in SITE_LANGUAGES.targets]
SHIPPED = SITE.languages()


@pytest.fixture(scope="module", autouse=True)
def _each_catalog_parsed_once():
    with sharing_catalogs():
        yield


def looked_at(path: Path) -> tuple[Catalog | None, list[Problem]]:
    """A template or catalog read as `rulebook i18n check` reads it, to look at, not to change."""
    return read_catalog(path, domain=path.stem if path.suffix == ".po" else None, shared=True)


def test_glossary_and_card_names_load_without_problems():
    glossary = load_glossary(LOCALES, source=SOURCE)
    assert [str(p) for p in glossary.problems] == []
    assert glossary.terms


@pytest.mark.parametrize("template", TEMPLATES, ids=lambda p: p.stem)
def test_every_template_has_a_catalog_per_language(template):
    expected, problems = looked_at(template)
    assert problems == []
    contexts = {m.context for m in expected if m.id}
    assert contexts and all(c.startswith(f"{template.stem}") for c in contexts)
    for language in TARGETS:
        path = catalog_path(LOCALES, language, template.stem)
        assert path.exists(), f"{path.relative_to(REPO)} is missing: run `rulebook i18n update`"
        catalog, problems = looked_at(path)
        assert problems == []
        missing = contexts - {m.context for m in catalog if m.id}
        assert not missing, f"{path.relative_to(REPO)} lacks {sorted(missing)[:5]}: run `rulebook i18n update`"


def invalid_catalog(path: Path, language: str) -> list[str]:
    """Why a catalog is not valid PO for its language (empty: it is)."""
    catalog, problems = looked_at(path)
    if catalog is None:
        return [str(p) for p in problems]
    found = []
    if str(catalog.locale) != language:
        found.append(f"{path}: Language {catalog.locale}, not {language}")
    if wrong := rule_problem(catalog.plural_forms, language):  # a rule of the language, whichever Babel is installed
        found.append(f"{path}: {wrong}")
    return found


def check_problems(locales: Path, site: ShippedDomain) -> list[str]:
    """`rulebook i18n check` of the project's catalogs and templates, and of the shipped site words."""
    problems = check_locales(locales, source=SOURCE, domain_sources={site.name: site.source}) + check_template_file(site.template)
    glossary = load_glossary(locales, source=SOURCE)  # its spellings bind the site's words as the books'
    problems += [p for lang in site.languages() for p in check_po_file(site.catalog(lang), lang, glossary, source=site.source)]
    return [str(p) for p in problems]



def test_every_engine_catalog_passes_the_checks_the_books_do():
    """The engines' sentences answer to the project's glossary (its spellings: "colour",
    "cannot") and to each language's typography (a French colon's no-break space) as the books do."""
    from rulebook.engines import registered
    from rulebook.i18n.domains import ENGINES, engine_domain

    glossary = load_glossary(LOCALES, source=SOURCE)
    domains = [ENGINES, *(found for name in sorted(registered()) if (found := engine_domain(name)) is not None)]
    assert len(domains) >= 5
    problems = [str(p) for domain in domains for lang in domain.languages()
                for p in check_po_file(domain.catalog(lang), lang, glossary, source=domain.source)]
    assert problems == [], "\n".join(problems)


def falling_back(rules: Path, locales: Path, languages: list[str]) -> list[str]:
    """The books of ``rules`` whose text in one of ``languages`` is not all shown translated."""
    from rulebook.i18n.translate import translate_book
    from rulebook.loader import load_library, rulebook_paths

    found = []
    books = load_library(rulebook_paths(rules)).values()
    for language in languages:
        for book in books:
            translated = translate_book(book, language, locales)
            if translated.fallback:
                found.append(f"{book.id} [{language}] falls back for {sorted(translated.fallback)[:5]}")
    return found


def site_words_untranslated(site: ShippedDomain, language: str, locales: Path) -> list[str]:
    template, problems = looked_at(site.template)
    assert problems == []
    messages = load_messages(site, language, locales)
    stats = messages.stats(template)
    return [str(p) for p in messages.problems] + ([] if stats.total > 40 and stats.translated == stats.total else [f"site [{language}]: {stats}"])


def engine_words_untranslated(package: Path) -> list[str]:
    """Every message of the engines' catalogs under ``package`` (src/rulebook or a copy of it)
    that a reader would see in English: empty or fuzzy."""
    found = []
    for path in sorted(package.glob("engines/**/locale/*/LC_MESSAGES/*.po")):
        catalog, problems = looked_at(path)
        found += [str(p) for p in problems]
        for message in catalog or ():
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            if message.id and (message.fuzzy or not all(strings)):
                found.append(f"{path}: {message.id!r} is {'fuzzy' if message.fuzzy else 'untranslated'}")
    return found


def test_the_engines_words_are_fully_translated():
    assert engine_words_untranslated(SITE.package) == []


@pytest.mark.parametrize(("language", "path"), CATALOGS + [(lang, SITE.catalog(lang)) for lang in SHIPPED],
                         ids=[f"{lang}/{p.stem}" for lang, p in CATALOGS] + [f"{lang}/site (shipped)" for lang in SHIPPED])
def test_catalog_is_valid_po_for_its_language(language, path):
    assert invalid_catalog(path, language) == []


def test_every_catalog_passes_the_checks():
    problems = check_problems(LOCALES, SITE)
    assert not problems, "translation problems:\n" + "\n".join(problems)


def _project_files(*suffixes: str) -> list[Path]:
    """The repository's catalogs (and templates) with those suffixes: ours, the package's and the
    example projects', never what a virtual environment or a build put beside them
    (examples/sevens/.venv holds packages such as certifi-….post1.dist-info)."""
    found = {path for root in ("locales", "src", "examples") for path in (REPO / root).rglob("*")
             if path.suffix in suffixes and path.is_file()}
    return sorted(path for path in found if not any(part.startswith(".") or part in ("build", "site") for part in path.relative_to(REPO).parts))


def test_no_template_or_catalog_keeps_a_placeholder():
    """Ours, the package's and any project's in this repository: a real header, whoever made it."""
    files = _project_files(".po", ".pot")
    assert len(files) > len(CATALOGS)
    found = [f"{path.relative_to(REPO)}:{n}: {line}" for path in files
             for n, line in enumerate(path.read_text(encoding="utf-8").split("\n\n", 1)[0].splitlines(), start=1) if PLACEHOLDER_RE.search(line)]
    assert found == []


def test_no_catalog_holds_a_message_both_live_and_obsolete():
    """GNU gettext (msgcat, msgfmt, msgmerge) and Poedit refuse such a file: "duplicate message definition"."""
    files = _project_files(".po")
    assert any("engines" in path.parts for path in files)
    found = [f"{path.relative_to(REPO)}:{old.lineno}: {old.id!r}" for path in files for live, old in live_and_obsolete(looked_at(path)[0])]
    assert found == [], "run `rulebook i18n update`"


def test_catalogs_follow_the_rulebooks_and_the_code(monkeypatch, capsys):
    """An edit to rules/ or to the site's words without `rulebook i18n update` fails here, naming what to run."""
    from rulebook.cli import main

    monkeypatch.chdir(REPO)
    code = main(["i18n", "update", "--check"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "up to date src/rulebook/locale/fr/LC_MESSAGES/site.po" in out  # the shipped catalogs are checked too


@pytest.mark.parametrize("language", TARGETS)
def test_every_rulebook_is_fully_translated(language, monkeypatch):
    """Nothing falls back to the source: no missing, fuzzy or check-failing message.

    The checks a shown text must pass are those test_every_catalog_passes_the_checks runs on
    the same catalogs (check_po_file: every check of every translated, not fuzzy message, with
    the book's glossary), so they are not run a second time here; this test finds the messages
    missing, fuzzy or translated from another source."""
    from rulebook.i18n import translate

    monkeypatch.setattr(translate, "message_problems", lambda *args, **kwargs: [])
    assert falling_back(REPO / "rules", LOCALES, [language]) == []


def test_the_package_ships_the_site_words_in_every_language_of_the_site():
    assert set(SITE_LANGUAGES.codes) <= set(SHIPPED)


@pytest.mark.parametrize("language", SHIPPED)
def test_the_site_words_are_fully_translated(language):
    assert site_words_untranslated(SITE, language, LOCALES) == []
