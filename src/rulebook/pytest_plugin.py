"""pytest plugin: every worked example of every rulebook under a ``rules/`` folder is a test.

Items are named ``book::example-id``; a failure shows ``rules/FILE.yaml:LINE`` of the
failing ``>>>`` line, the same report the ``rulebook check`` command prints.
"""

from __future__ import annotations

from functools import cached_property

import pytest

from .errors import LoadError
from .examples import Outcome, engine_of, run_example
from .loader import load_book


def pytest_collect_file(file_path, parent):  # noqa: ANN001 - pytest hook signature
    if file_path.suffix == ".yaml" and file_path.parent.name == "rules":
        return RulebookFile.from_parent(parent, path=file_path)
    return None


class RulebookFile(pytest.File):
    def collect(self):
        try:
            book = load_book(self.path)
        except LoadError as exc:
            raise self.CollectError(str(exc)) from None
        yield BookNode.from_parent(self, name=book.id, book=book)


class BookNode(pytest.Collector):
    """The book level of ``FILE::book::example``: a node of its own, so a node id selects one example."""

    def __init__(self, *, book, **kwargs):  # noqa: ANN001
        super().__init__(**kwargs)
        self.book = book

    @cached_property
    def engine(self):  # noqa: ANN201 - a module or None
        """Found once for the book's examples (a lookup reads every installed package's entry points)."""
        return engine_of(self.book)

    def collect(self):
        for rule, example in self.book.examples():
            yield ExampleItem.from_parent(self, name=example.id, book=self.book, rule=rule, example=example)


class ExampleFailed(Exception):
    def __init__(self, outcome: Outcome):
        self.outcome = outcome


class ExampleItem(pytest.Item):
    def __init__(self, *, book, rule, example, **kwargs):  # noqa: ANN001
        super().__init__(**kwargs)
        self.book, self.rule, self.example = book, rule, example

    def runtest(self) -> None:
        outcome = run_example(self.book, self.rule, self.example, self.parent.engine)
        if not outcome.passed:
            raise ExampleFailed(outcome)

    def repr_failure(self, excinfo, style=None):  # noqa: ANN001
        if isinstance(excinfo.value, ExampleFailed):
            return excinfo.value.outcome.report()
        return super().repr_failure(excinfo, style)

    def reportinfo(self):
        return self.path, self.example.line - 1, f"{self.book.id}::{self.example.id}"
