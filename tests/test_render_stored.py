"""Book pages kept between builds (render/stored_pages.py, issue 31.4): a build that finds them in
the cache's folder takes them unrendered, and never the old ones after any input changed.

Each scenario builds a project with a cache folder (the first build), changes one input of the
pages, then builds again with a new cache on the same folder (the next ``mkdocs build``) and
compares what it shows with a build that keeps nothing. Dropping that input from the version
(``KeptPages.version``) fails its scenario: the old page comes back.
"""

from __future__ import annotations

import dataclasses
import json
import textwrap
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from rulebook import engine_code
from rulebook.cache import KINDS, BuildCache, using
from rulebook.examples import Failure, Outcome, run_books
from rulebook.i18n.glossary import Glossary
from rulebook.loader import load_library, rulebook_paths
from rulebook.render import Site, stored_pages
from rulebook.render.search import search_docs
from rulebook.render.stored_pages import KEPT_PAGES, KeptPages, PendingPages

from .conftest import demo_book
from .test_cache import Project, _book, _catalog, _example, _glossary, _linked_title, _term_used
from .test_site_build import write_catalog

LANGUAGES = ("it", "ru")
#: What a build shows of the books: each page (title, body, contents, source), each language's
#: search documents, and the glossary page made of every book's uses of its terms.
Shown = dict[tuple[str, ...], object]
Outcomes = Callable[[list[Outcome]], list[Outcome]]


def _as_run(outcomes: list[Outcome]) -> list[Outcome]:
    return outcomes


def build(p: Project, cache: BuildCache, *, languages: Sequence[str] = LANGUAGES, directory_urls: bool = True,
          outcomes: Outcomes = _as_run, keep_pages: bool = True, later: PendingPages | None = None) -> Shown:
    """One build of the project's pages with ``cache`` (its folder: what is kept), as the plugin makes it
    (``keep_pages``: as a served build does; else as a one-off build, each page let go once made;
    ``later``: a serve session's pages to write at its end)."""
    with using(cache):
        books = load_library(rulebook_paths(p.rules), reuse=True)
        site = Site(books, outcomes(run_books(books.values(), reuse=True)), locales=p.locales, languages=languages,
                    directory_urls=directory_urls, reuse=True, kept=KeptPages(cache) if cache.folder is not None else None,
                    keep_pages=keep_pages)
        shown: Shown = {}
        for lang in languages:
            for page in site.pages(lang):
                shown[(page.kind, page.src_uri)] = (str(page.title), str(page.html), repr(page.toc), page.alternates, page.source_path)
            shown[("search", lang)] = json.dumps(search_docs(site, lang), ensure_ascii=False)
        if site.kept is not None:
            site.kept.save(site, later)
        return shown


def _words(p: Project) -> Project:
    """The project's own site words: every page's labels."""
    (p.locales / "ru" / "LC_MESSAGES" / "site.po").write_text(
        'msgid ""\nmsgstr ""\n"Language: ru\\n"\n\nmsgid "Ruling {n}"\nmsgstr "Постановление-тест {n}"\n', encoding="utf-8")
    return p


def _linked_catalog(p: Project) -> Project:
    """The linked book translated: the demo page's links to it show its Russian title and text."""
    write_catalog(p.locales, "ru", "altro", {"altro:title": "Другая книга", "altro/fine:title": "Конец"}, rules=p.rules)
    return p


#: Each input of the kept pages -> what changes it in a project (the same project, next build).
CHANGES: dict[str, Callable[[Project], Project]] = {
    "books (the book's bytes)": _book,
    "books (a linked book's bytes)": _linked_title,
    "books (a term used in another book: the glossary page)": _term_used,
    "books (an example's text, which changes its outcome too)": _example,
    "translations (the book's catalog)": _catalog,
    "translations (a linked book's catalog)": _linked_catalog,
    "glossary": _glossary,
    "words": _words,
}


@pytest.mark.parametrize("one_off", [False, True], ids=["served", "one-off"])
@pytest.mark.parametrize("changed", CHANGES)
def test_a_kept_page_is_never_the_old_one_after_an_input_changed(tmp_path: Path, changed: str, one_off: bool) -> None:
    p = Project(tmp_path / "project")
    first = build(p, BuildCache(p.folder), keep_pages=not one_off)
    assert build(p, BuildCache(p.folder), keep_pages=not one_off) == first  # taken from the folder, as it was made
    after = CHANGES[changed](p)
    cold = build(after, BuildCache())
    assert cold != first, f"changing {changed} changes nothing shown: the scenario proves nothing"
    assert build(after, BuildCache(p.folder), keep_pages=not one_off) == cold, f"a kept build showed the old pages after changing {changed}"


#: Each (book, language)'s kept files: its search documents, glossary uses and home entry, and its
#: page apart (its HTML as it is, beside the JSON that holds the rest).
FILES = sorted(f"{book}.{language}.{end}" for book in ("altro", "demo") for language in ("it", "ru") for end in ("json", "page.json", "page.html"))


@pytest.mark.parametrize("one_off", [False, True], ids=["served", "one-off"])
def test_a_kept_build_renders_no_unchanged_page(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, one_off: bool) -> None:
    p = Project(tmp_path / "project")
    first = build(p, BuildCache(p.folder), keep_pages=not one_off)
    assert sorted(path.name for path in (p.folder / "book-pages").iterdir()) == FILES
    rendered: list[tuple[str, str]] = []
    book_page = Site._book_page
    monkeypatch.setattr(Site, "_book_page", lambda site, book_id, language: rendered.append((book_id, language)) or book_page(site, book_id, language))
    assert build(p, BuildCache(p.folder), keep_pages=not one_off) == first
    assert rendered == []
    _catalog(p)  # the Russian demo catalog: its page, and the Russian page of the book that links to it
    build(p, BuildCache(p.folder), keep_pages=not one_off)
    assert sorted(rendered) == [("altro", "ru"), ("demo", "ru")]


def _failed(outcomes: list[Outcome]) -> list[Outcome]:
    """The same examples, run again, now failing (an engine's answer changed, a run timed out)."""
    return [dataclasses.replace(o, failures=(Failure(o.book.path, o.example.line, ">>> 2 + 2", "4", "5"),)) for o in outcomes]


def test_the_outcomes_of_this_build_are_shown_not_the_kept_ones(tmp_path: Path) -> None:
    # An example's outcome is what its run gave, which the book's bytes do not fix (a time limit,
    # an engine's code): the same project, another outcome.
    p = Project(tmp_path / "project")
    first = build(p, BuildCache(p.folder))
    cold = build(p, BuildCache(), outcomes=_failed)
    assert cold != first
    assert build(p, BuildCache(p.folder), outcomes=_failed) == cold


@pytest.mark.parametrize("settings", [{"languages": ("it", "ru", "fr")}, {"directory_urls": False}])
def test_the_site_settings_are_part_of_the_version(tmp_path: Path, settings: dict[str, object]) -> None:
    p = Project(tmp_path / "project")
    first = build(p, BuildCache(p.folder))
    cold = build(p, BuildCache(), **settings)  # type: ignore[arg-type]  # the keyword arguments of build
    assert {key: value for key, value in cold.items() if key in first} != first
    assert build(p, BuildCache(p.folder), **settings) == cold  # type: ignore[arg-type]  # the same


def _version(p: Project) -> str | None:
    cache = BuildCache(p.folder)
    with using(cache):
        books = load_library(rulebook_paths(p.rules), reuse=True)
        site = Site(books, run_books(books.values(), reuse=True), locales=p.locales, languages=LANGUAGES, reuse=True)
        return KeptPages(cache).version(site, "demo", "ru")


def test_the_templates_the_glossary_and_an_engine_of_the_project_are_part_of_the_version(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    p = Project(tmp_path / "project")
    today = _version(p)
    assert today is not None
    assert _version(p) == today
    templates = tmp_path / "templates"
    templates.mkdir()
    (templates / "book.html.j2").write_text("another template", encoding="utf-8")
    with monkeypatch.context() as patched:
        patched.setattr(stored_pages, "TEMPLATES", templates)
        assert _version(p) != today
    # The glossary as the checks and the links read it (the card names the engines add to it too),
    # beside its file's bytes (in the words).
    with monkeypatch.context() as patched:
        patched.setattr(Glossary, "fingerprint", "another glossary")
        assert _version(p) != today
    # The demo book's engine as a project's own module: its code (its symbols, its names) is read.
    engine = tmp_path / "house" / "engine.py"
    engine.parent.mkdir()
    (engine.parent / "__init__.py").write_text("", encoding="utf-8")
    engine.write_text("A = 1\n", encoding="utf-8")
    monkeypatch.setattr(engine_code, "engine_module_file", lambda name: engine)
    own = _version(p)
    assert own is not None
    assert own != today
    engine.write_text("A = 2\n", encoding="utf-8")
    assert _version(p) != own
    (engine.parent / "helpers.py").write_text("B = 1\n", encoding="utf-8")  # a neighbour the engine may import
    assert _version(p) not in (own, today)


@pytest.mark.parametrize("written", ["not json", '{"version": "another"}', None])
def test_a_broken_or_foreign_kept_file_is_as_if_absent(tmp_path: Path, written: str | None) -> None:
    p = Project(tmp_path / "project")
    cold = build(p, BuildCache())
    build(p, BuildCache(p.folder))
    kept, page = p.folder / "book-pages" / "demo.ru.json", p.folder / "book-pages" / "demo.ru.page.json"
    for path in (kept, page):
        if written is None:  # of this version, its values of the wrong shape
            data = json.loads(path.read_text(encoding="utf-8"))
            path.write_text(json.dumps({"version": data["version"], "page": {"html": 1}, "search": [[1]], "glossary uses": [["x"]],
                                        "toc": [1]}), encoding="utf-8")
        else:
            path.write_text(written, encoding="utf-8")
    assert build(p, BuildCache(p.folder)) == cold
    assert page.with_suffix(".html").read_text(encoding="utf-8") == cold[("book", "ru/demo.md")][1]  # written anew


@pytest.mark.parametrize("written", ["<p>another page</p>", None], ids=["another", "missing"])
def test_a_kept_page_whose_html_is_not_the_one_written_is_made_again(tmp_path: Path, written: str | None) -> None:
    # The HTML is a file of its own beside the JSON (which holds its digest): a build killed
    # between the two writes, or a hand edit, must not show another page's HTML.
    p = Project(tmp_path / "project")
    cold = build(p, BuildCache())
    build(p, BuildCache(p.folder))
    html = p.folder / "book-pages" / "demo.ru.page.html"
    if written is None:
        html.unlink()
    else:
        html.write_text(written, encoding="utf-8")
    for one_off in (True, False):
        assert build(p, BuildCache(p.folder), keep_pages=not one_off) == cold
    assert html.read_text(encoding="utf-8") == cold[("book", "ru/demo.md")][1]


def test_the_kept_files_are_those_of_the_site_it_builds(tmp_path: Path) -> None:
    p = Project(tmp_path / "project")
    build(p, BuildCache(p.folder))
    folder = p.folder / "book-pages"
    assert sorted(path.name for path in folder.iterdir()) == FILES
    build(p, BuildCache(p.folder), languages=("it",))
    assert sorted(path.name for path in folder.iterdir()) == [name for name in FILES if ".it." in name]
    assert KEPT_PAGES.stored


def test_without_a_folder_nothing_is_kept(tmp_path: Path) -> None:
    p = Project(tmp_path / "project")
    cache = BuildCache()
    with using(cache):
        books = load_library(rulebook_paths(p.rules), reuse=True)
        site = Site(books, locales=p.locales, languages=LANGUAGES, reuse=True)
        assert KeptPages(cache).version(site, "demo", "ru") is not None
        kept = KeptPages(cache)
        assert kept.value(site, "page", "demo", "ru", lambda: "made") == "made"
        kept.save(site)
    assert not p.folder.exists()


def test_a_serve_session_writes_its_rebuilt_pages_without_reading_the_old_ones(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    p = Project(tmp_path / "project")
    session = BuildCache(p.folder)  # every rebuild of one `mkdocs serve` shares it
    build(p, session)
    read: list[Path] = []
    reader = stored_pages.read_json
    monkeypatch.setattr(stored_pages, "read_json", lambda path, version: read.append(path) or reader(path, version))
    _catalog(p)
    cold = build(p, BuildCache())
    assert build(p, session) == cold
    # The pages made again were those the session had made: their files held those, not these.
    assert read == []
    assert build(p, BuildCache(p.folder)) == cold  # the next `mkdocs build` takes what the rebuild wrote
    assert read


def test_a_serve_session_writes_its_pages_when_it_ends(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    p = Project(tmp_path / "project")
    session, pending = BuildCache(p.folder), PendingPages()
    build(p, session, later=pending)
    _catalog(p)
    cold = build(p, BuildCache())
    assert build(p, session, later=pending) == cold
    assert not (p.folder / "book-pages").exists()  # no rebuild wrote a page: the session ends first
    pending.write()
    assert sorted(path.name for path in (p.folder / "book-pages").iterdir()) == FILES
    # The next `mkdocs build` takes every page: the first build's, and the rebuild's of the Russian catalog.
    rendered: list[tuple[str, str]] = []
    book_page = Site._book_page
    monkeypatch.setattr(Site, "_book_page", lambda site, book_id, language: rendered.append((book_id, language)) or book_page(site, book_id, language))
    assert build(p, BuildCache(p.folder), keep_pages=False) == cold
    assert rendered == []


def test_a_slot_tells_the_inputs_its_value_was_made_from() -> None:
    cache = BuildCache()
    declared = KINDS["read book"]
    assert cache.made_from(declared, "slot") is None
    made = cache.last(declared, "slot", lambda: ("a book",), digest=b"its digest")
    assert cache.made_from(declared, "slot") == ({"digest": b"its digest"}, made)
    cache.last(declared, "slot", lambda: ("another book",), digest=b"other digest")
    found = cache.made_from(declared, "slot")
    assert found is not None
    assert found[0] == {"digest": b"other digest"}
    assert found[1] == ("another book",)


TERZO = """
sections:
  - id: sola
    title: Sola sezione
    rules:
      - id: meta
        title: La meta
        text: Si arriva qui.
"""
#: A section put before the third book's only one: its rule's number changes (1.1 -> 2.1).
TERZO_MOVED = TERZO.replace("sections:\n", "sections:\n  - id: prima\n    title: Prima sezione\n    rules:\n"
                            "      - id: inizio\n        title: L'inizio\n        text: Si parte.\n", 1)


def test_a_page_follows_the_books_its_links_reach_link_after_link(tmp_path: Path) -> None:
    # demo links to altro's rule, whose preview on demo's page quotes that rule's text, which
    # links to terzo's rule by its number: terzo's numbering changes demo's page, neither
    # demo's bytes nor altro's.
    p = Project(tmp_path / "project")
    (p.rules / "terzo.yaml").write_text(textwrap.dedent(demo_book(TERZO, book_id="terzo", title="Terzo")).lstrip(), encoding="utf-8")
    altro = p.rules / "altro.yaml"
    altro.write_text(altro.read_text(encoding="utf-8").replace("Si torna a [[demo:pesca]]", "Si va a [[terzo:meta]], poi a [[demo:pesca]]"),
                     encoding="utf-8")
    first = build(p, BuildCache(p.folder))
    (p.rules / "terzo.yaml").write_text(textwrap.dedent(demo_book(TERZO_MOVED, book_id="terzo", title="Terzo")).lstrip(), encoding="utf-8")
    cold = build(p, BuildCache())
    assert cold[("book", "demo.md")] != first[("book", "demo.md")], "terzo's numbers are not on demo's page: the scenario proves nothing"
    assert build(p, BuildCache(p.folder)) == cold


def test_each_books_outcomes_are_digested_once_for_every_language(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    p = Project(tmp_path / "project")
    pickled: list[object] = []
    dumps = stored_pages.pickle.dumps
    monkeypatch.setattr(stored_pages.pickle, "dumps", lambda value, **options: pickled.append(value) or dumps(value, **options))
    build(p, BuildCache(p.folder), languages=("it", "en", "ru"))
    digested = [value for value in pickled if isinstance(value, list)]  # the pages' (a stored outcomes file pickles a dict)
    assert len(digested) == 2  # demo and altro, whatever the number of languages
