"""What chance can do at a chance node: every outcome with its exact probability.

A state at a chance node lists its outcomes through ``chance_outcomes()`` (OpenSpiel's
``chance_outcomes``): a sequence of ``(action, Fraction)`` pairs whose probabilities add up to
exactly 1. Random playouts draw from that same list (:func:`draw`), so what an example states
about a probability and what the random games do cannot disagree.

A die lists its faces. A shuffle lists every distinct order of the cards: far too many to hold
for a real deck (a 40-card pile has more orders than there are atoms on Earth), so
:class:`Orders` computes the ``i``-th order when asked, and :func:`draw` picks an index.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Hashable, Iterator, Sequence
from fractions import Fraction
from typing import Any, overload

Outcome = tuple[Any, Fraction]


def faces(weights: Sequence[tuple[Any, int]]) -> tuple[Outcome, ...]:
    """Outcomes from whole-number weights, the same outcome listed once: a die's six faces
    ``[(CHAOS, 1), (BLANK, 4), …]`` become ``((CHAOS, Fraction(1, 6)), (BLANK, Fraction(2, 3)), …)``."""
    total = sum(w for _, w in weights)
    merged: dict[Any, int] = {}
    for outcome, weight in weights:
        merged[outcome] = merged.get(outcome, 0) + weight
    return tuple((outcome, Fraction(weight, total)) for outcome, weight in merged.items() if weight)


class Orders(Sequence[Outcome]):
    """Every distinct order of ``cards``, each as ``(make(order), probability)``: a fair shuffle.

    Cards that are equal are not told apart, so each distinct order is equally likely (each
    comes from the same number of orderings of the physical cards). The orders are listed in
    the order of the cards' first appearance in ``cards``, computed one by one on demand.

    >>> orders = Orders("aab")
    >>> orders.size, [("".join(o), str(p)) for o, p in orders]
    (3, [('aab', '1/3'), ('aba', '1/3'), ('baa', '1/3')])
    """

    def __init__(self, cards: Sequence[Hashable], make: Any = tuple):
        self.cards = tuple(cards)
        self.make = make
        self._kinds = tuple(dict.fromkeys(self.cards))
        counts = Counter(self.cards)
        self._counts = tuple(counts[k] for k in self._kinds)
        self._length = _multinomial(self._counts)
        self.probability = Fraction(1, self._length)

    @property
    def size(self) -> int:
        """How many orders there are; ``len()`` is the same where Python can hold it (a
        deck's orders overflow ``len``, which must fit a machine word)."""
        return self._length

    def __len__(self) -> int:
        return self._length

    @overload
    def __getitem__(self, index: int) -> Outcome: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[Outcome]: ...

    def __getitem__(self, index: int | slice) -> Any:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self._length))]
        if index < 0:
            index += self._length
        if not 0 <= index < self._length:
            raise IndexError(f"order {index} of {self._length}")
        return self.make(self._unrank(index)), self.probability

    def __iter__(self) -> Iterator[Outcome]:
        return (self[i] for i in range(self._length))

    def _unrank(self, index: int) -> tuple[Hashable, ...]:
        # Position by position: the orders that start with a given kind are as many as the
        # orders of what is left, so the index says which kind comes first, and so on.
        counts = list(self._counts)
        remaining = len(self.cards)
        block = self._length
        order = []
        for _ in range(len(self.cards)):
            for k, count in enumerate(counts):
                if not count:
                    continue
                size = block * count // remaining  # orders of the rest once kind k is placed here
                if index < size:
                    order.append(self._kinds[k])
                    counts[k] -= 1
                    block, remaining = size, remaining - 1
                    break
                index -= size
        return tuple(order)

    def __repr__(self) -> str:
        return f"Orders({len(self.cards)} cards: {self._length} orders, each {self.probability})"


def _multinomial(counts: Sequence[int]) -> int:
    result, placed = 1, 0
    for count in counts:
        placed += count
        result *= math.comb(placed, count)
    return result


def draw(outcomes: Sequence[Outcome], rng: random.Random) -> Any:
    """One outcome, drawn with exactly its probability.

    Equally likely outcomes (a shuffle's :class:`Orders`) are drawn by index. Otherwise a ticket,
    one of the equally likely fractions k/d below 1 (d the common denominator), falls in the
    share of exactly one outcome: exact arithmetic, so no rounding shifts a probability.
    """
    if isinstance(outcomes, Orders):
        return outcomes[rng.randrange(outcomes.size)][0]
    denominator = math.lcm(*(p.denominator for _, p in outcomes))
    ticket = Fraction(rng.randrange(denominator), denominator)
    for outcome, probability in outcomes:
        ticket -= probability
        if ticket < 0:
            return outcome
    raise ValueError(f"the probabilities of {outcomes!r} add up to less than 1")
