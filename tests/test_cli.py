"""The `rulebook` command's own behaviour (checking is tested in test_examples.py)."""

from __future__ import annotations

import pytest

from rulebook.cli import main


@pytest.mark.parametrize("game", ["bingomagic", "bidomino", "casting", "planechase", "strage"])
def test_play_starts_every_game_with_its_own_player_count(game, capsys):
    assert main(["play", game, "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "#1 " in out and ("outcome:" in out or "(cap)" in out)


def test_play_refuses_a_player_count_the_game_does_not_allow(capsys):
    assert main(["play", "bingomagic", "--players", "3"]) == 2
    assert "[due-giocatori]" in capsys.readouterr().err
