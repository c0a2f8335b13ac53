"""The reference engine of rules/sevens.yaml: every worked example there runs against it.

Sevens is played with a standard deck of 52 cards. The players lay them out in four rows, one
per suit, each row started by its 7 and grown one rank at a time up to the king and down to
the ace; the first player out of cards wins.

It keeps rulebook's engine contract (its docs/engines.md): a frozen state, one handler per
action in the table at the end of the state class, the deal as an action the caller supplies,
and every change named by the id of the rule that made it. Registered in pyproject.toml as the
engine `sevens`.

Cards are written rank then suit: ``7D`` (seven of diamonds), ``10H``, ``QS``, ``AC``.

>>> parse_card("10h"), rank_name(1), rank_name(12)
('10H', 'A', 'Q')
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, replace
from enum import Enum
from typing import Sequence

from rulebook.engines.base import CHANCE, TERMINAL, Fired, State, replace_at
from rulebook.errors import IllegalAction, RulebookError

__all__ = ["SUITS", "DECK", "Phase", "Play", "Pass", "Deal", "Sevens", "ACTIONS", "IllegalAction", "new_game", "parse_card"]

SUITS = "SHDC"  # spades, hearts, diamonds, clubs: the order rows and hands are shown in
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")  # aces low (ruling ace-low)
DECK = tuple(rank + suit for suit in SUITS for rank in RANKS)
OPENING = "7D"  # rule start
PLAYERS = range(3, 7)  # rule deal
_CARD_RE = re.compile(r"^(A|[2-9]|10|J|Q|K)([SHDC])$")

Row = tuple[int, int] | None  # the lowest and highest rank of a suit on the table (1 = ace … 13 = king)


def parse_card(text: object) -> str:
    """A card as written here, ``7D``; anything else is a RulebookError saying how to write one."""
    found = _CARD_RE.match(text.strip().upper()) if isinstance(text, str) else None
    if not found:
        raise RulebookError(f"{text!r} is not a card: write rank then suit, e.g. 7D, 10H, QS (suits S H D C)")
    return found.group(0)


def rank_of(card: str) -> int:
    return RANKS.index(card[:-1]) + 1


def rank_name(rank: int) -> str:
    return RANKS[rank - 1]


def _sorted(cards: Sequence[str]) -> tuple[str, ...]:
    return tuple(sorted(cards, key=lambda card: (SUITS.index(card[-1]), rank_of(card))))


class Phase(Enum):
    DEAL = "the cards are being dealt (chance)"
    PLAY = "to play or pass"
    OVER = "game over"


@dataclass(frozen=True)
class Play:
    """The player to act plays a card from their hand (rules start and build)."""

    card: str


@dataclass(frozen=True)
class Pass:
    """The player to act cannot play and passes (rule pass)."""


@dataclass(frozen=True)
class Deal:
    """Chance: the hands as dealt, one card at a time from player 0 on (rule deal)."""

    hands: tuple[str, ...]  # each hand as cards separated by spaces

    @classmethod
    def from_deck(cls, order: Sequence[str], players: int) -> Deal:
        """The deal of a deck in this order: card i goes to player i mod players."""
        return cls(tuple(" ".join(order[seat::players]) for seat in range(players)))


ACTIONS = (Play, Pass, Deal)


def _hands(hands: Sequence[str]) -> tuple[tuple[str, ...], ...]:
    """Hands written as text, each a space-separated list of cards; no card twice, 3 to 6 players."""
    parsed = tuple(_sorted([parse_card(card) for card in hand.split()]) for hand in hands)
    if len(parsed) not in PLAYERS:
        raise IllegalAction("deal", f"Sevens is for {PLAYERS.start} to {PLAYERS.stop - 1} players, not {len(parsed)}")
    cards = [card for hand in parsed for card in hand]
    if twice := sorted({card for card in cards if cards.count(card) > 1}):
        raise IllegalAction("deal", f"a card dealt twice: {' '.join(twice)}")
    return parsed


@dataclass(frozen=True)
class Sevens(State):
    hands: tuple[tuple[str, ...], ...] = ()
    rows: tuple[Row, ...] = (None, None, None, None)  # by suit, in SUITS order
    active: int = 0
    phase: Phase = Phase.DEAL

    unknown_action_rule = "build"
    actions_are = "an action of Sevens"

    @classmethod
    def setup(cls, hands: Sequence[str], table: str = "", active: int | None = None) -> Sevens:
        """A game in progress: the hands, the cards already on the table, who is to play.

        Without ``table`` nothing has been played and the holder of the 7D is to open; with it,
        player 0 is to play unless ``active`` says otherwise.
        """
        held = _hands(hands)
        on_table = [parse_card(card) for card in table.split()]
        if overlap := sorted(set(on_table) & {card for hand in held for card in hand}):
            raise IllegalAction("deal", f"{' '.join(overlap)} both on the table and in a hand")
        rows = tuple(_row([rank_of(card) for card in on_table if card[-1] == suit], suit) for suit in SUITS)
        if active is None:
            active = 0 if on_table else next((seat for seat, hand in enumerate(held) if OPENING in hand), None)
            if active is None:
                raise IllegalAction("start", f"nobody holds the {OPENING}, which opens the game")
        if active not in range(len(held)):
            raise IllegalAction("deal", f"there is no player {active!r} among {len(held)}")
        return cls(held, rows, active, Phase.PLAY)

    @property
    def current_player(self) -> int:
        return {Phase.OVER: TERMINAL, Phase.DEAL: CHANCE}.get(self.phase, self.active)

    @property
    def outcome(self) -> int | None:
        """The winner, the first player out of cards."""
        return self.active if self.phase is Phase.OVER else None

    @property
    def opening(self) -> bool:
        return all(row is None for row in self.rows)

    def fits(self, card: str) -> bool:
        """Whether ``card`` may go on the table now (rules start and build)."""
        if self.opening:
            return card == OPENING
        row, rank = self.rows[SUITS.index(card[-1])], rank_of(card)
        return rank == 7 if row is None else rank in (row[0] - 1, row[1] + 1)

    def playable(self) -> list[str]:
        return [card for card in self.hands[self.active] if self.fits(card)] if self.phase is Phase.PLAY else []

    def legal_actions(self) -> list[Play | Pass]:
        if self.phase is not Phase.PLAY:
            return []
        return [Play(card) for card in self.playable()] or [Pass()]

    def sample_chance(self, rng: random.Random) -> Deal:
        order = list(DECK)
        rng.shuffle(order)
        return Deal.from_deck(order, len(self.hands))

    def _deal(self, action: Deal, trace: list[Fired]) -> Sevens:
        self._expect(Phase.DEAL, action, "deal")
        hands = _hands(action.hands)
        if len(hands) != len(self.hands):
            raise IllegalAction("deal", f"this game has {len(self.hands)} players, the deal {len(hands)} hands")
        if missing := [card for card in DECK if not any(card in hand for hand in hands)]:
            raise IllegalAction("deal", f"the whole deck is dealt; missing: {' '.join(missing)}")
        sizes = [len(hand) for hand in hands]
        fair = [len(DECK[seat::len(hands)]) for seat in range(len(hands))]
        if sizes != fair:
            raise IllegalAction("deal", f"one card at a time from player 0 gives {fair} cards, not {sizes}")
        opener = next(seat for seat, hand in enumerate(hands) if OPENING in hand)
        trace.append(Fired("deal", f"{len(hands)} hands of {'/'.join(map(str, sizes))} cards; player {opener} holds the {OPENING}"))
        return replace(self, hands=hands, active=opener, phase=Phase.PLAY)

    def _play(self, action: Play, trace: list[Fired]) -> Sevens:
        self._expect(Phase.PLAY, action, "build")
        card, hand = parse_card(action.card), self.hands[self.active]
        if card not in hand:
            raise IllegalAction("build", f"player {self.active} does not hold {card}: hand {' '.join(hand) or '-'}")
        suit, rank = card[-1], rank_of(card)
        row = self.rows[SUITS.index(suit)]
        if not self.fits(card):
            raise self._refusal(card, row)
        rows = replace_at(self.rows, SUITS.index(suit), (min(rank, row[0]), max(rank, row[1])) if row else (rank, rank))
        rule = "start" if self.opening else "build"
        trace.append(Fired(rule, f"player {self.active} plays {card}: {SUIT_NAMES[suit]} {_shown(rows[SUITS.index(suit)])}"))
        hands = replace_at(self.hands, self.active, tuple(c for c in hand if c != card))
        if not hands[self.active]:
            trace.append(Fired("win", f"player {self.active} has played their last card and wins"))
            return replace(self, hands=hands, rows=rows, phase=Phase.OVER)
        return replace(self, hands=hands, rows=rows, active=(self.active + 1) % len(hands))

    def _refusal(self, card: str, row: Row) -> IllegalAction:
        suit = SUIT_NAMES[card[-1]]
        if self.opening:
            return IllegalAction("start", f"the game opens with the {OPENING}, not {card}")
        if row is None:
            return IllegalAction("build", f"{card} cannot be played: the {suit} row has no 7 yet")
        if rank_of(card) == 1 and row[1] == 13:
            return IllegalAction("ace-low", f"the ace goes below the 2, never after the king: {suit} {_shown(row)}")
        ends = " or ".join(rank_name(r) + card[-1] for r in (row[0] - 1, row[1] + 1) if 1 <= r <= 13)
        return IllegalAction("build", f"{card} does not fit {suit} {_shown(row)}: it takes {ends or 'nothing more'}")

    def _pass(self, action: Pass, trace: list[Fired]) -> Sevens:
        self._expect(Phase.PLAY, action, "pass")
        if playable := self.playable():
            raise IllegalAction("must-play", f"player {self.active} can play {' '.join(playable)}, and a player who can play must")
        trace.append(Fired("pass", f"player {self.active} cannot play and passes"))
        return replace(self, active=(self.active + 1) % len(self.hands))

    def __str__(self) -> str:
        table = "  ".join(f"{suit} {_shown(row)}" for suit, row in zip(SUITS, self.rows))
        hands = "  ".join(f"{seat}: {' '.join(hand) or '-'}" for seat, hand in enumerate(self.hands))
        return f"table: {table}\nhands: {hands}\n{self._now()}"

    handlers = {Play: _play, Pass: _pass, Deal: _deal}


def _row(ranks: list[int], suit: str) -> Row:
    """The row the cards of one suit on the table make: none, or a run through the 7."""
    if not ranks:
        return None
    low, high = min(ranks), max(ranks)
    if not low <= 7 <= high or sorted(ranks) != list(range(low, high + 1)):
        cards = " ".join(rank_name(r) + suit for r in sorted(ranks))
        raise IllegalAction("build", f"{cards} cannot be on the table: a row is an unbroken run through its 7")
    return low, high


def _shown(row: Row) -> str:
    if row is None:
        return "-"
    return rank_name(row[0]) if row[0] == row[1] else f"{rank_name(row[0])}-{rank_name(row[1])}"


def new_game(rng: random.Random, players: int = 4) -> Sevens:
    """A game waiting for its deal, for `rulebook play sevens`; the caller deals (a chance action)."""
    if players not in PLAYERS:
        raise IllegalAction("deal", f"Sevens is for {PLAYERS.start} to {PLAYERS.stop - 1} players, not {players!r}")
    return Sevens(hands=((),) * players)
