"""pytest plugin: every worked example of every rulebook under a ``rules/`` folder is a test.

Items are named ``book::example-id``; a failure shows ``rules/FILE.yaml:LINE`` of the
failing ``>>>`` line, the same report the ``rulebook check`` command prints. The examples of a
book run together in one child process under the time and memory limits
(``--example-seconds``, ``--example-memory``; :mod:`rulebook.isolation`): an endless loop or an
``os._exit(0)`` fails its item, never hangs the session or ends it green.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cached_property
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

import pytest

from .errors import LoadError
from .examples import Outcome, engine_of, run_book
from .isolation import Bounds
from .limits import EXAMPLE_MEMORY_MB, EXAMPLE_SECONDS
from .loader import load_book
from .model import Book, Example, Rule

if TYPE_CHECKING:  # the types of pytest's own repr_failure, which pytest does not export
    from _pytest._code.code import TerminalRepr, TracebackStyle


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("rulebook")
    group.addoption("--example-seconds", type=float, default=EXAMPLE_SECONDS,
                    help=f"wall-clock seconds one worked example may run (default {EXAMPLE_SECONDS:g})")
    group.addoption("--example-memory", type=int, default=EXAMPLE_MEMORY_MB, metavar="MIB",
                    help=f"memory one worked example may add, in MiB (default {EXAMPLE_MEMORY_MB})")


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> RulebookFile | None:
    if file_path.suffix == ".yaml" and file_path.parent.name == "rules":
        return RulebookFile.from_parent(parent, path=file_path)
    return None


class RulebookFile(pytest.File):
    def collect(self) -> Iterator[BookNode]:
        try:
            book = load_book(self.path)
        except LoadError as exc:
            raise self.CollectError(str(exc)) from None
        yield BookNode.from_parent(self, name=book.id, book=book)


class BookNode(pytest.Collector):
    """The book level of ``FILE::book::example``: a node of its own, so a node id selects one example."""

    def __init__(self, *, book: Book, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.book = book

    @cached_property
    def engine(self) -> ModuleType | None:
        """Found once for the book's examples (a lookup reads every installed package's entry points)."""
        return engine_of(self.book)

    @cached_property
    def outcomes(self) -> dict[str, Outcome]:
        """Every example of the book, run once in one child process (a fork per example would
        cost more than most examples), by example id."""
        option = self.config.getoption
        bounds = Bounds(option("example_seconds"), option("example_memory"))
        return {o.example.id: o for o in run_book(self.book, self.engine, bounds)}

    def collect(self) -> Iterator[ExampleItem]:
        for rule, example in self.book.examples():
            yield ExampleItem.from_parent(self, name=example.id, book=self.book, rule=rule, example=example)


class ExampleFailed(Exception):
    def __init__(self, outcome: Outcome):
        self.outcome = outcome


class ExampleItem(pytest.Item):
    def __init__(self, *, book: Book, rule: Rule, example: Example, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.book, self.rule, self.example = book, rule, example

    def runtest(self) -> None:
        assert isinstance(self.parent, BookNode)  # collected only by BookNode.collect
        outcome = self.parent.outcomes[self.example.id]
        if not outcome.passed:
            raise ExampleFailed(outcome)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: TracebackStyle | None = None) -> str | TerminalRepr:
        if isinstance(excinfo.value, ExampleFailed):
            return excinfo.value.outcome.report()
        return super().repr_failure(excinfo, style)

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, self.example.line - 1, f"{self.book.id}::{self.example.id}"
