"""La Strage degli Innocenti: three clans of half-elves escort sprites past the orcs.

Rule and ruling ids in traces and errors are the ids of ``rules/strage.yaml``. Players are
numbered by clan: 0 red, 1 green, 2 blue (3 yellow when four play). Every die roll is a
chance outcome, :class:`Roll`, supplied by the caller. The map is described in
:mod:`.board`, the actions in :mod:`.actions`; the optional magic rules are
:mod:`.cards` (the deck, the spells) and :mod:`.magic` (how they are played).

>>> state = StrageState.setup(red="c4", sprites="e2 a1", orcs="g6", ap=4)
>>> print(state)
turn 1 | red: to place, move, fight or end | 4 AP, placed 0/2, may fight
saved: red 0, green 0, blue 0 | killed 14 | off map: orcs 7, red 5, green 6, blue 6
  a b c d e f g h
8 . . . . . . . . 8
7 . . . . . . . . 7
6 . . . . . . o . 6
5 . . . . . . . . 5
4 . . R . . . . . 4
3 . . . . . . . . 3
2 . . . . s . . . 2
1 s . . . . . . . 1
  a b c d e f g h
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ...errors import IllegalAction
from ...messages import code, msg
from ..base import evolve
from .actions import Attack, End, Move, MoveOrc, OrcAttack, Place, PlaceOrc, Result, Roll, winner_of
from .board import CLANS, Phase, at, neighbours, picture
from .cards import (
    MAGIC_ACTIONS,
    Accept,
    Breach,
    Caprice,
    Curse,
    Immunity,
    Insist,
    Joker,
    Lightning,
    Magic,
    MagicCard,
    Metamorphosis,
    Oppose,
    Shuffle,
    Upheaval,
    Yield,
    magic_cards,
    magic_deck,
    superior,
)
from .state import StrageState

__all__ = [
    "Phase", "Roll", "Place", "Move", "Attack", "End", "PlaceOrc", "MoveOrc", "OrcAttack",
    "StrageState", "Result", "winner_of", "opening", "new_game", "IllegalAction", "CLANS", "picture",
    # the map, for examples that look at one square or its neighbours
    "at", "neighbours",
    # the optional magic rules
    "Magic", "Joker", "magic_cards", "magic_deck", "superior", "Lightning", "Immunity", "Metamorphosis",
    "Curse", "Upheaval", "Caprice", "Breach", "Oppose", "Accept", "Insist", "Yield", "Shuffle", "ACTIONS",
]

#: Every action class, a player's or chance's: each has its handler in StrageState.handlers.
ACTIONS = (Roll, Place, Move, Attack, End, PlaceOrc, MoveOrc, OrcAttack, *MAGIC_ACTIONS)


def opening(players: int = 3, deck: Sequence[MagicCard] | None = None) -> StrageState:
    """The opening position, before the turn order is rolled; a shuffled ``deck`` adds the magic rules."""
    if players not in (3, 4):
        raise IllegalAction("quattro-giocatori", msg("La Strage degli Innocenti is for 3 players (4 at most), not {players}", players=code(players)))
    state = StrageState(players=players, saved=(0,) * players, ranking=(tuple(range(players)),))
    if deck is not None:
        state = evolve(state, magic=Magic.deal(tuple(deck), players))
    return state


def new_game(rng: random.Random, players: int = 3, magic_rules: bool = False) -> StrageState:
    """The opening position; the turn order is then rolled as chance outcomes.

    With ``magic_rules`` the rng shuffles the 42-card magic deck and everyone draws four.
    """
    deck = None
    if magic_rules:
        deck = list(magic_deck())
        rng.shuffle(deck)
    return opening(players, deck)
