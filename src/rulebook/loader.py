"""Strict YAML -> model. Every problem is reported as ``path:line:column: what to do``.

All problems of a file are collected before raising, as far as the YAML parse allows.
"""

from __future__ import annotations

import bisect
import difflib
import doctest
import hashlib
import os
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from .cache import BuildCache, current, kind
from .engines import engine_symbols
from .errors import LoadError, Problem, RulebookError
from .languages import language as parse_language
from .limits import MAX_PROBLEMS, MAX_TEXT_CHARS, read_limited
from .model import BOOK_ID_RE, CATALOG_LAYOUTS, DASH_ONLY_RE, DEPARTS_FROM, ID_RE, SITE_DOMAIN, XREF_RE, Anchor, Book, Example, Rule, Ruling, Section, XRef
from .symbols import UNKNOWN_TOKEN_RE
from .yamlnodes import Mapping, Scalar, Sequence, YNode, building_tree, decode, parse

# [^<>] and not [^>]: a tag never spans another '<', so each '<' is scanned past once (linear).
_RAW_HTML_RE = re.compile(r"</?[A-Za-z][^<>]*>|&[a-zA-Z#0-9]+;")
#: A quotation inside a ruling's ``departs``: «…», “…” or "…" (a quote mark never spans another opening one, so the scan is linear).
DEPARTS_QUOTE_RE = re.compile(r"«([^«»]*)»|“([^“”]*)”|\"([^\"]*)\"")
#: A ruling quotes the passage it departs from in fewer words than this (longer: name its section).
DEPARTS_QUOTE_WORDS = 8


def display_path(path: str | os.PathLike[str]) -> str:
    """The path as a reader types it: relative to the working directory when inside it."""
    # Every problem and every check of a catalog shows its path: os.path on strings does in half
    # the time what Path.resolve().relative_to() did (the same resolved paths compared).
    real, here = os.path.realpath(path), os.path.realpath(os.getcwd())  # noqa: PTH109 - strings, as the comment above says
    if real == here:
        return "."
    inside = here if here.endswith(os.sep) else here + os.sep
    return real[len(inside):] if real.startswith(inside) else str(Path(path))


def _runnable(doctest_text: str) -> bool:
    """Whether doctest finds a line to run: a ``>>>`` that is only in the expected output, in the
    middle of a line or before nothing but a comment runs nothing, and the example would pass
    having checked nothing. A text doctest cannot parse is left to the run, which says why."""
    try:
        return bool(doctest.DocTestParser().get_examples(doctest_text))
    except ValueError:
        return True


@dataclass
class _PendingRef:
    ref: XRef
    offset: int  # in the text it was read from
    position: Callable[[int], tuple[int, int]]  # that text's offset -> (line, column)

    # Worked out only for a reference that turns out broken: most are fine.
    @property
    def line(self) -> int:
        return self.position(self.offset)[0]

    @property
    def column(self) -> int:
        return self.position(self.offset)[1]


@dataclass(frozen=True)
class _LocatedRef:
    """A reference into another book, checked once every book is loaded, with its position worked
    out while its file is read: a pending one's position holds its reader, and so every line of
    the file, for as long as the loaded book is kept (33 MB of the 50 x 200 corpus, issue 31.3)."""

    ref: XRef
    line: int
    column: int


class _Reader:
    """Walks the node tree of one file, building model objects and collecting problems."""

    def __init__(self, path: str, source: str):
        self.path = path
        self.source_lines = source.split("\n")
        self.problems: list[Problem] = []
        self.refs: list[_PendingRef] = []
        self.ids: dict[str, int] = {}
        #: Tokens that are no symbol of the toolkit: (token, line, column, field), resolved against
        #: the book's engine's own symbols once its header is read (:func:`_engine_symbols`).
        self.unknown_symbols: list[tuple[str, int, int, str]] = []
        #: The book's ``catalogs:``; with "sections" each section id is a file name (i18n/parts.py).
        self.catalogs = "book"

    def fail(self, node: YNode | Scalar, message: str) -> None:
        self.problems.append(Problem(self.path, node.line, node.column, message))

    def fields(self, node: YNode, what: str, required: set[str], optional: set[str]) -> dict[str, YNode]:
        if not isinstance(node, Mapping):
            self.fail(node, f"{what} must be a mapping with the fields {', '.join(sorted(required))}")
            return {}
        found = {}
        for name, (key, value) in node.items.items():
            if name in required or name in optional:
                found[name] = value
            else:
                known = ", ".join(sorted(required | optional))
                self.fail(key, f"unknown field {name!r} in {what}; known fields: {known}")
        for name in sorted(required - found.keys()):
            self.fail(node, f"missing field {name!r} in {what}")
        return found

    def string(self, node: YNode | None, what: str) -> str:
        if node is None:
            return ""
        if not isinstance(node, Scalar):
            self.fail(node, f"{what} must be a string")
            return ""
        return node.value

    def ident(self, node: YNode | None, what: str) -> str:
        value = self.string(node, what)
        if node is None or not isinstance(node, Scalar):
            return value
        if not ID_RE.match(value):
            self.fail(node, f"{what} {value!r} must be lower-case letters, digits, '.' or '-'")
        elif value in self.ids:
            self.fail(node, f"duplicate id {value!r} (first at line {self.ids[value]}); ids must be unique in a book")
        else:
            self.ids[value] = node.line
        return value

    def text(self, node: YNode | None, what: str) -> str:
        """A translatable text: symbols must be known, cross-references are checked later."""
        value = self.string(node, what)
        if not isinstance(node, Scalar):
            return value
        if not value.strip():
            self.fail(node, f"{what} is empty; write the text or remove the field")
        if len(value) > MAX_TEXT_CHARS:
            self.fail(node, f"{what} is {len(value):,} characters, more than the limit of {MAX_TEXT_CHARS:,}; split it")
            return value
        # Each scan only when its marker is in the text (most texts have no HTML, no dash line);
        # the offsets-to-lines table is built only when a position is asked for.
        position = self._locator(node)
        if "{" in value:
            for match in UNKNOWN_TOKEN_RE.finditer(value):
                self.unknown_symbols.append((match.group(0), *position(match.start()), what))
        if "<" in value or "&" in value:
            for match in _RAW_HTML_RE.finditer(value):
                self.problems.append(
                    Problem(self.path, *position(match.start()), f"raw HTML {match.group(0)!r} in {what}; use **bold**, *italic* or a symbol")
                )
        if "-" in value:
            for match in DASH_ONLY_RE.finditer(value):
                self.problems.append(Problem(self.path, *position(match.start()), f"a line with only '-' in {what}; write the list item after '- ' or remove the dash"))
        if "[[" in value:
            for match in XREF_RE.finditer(value):
                self.refs.append(_PendingRef(XRef(match.group(1), match.group(2)), match.start(), position))
            without_refs = XREF_RE.sub("", value)
            if "[[" in without_refs:
                self.problems.append(
                    Problem(self.path, *position(without_refs.index("[[")), f"malformed cross-reference in {what}; write [[rule-id]] or [[book:rule-id]]")
                )
        return value

    def _locator(self, node: Scalar) -> Callable[[int], tuple[int, int]]:
        """offset in the scalar's value -> (line, column) in the file, each call in log time."""
        # Only block scalars map offsets to lines exactly; flow scalars are folded by YAML.
        if node.style not in ("|", ">"):
            return lambda offset: (node.line, node.column)
        starts: list[int] = []

        def position(offset: int) -> tuple[int, int]:
            if not starts:
                starts.extend([0] + [m.end() for m in re.finditer("\n", node.value)])
            index = bisect.bisect_right(starts, offset) - 1
            line = node.line + 1 + index
            source = self.source_lines[line - 1] if line <= len(self.source_lines) else ""
            indent = len(source) - len(source.lstrip(" "))
            return line, indent + offset - starts[index] + 1

        return position

    def items(self, node: YNode | None, what: str) -> list[YNode]:
        if node is None:
            return []
        if not isinstance(node, Sequence):
            self.fail(node, f"{what} must be a list (lines starting with '- ')")
            return []
        return node.items

    @staticmethod
    def lines(found: dict[str, YNode]) -> dict[str, int]:
        return {name: node.line + (1 if isinstance(node, Scalar) and node.style in ("|", ">") else 0) for name, node in found.items()}

    # --- the schema, one method per object -------------------------------------------------

    def book(self, root: YNode) -> Book | None:
        top = self.fields(root, "the rulebook file", {"book", "sections"}, set())
        if "book" not in top:
            return None
        meta = self.fields(top["book"], "'book'", {"id", "title", "summary", "language", "engine"}, {"engine_data", "catalogs"})
        language = self.string(meta.get("language"), "book language")
        if isinstance(meta.get("language"), Scalar):
            try:
                language = parse_language(language).code
            except RulebookError as exc:
                self.fail(meta["language"], f"book language: {exc}")
        self.catalogs = self.layout(meta.get("catalogs"))  # before the sections: their ids name files then
        book_id = self.string(meta.get("id"), "book id")
        if "id" in meta and not BOOK_ID_RE.match(book_id):
            self.fail(meta["id"], f"book id {book_id!r} must be lower-case letters, digits or '-'")
        if book_id == SITE_DOMAIN:
            self.fail(meta["id"], f"book id {book_id!r} is taken by the catalog of the site's own words; choose another id")
        sections = tuple(
            section
            for index, node in enumerate(self.items(top.get("sections"), "'sections'"), start=1)
            if (section := self.section(node, index)) is not None
        )
        return Book(
            id=book_id,
            title=self.text(meta.get("title"), "book title"),
            summary=self.text(meta.get("summary"), "book summary"),
            language=language,
            engine=self.string(meta.get("engine"), "book engine"),
            engine_data=self.data_files(meta.get("engine_data")),
            sections=sections,
            catalogs=self.catalogs,
            path=self.path,
            line=root.line,
            lines=self.lines(meta),
        )

    def layout(self, node: YNode | None) -> str:
        """``catalogs``: one catalog per language for the book (the default) or one per section."""
        value = self.string(node, "book catalogs")
        if node is None or not isinstance(node, Scalar):
            return "book"
        if value not in CATALOG_LAYOUTS:
            self.fail(node, f"book catalogs {value!r} must be one of {', '.join(map(repr, CATALOG_LAYOUTS))} "
                            "('sections': one catalog per section, for a book whose catalog would be too large)")
            return "book"
        return value

    def data_files(self, node: YNode | None) -> tuple[str, ...]:
        """``engine_data``: files the engine reads, relative to this file; each must exist
        (checked when the book is a file: bytes handed over under a made-up name are not)."""
        found = []
        here = Path(self.path)
        for item in self.items(node, "'engine_data'"):
            name = self.string(item, "an engine data file")
            if name and here.is_file() and not (here.parent / name).is_file():
                self.fail(item, f"engine data file {name!r} not found next to {self.path}; write a path relative to this file")
            found.append(name)
        return tuple(found)

    def section(self, node: YNode, index: int) -> Section | None:
        found = self.fields(node, "a section", {"id", "title", "rules"}, {"intro", "number"})
        if not found:
            return None
        # The id first, so a duplicate is reported at the later of the two places.
        section_id = self.ident(found.get("id"), "section id")
        if self.catalogs == "sections" and section_id.split(".")[0] in WINDOWS_DEVICES:
            self.fail(found["id"], f"section id {section_id!r} names its catalog file ({section_id}.po, catalogs: sections), "
                                   "and Windows reserves that name for a device; choose another id")
        number = self.string(found.get("number"), "section number") or str(index)
        rules = tuple(
            rule
            for rule_index, rule_node in enumerate(self.items(found.get("rules"), "'rules'"), start=1)
            if (rule := self.rule(rule_node, f"{number}.{rule_index}")) is not None
        )
        return Section(
            id=section_id,
            number=number,
            title=self.text(found.get("title"), "section title"),
            intro=self.text(found.get("intro"), "section intro") if "intro" in found else "",
            rules=rules,
            path=self.path,
            line=node.line,
            lines=self.lines(found),
        )

    def rule(self, node: YNode, default_number: str) -> Rule | None:
        found = self.fields(node, "a rule", {"id", "text"}, {"number", "title", "examples", "rulings"})
        if not found:
            return None
        rule_id = self.ident(found.get("id"), "rule id")
        return Rule(
            id=rule_id,
            number=self.string(found.get("number"), "rule number") or default_number,
            title=self.text(found.get("title"), f"title of rule {rule_id!r}") if "title" in found else "",
            text=self.text(found.get("text"), f"text of rule {rule_id!r}"),
            examples=tuple(e for n in self.items(found.get("examples"), "'examples'") if (e := self.example(n)) is not None),
            rulings=tuple(r for n in self.items(found.get("rulings"), "'rulings'") if (r := self.ruling(n)) is not None),
            path=self.path,
            line=node.line,
            lines=self.lines(found),
        )

    def example(self, node: YNode) -> Example | None:
        found = self.fields(node, "an example", {"id", "text", "doctest"}, {"title"})
        if not found:
            return None
        example_id = self.ident(found.get("id"), "example id")
        doctest_node = found.get("doctest")
        doctest_text = self.string(doctest_node, "doctest")
        if isinstance(doctest_node, Scalar):
            if doctest_node.style != "|":
                self.fail(doctest_node, "a doctest must be a literal block: write 'doctest: |' and indent the lines below")
            elif not _runnable(doctest_text):
                self.fail(doctest_node, "this example has no '>>>' line to run")
        return Example(
            id=example_id,
            title=self.text(found.get("title"), f"title of example {example_id!r}") if "title" in found else "",
            text=self.text(found.get("text"), f"text of example {example_id!r}"),
            doctest=doctest_text,
            doctest_line=(doctest_node.line + 1) if doctest_node is not None else 0,
            path=self.path,
            line=node.line,
            lines=self.lines(found),
        )

    def ruling(self, node: YNode) -> Ruling | None:
        found = self.fields(node, "a ruling", {"id", "text", "reason"}, {"departs", "departs_from"})
        if not found:
            return None
        ruling_id = self.ident(found.get("id"), "ruling id")
        return Ruling(
            id=ruling_id,
            text=self.text(found.get("text"), f"text of ruling {ruling_id!r}"),
            reason=self.text(found.get("reason"), f"reason of ruling {ruling_id!r}"),
            departs=self.departs(found.get("departs"), ruling_id),
            departs_from=self.departs_from(found.get("departs_from"), "departs" in found, ruling_id),
            path=self.path,
            line=node.line,
            lines=self.lines(found),
        )

    def departs(self, node: YNode | None, ruling_id: str) -> str:
        """The passage of the source a ruling departs from: its section or a short quote."""
        if node is None:
            return ""
        value = self.text(node, f"departs of ruling {ruling_id!r}")
        for match in DEPARTS_QUOTE_RE.finditer(value):
            quoted = next(group for group in match.groups() if group is not None)
            if len(quoted.split()) >= DEPARTS_QUOTE_WORDS:
                line, column = self._locator(node)(match.start()) if isinstance(node, Scalar) else (node.line, node.column)
                self.problems.append(Problem(
                    self.path, line, column,
                    f"departs of ruling {ruling_id!r} quotes {len(quoted.split())} words of the source; quote fewer than "
                    f"{DEPARTS_QUOTE_WORDS} or name the passage's section instead"))
        return value


    def departs_from(self, node: YNode | None, departs: bool, ruling_id: str) -> str:
        """Whose words a ruling departs from: the source's (the default) or the game's rules."""
        if node is None:
            return DEPARTS_FROM[0]
        value = self.string(node, f"departs_from of ruling {ruling_id!r}")
        if value not in DEPARTS_FROM:
            self.fail(node, f"departs_from of ruling {ruling_id!r} is {value!r}; write one of: {', '.join(DEPARTS_FROM)}")
            return DEPARTS_FROM[0]
        if not departs:
            self.fail(node, f"departs_from of ruling {ruling_id!r} without departs; name the passage in departs, or remove departs_from")
        return value


#: File names Windows gives to devices, whatever their extension: a section id that names its
#: catalog file (``catalogs: sections``) must not be one.
WINDOWS_DEVICES = frozenset({"con", "prn", "aux", "nul", *(f"com{n}" for n in range(1, 10)), *(f"lpt{n}" for n in range(1, 10))})


#: The node-reading helpers (fields, strings, lists, problems at their position), for the other
#: strict readers of YAML files, such as the casting engine's card files.
NodeReader = _Reader


def _load(path: str | os.PathLike[str], reuse: bool = False) -> tuple[Book, list[_LocatedRef]]:
    shown = display_path(path)
    data = read_limited(path, shown)
    cache = current() if reuse else None
    if cache is None:
        return _load_bytes(data, shown)
    key = (str(Path(path).resolve()), shown)  # shown: the Book's path, as problems name it
    return cache.last(READ_BOOKS, key, lambda: _load_bytes(data, shown), digest=bytes_digest(data))


def bytes_digest(data: bytes) -> bytes:
    """What a kept value holds of the bytes it was made from: the cache keeps its inputs as long
    as the value, and every rulebook's bytes were 16 MB of the 50 x 200 corpus's build (issue 31.3)."""
    return hashlib.blake2b(data, digest_size=32).digest()


#: The last book read from each file (by its path and shown path), with a digest of the bytes it was read from.
READ_BOOKS = kind("read book", ("digest",), "a rulebook file parsed again only when its bytes changed (load_books(reuse=True): "
                  "mkdocs serve loads every file at each rebuild)")


def source_digest(cache: BuildCache, book: Book) -> str | None:
    """A digest of the bytes ``book`` was parsed from, taken from the cache's slot that made this
    very Book (None: the book was not read through this cache): what a stored kind made from
    the book is versioned by, without reading the file again (it may have changed since)."""
    made = cache.made_from(READ_BOOKS, (str(Path(book.path).resolve()), book.path))
    if made is None or not isinstance(made[1], tuple) or not made[1] or made[1][0] is not book:
        return None
    digest = made[0]["digest"]  # of the bytes (bytes_digest)
    return digest.hex() if isinstance(digest, bytes) else None


def _load_bytes(data: bytes, shown: str) -> tuple[Book, list[_LocatedRef]]:
    with building_tree():
        return _read_book(data, shown)


def _read_book(data: bytes, shown: str) -> tuple[Book, list[_LocatedRef]]:
    text = decode(data, shown)
    root = parse(text, shown)
    reader = _Reader(shown, text)
    book = reader.book(root)
    if reader.unknown_symbols:
        own, why = _engine_symbols(book)
        reader.problems.extend(
            Problem(shown, line, column, f"unknown symbol {token} in {field}; see docs/format.md for the list{why}")
            for token, line, column, field in reader.unknown_symbols if token not in own)
    foreign = []
    for pending in reader.refs:
        if pending.ref.book is not None and pending.ref.book != (book.id if book else None):
            foreign.append(_LocatedRef(pending.ref, *pending.position(pending.offset)))
        elif pending.ref.target not in reader.ids:
            reader.problems.append(
                Problem(shown, pending.line, pending.column, f"cross-reference {pending.ref} names no rule in this book{_did_you_mean(pending.ref.target, reader.ids)}")
            )
    if reader.problems or book is None:
        problems = sorted(reader.problems, key=lambda p: (p.line, p.column))
        if len(problems) > MAX_PROBLEMS:
            problems = problems[:MAX_PROBLEMS] + [Problem(shown, problems[MAX_PROBLEMS].line, 1, "too many problems; stopping")]
        raise LoadError(problems)
    return book, foreign


def _engine_symbols(book: Book | None) -> tuple[frozenset[str], str]:
    """The tokens of the symbols the book's engine adds (its ``symbols()`` hook, docs/engines.md),
    asked only when a text holds a token the toolkit does not know; and what a problem adds to
    say where else it looked."""
    if book is None or not book.engine:
        return frozenset(), ""
    try:
        own = frozenset(symbol.token for symbol in engine_symbols(book.engine))
    except RulebookError as exc:
        return frozenset(), f" (the engine's own symbols could not be read: {exc})"
    return own, (f"; engine {book.engine!r} adds {', '.join(sorted(own))}" if own else "")


def _did_you_mean(name: str, known: Iterable[str]) -> str:
    """``; did you mean 'vittoria'?`` for a name close to one that exists (difflib), else nothing."""
    close = difflib.get_close_matches(name, list(known), n=1)
    return f"; did you mean {close[0]!r}?" if close else ""


def load_book(path: str | os.PathLike[str]) -> Book:
    """Load one rulebook; links to other books are checked by :func:`load_library`."""
    return _load(path)[0]


def load_book_bytes(data: bytes, name: str) -> Book:
    """Load a rulebook handed over as bytes (Babel's extractors get an open file); problems name ``name``."""
    return _load_bytes(data, name)[0]


def load_library(paths: Iterable[str | os.PathLike[str]], *, reuse: bool = False) -> dict[str, Book]:
    """Load several rulebooks and check the links between them; every file's problems are kept.

    ``reuse``: a file whose bytes are those it had at the last such call gives the same (immutable)
    Book again, unparsed: ``mkdocs serve`` reloads the library after every saved file."""
    books, failed = load_books(paths, reuse=reuse)
    if failed:
        raise LoadError([problem for error in failed.values() for problem in error.problems])
    return books


def load_books(paths: Iterable[str | os.PathLike[str]], *, reuse: bool = False) -> tuple[dict[str, Book], dict[str, LoadError]]:
    """The books that load, and each file that does not with why: ``(books by id, {shown path: error})``.

    A book fails with its own problems, and so does a book whose cross-reference names a rule of
    a book that failed (its link would lead nowhere): the site publishes the others."""
    books: dict[str, Book] = {}
    foreign: list[tuple[Book, _LocatedRef]] = []
    failed: dict[str, list[Problem]] = {}
    for path in paths:
        try:
            book, refs = _load(path, reuse)
        except LoadError as exc:
            failed.setdefault(display_path(path), []).extend(exc.problems)
            continue
        if book.id in books:
            failed.setdefault(book.path, []).append(Problem(book.path, book.line, 1, f"book id {book.id!r} is also used by {books[book.id].path}"))
            continue
        books[book.id] = book
        foreign.extend((book, ref) for ref in refs)
    anchors: dict[str, dict[str, Anchor]] = {}  # each linked book's, made once: not once per link to it
    for book, pending in foreign:
        target = books.get(pending.ref.book or "")
        if target is not None and target.id not in anchors:
            anchors[target.id] = target.anchors()
        if target is None:
            problem = Problem(book.path, pending.line, pending.column, f"cross-reference {pending.ref} names an unknown book{_did_you_mean(pending.ref.book or '', books)}")
        elif pending.ref.target not in anchors[target.id]:
            problem = Problem(book.path, pending.line, pending.column, f"cross-reference {pending.ref} names no rule in {target.path}"
                              f"{_did_you_mean(pending.ref.target, anchors[target.id])}")
        else:
            continue
        failed.setdefault(book.path, []).append(problem)
    for book in [b for b in books.values() if b.path in failed]:
        del books[book.id]
    return books, {path: LoadError(problems) for path, problems in failed.items()}


def rulebook_paths(root: str | os.PathLike[str] = "rules") -> list[Path]:
    """The rulebook files under a folder (or the file itself), in a stable order."""
    root = Path(root)
    return [root] if root.is_file() else sorted(root.glob("*.yaml"))


def load_chosen(arguments: Iterable[str | os.PathLike[str]] = ()) -> dict[str, Book]:
    """The books named on a command line (files or folders; default ``rules``).

    Links may point into sibling rulebooks, so each chosen file's whole folder is loaded and
    checked too, but only the chosen books are returned.
    """
    arguments = list(arguments) or ["rules"]
    # Each file once (by where it resolves), read by the path it was found at: a problem names
    # rules/x.yaml, not what a link there points to.
    # realpath, not resolve: a link that leads to itself is kept as it is (the reader then
    # refuses it at its name), where resolve raises RuntimeError.
    chosen = {Path(os.path.realpath(path)): path for argument in arguments for path in rulebook_paths(argument)}
    if not chosen:
        raise RulebookError(f"no rulebook files (*.yaml) in {' '.join(map(str, arguments))}")
    siblings = {Path(os.path.realpath(sibling)): sibling for path in chosen.values() for sibling in rulebook_paths(path.parent)}
    library = load_library([path for _, path in sorted({**siblings, **chosen}.items())])
    return {book_id: book for book_id, book in library.items() if Path(book.path).resolve() in chosen}
