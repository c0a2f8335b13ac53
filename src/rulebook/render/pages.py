"""Pages of the site, rendered from the model through Jinja2. Knows nothing of MkDocs.

A :class:`Site` holds the books, the outcome of every worked example and where the catalogs
are; it renders, per language, a home page, one page per book and a translation coverage
page. Each :class:`RenderedPage` says where it lives (``src_uri``/``url``, the Italian one at
the root, the others under ``/<lang>/``), its escaped title, its body HTML, its table of
contents and its alternates in the other languages. A publisher (the MkDocs adapter, or a
successor) only has to place these.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Callable, Iterable, Mapping, Sequence

import jinja2
from markupsafe import Markup, escape
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import PythonConsoleLexer

from ..examples import Outcome
from ..model import SOURCE_LANGUAGE, Book, Node, XRef, message_context, translatable_fields, walk
from .figures import board_svg
from .text import Target, text_to_html, text_to_plain
from ..i18n.translate import TranslatedBook, translate_book
from .ui import LANGUAGES, ui

_ENV = jinja2.Environment(
    loader=jinja2.PackageLoader("rulebook.render", "templates"),
    autoescape=True,  # every {{ }} is escaped unless it is Markup we built
    undefined=jinja2.StrictUndefined,
    trim_blocks=True,
    lstrip_blocks=True,
)
_FORMATTER = HtmlFormatter(cssclass="highlight", wrapcode=True)


@lru_cache(maxsize=4096)
def highlight_doctest(doctest: str) -> Markup:
    """A doctest as highlighted HTML; the same in every language, so made once."""
    return Markup(highlight(doctest, PythonConsoleLexer(), _FORMATTER))


@dataclass(frozen=True)
class TocEntry:
    id: str
    title: Markup  # inline HTML: escaped text and symbol icons, no links
    level: int
    children: tuple["TocEntry", ...] = ()


@dataclass(frozen=True)
class Alternate:
    language: str
    name: str
    url: str  # site-relative URL of the same page in that language


@dataclass(frozen=True)
class RenderedPage:
    kind: str  # home | book | coverage
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


def prefix(language: str) -> str:
    return "" if language == SOURCE_LANGUAGE else f"{language}/"


def relative_url(from_url: str, to_url: str) -> str:
    """A link from one site-relative URL to another (``en/bingomagic/`` -> ``../casting/``)."""
    base = from_url if from_url.endswith("/") or not from_url else posixpath.dirname(from_url) + "/"
    path, _, fragment = to_url.partition("#")
    rel = posixpath.relpath(path or ".", base.rstrip("/") or ".")
    if path.endswith("/") or not path:
        rel = "./" if rel == "." else rel + "/"
    return rel + (f"#{fragment}" if fragment else "")


def _keys(book: Book) -> dict[int, str]:
    return {id(node): key for key, node in walk(book)}


@dataclass
class Site:
    books: Mapping[str, Book]
    outcomes: Sequence[Outcome] = ()
    locales: Path = Path("locales")
    languages: Sequence[str] = tuple(LANGUAGES)
    directory_urls: bool = True
    translate: Callable[[Book, str, Path], TranslatedBook] = translate_book
    _translated: dict[tuple[str, str], TranslatedBook] = field(default_factory=dict, repr=False)
    _anchors: dict[str, dict[str, str]] = field(default_factory=dict, repr=False)

    # --- where things live ---------------------------------------------------------------
    def src_uri(self, language: str, name: str) -> str:
        return f"{prefix(language)}{name}.md"

    def url(self, language: str, name: str) -> str:
        stem = "" if name == "index" else name
        if self.directory_urls:
            return f"{prefix(language)}{stem}/" if stem else prefix(language)
        return f"{prefix(language)}{name}.html"

    # --- data ----------------------------------------------------------------------------
    def translated(self, book_id: str, language: str) -> TranslatedBook:
        key = (book_id, language)
        if key not in self._translated:
            self._translated[key] = self.translate(self.books[book_id], language, self.locales)
        return self._translated[key]

    @cached_property
    def _outcomes(self) -> dict[tuple[str, str], Outcome]:
        return {(o.book.id, o.example.id): o for o in self.outcomes}

    def coverage(self, book_id: str, language: str) -> Coverage:
        total = sum(1 for _, node in walk(self.books[book_id]) for _ in translatable_fields(node))
        if language == SOURCE_LANGUAGE:
            return Coverage(book_id, language, total, total, 0, 0)
        tb = self.translated(book_id, language)
        fallback = len(tb.fallback)
        return Coverage(book_id, language, total, total - fallback, len(tb.outdated), fallback)

    def alternates(self, name: str) -> tuple[Alternate, ...]:
        return tuple(Alternate(lang, LANGUAGES.get(lang, lang), self.url(lang, name)) for lang in self.languages)

    # --- pages ---------------------------------------------------------------------------
    def pages(self, language: str) -> list[RenderedPage]:
        pages = [self.home(language)]
        pages.extend(self.book_page(book_id, language) for book_id in self.books)
        pages.append(self.coverage_page(language))
        return pages

    def all_pages(self) -> Iterable[RenderedPage]:
        for language in self.languages:
            yield from self.pages(language)

    def home(self, language: str) -> RenderedPage:
        words = ui(language)
        url = self.url(language, "index")
        entries = []
        for book_id in self.books:
            tb = self.translated(book_id, language) if language != SOURCE_LANGUAGE else None
            book = tb.book if tb else self.books[book_id]
            view = _BookView(self, book, language, url, tb)
            results = [self._outcomes.get((book_id, e.id)) for _, e in book.examples()]
            entries.append(
                {
                    "href": relative_url(url, self.url(language, book_id)),
                    "title": view.text(book, "title", inline=True),
                    "summary": view.text(book, "summary"),
                    "examples": len(results),
                    "passed": sum(1 for r in results if r is not None and r.passed),
                }
            )
        html = _ENV.get_template("home.html.j2").render(
            ui=words, books=entries, coverage_href=relative_url(url, self.url(language, "coverage"))
        )
        return RenderedPage("home", language, self.src_uri(language, "index"), url, escape(words["home"]), Markup(html),
                            alternates=self.alternates("index"))

    def coverage_page(self, language: str) -> RenderedPage:
        words = ui(language)
        url = self.url(language, "coverage")
        rows = []
        for book_id, book in self.books.items():
            shown = self.translated(book_id, language).book if language != SOURCE_LANGUAGE else book
            title = escape(text_to_plain(shown.title, language))
            for lang in self.languages:
                cov = self.coverage(book_id, lang)
                rows.append({"cov": cov, "language": LANGUAGES.get(lang, lang),
                             "href": relative_url(url, self.url(lang, book_id)), "book_title": title})
        html = _ENV.get_template("coverage.html.j2").render(ui=words, rows=rows)
        return RenderedPage("coverage", language, self.src_uri(language, "coverage"), url, escape(words["coverage"]),
                            Markup(html), alternates=self.alternates("coverage"))

    def book_page(self, book_id: str, language: str) -> RenderedPage:
        tb = self.translated(book_id, language) if language != SOURCE_LANGUAGE else None
        book = tb.book if tb else self.books[book_id]
        url = self.url(language, book_id)
        view = _BookView(self, book, language, url, tb)
        coverage = self.coverage(book_id, language)
        html = _ENV.get_template("book.html.j2").render(view=view, book=book, ui=view.ui, coverage=coverage,
                                                        coverage_href=relative_url(url, self.url(language, "coverage")))
        return RenderedPage("book", language, self.src_uri(language, book_id), url, view.plain(book, "title"), Markup(html),
                            toc=view.toc(), alternates=self.alternates(book_id), source_path=book.path)

    def anchors(self, book: Book) -> dict[str, str]:
        """Numbers shown for each id; the same in every language (numbers are not translated)."""
        if book.id not in self._anchors:
            self._anchors[book.id] = self.books[book.id].anchors()
        return self._anchors[book.id]

    def outcome(self, book_id: str, example_id: str) -> Outcome | None:
        return self._outcomes.get((book_id, example_id))


class _BookView:
    """What the book template asks for: texts with their translation state, links, proofs."""

    def __init__(self, site: Site, book: Book, language: str, url: str, translated: TranslatedBook | None):
        self.site, self.book, self.language, self.url = site, book, language, url
        self.ui = ui(language)
        self.keys = _keys(book)
        self.fallback = translated.fallback if translated else frozenset()
        self.outdated = translated.outdated if translated else frozenset()

    def resolve(self, ref: XRef) -> Target | None:
        book_id = ref.book or self.book.id
        if book_id == self.book.id:
            target_book, href = self.book, f"#{ref.target}"
        elif book_id in self.site.books:
            tb = self.site.translated(book_id, self.language) if self.language != SOURCE_LANGUAGE else None
            target_book = tb.book if tb else self.site.books[book_id]
            href = relative_url(self.url, self.site.url(self.language, book_id)) + f"#{ref.target}"
        else:
            return None
        number = self.site.anchors(target_book).get(ref.target)
        if number is None:
            return None
        return Target(href, number, title=f"{target_book.title} {number}" if book_id != self.book.id else number)

    def state(self, node: Node, field_name: str) -> str:
        context = message_context(self.keys[id(node)], field_name)
        if context in self.outdated:
            return "outdated"
        if context in self.fallback:
            return "fallback"
        return "translated"

    def plain(self, node: Node, field_name: str) -> Markup:
        """A field as escaped plain text, for the page title in the head and the nav."""
        return escape(text_to_plain(getattr(node, field_name), self.language))

    def toc_title(self, node: Node) -> Markup:
        """A heading for the table of contents: icons, but no links (it is a link itself)."""
        return text_to_html(node.title, None, language=self.language, inline=True)

    def text(self, node: Node, field_name: str, *, inline: bool = False) -> Markup:
        html = text_to_html(getattr(node, field_name), self.resolve, language=self.language, inline=inline)
        state = self.state(node, field_name)
        if state == "translated":
            return html
        badge = self.ui["outdated.badge" if state == "outdated" else "fallback.badge"]
        # The Italian text keeps lang="it"; the badge, in the reader's language, sits beside it.
        if inline:
            return Markup(
                '<span class="rb-untranslated rb-untranslated--{0}" data-rb-state="{0}"><span lang="{1}">{3}</span>'
                ' <abbr class="rb-badge rb-badge--{0}" title="{2}">{1}</abbr></span>'
            ).format(state, SOURCE_LANGUAGE, badge, html)
        return Markup(
            '<div class="rb-untranslated rb-untranslated--{0}" data-rb-state="{0}"><div lang="{1}">{3}</div>'
            '<p class="rb-badge rb-badge--{0}">{2}</p></div>'
        ).format(state, SOURCE_LANGUAGE, badge, html)

    def proof(self, example_id: str, doctest: str) -> dict[str, object]:
        outcome = self.site.outcome(self.book.id, example_id)
        status = "not_run" if outcome is None else ("passed" if outcome.passed else "failed")
        return {
            "status": status,
            "label": self.ui[status],
            "code": highlight_doctest(doctest),
            "report": outcome.report() if outcome is not None and not outcome.passed else "",
        }

    def figure(self, example_id: str) -> Markup | None:
        outcome = self.site.outcome(self.book.id, example_id)
        if outcome is None or outcome.figure is None:
            return None
        return board_svg(outcome.figure, label=self.ui["board"])

    def toc(self) -> tuple[TocEntry, ...]:
        entries = []
        for section in self.book.sections:
            rules = tuple(
                TocEntry(rule.id, escape(f"{rule.number} ") + (self.toc_title(rule) if rule.title else Markup("")), 3)
                for rule in section.rules
            )
            entries.append(TocEntry(section.id, escape(f"{section.number} ") + self.toc_title(section), 2, rules))
        return tuple(entries)
