"""Worked examples that passed are kept in the build's cache folder: the next build (a new
process: a new BuildCache on the same folder) takes their outcomes instead of running them, until
the doctest, its engine's code, the book's engine_data files or the limits change; a failure is
never kept (rulebook/stored_outcomes.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from rulebook import examples
from rulebook.cache import BuildCache, using
from rulebook.examples import Outcome, run_books
from rulebook.isolation import Bounds
from rulebook.loader import load_books, rulebook_paths
from tests.conftest import MINIMAL, demo_book

FAILING = MINIMAL.replace("              60\n", "              61\n")

TWO = demo_book("""
sections:
  - id: primo
    title: Primo
    rules:
      - id: r1
        text: Un mazzo.
        examples:
          - id: e1
            text: Sessanta carte.
            doctest: |
              >>> len(standard_deck())
              60
          - id: e2
            text: Due carte.
            doctest: |
              >>> 1 + 1
              2
""")


@pytest.fixture
def runs(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """The examples run (in a child process), one list per run, rather than taken from the folder."""
    ran: list[list[str]] = []
    run = examples._run

    def counting(book, pairs, engine, bounds):  # noqa: ANN001, ANN202 - examples._run's
        ran.append([example.id for _, example in pairs])
        return run(book, pairs, engine, bounds)

    monkeypatch.setattr(examples, "_run", counting)
    return ran


def build(rules: Path, folder: Path, bounds: Bounds | None = None) -> list[Outcome]:
    """What one build does with its examples, in a process of its own: a new cache on the folder."""
    with using(BuildCache(folder=folder)):
        books, failed = load_books(rulebook_paths(rules), reuse=True)
        assert not failed
        return run_books(books.values(), reuse=True, bounds=bounds)


def shown(outcomes: list[Outcome]) -> list[tuple[object, ...]]:
    return [(o.rule.id, o.example.id, o.attempted, o.failures, o.positions, o.records, o.not_run) for o in outcomes]


def test_the_next_build_takes_the_outcomes_it_kept(write_rules, tmp_path: Path, runs: list[list[str]]) -> None:
    rules = write_rules(TWO).parent
    folder = tmp_path / "cache"
    first = build(rules, folder)
    assert runs == [["e1", "e2"]] and all(outcome.passed for outcome in first)
    again = build(rules, folder)
    assert runs == [["e1", "e2"]], "the second build ran the examples again"
    assert shown(again) == shown(first) and again[0].book is not first[0].book  # the new build's own Book
    # A text edited, lines moved: the doctests are the same.
    write_rules(TWO.replace("Un mazzo.", "Un mazzo\n          intero."))
    assert shown(build(rules, folder)) == shown(first) and runs == [["e1", "e2"]]
    # One doctest edited: that example alone runs.
    write_rules(TWO.replace("1 + 1\n              2", "2 + 2\n              4"))
    build(rules, folder)
    assert runs == [["e1", "e2"], ["e2"]]
    build(rules, folder)
    assert runs == [["e1", "e2"], ["e2"]]
    # Other limits: every example runs again.
    build(rules, folder, Bounds(seconds=7.0))
    assert runs == [["e1", "e2"], ["e2"], ["e1", "e2"]]


def test_a_failure_is_never_kept(write_rules, tmp_path: Path, runs: list[list[str]]) -> None:
    rules = write_rules(FAILING).parent
    folder = tmp_path / "cache"
    assert not build(rules, folder)[0].passed
    assert not build(rules, folder)[0].passed
    assert runs == [["e1"], ["e1"]]
    # Fixed: run once more, then kept.
    write_rules(MINIMAL)
    assert build(rules, folder)[0].passed and build(rules, folder)[0].passed
    assert runs == [["e1"], ["e1"], ["e1"]]


def test_a_damaged_or_foreign_file_runs_the_examples_again(write_rules, tmp_path: Path, runs: list[list[str]]) -> None:
    rules = write_rules(MINIMAL).parent
    folder = tmp_path / "cache"
    first = build(rules, folder)
    (kept,) = folder.rglob("demo.pickle")
    whole = kept.read_bytes()
    head = whole.split(b"\n", 1)[0] + b"\n"
    for damaged in (whole[: len(whole) // 2], head + b"not a pickle", head + b"\x80\x05N.", head + b"\x80\x05}\x94(\x8c\x01k\x94K\x01u.",
                    b"another version\n" + whole.split(b"\n", 1)[1]):
        kept.write_bytes(damaged)
        before = len(runs)
        assert shown(build(rules, folder)) == shown(first)
        assert len(runs) == before + 1, damaged[:40]


ENGINE = '''
from pathlib import Path

def namespace(book):
    data = "".join(Path(path).read_text() for path in book.data_paths())
    return {"size": lambda: len(data.split())}
'''


def test_a_project_engine_or_its_data_edited_runs_the_examples_again(write_rules, tmp_path: Path, runs: list[list[str]],
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    package = tmp_path / "house"
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "engine.py").write_text(ENGINE, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "house", raising=False)
    monkeypatch.delitem(sys.modules, "house.engine", raising=False)
    text = (MINIMAL.replace("engine: bingomagic", "engine: house.engine\n  engine_data: [cards.txt]")
            .replace("len(standard_deck())\n              60", "size()\n              3"))
    rules = write_rules(text).parent
    (rules / "cards.txt").write_text("uno due tre", encoding="utf-8")
    folder = tmp_path / "cache"
    assert build(rules, folder)[0].passed and build(rules, folder)[0].passed
    assert runs == [["e1"]]
    # A neighbour of the engine's module, in its package, edited: the engine may import it.
    (package / "helpers.py").write_text("SIZE = 60\n", encoding="utf-8")
    assert build(rules, folder)[0].passed and len(runs) == 2
    # The book's engine_data file edited: the example sees other data.
    (rules / "cards.txt").write_text("uno due", encoding="utf-8")
    assert not build(rules, folder)[0].passed and len(runs) == 3
