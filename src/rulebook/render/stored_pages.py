"""Book pages kept between builds (issue 31.4): a build with the cache kept renders no unchanged book.

A (book, language)'s page, its search documents, its share of the glossary page and its entry on
the home page are most of a build's work once the translations are kept (:mod:`rulebook.i18n.stored`): under cProfile, 82% of
a kept build of the 5 x 200 corpus. A ``mkdocs serve`` session already keeps them in memory
(:data:`rulebook.render.pages.BOOK_PAGES`, compared with ``==``); :class:`KeptPages` also writes
them to the cache's folder (``book-pages/BOOK.LANG.json``, the page itself in ``BOOK.LANG.page.json``, its HTML as it is in
``BOOK.LANG.page.html`` under the digest the JSON holds: a one-off build reads it only when MkDocs writes the page), under a version that is a digest of
everything they are made from, read back by the next build:

- the code (:attr:`rulebook.cache.BuildCache.code`), the page templates and the versions of
  Jinja2 and MarkupSafe, which write the HTML;
- the site's settings (its languages, ``directory_urls``, ``pdf``) and its ``locales`` folder;
- the book and every book its links reach, link after link (a link's preview quotes the rule it
  leads to, and that rule's own links show the numbers of a third book): each one's shown path
  and the **bytes its Book was parsed from**, and, in a translated language, the bytes of each of
  its catalogs in that language and the glossary the translation was checked with; a linked book
  that is not in the site, by its absence;
- the words each of those books' pages shows besides its own (the site's and the engines'
  catalogs, their grammar files, the project's other catalogs and its glossary file:
  :meth:`rulebook.render.Site.book_inputs`) and the glossary's fingerprint, which also holds the
  card names the engines add to it;
- the engine of each of those books, when it is not the toolkit's own (whose code is in the code
  digest): the files of its top-level package (its symbols, its names);
- the book's worked examples' outcomes, which are run each build (in a child process: the run is
  bounded in time and memory, so an outcome is what happened, not a function of its inputs): a
  digest of what the page shows of them (status, steps, boards, failures).

The bytes are never read again here: they are those the cache's slots hold with the very Book and
translation this build uses (:meth:`rulebook.cache.BuildCache.made_from`), so a file saved while
the build runs cannot put one version's page under another's bytes. Where that cannot be told (a
book read without the cache, a translation made by another function), nothing is kept or taken.

The files are JSON read back as untrusted-shaped data: one of another version, broken or of the
wrong shape is as if absent. Each holds one (book, language) of this site, and a build removes
those of books and languages the site no longer has: the folder never grows past the site.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import pickle
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar, cast

from markupsafe import Markup

from ..cache import PACKAGE, STORED_FILE_BYTES, BuildCache, kind, parts_digest, read_json
from ..engine_code import engine_code
from ..errors import LoadError
from ..i18n.translate import TRANSLATED
from ..keeping import write_json, write_stored
from ..limits import read_limited
from ..loader import source_digest
from .glossary import BookUse, Use
from .pages import Alternate, RenderedPage, TocEntry

if TYPE_CHECKING:
    from ..examples import Outcome
    from .pages import Site

T = TypeVar("T")

KEPT_PAGES = kind("book pages", ("settings", "locales", "templates", "books", "translations", "words", "glossary", "engines", "outcomes"),
                  "a book's page, search documents, uses of the glossary's terms and home page entry in a language, kept between builds: "
                  "a kept build renders no book whose inputs are unchanged", stored=True)

#: The page templates (Jinja2) and the libraries that write the HTML from them.
TEMPLATES = PACKAGE / "render" / "templates"
HTML_LIBRARIES = ("jinja2", "markupsafe")


def _text(value: str) -> bytes:
    return value.encode("utf-8", "surrogatepass")


# --- each kept kind to JSON and back (None: not of the shape written) ------------------------------

def _toc(entries: tuple[TocEntry, ...]) -> list[object]:
    return [[e.id, e.title, e.level, _toc(e.children)] for e in entries]


def _toc_back(value: object) -> tuple[TocEntry, ...] | None:
    if not isinstance(value, list):
        return None
    entries = []
    for item in value:
        if not (isinstance(item, list) and len(item) == 4 and isinstance(item[0], str) and isinstance(item[1], str)
                and isinstance(item[2], int)):
            return None
        children = _toc_back(item[3])
        if children is None:
            return None
        entries.append(TocEntry(item[0], Markup(item[1]), item[2], children))
    return tuple(entries)


_PAGE_TEXTS = ("kind", "language", "src_uri", "url", "title", "html", "source_path")


def _page(page: RenderedPage) -> object:
    # The HTML is written as it is beside the JSON (_Entry.write): the JSON holds its digest.
    return {**{name: getattr(page, name) for name in _PAGE_TEXTS if name != "html"}, "html": _html_digest(_text(page.html)),
            "toc": _toc(page.toc), "alternates": [[a.language, a.name, a.url, a.tag] for a in page.alternates]}


def _html_digest(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def _html_path(path: Path) -> Path:
    """Where a page's HTML is kept beside its JSON file (``BOOK.LANG.page.html``)."""
    return path.with_suffix(".html")


def _html_back(path: Path, digest: object) -> str | None:
    """The page HTML kept at ``path`` if its bytes have ``digest``; None: missing, unreadable or
    another page's (a build killed between writing the two files)."""
    try:
        data = read_limited(path, str(path), limit=STORED_FILE_BYTES)
    except LoadError:
        return None
    return data.decode("utf-8", "surrogatepass") if _html_digest(data) == digest else None


def _strings(value: object, count: int) -> bool:
    return isinstance(value, list) and len(value) == count and all(isinstance(item, str) for item in value)


def _page_back(value: object) -> RenderedPage | None:
    if not (isinstance(value, dict) and all(isinstance(value.get(name), str) for name in _PAGE_TEXTS)):
        return None
    toc, alternates = _toc_back(value.get("toc")), value.get("alternates")
    if toc is None or not (isinstance(alternates, list) and all(_strings(a, 4) for a in alternates)):
        return None
    return RenderedPage(value["kind"], value["language"], value["src_uri"], value["url"], Markup(value["title"]), Markup(value["html"]),
                        toc, tuple(Alternate(*a) for a in alternates), value["source_path"])


def _docs(docs: list[dict[str, str]]) -> object:
    # Each document's fields as pairs, in their order: the JSON writer sorts an object's keys,
    # and the search index written from them must be the same bytes as a cold build's.
    return [list(doc.items()) for doc in docs]


def _docs_back(value: object) -> list[dict[str, str]] | None:
    valid = isinstance(value, list) and all(isinstance(doc, list) and all(_strings(pair, 2) for pair in doc) for doc in value)
    return [dict(cast("list[tuple[str, str]]", doc)) for doc in cast("list[object]", value)] if valid else None


def _uses(uses: tuple[BookUse, ...]) -> object:
    return [[u.anchor, [[use.href, use.label] for use in u.uses], u.count] for u in uses]


def _uses_back(value: object) -> tuple[BookUse, ...] | None:
    if not isinstance(value, list):
        return None
    found = []
    for item in value:
        if not (isinstance(item, list) and len(item) == 3 and isinstance(item[0], str) and isinstance(item[1], list)
                and all(_strings(use, 2) for use in item[1]) and isinstance(item[2], int)):
            return None
        found.append(BookUse(item[0], tuple(Use(*use) for use in item[1]), item[2]))
    return tuple(found)


_HOME = ("href", "title", "summary", "examples", "passed")


def _home(entry: dict[str, object]) -> object:
    return [entry[name] for name in _HOME]


def _home_back(value: object) -> dict[str, object] | None:
    if not (isinstance(value, list) and len(value) == len(_HOME) and all(isinstance(v, str) for v in value[:3])
            and all(isinstance(v, int) for v in value[3:])):
        return None
    return {"href": value[0], "title": Markup(value[1]), "summary": Markup(value[2]), "examples": value[3], "passed": value[4]}


#: What :meth:`Site.remembered` keeps of a (book, language), by its kind there: to JSON, and back.
CODECS: dict[str, tuple[Callable[[object], object], Callable[[object], object | None]]] = {
    "page": (lambda page: _page(cast("RenderedPage", page)), _page_back),
    "search": (lambda docs: _docs(cast("list[dict[str, str]]", docs)), _docs_back),
    "glossary uses": (lambda uses: _uses(cast("tuple[BookUse, ...]", uses)), _uses_back),
    "home": (lambda entry: _home(cast("dict[str, object]", entry)), _home_back),
    "toc": (lambda toc: _toc(cast("tuple[TocEntry, ...]", toc)), _toc_back),
}


@dataclass
class _Entry:
    """One (book, language)'s file: what it held of this version (JSON values, decoded when asked),
    and the values this build took from it or made. Each value made is the one the build cache's
    slot keeps too: holding it costs no memory; it is written as JSON by :meth:`KeptPages.save`,
    one file at a time, never a second copy of every page for the build's length."""

    path: Path
    version: str
    held: dict[str, object]
    values: dict[str, object] = field(default_factory=dict)
    changed: bool = False
    written: bool = False  # by this build, and let go (KeptPages.value's release): read back when asked again
    found: bool = False  # the file held this version when read

    def value(self, what: str, make: Callable[[], T]) -> T:
        if what in self.values:
            return cast("T", self.values[what])
        found = self._decoded(what) if what in self.held else None  # the JSON value goes once decoded
        if found is None:  # not kept, or of the wrong shape: made, and written anew
            found, self.changed = make(), True
        self.values[what] = found
        return cast("T", found)

    def _decoded(self, what: str) -> object | None:
        value = self.held.pop(what)
        if what == "page" and isinstance(value, dict):  # its HTML from the file beside, checked against the digest here
            value = {**value, "html": _html_back(_html_path(self.path), value.get("html"))}
        return CODECS[what][1](value)

    def write(self, cache: BuildCache) -> None:
        """Write the file, and a page made by this build as HTML beside it: JSON would escape the
        page's megabyte of HTML and the next build unescape it (a tenth of a one-off build's
        storing and reading back of its pages, issue 31)."""
        page = self.values.get("page")
        if isinstance(page, RenderedPage):
            write_stored(cache, _html_path(self.path), _text(page.html))
        write_json(cache, self.path, self.data())

    def data(self) -> dict[str, object]:
        """The file's content: the values of this build and what it held that this build did not ask for."""
        return {"version": self.version, **self.held, **{what: CODECS[what][0](value) for what, value in self.values.items()}}


class KeptPages:
    """The book pages one build takes from its cache's folder and writes back there (no folder:
    nothing is kept). Made per build: its digests are of this build's inputs."""

    def __init__(self, cache: BuildCache) -> None:
        self.cache = cache
        self._entries: dict[tuple[str, str, bool], _Entry | None] = {}
        self._books: dict[str, bytes | None] = {}
        self._translations: dict[tuple[str, str], bytes | None] = {}
        self._words: dict[tuple[str, str], bytes] = {}
        self._engines: dict[str, bytes] = {}
        self._versions: dict[tuple[str, str], str | None] = {}
        self._outcome_digests: dict[str, tuple[object, str | None]] = {}  # by book: its outcomes object, their digest
        self._can_write: bool | None = None

    def value(self, site: Site, what: str, book_id: str, language: str, make: Callable[[], T], *, read: bool = True,
              release: bool = False) -> T:
        """What ``make()`` makes for a (book, language), from the folder when a build with the same
        inputs kept it; made, and written by :meth:`save`, otherwise. ``read``: whether the file
        may hold it (a ``mkdocs serve`` rebuild makes again what its last build wrote there:
        reading a page's file to find it of the old version would cost as much as writing it).
        ``release``: written now if it was made, and not held here (a one-off build makes each
        page when MkDocs writes it and lets it go: pages.Site.keep_pages)."""
        key = (book_id, language, what == "page")  # a page in a file of its own, read only when it is written
        if key not in self._entries:
            self._entries[key] = self._entry(site, book_id, language, read, page=what == "page")
        entry = self._entries[key]
        if entry is None:
            return make()
        if release and entry.written and what not in entry.held and what not in entry.values:
            # Made earlier in this build and let go: its file holds it (a one-off build stores its pages
            # one language at a time and writes each when MkDocs asks: pages.Site.let_go).
            entry.held = _held(read_json(entry.path, entry.version))
        found = entry.value(what, make)
        if release:
            if entry.changed:
                entry.write(self.cache)
                entry.changed, entry.written = False, True
            entry.values.pop(what, None)
        return found

    def store(self, site: Site, book_id: str, language: str, make: Callable[[], RenderedPage]) -> bool:
        """Make a (book, language)'s page now and write it, unless its file holds it already; not
        held: :meth:`value` (``release``) reads it when MkDocs writes the page. A one-off build stores
        its pages one language at a time, then lets the language's translations go (pages.Site.let_go).
        False: it cannot be kept (an input that cannot be told), and will be made when asked."""
        key = (book_id, language, True)
        if key not in self._entries:
            # Not read now: a kept page is read once, when it is written.
            self._entries[key] = self._entry(site, book_id, language, False, page=True)
        entry = self._entries[key]
        if entry is None or not self._writable(entry.path.parent):
            return False
        beside = self._entries.get((book_id, language, False))
        if beside is not None and beside.found and entry.path.exists():
            # Written with the rest of the (book, language) under this version: read when asked
            # (and made then, should it be broken).
            entry.written = True
            return True
        self.value(site, "page", book_id, language, make, release=True)
        return entry.path.exists()  # a folder that cannot be written keeps nothing (keeping.write_json)

    def _writable(self, folder: Path) -> bool:
        """Whether pages can be written to ``folder`` (a read-only project builds all the same:
        its pages are made when MkDocs writes them)."""
        if self._can_write is None:
            with contextlib.suppress(OSError):
                folder.mkdir(parents=True, exist_ok=True)
            self._can_write = os.access(folder, os.W_OK)
        return self._can_write

    def save(self, site: Site, later: PendingPages | None = None) -> None:
        """Write each (book, language) whose file lacks what this build made; remove the files of
        books and languages the site no longer has. ``later``: a ``mkdocs serve`` session's, which
        writes them when the session ends (a rebuild after one edit wrote its changed pages' JSON,
        a tenth of its time, for a one-off build that may never come)."""
        changed = [entry for entry in self._entries.values() if entry is not None and entry.changed]
        names = {_name(book_id, language.code, page) for book_id in site.books for language in site.languages for page in (False, True)}
        names |= {_html_path(Path(name)).name for name in names if name.endswith(".page.json")}
        if later is not None:
            later.take(self.cache, names, changed)
            return
        for entry in changed:
            entry.write(self.cache)
            entry.changed = False
        self.remove_stale(names)

    def remove_stale(self, names: set[str]) -> None:
        """Remove the files of the folder but ``names`` (the site's books and languages)."""
        folder = self.cache.stored_path(KEPT_PAGES, "")
        if folder is not None and folder.is_dir():
            for stale in (*folder.glob("*.json"), *folder.glob("*.html")):
                if stale.name not in names:
                    stale.unlink(missing_ok=True)

    def _entry(self, site: Site, book_id: str, language: str, read: bool, *, page: bool) -> _Entry | None:
        path = self.cache.stored_path(KEPT_PAGES, _name(book_id, language, page))
        if path is not None and (book_id, language) not in self._versions:
            self._versions[book_id, language] = self.version(site, book_id, language)
        version = self._versions[book_id, language] if path is not None else None
        if path is None or version is None:
            return None
        data = read_json(path, version) if read else None
        return _Entry(path, version, _held(data), found=data is not None)

    def version(self, site: Site, book_id: str, language: str) -> str | None:
        """The digest of every input of a (book, language)'s page; None: one of them cannot be told."""
        books, translations, words, engines = [], [], [], []
        translated = language != site.source.code
        for reached in self._reached(site, book_id):
            if reached not in site.books:
                books.append(_text(f"{reached}\x1fnot in the site"))
                continue
            read = self._book(site, reached)
            told = self._translated(site, reached, language) if translated else b""
            if read is None or told is None:
                return None
            books.append(read)
            translations.append(told)
            words.append(self._words_of(site, reached, language))
            engines.append(self._engine(site.books[reached].engine))
        outcomes = self._outcomes(site, book_id, language)
        if outcomes is None:
            return None
        settings = (tuple((lang.code, lang.name, lang.tag, lang.direction) for lang in site.languages), site.directory_urls, site.pdf)
        return self.cache.version(KEPT_PAGES, settings=repr(settings), locales=str(Path(site.locales).resolve()),
                                  templates=self._templates, books=parts_digest(books), translations=parts_digest(translations),
                                  words=parts_digest(words), glossary=site.glossary.fingerprint, engines=parts_digest(engines), outcomes=outcomes)

    @staticmethod
    def _reached(site: Site, book_id: str) -> list[str]:
        """The book and every book its links reach, link after link, in a stable order."""
        reached, todo = [book_id], [book_id]
        while todo:
            linking = todo.pop()
            if linking not in site.books:
                continue  # a link to a book the site does not have leads nowhere: its absence is kept
            for other in sorted(site.linked_books(linking)):
                if other not in reached:
                    reached.append(other)
                    todo.append(other)
        return reached

    def _book(self, site: Site, book_id: str) -> bytes | None:
        """A book's shown path and a digest of the bytes its Book was parsed from (the loader's slot)."""
        if book_id not in self._books:
            book = site.books[book_id]
            digest = source_digest(self.cache, book)
            self._books[book_id] = None if digest is None else _text(f"{book_id}\x1f{book.path}\x1f{digest}")
        return self._books[book_id]

    def _translated(self, site: Site, book_id: str, language: str) -> bytes | None:
        """:meth:`_translation`, once per build: every page linking to the book asks (20 MB of
        catalogs hashed once, not once per book that reaches them)."""
        key = (book_id, language)
        if key not in self._translations:
            self._translations[key] = self._translation(site, book_id, language)
        return self._translations[key]

    def _translation(self, site: Site, book_id: str, language: str) -> bytes | None:
        """The inputs the book's translation in ``language`` was made from (its cache slot)."""
        translated = site.translated(book_id, language)
        made = self.cache.made_from(TRANSLATED, (book_id, language, str(Path(site.locales).resolve())))
        if made is None or made[1] is not translated or made[0]["book"] is not site.books[book_id]:
            coverage = site.coverage(book_id, language)
            # No catalog (the cache keeps no slot for it): every text shown in the source language,
            # which is all a page shows of a translation, whatever catalog it was made without.
            return b"\x00every text in the source" if coverage.translated == 0 and coverage.fuzzy == 0 else None
        inputs = made[0]
        catalogs = inputs["catalog"]
        if not isinstance(catalogs, tuple):
            return None
        parts = [_text(f"{book_id}\x1f{language}\x1f{inputs['locales']}\x1f{inputs['glossary']}")]
        parts += [_text(str(part)) + b"\x1f" + (data if isinstance(data, bytes) else b"\x00absent") for part, data in catalogs]
        return _text(parts_digest(parts))

    def _words_of(self, site: Site, book_id: str, language: str) -> bytes:
        key = (site.books[book_id].engine, language)  # the words files are the same for every book of an engine
        if key not in self._words:
            files = site.book_inputs(book_id, language)["words"]
            self._words[key] = _text(parts_digest(_text(path) + b"\x1f" + data for path, data in cast("tuple[tuple[str, bytes], ...]", files)))
        return self._words[key]

    def _engine(self, engine: str) -> bytes:
        """An engine's own code when it is not the toolkit's (in :attr:`BuildCache.code`), once per build."""
        if engine not in self._engines:
            self._engines[engine] = engine_code(engine)
        return self._engines[engine]

    def _outcomes(self, site: Site, book_id: str, language: str) -> str | None:
        """A digest of what the page shows of its examples' outcomes (the book's texts are in its
        bytes), once per outcomes object: every language's page shows the same ones (pickling them
        six times was a twelfth of a kept build of the repository)."""
        outcomes = cast("tuple[Outcome, ...]", site.book_inputs(book_id, language)["outcomes"])
        digested = self._outcome_digests.get(book_id)
        if digested is not None and digested[0] is outcomes:
            return digested[1]
        shown = [(o.rule.id, o.example.id, o.attempted, o.failures, o.positions, o.records, o.not_run) for o in outcomes]
        try:
            # pickle writes every field of an engine's actions and refusals (an exception's too),
            # where a repr may leave some out; equal outcomes pickle alike in any process.
            digest: str | None = hashlib.blake2b(pickle.dumps(shown, protocol=5), digest_size=16).hexdigest()
        except (pickle.PicklingError, TypeError, AttributeError):
            digest = None  # an engine's record that cannot be pickled: the page is made every build
        self._outcome_digests[book_id] = (outcomes, digest)
        return digest

    @cached_property
    def _templates(self) -> str:
        versions = [_text(f"{library}=={metadata.version(library)}") for library in HTML_LIBRARIES]
        files = sorted(p for p in TEMPLATES.rglob("*") if p.is_file())
        return parts_digest([*versions, *(_text(str(p.relative_to(TEMPLATES))) + b"\x1f" + p.read_bytes() for p in files)])


def _held(data: dict[str, object] | None) -> dict[str, object]:
    """What a file read (None: absent, or not of this version) holds of each kept kind."""
    return {what: data[what] for what in CODECS if what in data} if data is not None else {}


class PendingPages:
    """The book pages a ``mkdocs serve`` session's rebuilds made, written when the session ends:
    the last entry made of each file. A session that never ends cleanly leaves the older files,
    of other versions: the next build makes those pages again."""

    def __init__(self) -> None:
        self.entries: dict[Path, _Entry] = {}
        self.last: tuple[BuildCache, set[str]] | None = None  # the last rebuild's cache and file names (not its site)

    def take(self, cache: BuildCache, names: set[str], changed: list[_Entry]) -> None:
        self.entries.update((entry.path, entry) for entry in changed)  # a file's last entry: of the inputs now
        self.last = (cache, names)

    def write(self) -> None:
        if self.last is None:
            return
        cache, names = self.last
        for entry in self.entries.values():
            entry.write(cache)
        KeptPages(cache).remove_stale(names)
        self.entries, self.last = {}, None


def _name(book_id: str, language: str, page: bool = False) -> str:
    return f"{book_id}.{language}.page.json" if page else f"{book_id}.{language}.json"
