"""French-suited playing cards (13 ranks x 4 suits), shared by the card games' engines.

A card is a plain value: two copies from two decks are equal, so hands and piles are
multisets and are compared as such.

>>> cards("K♥ 10s A♣")
(Card('K', 'hearts'), Card('10', 'spades'), Card('A', 'clubs'))
>>> show(sort_cards(cards("K♥ 10s A♣ 2♥")))
'A♣ 2♥ 10♠ K♥'
>>> len(deck(copies=2))
104
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TypeVar

from ..errors import RulebookError
from .base import Evaluable

__all__ = ["RANKS", "SUITS", "SUIT_SIGNS", "Card", "card", "cards", "deck", "show", "sort_cards", "remove_cards", "excess"]

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("hearts", "diamonds", "clubs", "spades")
SUIT_SIGNS = {"hearts": "♥", "diamonds": "♦", "clubs": "♣", "spades": "♠"}
# Letters are accepted too, so a card can be typed on any keyboard.
_SUIT_BY_SIGN = {sign: suit for suit, sign in SUIT_SIGNS.items()} | {suit[0]: suit for suit in SUITS}
_CARD_RE = re.compile(r"(10|[2-9AJQK])([♥♦♣♠hdcs])")
T = TypeVar("T")


@dataclass(frozen=True, repr=False)
class Card(Evaluable):
    rank: str
    suit: str

    def __post_init__(self) -> None:
        if self.rank not in RANKS or self.suit not in SUITS:
            raise RulebookError(f"no such card: rank {self.rank!r} of {self.suit!r}; ranks {' '.join(RANKS)}, suits {', '.join(SUITS)}")

    def __str__(self) -> str:
        return self.rank + SUIT_SIGNS[self.suit]

    @property
    def key(self) -> tuple[int, int]:
        """Sort key: rank first (Ace low), then suit in the order of SUITS."""
        return RANKS.index(self.rank), SUITS.index(self.suit)


def card(text: str) -> Card:
    """One card from its short name: ``card("Q♣")``, ``card("10h")``."""
    match = _CARD_RE.fullmatch(text.strip())
    if not match:
        raise RulebookError(f"{text!r} is not a card; write rank then suit, e.g. 'Q♣', '10♥' or '10h'")
    return Card(match.group(1), _SUIT_BY_SIGN[match.group(2)])


def cards(text: str) -> tuple[Card, ...]:
    """Cards from short names separated by spaces or commas, in the order written."""
    return tuple(card(word) for word in text.replace(",", " ").split())


def deck(copies: int = 1) -> tuple[Card, ...]:
    """``copies`` full 52-card decks merged, unshuffled and sorted."""
    return sort_cards(Card(rank, suit) for rank in RANKS for suit in SUITS for _ in range(copies))


def sort_cards(items: Iterable[Card]) -> tuple[Card, ...]:
    return tuple(sorted(items, key=lambda c: c.key))


def show(items: Iterable[object]) -> str:
    """Cards by their short names, or "-" for none; La Strage's Jokers show as JK."""
    return " ".join(str(c) for c in items) or "-"


def remove_cards(items: Iterable[T], gone: Iterable[T]) -> tuple[T, ...] | None:
    """``items`` without ``gone`` (as multisets), keeping order; None if a card is missing.

    Any cards that compare by value work, e.g. La Strage's Jokers beside these cards, or
    BingoMagic's lands.
    """
    left = list(items)
    for c in gone:
        if c not in left:
            return None
        left.remove(c)
    return tuple(left)


def excess(items: Iterable[T], pack: Iterable[T]) -> tuple[tuple[T, int, int], ...]:
    """(card, times held, times the pack holds it) for each card ``items`` holds more often than
    ``pack`` does, in the order first met; empty when every card is possible.

    A position is written by hand, card by card; a card repeated past its copies in the pack
    makes a hand that cannot happen. Any hashable cards work (Jokers, BingoMagic's lands): each
    engine refuses the position in a message per card.

    >>> excess(cards("7♦ K♠ 7♦ 7♦"), deck(copies=2))
    ((Card('7', 'diamonds'), 3, 2),)
    """
    held, found = Counter(pack), Counter(items)
    return tuple((c, n, held[c]) for c, n in found.items() if n > held[c])
