"""The `rulebook` command's own behaviour (checking is tested in test_examples.py)."""

from __future__ import annotations

import pytest

from rulebook.cli import main


@pytest.mark.parametrize(("game", "options", "shows"), [
    # Without --players every game starts with its own usual number of players.
    ("bingomagic", [], ["outcome: Win(player="]),
    ("bidomino", [], ["mazziere: P0 deals 4 cards to each player", "\noutcome: P", " wins · "]),
    ("casting", [], []),
    ("planechase", [], ["primo-piano: ", "outcome: Win(player="]),
    pytest.param("planechase", ["--players", "5"], ["primo-piano: ", "outcome: Win(player="], id="planechase-5-players"),
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
