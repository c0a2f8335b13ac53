"""What a player may do in the casting engine: each action a frozen value whose repr is its call."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from ..base import Evaluable


def _ids(value: str | Iterable[str]) -> tuple[str, ...]:
    return (value,) if isinstance(value, str) else tuple(value)


def _manas(value: str | Mana | Iterable[str | Mana]) -> tuple[Mana, ...]:
    """Mana abilities to activate, each a :class:`Mana` or the bare id of its source."""
    raw = (value,) if isinstance(value, (str, Mana)) else value
    return tuple(m if isinstance(m, Mana) else Mana(m) for m in raw)


@dataclass(frozen=True, repr=False)
class Mana(Evaluable):
    """Activate a mana ability of ``source``: on its own whenever you have priority (605.3a),
    or inside :class:`Cast` during 601.2g. ``colour`` picks the colour of "any colour" mana;
    ``sacrifice`` names the creature a "sacrifice a creature" cost sacrifices."""

    source: str
    colour: str = ""
    sacrifice: str = ""


@dataclass(frozen=True, repr=False)
class Cast(Evaluable):
    """Propose to cast ``card`` with every announcement of 601.2 at once.

    ``targets`` is one flat list in the order of the card's "target" words; ``mana`` lists
    the mana abilities activated in 601.2g (a bare id is ``Mana(id)``); ``convoke``,
    ``exile`` and ``sacrifice`` pay the matching parts of the cost in 601.2h.
    ``x=None`` on a spell with X applies the tournament shortcut (X = all mana left).
    """

    card: str
    targets: tuple[str, ...] = ()
    x: int | None = None
    alternative: str | tuple[str, ...] = ""
    kicked: bool = False
    pay_as: tuple[str, ...] = ()
    division: tuple[int, ...] = ()
    mana: tuple[Mana, ...] = ()
    convoke: tuple[str, ...] = ()
    exile: tuple[str, ...] = ()
    sacrifice: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        for name in ("targets", "pay_as", "convoke", "exile", "sacrifice"):
            object.__setattr__(self, name, _ids(getattr(self, name)))
        object.__setattr__(self, "division", tuple(self.division))
        object.__setattr__(self, "mana", _manas(self.mana))


@dataclass(frozen=True, repr=False)
class Activate(Evaluable):
    """Activate a non-mana activated ability: it is put on the stack (602.2)."""

    source: str
    targets: tuple[str, ...] = ()
    colour: str = ""
    mana: tuple[Mana, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "targets", _ids(self.targets))
        object.__setattr__(self, "mana", _manas(self.mana))


@dataclass(frozen=True, repr=False)
class PlayLand(Evaluable):
    """Play a land (from your hand, or from exile when an effect lets you *play* it)."""

    card: str


@dataclass(frozen=True, repr=False)
class Pass(Evaluable):
    """Pass priority; when both players pass in a row, the top of the stack resolves."""


@dataclass(frozen=True, repr=False)
class Resolve(Evaluable):
    """Shortcut for both players passing in succession: the top of the stack resolves."""


@dataclass(frozen=True, repr=False)
class Decline(Evaluable):
    """Decline an optional offer, such as casting the card cascade revealed."""


@dataclass(frozen=True, repr=False)
class Choose(Evaluable):
    """Choose the target of a triggered ability as it is put on the stack."""

    target: str


ACTIONS = (Cast, Mana, Activate, PlayLand, Pass, Resolve, Decline, Choose)
