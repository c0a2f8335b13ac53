"""Catalogs -> translated model, at render time.

A msgstr is untrusted text: it only ever replaces a field of the frozen model as plain data
(``dataclasses.replace``), after the checks of :mod:`.checks` pass. Anything missing, fuzzy or
failing a check falls back to the source (the book's own language) and is counted, so the
site can say so. A catalog that is not valid PO is reported at ``FILE:LINE`` and only that
catalog falls back.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Iterable, Iterator
from concurrent.futures import BrokenExecutor, Future
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from ..errors import LoadError, Problem
from ..limits import read_limited
from ..loader import display_path
from ..model import Book, Example, Node, Rule, Ruling, Section, message_context, translatable_fields, walk
from ..pool import worker_count
from ..pool import workers as worker_pool
from . import catalog_path
from .catalogs import Stats, read_catalog
from .checks import catalog_problems, message_problems
from .extract import canonical
from .glossary import Glossary, load_glossary
from .stored import StoredChecks, StoredTranslation, TakenFromCatalog


@dataclass(frozen=True)
class TranslatedBook:
    book: Book  # same structure and ids; translatable fields replaced (dataclasses.replace)
    language: str
    fallback: frozenset[str]  # msgctxts shown in the source language: missing, fuzzy, or failing a check
    outdated: frozenset[str]  # msgctxts whose translation exists but is fuzzy (source changed)
    problems: tuple[Problem, ...]  # catalog-level problems (PO syntax error at FILE:LINE) and check failures
    unreadable: tuple[Problem, ...] = ()  # why the catalog could not be read at all (never a silent fallback)
    whole: tuple[Problem, ...] = ()  # what is wrong with the catalog as a whole, its translations shown all the same

    def stats(self) -> Stats:
        total = sum(1 for _, node in walk(self.book) for _ in translatable_fields(node))
        fuzzy = len(self.outdated)
        return Stats(total, total - len(self.fallback), fuzzy, len(self.fallback) - fuzzy)


def translate_book(book: Book, language: str, locales: Path = Path("locales"), cache: Path | None = None) -> TranslatedBook:
    """The book in ``language``; the last result again when the book, the catalog's bytes and
    the glossary are unchanged (``mkdocs serve`` rebuilds after every edit: only the edited
    book or catalog is read and checked again; :func:`translating` makes many at once).

    ``cache``: a folder where the check results are kept between builds (``checks/BOOK.LANG.json``,
    :mod:`.stored`): a message checked by an earlier build with the same code and
    glossary is not checked again."""
    inputs = _Inputs.of(book, language, locales)
    if inputs.last is not None:
        return inputs.last
    translated = _from_worker(inputs) or _translate(book, language, locales, cache, inputs.glossary, (inputs.catalog, inputs.unreadable))
    inputs.remember(translated)
    return translated


@dataclass(frozen=True)
class _Inputs:
    """What one (book, language) is translated from, and the last result made from the same."""

    key: tuple[str, str, str]
    book: Book
    catalog: bytes | None  # the catalog's bytes; None: no catalog or an unreadable one (never remembered)
    unreadable: tuple[Problem, ...]  # why the catalog could not be read
    glossary: Glossary | None  # the project's, loaded when there is a catalog
    checks: object
    last: TranslatedBook | None

    @classmethod
    def of(cls, book: Book, language: str, locales: Path) -> _Inputs:
        catalog, unreadable = read_catalog_bytes(catalog_path(Path(locales), language, book.id))
        key = (book.id, language, str(Path(locales).resolve()))
        glossary = load_glossary(Path(locales), source=book.language) if catalog is not None else None
        checks = message_problems  # looked up now: a test may replace the checks
        last = _LAST.get(key)
        current = catalog is not None and last is not None and last[1] == catalog and last[2] is glossary and last[3] is checks and last[0] == book
        return cls(key, book, catalog, unreadable, glossary, checks, last[4] if current and last is not None else None)

    def remember(self, translated: TranslatedBook) -> None:
        if self.catalog is not None:
            _LAST[self.key] = (self.book, self.catalog, self.glossary, self.checks, translated)


def read_catalog_bytes(path: Path) -> tuple[bytes | None, tuple[Problem, ...]]:
    """A catalog's bytes, read once: everything a translation keeps or remembers is made from
    these very bytes (a catalog saved while a build reads it must not leave the translation of
    one version under the fingerprint of another). (None, ()): there is no catalog; (None,
    problems): there is one, but it cannot be read (a FIFO, a device, too big, a dangling link)."""
    if not os.path.lexists(path):
        return None, ()
    try:
        return read_limited(path, display_path(path)), ()
    except LoadError as exc:
        return None, tuple(exc.problems)


#: The package's own checks, whose results a cache keeps (a test may replace ``message_problems`` here).
_PACKAGE_CHECKS = message_problems

#: The last translation of each (book, language, locales), with what it was made from.
_LAST: dict[tuple[str, str, str], tuple[Book, bytes, object, object, TranslatedBook]] = {}


def _sources(book: Book) -> dict[str, tuple[Node, str, str]]:
    """msgctxt -> (the node, its field, the field's text as a msgid) of every translatable text."""
    return {
        message_context(key, name): (node, name, canonical(text))
        for key, node in walk(book)
        for name, text in translatable_fields(node)
    }


def _msgids(sources: dict[str, tuple[Node, str, str]]) -> dict[str, str]:
    """msgctxt -> msgid: what a worker needs of a book's texts (plain data)."""
    return {context: text for context, (_, _, text) in sources.items()}


#: The texts of the books translated last, by identity, each with its book (so its id stays its
#: own): a build translates a book into every language, a preview again after each edit of one
#: of its catalogs, and walking a book for its texts costs ~2 ms. Read only, like the book.
_TEXTS: dict[int, tuple[Book, dict[str, tuple[Node, str, str]], dict[str, str]]] = {}


def _texts(book: Book) -> tuple[dict[str, tuple[Node, str, str]], dict[str, str]]:
    """The book's :func:`_sources` and :func:`_msgids`, found once per book object."""
    kept = _TEXTS.get(id(book))
    if kept is None or kept[0] is not book:
        if len(_TEXTS) >= 64:
            _TEXTS.clear()
        sources = _sources(book)
        kept = _TEXTS[id(book)] = (book, sources, _msgids(sources))
    return kept[1], kept[2]


def _translate(book: Book, language: str, locales: Path, cache: Path | None = None, glossary: Glossary | None = None,
               read: tuple[bytes | None, tuple[Problem, ...]] | None = None) -> TranslatedBook:
    """``glossary``: the project's, when the caller has loaded it already (loading it again reads
    and hashes both its files); ``read``: the catalog as :func:`read_catalog_bytes` read it."""
    if language == book.language:
        return TranslatedBook(book, language, frozenset(), frozenset(), ())
    sources, texts = _texts(book)
    path = catalog_path(Path(locales), language, book.id)
    data, unreadable = read if read is not None else read_catalog_bytes(path)
    if data is None:
        return _from_catalog(book, language, sources, unreadable, glossary or Glossary())  # none, or all in the source language
    glossary = glossary if glossary is not None else load_glossary(Path(locales), source=book.language)
    return _from_catalog(book, language, sources, taken_from_catalog(book.id, book.language, language, locales, cache,
                                                                      display_path(path), texts, glossary, data), glossary)


def _from_catalog(book: Book, language: str, sources: dict[str, tuple[Node, str, str]],
                  taken: TakenFromCatalog | tuple[Problem, ...], glossary: Glossary) -> TranslatedBook:
    """The translated book from what its catalog gave; a tuple: why the catalog could not be read
    (empty: there is none)."""
    if isinstance(taken, tuple):
        return TranslatedBook(book, language, frozenset(sources), frozenset(), taken, taken)
    return _translated(book, language, sources, taken, glossary.for_book(book.id))


def taken_from_catalog(book_id: str, book_language: str, language: str, locales: Path, cache: Path | None, shown: str,
                       texts: dict[str, str], glossary: Glossary | None = None, data: bytes | None = None
                       ) -> TakenFromCatalog | tuple[Problem, ...]:
    """What the catalog of a book in ``language`` gives its texts (msgctxt -> msgid), after the
    checks; or the problems that make it unreadable. Takes and returns plain data only: a worker
    process (:func:`translating`) runs it as well as this one (there ``glossary`` is not given:
    the project's is loaded). ``shown``: the catalog's path as problems name it; ``data``: its
    bytes, as the caller read them (None: read here), the only bytes parsed and kept."""
    path = catalog_path(Path(locales), language, book_id)
    if data is None:
        data, unreadable = read_catalog_bytes(path)
        if data is None:
            return unreadable
    glossary = (glossary if glossary is not None else load_glossary(Path(locales), source=book_language)).for_book(book_id)
    # What is kept is what the package's checks said: with the checks replaced, nothing is kept.
    cache = cache if message_problems is _PACKAGE_CHECKS else None
    kept, stored = None, None
    if cache is not None:
        name = f"{book_id}.{language}.json"
        kept = StoredTranslation(Path(cache) / "translations" / name, language, glossary, shown, data, texts)
        stored = StoredChecks(Path(cache) / "checks" / name, language, glossary)
        taken = kept.load()
        if taken is not None:
            return taken

    catalog, problems = read_catalog(path, domain=book_id, shared=True, data=data)
    if catalog is None:
        return tuple(problems)
    # What `rulebook i18n check` says of the file as a whole, said by the build too.
    whole = tuple(catalog_problems(catalog, shown, data, language))
    by_context = {m.context: m for m in catalog if m.id and m.context}
    fallback: list[str] = []
    outdated: list[str] = []
    failures: list[Problem] = []
    taken_texts: dict[str, str] = {}
    for context, text in texts.items():
        message = by_context.get(context)
        if message is None or not isinstance(message.string, str) or not message.string:
            fallback.append(context)
            continue
        if message.fuzzy or message.id != text:
            # A translation of an older source: the catalog was updated (fuzzy) or not yet.
            fallback.append(context)
            outdated.append(context)
            continue
        found = message_problems(message, shown, language, glossary, stored=stored)
        if found:
            fallback.append(context)
            failures.extend(found)
            continue
        taken_texts[context] = message.string
    taken = TakenFromCatalog(taken_texts, tuple(fallback), tuple(outdated), tuple(failures), whole)
    if stored is not None:
        stored.save()
    if kept is not None:
        kept.save(taken)
    return taken


#: Below this many bytes of catalogs to read, starting worker processes costs more than it saves
#: (forked workers start in milliseconds, from the fork server in ~0.5 s; reading and checking
#: 1 MB of catalogs takes ~0.2 s).
PARALLEL_BYTES = 1_000_000


@contextmanager
def translating(pairs: Iterable[tuple[Book, str]], locales: Path, cache: Path | None = None, workers: int = 0) -> Iterator[None]:
    """Translate ``pairs`` (book, language) in worker processes, in that order, while the block
    runs: :func:`translate_book` takes each result when asked, waiting for it if it is not
    made yet, so a site build runs its examples and renders its first pages meanwhile.

    ``workers``: how many processes (0: one per core). With one, with little to read, or with
    the checks replaced (a test's), nothing is started: translate_book makes each itself. A job
    that fails in a worker is made again by translate_book, which then raises what it raises;
    what is not asked for before the block ends is dropped."""
    pairs = list(pairs)
    if worker_count(workers, len(pairs)) < 2 or message_problems is not _PACKAGE_CHECKS:
        yield  # no catalog read here that translate_book would read again
        return
    todo = [inputs for book, language in pairs
            if (inputs := _Inputs.of(book, language, locales)).last is None and inputs.catalog is not None and language != book.language]
    count = worker_count(workers, len(todo))
    if count < 2 or sum(len(inputs.catalog or b"") for inputs in todo) < PARALLEL_BYTES:
        yield
        return
    with worker_pool(count, __name__) as pool:
        try:
            for inputs in todo:
                book, language = inputs.book, inputs.key[1]
                sources, texts = _texts(book)  # a book's texts, once for all its languages
                shown = display_path(catalog_path(Path(locales), language, book.id))
                try:
                    # The bytes read here go with the job: what it makes is remembered under them.
                    job = pool.submit(taken_from_catalog, book.id, book.language, language, Path(locales).resolve(),
                                      Path(cache).resolve() if cache is not None else None, shown, texts, None, inputs.catalog)
                except BrokenExecutor:
                    break  # a worker died while jobs were still being handed out: the rest are made here
                _PENDING[inputs.key] = (job, inputs, sources)
            yield
        finally:
            for inputs in todo:
                if (pending := _PENDING.pop(inputs.key, None)) is not None:
                    pending[0].cancel()  # leaving the pool waits only for the jobs running now


#: Translations being made by worker processes (:func:`translating`), by the key of _LAST.
_PENDING: dict[tuple[str, str, str], tuple[Future[TakenFromCatalog | tuple[Problem, ...]], _Inputs, dict[str, tuple[Node, str, str]]]] = {}


def _from_worker(inputs: _Inputs) -> TranslatedBook | None:
    """The translation a worker made from the same inputs; None: none did, or it failed."""
    pending = _PENDING.pop(inputs.key, None)
    if pending is None:
        return None
    job, submitted, sources = pending
    if not (submitted.catalog == inputs.catalog and submitted.glossary is inputs.glossary and submitted.checks is inputs.checks
            and submitted.book == inputs.book):
        job.cancel()  # the book or the catalog changed since: made again here
        return None
    try:
        taken = job.result()
    except Exception:  # noqa: BLE001 - a worker that died or raised: translate_book makes it again here
        return None
    # A job is only ever started for a catalog, whose inputs hold the glossary loaded with it.
    assert inputs.glossary is not None
    return _from_catalog(inputs.book, inputs.key[1], sources, taken, inputs.glossary)


def _translated(book: Book, language: str, sources: dict[str, tuple[Node, str, str]], taken: TakenFromCatalog, glossary: Glossary) -> TranslatedBook:
    """The book with the msgstrs taken from its catalog in place of its texts."""
    replaced: dict[int, dict[str, str]] = {}
    for context, text in taken.shown.items():
        node, name, _ = sources[context]
        replaced.setdefault(id(node), {})[name] = text
    return TranslatedBook(_rebuild(book, replaced), language, frozenset(taken.fallback), frozenset(taken.outdated),
                          (*glossary.problems, *taken.whole, *taken.failures), whole=taken.whole)


#: A node of the book's tree; a rebuilt node is of its original's class.
N = TypeVar("N", Book, Section, Rule, Example, Ruling)

_FIELDS = {cls: {f.name for f in dataclasses.fields(cls)} for cls in (Book, Section, Rule, Example, Ruling)}


def _rebuild(node: N, replaced: dict[int, dict[str, str]]) -> N:
    """A copy of the tree with the translated fields of each object (found by identity)."""
    changes: dict[str, Any] = dict(replaced.get(id(node), {}))
    for child_field in ("sections", "rules", "examples", "rulings"):
        children = getattr(node, child_field) if child_field in _FIELDS[type(node)] else ()
        if children:
            changes[child_field] = tuple(_rebuild(child, replaced) for child in children)
    return dataclasses.replace(node, **changes) if changes else node
