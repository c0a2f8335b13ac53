"""Pages of the site, rendered from the model through Jinja2. Knows nothing of MkDocs.

A :class:`Site` holds the books, the outcome of every worked example, its languages (the
source first: the books' own language) and where the catalogs are; it renders, per language,
a home page, one page per book, a translation coverage page and the text of a 404 page. Each
:class:`RenderedPage` says where it lives (``src_uri``/``url``, the source language's at the
root, the others under ``/<lang>/``), its escaped title, its body HTML, its table of contents
and its alternates in the other languages. A publisher (the MkDocs adapter, or a successor)
only has to place these.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property, partial
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import jinja2
from markupsafe import Markup, escape

from ..cache import current, kind
from ..engines import engine_symbols
from ..errors import LoadError, Problem, RulebookError
from ..examples import Outcome
from ..i18n.domains import ENGINES, SITE, Messages, ShippedDomain, engine_domain, load_messages
from ..i18n.glossary import Glossary, load_glossary
from ..i18n.grammar import grammar_files
from ..i18n.translate import TranslatedBook, forget_translation, translate_book
from ..languages import Language, Languages
from ..limits import read_limited
from ..markup import Lines
from ..model import XREF_RE, Anchor, Book, Node, Rule, Ruling, Section, XRef, message_context, translatable_fields, walk
from ..symbols import Symbol
from ..symbols import table as symbol_table
from .boards import ExampleFigure, example_figure
from .fragments import heading, highlight_doctest
from .glossary import GLOSSARY, BookTerms, BookUse, ShownEntry, anchors, book_uses, glossary_page, shown_entries
from .kept import BOOK_INDEX, TEXTS, KeptTexts, indexed
from .previews import nodes_by_id, preview
from .proofs import EngineSpeech, proof_steps
from .reuse import COMPILED
from .text import SymbolSet, Target, text_to_html, text_to_plain
from .ui import Phrase, Words, untranslated_html
from .urls import relative_url

if TYPE_CHECKING:
    from .stored_pages import KeptPages

_ENV = jinja2.Environment(
    loader=jinja2.PackageLoader("rulebook.render", "templates"),
    autoescape=True,  # every {{ }} is escaped unless it is Markup we built
    undefined=jinja2.StrictUndefined,
    trim_blocks=True,
    lstrip_blocks=True,
    bytecode_cache=COMPILED,  # compiled once, kept in the build's cache folder for the next build
)
T = TypeVar("T")
#: A book's page and its search documents, by (what, locales, book, language), made again only when
#: one of their inputs changed (:meth:`Site.book_inputs`): mkdocs serve renders again only what an edit touched.
BOOK_PAGES = kind("book page", ("settings", "words", "shown", "translated", "outcomes", "others"),
                  "a book's page, search documents, uses of the glossary's terms and home entry in a language, made again only when what they "
                  "show changed")
#: A book page's texts as HTML, each with the cross-references it resolved, by (locales, book,
#: language): a page made again after an edit words again only the texts whose own words, source
#: text, translation state or links changed (the site's words and settings: everything else).
WORDED = kind("worded texts", ("settings", "words"),
              "a book page's texts as HTML with the links they resolved: an edit re-renders a page, not each of its texts")
#: A text as worded on a page: its HTML and each cross-reference it resolved, with where it led.
Worded = tuple[Markup, tuple[tuple[XRef, Target | None], ...]]
#: What :func:`~rulebook.render.kept.indexed` keeps of a book as shown in a language (its view's
#: node keys and nodes by id; the rest is of the source book): forgotten with its translation.
_SHOWN_INDEXES = ("keys", "nodes")
#: The anchor of a book page's list of departures; "rb-" keeps it apart from the books' own ids.
DEPARTURES_ANCHOR = "rb-departures"
_ENV.globals["heading"] = heading  # the book template calls it once per section and rule


@dataclass(frozen=True)
class TocEntry:
    id: str
    title: Markup  # inline HTML: escaped text and symbol icons, no links
    level: int
    children: tuple[TocEntry, ...] = ()


@dataclass(frozen=True)
class Alternate:
    language: str  # its code (the URL prefix and locales/ folder)
    name: str  # its own name, as a menu shows it
    url: str  # site-relative URL of the same page in that language
    tag: str  # its BCP 47 tag, for hreflang


@dataclass(frozen=True)
class RenderedPage:
    kind: str  # home | book | coverage | not_found
    language: str
    src_uri: str
    url: str
    title: Markup
    html: Markup
    toc: tuple[TocEntry, ...] = ()
    alternates: tuple[Alternate, ...] = ()
    source_path: str = ""  # the YAML file a book page comes from


@dataclass(frozen=True)
class Coverage:
    book: str
    language: str
    total: int
    translated: int
    fuzzy: int
    fallback: int


def _all_texts(book: Book) -> tuple[str, ...]:
    return tuple(text for _, node in walk(book) for _, text in translatable_fields(node))


def _keys(book: Book) -> dict[int, str]:
    return {id(node): key for key, node in walk(book)}


def source_problems(books: Iterable[Book], source: Language) -> list[Problem]:
    """Every book not written in the site's source language, at its ``language:`` line."""
    return [
        Problem(book.path, book.lines.get("language", book.line), 1,
                f"the book is in {book.language!r} but the site's first language, its source, is {source.code!r}: "
                f"put {book.language!r} first in the languages of mkdocs.yml, or write the book in {source.code!r}")
        for book in books
        if book.language != source.code
    ]


@dataclass
class Site:
    books: Mapping[str, Book]
    outcomes: Sequence[Outcome] = ()
    locales: Path = Path("locales")
    #: The site's languages, the source first (codes or :class:`Languages`); None: the books' own only.
    #: Read back, always :class:`Languages`: ``__post_init__`` makes the others one.
    languages: Languages = None  # type: ignore[assignment]  # given as None or codes too (above)
    directory_urls: bool = True
    #: Whether printed books (PDF) are published beside the pages: each book page then links its own.
    pdf: bool = False
    translate: Callable[[Book, str, Path], TranslatedBook] = translate_book
    #: Take each (book, language)'s page and search documents from the last Site of this process
    #: when what they are made from is unchanged (``mkdocs serve``'s rebuilds; render.reuse).
    reuse: bool = False
    #: With ``reuse``, also keep each book page's texts as HTML for the next version of the page
    #: (``mkdocs serve`` after its first build: a one-off build would only pay their memory).
    keep_worded: bool = False
    #: With ``reuse``, also take each (book, language)'s page, search documents, glossary uses and
    #: home entry from the build cache's folder, and keep them there (render.stored_pages; None: in memory only).
    kept: KeptPages | None = None
    #: With ``reuse``, keep each book's page, search documents and glossary uses for the next build
    #: of this process (:meth:`remembered`). A one-off build keeps the last two for itself alone and
    #: never compares what they are made from; it makes each page when MkDocs writes it and lets it
    #: go (:meth:`book_page_stub`; every book in every language at once was most of a build's
    #: memory, issue 31.3).
    keep_pages: bool = True
    _translated: dict[tuple[str, str], TranslatedBook] = field(default_factory=dict, repr=False)
    _anchors: dict[str, dict[str, Anchor]] = field(default_factory=dict, repr=False)
    _messages: dict[tuple[str, str], Messages] = field(default_factory=dict, repr=False)
    _words: dict[tuple[str, str], Words] = field(default_factory=dict, repr=False)
    _engine_domains: dict[str, tuple[ShippedDomain, ...]] = field(default_factory=dict, repr=False)
    _symbol_sets: dict[tuple[str, str], SymbolSet | None] = field(default_factory=dict, repr=False)
    #: The glossary page's entries per language (glossary_shown).
    glossary_entries: dict[str, list[ShownEntry]] = field(default_factory=dict, repr=False)
    _linked: dict[str, frozenset[str]] = field(default_factory=dict, repr=False)
    _anchor_keys: dict[str, tuple[tuple[str, str, str, int], ...]] = field(default_factory=dict, repr=False)
    _files: dict[tuple[str, str], tuple[tuple[str, bytes], ...]] = field(default_factory=dict, repr=False)
    _views: dict[tuple[str, str], _BookView] = field(default_factory=dict, repr=False)
    _inputs: dict[tuple[str, str], dict[str, object]] = field(default_factory=dict, repr=False)
    _targets: dict[str, frozenset[tuple[str, str]]] = field(default_factory=dict, repr=False)
    _made: dict[tuple[str, str, str], object] = field(default_factory=dict, repr=False)  # remembered, without keep_pages
    #: What the site's pages show of each (book, language) beside its own page, kept past :meth:`let_go`.
    _coverages: dict[tuple[str, str], Coverage] = field(default_factory=dict, repr=False)
    _titles: dict[tuple[str, str], Markup] = field(default_factory=dict, repr=False)
    _stubs: dict[tuple[str, str], RenderedPage] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        given: Languages | Sequence[str] | None = self.languages
        if given is None:
            given = sorted({book.language for book in self.books.values()})[:1] or ["en"]
        if not isinstance(given, Languages):
            self.languages = Languages.parse(given)
        problems = source_problems(self.books.values(), self.source)
        # A book page lives at <book>/ and a language's pages under <lang>/: they must not meet.
        problems += [Problem(book.path, book.lines.get("id", book.line), 1, f"book id {book.id!r} is also the folder of the site's "
                             f"language {book.id!r}; choose another id") for book in self.books.values() if book.id in self.languages.codes]
        if problems:
            raise LoadError(problems)

    @property
    def source(self) -> Language:
        return self.languages.source

    # --- where things live ---------------------------------------------------------------
    def prefix(self, language: str) -> str:
        """The source language lives at the root, every other under its code."""
        return "" if language == self.source.code else f"{language}/"

    def pdf_url(self, language: str, book_id: str) -> str:
        """Where a book's PDF in ``language`` lives (``pdf/strage-ru.pdf`` under the language's root)."""
        return f"{self.prefix(language)}pdf/{book_id}-{language}.pdf"

    def src_uri(self, language: str, name: str) -> str:
        return f"{self.prefix(language)}{name}.md"

    def url(self, language: str, name: str) -> str:
        stem = "" if name == "index" else name
        prefix = self.prefix(language)
        if self.directory_urls:
            return f"{prefix}{stem}/" if stem else prefix
        return f"{prefix}{name}.html"

    # --- data ----------------------------------------------------------------------------
    def messages(self, language: str, domain: ShippedDomain = SITE) -> Messages:
        """A shipped domain's messages in one language (the site's words by default):
        the package's catalog, then the project's ``locales/``."""
        key = (domain.name, language)
        if key not in self._messages:
            self._messages[key] = load_messages(domain, language, self.locales)
        return self._messages[key]

    def words(self, language: str, domain: ShippedDomain = SITE) -> Words:
        """What a page in ``language`` says in a domain; a missing word in the source language, marked."""
        key = (domain.name, language)
        if key not in self._words:
            badges = None if domain == SITE else self.words(language)
            self._words[key] = Words(self.languages.get(language), self.source, lambda code: self.messages(code, domain), domain, badges,
                                     Path(self.locales))
        return self._words[key]

    def engine_domains(self, book_id: str) -> tuple[ShippedDomain, ...]:
        """What the book's engine speaks through: its own domain (if it ships one), then the engines' shared one."""
        engine = self.books[book_id].engine
        if engine not in self._engine_domains:
            own = engine_domain(engine)
            self._engine_domains[engine] = (own, ENGINES) if own is not None else (ENGINES,)
        return self._engine_domains[engine]

    def symbol_set(self, book_id: str, language: str) -> SymbolSet | None:
        """The symbols the book's engine adds (its ``symbols()``, docs/engines.md), each read out in
        ``language`` by its label in the engine's domain; None when it adds none."""
        engine = self.books[book_id].engine
        key = (engine, language)
        if key not in self._symbol_sets:
            try:
                own = engine_symbols(engine)
            except RulebookError:
                own = ()  # the loader and the examples report a missing or broken engine at its line
            self._symbol_sets[key] = SymbolSet(symbol_table(own), lambda symbol: self._symbol_label(book_id, language, symbol)) if own else None
        return self._symbol_sets[key]

    def _symbol_label(self, book_id: str, language: str, symbol: Symbol) -> Phrase:
        """An engine's symbol's label in ``language``: its engine's domain, then the engines' shared one, then English."""
        if symbol.label is None:
            return self.words(language).gettext(symbol.name)
        domains = self.engine_domains(book_id)
        for index, domain in enumerate(domains):
            told = self.words(language, domain).told(symbol.label, last=index == len(domains) - 1)
            if told is not None:
                return told
        raise AssertionError("the last domain always tells")  # engine_domains is never empty

    def shipped_catalog_folders(self) -> list[Path]:
        """The folders of the catalogs shipped with the packages whose words the pages show (the
        site's, the books' engines'): ``mkdocs serve`` watches them beside the project's."""
        domains = {SITE, *(domain for book_id in self.books for domain in self.engine_domains(book_id))}
        return sorted({domain.locale_dir for domain in domains if domain.locale_dir.is_dir()})

    def speech(self, book_id: str, language: str) -> EngineSpeech:
        """What the book's engine says, in ``language``: its own domain, then the engines' shared one."""
        return EngineSpeech([self.words(language, domain) for domain in self.engine_domains(book_id)], self.words(language), Path(self.locales))

    def shown(self, book_id: str, language: str) -> tuple[Book, TranslatedBook | None]:
        """A book as a page in ``language`` shows it, and its translation (None in the source)."""
        if language == self.source.code:
            return self.books[book_id], None
        translated = self.translated(book_id, language)
        return translated.book, translated

    def translated(self, book_id: str, language: str) -> TranslatedBook:
        key = (book_id, language)
        if key not in self._translated:
            self._translated[key] = self.translate(self.books[book_id], language, self.locales)
        return self._translated[key]

    @cached_property
    def glossary(self) -> Glossary:
        """The game terms of ``locales/glossary.yaml`` (search keeps them apart from look-alike words)."""
        return load_glossary(self.locales, source=self.source.code)

    @cached_property
    def _outcomes(self) -> dict[tuple[str, str], Outcome]:
        return {(o.book.id, o.example.id): o for o in self.outcomes}

    @cached_property
    def _book_outcomes(self) -> dict[str, tuple[Outcome, ...]]:
        """Each book's outcomes, in their order: a page's inputs take its own, never scanning all
        of them (per page, that grew with the square of the books)."""
        found: dict[str, list[Outcome]] = {}
        for outcome in self.outcomes:
            found.setdefault(outcome.book.id, []).append(outcome)
        return {book_id: tuple(outcomes) for book_id, outcomes in found.items()}

    @cached_property
    def _texts(self) -> dict[str, tuple[str, ...]]:
        """Every translatable text of each book, in the source language (counted, searched for links)."""
        return {book_id: indexed(book, "texts", self.source.code, partial(_all_texts, book)) for book_id, book in self.books.items()}

    def linked_books(self, book_id: str) -> frozenset[str]:
        """The other books a book's cross-references lead to (their titles and numbers are on its page)."""
        if book_id not in self._linked:  # asked for by every page and search document of the book
            self._linked[book_id] = frozenset(book for book, _ in self.linked_targets(book_id))
        return self._linked[book_id]

    def linked_targets(self, book_id: str) -> frozenset[tuple[str, str]]:
        """(book, rule id) of each cross-reference of a book to another book (a link's preview quotes that rule)."""
        if book_id not in self._targets:  # asked for by the book's inputs in every language
            self._targets[book_id] = indexed(self.books[book_id], "linked", self.source.code, lambda: frozenset(
                (match.group(1), match.group(2)) for text in self._texts[book_id] for match in XREF_RE.finditer(text)
                if match.group(1) and match.group(1) != book_id))
        return self._targets[book_id]

    def coverage(self, book_id: str, language: str) -> Coverage:
        """How much of a book is translated into ``language`` (every coverage page shows every language's)."""
        key = (book_id, language)
        if key not in self._coverages:
            total = len(self._texts[book_id])
            if language == self.source.code:
                self._coverages[key] = Coverage(book_id, language, total, total, 0, 0)
            else:
                tb = self.translated(book_id, language)
                fallback = len(tb.fallback)
                self._coverages[key] = Coverage(book_id, language, total, total - fallback, len(tb.outdated), fallback)
        return self._coverages[key]

    def book_title(self, book_id: str, language: str) -> Markup:
        """A book's title in ``language`` as escaped plain words, as the coverage and 404 pages list it."""
        key = (book_id, language)
        if key not in self._titles:
            shown = self.shown(book_id, language)[0]
            self._titles[key] = escape(text_to_plain(shown.title, self.words(language), symbols=self.symbol_set(book_id, language)))
        return self._titles[key]

    def let_go(self, language: str) -> None:
        """Forget what the book pages of ``language`` were made from: its books' translations, the
        views that worded them and what the build cache keeps of them. A one-off build whose
        pages are stored (``kept``) makes each language's pages and what the site shows of them
        (:meth:`prepared`), then lets them go: every language's at once was most of the 50 x 200
        corpus's memory (issue 31.3). Asked again, a translation is made again."""
        cache = current()
        for book_id in self.books:
            key = (book_id, language)
            self._views.pop(key, None)
            self._translated.pop(key, None)
            self._inputs.pop(key, None)
            if cache is not None and language != self.source.code:
                for what in _SHOWN_INDEXES:
                    cache.forget(BOOK_INDEX, (what, book_id, language))
                forget_translation(cache, book_id, language, Path(self.locales))

    def prepared(self, language: str) -> None:
        """What a one-off build's navigation, home, coverage and 404 pages show of each book in
        ``language``, made now (before :meth:`let_go`): its page stub, title, coverage and home entry."""
        for book_id in self.books:
            self.book_page_stub(book_id, language)
            self.book_title(book_id, language)
            self.coverage(book_id, language)
        self.home(language)

    def alternates(self, name: str) -> tuple[Alternate, ...]:
        return tuple(Alternate(lang.code, lang.name, self.url(lang.code, name), lang.tag) for lang in self.languages)

    # --- pages ---------------------------------------------------------------------------
    def pages(self, language: str, *, stubs: bool = False) -> list[RenderedPage]:
        """Every page of ``language``; ``stubs``: each book page without its body (:meth:`book_page_stub`)."""
        pages = [self.home(language)]
        pages.extend((self.book_page_stub if stubs else self.book_page)(book_id, language) for book_id in self.books)
        pages.append(self.coverage_page(language))
        made = glossary_page(self, language, self.glossary_shown(language))
        if made is not None:
            title, html = made
            pages.append(RenderedPage("glossary", language, self.src_uri(language, GLOSSARY), self.url(language, GLOSSARY), title, html,
                                      alternates=self.alternates(GLOSSARY)))
        return pages

    def glossary_uses(self, book_id: str, language: str) -> tuple[BookUse, ...]:
        """A book's share of the glossary page in ``language``: made again, as its page, only when
        what it shows changed (a rebuild after one edit reads the other books' uses again)."""
        return self.remembered("glossary uses", book_id, language, lambda: book_uses(self, book_id, language))

    def glossary_shown(self, language: str) -> list[ShownEntry]:
        """The glossary page's entries in ``language`` (made once: the page and the index ask)."""
        if language not in self.glossary_entries:
            self.glossary_entries[language] = shown_entries(self, language, tuple(self.languages))
        return self.glossary_entries[language]

    def all_pages(self) -> Iterable[RenderedPage]:
        for language in self.languages:
            yield from self.pages(language.code)

    @cached_property
    def term_anchors(self) -> dict[int, str]:
        """Each game term's id on the glossary page (by ``id(term)``); empty: the site has no glossary page."""
        return anchors(self.glossary)

    def render_template(self, template: str, language: str, **context: object) -> Markup:
        """A page body from one of the toolkit's templates, with the site's words of ``language``."""
        return self._render(template, language, **context)

    def _render(self, template: str, language: str, **context: object) -> Markup:
        words = self.words(language)
        html = _ENV.get_template(template).render(**words.template_globals(), source=self.source, **context)
        return Markup(html)

    def home(self, language: str) -> RenderedPage:
        words = self.words(language)
        url = self.url(language, "index")
        # Each book's entry is made from what its page is made from: kept with it (remembered).
        entries = [self.remembered("home", book_id, language, lambda: self._home_entry(book_id, language, url))  # noqa: B023 - called at once
                   for book_id in self.books]
        html = self._render("home.html.j2", language, books=entries, coverage_href=relative_url(url, self.url(language, "coverage")))
        # Translators: the title of the home page, which lists every rulebook.
        title = words.gettext("Rulebooks")
        return RenderedPage("home", language, self.src_uri(language, "index"), url, escape(title.text), html,
                            alternates=self.alternates("index"))

    def _home_entry(self, book_id: str, language: str, url: str) -> dict[str, object]:
        book, tb = self.shown(book_id, language)
        view = _BookView(self, book, language, url, tb)
        results = [self._outcomes.get((book_id, e.id)) for _, e in book.examples()]
        return {
            "href": relative_url(url, self.url(language, book_id)),
            "title": view.text(book, "title", inline=True),
            "summary": view.text(book, "summary"),
            "examples": len(results),
            "passed": sum(1 for r in results if r is not None and r.passed),
        }

    def coverage_page(self, language: str) -> RenderedPage:
        words = self.words(language)
        url = self.url(language, "coverage")
        books = []
        for book_id in self.books:
            rows = [{"cov": self.coverage(book_id, lang.code), "language": lang.name, "tag": lang.tag,
                     "href": relative_url(url, self.url(lang.code, book_id))} for lang in self.languages]
            books.append({"id": book_id, "title": self.book_title(book_id, language), "rows": rows})
        html = self._render("coverage.html.j2", language, books=books)
        return RenderedPage("coverage", language, self.src_uri(language, "coverage"), url,
                            escape(words.gettext("Translation coverage").text), html, alternates=self.alternates("coverage"))

    def book_view(self, book_id: str, language: str) -> _BookView:
        """A book as its page in ``language`` shows it: texts, links, proofs and figures. One per
        build: its page, search documents and glossary uses share what it has worded."""
        key = (book_id, language)
        if key not in self._views:
            book, tb = self.shown(book_id, language)
            view = self._views[key] = _BookView(self, book, language, self.url(language, book_id), tb)
            cache = current() if self.reuse and self.keep_worded else None
            if cache is not None:  # serve: the texts as the last rebuilds worded them (render.kept)
                symbols = self.symbol_set(book_id, language)
                view.texts_kept = cache.last(TEXTS, (str(Path(self.locales).resolve()), book_id, language), KeptTexts,
                                             settings=self._settings, words=self._words_files(book_id, language),
                                             symbols=symbols.table if symbols is not None else None)
                view.texts_kept.bound(len(self._texts[book_id]))
        return self._views[key]

    def remembered(self, kind: str, book_id: str, language: str, make: Callable[[], T]) -> T:
        """``make()``, or with ``reuse`` what it made last time for the same inputs, in the
        active build cache (:mod:`rulebook.cache`; none active: made every time)."""
        if not self.keep_pages:  # made (or taken from the cache's folder) once in this build, never compared with another's
            key = (kind, book_id, language)
            if key not in self._made:
                self._made[key] = make() if self.kept is None else self.kept.value(self, kind, book_id, language, make)
            return self._made[key]  # type: ignore[return-value]  # what make() made for this kind
        cache = current() if self.reuse else None
        if cache is None:
            return make()
        slot = (kind, str(Path(self.locales).resolve()), book_id, language)
        kept = self.kept
        # A serve session's slot held this page: the folder holds that one too, not this build's.
        fresh = kept is not None and cache.made_from(BOOK_PAGES, slot) is None
        made = make if kept is None else lambda: kept.value(self, kind, book_id, language, make, read=fresh)
        return cache.last(BOOK_PAGES, slot, made, **self.book_inputs(book_id, language))

    def book_inputs(self, book_id: str, language: str) -> dict[str, object]:
        """Everything a book's page in ``language`` is made from (:data:`BOOK_PAGES`' inputs), to
        compare with ``==``: the book as shown and its translation state, its examples' outcomes,
        the books it links to as shown (titles, numbers, the texts a link's preview quotes), the
        site's words (catalogs other than the books') and settings. Made once per build: the
        page, the search documents and the glossary's uses compare the same."""
        key = (book_id, language)
        if key not in self._inputs:
            self._inputs[key] = self._book_inputs(book_id, language)
        return self._inputs[key]

    def _book_inputs(self, book_id: str, language: str) -> dict[str, object]:
        shown, translated = self.shown(book_id, language)
        # A link's preview quotes the rule it leads to: each linked rule as shown, beside its book's title.
        targets = sorted(self.linked_targets(book_id))
        others = []
        for other in sorted(self.linked_books(book_id)):
            if other in self.books:
                there = self.shown(other, language)[0]
                nodes = self.book_view(other, language).nodes
                others.append((other, there.title, self._anchor_key(other),
                               tuple(nodes.get(target) for book, target in targets if book == other)))
        outcomes = self._book_outcomes.get(book_id, ())
        return {"settings": self._settings, "words": self._words_files(book_id, language),
                "shown": shown, "translated": translated, "outcomes": outcomes, "others": tuple(others)}

    @property
    def _settings(self) -> tuple[object, ...]:
        """What every page of the site is made with beside its words: its languages and URLs, its PDFs."""
        return (self.languages.codes, self.directory_urls, self.pdf)

    def _anchor_key(self, book_id: str) -> tuple[tuple[str, str, str, int], ...]:
        """A book's anchors as plain tuples, made once per build: a rebuild compares them in C for
        every page that links to the book (as Anchor objects, one Python __eq__ each: a tenth of
        a rebuild with nothing changed)."""
        if book_id not in self._anchor_keys:
            book = self.books[book_id]
            self._anchor_keys[book_id] = indexed(book, "anchor keys", self.source.code, lambda: tuple(
                (key, a.number, a.kind, a.index) for key, a in self.anchors(book).items()))
        return self._anchor_keys[book_id]

    def _words_files(self, book_id: str, language: str) -> tuple[tuple[str, bytes], ...]:
        """The bytes of every catalog of the words a book's page shows besides the book's own: the
        catalogs shipped with the packages (the site's words, its engine's and the engines' shared
        domain: an engine's developer edits them too) and the project's catalogs that are not a
        book's, and the glossary. Read once per engine and language in a build (this Site), not
        once per page and search document."""
        key = (self.books[book_id].engine, language)
        if key not in self._files:
            self._files[key] = self._read_words_files(book_id, language)
        return self._files[key]

    def _read_words_files(self, book_id: str, language: str) -> tuple[tuple[str, bytes], ...]:
        locales = Path(self.locales)
        codes = sorted({language, self.source.code})
        domains = (SITE, *self.engine_domains(book_id))
        files = [domain.catalog(code) for domain in domains for code in codes]
        # The names' grammar beside those catalogs chooses the words of the engine's sentences too.
        files += [path for domain in domains for code in codes
                  for path in grammar_files(code, [domain.locale_dir])]
        files += [path for code in codes for path in grammar_files(code, [locales])]  # the project's own
        files.append(locales / "glossary.yaml")
        for code in codes:
            files += sorted(p for p in (locales / code / "LC_MESSAGES").glob("*.po") if p.stem not in self.books)
        return tuple((str(p), _content(p)) for p in files if p.exists())

    def book_page(self, book_id: str, language: str) -> RenderedPage:
        if not self.keep_pages:  # made (or taken from the cache's folder) when it is written, and let go
            if self.kept is None:
                return self._book_page(book_id, language)
            return self.kept.value(self, "page", book_id, language, lambda: self._book_page(book_id, language), release=True)
        return self.remembered("page", book_id, language, lambda: self._book_page(book_id, language))

    def store_page(self, book_id: str, language: str) -> bool:
        """A one-off build's book page made now, unless kept already, and stored in the cache's
        folder, not held: :meth:`book_page` reads it when it is written. False: it cannot be kept."""
        if self.keep_pages or self.kept is None:
            return False
        return self.kept.store(self, book_id, language, lambda: self._book_page(book_id, language))

    def book_toc(self, book_id: str, language: str) -> tuple[TocEntry, ...]:
        """A book page's table of contents, without the page (MkDocs asks for it before the page's body)."""
        return self.remembered("toc", book_id, language, lambda: self.book_view(book_id, language).toc())

    def book_page_stub(self, book_id: str, language: str) -> RenderedPage:
        """A book page as a site's navigation lists it, without its body and table of contents
        (made by :meth:`book_page` when the page is written)."""
        key = (book_id, language)
        if key not in self._stubs:
            view = self.book_view(book_id, language)
            self._stubs[key] = RenderedPage("book", language, self.src_uri(language, book_id), view.url, view.plain(view.book, "title"),
                                            Markup(""), alternates=self.alternates(book_id), source_path=view.book.path)
        return self._stubs[key]

    def _book_page(self, book_id: str, language: str) -> RenderedPage:
        view = self.book_view(book_id, language)
        cache = current() if self.reuse and self.keep_worded else None
        if cache is not None:
            # The texts as the last page of this book and language worded them, while the site's
            # words and settings are the same; what this page words replaces them.
            inputs = self.book_inputs(book_id, language)
            slot = (str(Path(self.locales).resolve()), book_id, language)
            view.kept = cache.last(WORDED, slot, dict, settings=inputs["settings"], words=inputs["words"])
            view.worded = {}
        book, url = view.book, view.url
        html = self._render("book.html.j2", language, view=view, book=book, coverage=self.coverage(book_id, language),
                            departures_anchor=DEPARTURES_ANCHOR,
                            coverage_href=relative_url(url, self.url(language, "coverage")),
                            pdf_href=relative_url(url, self.pdf_url(language, book_id)) if self.pdf else "")
        page = RenderedPage("book", language, self.src_uri(language, book_id), url, view.plain(book, "title"), html,
                            toc=view.toc(), alternates=self.alternates(book_id), source_path=book.path)
        if view.kept is not None and view.worded is not None:
            # Only what this page shows is kept: never a history of a serve session's edits.
            view.kept.clear()
            view.kept.update(view.worded)
            view.kept = view.worded = None
        if view.lines is not None:
            view.lines.clear()  # the page asked each line last (a one-off build makes its search documents first)
        return page

    def printed_book(self, book_id: str, language: str, site_name: str = "") -> Markup:
        """A book as one HTML document to print (a PDF): its title, a table of contents whose
        entries a print stylesheet numbers with their pages, then every section, as on its page
        but with each worked example's proof folded to its outcome."""
        view = self.book_view(book_id, language)
        lang = self.languages.get(language)
        body = self._render("book.html.j2", language, view=view, book=view.book, coverage=self.coverage(book_id, language),
                            departures_anchor=DEPARTURES_ANCHOR,
                            coverage_href=relative_url(view.url, self.url(language, "coverage")), pdf_href="",
                            contents=self._render("contents.html.j2", language, toc=view.toc()), printed=True)
        return self._render("print.html.j2", language, body=body, title=view.plain(view.book, "title"), tag=lang.tag,
                            direction=lang.direction, site_name=site_name)

    def not_found(self, language: str, home_href: str) -> RenderedPage:
        """The text of the page a server shows for an address that has none (its 404 page)."""
        words = self.words(language)
        title = words.gettext("Page not found")
        # Every book, by an address that holds wherever the page is shown (home_href is absolute).
        index = self.url(language, "index")
        books = [{"href": home_href + relative_url(index, self.url(language, book_id)),
                  "title": self.book_title(book_id, language)}
                 for book_id in self.books]
        html = self._render("not_found.html.j2", language, title=title, home_href=home_href, books=books)
        return RenderedPage("not_found", language, "", "", escape(title.text), html)

    def anchors(self, book: Book) -> dict[str, Anchor]:
        """Where each id is, the same in every language; a page words it (:meth:`_BookView.label`)."""
        if book.id not in self._anchors:
            source = self.books[book.id]
            self._anchors[book.id] = indexed(source, "anchors", self.source.code, source.anchors)
        return self._anchors[book.id]

    def outcome(self, book_id: str, example_id: str) -> Outcome | None:
        return self._outcomes.get((book_id, example_id))


class _BookView:
    """What the book template asks for: texts with their translation state, links, proofs."""

    def __init__(self, site: Site, book: Book, language: str, url: str, translated: TranslatedBook | None):
        self.site, self.book, self.language, self.url = site, book, language, url
        self.words = site.words(language)
        self.symbols = site.symbol_set(book.id, language)
        self.keys = indexed(book, _SHOWN_INDEXES[0], language, lambda: _keys(book))
        self.fallback = translated.fallback if translated else frozenset()
        self.outdated = translated.outdated if translated else frozenset()
        self._rule_links: dict[str, Markup] = {}
        self._previews: dict[tuple[str, str], str] = {}
        self._plain: dict[str, str] = {}
        #: The book's texts' lines as parsed, while its search documents, glossary uses and page
        #: are made: each line parsed once for its plain words and its HTML (dropped with the page).
        #: Only where the page is made right after them (a one-off build storing its pages, or
        #: serve): else every book's lines, in every language, would wait for its page.
        self.lines: Lines | None = {} if site.keep_pages or (site.kept is not None and not site.pdf) else None
        #: While a page is made under a serve session: the texts its last version worded, and this one's.
        self.kept: dict[tuple[str, str, str, bool], Worded] | None = None
        self.worded: dict[tuple[str, str, str, bool], Worded] | None = None
        #: Under a serve session: this book's texts as the last rebuilds worded them (render.kept).
        self.texts_kept: KeptTexts | None = None

    @cached_property
    def terms(self) -> BookTerms:
        """The page's links to the glossary: made when a text is worded (a view asked only for
        the inputs of a kept page, or for the home page's titles, links none)."""
        return BookTerms(self.site, self.book, self.language, self.url)

    def _locate(self, ref: XRef) -> tuple[Book, str, Anchor] | None:
        """The book a cross-reference leads into, its link from this page, and its anchor there."""
        book_id = ref.book or self.book.id
        if book_id == self.book.id:
            target_book, href = self.book, f"#{ref.target}"
        elif book_id in self.site.books:
            target_book, _ = self.site.shown(book_id, self.language)
            href = relative_url(self.url, self.site.url(self.language, book_id)) + f"#{ref.target}"
        else:
            return None
        anchor = self.site.anchors(target_book).get(ref.target)
        return None if anchor is None else (target_book, href, anchor)

    def _numbered(self, ref: XRef) -> Target | None:
        """A cross-reference as plain text needs its number only (and a preview would plain
        its target's text, whose references would want previews in turn)."""
        found = self._locate(ref)
        return None if found is None else Target(found[1], self.label(found[2]))

    def resolve(self, ref: XRef) -> Target | None:
        """Where a cross-reference leads, the number it shows, and on hover a preview of what it
        names (its title and first sentence, in the page's language; another book's named too)."""
        found = self._locate(ref)
        if found is None:
            return None
        target_book, href, anchor = found
        number = self.label(anchor)
        key = (target_book.id, ref.target)
        if key not in self._previews:  # a book cites the same rules again and again
            if target_book.id == self.book.id:
                self._previews[key] = preview(number, self.nodes.get(ref.target), self.plain_text)
            else:
                there = self.site.book_view(target_book.id, self.language)
                told = preview(number, there.nodes.get(ref.target), there.plain_text)
                self._previews[key] = f"{there.plain_text(target_book.title)} {told}"
        return Target(href, number, title=self._previews[key])

    @cached_property
    def nodes(self) -> dict[str, Node]:
        return indexed(self.book, _SHOWN_INDEXES[1], self.language, lambda: nodes_by_id(self.book))

    def number_id(self, node: Node) -> str:
        """The id that makes a section's or rule's number its permalink (``#5.8``), unless the
        number is already its id or another's (a book numbered by its ids, as Casting's 601.2f)."""
        number = getattr(node, "number", "")
        return number if number and number not in self.site.anchors(self.book) else ""

    def label(self, anchor: Anchor) -> str:
        """Where an anchor is, in the page's language: "3.2", "3.2, ruling 1", "3.2, example 2"."""
        if anchor.kind == "ruling":
            # Translators: a reference to a ruling: the number of its rule, then which of that rule's rulings it is (1, 2…).
            return self.words.gettext("{rule}, ruling {n}", rule=anchor.number, n=anchor.index).text
        if anchor.kind == "example":
            # Translators: a reference to a worked example: the number of its rule, then which of that rule's examples it is (1, 2…).
            return self.words.gettext("{rule}, example {n}", rule=anchor.number, n=anchor.index).text
        return anchor.number

    def state(self, node: Node, field_name: str) -> str:
        context = message_context(self.keys[id(node)], field_name)
        if context in self.outdated:
            return "outdated"
        if context in self.fallback:
            return "fallback"
        return "translated"

    def plain(self, node: Node, field_name: str) -> Markup:
        """A field as escaped plain text, for the page title in the head and the nav."""
        return escape(self.plain_text(getattr(node, field_name)))

    def plain_text(self, text: str) -> str:
        """A text as plain words: symbols by their names, cross-references by their numbers
        (worded once: the page's previews, the search documents and the glossary ask again)."""
        if not text:
            return ""
        found = self._plain.get(text)
        if found is None:
            if self.texts_kept is None:
                found = text_to_plain(text, self.words, self._numbered, self.symbols, lines=self.lines)
            else:
                found = self.texts_kept.plain_text(text, self._numbered, lambda numbered: text_to_plain(text, self.words, numbered, self.symbols,
                                                                                                         lines=self.lines))
            self._plain[text] = found
        return found

    def terms_used(self, key: tuple[str, str, str], make: Callable[[], tuple[str, ...]]) -> tuple[str, ...]:
        """The glossary anchors of the terms a text uses (render.glossary.book_uses), kept under serve."""
        return make() if self.texts_kept is None else self.texts_kept.terms_used(key, make)

    def toc_title(self, node: Section | Rule) -> Markup:
        """A heading for the table of contents: icons, but no links (it is a link itself)."""
        return text_to_html(node.title, None, language=self.words, inline=True, symbols=self.symbols, lines=self.lines)

    def text(self, node: Node, field_name: str, *, inline: bool = False) -> Markup:
        state = self.state(node, field_name)
        if self.worded is None or self.kept is None:
            return self._text(node, field_name, state, inline, self.resolve)
        key = (getattr(node, field_name), self.terms.source_text(node, field_name), state, inline)
        found = self.worded.get(key) or self.kept.get(key)
        # Kept, it still holds while each cross-reference it resolved leads where it led.
        if found is None or any(self.resolve(ref) != target for ref, target in found[1]):
            resolved: list[tuple[XRef, Target | None]] = []

            def resolve(ref: XRef) -> Target | None:
                target = self.resolve(ref)
                resolved.append((ref, target))
                return target

            found = (self._text(node, field_name, state, inline, resolve), tuple(resolved))
        self.worded[key] = found
        return found[0]

    def _text(self, node: Node, field_name: str, state: str, inline: bool, resolve: Callable[[XRef], Target | None]) -> Markup:
        # A title is never linked; a text that fell back is in the source language, its terms too.
        terms = None if inline else self.terms.links(node, field_name, self.site.source.code if state == "fallback" else self.language)
        html = text_to_html(getattr(node, field_name), resolve, language=self.words, inline=inline, symbols=self.symbols,
                            terms=terms, lines=self.lines)
        if state == "translated":
            return html
        source = self.site.source
        if state == "outdated":
            badge = self.words.gettext("translation outdated: the original has changed")
        else:
            badge = self.words.gettext("not translated yet: shown in {language}", language=source)
        # The source text keeps its own lang; the badge, in the reader's language, sits beside it.
        return untranslated_html(state, source.tag, badge, html, inline=inline)

    def proof(self, example_id: str, doctest: str) -> dict[str, object]:
        outcome = self.site.outcome(self.book.id, example_id)
        status = "not_run" if outcome is None else ("passed" if outcome.passed else "failed")
        return {
            "status": status,
            "label": self._status_label(status),
            "steps": self._steps(outcome) if outcome is not None else [],
            "code": highlight_doctest(doctest),
            "report": outcome.report() if outcome is not None and not outcome.passed else "",
        }

    def _steps(self, outcome: Outcome) -> list[Markup]:
        """A proof's steps; under serve, kept while the outcome and the rules it names are unchanged (render.kept)."""
        if self.texts_kept is None:
            return proof_steps(outcome.records, self.speech, self.rule_link)
        return self.texts_kept.proof_steps(outcome, self.rule_link, lambda link: proof_steps(outcome.records, self.speech, link))

    @cached_property
    def speech(self) -> EngineSpeech:
        return self.site.speech(self.book.id, self.language)

    @cached_property
    def _named(self) -> dict[str, Rule | Ruling]:
        """What a step of a proof may name: the book's rules and rulings, by id."""
        named: dict[str, Rule | Ruling] = {}
        for rule in self.book.rules():
            named[rule.id] = rule
            named.update((ruling.id, ruling) for ruling in rule.rulings)
        return named

    def rule_link(self, rule_id: str) -> Markup:
        """A rule or a ruling named by a step of a proof: where it is, in the page's language, linked
        to it; on hover a rule's title, or a ruling's text."""
        if rule_id not in self._rule_links:  # a proof names the same few rules again and again
            anchor = self.site.anchors(self.book).get(rule_id)
            named = self._named.get(rule_id)
            if anchor is None or named is None:
                return escape(rule_id)
            hover = named.title if isinstance(named, Rule) else named.text
            title = self.plain_text(hover) if hover else ""
            self._rule_links[rule_id] = Markup(
                f'<a class="rb-step-link" href="#{escape(rule_id)}" title="{escape(title)}">{escape(self.label(anchor))}</a>')
        return self._rule_links[rule_id]

    def _status_label(self, status: str) -> Phrase:
        # A badge a player reads: whether the engine checked the example, not a test's verdict.
        # Translators: the outcome of a worked example's check by the engine when the site was built.
        if status == "passed":
            return self.words.pgettext("example outcome", "checked")
        # Translators: the engine ran the example and it did not come out as the book says.
        if status == "failed":
            return self.words.pgettext("example outcome", "check failed")
        # Translators: the example was not run when the site was built.
        return self.words.pgettext("example outcome", "not checked")

    def figure(self, example_id: str) -> ExampleFigure | None:
        """An example's boards (before and after, when its pieces moved), each drawn and said in
        words, and their legend."""
        outcome = self.site.outcome(self.book.id, example_id)
        if outcome is None or outcome.figure is None:
            return None
        return example_figure(outcome.before, outcome.figure, self.words, self.speech.plain)

    def departures(self) -> list[dict[str, object]]:
        """The rulings that depart from the source's words, in book order, with their numbers."""
        numbers = self.site.anchors(self.book)
        return [{"rule": rule, "ruling": ruling, "number": self.label(numbers[ruling.id]), "dash": _has_its_own_stop(self.plain_text(rule.title))}
                for rule in self.book.rules() for ruling in rule.rulings if ruling.departs]

    def toc(self) -> tuple[TocEntry, ...]:
        """The page's table of contents (made once: MkDocs asks for it before the page's body)."""
        return self._toc

    @cached_property
    def _toc(self) -> tuple[TocEntry, ...]:
        entries = []
        for section in self.book.sections:
            rules = tuple(
                TocEntry(rule.id, escape(f"{rule.number} ") + (self.toc_title(rule) if rule.title else Markup("")), 3)
                for rule in section.rules
            )
            entries.append(TocEntry(section.id, escape(f"{section.number} ") + self.toc_title(section), 2, rules))
        if self.departures():
            entries.append(TocEntry(DEPARTURES_ANCHOR, escape(self.words.gettext("Where this book decides").text), 2))
        return tuple(entries)


def _content(path: Path) -> bytes:
    """A file's bytes, as the limited reader gives them; for one it refuses, why (reported where it is read)."""
    try:
        return read_limited(path, str(path))
    except LoadError as exc:
        return str(exc).encode("utf-8", "surrogatepass")


def _has_its_own_stop(title: str) -> bool:
    """A title that ends in its own stop ("Qu'est-ce qu'une capacité de mana ?") or has a colon
    ("As : Éclair magique") is set off from what follows by a dash, never a second colon (review-fr S-1)."""
    return title.rstrip().endswith(("?", "!", "…", ":")) or ":" in title
