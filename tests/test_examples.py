"""Worked examples run as doctests; failures point at the YAML line, from pytest and the CLI."""

from __future__ import annotations

import textwrap

import pytest

from rulebook.cli import main
from rulebook.examples import run_books
from rulebook.loader import load_book
from tests.conftest import MINIMAL

FAILING = MINIMAL.replace("              60\n", "              61\n")
BROKEN = MINIMAL.replace(">>> len(standard_deck())", ">>> len(standard_deck()")


def test_passing_example(write_rules):
    (outcome,) = run_books([load_book(write_rules(MINIMAL))])
    assert outcome.passed and outcome.attempted == 1 and outcome.name == "demo::e1"


def test_failure_points_at_the_yaml_line_of_its_prompt(write_rules):
    (outcome,) = run_books([load_book(write_rules(FAILING))])
    (failure,) = outcome.failures
    assert (failure.path, failure.line, failure.expected, failure.got) == ("rules/demo.yaml", 17, "61\n", "60\n")
    assert str(failure).startswith("rules/demo.yaml:17: >>> len(standard_deck())")


def test_syntax_error_points_at_its_line(write_rules):
    (outcome,) = run_books([load_book(write_rules(BROKEN))])
    (failure,) = outcome.failures
    assert failure.line == 17 and "SyntaxError" in failure.got


def test_unknown_engine_is_a_failure_not_a_crash(write_rules):
    (outcome,) = run_books([load_book(write_rules(MINIMAL.replace("engine: bingomagic", "engine: nope")))])
    assert not outcome.passed
    assert outcome.failures[0].got.startswith("rules/demo.yaml:6: no engine 'nope': registered engines are bidomino, bingomagic,")


def test_a_misspelled_engine_is_said_once_for_the_book_with_the_name_it_meant(write_rules, capsys):
    """Every example of the book fails (the site shows each as failed), and the reason is said
    once, as what it is: not a doctest that expected something else."""
    twice = MINIMAL.replace("""          - id: e1""", """          - id: e0
            text: Lo stesso mazzo.
            doctest: |
              >>> len(standard_deck())
              60
          - id: e1""")
    write_rules(twice.replace("engine: bingomagic", "engine: bingomagik"))
    assert main(["check"]) == 1
    out = capsys.readouterr().out
    assert out.count("no engine 'bingomagik'") == 1, out
    assert "FAILED demo: 2 examples not run: rules/demo.yaml:6: no engine 'bingomagik': did you mean 'bingomagic'?" in out
    assert "Expected" not in out and "a runnable doctest" not in out
    assert "1 book, 2 examples, 2 failed" in out


def test_cli_check_reports_and_exits_non_zero(write_rules, capsys):
    write_rules(FAILING)
    assert main(["check"]) == 1
    out = capsys.readouterr().out
    assert "rules/demo.yaml:17: >>> len(standard_deck())" in out
    assert "1 book, 1 example, 1 failed" in out


def test_cli_check_passes_and_reports_load_errors(write_rules, capsys):
    write_rules(MINIMAL)
    assert main(["check"]) == 0
    write_rules(MINIMAL.replace("[[r2]]", "[[r9]]"))
    assert main(["check", "rules"]) == 2
    assert "rules/demo.yaml:12:15: cross-reference [[r9]]" in capsys.readouterr().err


def test_pytest_collects_each_example_and_reports_the_yaml_line(pytester):
    pytester.mkdir("rules")
    (pytester.path / "rules" / "demo.yaml").write_text(textwrap.dedent(FAILING).lstrip("\n"), encoding="utf-8")
    passing = MINIMAL.replace("id: demo", "id: other").replace("id: e1", "id: e2")
    (pytester.path / "rules" / "other.yaml").write_text(textwrap.dedent(passing).lstrip("\n"), encoding="utf-8")
    result = pytester.runpytest("rules")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["*rules/demo.yaml:17: >>> len(standard_deck())*", "FAILED rules/demo.yaml::demo::e1*"])


@pytest.mark.slow
def test_the_examples_run_in_parallel_workers_with_the_same_report(pytester):
    # pytest-xdist: every worker collects the same items (node ids from the YAML), and a
    # failure still names its YAML line (docs/testing.md: `pytest -n auto`).
    pytester.mkdir("rules")
    (pytester.path / "rules" / "demo.yaml").write_text(textwrap.dedent(FAILING).lstrip("\n"), encoding="utf-8")
    for n in range(3):
        passing = MINIMAL.replace("id: demo", f"id: other{n}").replace("id: e1", f"id: e{n + 2}")
        (pytester.path / "rules" / f"other{n}.yaml").write_text(textwrap.dedent(passing).lstrip("\n"), encoding="utf-8")
    # Hypothesis's pytest plugin, installed with the test extra, has nothing to do with these
    # items; without it each of the three processes starts ~0.2 s sooner.
    result = pytester.runpytest_subprocess("-n", "2", "-p", "xdist", "-p", "no:hypothesispytest", "rules")
    result.assert_outcomes(passed=3, failed=1)
    result.stdout.fnmatch_lines(["*2 workers*", "*rules/demo.yaml:17: >>> len(standard_deck())*", "FAILED rules/demo.yaml::demo::e1*"])


def test_pytest_reports_a_broken_rulebook_at_its_line(pytester):
    pytester.mkdir("rules")
    (pytester.path / "rules" / "demo.yaml").write_text("book: [\n", encoding="utf-8")
    result = pytester.runpytest("rules")
    result.stdout.fnmatch_lines(["*rules/demo.yaml:2:1: YAML syntax*"])
    assert result.ret != 0


def _pawn_engine(monkeypatch):
    """A one-piece game: ``Pawn('c3')`` is a state whose board shows an orc on c3."""
    import sys
    import types
    from dataclasses import dataclass

    from rulebook.engines.base import State
    from rulebook.figures import BoardFigure, Piece

    @dataclass(frozen=True)
    class Pawn(State):
        square: str
        current_player = 0
        outcome = None

        def legal_actions(self):
            return []

        def apply(self, action):
            raise NotImplementedError

        def figure(self):
            return BoardFigure(pieces=(Piece(self.square, "orc"),))

    fake = types.ModuleType("fakeboard.engine")
    fake.Pawn, fake.__all__ = Pawn, ["Pawn"]
    monkeypatch.setitem(sys.modules, "fakeboard.engine", fake)


def _pawn_example(write_rules, *lines: str):
    """The outcome of an example of the one-piece game whose doctest is ``lines``."""
    doctest = "\n              ".join(f">>> {line}" for line in lines)
    text = MINIMAL.replace("engine: bingomagic", "engine: fakeboard.engine").replace(">>> len(standard_deck())\n              60", doctest)
    (outcome,) = run_books([load_book(write_rules(text))])
    assert outcome.passed
    return outcome


def _orc(square: str):
    from rulebook.figures import BoardFigure, Piece

    return BoardFigure(pieces=(Piece(square, "orc"),))


def test_the_final_state_of_an_example_gives_its_board(write_rules, monkeypatch):
    _pawn_engine(monkeypatch)
    outcome = _pawn_example(write_rules, "state = Pawn('a1')", "state = Pawn('c3')")
    assert outcome.figure == _orc("c3")


def test_an_example_that_moves_pieces_keeps_the_board_it_started_from(write_rules, monkeypatch):
    """The boards ``state`` showed line by line, each once in a row: the first is the "before"
    the page draws beside the final one, when the pieces are not where they started."""
    _pawn_engine(monkeypatch)
    moved = _pawn_example(write_rules, "state = Pawn('a1')", "x = 1", "state = Pawn('a1')", "state = Pawn('c3')")
    assert moved.positions == (_orc("a1"), _orc("c3")) and moved.before == _orc("a1") and moved.figure == _orc("c3")
    back = _pawn_example(write_rules, "state = Pawn('a1')", "state = Pawn('c3')", "state = Pawn('a1')")
    assert len(back.positions) == 3 and back.before is None  # where it started: one board
    still = _pawn_example(write_rules, "state = Pawn('a1')")
    assert still.positions == (_orc("a1"),) and still.before is None
    gone = _pawn_example(write_rules, "state = Pawn('a1')", "state = None")
    assert gone.positions == () and gone.figure is None and gone.before is None  # no state at the end: no board


def test_cli_check_of_one_file_resolves_links_into_its_siblings(write_rules, capsys):
    write_rules(MINIMAL.replace("[[r2]]", "[[other:r1]]"))
    write_rules(MINIMAL.replace("id: demo", "id: other").replace("              60\n", "              61\n"), name="other")
    assert main(["check", "rules/demo.yaml"]) == 0  # other's failing example is not run
    assert "1 book, 1 example, 0 failed" in capsys.readouterr().out


# An example is code a contributor wrote: whatever it does, it ends as a failed example at its
# line, in the CLI, in pytest and in the build (issue 30.3), and the other examples still run.
HOSTILE = {
    "exits": ">>> import os; os._exit(0)",
    "interrupts": ">>> raise KeyboardInterrupt",
    "loops": ">>> while True: pass",
    "eats": ">>> hog = bytearray(2 ** 40)",
}


def _hostile(name: str) -> str:
    """MINIMAL with a second example, before the passing one, doing ``HOSTILE[name]``."""
    return MINIMAL.replace("""          - id: e1""", f"""          - id: {name}
            text: Un esempio ostile.
            doctest: |
              {HOSTILE[name]}
          - id: e1""")


@pytest.mark.parametrize("name", HOSTILE)
def test_a_hostile_example_fails_at_its_line_and_the_others_still_run(write_rules, capsys, name):
    write_rules(_hostile(name))
    assert main(["check", "--example-seconds", "2", "--example-memory", "256"]) == 1
    out = capsys.readouterr().out
    assert f"FAILED demo::{name}" in out and "rules/demo.yaml:17:" in out, out
    assert "1 book, 2 examples, 1 failed" in out, out


def test_the_reasons_name_what_happened(write_rules):
    from rulebook.isolation import Bounds

    said = {}
    for name in HOSTILE:
        hostile, passing = run_books([load_book(write_rules(_hostile(name)))], bounds=Bounds(1, 256))
        assert passing.passed and not hostile.passed and hostile.failures[0].line == 17
        said[name] = hostile.failures[0].got
    assert "exit status 0" in said["exits"]
    assert said["interrupts"].startswith("KeyboardInterrupt")
    assert "time limit of 1 s" in said["loops"]
    assert "MemoryError" in said["eats"]


def test_pytest_fails_a_hostile_example_instead_of_hanging_or_ending(pytester):
    pytester.mkdir("rules")
    for name in HOSTILE:
        (pytester.path / "rules" / f"{name}.yaml").write_text(
            textwrap.dedent(_hostile(name).replace("id: demo", f"id: {name}")).lstrip("\n"), encoding="utf-8")
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--example-seconds", "2", "rules")
    result.assert_outcomes(passed=4, failed=4)
    result.stdout.fnmatch_lines(["FAILED exits::exits (rule 1.1 r1)", "rules/exits.yaml:17: >>> import os; os._exit(0)",
                                 "*", "*", "*", "*exit status 0*"])
