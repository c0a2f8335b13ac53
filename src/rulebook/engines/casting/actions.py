"""What a player may do in the casting engine: each action a frozen value whose repr is its call."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ..base import Evaluable


def _ids(value: str | Iterable[str]) -> tuple[str, ...]:
    return (value,) if isinstance(value, str) else tuple(value)


def _taps(value: str | Tap | Iterable[str | Tap]) -> tuple[str | Tap, ...]:
    """Permanents tapped to pay (convoke, improvise): each a bare id or a :class:`Tap`."""
    return (value,) if isinstance(value, (str, Tap)) else tuple(value)


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
class Tap(Evaluable):
    """A permanent tapped in 601.2h to pay one mana of the cost, and which symbol it pays:
    ``pays`` is a colour letter (``'W'``) or ``'1'`` for one generic mana. Empty, the engine
    chooses as ruling convocare-colore says: a symbol of the creature's colour while one is
    left to pay, otherwise {1} (an artifact tapped for improvise always pays {1})."""

    source: str
    pays: str = ""


@dataclass(frozen=True, repr=False)
class Cast(Evaluable):
    """Propose to cast ``card`` with every announcement of 601.2 at once.

    ``targets`` is one flat list in the order of the card's "target" words; ``mana`` lists
    the mana abilities activated in 601.2g (a bare id is ``Mana(id)``); ``convoke``,
    ``exile`` and ``sacrifice`` pay the matching parts of the cost in 601.2h.
    ``x=None`` on a spell with X applies the tournament shortcut (X = all mana left).

    Every choice of payment is the caster's, and each has a default when it is left out:

    - ``pay_as``: how each hybrid or Phyrexian symbol is paid (601.2b), one choice per symbol
      in the order of ``ManaCost.open_symbols``; left out, each is paid as the first payment
      ``ManaCost.payment_choices`` lists for it (the first colour of a hybrid, ``'2'`` for
      {2/W}, the colour of a Phyrexian symbol): mana, never life, unless announced.
    - ``convoke``: the creatures tapped for convoke (702.51a), each an id or a
      :class:`Tap` saying which symbol it pays: ``Tap('knight', 'W')``.
    - ``improvise``: the artifacts tapped for improvise (702.126a), each paying {1}.
    - ``generic``: the mana of the pool that pays the generic part left after convoke and
      improvise, e.g. ``'RG'`` or ``'{R}{G}'``; left out, colourless mana first, then the most
      plentiful colour (ruling mana-per-il-generico). Coloured symbols take their own colour.
    """

    card: str
    targets: tuple[str, ...] = ()
    x: int | None = None
    alternative: str | tuple[str, ...] = ""
    kicked: bool = False
    pay_as: tuple[str, ...] = ()
    division: tuple[int, ...] = ()
    mana: tuple[Mana, ...] = ()
    convoke: tuple[str | Tap, ...] = ()
    exile: tuple[str, ...] = ()
    sacrifice: tuple[str, ...] = ()
    improvise: tuple[str | Tap, ...] = ()
    generic: str = ""

    def __post_init__(self) -> None:
        for name in ("targets", "pay_as", "exile", "sacrifice"):
            object.__setattr__(self, name, _ids(getattr(self, name)))
        for name in ("convoke", "improvise"):
            object.__setattr__(self, name, _taps(getattr(self, name)))
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


@dataclass(frozen=True, repr=False)
class Concede(Evaluable):
    """``player`` concedes (104.3a): at any time, with priority or not, even while an offer
    waits; they leave the game at once and lose it."""

    player: int


ACTIONS = (Cast, Mana, Activate, PlayLand, Pass, Resolve, Decline, Choose, Concede)
