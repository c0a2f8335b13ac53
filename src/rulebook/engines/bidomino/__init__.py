"""Bidomino: 2 to 6 players, two 52-card decks, pairs whose sum or difference extends two rows.

Rule ids in traces and errors are the ids of ``rules/bidomino.yaml``. Seats are numbered in
playing order: the player at index ``d`` deals deal ``d`` (index 0 deals first) and index d+1
opens it; what the engine says counts seats from 1 ("player 1", "P1").

>>> state = position(hands=["K♥ 4♣ 9♦ 9♠", "7♣ 8♦ 2♠ 5♥"], stock="3♥ 6♣ J♠ Q♦")
>>> step = state.play("7♣+8♦=15 on row 1, point 2♠")
>>> step.rules()
['apertura', 'una-coppia']
>>> print(step.state)
deal 1/2 · dealer P1 · P1 to play · stock 1 · discards 0 · stock ran out never
row 1: 8♦+7♣=15
row 2: -
P1: 4♣ 9♦ 9♠ K♥ · score cards 0 · noted 0
P2: 3♥ 5♥ 6♣ J♠ · score cards 1 · noted 0
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ...errors import IllegalAction, RulebookError
from ...messages import code, msg, msg_n, notation
from ..base import Step, evolve
from ..playing_cards import Card, card, cards, excess, sort_cards
from .pieces import (
    ACTIONS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    START,
    Discard,
    Pair,
    Placement,
    Play,
    Result,
    Row,
    Shuffle,
    action,
    card_values,
    full_pack,
    pair,
    pairs_of,
)
from .state import Bidomino, Phase

__all__ = [
    "Card", "card", "cards", "card_values", "Pair", "pair", "pairs_of", "Row", "Placement",
    "Play", "Discard", "Shuffle", "action", "Bidomino", "Phase", "Result", "position", "new_game",
    "full_pack", "log", "IllegalAction", "ACTIONS",
]


def log(step: Step[Bidomino]) -> None:
    """Print a step's trace, one fired rule a line (for the worked examples)."""
    for fired in step.trace:
        print(fired)


def new_game(rng: random.Random | None = None, players: int = 2) -> Bidomino:
    """A game waiting for its first shuffle (a chance outcome); the first seat (index 0) deals first.

    ``rng`` is not used: the shuffles are chance outcomes that playouts sample.
    """
    if not isinstance(players, int) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise IllegalAction("giocatori", msg("Bidomino is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}", MIN_PLAYERS=MIN_PLAYERS, MAX_PLAYERS=MAX_PLAYERS, players=code(players)))
    return Bidomino(players=players, stock=full_pack(), noted=(0,) * players, score_piles=((),) * players,
                    hands=((),) * players)


def position(
    hands: Sequence[str],
    rows: Sequence[str] = ("", ""),
    stock: str = "",
    discards: str = "",
    score_piles: Sequence[str] | None = None,
    noted: Sequence[int] | None = None,
    turn: int | None = None,
    deal: int = 0,
    exhausted: int = 0,
) -> Bidomino:
    """A position in the middle of a deal, written in card notation (for examples and tests).

    ``rows`` lists each row's pairs left to right, e.g. ``"6♣+8♥=14 7♣+8♦=15"``. The cards
    it does not name are elsewhere in the pack; no card may appear more often than the two
    decks hold it:

    >>> position(hands=["7♦ 7♦", "7♦ 2♣"])
    Traceback (most recent call last):
    ...
    rulebook.errors.IllegalAction: [giocatori] a position cannot hold 7♦ 3 times (the pack holds 2)
    """
    players = len(hands)
    built = []
    for number, text in enumerate(rows, start=1):
        laid = tuple(pair(word) for word in text.split())
        values = [p.value for p in laid]
        if laid and (START not in values or values != list(range(values[0], values[0] + len(values)))):
            raise RulebookError(f"row {number} {text!r}: the values must run one by one, left to right, through 15")
        built.append(Row(laid))
    piles = [cards(s) for s in score_piles] if score_piles else []
    named = [c for h in hands for c in cards(h)] + [c for row in built for p in row.pairs for c in p.cards]
    if too_many := excess(named + [*cards(stock), *cards(discards), *(c for pile in piles for c in pile)], full_pack()):
        # Apart from the refusal's own call: Babel's extractor loses a message built inside another's arguments.
        each = tuple(msg_n("{card} {count} time (the pack holds {held})", "{card} {count} times (the pack holds {held})", n,
                           card=notation(str(c)), count=n, held=held) for c, n, held in too_many)
        raise IllegalAction("giocatori", msg("a position cannot hold {too_many}", too_many=each))
    state = new_game(players=players)
    return evolve(
        state,
        deal=deal,
        phase=Phase.PLAY,
        turn=(deal + 1) % players if turn is None else turn,
        hands=tuple(sort_cards(cards(h)) for h in hands),
        rows=(built[0], built[1]),
        stock=cards(stock),
        discards=cards(discards),
        score_piles=tuple(piles) if piles else state.score_piles,
        noted=tuple(noted) if noted else state.noted,
        exhausted=exhausted,
    )
