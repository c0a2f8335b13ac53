"""Catalogs -> translated model, at render time.

A msgstr is untrusted text: it only ever replaces a field of the frozen model as plain data
(``dataclasses.replace``), after the checks of :mod:`.checks` pass. Anything missing, fuzzy or
failing a check falls back to the source (the book's own language) and is counted, so the
site can say so. A catalog that is not valid PO is reported at ``FILE:LINE`` and only that
catalog falls back.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path

from ..errors import Problem
from ..loader import display_path
from ..model import Book, Example, Node, Rule, Ruling, Section, message_context, translatable_fields, walk
from . import catalog_path
from .catalogs import Stats, read_catalog
from .checks import message_problems
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

    def stats(self) -> Stats:
        total = sum(1 for _, node in walk(self.book) for _ in translatable_fields(node))
        fuzzy = len(self.outdated)
        return Stats(total, total - len(self.fallback), fuzzy, len(self.fallback) - fuzzy)


def translate_book(book: Book, language: str, locales: Path = Path("locales"), cache: Path | None = None) -> TranslatedBook:
    """The book in ``language``; the last result again when the book, the catalog's bytes and
    the glossary are unchanged (``mkdocs serve`` rebuilds after every edit: only the edited
    book or catalog is read and checked again).

    ``cache``: a folder where the check results are kept between builds (``checks/BOOK.LANG.json``,
    :mod:`.stored`): a message checked by an earlier build with the same code and
    glossary is not checked again."""
    path = catalog_path(Path(locales), language, book.id)
    try:
        catalog = path.read_bytes() if path.is_file() else None
    except OSError:
        catalog = None  # unreadable: _translate reports it; never remembered
    key = (book.id, language, str(Path(locales).resolve()))
    glossary = load_glossary(Path(locales), source=book.language) if catalog is not None else None
    last = _LAST.get(key)
    checks = message_problems  # looked up now: a test may replace the checks
    if catalog is not None and last is not None and last[1] == catalog and last[2] is glossary and last[3] is checks and last[0] == book:
        return last[4]
    translated = _translate(book, language, locales, cache)
    if catalog is not None:
        _LAST[key] = (book, catalog, glossary, checks, translated)
    return translated


#: The package's own checks, whose results a cache keeps (a test may replace ``message_problems`` here).
_PACKAGE_CHECKS = message_problems

#: The last translation of each (book, language, locales), with what it was made from.
_LAST: dict[tuple[str, str, str], tuple[Book, bytes, object, object, TranslatedBook]] = {}


def _translate(book: Book, language: str, locales: Path, cache: Path | None = None) -> TranslatedBook:
    sources = {
        message_context(key, name): (node, name, canonical(text))
        for key, node in walk(book)
        for name, text in translatable_fields(node)
    }
    if language == book.language:
        return TranslatedBook(book, language, frozenset(), frozenset(), ())
    everything = frozenset(sources)
    path = catalog_path(Path(locales), language, book.id)
    if not path.exists():
        return TranslatedBook(book, language, everything, frozenset(), ())
    glossary = load_glossary(Path(locales), source=book.language).for_book(book.id)
    shown = display_path(path)
    # What is kept is what the package's checks said: with the checks replaced, nothing is kept.
    cache = cache if message_problems is _PACKAGE_CHECKS else None
    kept, stored = None, None
    if cache is not None:
        name = f"{book.id}.{language}.json"
        try:
            kept = StoredTranslation(Path(cache) / "translations" / name, language, glossary, shown, path.read_bytes(),
                                     {context: text for context, (_, _, text) in sources.items()})
        except OSError:
            pass  # unreadable: read_catalog reports it
        stored = StoredChecks(Path(cache) / "checks" / name, language, glossary)
        taken = kept.load() if kept is not None else None
        if taken is not None:
            return _translated(book, language, sources, taken, glossary)

    catalog, problems = read_catalog(path, locale=None, domain=book.id)
    if catalog is None:
        return TranslatedBook(book, language, everything, frozenset(), tuple(problems), tuple(problems))
    by_context = {m.context: m for m in catalog if m.id and m.context}
    fallback: list[str] = []
    outdated: list[str] = []
    failures: list[Problem] = []
    taken_texts: dict[str, str] = {}
    for context, (_, _, text) in sources.items():
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
    taken = TakenFromCatalog(taken_texts, tuple(fallback), tuple(outdated), tuple(failures))
    if stored is not None:
        stored.save()
    if kept is not None:
        kept.save(taken)
    return _translated(book, language, sources, taken, glossary)


def _translated(book: Book, language: str, sources: dict[str, tuple[Node, str, str]], taken: TakenFromCatalog, glossary: Glossary) -> TranslatedBook:
    """The book with the msgstrs taken from its catalog in place of its texts."""
    replaced: dict[int, dict[str, str]] = {}
    for context, text in taken.shown.items():
        node, name, _ = sources[context]
        replaced.setdefault(id(node), {})[name] = text
    return TranslatedBook(_rebuild(book, replaced), language, frozenset(taken.fallback), frozenset(taken.outdated),
                          (*glossary.problems, *taken.failures))


_FIELDS = {cls: {f.name for f in dataclasses.fields(cls)} for cls in (Book, Section, Rule, Example, Ruling)}


def _rebuild(node: Node, replaced: dict[int, dict[str, str]]) -> Node:
    """A copy of the tree with the translated fields of each object (found by identity)."""
    changes: dict[str, object] = dict(replaced.get(id(node), {}))
    for child_field in ("sections", "rules", "examples", "rulings"):
        children = getattr(node, child_field) if child_field in _FIELDS[type(node)] else ()
        if children:
            changes[child_field] = tuple(_rebuild(child, replaced) for child in children)
    return dataclasses.replace(node, **changes) if changes else node
