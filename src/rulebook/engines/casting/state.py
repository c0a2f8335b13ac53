"""The casting engine's table: objects in zones, the stack, life, mana pools, priority, offers.

:class:`Table` holds the data and the ways to read and change it (always into a new table);
the rules that act on it are in the modules above (targets, propose, pay, moves, resolve) and
the game's face, :class:`~.game.Game`, adds the engine shape on top. Nothing here imports them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from typing import Self

from ...errors import IllegalAction
from ...messages import Code, Message, Name, code, msg, msg_p
from ..base import Evaluable, evolve
from .cards import Card, card
from .mana import ManaCost, Pool

ZONES = ("library", "hand", "battlefield", "graveyard", "exile", "stack")
#: Each zone's name in a sentence the reader sees (its English text is the zone's id, so every
#: doctest reads the same); written out one by one so the extractor finds each.
ZONE_NAMES = {
    "library": msg_p("zone", "library"), "hand": msg_p("zone", "hand"),
    "battlefield": msg_p("zone", "battlefield"), "graveyard": msg_p("zone", "graveyard"),
    "exile": msg_p("zone", "exile"), "stack": msg_p("zone", "stack"),
}


def zone_name(zone: str) -> Message | str:
    """A zone's name for a message: translated on the page, ``zone`` itself in English."""
    return ZONE_NAMES.get(zone, zone)
#: The players as an action names them (a target): seats counted from 1, as every message counts them.
PLAYER_IDS = ("p1", "p2")
#: ``Pending.source`` of the offer cascade makes (702.85a): a keyword, not a card.
CASCADE = "Cascade"


def player_name(player: int) -> Message:
    """A player as the messages name one ("P1", the seat counted from 1): the English text is the id an action writes."""
    return msg_p("player", "p{player}", player=player + 1)


class Offer(str, Enum):  # noqa: UP042 - a StrEnum's str() is its value; this one's is Offer.X, as messages show it
    """What a pending offer waits for."""

    CAST_FREE = "cast-free"  # cast a card without paying its mana cost, or Decline
    TARGET = "target"  # choose the target of a triggered ability

    def __repr__(self) -> str:
        return repr(self.value)  # Pending('cast-free', …) reads back


class Phase(Enum):
    """What the game waits for: a player with priority, the answer to an offer, nothing more."""

    PRIORITY = msg("has priority")
    OFFER = msg("answers an offer")
    OVER = msg("game over")


@dataclass(frozen=True, repr=False)
class Obj(Evaluable):
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
    #: The card's definition; a packaged card is found by ``name`` when none is given.
    card: Card = field(default=None, repr=False, compare=False)  # type: ignore[assignment]  # None until __post_init__ looks the name up

    def __post_init__(self) -> None:
        if self.card is None:
            object.__setattr__(self, "card", card(self.name))

    @property
    def controller(self) -> int:
        return self.owner if self.controlled_by < 0 else self.controlled_by

    # 122.1a: each +1/+1 counter adds one to power and to toughness; a rule that reads them
    # (704.5g, lethal damage) reads these, never the printed ones. Mana value is the card's
    # (202.3): counters never change it, so the object has no mana value of its own.
    @property
    def power(self) -> int:
        return self.card.power + self.counters

    @property
    def toughness(self) -> int:
        return self.card.toughness + self.counters

    def __str__(self) -> str:
        return self.id + (" (T)" if self.tapped else "") + (f" +{self.counters}" if self.counters else "") + (
            f" dmg {self.damage}" if self.damage else ""
        )


@dataclass(frozen=True, repr=False)
class Entry(Evaluable):
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
class Pending(Evaluable):
    """An offer or choice that must be answered before anything else happens."""

    kind: Offer
    player: int
    object: str  # the card that may be cast, or the source of the trigger
    source: str  # the ability that made the offer (cascade, isochron-scepter, snapcaster-mage)
    revealed: tuple[str, ...] = ()  # cascade: the other exiled cards, bottom of library after

    def __post_init__(self) -> None:
        object.__setattr__(self, "kind", Offer(self.kind))

    def offers_free_cast_of(self, object_id: str) -> bool:
        return self.kind is Offer.CAST_FREE and self.object == object_id


@dataclass(frozen=True)
class Table:
    """The data of one moment of the game, and how to read and change it."""

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
    conceded: int = -1  # the player who conceded (104.3a), -1 while nobody has

    @property
    def phase(self) -> Phase:
        if min(self.life) <= 0 or self.ended or self.conceded >= 0:
            return Phase.OVER
        return Phase.OFFER if self.pending else Phase.PRIORITY

    # --- reading -------------------------------------------------------------------------

    def obj(self, object_id: str, rule: str = "601.2") -> Obj:
        for o in self.objects:
            if o.id == object_id:
                return o
        raise IllegalAction(rule, msg("there is no object {object_id}; ids are {join}", object_id=code(object_id), join=Code(", ".join(o.id for o in self.objects))))

    def named(self, object_id: str) -> Name | Message | Code:
        """An object as a sentence names it: its id in the English text (what doctests print),
        its card's printed name on a page in any language; a player as "P1" in every language."""
        return self._said(object_id, object_id)

    def quoted(self, object_id: str) -> Name | Message | Code:
        """An object a refusal quotes from the action: ``'white-knight'`` in the English text, as
        the action wrote it, and its card's printed name on a page."""
        return self._said(object_id, repr(object_id))

    def _said(self, object_id: str, english: str) -> Name | Message | Code:
        if object_id in PLAYER_IDS:
            return player_name(PLAYER_IDS.index(object_id))
        found = next((o for o in self.objects if o.id == object_id), None)
        return Name.of(found.card.names, english, found.card.unprinted) if found is not None else code(object_id)  # no such object: the id as typed

    def titled(self, object_id: str) -> Name:
        """A permanent a refusal introduces: its card's name and its id in the English text
        ("Meddling Mage (mago)"), its card's printed name on a page in any language."""
        found = self.obj(object_id)
        return Name.of(found.card.names, f"{found.card.name} ({object_id})", found.card.unprinted)

    def offer_source(self) -> Name | Message | str:
        """What made the pending offer, as a sentence names it: cascade, or the card whose
        ability made it (``Pending.source`` holds the card's English name or the object's id)."""
        assert self.pending is not None
        source = self.pending.source
        if source == CASCADE:
            return msg_p("keyword", "Cascade")
        by_card = next((o for o in self.objects if source in (o.id, o.card.name)), None)
        return Name.of(by_card.card.names, source, by_card.card.unprinted) if by_card is not None else source

    def has(self, object_id: str) -> bool:
        return any(o.id == object_id for o in self.objects)

    def zone(self, player: int, zone: str) -> list[Obj]:
        """A player's objects in a zone: owned, or controlled on the battlefield and the stack."""
        whose: Callable[[Obj], int] = (lambda o: o.controller) if zone in ("battlefield", "stack") else (lambda o: o.owner)
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

    # --- changing (always a new state) ------------------------------------------------------

    def set(self, object_id: str, **changes: object) -> Self:
        """The state with one object changed in place, e.g. ``set('mage', chosen='Terror')``."""
        self.obj(object_id)
        return evolve(self, objects=tuple(evolve(o, **changes) if o.id == object_id else o for o in self.objects))

    def move(self, object_id: str, zone: str, **changes: object) -> Self:
        """Move an object to the end of a zone (the top of the stack, the bottom of a library)."""
        obj = self.obj(object_id)
        # 400.7: a card that changes zones is a new object, without the flashback it was given.
        changes = {"flashback": False, "entered": zone == "battlefield" and obj.zone != "battlefield", **changes}
        if zone != "battlefield":
            changes = {"tapped": False, "damage": 0, "counters": 0, **changes}
        moved = evolve(obj, zone=zone, **changes)
        return evolve(self, objects=tuple(o for o in self.objects if o.id != object_id) + (moved,))

    def remove(self, object_id: str) -> Self:
        return evolve(self, objects=tuple(o for o in self.objects if o.id != object_id))

    def with_pool(self, player: int, pool: Pool) -> Self:
        pools = list(self.pools)
        pools[player] = pool
        return evolve(self, pools=(pools[0], pools[1]))

    def with_life(self, player: int, life: int) -> Self:
        lives = list(self.life)
        lives[player] = life
        return evolve(self, life=(lives[0], lives[1]))

    # --- picture -------------------------------------------------------------------------

    def __str__(self) -> str:
        lines = []
        for player in (0, 1):
            parts = [f"P{player + 1} life {self.life[player]}"]
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
            lines.append(f"pending: {self.pending.kind.value} {self.pending.object} (P{self.pending.player + 1})")
        if self.conceded >= 0:
            lines.append(f"P{self.conceded + 1} conceded")
        return "\n".join(lines)
