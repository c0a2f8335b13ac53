"""The `rulebook` command's own behaviour (checking is tested in test_examples.py)."""

from __future__ import annotations

import argparse
import re
import tomllib
from pathlib import Path

import pytest

from rulebook.cli import build_parser, main


@pytest.mark.parametrize(("game", "options", "shows"), [
    # Without --players every game starts with its own usual number of players.
    ("bingomagic", [], ["outcome: Win(player="]),
    # The winner (or a tie: "P1 and P2 win") and every total after it; seats counted from 1.
    ("bidomino", [], ["mazziere: player 1 deals 4 cards to each player", "\noutcome: P", " win", " · P1 "]),
    ("casting", [], []),
    # A Planechase game ends when all but one have left (in a random game, often during the mulligans).
    ("planechase", [], ["uscita: ", "vittoria: ", "outcome: Win(player="]),
    pytest.param("planechase", ["--players", "5"], ["uscita: ", "vittoria: ", "outcome: Win(player="], id="planechase-5-players"),
    ("strage", [], ["#1 roll ", "fine-partita"]),
])
def test_play_prints_a_seeded_game(game, options, shows, capsys):
    assert main(["play", game, "--seed", "3", *options]) == 0
    out = capsys.readouterr().out
    assert "#1 " in out and ("outcome:" in out or "(cap)" in out)
    for text in shows:
        assert text in out, f"{game}: the log should show {text!r}"


def test_play_refuses_a_player_count_the_game_does_not_allow(capsys):
    assert main(["play", "bingomagic", "--players", "3"]) == 2
    assert "[due-giocatori]" in capsys.readouterr().err


# --- the command's own help: what a user reads first ---------------------------------------------

def _parsers(parser: argparse.ArgumentParser, path: tuple[str, ...] = ("rulebook",)):
    """Every parser of the command, the subcommands' too, with the words that reach it."""
    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _parsers(sub, (*path, name))


def _commands(parser: argparse.ArgumentParser) -> list[str]:
    return [name for action in parser._actions if isinstance(action, argparse._SubParsersAction) for name in action.choices]


def test_the_top_level_help_lists_every_command_with_what_it_does(capsys):
    with pytest.raises(SystemExit) as exited:
        main(["--help"])
    assert exited.value.code == 0
    shown = capsys.readouterr().out
    commands = _commands(build_parser())
    assert {"check", "play", "i18n", "new"} <= set(commands)
    for name in commands:
        assert re.search(rf"^\s+{name}\s+\w", shown, re.M), f"`rulebook --help` does not list {name} with its help"
    assert "--version" in shown


def test_every_option_says_its_default():
    unsaid = []
    for path, parser in _parsers(build_parser()):
        for action in parser._actions:
            if isinstance(action, (argparse._HelpAction, argparse._VersionAction, argparse._SubParsersAction)):
                continue
            if action.required or action.nargs == "+":
                continue  # given every time: no default to say
            if not action.help or "default" not in action.help:
                unsaid.append(f"{' '.join(path)} {'/'.join(action.option_strings) or action.metavar or action.dest}")
    assert not unsaid, f"options whose help does not say their default: {unsaid}"


def test_no_help_text_has_rest_or_markdown_markup():
    for path, parser in _parsers(build_parser()):
        text = parser.format_help()
        assert not re.search(r"``|:(?:func|class|mod|data|meth|attr):`|\*\*", text), f"{' '.join(path)} --help:\n{text}"


def test_version_is_the_projects_version(capsys):
    with pytest.raises(SystemExit) as exited:
        main(["--version"])
    assert exited.value.code == 0
    declared = tomllib.loads((Path(__file__).resolve().parents[1] / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    assert capsys.readouterr().out == f"rulebook {declared}\n"


@pytest.mark.parametrize("argv", [[], ["i18n"]])
def test_a_command_without_its_subcommand_lists_them(argv, capsys):
    """`rulebook` and `rulebook i18n` alone show their commands, not argparse's "required: COMMAND"."""
    assert main(argv) == 2
    told = capsys.readouterr()
    listed = re.findall(r"^    (\w+)\s", told.out, flags=re.M)
    expected = ["check", "play", "i18n", "serve", "new"] if not argv else ["extract", "init", "update", "stats", "check", "compile"]
    assert listed == expected, told.out
    assert "required" not in told.err
