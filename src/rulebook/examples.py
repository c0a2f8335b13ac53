"""Worked examples as doctests: regions of the YAML, run by the stdlib doctest machinery.

Like Sybil: each example's doctest is a region whose first line is known, the evaluator is
:class:`doctest.DocTestRunner`, and each failure is mapped back to ``rules/FILE.yaml:LINE``
of its ``>>>`` line. The globals of a doctest are the engine's namespace for the book
(:func:`rulebook.engines.namespace`).

The doctest runs inside :func:`rulebook.engines.base.recording`: every action it applies and
every one the game refuses is kept on the :class:`Outcome` (``records``), so what the site tells
of the example in words comes from the very run that proved it.
"""

from __future__ import annotations

import doctest
import traceback
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import partial
from types import ModuleType, TracebackType
from typing import Any

from .cache import BuildCache, Same, current, kind
from .engines import book_engine, namespace
from .engines.base import Record, State, recording
from .errors import RulebookError
from .figures import BoardFigure
from .isolation import Bounds, run_bounded
from .model import Book, Example, Rule
from .stored_outcomes import Slim, kept_or_run

OPTIONS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
#: The doctest variable whose final value is drawn beside the example (if it has a board).
FIGURE_NAME = "state"


@dataclass(frozen=True)
class Failure:
    path: str
    line: int
    source: str
    expected: str
    got: str

    def __str__(self) -> str:
        def block(text: str) -> str:
            return "".join(f"    {line}\n" for line in (text.rstrip("\n") or "(nothing)").split("\n"))

        return f"{self.path}:{self.line}: >>> {self.source.rstrip()}\n  Expected:\n{block(self.expected)}  Got:\n{block(self.got)}"


@dataclass(frozen=True)
class Outcome:
    """What happened to one worked example."""

    book: Book
    rule: Rule
    example: Example
    attempted: int
    failures: tuple[Failure, ...] = field(default=())
    # The boards ``state`` showed as the doctest ran, in order, each differing from the one
    # before; the last is the board of the example's final ``state`` (none: no board).
    positions: tuple[BoardFigure, ...] = ()
    records: tuple[Record, ...] = ()  # what the doctest applied and what was refused, in order
    not_run: str = ""  # why the doctest could not run at all (the book's engine missing, a broken >>> line)

    @property
    def figure(self) -> BoardFigure | None:
        """The board at the end of the example, if its ``state`` has one."""
        return self.positions[-1] if self.positions else None

    @property
    def before(self) -> BoardFigure | None:
        """The board the example starts from, when its pieces moved since (None: nothing moved)."""
        if len(self.positions) > 1 and self.positions[0].pieces != self.positions[-1].pieces:
            return self.positions[0]
        return None

    @property
    def passed(self) -> bool:
        return self.attempted > 0 and not self.failures

    @property
    def name(self) -> str:
        return f"{self.book.id}::{self.example.id}"

    def report(self) -> str:
        head = f"FAILED {self.name} (rule {self.rule.number} {self.rule.id})"
        if self.not_run:
            return f"{head}: not run: {self.not_run}"
        return "\n".join([head, *(str(f) for f in self.failures)])


class _CollectingRunner(doctest.DocTestRunner):
    """Keeps failures as values instead of printing them."""

    def __init__(self) -> None:
        super().__init__(verbose=False, optionflags=OPTIONS)
        self.found: list[Failure] = []
        self.current: doctest.Example | None = None  # the example being run, and how many have started
        self.current_number = 0
        self.positions: list[BoardFigure] = []

    def report_start(self, out: Callable[[str], object], test: doctest.DocTest, example: doctest.Example) -> None:
        self.current, self.current_number = example, self.current_number + 1
        self.see(test.globs)

    def see(self, globs: dict[str, object]) -> None:
        """Keep the board ``state`` shows now, if it differs from the last one kept: what ran up
        to this ``>>>`` line made it (the engine computes every board; nothing is drawn here)."""
        figure = _figure(globs.get(FIGURE_NAME))
        if figure is not None and (not self.positions or self.positions[-1] != figure):
            self.positions.append(figure)

    def _line(self, test: doctest.DocTest, example: doctest.Example) -> int:
        return (test.lineno or 0) + example.lineno + 1

    def report_failure(self, out: Callable[[str], object], test: doctest.DocTest, example: doctest.Example, got: str) -> None:
        self.found.append(Failure(test.filename or "", self._line(test, example), example.source, example.want, got))

    def report_unexpected_exception(self, out: Callable[[str], object] | None, test: doctest.DocTest, example: doctest.Example,
                                    exc_info: tuple[type[BaseException], BaseException, TracebackType | None]) -> None:
        got = "".join(traceback.format_exception_only(exc_info[0], exc_info[1]))
        self.found.append(Failure(test.filename or "", self._line(test, example), example.source, example.want, got))


def run_example(book: Book, rule: Rule, example: Example, engine: ModuleType | None = None) -> Outcome:
    """Run one example's doctest; never raises for a failing or broken doctest.

    ``engine``: the book's engine, if already found (:func:`engine_of`)."""
    try:
        globs = namespace(book, engine)
        test = doctest.DocTestParser().get_doctest(
            example.doctest, globs, f"{book.id}::{example.id}", book.path, example.doctest_line - 1
        )
    except (RulebookError, ValueError) as exc:
        # ValueError: doctest's own parser (e.g. a '>>>' line without a space after it).
        failure = Failure(book.path, example.doctest_line, "", "a runnable doctest", str(exc))
        return Outcome(book, rule, example, attempted=0, failures=(failure,), not_run=str(exc))
    runner = _CollectingRunner()
    with recording() as records:
        try:
            result = runner.run(test, out=lambda _text: None, clear_globs=False)
        except KeyboardInterrupt as exc:
            # doctest lets it through (to stop a session); raised by an example, it is the
            # example's failure, at its line, and the other examples still run. A real Ctrl-C
            # stops the process that runs the examples all the same (see isolation.py).
            assert runner.current is not None  # an example raised it, so one has started
            runner.report_unexpected_exception(None, test, runner.current, (type(exc), exc, None))
            result = doctest.TestResults(len(runner.found), runner.current_number)
    runner.see(test.globs)
    final = _figure(test.globs.get(FIGURE_NAME))  # the last of runner.positions, or no board at all
    test.globs.clear()
    positions = tuple(runner.positions) if final is not None else ()
    return Outcome(book, rule, example, attempted=result.attempted, failures=tuple(runner.found), positions=positions,
                   records=tuple(records))


def reports(outcomes: Iterable[Outcome]) -> list[str]:
    """What failed, in order: a reason the examples of a book share (its engine is missing) is
    said once for them all, not once an example."""
    said: list[str] = []
    shared: dict[tuple[str, str], list[Outcome]] = {}
    for outcome in outcomes:
        if outcome.passed:
            continue
        if not outcome.not_run:
            said.append(outcome.report())
            continue
        key = (outcome.book.id, outcome.not_run)
        if key not in shared:
            said.append(key)  # type: ignore[arg-type]  # replaced below, in its place
        shared.setdefault(key, []).append(outcome)
    return [_shared_report(shared[item]) if isinstance(item, tuple) else item for item in said]


def _shared_report(group: list[Outcome]) -> str:
    if len(group) == 1:
        return group[0].report()
    return f"FAILED {group[0].book.id}: {len(group)} examples not run: {group[0].not_run}"


def _figure(value: object) -> BoardFigure | None:
    # Board positions are drawn from the example's state, never from a picture file.
    if isinstance(value, State):
        return value.figure()
    return None


def engine_of(book: Book) -> ModuleType | None:
    """The book's engine, found once for all its examples; None when it is missing or broken
    (each example then reports why, at the book's ``engine:`` line)."""
    try:
        return book_engine(book)
    except RulebookError:
        return None


def run_books(books: Iterable[Book], *, reuse: bool = False, bounds: Bounds | None = None) -> list[Outcome]:
    """Every worked example's outcome; the examples of each book run in a child process, each
    within ``bounds`` (time, memory: :mod:`rulebook.isolation`), so none can hang or end the run.

    ``reuse``: a book equal to the one last run (same examples, texts and lines) with the same
    engine module and bounds keeps its outcomes, in the active build cache (:mod:`rulebook.cache`).
    ``mkdocs serve`` reloads every book at each edit, and only the edited one runs again."""
    outcomes = []
    cache = current() if reuse else None
    for book in books:
        engine = engine_of(book)
        if cache is None:
            outcomes.extend(run_book(book, engine, bounds))
        else:
            outcomes.extend(cache.last(OUTCOMES, book.id, partial(_kept_or_run, cache, book, engine, bounds),
                                       book=book, engine=Same(engine), bounds=bounds))
    return outcomes


OUTCOMES = kind("outcomes", ("book", "engine", "bounds"), "a book's worked examples run again only when the book, its engine "
                "module (a reloaded one is another) or the limits they run under changed")


def _kept_or_run(cache: BuildCache, book: Book, engine: ModuleType | None, bounds: Bounds | None) -> list[Outcome]:
    """The book's outcomes: each example an earlier build kept (:mod:`rulebook.stored_outcomes`) or run now."""
    if engine is None:  # every example says why it could not run
        return run_book(book, engine, bounds)
    pairs = list(book.examples())
    found = kept_or_run(cache, book, [example for _, example in pairs], bounds,
                        lambda indexes: _run(book, [pairs[index] for index in indexes], engine, bounds))
    return _outcomes(book, pairs, found)


def run_book(book: Book, engine: ModuleType | None, bounds: Bounds | None = None) -> list[Outcome]:
    """The outcomes of one book's examples, run in one child process under ``bounds``."""
    pairs = list(book.examples())
    return _outcomes(book, pairs, _run(book, pairs, engine, bounds))


def _outcomes(book: Book, pairs: list[tuple[Rule, Example]], found: Sequence[Any]) -> list[Outcome]:
    """The outcomes of ``pairs`` from the fields a child sent for each (:func:`_slim`'s, in Outcome's order)."""
    return [Outcome(book, rule, example, *fields) for (rule, example), fields in zip(pairs, found, strict=True)]


def _run(book: Book, pairs: list[tuple[Rule, Example]], engine: ModuleType | None, bounds: Bounds | None) -> list[Slim]:
    """The outcome fields of ``pairs``, run in one child process under ``bounds``."""
    return run_bounded(  # type: ignore[return-value]  # each item is what _slim returned
        pairs,
        lambda pair: _slim(run_example(book, pair[0], pair[1], engine)),
        lambda pair, why: _slim(_stopped(book, pair[0], pair[1], why)),
        bounds,
    )


def _slim(outcome: Outcome) -> Slim:
    """What the child sends back of an outcome: the parent has the book, rule and example."""
    return (outcome.attempted, outcome.failures, outcome.positions, outcome.records, outcome.not_run)


def _stopped(book: Book, rule: Rule, example: Example, why: str) -> Outcome:
    """The outcome of an example stopped by its limits or that ended the process running it."""
    first = example.doctest.lstrip().split("\n", 1)[0].removeprefix(">>>").strip()
    failure = Failure(book.path, example.doctest_line, first, "the example to finish", f"the example {why}")
    return Outcome(book, rule, example, attempted=1, failures=(failure,))

