"""Loader speed, as ratios measured in one process (never as a timed test).

- An alias bomb (nine levels of nine aliases: 387 million leaves if expanded) must be refused
  for no more than what loading a real rulebook costs: the parser refuses the first anchor's
  neighbourhood without ever building the tree.
- The C parser against the pure-Python one, on the same real rulebook.

Run: .venv/bin/python benchmarks/bench_loader.py   (exits 1 if a target is missed)
"""

from __future__ import annotations

import sys
import tempfile
import timeit
from pathlib import Path

import yaml

from rulebook import yamlnodes
from rulebook.errors import LoadError
from rulebook.loader import load_book

REPO = Path(__file__).resolve().parent.parent
RULEBOOK = REPO / "rules" / "bingomagic.yaml"


def alias_bomb() -> str:
    lines = ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    lines += [f"a{i}: &a{i} [{','.join([f'*a{i - 1}'] * 9)}]" for i in range(1, 10)]
    return "\n".join(lines) + "\n"


def best(statement, number: int = 20) -> float:
    return min(timeit.repeat(statement, number=number, repeat=5)) / number


def main() -> int:
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
    yamlnodes._Loader = yaml.SafeLoader  # the pure-Python parser, same code path otherwise
    python_parser = best(lambda: load_book(RULEBOOK))
    yamlnodes._Loader = yaml.CSafeLoader

    bomb_ratio = refused / real
    print(f"load {RULEBOOK.name}: {real * 1e3:.2f} ms (C parser), {python_parser * 1e3:.2f} ms (Python parser)")
    print(f"alias bomb refused in {refused * 1e3:.2f} ms = {bomb_ratio:.2f} x a real load (target <= 1.0)")
    print(f"C parser speed-up: {python_parser / c_parser:.1f} x")
    return 0 if bomb_ratio <= 1.0 else 1


if __name__ == "__main__":
    sys.exit(main())
