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
from concurrent.futures import BrokenExecutor, Executor, Future
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any, TypeVar

from ..cache import BuildCache, Same, current, kind, using
from ..errors import LoadError, Problem
from ..limits import read_catalog_limited
from ..loader import bytes_digest, display_path
from ..model import Book, Example, Node, Rule, Ruling, Section, message_context, translatable_fields, walk
from ..pool import worker_count
from ..pool import workers as worker_pool
from .catalogs import Stats, read_catalog
from .checks import catalog_problems, message_problems
from .extract import canonical
from .glossary import Glossary, load_glossary
from .parts import BOOK_PART, part_catalog, part_names, parts_of
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


#: A book in a language, remembered in the build's cache by (book id, language, locales).
TRANSLATED = kind("translated book", ("book", "language", "locales", "catalog", "glossary"),
                  "the last translation of a (book, language): mkdocs serve reads and checks again only what an edit changed")
#: What of a book a translation walks for (its msgctxts, nodes and msgids), by book id.
BOOK_TEXTS = kind("book texts", ("book",), "a book's translatable texts, walked once for every language (~2 ms a book)")
#: What a (book, language)'s catalogs gave the book's texts last, with those texts, by (book id,
#: language, locales): an edit of the book's texts under serve, every edited text shown from the
#: catalogs before (its msgid the old text: now outdated), is translated from it without reading
#: and checking the unchanged catalogs again.
CATALOG_TAKEN = kind("catalog taken", ("catalog", "glossary"), "what a book's unchanged catalogs gave its texts: a text "
                     "edited under serve is outdated without the five catalogs read and checked again (a rule edit's workers)")


def build_cache(cache: BuildCache | Path | None) -> BuildCache:
    """The cache to use: the one given; for a folder, one of its own writing there; for None,
    the active build's, or one of its own (nothing kept past the call)."""
    if isinstance(cache, BuildCache):
        return cache
    active = current()
    if active is not None and (cache is None or active.folder == Path(cache)):
        return active
    return BuildCache(None if cache is None else Path(cache))


def translate_book(book: Book, language: str, locales: Path = Path("locales"), cache: BuildCache | Path | None = None) -> TranslatedBook:
    """The book in ``language``; the last result again when the book, the catalog's bytes and
    the glossary are unchanged (``mkdocs serve`` rebuilds after every edit: only the edited
    book or catalog is read and checked again; :func:`translating` makes many at once).

    ``cache``: the build's (:mod:`rulebook.cache`), which remembers the last translation and, with
    a folder, keeps what was taken from each catalog and the check verdicts between builds
    (:mod:`.stored`); a folder: a cache of its own writing there."""
    cache = build_cache(cache)
    with using(cache):
        inputs = _Inputs.of(book, language, locales)
        if inputs.catalog is None:  # none, or unreadable: nothing to compare the next one with
            cache.forget(TRANSLATED, inputs.key)
            return _translate(book, language, locales, cache, inputs.glossary, (inputs.files, inputs.unreadable))
        return cache.last(TRANSLATED, inputs.key, lambda: _from_worker(inputs) or _derived(inputs, cache) or _translate(
            book, language, locales, cache, inputs.glossary, (inputs.files, inputs.unreadable)), **inputs.declared())


def forget_translation(cache: BuildCache, book_id: str, language: str, locales: Path) -> None:
    """Forget a (book, language)'s translation and what its catalogs gave it: a one-off build lets
    each language go once its pages are made (rulebook.render.Site.let_go). Asked again, it is
    made again (from the cache's folder, when it keeps what the catalogs gave)."""
    key = (book_id, language, str(Path(locales).resolve()))
    cache.forget(TRANSLATED, key)
    cache.forget(CATALOG_TAKEN, key)


def _taken_again(inputs: _Inputs, cache: BuildCache) -> TakenFromCatalog | None:
    """What the catalogs give the book's texts now, from what they gave its last texts, when the
    catalogs and the glossary are unchanged, no text came or went, and every changed text was
    shown from them: each is now a translation of an older source (outdated), as the catalog's
    msgid is its old text. None: read the catalogs."""
    if inputs.catalog is None or inputs.glossary is None:
        return None
    declared = {"catalog": inputs.digests, "glossary": inputs.glossary.fingerprint}
    if not cache.holds(CATALOG_TAKEN, inputs.key, **declared):
        return None
    last_texts, last, known = _held_taken(inputs, cache)
    texts = _texts(inputs.book, cache)[1]
    if texts.keys() != last_texts.keys():
        return None
    changed = [context for context, text in texts.items() if last_texts[context] != text]
    if not all(context in known for context in changed):
        return None
    # A text edited back to its catalog's msgid is shown again, as it was: same msgid, msgstr and checks.
    back = {context for context in changed if texts[context] == known[context][0]}
    away = {context for context in changed if context not in back}
    shown = {context: known[context][1] if context in back else last.shown[context]
             for context in texts if (context in last.shown and context not in away) or context in back}
    return TakenFromCatalog(shown, tuple(context for context in texts if context not in shown),
                            tuple(context for context in texts if context in away or (context in last.outdated and context not in back)),
                            last.failures, last.whole)


#: Of a catalog's messages, what is known without reading it again: for each text shown from it
#: (now or before an edit made it outdated), the message's msgid and msgstr.
Known = dict[str, tuple[str, str]]


def _held_taken(inputs: _Inputs, cache: BuildCache) -> tuple[dict[str, str], TakenFromCatalog, Known]:
    """What the cache holds of the (book, language)'s catalogs (asked once :meth:`BuildCache.holds` said it holds it)."""
    made = cache.made_from(CATALOG_TAKEN, inputs.key)
    assert made is not None
    return made[1]  # type: ignore[return-value]  # what _keep_taken keeps


def _derived(inputs: _Inputs, cache: BuildCache) -> TranslatedBook | None:
    """The translation :func:`_taken_again` allows, without the catalogs read again; None: it does not."""
    taken = _taken_again(inputs, cache)
    if taken is None:
        return None
    assert inputs.glossary is not None  # _taken_again held one
    known = _held_taken(inputs, cache)[2]
    _keep_taken(inputs.key, inputs.catalog, inputs.glossary, _texts(inputs.book, cache)[1], taken, cache, known)
    return _from_catalog(inputs.book, inputs.key[1], _texts(inputs.book, cache)[0], (taken, inputs.unreadable), inputs.glossary)


def _keep_taken(key: tuple[str, str, str], catalog: Files | None, glossary: Glossary | None, texts: dict[str, str],
                taken: TakenFromCatalog | None, cache: BuildCache, known: Known | None = None) -> None:
    """Keep what the catalogs gave these texts, for the next edit of the book (:func:`_taken_again`);
    ``known``: what was known of the catalogs' messages before (the same catalogs)."""
    if catalog is None or glossary is None or taken is None:
        cache.forget(CATALOG_TAKEN, key)
        return
    kept = (texts, taken, {**(known or {}), **{context: (texts[context], text) for context, text in taken.shown.items()}})
    cache.forget(CATALOG_TAKEN, key)
    cache.last(CATALOG_TAKEN, key, lambda: kept, catalog=_digests(catalog), glossary=glossary.fingerprint)


@dataclass(frozen=True)
class _Inputs:
    """What one (book, language) is translated from."""

    key: tuple[str, str, str]
    book: Book
    files: Files  # each of the book's catalogs in the language (one, or one per section: .parts)
    unreadable: tuple[Problem, ...]  # why a catalog could not be read
    glossary: Glossary | None  # the project's, loaded when there is a catalog

    @classmethod
    def of(cls, book: Book, language: str, locales: Path, *, read: bool = True) -> _Inputs:
        """``read``: the catalogs' bytes; without, none (the glossary is loaded all the same)."""
        files, unreadable = read_catalogs(book, language, locales) if read else ((), ())
        key = (book.id, language, str(Path(locales).resolve()))
        glossary = load_glossary(Path(locales), source=book.language) if not read or any(data is not None for _, data in files) else None
        return cls(key, book, files, unreadable, glossary)

    @property
    def catalog(self) -> Files | None:
        """The catalogs' bytes; None: no catalog, or one that cannot be read (never remembered)."""
        return None if self.unreadable or all(data is None for _, data in self.files) else self.files

    @property
    def size(self) -> int:
        return sum(len(data or b"") for _, data in self.files)

    @cached_property
    def digests(self) -> Files | None:
        """:attr:`catalog`, each file by a digest of its bytes (what the cache's kinds compare)."""
        return _digests(self.catalog)

    def beside_catalog(self) -> dict[str, object]:
        """:meth:`declared` but the catalogs: a worker reads them itself, and tells their digests."""
        return {"book": self.book, "language": self.key[1], "locales": self.key[2],
                "glossary": self.glossary.fingerprint if self.glossary is not None else None}

    def declared(self) -> dict[str, object]:
        """The inputs of :data:`TRANSLATED`, as the cache compares them."""
        # Each catalog by a digest of its bytes: the cache keeps the inputs as long as their translation,
        # and the bytes themselves were as much memory again as every catalog of the site (20 MB on
        # the 5 x 200 corpus, 200 MB on 50 x 200: issue 31.3).
        return {"book": self.book, "language": self.key[1], "locales": self.key[2], "catalog": self.digests,
                "glossary": self.glossary.fingerprint if self.glossary is not None else None}


#: (part, bytes) of each catalog of a book in one language (.parts: "" for the book's own file);
#: None: the file is not there, or cannot be read.
Files = tuple[tuple[str, bytes | None], ...]


def _digests(files: Files | None) -> Files | None:
    """Each catalog by a digest of its bytes, as the cache keeps what a translation was made from:
    the bytes themselves, kept as long as their translation, were as much memory again as every
    catalog of the site (20 MB on the 5 x 200 corpus, 200 MB on 50 x 200: issue 31.3)."""
    return None if files is None else tuple((part, None if data is None else bytes_digest(data)) for part, data in files)


def read_catalogs(book: Book, language: str, locales: Path) -> tuple[Files, tuple[Problem, ...]]:
    """The bytes of each catalog the book has in ``language`` (:func:`read_catalog_bytes`), and
    why any of them could not be read."""
    files: list[tuple[str, bytes | None]] = []
    unreadable: list[Problem] = []
    for part in part_names(book):
        data, problems = read_catalog_bytes(part_catalog(Path(locales), language, book.id, part))
        files.append((part, data))
        unreadable += problems
    return tuple(files), tuple(unreadable)


def read_catalog_bytes(path: Path) -> tuple[bytes | None, tuple[Problem, ...]]:
    """A catalog's bytes, read once: everything a translation keeps or remembers is made from
    these very bytes (a catalog saved while a build reads it must not leave the translation of
    one version under the fingerprint of another). (None, ()): there is no catalog; (None,
    problems): there is one, but it cannot be read (a FIFO, a device, too big, a dangling link)."""
    if not os.path.lexists(path):
        return None, ()
    try:
        return read_catalog_limited(path, display_path(path)), ()
    except LoadError as exc:
        return None, tuple(exc.problems)



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


def _texts(book: Book, cache: BuildCache) -> tuple[dict[str, tuple[Node, str, str]], dict[str, str]]:
    """The book's :func:`_sources` and :func:`_msgids`, found once per book in ``cache``. Read only, like the book."""
    def walked() -> tuple[dict[str, tuple[Node, str, str]], dict[str, str]]:
        sources = _sources(book)
        return sources, _msgids(sources)
    # By identity: the nodes found are the book's own, which _translated finds by identity.
    return cache.last(BOOK_TEXTS, book.id, walked, book=Same(book))


def _translate(book: Book, language: str, locales: Path, cache: BuildCache | Path | None = None, glossary: Glossary | None = None,
               read: tuple[Files, tuple[Problem, ...]] | None = None) -> TranslatedBook:
    """``glossary``: the project's, when the caller has loaded it already (loading it again reads
    and hashes both its files); ``read``: the catalogs as :func:`read_catalogs` read them."""
    if language == book.language:
        return TranslatedBook(book, language, frozenset(), frozenset(), ())
    cache = build_cache(cache)
    sources, texts = _texts(book, cache)
    files, unreadable = read if read is not None else read_catalogs(book, language, locales)
    if all(data is None for _, data in files):
        return _from_catalog(book, language, sources, (None, unreadable), glossary or Glossary())  # none, or all in the source language
    glossary = glossary if glossary is not None else load_glossary(Path(locales), source=book.language)
    split = part_texts(book, texts)
    taken = [taken_from_catalog(book.id, book.language, language, locales, cache, display_path(part_catalog(Path(locales), language, book.id, part)),
                                split[part], glossary, data, part)
             for part, data in files if data is not None]
    joined = _joined(taken, texts, unreadable)
    _keep_taken((book.id, language, str(Path(locales).resolve())), None if unreadable else files, glossary, texts, joined[0], cache)
    return _from_catalog(book, language, sources, joined, glossary)


def part_texts(book: Book, texts: dict[str, str]) -> dict[str, dict[str, str]]:
    """The book's texts (msgctxt -> msgid) by the part of its catalogs they are filed in (.parts)."""
    where = parts_of(book)
    split: dict[str, dict[str, str]] = {part: {} for part in part_names(book)}
    for context, text in texts.items():
        split[where[context]][context] = text
    return split


def _joined(taken: list[TakenFromCatalog | tuple[Problem, ...]], texts: dict[str, str], unreadable: tuple[Problem, ...]
            ) -> tuple[TakenFromCatalog | None, tuple[Problem, ...]]:
    """What a book's catalogs gave, as one: each text from the file it is filed in (a text whose
    file is not there falls back); and why any file could not be read. None: none could be."""
    bad = (*unreadable, *(p for found in taken if isinstance(found, tuple) for p in found))
    good = [found for found in taken if not isinstance(found, tuple)]
    if not good:
        return None, bad
    if len(good) == 1 and len(good[0].shown) + len(good[0].fallback) == len(texts):
        return good[0], bad  # one catalog for every text: what it gave, as it gave it
    shown = {context: text for found in good for context, text in found.shown.items()}
    return TakenFromCatalog(shown, tuple(context for context in texts if context not in shown),
                            tuple(context for found in good for context in found.outdated),
                            tuple(p for found in good for p in found.failures), tuple(p for found in good for p in found.whole)), bad


def _from_catalog(book: Book, language: str, sources: dict[str, tuple[Node, str, str]],
                  taken: tuple[TakenFromCatalog | None, tuple[Problem, ...]], glossary: Glossary) -> TranslatedBook:
    """The translated book from what its catalogs gave (None: nothing) and why any of them could
    not be read (shown in the source language, and said)."""
    found, unreadable = taken
    if found is None:
        return TranslatedBook(book, language, frozenset(sources), frozenset(), unreadable, unreadable)
    translated = _translated(book, language, sources, found, glossary.for_book(book.id))
    if unreadable:
        translated = dataclasses.replace(translated, problems=(*unreadable, *translated.problems), unreadable=unreadable)
    return translated


def taken_from_catalog(book_id: str, book_language: str, language: str, locales: Path, cache: BuildCache | Path | None, shown: str,
                       texts: dict[str, str], glossary: Glossary | None = None, data: bytes | None = None, part: str = BOOK_PART
                       ) -> TakenFromCatalog | tuple[Problem, ...]:
    """What the catalog of a book in ``language`` gives its texts (msgctxt -> msgid), after the
    checks; or the problems that make it unreadable. Takes and returns plain data only: a worker
    process (:func:`translating`) runs it as well as this one (there ``glossary`` is not given:
    the project's is loaded, and ``cache`` is the cache's folder). ``shown``: the catalog's path
    as problems name it; ``data``: its bytes, as the caller read them (None: read here), the only
    bytes parsed and kept; ``part``: which of the book's catalogs (.parts), ``texts`` those filed in it."""
    cache = build_cache(cache)
    with using(cache):
        return _taken(book_id, book_language, language, locales, cache, shown, texts, glossary, data, part)


def _stored_name(book_id: str, part: str, language: str) -> str:
    """The file a catalog's translation and verdicts are kept in (:mod:`.stored`)."""
    return f"{book_id}.{language}.json" if part == BOOK_PART else f"{book_id}.{part}.{language}.json"


def _taken(book_id: str, book_language: str, language: str, locales: Path, cache: BuildCache, shown: str,
           texts: dict[str, str], glossary: Glossary | None, data: bytes | None, part: str) -> TakenFromCatalog | tuple[Problem, ...]:
    path = part_catalog(Path(locales), language, book_id, part)
    if data is None:
        data, unreadable = read_catalog_bytes(path)
        if data is None:
            return unreadable
    glossary = (glossary if glossary is not None else load_glossary(Path(locales), source=book_language)).for_book(book_id)
    name = _stored_name(book_id, part, language)
    kept = StoredTranslation.of(cache, name, language, glossary, shown, data, texts)
    stored = StoredChecks.of(cache, name, language, glossary)
    if kept is not None and (taken := kept.load()) is not None:
        return taken

    # A translation reads no reference nor extracted comment: Babel spared a third of its lines.
    catalog, problems = read_catalog(path, domain=book_id, shared=True, data=data, extracted=False)
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
def translating(pairs: Iterable[tuple[Book, str]], locales: Path, cache: BuildCache | Path | None = None, workers: int = 0) -> Iterator[None]:
    """Translate ``pairs`` (book, language) in worker processes, in that order, while the block
    runs: :func:`translate_book` takes each result when asked, waiting for it if it is not
    made yet, so a site build runs its examples and renders its first pages meanwhile. The
    workers are handed the books of the language asked for and of the next (:class:`_Handing`),
    never every pair at once: a site built one language at a time holds one language's results.

    ``workers``: how many processes (0: one per core). With one or with little to read, nothing
    is started: translate_book makes each itself. A job that fails in a worker is made again by
    translate_book, which then raises what it raises; what is not asked for before the block
    ends is dropped. ``cache``: the build's; the workers use its folder (a forked one a copy of it)."""
    pairs = list(pairs)
    if worker_count(workers, len(pairs)) < 2:
        yield  # no catalog read here that translate_book would read again
        return
    cache = build_cache(cache)
    todo: dict[tuple[str, str, str], tuple[Book, str]] = {}
    size = 0
    kept: list[tuple[str, str, str]] = []
    with using(cache):
        # One (book, language) at a time: every catalog's bytes at once were 200 MB on 50 x 200 (issue 31.3).
        for book, language in pairs:
            inputs = _Inputs.of(book, language, locales)
            if (inputs.catalog is None or language == book.language or cache.holds(TRANSLATED, inputs.key, **inputs.declared())
                    or _taken_again(inputs, cache) is not None):
                continue
            # What an earlier build kept is taken here, before any worker starts: a cached build
            # starts none (forking and handing each worker a book's texts would cost more than reading it).
            if _take_kept(inputs, locales, cache):
                kept.append(inputs.key)
            else:
                todo[inputs.key] = (book, language)
                size += inputs.size
    try:
        count = worker_count(workers, len(todo))
        if count < 2 or size < PARALLEL_BYTES:
            yield
            return
        with worker_pool(count, __name__) as pool:
            handing = _Handing(pool, Path(locales), cache, dict(todo), AHEAD * count)
            _HANDING.append(handing)
            handing.hand_out()
            yield
    finally:
        if _HANDING:
            _HANDING.pop()
        for key in (*kept, *todo):
            if (pending := _PENDING.pop(key, None)) is not None:
                for job in pending[0]:
                    job.cancel()  # leaving the pool waits only for the jobs running now


#: How many (book, language)s of the next languages each worker may be handed ahead of the one
#: translate_book asks for: a page's links want every book of its language at once, so the next
#: language (50 books: 25 a worker) is made while this one's pages are; its results are held until
#: taken (about 0.4 MB a book of 200 rules), never every language's.
AHEAD = 32


@dataclass
class _Handing:
    """The jobs of a :func:`translating` block, handed to its workers as :func:`translate_book`
    asks: every book of the language it asks for (a page's links want the other books' titles
    and texts in its language), and :data:`AHEAD` more. A worker reads the catalog itself and
    tells the digest of the bytes it read. Every catalog's bytes read at once and held, then
    every result, until translate_book took them, were 200 MB of the 50 x 200 corpus (issue 31.3)."""

    pool: Executor
    locales: Path
    cache: BuildCache
    waiting: dict[tuple[str, str, str], tuple[Book, str]]  # not handed out yet, in order
    ahead: int
    out: set[tuple[str, str, str]] = dataclasses.field(default_factory=set)  # handed out, not taken
    asked: int = 0  # the index of the last language asked for, in the order of the pairs

    @cached_property
    def order(self) -> dict[str, int]:
        return {language: index for index, language in enumerate(dict.fromkeys(language for _, language in self.waiting.values()))}

    def taken(self, key: tuple[str, str, str]) -> None:
        """translate_book takes a (book, language): a worker's result, or its own (one not handed out is made there)."""
        self.out.discard(key)
        self.waiting.pop(key, None)
        self.asked = max(self.asked, self.order.get(key[1], 0))
        self.hand_out()

    def hand_out(self) -> None:
        order = self.order
        with using(self.cache):
            while self.waiting:
                key = next(iter(self.waiting))
                if order[key[1]] > self.asked and sum(1 for k in self.out if order[k[1]] > self.asked) >= self.ahead:
                    return
                book, language = self.waiting.pop(key)
                inputs = _Inputs.of(book, language, self.locales, read=False)
                sources, texts = _texts(book, self.cache)  # a book's texts, once for all its languages
                split = part_texts(book, texts)
                jobs = []
                try:
                    # One job per catalog file (a book filed per section has one per section).
                    for part in part_names(book):
                        path = part_catalog(self.locales, language, book.id, part)
                        if os.path.lexists(path):
                            jobs.append(self.pool.submit(_read_and_taken, book.id, book.language, language, self.locales.resolve(),
                                                         self.cache.folder.resolve() if self.cache.folder is not None else None,
                                                         display_path(path), split[part], part))
                except BrokenExecutor:
                    for job in jobs:
                        job.cancel()
                    self.waiting.clear()  # a worker died while jobs were still being handed out: the rest are made here
                    return
                _PENDING[key] = (jobs, inputs.beside_catalog(), sources)
                self.out.add(key)


#: What a job gives: its catalog file (.parts), a digest of the bytes read (None: none could be), what they gave.
Job = tuple[str, bytes | None, TakenFromCatalog | tuple[Problem, ...]]


def _read_and_taken(book_id: str, book_language: str, language: str, locales: Path, folder: Path | None, shown: str,
                    texts: dict[str, str], part: str) -> Job:
    """A worker's job: a catalog read, and what it gives (:func:`taken_from_catalog`); translate_book
    takes it only if the bytes it reads itself have the same digest."""
    data, unreadable = read_catalog_bytes(part_catalog(locales, language, book_id, part))
    if data is None:
        return part, None, unreadable
    return part, bytes_digest(data), taken_from_catalog(book_id, book_language, language, locales, folder, shown, texts, None, data, part)


#: The jobs being handed out by the :func:`translating` block that runs (empty: none runs).
_HANDING: list[_Handing] = []


def _take_kept(inputs: _Inputs, locales: Path, cache: BuildCache) -> bool:
    """Whether the cache's folder keeps what the catalog gives (then handed to translate_book as a
    job already done)."""
    book, language = inputs.book, inputs.key[1]
    sources, texts = _texts(book, cache)
    split = part_texts(book, texts)
    glossary = inputs.glossary.for_book(book.id) if inputs.glossary is not None else None
    jobs: list[Future[Job]] = []
    for part, data in inputs.files:
        if data is None:
            continue
        shown = display_path(part_catalog(Path(locales), language, book.id, part))
        stored = StoredTranslation.of(cache, _stored_name(book.id, part, language), language, glossary, shown, data, split[part]) \
            if glossary is not None else None
        taken = stored.load() if stored is not None else None
        if taken is None:
            return False  # all the book's files are made again (a worker finds those kept)
        done: Future[Job] = Future()
        done.set_result((part, bytes_digest(data), taken))
        jobs.append(done)
    _PENDING[inputs.key] = (jobs, inputs.beside_catalog(), sources)
    return True


#: Translations being made by worker processes while a :func:`translating` block runs, by the
#: slot of :data:`TRANSLATED` (in-flight jobs, not a cache: the block empties it when it ends).
_PENDING: dict[tuple[str, str, str], tuple[list[Future[Job]], dict[str, object], dict[str, tuple[Node, str, str]]]] = {}


def _from_worker(inputs: _Inputs) -> TranslatedBook | None:
    """The translation a worker made from the same inputs; None: none did, or it failed."""
    pending = _PENDING.pop(inputs.key, None)
    if _HANDING:
        _HANDING[-1].taken(inputs.key)
    if pending is None:
        return None
    jobs, submitted, sources = pending
    if submitted != inputs.beside_catalog():
        for job in jobs:
            job.cancel()  # the book or the glossary changed since: made again here
        return None
    try:
        done = [job.result() for job in jobs]
    except Exception:  # noqa: BLE001 - a worker that died or raised: translate_book makes it again here
        return None
    if [(part, digest) for part, digest, _ in done] != [(part, digest) for part, digest in inputs.digests or () if digest is not None]:
        return None  # a catalog changed since the worker read it: made again here, from the bytes read now
    taken = [found for _, _, found in done]
    # A job is only ever started for a catalog, whose inputs hold the glossary loaded with it.
    assert inputs.glossary is not None
    texts = {c: t for c, (_, _, t) in sources.items()}
    joined = _joined(taken, texts, inputs.unreadable)
    _keep_taken(inputs.key, inputs.catalog, inputs.glossary, texts, joined[0], build_cache(None))
    return _from_catalog(inputs.book, inputs.key[1], sources, joined, inputs.glossary)


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
