"""A book's catalogs: one per language, or one per section (``book: {catalogs: sections}``).

A book's translations are filed by default in one catalog per language, as gettext and Babel
expect (``locales/LANG/LC_MESSAGES/BOOK.po``, from ``locales/templates/BOOK.pot``). A book the
size of the Magic Comprehensive Rules would make that file larger than a file may be
(:data:`rulebook.limits.MAX_CATALOG_BYTES`, sized so that any catalog is read and checked in well
under a second), so a book may file them per section instead, as Sphinx does with
``gettext_compact = False`` (one catalog per document)::

    locales/templates/BOOK.pot                   the book's own texts: title, summary
    locales/templates/BOOK/SECTION.pot           one per section: its title, intro, rules, examples, rulings
    locales/LANG/LC_MESSAGES/BOOK.po
    locales/LANG/LC_MESSAGES/BOOK/SECTION.po

Every file keeps the book's id as its domain (its glossary, its checks). A section id is an id
(``ID_RE``: lower-case letters, digits, '.' and '-', never starting with a dot), so it is always a
plain file name. Each text belongs to one *part*: ``""`` (the book's own file) or its section's
id. The msgctxt is made of ids only (:func:`rulebook.model.message_context`), never of the
section, so a rule that moves keeps its msgctxt and :func:`update_book` carries its translation
(with its fuzzy or ``#~`` state) to the file it now belongs to, and switching a book's layout
carries every translation to the files of the other layout.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from pathlib import Path

from babel.messages.catalog import Catalog, Message

from ..errors import Problem
from ..loader import display_path
from ..model import Book, Section, message_context, translatable_fields, walk
from ..writing import remove_leftovers, write_atomic
from . import catalog_path, template_path
from .catalogs import (
    MergeReport,
    Updated,
    build_template,
    conflicting_duplicates,
    merge,
    new_catalog,
    read_catalog,
    refuse_outside,
    save_template,
    serialize,
    too_big_to_read,
    update_catalog,
)
from .content import content
from .headers import HeaderSettings, catalog_headers

#: The part of a book's own texts (title, summary): the file named by the book's id alone.
BOOK_PART = ""


def part_template(locales: Path, book_id: str, part: str) -> Path:
    return template_path(locales, book_id) if part == BOOK_PART else Path(locales) / "templates" / book_id / f"{part}.pot"


def part_catalog(locales: Path, language: str, book_id: str, part: str) -> Path:
    return catalog_path(locales, language, book_id) if part == BOOK_PART else catalog_path(locales, language, book_id).with_suffix("") / f"{part}.po"


def parts_of(book: Book) -> dict[str, str]:
    """msgctxt -> the part its text is filed in, for every translatable text of the book."""
    found: dict[str, str] = {}
    part = BOOK_PART
    for key, node in walk(book):
        if isinstance(node, Section) and book.catalogs == "sections":
            part = node.id  # walk gives a section before its rules, their examples and rulings
        for name, _ in translatable_fields(node):
            found[message_context(key, name)] = part
    return found


def part_names(book: Book) -> list[str]:
    """The parts of a book, in file order: its own, then one per section when it files them so."""
    return [BOOK_PART, *(section.id for section in book.sections)] if book.catalogs == "sections" else [BOOK_PART]


def existing_catalogs(locales: Path, language: str, book_id: str) -> list[Path]:
    """Every catalog of a book in one language that is there, whatever layout made it."""
    own = catalog_path(locales, language, book_id)
    return ([own] if own.exists() or own.is_symlink() else []) + sorted(own.with_suffix("").glob("*.po"))


def existing_templates(locales: Path, book_id: str) -> list[Path]:
    own = template_path(locales, book_id)
    return ([own] if own.exists() else []) + sorted(own.with_suffix("").glob("*.pot"))


# --- templates ------------------------------------------------------------------------------


def split_template(template: Catalog, book: Book) -> dict[str, Catalog]:
    """The book's template as the templates of its parts (a book in one file: the template itself)."""
    names = part_names(book)
    if names == [BOOK_PART]:
        return {BOOK_PART: template}
    where = parts_of(book)
    templates = {part: Catalog(domain=template.domain, creation_date=template.creation_date) for part in names}
    for part in templates.values():
        part.mime_headers = template.mime_headers
        part.header_comment = template.header_comment
    for message in template:
        if message.id:
            templates[where.get(message.context or "", BOOK_PART)][message.id] = message
    return templates


@dataclass(frozen=True)
class Templates:
    parts: dict[str, Catalog]  # part -> its template
    written: list[tuple[Path, Catalog, bool]]  # (file, template, changed) of each part
    stale: list[Path]  # templates of another layout or of a section no longer there: removed when writing


def write_templates(book: Book, locales: Path, write: bool = True, settings: HeaderSettings = HeaderSettings(),
                    root: Path | None = None) -> Templates:
    """Write the book's templates unless their content is current; remove those no part has.

    ``root``: the project, outside which nothing is written (None: no such check)."""
    parts = split_template(build_template(Path(book.path), book.id, locales, settings), book)
    written = []
    for part, template in parts.items():
        path = part_template(locales, book.id, part)
        if write and root is not None:
            refuse_outside(path, root)
        written.append((path, *save_template(template, path, write=write)))
    wanted = {path for path, _, _ in written}
    stale = [path for path in existing_templates(locales, book.id) if path not in wanted]
    if write:
        _remove(stale, root)
    return Templates(parts, written, stale)


def _remove(paths: list[Path], root: Path | None) -> None:
    for path in paths:
        if root is not None:
            refuse_outside(path, root)
        path.unlink(missing_ok=True)
        path.with_suffix(".mo").unlink(missing_ok=True)  # compiled from it: no longer a catalog's
        if path.parent.name not in ("LC_MESSAGES", "templates"):
            with contextlib.suppress(OSError):  # not empty: another section's file is still there
                path.parent.rmdir()  # a book's section folder, left empty


# --- catalogs -------------------------------------------------------------------------------


@dataclass(frozen=True)
class BookUpdate:
    updated: list[Updated]
    problems: list[Problem]
    stale: list[Path]  # catalogs no part has: their messages carried to the others, the files removed when writing


def update_book(book: Book, templates: dict[str, Catalog], locales: Path, language: str, write: bool = True,
                settings: HeaderSettings = HeaderSettings(), root: Path | None = None) -> BookUpdate:
    """Merge each part's template into the book's catalog of that part in ``language``.

    The previous translations are those of every catalog of the book that is there, whatever
    layout made it: a message filed in another part's file (a rule moved to another section,
    the book switched between ``book`` and ``sections``) is carried to its part's file with its
    msgstr, flags, comments and previous msgid, then merged as ever (:func:`.catalogs.merge`);
    an entry no text has any more stays ``#~`` in its file, or in the book's own when its file
    is no longer one of the book's. Nothing is written when any of the files cannot be read or
    two of them translate one msgctxt differently (the translator keeps one)."""
    targets = {part: part_catalog(locales, language, book.id, part) for part in templates}
    existing = existing_catalogs(locales, language, book.id)
    if write and root is not None:
        for path in [*targets.values(), *existing]:
            refuse_outside(path, root)
    if len(targets) == 1 and set(existing) <= set(targets.values()):
        # One file, and no other to carry from: the plain update of one catalog.
        (part, path), = targets.items()
        result, found = update_catalog(templates[part], path, language, book.id, write=write, settings=settings)
        return BookUpdate([result] if result is not None else [], found, [])
    read: dict[Path, Catalog] = {}
    problems: list[Problem] = []
    for path in existing:
        if write:
            remove_leftovers(path)  # of an earlier run that was killed while it wrote
        catalog, found = read_catalog(path, domain=book.id)
        if catalog is None:
            problems += found
            continue
        problems += conflicting_duplicates(catalog, display_path(path))
        read[path] = catalog
    before = {path: content(catalog) for path, catalog in read.items()}
    catalogs = {part: read[path] for part, path in targets.items() if path in read}
    problems += _carry(book, templates, read, catalogs, targets, language, settings)
    if not problems:
        # An obsolete entry carried beside a live one of another translation: the translator's call.
        for part, catalog in catalogs.items():
            problems += conflicting_duplicates(catalog, display_path(targets[part]))
    if problems:
        return BookUpdate([], [Problem(p.path, p.line, p.column, f"{p.message} (catalogs of the book not updated)") for p in problems], [])
    made: list[tuple[Path, bytes | None, bool, MergeReport]] = []  # (file, bytes to write or None: current, created, report)
    for part, template in templates.items():
        path = targets[part]
        created = path not in read
        catalog = catalogs.get(part)
        if catalog is None:
            catalog, report = new_catalog(template, language, book.id, settings), MergeReport((), (), ())
        else:
            catalog_headers(catalog, language, book.id, settings)
            report = merge(catalog, template)
        made.append((path, None if not created and content(catalog) == before[path] else serialize(catalog), created, report))
    # Nothing is written unless every file can be: a message carried out of one file is only in the next.
    if too_big := [p for path, data, _, _ in made if data is not None and (p := too_big_to_read(data, path, "the updated catalog"))]:
        return BookUpdate([], [Problem(p.path, p.line, p.column, f"{p.message}; catalogs of the book not updated") for p in too_big], [])
    updated = []
    for path, data, created, report in made:
        if data is not None and write:
            remove_leftovers(path)
        written = data is not None and (write_atomic(path, data) if write else True)
        updated.append(Updated(path, language, created and data is not None, written, report))
    stale = [path for path in existing if path not in targets.values()]
    if write:
        _remove(stale, root)  # only now: everything they held is in the files just written
    return BookUpdate(updated, [], stale)


def _carry(book: Book, templates: dict[str, Catalog], read: dict[Path, Catalog], catalogs: dict[str, Catalog],
           targets: dict[str, Path], language: str, settings: HeaderSettings) -> list[Problem]:
    """Move every entry of ``read`` to the catalog of the part its msgctxt is filed in now
    (``catalogs``, a part's made when it has no file yet); the problems of two files that
    translate one message differently."""
    where = parts_of(book)
    part_at = {path: part for part, path in targets.items()}
    problems: list[Problem] = []

    def home(message: Message, path: Path) -> str:
        return where.get(message.context or "", part_at.get(path, BOOK_PART))

    def catalog_of(part: str) -> Catalog:
        if part not in catalogs:
            catalogs[part] = new_catalog(Catalog(creation_date=templates[part].creation_date), language, book.id, settings)
        return catalogs[part]

    for path, catalog in read.items():
        here = part_at.get(path)
        for message in [m for m in catalog if m.id]:
            if (part := home(message, path)) != here:
                catalog.delete(message.id, message.context)
                problems += _put(catalog_of(part), message, path, targets.get(part))
        for key, message in list(catalog.obsolete.items()):
            if (part := home(message, path)) != here:
                del catalog.obsolete[key]
                target = catalog_of(part)
                held = target.obsolete.get(key)
                if held is None or (message.string and not held.string):
                    target.obsolete[key] = message
                elif message.string and held.string != message.string:
                    problems.append(_differ(message, path, targets.get(part)))
    return problems


def _put(target: Catalog, message: Message, source: Path, shown: Path | None) -> list[Problem]:
    """Add a live message carried from ``source`` to ``target``; a problem when ``target`` holds
    it with another translation."""
    held = target.get(message.id, message.context)
    if held is None or (message.string and not held.string):
        if held is not None:
            target.delete(message.id, message.context)
        target[message.id] = message
        return []
    if not message.string or held.string == message.string:
        return []  # the same translation twice (a run stopped between writing one and removing the other)
    return [_differ(message, source, shown)]


def _differ(message: Message, source: Path, shown: Path | None) -> Problem:
    where = display_path(shown) if shown is not None else "its part's catalog"
    return Problem(display_path(source), message.lineno or 1, 1,
                   f"{message.context or message.id!r} is translated here and, differently, in {where}; "
                   "keep the right translation in one of the two files and delete the other entry")
