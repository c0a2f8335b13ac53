"""The ``rulebook`` command: ``check`` the examples, ``play`` a random game."""

from __future__ import annotations

import argparse
import random
import sys
from typing import Sequence

from .engines import load_engine
from .engines.base import playout
from .errors import LoadError, RulebookError, counted
from .examples import run_books
from .i18n.frontend import register as register_i18n
from .loader import load_chosen


def check(args: argparse.Namespace) -> int:
    books = load_chosen(args.paths)
    outcomes = run_books(books.values())
    failed = [o for o in outcomes if not o.passed]
    for outcome in failed:
        print(outcome.report(), end="\n\n")
    if args.verbose:
        for outcome in outcomes:
            print(f"{'ok  ' if outcome.passed else 'FAIL'} {outcome.name}  {outcome.example.path}:{outcome.example.line}")
    print(f"rulebook check: {counted(len(books), 'book')}, {counted(len(outcomes), 'example')}, {len(failed)} failed")
    return 1 if failed else 0


def play(args: argparse.Namespace) -> int:
    module = load_engine(args.game)
    if not hasattr(module, "new_game"):
        raise RulebookError(f"engine {args.game!r} cannot start a game on its own (no new_game)")
    rng = random.Random(args.seed)
    # Without --players each game starts with its own usual number (Strage: 3).
    state = module.new_game(rng) if args.players is None else module.new_game(rng, players=args.players)
    print(state)
    for number, (action, step) in enumerate(playout(state, rng, args.max_actions), start=1):
        print(f"\n#{number} {action}")
        for fired in step.trace:
            print(f"   {fired}")
        state = step.state
    print(f"\n{state}\n" if not state.is_over else "")
    print(f"outcome: {state.outcome}" if state.is_over else f"stopped after {args.max_actions} actions (cap)")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="rulebook", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)

    checking = commands.add_parser("check", help="run every worked example against its engine")
    checking.add_argument("paths", nargs="*", help="rulebook files or folders (default: rules)")
    checking.add_argument("-v", "--verbose", action="store_true", help="list every example")
    checking.set_defaults(run=check)

    playing = commands.add_parser("play", help="play a seeded random game and print its log")
    playing.add_argument("game", help="a registered engine name, e.g. bingomagic, or a module path")
    playing.add_argument("--players", type=int, default=None, help="number of players (default: the game's own)")
    playing.add_argument("--seed", type=int, default=0)
    playing.add_argument("--max-actions", type=int, default=5000)
    playing.set_defaults(run=play)
    register_i18n(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.run(args)
    except LoadError as exc:
        print(exc, file=sys.stderr)
        return 2
    except RulebookError as exc:
        print(f"rulebook: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # `rulebook play … | head`: the reader left; stop quietly like other Unix tools.
        sys.stdout = None  # type: ignore[assignment]  # no flush error at exit
        return 0


if __name__ == "__main__":
    sys.exit(main())
