"""Loader speed, as ratios measured in one process (never as a timed test).

- An alias bomb (nine levels of nine aliases: 387 million leaves if expanded) must be refused
  for no more than what loading a real rulebook costs: the parser refuses the first anchor's
  neighbourhood without ever building the tree.
- The C parser against the pure-Python one, on the same real rulebook.
- Issue 15.5: the strict loader (our event-stream composer, positions, checks, the model) on a
  generated 10,000-rule rulebook (benchmarks/corpus.py) <= 1.5 x ``yaml.load(...,
  Loader=yaml.CSafeLoader)`` on the same bytes, the bare C parser building plain Python objects.
  The file is far past the size and value limits, which are lifted for this measure only.

Run: .venv/bin/python -m benchmarks.bench_loader [--rules 10000] [--strict]
     (prints every measure; exits 1 on a missed target only with --strict)
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
import timeit
from contextlib import contextmanager
from pathlib import Path

import yaml

from rulebook import limits, yamlnodes
from rulebook.adapters import pyyaml as pyyaml_adapter
from rulebook.errors import LoadError
from rulebook.loader import load_book, load_book_bytes

from .corpus import single_book_yaml

REPO = Path(__file__).resolve().parent.parent
RULEBOOK = REPO / "rules" / "bingomagic.yaml"


def alias_bomb() -> str:
    lines = ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    lines += [f"a{i}: &a{i} [{','.join([f'*a{i - 1}'] * 9)}]" for i in range(1, 10)]
    return "\n".join(lines) + "\n"


def best(statement, number: int = 20) -> float:
    return min(timeit.repeat(statement, number=number, repeat=5)) / number


@contextmanager
def limits_lifted():
    """The size and value limits off (rulebook/limits.py): a 10,000-rule file is 16 MB and
    100,000 values, far past them, and measuring the loader means loading it, not refusing it."""
    saved = limits.MAX_FILE_BYTES, yamlnodes.MAX_VALUES
    limits.MAX_FILE_BYTES = yamlnodes.MAX_VALUES = 1 << 40
    try:
        yield
    finally:
        limits.MAX_FILE_BYTES, yamlnodes.MAX_VALUES = saved


def strict_against_csafe(rules: int) -> tuple[float, float, int]:
    """(strict loader seconds, CSafeLoader seconds, bytes) on one generated rulebook."""
    data = single_book_yaml(rules)
    with limits_lifted():
        loaded = sum(1 for _ in load_book_bytes(data, "generated.yaml").rules())
        if loaded != rules:
            raise AssertionError(f"the strict loader read {loaded} rules of {rules}")
        strict, csafe = interleaved(lambda: load_book_bytes(data, "generated.yaml"), lambda: yaml.load(data, Loader=yaml.CSafeLoader))
    return strict, csafe, len(data)


def interleaved(first, second, budget: float = 60.0, repeat: int = 5) -> tuple[float, float]:
    """The best CPU time of each of two loads, run in turns (first, second, first, ...), so
    that a busy spell of the shared machine weighs on both sides alike; fewer runs when they
    take long. CPU time, not wall-clock time: other processes would weigh on one side only."""
    times: tuple[list[float], list[float]] = ([], [])
    while len(times[0]) < repeat and sum(times[0]) + sum(times[1]) < budget:
        for statement, spent in zip((first, second), times):
            spent.append(timeit.timeit(statement, timer=time.process_time, number=1))
    return min(times[0]), min(times[1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="loader speed, as ratios")
    parser.add_argument("--rules", type=int, default=10_000, help="rules in the generated rulebook (default 10000)")
    parser.add_argument("--strict", action="store_true", help="exit 1 when a target is missed")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        bomb = Path(folder) / "bomb.yaml"
        bomb.write_text(alias_bomb(), encoding="utf-8")

        def refuse_bomb() -> None:
            try:
                load_book(bomb)
            except LoadError:
                return
            raise AssertionError("the alias bomb was accepted")

        real = best(lambda: load_book(RULEBOOK))
        refused = best(refuse_bomb)
    c_parser = real
    pyyaml_adapter.Loader = yaml.SafeLoader  # the pure-Python parser, same code path otherwise
    python_parser = best(lambda: load_book(RULEBOOK))
    pyyaml_adapter.Loader = yaml.CSafeLoader

    bomb_ratio = refused / real
    print(f"load {RULEBOOK.name}: {real * 1e3:.2f} ms (C parser), {python_parser * 1e3:.2f} ms (Python parser)")
    print(f"alias bomb refused in {refused * 1e3:.2f} ms = {bomb_ratio:.2f} x a real load (target <= 1.0)")
    print(f"C parser speed-up: {python_parser / c_parser:.1f} x")

    strict, csafe, size = strict_against_csafe(args.rules)
    loader_ratio = strict / csafe
    print(f"{args.rules} generated rules ({size / 1e6:.1f} MB), CPU time: strict loader {strict:.2f} s,"
          f" yaml.load(CSafeLoader) {csafe:.2f} s = {loader_ratio:.2f} x (target <= 1.5)")
    missed = [name for name, ok in (("alias bomb", bomb_ratio <= 1.0), ("strict loader", loader_ratio <= 1.5)) if not ok]
    print(f"missed: {', '.join(missed)}" if missed else "every target met")
    return 1 if missed and args.strict else 0


if __name__ == "__main__":
    sys.exit(main())
