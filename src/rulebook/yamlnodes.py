"""Strict YAML -> plain nodes with positions, built from PyYAML's event stream.

We compose nodes ourselves instead of using PyYAML's composer/constructor because:
- anchors, aliases and tags are refused at the event, so an alias bomb costs nothing and
  no ``!!python/...`` object can ever be built;
- every scalar stays a string (no ``no`` -> False, no ``601.10`` -> 601.1);
- duplicate keys, which PyYAML accepts silently, become errors;
- characters YAML forbids, deep nesting and oversized files are refused at a position, before
  libyaml sees them (its own errors for these carry byte offsets, or come after minutes);
- our limits hold whatever limits the installed libyaml has: where libyaml stops first (the one
  of PyYAML 6.0.4 reads 1,000 levels of '[' ahead before it hands over the first event), the text
  up to its stop is read again, and our limit speaks if it is reached there.

Every YAML file of the project (rulebooks, cards, the glossary) is read through here; what it
needs of PyYAML beyond its documented API, and the parsers' error texts, are in
adapters/pyyaml.py.
"""

from __future__ import annotations

import gc
import os
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from .adapters import pyyaml
from .adapters.pyyaml import ALIAS as _ALIAS
from .adapters.pyyaml import END_MAPPING as _END_MAPPING
from .adapters.pyyaml import END_SEQUENCE as _END_SEQUENCE
from .adapters.pyyaml import SCALAR as _SCALAR
from .adapters.pyyaml import START_MAPPING as _START_MAPPING
from .adapters.pyyaml import START_SEQUENCE as _START_SEQUENCE
from .errors import LoadError, Problem
from .limits import MAX_DEPTH, MAX_PROBLEMS, MAX_VALUES, read_limited, size_problem

# What YAML 1.1 does not allow in a stream: C0 controls but tab/LF/CR, DEL, C1 controls but
# NEL, and U+FFFE/U+FFFF (libyaml's own reader refuses the same, without a line number).
# NEL, U+2028 and U+2029 are allowed by YAML but are line breaks to it and to no editor, so
# every line number after one would be wrong: refused too.
_FORBIDDEN_RE = re.compile("[^\x09\x0a\x0d\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


@dataclass
class Scalar:
    value: str
    line: int  # 1-based
    column: int  # 1-based
    style: str | None = None  # None plain, '"' or "'" quoted, '|' literal, '>' folded


@dataclass
class Sequence:
    items: list[YNode]
    line: int
    column: int


@dataclass
class Mapping:
    items: dict[str, tuple[Scalar, YNode]] = field(default_factory=dict)
    line: int = 0
    column: int = 0


YNode = Scalar | Sequence | Mapping


def decode(data: bytes, path: str) -> str:
    """UTF-8 only; a bad byte, a forbidden character or an oversized file is reported where it is."""
    if (too_big := size_problem(len(data), "the file")) is not None:
        raise LoadError([Problem(path, 1, 1, too_big)])
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        # The bytes before it are ASCII-compatible UTF-8: counted as text, one character a byte.
        line, column = line_column(data[: exc.start].decode("latin-1"), exc.start)
        raise LoadError(
            [Problem(path, line, column, f"byte {data[exc.start]:#04x} is not UTF-8; save the file as UTF-8")]
        ) from None
    text = text.removeprefix("\ufeff")
    problems = []
    for match in _FORBIDDEN_RE.finditer(text):
        line, column = line_column(text, match.start())
        problems.append(Problem(path, line, column, f"invisible character U+{ord(match.group()):04X} is not allowed in YAML; delete it"))
        if len(problems) >= MAX_PROBLEMS:
            problems.append(Problem(path, line, column, "too many problems; stopping"))
            break
    if problems:
        raise LoadError(problems)
    return text


def line_column(text: str, offset: int) -> tuple[int, int]:
    """The 1-based line and column of a character offset, lines ended as YAML ends them: by
    CR LF, LF or a CR alone (an old Mac file: counting LF only put its problems on line 1)."""
    before = text[:offset]
    if "\r" not in before:
        return before.count("\n") + 1, offset - (before.rfind("\n") + 1) + 1
    breaks = list(_BREAK_RE.finditer(before))
    return len(breaks) + 1, offset - (breaks[-1].end() if breaks else 0) + 1


_BREAK_RE = re.compile(r"\r\n?|\n")


def read_yaml(path: str | os.PathLike[str], shown: str, needs: str) -> YNode:
    """One YAML file from disk into nodes; ``shown`` names it in problems, ``needs`` says what an empty one lacks."""
    with building_tree():
        return parse(decode(read_limited(path, shown), shown), shown, needs)


@contextmanager
def building_tree() -> Iterator[None]:
    """No cyclic garbage collection while a file's tree is built.

    A load makes a hundred thousand small objects and no cycle; each few hundred of them would
    otherwise start a collection that walks all the others again (a third of a large load's time).
    Collection resumes afterwards, unless the caller had it off already.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


# The first tab of an indentation: only spaces before it on its line.
_INDENT_TAB_RE = re.compile(r"^ *\t", re.MULTILINE)


def _tab_problems(text: str, path: str) -> list[Problem]:
    problems = []
    for match in _INDENT_TAB_RE.finditer(text):
        line, _ = line_column(text, match.start())
        problems.append(Problem(path, line, match.end() - match.start(), "tab in indentation; indent with spaces"))
        if len(problems) >= MAX_PROBLEMS:
            problems.append(Problem(path, line, 1, "too many problems; stopping"))
            break
    return problems


_DEPTH_MESSAGE = f"nested more than {MAX_DEPTH} levels deep; flatten the structure"


class _LimitReached(LoadError):
    """One of our limits (depth, values) was reached before the YAML ended."""


# A line break as YAML counts them (decode() has refused NEL and U+2028/9 already).


def _offset(text: str, line: int, column: int) -> int:
    """The character offset of a 1-based line and column as the parser counts them."""
    start = 0
    if line > 1:
        for number, found in enumerate(_BREAK_RE.finditer(text), start=2):
            start = found.end()
            if number == line:
                break
    return min(start + column - 1, len(text))


_KEY_LINE = re.compile(r"^( *)(?:- +)?([^\s#'\"][^:#]*?):[ \t]+\S")


def _over_indented(text: str, line: int) -> str | None:
    """The advice for a ``key: value`` line indented deeper than the ``key: text`` line above it,
    which YAML reads as more of that text, then stumbles on its ':' ("mapping values are not
    allowed"): indent it as the key above. None when the line is not that case."""
    lines = text.split("\n")
    if not 1 < line <= len(lines):
        return None
    here = _KEY_LINE.match(lines[line - 1])
    above = next((lines[n] for n in range(line - 2, -1, -1) if lines[n].strip()), "")
    there = _KEY_LINE.match(above)
    if here is None or there is None:
        return None
    column, above_column = len(here.group(1)) + 1, above.index(there.group(2)) + 1
    if column <= above_column:
        return None
    return (f"'{here.group(2).strip()}:' is indented deeper than '{there.group(2).strip()}:' on the line above (column {column}, "
            f"not {above_column}), so YAML reads it as more of that line's text: indent it as '{there.group(2).strip()}:'")


def _under_indented(text: str, line: int) -> str | None:
    """The advice for a ``key: value`` line indented less than the key of the list item above it
    (``- id: x``) but more than that item's '-': it continues neither the item's mapping nor the
    list. None when the line is not that case."""
    lines = text.split("\n")
    if not 1 < line <= len(lines):
        return None
    here = _KEY_LINE.match(lines[line - 1])
    above = next((lines[n] for n in range(line - 2, -1, -1) if lines[n].strip()), "")
    item = re.match(r"^( *)- +([^\s#'\"{\[][^:#]*?):[ \t]", above)
    if here is None or item is None:
        return None
    column, dash, key = len(here.group(1)) + 1, len(item.group(1)) + 1, above.index(item.group(2)) + 1
    if not dash < column < key:
        return None
    return (f"'{here.group(2).strip()}:' is indented less than '{item.group(2).strip()}:' on the line above (column {column}, "
            f"not {key}): indent it as '{item.group(2).strip()}:' to go on with that item, or start a new item with '- ' at column {dash}")


def parse(text: str, path: str, needs: str = "a rulebook needs at least a 'book' mapping", max_values: int | None = None) -> YNode:
    """Parse one YAML document into nodes, or raise LoadError with every problem found;
    ``max_values``: the most values the file may hold (default MAX_VALUES)."""
    problems = _tab_problems(text, path)
    if problems:
        raise LoadError(problems)
    return _parse(text, path, needs, recheck=True, max_values=MAX_VALUES if max_values is None else max_values)


def _parse(text: str, path: str, needs: str, recheck: bool, max_values: int) -> YNode:
    """The event walk of parse(); ``recheck``: on a parser's error, read the text up to it again for our limits."""
    problems: list[Problem] = []
    stack: list[Sequence | Mapping] = []  # the open collections (a scalar is attached at once)
    pending_key: list[Scalar | None] = []
    documents: list[YNode] = []

    def mark(event: Any) -> tuple[int, int]:
        return event.start_mark.line + 1, event.start_mark.column + 1

    def problem(where: tuple[int, int], message: str) -> None:
        problems.append(Problem(path, *where, message))
        if len(problems) >= MAX_PROBLEMS:
            raise LoadError(problems + [Problem(path, *where, "too many problems; stopping")])

    def attach(node: YNode, event: Any) -> None:
        if not stack:
            documents.append(node)
            return
        parent = stack[-1]
        if isinstance(parent, Sequence):
            parent.items.append(node)
        elif pending_key[-1] is None:
            if not isinstance(node, Scalar):
                problem((node.line, node.column), "a mapping key must be a plain string")
                node = Scalar("", *mark(event))
            pending_key[-1] = node
        else:
            key = pending_key[-1]
            pending_key[-1] = None
            if key.value in parent.items:
                first = parent.items[key.value][0]
                # Through problem(): 5,000 duplicates were 4,999 lines, past the cap of the others.
                problem((key.line, key.column), f"duplicate key {key.value!r} (first at line {first.line}); remove one")
            else:
                parent.items[key.value] = (key, node)

    values = 0
    loader = pyyaml.Loader(text)
    # Each event's fields depend on its class, which the loop below dispatches on by identity,
    # not isinstance: to the type checker an event is Any (libyaml's are C objects anyway).
    get_event: Callable[[], Any] = loader.get_event
    try:
        # One C call per event (yaml.parse wraps two, check then get), and dispatch on the
        # event's class: this loop is most of a load's cost beyond libyaml's own.
        for event in iter(get_event, None):
            kind = event.__class__
            if kind is _SCALAR or kind is _START_SEQUENCE or kind is _START_MAPPING or kind is _ALIAS:
                values += 1
                if values > max_values:
                    problems.append(Problem(path, *mark(event), f"more than {max_values:,} values in one file; split it"))
                    raise _LimitReached(problems)
                if event.anchor is not None:
                    alias = kind is _ALIAS
                    problem(mark(event), f"YAML {'alias' if alias else 'anchor'} {'*' if alias else '&'}{event.anchor} is not allowed; write the value out")
                    if alias:
                        attach(Scalar("", *mark(event)), event)
                        continue
                if event.tag is not None:
                    problem(mark(event), f"explicit tag {event.tag!r} is not allowed; remove it")
                start = event.start_mark
                if kind is _SCALAR:
                    attach(Scalar(event.value, start.line + 1, start.column + 1, event.style), event)
                    continue
                if len(stack) >= MAX_DEPTH:
                    # libyaml's time grows with the square of the depth: stop at the limit.
                    problems.append(Problem(path, *mark(event), _DEPTH_MESSAGE))
                    raise _LimitReached(problems)
                stack.append(Sequence([], start.line + 1, start.column + 1) if kind is _START_SEQUENCE else Mapping({}, start.line + 1, start.column + 1))
                pending_key.append(None)
            elif kind is _END_SEQUENCE or kind is _END_MAPPING:
                node = stack.pop()
                pending_key.pop()
                attach(node, event)
    except pyyaml.SyntaxError_ as exc:
        found = pyyaml.syntax(exc)
        if recheck:
            # The parser may have stopped at a limit of its own, or read far ahead of the events
            # it handed over: the text before its stop holds our limits first, if it reaches them.
            try:
                _parse(text[:_offset(text, found.line, found.column)], path, needs, recheck=False, max_values=max_values)
            except _LimitReached as limit:
                raise LoadError(limit.problems) from None
            except LoadError:
                pass
        # A line indented deeper than the 'key: text' above it, or between a list item's '-' and
        # its key: the parser's words (a ':' that cannot start a value, a line that does not go on
        # with the list) would send the author to quote a text or add a '- '; the cause is the indentation.
        hint = (_over_indented(text, found.line) or _under_indented(text, found.line)) if found.message != pyyaml.NESTING else None
        message = _DEPTH_MESSAGE if found.message == pyyaml.NESTING else f"YAML syntax: {hint or found.message}"
        problems.append(Problem(path, found.line, found.column, message))
        raise LoadError(problems) from None
    except pyyaml.Error:  # pragma: no cover - decode() refuses what the reader would
        problems.append(Problem(path, 1, 1, "not valid YAML; check the file's encoding (UTF-8) and its quotes"))
        raise LoadError(problems) from None
    finally:
        loader.dispose()
    if not documents:
        problems.append(Problem(path, 1, 1, f"empty file; {needs}"))
    elif len(documents) > 1:
        second = documents[1]
        problems.append(Problem(path, second.line, second.column, "more than one YAML document; keep one per file"))
    if problems:
        raise LoadError(problems)
    return documents[0]
