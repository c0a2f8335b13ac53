"""The typed, frozen model of a rulebook.

Every object keeps where it came from (``path`` and 1-based ``line``, plus the line of each
field in ``lines``) so errors, catalogs and failing examples can point back at the YAML.
Fields whose text is for readers are marked translatable in their metadata; the i18n stage
finds them through :func:`translatable_fields` and needs no list of its own.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path

TRANSLATABLE = {"translatable": True}
#: What a ruling's ``departs`` may name the words of: the book's source text, or the game's rules.
DEPARTS_FROM = ("source", "rules")
#: The gettext domain of the site's own words (labels, badges, symbol names). Each rulebook is
#: a domain named by its id, so no book may take this one.
SITE_DOMAIN = "site"
#: A book id: also its page, its catalog's domain and its msgctxt prefix. A domain a package
#: ships (the site's words, an engine's) is ``site`` or has a dot, so it is never a book's.
BOOK_ID_RE = re.compile(r"^[a-z0-9][a-z0-9-]*$")


def is_book_domain(domain: str) -> bool:
    """Whether a gettext domain holds a rulebook's text (else a package's words)."""
    return domain != SITE_DOMAIN and BOOK_ID_RE.match(domain) is not None

#: ``[[rule-id]]`` links within a book, ``[[book:rule-id]]`` across books.
XREF_RE = re.compile(r"\[\[(?:([a-z0-9][a-z0-9-]*):)?([a-z0-9][a-z0-9.-]*)\]\]")
ID_RE = re.compile(r"^[a-z0-9][a-z0-9.-]*$")
#: The values of a book's ``catalogs:`` (:attr:`Book.catalogs`).
CATALOG_LAYOUTS = ("book", "sections")
#: The marker of a list item in a text field: a line starting "- " with something after it.
#: The renderer, the extractor and the translation checks all use this one definition.
LIST_ITEM_RE = re.compile(r"^[ \t]*- +(?=\S)", re.MULTILINE)
#: A line holding only a dash: an empty list item, refused by the loader.
DASH_ONLY_RE = re.compile(r"^[ \t]*-[ \t]*$", re.MULTILINE)


@dataclass(frozen=True)
class XRef:
    """A cross-reference as written: ``book`` is None for a link within the same book."""

    book: str | None
    target: str

    def __str__(self) -> str:
        return f"[[{self.book + ':' if self.book else ''}{self.target}]]"


@dataclass(frozen=True, kw_only=True)
class Located:
    """Where a model object came from: its file, its 1-based line, the line of each field.

    Keyword-only, so each subclass lists its own fields first and positionally.
    """

    path: str = ""
    line: int = 0
    lines: Mapping[str, int] = field(default_factory=dict, compare=False, repr=False)


@dataclass(frozen=True)
class Example(Located):
    """A worked example: reader's text plus a doctest that is code, never translated."""

    id: str
    text: str = field(metadata=TRANSLATABLE)
    doctest: str
    doctest_line: int  # line of the doctest's first content line in the YAML file
    title: str = field(default="", metadata=TRANSLATABLE)


@dataclass(frozen=True)
class Ruling(Located):
    """A decision taken where the source text is silent or ambiguous, with its reason.

    ``departs`` is set only when the decision departs from literal words: it names the passage
    (its section, or a quote of under eight words), and ``reason`` says why. ``departs_from``
    says whose words they are, one of :data:`DEPARTS_FROM`: the book's source text (the
    default) or the game's own rules (a Magic book's Comprehensive Rules, which its source
    only refers to), so the page can say which one the ruling sets aside.
    """

    id: str
    text: str = field(metadata=TRANSLATABLE)
    reason: str = field(metadata=TRANSLATABLE)
    departs: str = field(default="", metadata=TRANSLATABLE)
    departs_from: str = "source"


@dataclass(frozen=True)
class Rule(Located):
    id: str
    number: str
    text: str = field(metadata=TRANSLATABLE)
    title: str = field(default="", metadata=TRANSLATABLE)
    examples: tuple[Example, ...] = ()
    rulings: tuple[Ruling, ...] = ()


@dataclass(frozen=True)
class Section(Located):
    id: str
    number: str
    title: str = field(metadata=TRANSLATABLE)
    intro: str = field(default="", metadata=TRANSLATABLE)
    rules: tuple[Rule, ...] = ()


@dataclass(frozen=True)
class Anchor:
    """Where a linkable id is, as a reference names it: the number of its section or rule and, for
    a ruling or an example, which of its rule's it is (from 1). The ids are the book's own words,
    so no reader sees one; the site words ``kind`` and ``index`` in the page's language."""

    number: str
    kind: str = ""  # "ruling" or "example"; "" for a section or a rule
    index: int = 0


@dataclass(frozen=True)
class Book(Located):
    id: str
    title: str = field(metadata=TRANSLATABLE)
    summary: str = field(metadata=TRANSLATABLE)
    language: str  # the source language (a gettext code such as it or pt_BR): its text is every msgid
    engine: str = ""  # an engine registered under the entry-point group rulebook.engines, or a module path
    #: Data files the engine reads besides its own (e.g. extra cards), as written: relative to the YAML file.
    engine_data: tuple[str, ...] = ()
    sections: tuple[Section, ...] = ()
    #: How its translations are filed: "book", one catalog per language (BOOK.po); "sections", one
    #: per section (BOOK/SECTION.po) besides BOOK.po for the book's own texts, so that a book the
    #: size of the Magic Comprehensive Rules has no catalog past the size limit (i18n/parts.py).
    catalogs: str = "book"

    def data_paths(self) -> tuple[Path, ...]:
        """The ``engine_data`` files, resolved against the folder of the book's YAML file."""
        return tuple(Path(self.path).parent / name for name in self.engine_data)

    def rules(self) -> Iterator[Rule]:
        for section in self.sections:
            yield from section.rules

    def examples(self) -> Iterator[tuple[Rule, Example]]:
        for rule in self.rules():
            for example in rule.examples:
                yield rule, example

    def anchors(self) -> dict[str, Anchor]:
        """Every linkable id (sections, rules, rulings, examples) -> where it is, as a reference names it."""
        found: dict[str, Anchor] = {}
        for section in self.sections:
            found[section.id] = Anchor(section.number)
            for rule in section.rules:
                found[rule.id] = Anchor(rule.number)
                for index, ruling in enumerate(rule.rulings, 1):
                    found[ruling.id] = Anchor(rule.number, "ruling", index)
                for index, example in enumerate(rule.examples, 1):
                    found[example.id] = Anchor(rule.number, "example", index)
        return found


Node = Book | Section | Rule | Example | Ruling


def translatable_fields(obj: Node) -> Iterator[tuple[str, str]]:
    """(field name, text) for each non-empty translatable field of one model object."""
    for f in fields(obj):
        if f.metadata.get("translatable"):
            value = getattr(obj, f.name)
            if value:
                yield f.name, value


def message_context(key: str, field_name: str) -> str:
    """The gettext msgctxt of one translatable field, e.g. ``bingomagic/palude:text``."""
    return f"{key}:{field_name}"


def walk(book: Book) -> Iterator[tuple[str, Node]]:
    """Every object of a book with a stable key (``book/section``, ``book/rule`` …).

    The key is made of ids only, so moving or renumbering a rule never changes it.
    """
    yield book.id, book
    for section in book.sections:
        yield f"{book.id}/{section.id}", section
        for rule in section.rules:
            yield f"{book.id}/{rule.id}", rule
            for example in rule.examples:
                yield f"{book.id}/{rule.id}/{example.id}", example
            for ruling in rule.rulings:
                yield f"{book.id}/{rule.id}/{ruling.id}", ruling
