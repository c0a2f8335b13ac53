"""A book's worked examples, all passed, are kept in the build's cache folder: the next build
(a new process: a new BuildCache on the same folder) takes their outcomes instead of running them,
until the book's bytes, its engine's code or the limits change; a failure is never kept."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pytest

from rulebook import examples
from rulebook.cache import BuildCache, using
from rulebook.examples import Outcome, run_books
from rulebook.isolation import Bounds
from rulebook.loader import load_books, rulebook_paths
from tests.conftest import MINIMAL

FAILING = MINIMAL.replace("              60\n", "              61\n")


@pytest.fixture
def runs(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The books whose examples were run (in a child process) rather than taken from the folder."""
    ran: list[str] = []
    run_book = examples.run_book

    def counting(book, engine, bounds=None):  # noqa: ANN001, ANN202 - run_book's
        ran.append(book.id)
        return run_book(book, engine, bounds)

    monkeypatch.setattr(examples, "run_book", counting)
    return ran


def build(rules: Path, folder: Path, bounds: Bounds | None = None) -> list[Outcome]:
    """What one build does with its examples, in a process of its own: a new cache on the folder."""
    with using(BuildCache(folder=folder)):
        books, failed = load_books(rulebook_paths(rules), reuse=True)
        assert not failed
        return run_books(books.values(), reuse=True, bounds=bounds)


def shown(outcomes: list[Outcome]) -> list[tuple[object, ...]]:
    return [(o.rule.id, o.example.id, o.attempted, o.failures, o.positions, o.records, o.not_run) for o in outcomes]


def test_the_next_build_takes_the_outcomes_it_kept(write_rules, tmp_path: Path, runs: list[str]) -> None:
    rules = write_rules(MINIMAL).parent
    folder = tmp_path / "cache"
    first = build(rules, folder)
    assert runs == ["demo"] and first[0].passed
    again = build(rules, folder)
    assert runs == ["demo"], "the second build ran the examples again"
    assert shown(again) == shown(first) and again[0].book is not first[0].book  # the new build's own Book
    # The book's bytes changed (a text, not the example): run again.
    write_rules(MINIMAL.replace("Un mazzo.", "Un mazzo intero."))
    build(rules, folder)
    assert runs == ["demo", "demo"]
    build(rules, folder)
    assert runs == ["demo", "demo"]
    # Other limits: run again.
    build(rules, folder, Bounds(seconds=7.0))
    assert runs == ["demo", "demo", "demo"]


def test_a_failure_is_never_kept(write_rules, tmp_path: Path, runs: list[str]) -> None:
    rules = write_rules(FAILING).parent
    folder = tmp_path / "cache"
    assert not build(rules, folder)[0].passed
    assert not build(rules, folder)[0].passed
    assert runs == ["demo", "demo"]
    assert not list(folder.rglob("*.pickle"))


def test_a_damaged_or_foreign_file_runs_the_examples_again(write_rules, tmp_path: Path, runs: list[str]) -> None:
    rules = write_rules(MINIMAL).parent
    folder = tmp_path / "cache"
    first = build(rules, folder)
    (kept,) = folder.rglob("demo.pickle")
    whole = kept.read_bytes()
    head = whole.split(b"\n", 1)[0] + b"\n"
    for damaged in (whole[: len(whole) // 2], head + b"not a pickle", head + b"\x80\x05N.", b"another version\n" + whole.split(b"\n", 1)[1]):
        kept.write_bytes(damaged)
        before = len(runs)
        assert shown(build(rules, folder)) == shown(first)
        assert len(runs) == before + 1, damaged[:40]


def test_a_project_engine_edited_runs_its_examples_again(write_rules, tmp_path: Path, runs: list[str],
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    package = tmp_path / "house"
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "engine.py").write_text("def deck():\n    return list(range(60))\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "house", raising=False)
    monkeypatch.delitem(sys.modules, "house.engine", raising=False)
    text = MINIMAL.replace("engine: bingomagic", "engine: house.engine").replace("len(standard_deck())", "len(deck())")
    rules = write_rules(textwrap.dedent(text)).parent
    folder = tmp_path / "cache"
    assert build(rules, folder)[0].passed and build(rules, folder)[0].passed
    assert runs == ["demo"]
    # A neighbour of the engine's module, in its package, edited: the engine may import it.
    (package / "helpers.py").write_text("SIZE = 60\n", encoding="utf-8")
    assert build(rules, folder)[0].passed
    assert runs == ["demo", "demo"]
