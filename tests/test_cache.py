"""The build's one cache (rulebook.cache, issue 29 point 1): every kind of kept value, each input of
its key changed in turn; what the cache hands back must be what a cold build makes.

Each kind the package declares (``cache.KINDS``) has its scenario here, and a kind without one
fails the test: a new cached value comes with the inputs that change it. A scenario warms a cache
(in memory and, for stored kinds, in its folder), changes one input in the world (a file, a
path), then asks the same cache (a ``mkdocs serve`` rebuild) and a new cache on the same folder
(the next ``mkdocs build``) and compares both with a cache that holds nothing. An input left out
of a key shows as the old value coming back.
"""

from __future__ import annotations

import importlib
import json
import os
import pkgutil
import re
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

import rulebook
from rulebook import cache as build_cache
from rulebook import keeping
from rulebook.cache import KINDS, BuildCache, using
from rulebook.examples import run_books
from rulebook.figures import BoardFigure, Piece
from rulebook.i18n import stored, translate
from rulebook.i18n.checks import _source_words
from rulebook.i18n.copies import _source_flat
from rulebook.i18n.counted import (
    _source_markup,
    _source_numbers,
    _source_references,
    _source_tokens,
)
from rulebook.i18n.domains import SITE, load_messages
from rulebook.i18n.formats import _source_braces, _source_percent
from rulebook.i18n.grammar import load_grammar
from rulebook.i18n.translate import TranslatedBook, translate_book, translating
from rulebook.loader import load_library, rulebook_paths
from rulebook.render import Site, fragments
from rulebook.render import stored_pages as _declares_book_pages  # noqa: F401 - the kinds of the modules the plugin imports, declared
from rulebook.render.figures import board_svg
from rulebook.render.glossary import _compiled as _compiled_terms

from .test_render_reuse import project
from .test_site_build import RUSSIAN, write_catalog

#: The package's own grammar files.
LOCALE = Path(build_cache.PACKAGE) / "locale"
GLOSSARY = "terms:\n  - it: [mazzo]\n    ru: [колода, колоды, колоду]\n"
#: The same term, now asking the Russian deck to be "библиотека": the kept verdicts are wrong for it.
OTHER_GLOSSARY = "terms:\n  - it: [mazzo]\n    ru: [библиотека, библиотеки]\n"
#: One text fails a check ([html]): its problem names the catalog's path.
BROKEN = {**RUSSIAN, "demo/mana-bianco/somma:text": "Два плюс два — <b>четыре</b>."}


class Project:
    """A project with a Russian catalog and a glossary, and a cache folder beside it."""

    def __init__(self, root: Path, glossary: bool = True) -> None:
        self.root = root
        root.mkdir()
        self.rules, self.locales = project(root)
        write_catalog(self.locales, "ru", "demo", BROKEN, rules=self.rules)
        if glossary:
            (self.locales / "glossary.yaml").write_text(GLOSSARY, encoding="utf-8")
        self.folder = root.parent / f"{root.name}-cache"

    def translated(self, cache: BuildCache) -> TranslatedBook:
        return translate_book(load_library(rulebook_paths(self.rules))["demo"], "ru", self.locales, cache)


def _glossary(p: Project) -> Project:
    (p.locales / "glossary.yaml").write_text(OTHER_GLOSSARY, encoding="utf-8")
    return p


def _edited(path: Path, old: str, new: str) -> None:
    """``path`` with ``old`` written as ``new``: a scenario whose text is no longer there fails
    here, rather than changing nothing and proving nothing."""
    written = path.read_text(encoding="utf-8")
    assert old in written, f"{path.name} no longer holds {old!r}"
    path.write_text(written.replace(old, new), encoding="utf-8")


def _catalog(p: Project) -> Project:
    write_catalog(p.locales, "ru", "demo", {**BROKEN, "demo/pesca:text": "Игрок тянет карту из колоды."}, rules=p.rules)
    return p


def _book(p: Project) -> Project:
    _edited(p.rules / "demo.yaml", "pesca una carta", "pesca due carte")
    return p


def _failed_edited(p: Project) -> Project:
    """The text whose translation fails its check ([html]) edited: its translation is now of an
    older source, no longer checked, and its problem goes."""
    _edited(p.rules / "demo.yaml", "Due più due fa quattro.", "Due più due fa sempre quattro.")
    return p


def _source(p: Project) -> Project:
    """A source text changed and its catalog updated, the translation kept: it lacks the new symbol."""
    _edited(p.rules / "demo.yaml", "carta dal mazzo.", "carta dal mazzo e paga {W}.")
    write_catalog(p.locales, "ru", "demo", BROKEN, rules=p.rules)
    return p


def _shown_path(p: Project) -> Project:
    """The same project, bytes for bytes, in another folder: its problems name other paths."""
    moved = Project.__new__(Project)
    moved.root = p.root.parent / "moved"
    shutil.copytree(p.root, moved.root)
    moved.rules, moved.locales, moved.folder = moved.root / "rules", moved.root / "locales", p.folder
    return moved


#: (kind, input) -> what changes that input in a project. The translation kinds share them.
TRANSLATION_INPUTS: dict[str, Callable[[Project], Project]] = {
    "glossary": _glossary, "catalog": _catalog, "texts": _source, "shown_path": _shown_path}
SCENARIOS: dict[str, dict[str, Callable[[Project], Project]]] = {
    "translations": TRANSLATION_INPUTS,
    "checks": {"glossary": _glossary, "translation": _catalog, "source": _source},
    "translated book": {"glossary": _glossary, "catalog": _catalog, "book": _book, "locales": _shown_path},
    "book texts": {"book": _book, "book's source": _source},
    # What the catalogs gave the last texts: an edited text shown before is outdated without them read again.
    "catalog taken": {"glossary": _glossary, "catalog": _catalog, "book (a text shown before, edited)": _book,
                      "book (a text whose translation failed, edited)": _failed_edited, "book's source": _source},
    # The glossary's memos, through the translations that read it with the same cache.
    "glossary file": {"content": _glossary, "shown_path": _shown_path},
    "glossary": {"reads": _glossary},
}
#: Kinds with a test of their own below.
OWN_TESTS = {"board", "grammar", "checked catalogs", "printed names", "engine names", "stale translations",  # test_i18n_followed
             "book pages",  # test_render_stored
             "stored outcomes",  # test_examples_stored
             "site context", "written page", "search index file"}  # test_render_reuse's serve sessions
#: The glossary's terms name the file they come from: a moved project's glossary is another
#: glossary. Without one, the catalog's shown path is the only input a move changes.
NO_GLOSSARY = {_shown_path}


def test_every_kind_of_kept_value_has_its_scenario() -> None:
    # Every module of the package imported: a kind declared where no test of this file imports is counted too.
    for module in pkgutil.walk_packages(rulebook.__path__, "rulebook."):
        importlib.import_module(module.name)
    assert sorted(KINDS) == sorted([*SCENARIOS, *PURE, *OWN_TESTS, *REBUILDS])


@pytest.mark.parametrize(("kind", "changed"), [(k, i) for k, inputs in SCENARIOS.items() for i in inputs])
def test_a_changed_input_is_never_answered_with_the_old_value(tmp_path: Path, kind: str, changed: str) -> None:
    change = SCENARIOS[kind][changed]
    before = Project(tmp_path / "project", glossary=change not in NO_GLOSSARY)
    warm = BuildCache(before.folder)
    first = before.translated(warm)
    assert first.fallback and first.problems  # the [html] failure is there to be kept
    assert {k.name for k, _ in warm.entries()} >= {"translated book", "book texts"}
    assert sorted(path.parent.name for path in before.folder.rglob("*.json")) == ["checks", "translations"]

    after = change(before)
    cold = after.translated(BuildCache())
    assert cold != first, f"changing {changed} changes nothing: the scenario proves nothing"
    assert after.translated(warm) == cold, f"{kind}: the same cache (a serve rebuild) gave the value of the old {changed}"
    assert after.translated(BuildCache(after.folder)) == cold, f"{kind}: the kept files (the next build) gave the value of the old {changed}"


def test_the_glossary_edited_under_serve_is_checked_again(tmp_path: Path) -> None:
    p = Project(tmp_path / "project")
    session = build_cache.session(str(p.root / "mkdocs.yml"), p.folder)
    assert "demo/pesca:text" not in p.translated(session).fallback
    _glossary(p)
    assert "demo/pesca:text" in p.translated(session).fallback  # its deck is no longer the glossary's
    assert build_cache.session(str(p.root / "mkdocs.yml"), p.folder) is session


def test_other_code_is_another_version_of_every_stored_kind(monkeypatch: pytest.MonkeyPatch) -> None:
    stored_kinds = [(declared, dict.fromkeys(declared.inputs, "x")) for declared in KINDS.values() if declared.stored]
    today = [BuildCache().version(declared, **inputs) for declared, inputs in stored_kinds]
    monkeypatch.setattr(build_cache, "code_version", lambda: "other code")
    assert all(BuildCache().version(d, **inputs) != version for (d, inputs), version in zip(stored_kinds, today, strict=True))


def test_a_key_must_be_exactly_the_declared_inputs() -> None:
    cache = BuildCache()
    with pytest.raises(TypeError, match="keyed by"):
        cache.version(stored.TRANSLATIONS, language="ru")
    with pytest.raises(TypeError, match="keyed by"):
        cache.last(KINDS["book texts"], "demo", lambda: None, book=None, language="ru")


def _highlight(cache: BuildCache, doctest: str) -> str:
    with using(cache):
        return str(fragments.highlight_doctest(doctest))


def test_highlighted_doctests_are_kept_by_text_and_for_the_same_code(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    one, two = ">>> 1 + 1\n2\n", ">>> 'a' * 2\n'aa'\n"
    cache = BuildCache(tmp_path)
    assert _highlight(cache, one) != _highlight(cache, two)
    assert _highlight(cache, two) == _highlight(BuildCache(), two)
    keeping.save(cache)
    made: list[str] = []
    monkeypatch.setattr(fragments, "highlight", lambda text, *rest: made.append(text) or "made again")
    assert _highlight(BuildCache(tmp_path), one) != "made again" and made == []  # the next build takes it
    monkeypatch.setattr(build_cache, "code_version", lambda: "another Pygments")
    assert _highlight(BuildCache(tmp_path), one) == "made again" and made == [one]


#: Pure functions memoized in the cache: kind -> (the function, two arguments giving different values).
PURE: dict[str, tuple[Callable[[str], object], str, str]] = {
    "highlighted": (fragments.highlight_doctest, ">>> 1\n1\n", ">>> 2\n2\n"),
    "source tokens": (_source_tokens, "Paga {W}.", "Paga {U}."),
    "source references": (_source_references, "Vedi [[pesca]].", "Vedi [[fine]]."),
    "source numbers": (_source_numbers, "Pesca 2 carte.", "Pesca 3 carte."),
    "source markup": (_source_markup, "Un **mazzo**.", "Un *mazzo*."),
    "source words": (_source_words, "Il mazzo.", "La carta."),
    "source flat": (_source_flat, "Il mazzo.", "La carta."),
    "source braces": (_source_braces, "Paga {n}.", "Paga {m}."),
    "source percent": (_source_percent, "Il %(n)s.", "Il %(m)d."),
    "term pattern": (_compiled_terms, "(?i:mazzo)", "(?i:carta)"),
}


@pytest.mark.parametrize("kind", PURE)
def test_a_memo_answers_each_argument_with_its_own_value(kind: str) -> None:
    function, one, two = PURE[kind]
    cold = BuildCache()
    with using(cold):
        expected = function(one), function(two)
    cache = BuildCache()
    with using(cache):
        assert (function(one), function(two)) == expected and expected[0] != expected[1]
    assert any(k.name == kind for k, _ in cache.entries())


def _board(cache: BuildCache, figure: BoardFigure) -> str:
    with using(cache):
        return str(board_svg(figure))


def test_a_board_is_drawn_for_its_own_figure() -> None:
    one, two = BoardFigure(pieces=(Piece("c3", "orc"),)), BoardFigure(pieces=(Piece("c4", "orc"),))
    cache = BuildCache()
    assert _board(cache, one) != _board(cache, two) == _board(BuildCache(), two)
    assert any(k.name == "board" for k, _ in cache.entries())


def test_a_grammar_file_edited_is_read_again(tmp_path: Path) -> None:
    folder = tmp_path / "fr"
    folder.mkdir()
    written = (LOCALE / "fr" / "grammar.yaml").read_text(encoding="utf-8")
    (folder / "grammar.yaml").write_text(written, encoding="utf-8")
    cache = BuildCache()
    with using(cache):
        first = load_grammar("fr", (tmp_path,))
        (folder / "grammar.yaml").write_text(written.replace("before_vowel: {le: \"l'\"", "before_vowel: {le: \"L'\""), encoding="utf-8")
        os.utime(folder / "grammar.yaml", ns=(1, 1))  # another modification time, whatever the clock's resolution
        again = load_grammar("fr", (tmp_path,))
    assert again is not first and again == load_grammar("fr", (tmp_path,))


def _pages(p: Project, cache: BuildCache) -> dict[tuple[str, str], str]:
    """Every book page as a rebuild makes it with ``cache`` (a serve session's, or a cold one)."""
    with using(cache):
        books = load_library(rulebook_paths(p.rules), reuse=True)
        outcomes = run_books(books.values(), reuse=True)
        site = Site(books, outcomes, locales=p.locales, languages=("it", "ru"), reuse=True, keep_worded=True)
        pages = {(book, lang): str(site.book_page(book, lang).html) for book in site.books for lang in ("it", "ru")}
        # The glossary page: each book's share of it is kept with the book's page.
        return {**pages, **{(page.kind, lang): str(page.html) for lang in ("it", "ru") for page in site.pages(lang) if page.kind == "glossary"}}


def _example(p: Project) -> Project:
    """A worked example whose expected output is now wrong: its outcome, and its page, change."""
    demo = p.rules / "demo.yaml"
    written = demo.read_text(encoding="utf-8")
    demo.write_text(re.sub(r"(>>> 2 \+ 2\n\s*)4", r"\g<1>5", written), encoding="utf-8")
    assert demo.read_text(encoding="utf-8") != written
    return p


def _linked_title(p: Project) -> Project:
    """Another book's title, which the demo book's links show."""
    _edited(p.rules / "altro.yaml", "title: La fine", "title: La vera fine")
    return p


def _term_used(p: Project) -> Project:
    """Another book's rule now uses a game term: the glossary page lists that rule under it."""
    _edited(p.rules / "altro.yaml", "con {spades}.", "con {spades} e il mazzo.")
    return p


def _term_added(p: Project) -> Project:
    """A term the texts already use in both languages, added to the glossary: no translation
    changes (each already says it), the pages link it and the glossary page lists its uses."""
    (p.locales / "glossary.yaml").write_text(GLOSSARY + "  - it: [carta]\n    ru: [карта, карту]\n", encoding="utf-8")
    return p


def _renumbered(p: Project) -> Project:
    """A rule put before demo's pesca (1.2 -> 1.3): altro's text links to it, unchanged, and the
    demo page's preview of altro's rule quotes that text with the new number."""
    _edited(p.rules / "demo.yaml", "      - id: pesca\n", "      - id: nuova\n        title: Nuova\n        text: Una regola nuova.\n      - id: pesca\n")
    return p


#: What changes a rebuild's kinds: the read books, the examples' outcomes, the pages.
REBUILDS: dict[str, dict[str, Callable[[Project], Project]]] = {
    "read book": {"digest": _book},
    "outcomes": {"book": _example},
    "book page": {"translated": _catalog, "shown": _book, "outcomes": _example, "others": _linked_title, "glossary": _glossary,
                   "shown (a glossary term's use)": _term_used},
    # The texts a re-rendered page takes from its last version: each changed one worded again.
    "worded texts": {"words": _glossary, "a text's translation": _catalog, "a text's source": _book,
                     "a link's target (another book's title)": _linked_title, "a text's example outcome": _example},
    # A book's texts as plain words, the terms each uses and its proofs (link previews, rule links, the glossary page).
    "plain texts": {"words": _glossary, "words (a term added that the texts already use)": _term_added, "a text's translation": _catalog, "a text's source": _book,
                    "a link's target (another book's title)": _linked_title, "a term's use": _term_used,
                    "a number a text shows (a rule put before the one it links to)": _renumbered,
                    "an example's outcome (its proof)": _example},
    # A book's anchors, nodes and their keys: another book object (an edited file) has its own.
    "book index": {"book (a rule put before another)": _renumbered, "book (a text)": _book},
}


@pytest.mark.parametrize(("kind", "changed"), [(k, i) for k, inputs in REBUILDS.items() for i in inputs])
def test_a_rebuild_shows_every_change(tmp_path: Path, kind: str, changed: str) -> None:
    before = Project(tmp_path / "project")
    session = BuildCache()
    first = _pages(before, session)
    assert {k.name for k, _ in session.entries()} >= {"read book", "outcomes", "book page"}
    after = REBUILDS[kind][changed](before)
    cold = _pages(after, BuildCache())
    assert cold != first, f"changing {changed} changes no page: the scenario proves nothing"
    assert _pages(after, session) == cold, f"{kind}: a rebuild with the session's cache showed the old {changed}"


def test_a_cached_build_starts_no_worker_and_translates_alike(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    p = Project(tmp_path / "project")
    (p.locales / "en" / "LC_MESSAGES").mkdir(parents=True)
    shutil.copy(p.locales / "ru" / "LC_MESSAGES" / "demo.po", p.locales / "en" / "LC_MESSAGES" / "demo.po")
    book = load_library(rulebook_paths(p.rules))["demo"]
    pairs = [(book, "ru"), (book, "en")]
    monkeypatch.setattr(translate, "PARALLEL_BYTES", 0)  # workers whatever the catalogs' size
    started: list[int] = []
    pool = translate.worker_pool
    monkeypatch.setattr(translate, "worker_pool", lambda count, module: started.append(count) or pool(count, module))

    def build() -> list[TranslatedBook]:
        cache = BuildCache(p.folder)
        with translating(pairs, p.locales, cache=cache, workers=2):
            return [translate_book(book, language, p.locales, cache) for book, language in pairs]

    cold = build()
    assert started == [2]
    assert build() == cold and started == [2]  # taken from the folder, in this process
    assert cold == [translate_book(book, language, p.locales, BuildCache()) for book, language in pairs]


RU_WORDS = ('msgid ""\nmsgstr ""\n"Language: ru\\n"\n"Content-Type: text/plain; charset=utf-8\\n"\n'
            '"Plural-Forms: nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);\\n"\n\n'
            'msgid "Translation coverage"\nmsgstr "{text}"\n')


def _site_words(locales: Path, cache: BuildCache) -> tuple[object, ...]:
    """The Russian site words with a project's catalog over the shipped one, as a page shows them."""
    with using(cache):
        said = load_messages(SITE, "ru", locales)
    return said.translate(None, "Translation coverage"), said.problems, said.translated, said.fuzzy


def _words_catalog(p: Project) -> Project:
    (p.locales / "ru" / "LC_MESSAGES" / "site.po").write_text(RU_WORDS.format(text="Покрытие переводом"), encoding="utf-8")
    return p


def _moved_words(p: Project) -> Project:
    return _shown_path(p)


def _words_spelling(p: Project) -> Project:
    """A glossary whose Russian spelling rule the kept site words break: their verdict changes."""
    (p.locales / "glossary.yaml").write_text(
        "spelling:\n  - language: ru\n    avoid: [Охват]\n    use: покрытие\n    note: a test's house style\n", encoding="utf-8")
    return p


@pytest.mark.parametrize("change", [_words_catalog, _moved_words, _words_spelling])
def test_the_checked_site_words_follow_their_catalog_and_its_path(tmp_path: Path, change: Callable[[Project], Project]) -> None:
    before = Project(tmp_path / "project", glossary=False)
    # A text the checks refuse: its problem names the file.
    (before.locales / "ru" / "LC_MESSAGES" / "site.po").write_text(RU_WORDS.format(text="Охват <b>перевода</b>"), encoding="utf-8")
    warm = BuildCache(before.folder)
    first = _site_words(before.locales, warm)
    assert first[1] and any(k.name == "checked catalogs" for k, _ in warm.entries())
    after = change(before)
    cold = _site_words(after.locales, BuildCache())
    assert cold != first
    assert _site_words(after.locales, warm) == cold
    assert _site_words(after.locales, BuildCache(after.folder)) == cold
    assert _site_words(after.locales, BuildCache(after.folder)) == cold  # from the kept file, this time


def test_a_process_keeps_the_sessions_of_its_last_configurations_only(tmp_path: Path) -> None:
    configs = [str(tmp_path / f"mkdocs-{n}.yml") for n in range(build_cache.SESSIONS_KEPT + 1)]
    first = build_cache.session(configs[0], None)
    for config in configs[1:-1]:
        build_cache.session(config, None)
    assert build_cache.session(configs[0], None) is first  # served again: the newest
    build_cache.session(configs[-1], None)  # one too many: the one built longest ago goes
    assert build_cache.session(configs[0], None) is first
    kept = [config for config, _ in build_cache._SESSIONS]
    assert configs[1] not in kept and kept[-2:] == [configs[-1], configs[0]]


def test_a_kept_catalog_of_the_wrong_shape_is_checked_again(tmp_path: Path) -> None:
    p = Project(tmp_path / "project", glossary=False)
    (p.locales / "ru" / "LC_MESSAGES" / "site.po").write_text(RU_WORDS.format(text="Охват <b>перевода</b>"), encoding="utf-8")
    expected = _site_words(p.locales, BuildCache(p.folder))
    kept = sorted((p.folder / "checked-catalogs").glob("site.ru.*.json"))
    assert len(kept) == 2  # the shipped catalog and the project's
    for path in kept:
        data = json.loads(path.read_text(encoding="utf-8"))
        for broken in (["not", "a", "layer"], [None, [["x"]], [], [], None], [None, [], [], [["a", 1]], None]):
            path.write_text(json.dumps({**data, "layer": broken}), encoding="utf-8")
            assert _site_words(p.locales, BuildCache(p.folder)) == expected


def test_printed_names_are_made_terms_for_their_own_names_and_source() -> None:
    """The engines' printed names become card terms once per build: other names (an engine's data
    edited under serve) or another source language are never answered with the old terms."""
    from rulebook.engines.base import PrintedName
    from rulebook.i18n.glossary import _read_names

    island = (PrintedName.of({"it": "Isola", "en": "Island"}, "cards.yaml:1"),)
    swamp = (PrintedName.of({"it": "Palude", "en": "Swamp"}, "cards.yaml:2"),)

    def forms(read: object, language: str) -> list[tuple[str, ...]]:
        return [term.forms[language] for term in read.terms]  # type: ignore[attr-defined]

    cache = BuildCache()
    with using(cache):
        first = _read_names(island, "it")
        assert _read_names(island, "it") is first  # one read, so one glossary object per build
        assert forms(_read_names(swamp, "it"), "it") == [("Palude",)]
        assert forms(_read_names(island, "en"), "en") == [("Island",)] and _read_names(island, "en") is not first
    assert forms(first, "it") == [("Isola",)]
    assert any(k.name == "printed names" for k, _ in cache.entries())


def test_an_engine_imported_anew_is_asked_its_printed_names_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """An engine's names are asked once per module: a module imported anew (an engine edited under
    serve, rulebook.reloading) is another module, asked again; the same one is never asked twice."""
    import types
    from importlib.metadata import EntryPoint

    from rulebook import engines
    from rulebook.engines.base import PrintedName

    asked: list[str] = []

    def engine(name: str) -> types.ModuleType:
        module = types.ModuleType("house_rules")
        module.names = lambda: asked.append(name) or (PrintedName.of({"it": name, "en": name.upper()}, "cards.yaml:1"),)  # type: ignore[attr-defined]
        return module

    loaded = {"house": engine("Isola")}
    monkeypatch.setattr(engines, "_registered_entry_points", lambda: (EntryPoint("house", "house_rules", engines.GROUP),))
    monkeypatch.setattr(engines, "_loaded", lambda entry: loaded[entry.name])
    cache = BuildCache()
    with using(cache):
        first = engines.printed_names()
        assert engines.printed_names() == first
        assert asked == ["Isola"]  # the same module: asked once
        loaded["house"] = engine("Palude")  # imported anew, its data edited
        (again,), _ = engines.printed_names()
    assert asked == ["Isola", "Palude"]
    assert ("it", "Palude") in again.names
    assert first == ((PrintedName.of({"it": "Isola", "en": "ISOLA"}, "cards.yaml:1"),), ())
    assert any(k.name == "engine names" for k, _ in cache.entries())


def test_a_shipped_grammar_file_is_part_of_the_code_version(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A label's forms in a shipped grammar.yaml decide a [forms] verdict: a stored verdict made
    under other forms must not be read back (the package's .py files alone would not tell)."""
    package = tmp_path / "rulebook"
    (package / "locale" / "ru").mkdir(parents=True)
    (package / "cache.py").write_text("x = 1\n", encoding="utf-8")
    grammar = package / "locale" / "ru" / "grammar.yaml"
    grammar.write_text("names:\n  '{U}': {acc: синюю ману}\n", encoding="utf-8")
    monkeypatch.setattr(build_cache, "PACKAGE", package)
    before = build_cache.code_version()
    grammar.write_text("names:\n  '{U}': {acc: синяя мана}\n", encoding="utf-8")
    assert build_cache.code_version() != before


def test_a_text_edited_again_and_back_under_serve_is_translated_as_a_cold_build(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A text shown from its catalog, edited (outdated), edited again (still outdated) and edited
    back to the catalog's msgid (shown again, its msgstr): each time what a cold build makes, and
    the unchanged catalog never read again (kind "catalog taken")."""
    p = Project(tmp_path / "project")
    warm = BuildCache()
    assert p.translated(warm) == p.translated(BuildCache())
    read: list[str] = []
    taken = translate.taken_from_catalog
    monkeypatch.setattr(translate, "taken_from_catalog", lambda *args, **kwargs: read.append(args[0]) or taken(*args, **kwargs))
    written = "pesca una carta"
    for text in ("pesca due carte", "pesca tre carte", "pesca una carta"):
        _edited(p.rules / "demo.yaml", written, text)
        written = text
        served = p.translated(warm)
        assert served == p.translated(BuildCache()), text
        assert ("demo/pesca:text" in served.outdated) == (text != "pesca una carta")
    assert read.count("demo") == 3  # the cold builds' readings only
