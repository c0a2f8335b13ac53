"""The glossary page of each language, built from ``locales/glossary.yaml``, and the links to it.

A project whose glossary lists game terms gets a page per language (none without one): each
term under its headword in that language (``Term.headword``: data, never a prefix form the
checks match by), in that language's alphabetical order, with its headwords in the site's other
languages and the rules that use it. The other forms the checks accept (plurals, cases,
«del danno») are the checks' business, not words a reader looks up: the page leaves them out,
the search index keeps the whole ones, so that a reader who types one finds the entry. A rule's texts link
the first use of each term to its entry (a heading, a title or a proof never: only the texts a
reader reads as prose). Which terms a text uses is what the glossary's checks find in its source
text; where, is found in the text shown. Card names (from an engine's card data) are names, not
terms: they have no entry.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from markupsafe import Markup, escape

from ..cache import kind, memoized
from ..i18n.forms import as_shown
from ..i18n.glossary import WORD_START, Glossary, Term
from ..languages import Language
from ..model import Book, Node
from .kept import indexed
from .previews import nodes_by_id
from .ui import Words
from .urls import relative_url


class _View(Protocol):
    """What the glossary reads of a book as a page shows it (pages' book view)."""

    @property
    def book(self) -> Book: ...
    def plain_text(self, text: str) -> str: ...
    def state(self, node: Node, field_name: str) -> str: ...
    def terms_used(self, key: tuple[str, str, str], make: Callable[[], tuple[str, ...]]) -> tuple[str, ...]: ...


class Site(Protocol):
    """What the glossary reads of the site (pages.Site, which imports this module)."""

    @property
    def books(self) -> Mapping[str, Book]: ...
    @property
    def glossary(self) -> Glossary: ...
    @property
    def term_anchors(self) -> dict[int, str]: ...
    @property
    def source(self) -> Language: ...
    def url(self, language: str, name: str) -> str: ...
    def words(self, language: str) -> Words: ...
    def book_view(self, book_id: str, language: str) -> _View: ...
    def glossary_uses(self, book_id: str, language: str) -> tuple[BookUse, ...]: ...
    def render_template(self, template: str, language: str, **context: object) -> Markup: ...

#: The glossary page's name (``glossary/`` under each language's root).
GLOSSARY = "glossary"


@dataclass(frozen=True)
class Entry:
    """One term as the glossary page of one language shows it."""

    anchor: str  # the entry's id, the same in every language (from the source language's headword)
    term: Term
    name: str  # the term's headword in the page's language
    forms: tuple[str, ...]  # its other whole forms there ("lands"), for the search index; never a prefix form


@dataclass(frozen=True)
class Named:
    """A term's headword in another language ("English", "en", "land")."""

    name: str
    tag: str
    forms: str


@dataclass(frozen=True)
class Use:
    """A rule that uses a term: its link from the glossary page and its label ("Strage 5.8")."""

    href: str
    label: str


@dataclass(frozen=True)
class ShownEntry:
    """An entry as the glossary page and the search index show it."""

    anchor: str
    name: str
    forms: str
    others: tuple[Named, ...]
    uses: tuple[Use, ...]
    more: int = 0  # the rules that use it beyond those listed (MAX_USES): said, never dropped in silence


def _sort_key(name: str) -> tuple[str, str]:
    # Letters before their accents ("dé" beside "de"), case ignored: the order of a dictionary.
    bare = "".join(c for c in unicodedata.normalize("NFD", name) if not unicodedata.combining(c))
    return bare.casefold(), name


def anchors(glossary: Glossary) -> dict[int, str]:
    """Each game term's entry id (by ``id(term)``), from its headword in the source language: the
    same on every language's page, so a link keeps its place when the reader switches language."""
    found: dict[int, str] = {}
    taken: set[str] = set()
    for term in glossary.terms:
        if term.card or not term.forms.get(glossary.source):
            continue
        base = "term-" + "-".join(term.headword(glossary.source).lower().split())
        anchor, n = base, 1
        while anchor in taken:
            n += 1
            anchor = f"{base}-{n}"
        taken.add(anchor)
        found[id(term)] = anchor
    return found


def entries(glossary: Glossary, language: str, books: Iterable[str]) -> list[Entry]:
    """The entries of ``language``'s page, in its alphabetical order: every game term (not a
    card name) with a form in that language that binds one of ``books``, under its headword."""
    shown = set(books)
    ids = anchors(glossary)
    found: list[Entry] = []
    for term in glossary.terms:
        forms = term.forms.get(language, ())
        if id(term) not in ids or not forms or (term.books and not term.books & shown):
            continue
        name = term.headword(language)
        others = tuple(form for form in forms if not form.endswith("*") and form.casefold() != name.casefold())
        found.append(Entry(ids[id(term)], term, name, others))
    return sorted(found, key=lambda entry: _sort_key(entry.name))


@memoized(kind("term pattern", ("pattern",), "a glossary term's pattern in a language, compiled once per session: "
              "a pattern per set of terms a text uses was 900 compiles on the repository's site, a fifth of its build"))
def _compiled(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


@dataclass
class TermFinder:
    """Finds the terms of one language in a text, leftmost first; at one place, the longest
    ("mana value" before "mana", whatever the glossary's order: the reader clicks the concept the
    text names), then the first term; from each term's own pattern."""

    terms: tuple[Term, ...]
    language: str
    _patterns: tuple[tuple[int, re.Pattern[str], Search], ...] | None = field(default=None, init=False, repr=False)

    @property
    def patterns(self) -> tuple[tuple[int, re.Pattern[str], Search], ...]:
        """(the term's index in ``terms``, its pattern, its scout: :class:`_Next`) of each term
        with a form in the language; made once per finder, not once per text searched."""
        if self._patterns is None:
            self._patterns = tuple((i, pattern, _compiled(pattern.pattern.replace(WORD_START, "")).search)
                                   for i, t in enumerate(self.terms) if t.pattern(self.language)
                                   for pattern in (_compiled(t.pattern(self.language)),))
        return self._patterns

    def find(self, text: str, wanted: Collection[int] | None = None) -> Iterator[tuple[int, re.Match[str]]]:
        """(the term's index in ``terms``, where it is), leftmost first, never overlapping.
        ``wanted``: the terms the caller still looks for (it takes out those it found): the
        search ends when none of them is left in the rest of the text, whatever the others."""
        ahead = [entry for index, pattern, scout in self.patterns if (entry := _Next(index, pattern, scout, text)).found is not None]
        looked_for = wanted if wanted is not None else ()
        position = 0
        while ahead:
            chosen: _Next | None = None
            start = end = 0
            gone = False
            left = wanted is None  # whether a term still wanted has a match left: else the others' only hide them
            for entry in ahead:
                left = left or entry.index in looked_for
                found = entry.found
                if found is None or found.start() < position:  # overlapped by the last one: look again from its end
                    found = entry.found = entry.search(text, position)
                    if found is None:  # none left: none later either
                        gone = True
                        continue
                if chosen is None or found.start() < start or (found.start() == start and found.end() > end):
                    chosen, start, end = entry, found.start(), found.end()
            if chosen is None or chosen.found is None or not left:
                return
            yield chosen.index, chosen.found
            position = end if end > start else start + 1
            if gone:
                ahead = [entry for entry in ahead if entry.found is not None]

    def first_uses(self, text: str, wanted: Iterable[int]) -> Iterator[tuple[int, re.Match[str]]]:
        """Each ``wanted`` term's first use in ``text`` (as :meth:`find` places it), in the order of
        the text: the search ends when every one is found or none left has a match ahead."""
        left = set(wanted)
        for index, match in self.find(text, left):
            if index in left:
                left.discard(index)
                yield index, match
                if not left:
                    return


#: A compiled pattern's search (``re.Pattern.search``).
Search = Callable[[str, int], "re.Match[str] | None"]


class _Next:
    """One term's next match in a text (:meth:`TermFinder.find`), kept until the text read passes its start.

    Looked for where its pattern less its word-start tests (``(?<!\\w)``) matches, then matched
    there: a pattern that starts with a lookbehind is tried at every place of the text (twice
    the time of one that starts with a letter, and the searches were most of a book page's
    time); the lookbehind only narrows where a match may start, so every match of the pattern is
    one of the scout's places, and the first that matches there is the pattern's next match."""

    __slots__ = ("found", "index", "match", "scout")

    def __init__(self, index: int, pattern: re.Pattern[str], scout: Search, text: str) -> None:
        self.index, self.match, self.scout = index, pattern.match, scout
        self.found: re.Match[str] | None = self.search(text, 0)

    def search(self, text: str, position: int) -> re.Match[str] | None:
        """The pattern's first match from ``position`` on (what ``pattern.search`` finds)."""
        while (place := self.scout(text, position)) is not None:
            found = self.match(text, place.start())
            if found is not None:
                return found
            position = place.start() + 1
        return None


@dataclass
class TermLinks:
    """Where a text's terms link: each term's first use in one rule or section, to its entry."""

    finder: TermFinder
    hrefs: dict[int, str]  # a term's index -> its entry's URL, relative to the page
    linked: set[int] = field(default_factory=set)

    def pieces(self, text: str) -> Iterator[tuple[str, str | None]]:
        """``text`` cut into (piece, href): an href where a piece is a term's first use."""
        if self.linked.issuperset(self.hrefs):  # every term linked already: nothing left to find (most pieces of a rule)
            if text:
                yield text, None
            return
        start = 0
        for index, match in self.finder.first_uses(text, set(self.hrefs).difference(self.linked)):
            self.linked.add(index)
            if match.start() > start:
                yield text[start:match.start()], None
            yield match.group(), self.hrefs[index]
            start = match.end()
        if start < len(text):
            yield text[start:], None


    def cut(self, texts: Sequence[str]) -> list[list[tuple[str, str | None]]]:
        """Each of ``texts`` (the pieces of one text between its symbols, cross-references and
        emphasis marks, in order) cut as :meth:`pieces` cuts them one after the other, in one
        search of them all: a search of every term per piece was half the time of a book page
        (192k finds and 689k searches for the 5 x 200 corpus's pages).

        The pieces are joined by a character no term's pattern matches (its words are letters, its
        spacing ``\\s``, its ends lookarounds on ``\\w``), so no match runs from one piece into the
        next and each piece's matches are its own. Where one might (a piece or a form holding
        that character, an empty match), the pieces are searched one by one."""
        if self.linked.issuperset(self.hrefs):  # every term linked already: nothing left to find
            return [[(text, None)] if text else [] for text in texts]
        if any(_JOIN in text for text in texts):
            return [list(self.pieces(text)) for text in texts]
        joined = _JOIN.join(texts)
        wanted = set(self.hrefs).difference(self.linked)
        taken: list[tuple[int, int, str]] = []  # (start, end, href) of each first use, in the joined text
        # Every match looked at, not only the first uses (first_uses): any one across a join falls back.
        for index, match in self.finder.find(joined, wanted):
            start, end = match.span()
            if start == end or joined.find(_JOIN, start, end) != -1:
                return [list(self.pieces(text)) for text in texts]
            if index in wanted:
                wanted.discard(index)
                taken.append((start, end, self.hrefs[index]))
                if not wanted:
                    break
        self.linked.update(self.hrefs.keys() - wanted)
        cuts: list[list[tuple[str, str | None]]] = []
        next_use, base = 0, 0
        for text in texts:
            end, at = base + len(text), base
            pieces: list[tuple[str, str | None]] = []
            while next_use < len(taken) and taken[next_use][0] < end:
                use_start, use_end, href = taken[next_use]
                if use_start > at:
                    pieces.append((joined[at:use_start], None))
                pieces.append((joined[use_start:use_end], href))
                at, next_use = use_end, next_use + 1
            if at < end:
                pieces.append((joined[at:end], None))
            cuts.append(pieces)
            base = end + 1
        return cuts


#: What joins the pieces of a text for one search (:meth:`TermLinks.cut`).
_JOIN = "\x00"


class BookTerms:
    """One book page's links to the glossary: which terms a text uses is read in its source text
    (the glossary's own scan, remembered per text), where they are in the text shown."""

    def __init__(self, site: Site, book: Book, language: str, url: str) -> None:
        self.site, self.language = site, language
        self.glossary = site.glossary.for_book(book.id)
        source = site.books[book.id]
        self.sources: dict[str, Node] = indexed(source, "sources", site.source.code, lambda: {book.id: source, **nodes_by_id(source)})
        self.anchors = site.term_anchors
        self.base = relative_url(url, site.url(language, GLOSSARY))
        self._finders: dict[tuple[tuple[int, ...], str], TermFinder] = {}

    def source_text(self, node: Node, field_name: str) -> str:
        """The source language's text of a field, where the terms it uses are read."""
        source = self.sources.get(getattr(node, "id", ""))
        return getattr(source, field_name, "") if source is not None else ""

    def terms(self, node: Node, field_name: str) -> tuple[Term, ...]:
        text = self.source_text(node, field_name)
        return tuple(t for t in self.glossary.used(text)[1] if id(t) in self.anchors) if text else ()

    def finder(self, terms: tuple[Term, ...], language: str) -> TermFinder:
        key = (tuple(map(id, terms)), language)
        if key not in self._finders:
            self._finders[key] = TermFinder(terms, language)
        return self._finders[key]

    def links(self, node: Node, field_name: str, language: str) -> TermLinks | None:
        """The links of one text field shown in ``language`` (the source's, where it fell back)."""
        if not self.anchors:
            return None
        terms = self.terms(node, field_name)
        if not terms:
            return None
        return TermLinks(self.finder(terms, language), {i: f"{self.base}#{self.anchors[id(t)]}" for i, t in enumerate(terms)})


#: The prose fields of a rule whose terms the glossary lists the rule under.
_PROSE = ("text",)


@dataclass(frozen=True)
class BookUse:
    """One term's uses in one book: its entry and the rules that use it, in book order, each
    once, at most :data:`MAX_USES`, and how many rules use it in all."""

    anchor: str
    uses: tuple[Use, ...]
    count: int


def book_uses(site: Site, book_id: str, language: str) -> tuple[BookUse, ...]:
    """Every game term's uses in one book's rule texts in ``language`` (a rule's text, its
    rulings', its examples'): a book's share of the glossary page, made again only when the
    book's page is (pages.Site.glossary_uses)."""
    view = site.book_view(book_id, language)
    terms = BookTerms(site, view.book, language, site.url(language, GLOSSARY))
    book_title = view.plain_text(view.book.title)
    href = relative_url(site.url(language, GLOSSARY), site.url(language, book_id))
    uses: dict[str, dict[Use, None]] = {}
    counted: dict[str, Use] = {}
    counts: dict[str, int] = {}  # per term, the last rule counted: a rule's texts come one after the other
    for rule in (r for s in view.book.sections for r in s.rules):
        texts: list[tuple[Node, str]] = [(rule, "text"), *((ruling, "text") for ruling in rule.rulings), *((example, "text") for example in rule.examples)]
        use = Use(f"{href}#{rule.id}", f"{book_title} {rule.number}")
        for node, field_name in texts:
            found = terms.terms(node, field_name)
            if not found:
                continue
            shown_in = site.source.code if view.state(node, field_name) == "fallback" else language
            # Symbols' labels as shown alone: one asked in a sentence's case ({C:acc}) is no word the book uses.
            plain = view.plain_text(as_shown(getattr(node, field_name)))
            key = (terms.source_text(node, field_name), shown_in, plain)
            for anchor in view.terms_used(key, lambda: _anchors_found(terms, found, shown_in, plain)):  # noqa: B023 - called at once
                listed = uses.setdefault(anchor, {})
                if len(listed) < MAX_USES:
                    listed[use] = None
                if counted.get(anchor) != use:
                    counted[anchor] = use
                    counts[anchor] = counts.get(anchor, 0) + 1
    return tuple(BookUse(anchor, tuple(listed), counts[anchor]) for anchor, listed in uses.items())


def _anchors_found(terms: BookTerms, found: tuple[Term, ...], language: str, plain: str) -> tuple[str, ...]:
    """The glossary anchors of ``found`` (the terms a text's source uses) that the text's plain
    words in ``language`` name, each once, in the order of their first use: the search ends when
    every term is found or none left to find has a match ahead (a rule's uses count each once)."""
    return tuple(terms.anchors[id(found[index])] for index, _ in terms.finder(found, language).first_uses(plain, range(len(found))))


def _uses(site: Site, language: str) -> dict[int, tuple[list[Use], int]]:
    """Per term: the rules that use it in ``language`` (first use per rule, at most
    :data:`MAX_USES`) and how many rules use it in all."""
    terms = {anchor: term_id for term_id, anchor in site.term_anchors.items()}
    rules: dict[int, tuple[list[Use], int]] = {}
    for book_id in site.books:
        for found in site.glossary_uses(book_id, language):
            listed, count = rules.get(terms[found.anchor], ([], 0))
            # Another book's rules are other rules: only the bound is left to keep.
            listed.extend(found.uses[:MAX_USES - len(listed)])
            rules[terms[found.anchor]] = (listed, count + found.count)
    return rules


#: The rules an entry lists at most (a term such as "card" is in nearly every rule).
MAX_USES = 12


def shown_entries(site: Site, language: str, languages: Iterable[Language]) -> list[ShownEntry]:
    """The glossary page's entries in ``language`` as its template and the search index show them."""
    uses = _uses(site, language)
    listed = tuple(languages)
    page_language = next(lang for lang in listed if lang.code == language)
    shown: list[ShownEntry] = []
    for entry in entries(site.glossary, language, site.books):
        own = {form.casefold() for form in entry.term.forms[language]}
        # A name every language writes alike (a plane's, Agyrem) is not said again in each.
        # Each other language by its headword only: the rest of its forms are the check's
        # inflections and article-joined phrases («del danno»), not words a reader looks up.
        others = tuple(Named(other.name_in(page_language), other.tag, entry.term.headword(other.code))
                       for other in listed if other.code != language and entry.term.forms.get(other.code)
                       and {form.casefold() for form in entry.term.forms[other.code]} != own)
        used, count = uses.get(id(entry.term), ([], 0))
        shown.append(ShownEntry(entry.anchor, entry.name, ", ".join(entry.forms), others, tuple(used), count - len(used)))
    return shown


def glossary_page(site: Site, language: str, shown: list[ShownEntry]) -> tuple[Markup, Markup] | None:
    """The glossary page of ``language``, its title and body; None where the project's glossary
    lists no game term."""
    if not site.term_anchors:
        return None
    html = site.render_template("glossary.html.j2", language, entries=shown)
    # Translators: the title of the page that lists the game terms of the rulebooks.
    title = site.words(language).gettext("Glossary")
    return escape(title.text), html
