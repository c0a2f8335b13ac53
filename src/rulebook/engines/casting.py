"""Casting a spell (Comprehensive Rules 601.2): the reference engine of ``rules/casting.yaml``.

The state is one main phase of player 0's turn: objects in zones, the stack, life totals,
mana pools and who has priority. Casting is one transaction (:mod:`.casting_steps`): the card
moves to the stack, the choices, targets and division are checked, the total cost is derived
(601.2f, :mod:`.casting_costs`), mana abilities are activated and the cost is paid. If any
step is illegal, :class:`IllegalAction` names the rule and the state is the one before the
cast: states are immutable, so nothing was moved and nothing was paid.

Rule ids in traces and errors are the ids of ``rules/casting.yaml``.

>>> game = setup(hand=["Lightning Bolt"], battlefield=["Mountain"], their_battlefield=["White Knight"])
>>> step = game.apply(Cast("lightning-bolt", targets="white-knight", mana="mountain"))
>>> step.rules()
['601.2a', '601.2c', '601.2f', '601.2g', '601.2h', '601.2i']
>>> print(step.state)
P0 life 20 | battlefield: mountain (T)
P1 life 20 | battlefield: white-knight
stack: lightning-bolt -> white-knight
"""

from __future__ import annotations

import random
import re
from dataclasses import MISSING, dataclass, fields, replace
from typing import Iterable, Sequence

from ..errors import IllegalAction, RulebookError
from .base import TERMINAL, State, Step
from .casting_cards import Card, card
from .casting_costs import Derivation
from .casting_steps import PLAYER_IDS
from .mana import ManaCost, Pool

__all__ = [
    "Game", "Obj", "Entry", "Pending", "setup", "card", "ManaCost", "Pool", "Derivation",
    "Cast", "Mana", "Activate", "PlayLand", "Pass", "Resolve", "Decline", "Choose",
    "IllegalAction", "ZONES", "new_game",
]

ZONES = ("library", "hand", "battlefield", "graveyard", "exile", "stack")


class _Compact:
    """A repr that names only the fields that differ from their default: a readable call."""

    def __repr__(self) -> str:
        shown = []
        for f in fields(self):  # type: ignore[arg-type]
            value = getattr(self, f.name)
            if f.default is MISSING:
                shown.append(repr(value))
            elif value != f.default:
                shown.append(f"{f.name}={value!r}")
        return f"{type(self).__name__}({', '.join(shown)})"


def _ids(value: str | Iterable[str]) -> tuple[str, ...]:
    return (value,) if isinstance(value, str) else tuple(value)


def _manas(value: str | Mana | Iterable[str | Mana]) -> tuple[Mana, ...]:
    """Mana abilities to activate, each a :class:`Mana` or the bare id of its source."""
    raw = (value,) if isinstance(value, (str, Mana)) else value
    return tuple(m if isinstance(m, Mana) else Mana(m) for m in raw)


# --- actions ----------------------------------------------------------------------------


@dataclass(frozen=True, repr=False)
class Mana(_Compact):
    """Activate a mana ability of ``source``: on its own whenever you have priority (605.3a),
    or inside :class:`Cast` during 601.2g. ``colour`` picks the colour of "any colour" mana;
    ``sacrifice`` names the creature a "sacrifice a creature" cost sacrifices."""

    source: str
    colour: str = ""
    sacrifice: str = ""


@dataclass(frozen=True, repr=False)
class Cast(_Compact):
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
class Activate(_Compact):
    """Activate a non-mana activated ability: it is put on the stack (602.2)."""

    source: str
    targets: tuple[str, ...] = ()
    colour: str = ""
    mana: tuple[Mana, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "targets", _ids(self.targets))
        object.__setattr__(self, "mana", _manas(self.mana))


@dataclass(frozen=True, repr=False)
class PlayLand(_Compact):
    """Play a land (from your hand, or from exile when an effect lets you *play* it)."""

    card: str


@dataclass(frozen=True, repr=False)
class Pass(_Compact):
    """Pass priority; when both players pass in a row, the top of the stack resolves."""


@dataclass(frozen=True, repr=False)
class Resolve(_Compact):
    """Shortcut for both players passing in succession: the top of the stack resolves."""


@dataclass(frozen=True, repr=False)
class Decline(_Compact):
    """Decline an optional offer, such as casting the card cascade revealed."""


@dataclass(frozen=True, repr=False)
class Choose(_Compact):
    """Choose the target of a triggered ability as it is put on the stack."""

    target: str


# --- state ------------------------------------------------------------------------------


@dataclass(frozen=True, repr=False)
class Obj(_Compact):
    """A card (or a copy of one) in a zone. ``id`` is the handle used by actions."""

    id: str
    name: str
    owner: int
    zone: str
    tapped: bool = False
    damage: int = 0
    counters: int = 0
    copy: bool = False
    chosen: str = ""  # the card name chosen as it entered (Meddling Mage)
    imprinted: str = ""  # id of the card exiled by its imprint ability (Isochron Scepter)
    exiled_by: str = ""  # id of the permanent whose effect exiled it (Daxos, Nightveil)
    flashback: bool = False  # flashback granted until end of turn (Snapcaster Mage)
    controlled_by: int = -1  # -1: its owner controls it
    entered: bool = False  # came onto the battlefield this turn: no {T} costs yet (302.6)

    @property
    def card(self) -> Card:
        return card(self.name)

    @property
    def controller(self) -> int:
        return self.owner if self.controlled_by < 0 else self.controlled_by

    def __str__(self) -> str:
        return self.id + (" (T)" if self.tapped else "") + (f" +{self.counters}" if self.counters else "") + (
            f" dmg {self.damage}" if self.damage else ""
        )


@dataclass(frozen=True, repr=False)
class Entry(_Compact):
    """A spell or ability on the stack, with what was announced for it."""

    id: str
    controller: int
    kind: str  # spell | trigger | ability
    source: str
    effect: str = ""
    targets: tuple[str, ...] = ()
    division: tuple[int, ...] = ()
    x: int = 0
    kicked: bool = False
    alternative: str = ""
    colour: str = ""
    total: ManaCost | None = None  # the locked total cost (601.2f) of a spell

    def __str__(self) -> str:
        extra = f" X={self.x}" if self.x else ""
        aim = f" -> {', '.join(self.targets)}" if self.targets else ""
        return f"{self.id}{extra}{aim}"


@dataclass(frozen=True, repr=False)
class Pending(_Compact):
    """An offer or choice that must be answered before anything else happens."""

    kind: str  # cast-free | target
    player: int
    object: str  # the card that may be cast, or the source of the trigger
    source: str  # the ability that made the offer (cascade, isochron-scepter, snapcaster-mage)
    revealed: tuple[str, ...] = ()  # cascade: the other exiled cards, bottom of library after


@dataclass(frozen=True)
class Game(State):
    objects: tuple[Obj, ...]
    stack: tuple[Entry, ...] = ()
    life: tuple[int, int] = (20, 20)
    pools: tuple[Pool, Pool] = (Pool(), Pool())
    priority: int = 0
    passes: int = 0
    lands_played: int = 0
    pending: Pending | None = None
    active: int = 0
    ended: bool = False  # both players passed with an empty stack: the main phase is over

    # --- the shape of base.State --------------------------------------------------------

    @property
    def current_player(self) -> int:
        if min(self.life) <= 0 or self.ended:
            return TERMINAL
        return self.pending.player if self.pending else self.priority

    @property
    def outcome(self) -> int | None:
        """The winner once a player is at 0 life or less (704.5a), else None (the phase
        simply ended)."""
        losers = [p for p, life in enumerate(self.life) if life <= 0]
        return (1 - losers[0]) if len(losers) == 1 else None

    def legal_actions(self) -> Sequence[object]:
        # The rules live in sibling modules that import this one, hence the late imports.
        from .casting_moves import legal_actions

        return legal_actions(self)

    def apply(self, action: object) -> Step[Game]:
        from .casting_moves import apply

        game, trace = apply(self, action)
        return Step(game, tuple(trace))

    # --- reading -------------------------------------------------------------------------

    def obj(self, object_id: str, rule: str = "601.2") -> Obj:
        for o in self.objects:
            if o.id == object_id:
                return o
        raise IllegalAction(rule, f"there is no object {object_id!r}; ids are {', '.join(o.id for o in self.objects)}")

    def has(self, object_id: str) -> bool:
        return any(o.id == object_id for o in self.objects)

    def zone(self, player: int, zone: str) -> list[Obj]:
        """A player's objects in a zone: owned, or controlled on the battlefield and the stack."""
        whose = (lambda o: o.controller) if zone in ("battlefield", "stack") else (lambda o: o.owner)
        return [o for o in self.objects if whose(o) == player and o.zone == zone]

    def battlefield(self) -> list[Obj]:
        return [o for o in self.objects if o.zone == "battlefield"]

    def entry(self, object_id: str) -> Entry | None:
        return next((e for e in self.stack if e.id == object_id), None)

    def mana_value(self, object_id: str) -> int:
        """202.3: from the printed cost; X is its announced value on the stack, else 0.
        Cost increases and reductions never enter into it."""
        obj = self.obj(object_id)
        entry = self.entry(object_id) if obj.zone == "stack" else None
        return obj.card.mana_value(entry.x if entry else 0)

    def total_cost(self, action: Cast) -> Derivation:
        """The 601.2f derivation the proposed cast would lock in, without casting: a cast
        by the player to act, who answers a pending offer even without priority."""
        from .casting_steps import propose

        if self.is_over:
            raise IllegalAction("601.2", f"the game is over; {action!r} can't be proposed")
        return propose(self, action, self.current_player)[2]

    # --- changing (always a new state) ------------------------------------------------------

    def set(self, object_id: str, **changes: object) -> Game:
        """The state with one object changed in place, e.g. ``set('mage', chosen='Terror')``."""
        self.obj(object_id)
        return replace(self, objects=tuple(replace(o, **changes) if o.id == object_id else o for o in self.objects))

    def move(self, object_id: str, zone: str, **changes: object) -> Game:
        """Move an object to the end of a zone (the top of the stack, the bottom of a library)."""
        obj = self.obj(object_id)
        # 400.7: a card that changes zones is a new object, without the flashback it was given.
        changes = {"flashback": False, "entered": zone == "battlefield" and obj.zone != "battlefield", **changes}
        if zone != "battlefield":
            changes = {"tapped": False, "damage": 0, "counters": 0, **changes}
        moved = replace(obj, zone=zone, **changes)
        return replace(self, objects=tuple(o for o in self.objects if o.id != object_id) + (moved,))

    def remove(self, object_id: str) -> Game:
        return replace(self, objects=tuple(o for o in self.objects if o.id != object_id))

    def with_pool(self, player: int, pool: Pool) -> Game:
        pools = list(self.pools)
        pools[player] = pool
        return replace(self, pools=(pools[0], pools[1]))

    def with_life(self, player: int, life: int) -> Game:
        lives = list(self.life)
        lives[player] = life
        return replace(self, life=(lives[0], lives[1]))

    # --- picture -------------------------------------------------------------------------

    def __str__(self) -> str:
        lines = []
        for player in (0, 1):
            parts = [f"P{player} life {self.life[player]}"]
            if self.pools[player].total:
                parts.append(f"pool {self.pools[player]}")
            for zone in ZONES[:-1]:
                objs = self.zone(player, zone)
                if objs:
                    parts.append(f"{zone}: {', '.join(map(str, objs))}")
            lines.append(" | ".join(parts))
        if self.stack:
            lines.append("stack: " + ", ".join(str(e) for e in reversed(self.stack)))
        if self.pending:
            lines.append(f"pending: {self.pending.kind} {self.pending.object} (P{self.pending.player})")
        return "\n".join(lines)


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.split(",")[0].lower()).strip("-")


def setup(
    *,
    hand: Sequence[str] = (),
    battlefield: Sequence[str] = (),
    graveyard: Sequence[str] = (),
    library: Sequence[str] = (),
    exile: Sequence[str] = (),
    their_hand: Sequence[str] = (),
    their_battlefield: Sequence[str] = (),
    their_graveyard: Sequence[str] = (),
    their_library: Sequence[str] = (),
    their_exile: Sequence[str] = (),
    pool: str = "",
    life: tuple[int, int] = (20, 20),
) -> Game:
    """A main phase of player 0's turn. Each card is ``"Name"`` or ``"id=Name"``; ids default
    to the name before any comma, lower-case, with ``-2``, ``-3`` … for repeats. The first
    library card is the top one.

    >>> print(setup(hand=["Plains", "Plains"], their_battlefield=["Thalia, Guardian of Thraben"], pool="W"))
    P0 life 20 | pool {W} | hand: plains, plains-2
    P1 life 20 | battlefield: thalia
    """
    objects: list[Obj] = []
    used: set[str] = set(PLAYER_IDS)
    zones = [
        (0, "hand", hand), (0, "battlefield", battlefield), (0, "graveyard", graveyard),
        (0, "library", library), (0, "exile", exile), (1, "hand", their_hand),
        (1, "battlefield", their_battlefield), (1, "graveyard", their_graveyard),
        (1, "library", their_library), (1, "exile", their_exile),
    ]
    for owner, zone, names in zones:
        for entry in names:
            object_id, _, name = entry.rpartition("=")
            card(name)  # unknown names fail here, at the setup line
            object_id = object_id or _slug(name)
            if object_id in used:
                if "=" in entry:
                    raise RulebookError(f"object id {object_id!r} is used twice")
                n = 2
                while f"{object_id}-{n}" in used:
                    n += 1
                object_id = f"{object_id}-{n}"
            used.add(object_id)
            objects.append(Obj(object_id, name, owner, zone))
    return Game(tuple(objects), life=life, pools=(Pool.of(pool), Pool()))


def new_game(rng: random.Random, players: int = 2) -> Game:
    """A random main phase for ``rulebook play casting``: the caller's rng deals each player
    five basic lands and some spells; the engine itself never draws a random number."""
    from .casting_cards import cards

    if players != 2:
        raise RulebookError(f"the casting engine models two players, not {players!r}")
    spells = sorted(n for n, c in cards().items() if not c.is_land)
    creatures = sorted(n for n in spells if card(n).is_type("creature"))
    basics = ["Plains", "Island", "Swamp", "Mountain", "Forest"]
    return setup(
        hand=rng.sample(spells, 4),
        battlefield=[rng.choice(basics) for _ in range(5)] + rng.sample(creatures, 1),
        their_hand=rng.sample(spells, 3),
        their_battlefield=[rng.choice(basics) for _ in range(5)] + rng.sample(creatures, 2),
    )
