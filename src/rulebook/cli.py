"""The ``rulebook`` command: check the examples, play a random game, translate, start a project."""

from __future__ import annotations

import argparse
import functools
import random
import sys
from collections.abc import Callable, Sequence
from importlib.metadata import version
from pathlib import Path

from .cache import BuildCache, using
from .engines import load_engine
from .engines.base import playout
from .errors import LoadError, RulebookError, counted
from .examples import reports, run_books
from .i18n.frontend import register as register_i18n
from .isolation import Bounds
from .limits import EXAMPLE_MEMORY_MB, EXAMPLE_SECONDS
from .loader import load_chosen
from .project import read_project
from .scaffold import DEFAULT_GAME, plan, toolkit_install, write


def check(args: argparse.Namespace) -> int:
    # Without paths: the rules folder mkdocs.yml gives the rulebook plugin (else rules/), as the build reads it.
    books = load_chosen(args.paths or [read_project().rules])
    outcomes = run_books(books.values(), bounds=Bounds(args.example_seconds, args.example_memory))
    failed = [o for o in outcomes if not o.passed]
    for report in reports(outcomes):
        print(report, end="\n\n")
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


def new(args: argparse.Namespace) -> int:
    chosen = plan(args.folder, args.game, args.source, args.language or (), book=args.book, package=args.package)
    write(chosen, force=args.force)
    # The README's own set-up lines: what the new project is built and tested with.
    readme = (chosen.folder / "README.md").read_text(encoding="utf-8")
    # On this machine the toolkit may come from a folder or a repository rather than the index:
    # said here, never written into the project (a path of this machine breaks every other clone).
    local = toolkit_install()
    steps = ([f"cd {chosen.folder}"] if chosen.folder != Path() else []) + [
        line.replace(" install ", f" install {local} ", 1) if local else line
        for line in readme.splitlines() if line.startswith("python3 -m venv")]
    targets = " and ".join(lang.code for lang in chosen.languages.targets)
    print(f"\nA rulebook project for {chosen.game} in {chosen.folder}, written in {chosen.languages.source}, translated into {targets}. "
          "Its README's two commands build the site and run the tests:\n")
    print("".join(f"  {step}\n" for step in steps))
    return 0


def serve(args: argparse.Namespace) -> int:
    # Only `rulebook serve` needs a site generator (MkDocs or properdocs): every other command runs without.
    from .preview import serve as serve_preview

    serve_preview(args.config_file, args.language or (), dev_addr=args.dev_addr, open_in_browser=args.open)
    return 0


DESCRIPTION = """\
Game rulebooks as structured data: every worked example is checked against the game's
reference engine, and the rulebooks are translated with gettext catalogs and published as a
multilingual website (mkdocs build). Each command has its own help: rulebook COMMAND --help."""


@functools.cache  # pure: cache.py (no argument; the same parser for the process)
def build_parser() -> argparse.ArgumentParser:
    """The command line's parser, made once a process: a parse leaves nothing in it, and making it
    (every command's options, the installed version looked up) costs ~4 ms, which a program or a
    test suite calling :func:`main` hundreds of times paid on every call."""
    parser = argparse.ArgumentParser(prog="rulebook", description=DESCRIPTION, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"%(prog)s {version('rulebook')}",
                        help="print the version of rulebook and exit")
    commands = parser.add_subparsers(dest="command", title="commands", metavar="COMMAND")
    # `rulebook` alone: the list of commands, which argparse's "the following arguments are
    # required: COMMAND" would not show.
    parser.set_defaults(run=functools.partial(show_help, parser))

    checking = commands.add_parser("check", help="run every worked example against its game's engine",
                                   description="Run every worked example of the rulebooks against its game's engine; "
                                               "a failure names the YAML line of its >>> line. Exit 1 if any fails.")
    checking.add_argument("paths", nargs="*", metavar="PATH",
                          help="rulebook files or folders (default: the rules folder of mkdocs.yml, or rules)")
    checking.add_argument("-v", "--verbose", action="store_true", help="also list every example that passed (default: only failures)")
    checking.add_argument("--example-seconds", type=float, default=EXAMPLE_SECONDS, metavar="SECONDS",
                          help=f"time one worked example may run before it fails as endless (default {EXAMPLE_SECONDS:g})")
    checking.add_argument("--example-memory", type=int, default=EXAMPLE_MEMORY_MB, metavar="MIB",
                          help=f"memory one worked example may add before it fails, in MiB (default {EXAMPLE_MEMORY_MB})")
    checking.set_defaults(run=check)

    playing = commands.add_parser("play", help="play a random game and print its log",
                                  description="Play a random game of an engine, the same game for the same seed, and print "
                                              "every action with the rules it fired.")
    playing.add_argument("game", metavar="GAME", help="a registered engine, e.g. bingomagic, or a module path such as mygame.engine")
    playing.add_argument("--players", type=int, default=None, metavar="N", help="number of players (default: the game's usual number)")
    playing.add_argument("--seed", type=int, default=0, metavar="N", help="the random seed (default: 0)")
    playing.add_argument("--max-actions", type=int, default=5000, metavar="N", help="stop after this many actions (default: 5000)")
    playing.set_defaults(run=play)

    register_i18n(commands)

    serving = commands.add_parser("serve", help="preview the site, rebuilt on every saved file (mkdocs serve)",
                                  description="Serve the site and rebuild it whenever a rulebook, catalog or mkdocs.yml is "
                                              "saved, as `mkdocs serve` does. With -l, only the source language and the "
                                              "chosen ones are built: a translator's preview, faster to rebuild.")
    serving.add_argument("-l", "--language", action="append", metavar="LANG",
                         help="a language to preview beside the source (repeatable; default: every language of the site)")
    serving.add_argument("-f", "--config-file", type=Path, default=Path("mkdocs.yml"), metavar="FILE",
                         help="the project's MkDocs configuration (default: mkdocs.yml)")
    serving.add_argument("-a", "--dev-addr", default=None, metavar="IP:PORT",
                         help="where to serve (default: mkdocs.yml's dev_addr, else 127.0.0.1:8000)")
    serving.add_argument("-o", "--open", action="store_true", help="open the preview in the default browser")
    serving.set_defaults(run=serve)

    starting = commands.add_parser("new", help="start a rulebook project in an empty folder",
                                   description="Start a rulebook project: mkdocs.yml, a sample rulebook with a worked example, "
                                               "its translations, an engine package, tests, a README and a CI script. "
                                               "`rulebook check`, the tests and `mkdocs build --strict` pass in it at once.")
    starting.add_argument("folder", nargs="?", type=Path, default=Path(), metavar="FOLDER",
                          help="where to make it; created if missing, refused if not empty (default: this folder)")
    starting.add_argument("--game", default=DEFAULT_GAME, metavar="NAME", help=f"the game's name, the rulebook's title (default: {DEFAULT_GAME})")
    starting.add_argument("--source", default="en", metavar="LANG",
                          help="the language the rules are written in, any code Babel knows (default: en)")
    starting.add_argument("-l", "--language", action="append", metavar="LANG",
                          help="a language to translate into (repeatable; default: it, or en when the source is it)")
    starting.add_argument("--book", default=None, metavar="ID",
                          help="the rulebook's id: its file, page and catalogs (default: made from the game's name)")
    starting.add_argument("--package", default=None, metavar="NAME",
                          help="the engine's Python package (default: the rulebook's id with _ for -)")
    starting.add_argument("--force", action="store_true",
                          help="also write into a folder that is not empty, replacing files of the same name (default: refuse)")
    starting.set_defaults(run=new)
    return parser


def show_help(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """A command that needs a subcommand and got none: its help, which lists them; exit 2 (nothing was done)."""
    parser.print_help()
    return 2


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        with using(BuildCache()):  # one command, one cache: what it makes for each language is made once
            run: Callable[[argparse.Namespace], int] = args.run  # the subcommand's (set_defaults)
            return run(args)
    except LoadError as exc:
        print(exc, file=sys.stderr)
        return 2
    except RulebookError as exc:
        print(f"rulebook: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # `rulebook play … | head`: the reader left; stop quietly like other Unix tools.
        sys.stdout = None  # no flush error at exit
        return 0


if __name__ == "__main__":
    sys.exit(main())
