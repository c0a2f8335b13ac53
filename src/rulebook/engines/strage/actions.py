"""The actions of La Strage degli Innocenti without magic, and the scoring of a finished game.

Each action is a small frozen value whose repr is the call that makes it (``Move('c4', 'd3')``),
so recorded games and doctests read the same (:class:`~rulebook.engines.base.Evaluable`), and
whose ``told`` tells it in words, as a refusal on a page names it ("placing a half-elf on a1").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ...messages import Message, msg, msg_n, notation
from ..base import Evaluable
from .board import CLANS


@dataclass(frozen=True, repr=False)
class Roll(Evaluable):
    """Chance outcome: the face of the die."""

    value: int

    def __str__(self) -> str:
        return f"roll {self.value}"

    @property
    def told(self) -> Message:
        # Translators: an action as a refusal names it ("a roll of 7: a die shows 1 to 6").
        return msg("a roll of {value}", value=self.value)


@dataclass(frozen=True, repr=False)
class Place(Evaluable):
    """Put one of your half-elves from off the map on a square of the placement area."""

    square: str

    def __str__(self) -> str:
        return f"place a half-elf on {self.square}"

    @property
    def told(self) -> Message:
        # Translators: an action as a refusal names it, before a colon and the reason ("placing a
        # half-elf on a1: green has already placed 2 half-elves this turn").
        return msg("placing a half-elf on {square}", square=notation(self.square))


@dataclass(frozen=True, repr=False)
class Move(Evaluable):
    """One step of one of your half-elves, with the sprite it escorts if ``escort``.

    ``withdraw`` takes the half-elf off the map after it has brought a sprite to the exit row.
    """

    start: str
    end: str
    escort: bool = False
    withdraw: bool = False

    def __str__(self) -> str:
        return f"{self.start}-{self.end}" + (" with the sprite" if self.escort else "") + (", then off the map" if self.withdraw else "")

    @property
    def told(self) -> Message:
        """The move in words, one whole sentence for each way of making it."""
        start, end = notation(self.start), notation(self.end)
        if self.escort and self.withdraw:
            return msg("moving a half-elf with its sprite from {start} to {end} and taking it off the map", start=start, end=end)
        if self.escort:
            return msg("moving a half-elf with its sprite from {start} to {end}", start=start, end=end)
        if self.withdraw:
            return msg("moving a half-elf from {start} to {end} and taking it off the map", start=start, end=end)
        return msg("moving a half-elf from {start} to {end}", start=start, end=end)


@dataclass(frozen=True, repr=False)
class Attack(Evaluable):
    """Your half-elf at ``attacker`` fights the orc or rival half-elf at ``target``."""

    attacker: str
    target: str

    def __str__(self) -> str:
        return f"{self.attacker} attacks {self.target}"

    @property
    def told(self) -> Message:
        return msg("attacking {target} with the half-elf on {attacker}", target=notation(self.target), attacker=notation(self.attacker))


@dataclass(frozen=True, repr=False)
class End(Evaluable):
    """Stop spending action points (or end the magic phase)."""

    def __str__(self) -> str:
        return "end"

    @property
    def told(self) -> Message:
        # Translators: the action that stops spending action points, or ends the magic phase.
        return msg("ending the phase")


@dataclass(frozen=True, repr=False)
class PlaceOrc(Evaluable):
    square: str

    def __str__(self) -> str:
        return f"place an orc on {self.square}"

    @property
    def told(self) -> Message:
        return msg("placing an orc on {square}", square=notation(self.square))


@dataclass(frozen=True, repr=False)
class MoveOrc(Evaluable):
    start: str
    end: str

    def __str__(self) -> str:
        return f"orc {self.start}-{self.end}"

    @property
    def told(self) -> Message:
        return msg("moving the orc from {start} to {end}", start=notation(self.start), end=notation(self.end))


@dataclass(frozen=True, repr=False)
class OrcAttack(Evaluable):
    orc: str
    target: str

    def __str__(self) -> str:
        return f"the orc at {self.orc} attacks {self.target}"

    @property
    def told(self) -> Message:
        return msg("attacking {target} with the orc on {orc}", target=notation(self.target), orc=notation(self.orc))


@dataclass(frozen=True)
class Result:
    """The end of a game: sprites saved and half-elves left on the map, per player."""

    saved: tuple[int, ...]
    on_map: tuple[int, ...]
    winner: int | None  # None: a tie even on half-elves, nobody wins

    def __str__(self) -> str:
        return str(self.said())

    def said(self) -> Message:
        """The result as a sentence of the game's trace (its English text is ``str(result)``)."""
        # The half-elves on the map break a tie (6.2): the words say what the number counts.
        scores = tuple(msg_n("{clan}: {saved} saved and {on_map} half-elf on the map", "{clan}: {saved} saved and {on_map} half-elves on the map",
                             m, clan=CLANS[p], saved=s, on_map=m)
                       for p, (s, m) in enumerate(zip(self.saved, self.on_map)))
        if self.winner is None:
            return msg("no winner ({scores})", scores=scores)
        return msg("{clan} wins ({scores})", clan=CLANS[self.winner], scores=scores)


def winner_of(saved: Sequence[int], on_map: Sequence[int]) -> int | None:
    """Most sprites saved; a tie goes to more half-elves on the map; a tie again to nobody."""
    best = max(saved)
    tied = [p for p, s in enumerate(saved) if s == best]
    most = max(on_map[p] for p in tied)
    tied = [p for p in tied if on_map[p] == most]
    return tied[0] if len(tied) == 1 else None
