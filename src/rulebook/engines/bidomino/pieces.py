"""Bidomino's pieces: card values, pairs, rows, actions and their notation.

Everything here is a plain value or a pure function of hands and rows; the game state and
its turns are in :mod:`.state`. Rule ids in errors are those of ``rules/bidomino.yaml``.

>>> print(pair("K♥+4♣=17"), pair("4♣-K♥=9"), pair("A♠+5♥=19").bonus)
K♥+4♣=17 K♥-4♣=9 0
>>> action("play 7♣+8♦=15 on row 1, point 2♠")
Play(placements=(Placement(pair=Pair(first=Card('8', 'diamonds'), second=Card('7', 'clubs'), how='+', value=15), row=1),), point=Card('2', 'spades'))
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations

from ...errors import IllegalAction, RulebookError
from ...messages import Message, msg, msg_n, notation
from ..playing_cards import Card, card, cards, deck, remove_cards, show

START, LOWEST, HIGHEST = 15, 0, 26  # every row starts at 15 and can run from 0 to 26
HAND = 4
MIN_PLAYERS, MAX_PLAYERS = 2, 6
SUM, DIFFERENCE, LONE = "+", "-", "="
_FACES = {"A": 1, "J": 11, "Q": 12, "K": 13}


def card_values(c: Card) -> tuple[int, ...]:
    """The values a card may take: an Ace is 1 or 14, J 11, Q 12, K 13, the others their number."""
    return (1, 14) if c.rank == "A" else (_FACES.get(c.rank) or int(c.rank),)


def full_pack() -> tuple[Card, ...]:
    """The two 52-card decks merged, unshuffled: 104 cards, each card twice."""
    return deck(copies=2)


@dataclass(frozen=True)
class Pair:
    """Two cards laid together as one value: ``+`` side by side (sum), ``-`` one above the
    other (difference), or ``=`` a lone last card played as a pair.

    The cards are stored in a canonical order (higher played value first), so the same
    two cards making the same value compare equal however they were written.
    """

    first: Card
    second: Card | None
    how: str
    value: int

    def __post_init__(self) -> None:
        if self.how not in (SUM, DIFFERENCE, LONE):
            raise RulebookError(f"a pair is made with {SUM!r} (sum), {DIFFERENCE!r} (difference) or {LONE!r} (a lone card), not {self.how!r}")
        options = self._orders()
        if not options:
            rule = "carta-singola" if self.how == LONE else "coppia"
            raise IllegalAction(rule, self._cannot_make())
        first, second = max(options, key=lambda o: (o[2], o[0].key, o[1].key if o[1] else (0, 0)))[:2]
        object.__setattr__(self, "first", first)
        object.__setattr__(self, "second", second)

    def _cannot_make(self) -> Message:
        """Why these cards cannot make this value, and the values they can make (a whole
        sentence for each way of laying them)."""
        said = {"cards": notation(show(self.cards)), "value": self.value,
                "made": tuple(sorted(_values(self.first, self.second, self.how)))}
        if self.how == SUM:
            return msg("{cards} as a sum cannot make {value}; it makes {made}", **said)
        if self.how == DIFFERENCE:
            return msg("{cards} as a difference cannot make {value}; it makes {made}", **said)
        return msg("{cards} as a lone card cannot make {value}; it makes {made}", **said)

    def _orders(self) -> list[tuple[Card, Card | None, int]]:
        # Every way of reading the pair as (first, second, first's value) with first >= second.
        if self.how == LONE:
            return [(self.first, None, self.value)] if self.second is None and self.value in card_values(self.first) else []
        if self.how not in (SUM, DIFFERENCE) or self.second is None:
            return []
        found: list[tuple[Card, Card | None, int]] = []
        for a, b in ((self.first, self.second), (self.second, self.first)):
            for va in card_values(a):
                for vb in card_values(b):
                    made = va + vb if self.how == SUM else va - vb
                    if va >= vb and made == self.value:
                        found.append((a, b, va))
        return found

    @property
    def cards(self) -> tuple[Card, ...]:
        return (self.first,) if self.second is None else (self.first, self.second)

    @property
    def bonus(self) -> int:
        """Bonus points: one for the same suit, one for the same rank (identical cards: two)."""
        if self.second is None:
            return 0
        return (self.first.suit == self.second.suit) + (self.first.rank == self.second.rank)

    def __str__(self) -> str:
        if self.second is None:
            return f"{self.first}={self.value}"
        return f"{self.first}{self.how}{self.second}={self.value}"


def _values(a: Card, b: Card | None, how: str) -> set[int]:
    if b is None or how == LONE:
        return set(card_values(a))
    if how == SUM:
        return {x + y for x in card_values(a) for y in card_values(b)}
    return {abs(x - y) for x in card_values(a) for y in card_values(b)}


_PAIR_RE = re.compile(r"(\S+?)(?:([+-])(\S+?))?=(\d+)")


def pair(text: str) -> Pair:
    """A pair from its notation: ``pair("K♥+4♣=17")``, ``pair("K♥-4♣=9")``, ``pair("9♣=9")``."""
    match = _PAIR_RE.fullmatch(text.strip())
    if not match:
        raise RulebookError(f"{text!r} is not a pair; write e.g. 'K♥+4♣=17', 'K♥-4♣=9' or '9♣=9'")
    first, how, second, value = match.groups()
    if how is None:
        return Pair(card(first), None, LONE, int(value))
    return Pair(card(first), card(second), how, int(value))


def pairs_of(a: Card, b: Card) -> list[Pair]:
    """Every pair two cards can make, sums first, lowest value first."""
    return [Pair(a, b, how, v) for how in (SUM, DIFFERENCE) for v in sorted(_values(a, b, how))]


@dataclass(frozen=True)
class Row:
    """One row of pairs, left to right; values are consecutive and include 15."""

    pairs: tuple[Pair, ...] = ()

    @property
    def values(self) -> tuple[int, ...]:
        return tuple(p.value for p in self.pairs)

    def end_for(self, value: int) -> str | None:
        """Where a value goes: 'open' (empty row, 15), 'left' (one lower), 'right' (one higher)."""
        if not self.pairs:
            return "open" if value == START else None
        if value == self.pairs[0].value - 1 and value >= LOWEST:
            return "left"
        if value == self.pairs[-1].value + 1 and value <= HIGHEST:
            return "right"
        return None

    def wanted(self) -> tuple[int, ...]:
        """The values this row accepts now."""
        if not self.pairs:
            return (START,)
        low, high = self.pairs[0].value - 1, self.pairs[-1].value + 1
        return tuple(v for v in (low, high) if LOWEST <= v <= HIGHEST)

    def add(self, p: Pair) -> Row:
        return Row((p,) + self.pairs if self.end_for(p.value) == "left" else self.pairs + (p,))

    def __str__(self) -> str:
        return " ".join(str(p) for p in self.pairs) or "-"


@dataclass(frozen=True)
class Placement:
    pair: Pair
    row: int  # 1 or 2, as the rows are numbered on the table

    def __str__(self) -> str:
        return f"{self.pair} on row {self.row}"

    @property
    def told(self) -> Message:
        return msg("{pair} on row {row}", pair=notation(str(self.pair)), row=self.row)


@dataclass(frozen=True)
class Play:
    """Lay one or two pairs; after a single pair, ``point`` is the hand card set aside."""

    placements: tuple[Placement, ...]
    point: Card | None = None

    def __str__(self) -> str:
        return "play " + ", ".join([str(p) for p in self.placements] + ([f"point {self.point}"] if self.point else []))

    @property
    def told(self) -> Message:
        """The play in words, as a refusal names it: "laying 8♦+7♣=15 on row 1, setting 2♠ aside"."""
        laid = tuple(p.told for p in self.placements)
        if self.point is not None:
            return msg("laying {placements} and setting {point} aside", placements=laid, point=notation(str(self.point)))
        return msg("laying {placements}", placements=laid)


@dataclass(frozen=True)
class Discard:
    card: Card

    def __str__(self) -> str:
        return f"discard {self.card}"

    @property
    def told(self) -> Message:
        return msg("discarding {card}", card=notation(str(self.card)))


@dataclass(frozen=True)
class Shuffle:
    """A chance outcome: the order of the shuffled cards, top of the new stock first."""

    order: tuple[Card, ...]

    def __str__(self) -> str:
        return f"shuffle {show(self.order)}"

    @property
    def told(self) -> Message:
        return msg_n("a shuffle of {count} card", "a shuffle of {count} cards", len(self.order), count=len(self.order))


Action = Play | Discard | Shuffle
#: Every action class, a player's or chance's: each has its handler in Bidomino.handlers.
ACTIONS = (Play, Discard, Shuffle)
_PLACEMENT_RE = re.compile(r"(\S+) on row ([12])")


def action(text: str) -> Action:
    """An action from its ``str``: ``action("play 7♣+8♦=15 on row 1, point 2♠")``."""
    text = text.strip()
    verb, _, rest = text.partition(" ")
    if verb == "discard":
        return Discard(card(rest))
    if verb == "shuffle":
        return Shuffle(cards(rest))
    if verb == "play":
        text, verb = rest, ""
    placements, point = [], None
    for part in (p.strip() for p in text.split(",")):
        if part.startswith("point "):
            point = card(part[6:])
        elif match := _PLACEMENT_RE.fullmatch(part):
            placements.append(Placement(pair(match.group(1)), int(match.group(2))))
        else:
            raise RulebookError(f"cannot read {part!r} in {text!r}; write e.g. 'play 7♣+8♦=15 on row 1, point 2♠'")
    return Play(tuple(placements), point)


@dataclass(frozen=True)
class Result:
    """The end of the game: everyone's total and the winner (several if tied)."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]

    def __str__(self) -> str:
        # Seats counted from 1, as the engine tells them (the indexes count from 0).
        who = " and ".join(f"P{w + 1}" for w in self.winners)
        board = ", ".join(f"P{i} {s}" for i, s in enumerate(self.scores, start=1))
        return f"{who} {'win' if len(self.winners) > 1 else 'wins'} · {board}"


def pair_placements(hand: Sequence[Card], rows: tuple[Row, Row]) -> Iterable[Placement]:
    seen = set()
    for a, b in combinations(hand, 2):
        if (a, b) in seen:
            continue
        seen.add((a, b))
        for how in (SUM, DIFFERENCE):  # pairs_of's order; a pair is made only where its value fits
            for value in sorted(_values(a, b, how)):
                numbers = [number for number, row in enumerate(rows, start=1) if row.end_for(value)]
                if numbers:
                    made = Pair(a, b, how, value)
                    yield from (Placement(made, number) for number in numbers)


def lone_placements(c: Card, rows: tuple[Row, Row]) -> Iterable[Placement]:
    for v in card_values(c):
        for number, row in enumerate(rows, start=1):
            if row.end_for(v):
                yield Placement(Pair(c, None, LONE, v), number)


def two_pair_plays(hand: Sequence[Card], rows: tuple[Row, Row]) -> Iterable[Play]:
    # The same two placements in either order give the same table: keep one of them.
    seen = set()
    for first in pair_placements(hand, rows):
        after = placed(rows, first)
        for second in pair_placements(remove_cards(hand, first.pair.cards) or (), after):
            key = frozenset((first, second)) if first != second else (first, second)
            if key not in seen:
                seen.add(key)
                yield Play((first, second))


def placed(rows: tuple[Row, Row], p: Placement) -> tuple[Row, Row]:
    new = rows[p.row - 1].add(p.pair)
    return (new, rows[1]) if p.row == 1 else (rows[0], new)


def can_score(hand: Sequence[Card], rows: tuple[Row, Row]) -> bool:
    """Whether a hand can still make a point on these rows: a pair that fits, or a single card
    whose face value fits (its holder can discard down to it and play it alone)."""
    wanted = {v for row in rows for v in row.wanted()}
    if any(v in wanted for c in hand for v in card_values(c)):
        return True
    return any(v in wanted for a, b in combinations(hand, 2) for how in (SUM, DIFFERENCE) for v in _values(a, b, how))
