"""Strict YAML -> plain nodes with positions, built from PyYAML's event stream.

We compose nodes ourselves instead of using PyYAML's composer/constructor because:
- anchors, aliases and tags are refused at the event, so an alias bomb costs nothing and
  no ``!!python/...`` object can ever be built;
- every scalar stays a string (no ``no`` -> False, no ``601.10`` -> 601.1);
- duplicate keys, which PyYAML accepts silently, become errors.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import yaml

from .errors import LoadError, Problem

try:  # the C parser is much faster; the pure-Python one behaves the same
    from yaml import CSafeLoader as _Loader
except ImportError:  # pragma: no cover - depends on how PyYAML was built
    from yaml import SafeLoader as _Loader  # type: ignore[assignment]

MAX_PROBLEMS = 50


@dataclass
class Scalar:
    value: str
    line: int  # 1-based
    column: int  # 1-based
    style: str | None = None  # None plain, '"' or "'" quoted, '|' literal, '>' folded


@dataclass
class Sequence:
    items: list["YNode"]
    line: int
    column: int


@dataclass
class Mapping:
    items: dict[str, tuple[Scalar, "YNode"]] = field(default_factory=dict)
    line: int = 0
    column: int = 0


YNode = Scalar | Sequence | Mapping


def decode(data: bytes, path: str) -> str:
    """UTF-8 only; a bad byte is reported at its line and column."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = data[: exc.start]
        line = before.count(b"\n") + 1
        column = exc.start - (before.rfind(b"\n") + 1) + 1
        raise LoadError(
            [Problem(path, line, column, f"byte {data[exc.start]:#04x} is not UTF-8; save the file as UTF-8")]
        ) from None
    return text.removeprefix("\ufeff")


def _tab_problems(text: str, path: str) -> list[Problem]:
    problems = []
    for number, line in enumerate(text.splitlines(), start=1):
        indent = line[: len(line) - len(line.lstrip(" \t"))]
        if "\t" in indent:
            problems.append(Problem(path, number, indent.index("\t") + 1, "tab in indentation; indent with spaces"))
    return problems


def parse(text: str, path: str) -> YNode:
    """Parse one YAML document into nodes, or raise LoadError with every problem found."""
    problems = _tab_problems(text, path)
    if problems:
        raise LoadError(problems)
    stack: list[YNode] = []
    pending_key: list[Scalar | None] = []
    documents: list[YNode] = []

    def mark(event: yaml.Event) -> tuple[int, int]:
        return event.start_mark.line + 1, event.start_mark.column + 1

    def problem(event: yaml.Event, message: str) -> None:
        problems.append(Problem(path, *mark(event), message))
        if len(problems) >= MAX_PROBLEMS:
            raise LoadError(problems + [Problem(path, *mark(event), "too many problems; stopping")])

    def attach(node: YNode, event: yaml.Event) -> None:
        if not stack:
            documents.append(node)
            return
        parent = stack[-1]
        if isinstance(parent, Sequence):
            parent.items.append(node)
        elif pending_key[-1] is None:
            if not isinstance(node, Scalar):
                problem(event, "a mapping key must be a plain string")
                node = Scalar("", *mark(event))
            pending_key[-1] = node
        else:
            key = pending_key[-1]
            pending_key[-1] = None
            if key.value in parent.items:
                first = parent.items[key.value][0]
                problems.append(
                    Problem(path, key.line, key.column, f"duplicate key {key.value!r} (first at line {first.line}); remove one")
                )
            else:
                parent.items[key.value] = (key, node)

    try:
        for event in yaml.parse(text, Loader=_Loader):
            if getattr(event, "anchor", None) is not None:
                kind = "alias" if isinstance(event, yaml.AliasEvent) else "anchor"
                problem(event, f"YAML {kind} {'*' if kind == 'alias' else '&'}{event.anchor} is not allowed; write the value out")
                if isinstance(event, yaml.AliasEvent):
                    attach(Scalar("", *mark(event)), event)
                    continue
            if getattr(event, "tag", None) is not None:
                problem(event, f"explicit tag {event.tag!r} is not allowed; remove it")
            if isinstance(event, yaml.ScalarEvent):
                attach(Scalar(event.value, *mark(event), style=event.style), event)
            elif isinstance(event, yaml.SequenceStartEvent):
                stack.append(Sequence([], *mark(event)))
                pending_key.append(None)
            elif isinstance(event, yaml.MappingStartEvent):
                stack.append(Mapping({}, *mark(event)))
                pending_key.append(None)
            elif isinstance(event, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
                node = stack.pop()
                pending_key.pop()
                attach(node, event)
    except yaml.MarkedYAMLError as exc:
        where = exc.problem_mark or exc.context_mark
        line, column = (where.line + 1, where.column + 1) if where else (1, 1)
        what = " ".join(str(part) for part in (exc.context, exc.problem) if part)
        if "mapping values are not allowed" in what:
            what += " (a text containing ': ' must be quoted or written as a '|' block)"
        problems.append(Problem(path, line, column, f"YAML syntax: {what}"))
        raise LoadError(problems) from None
    if not documents:
        problems.append(Problem(path, 1, 1, "empty file; a rulebook needs at least a 'book' mapping"))
    elif len(documents) > 1:
        second = documents[1]
        problems.append(Problem(path, second.line, second.column, "more than one YAML document; keep one per file"))
    if problems:
        raise LoadError(problems)
    return documents[0]
