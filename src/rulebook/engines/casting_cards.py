"""The cards of the casting rulebook, read from ``data/cards.yaml`` into frozen values.

The file's top comment documents every field. This module only turns the data into typed
objects and refuses anything it does not know, so a typo in the data fails loudly.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any, Mapping

import yaml

from ..errors import RulebookError
from .mana import ManaCost

#: Every card of data/cards.yaml names itself in these languages (the engine's own data; the
#: i18n layer above no longer keeps a language list).
LANGUAGES = ("it", "en", "fr", "es", "pt", "ru")
_CARD_FIELDS = {
    "name", "cost", "type", "pt", "oracle", "names", "note", "keywords", "protection", "targets",
    "divide", "effect", "amount", "kicker", "alternative", "cost_modifiers", "abilities",
    "permission", "prohibits", "grants",
}
#: The non-mana cost parts the engine pays in 601.2h (casting_steps._other_parts).
COST_PARTS = ("exile-blue-card-from-hand", "sacrifice-land")
_PAY_LIFE = re.compile(r"pay-life-[1-9][0-9]*")


@dataclass(frozen=True)
class TargetWord:
    """One instance of the word "target": how many objects it takes and of what kind."""

    min: int
    max: int
    filter: str
    another: bool = False  # "another target": must differ from the earlier targets
    kicked: bool = False  # only there if the spell was kicked

    def __str__(self) -> str:
        count = str(self.max) if self.min == self.max else f"{self.min}+" if self.max >= 99 else f"{self.min}-{self.max}"
        return f"{count} x any target" if self.filter == "any" else f"{count} x target {self.filter}"


@dataclass(frozen=True)
class AlternativeCost:
    id: str
    mana: ManaCost
    parts: tuple[str, ...] = ()


@dataclass(frozen=True)
class CostModifier:
    """A static ability that changes the total cost of spells (601.2f).

    ``stage`` is where it applies: ``increase`` and ``target-tax`` with the additional costs,
    ``reduce`` after them, ``minimum`` ("costs at least N") last of all.
    """

    stage: str
    amount: str
    spells: str = "all"  # all | creature | noncreature | self | a subtype such as goblin
    whose: str = "any"  # any | yours: whose spells it changes
    untapped: bool = False  # only while its source is untapped (Trinisphere)


@dataclass(frozen=True)
class Ability:
    """An activated ability. Whether it is a mana ability is computed (605.1a), never stored."""

    id: str
    cost: ManaCost | None = None
    tap: bool = False
    sacrifice: str = ""  # "self" or "creature" (one you choose); empty when none
    adds: str = ""  # mana letters such as "W" or "CC", or "any"; empty when it adds no mana
    targets: tuple[TargetWord, ...] = ()
    effect: str = ""

    @property
    def is_mana_ability(self) -> bool:
        """605.1a: it could add mana, it has no target, and it is not a loyalty ability."""
        return bool(self.adds) and not self.targets


@dataclass(frozen=True)
class Card:
    name: str
    cost: ManaCost | None
    type: str
    names: Mapping[str, str]
    pt: str = ""
    keywords: tuple[str, ...] = ()
    protection: str = ""
    targets: tuple[TargetWord, ...] = ()
    divide: str = ""
    effect: str = ""
    amount: str = ""
    kicker: tuple[str, ...] = ()
    alternative: tuple[AlternativeCost, ...] = ()
    cost_modifiers: tuple[CostModifier, ...] = ()
    abilities: tuple[Ability, ...] = ()
    permission: str = ""
    prohibits: str = ""
    grants: str = ""
    note: str = ""

    def __repr__(self) -> str:
        return f"card({self.name!r})"

    def __str__(self) -> str:
        return f"{self.name} {self.cost or ''}".rstrip()

    def is_type(self, word: str) -> bool:
        return word.lower() in self.type.split("—")[0].lower().split()

    @property
    def is_land(self) -> bool:
        return self.is_type("land")

    @property
    def colours(self) -> frozenset[str]:
        return self.cost.colours if self.cost else frozenset()

    @property
    def toughness(self) -> int:
        return int(self.pt.split("/")[1]) if self.pt else 0

    def mana_value(self, x: int = 0) -> int:
        return self.cost.mana_value(x) if self.cost else 0


def _targets(raw: Any) -> tuple[TargetWord, ...]:
    return tuple(TargetWord(**word) for word in raw or ())


def is_cost_part(part: str) -> bool:
    return part in COST_PARTS or bool(_PAY_LIFE.fullmatch(part))


def _card(raw: Mapping[str, Any]) -> Card:
    unknown = set(raw) - _CARD_FIELDS
    if unknown:
        raise RulebookError(f"cards.yaml: card {raw.get('name')!r} has unknown fields {sorted(unknown)}")
    # A typo in a cost part would otherwise surface only when someone casts the card.
    parts = [*raw.get("kicker", ()), *(p for a in raw.get("alternative", ()) for p in a.get("parts", ()))]
    for part in parts:
        if not is_cost_part(part):
            raise RulebookError(
                f"cards.yaml: card {raw['name']!r} has an unknown cost part {part!r}; known: {', '.join(COST_PARTS)}, pay-life-N"
            )
    names = dict(raw["names"])
    if set(names) != set(LANGUAGES):
        raise RulebookError(f"cards.yaml: card {raw['name']!r} needs names in {LANGUAGES}, has {sorted(names)}")
    abilities = tuple(
        Ability(
            id=a["id"],
            cost=ManaCost(a["cost"]) if a.get("cost") else None,
            tap=a.get("tap", False),
            sacrifice=a.get("sacrifice", ""),
            adds=a.get("adds", ""),
            targets=_targets(a.get("targets")),
            effect=a.get("effect", ""),
        )
        for a in raw.get("abilities", ())
    )
    return Card(
        name=raw["name"],
        cost=ManaCost(raw["cost"]) if raw["cost"] else None,
        type=raw["type"],
        names=names,
        pt=raw.get("pt", ""),
        keywords=tuple(raw.get("keywords", ())),
        protection=raw.get("protection", ""),
        targets=_targets(raw.get("targets")),
        divide=raw.get("divide", ""),
        effect=raw.get("effect", ""),
        amount=str(raw.get("amount", "")),
        kicker=tuple(raw.get("kicker", ())),
        alternative=tuple(
            AlternativeCost(a["id"], ManaCost(a["mana"]), tuple(a.get("parts", ()))) for a in raw.get("alternative", ())
        ),
        cost_modifiers=tuple(CostModifier(**{k: v for k, v in m.items()}) for m in raw.get("cost_modifiers", ())),
        abilities=abilities,
        permission=raw.get("permission", ""),
        prohibits=raw.get("prohibits", ""),
        grants=raw.get("grants", ""),
        note=raw.get("note", ""),
    )


@lru_cache(maxsize=1)
def cards() -> Mapping[str, Card]:
    """Every card of the data file by English name."""
    text = resources.files(__package__).joinpath("data/cards.yaml").read_text(encoding="utf-8")
    return {raw["name"]: _card(raw) for raw in yaml.safe_load(text)["cards"]}


def card(name: str) -> Card:
    """One card by its English name.

    >>> card('Thalia, Guardian of Thraben').names['it']
    'Thalia, Protettrice di Thraben'
    >>> card('Fireball').cost.mana_value()
    1
    """
    try:
        return cards()[name]
    except KeyError:
        raise RulebookError(f"no card {name!r} in cards.yaml") from None
