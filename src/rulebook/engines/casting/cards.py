"""The cards of the casting engine: frozen values read from card files through the strict loader.

The packaged ``data/cards.yaml`` (its top comment documents every field) holds the cards the
casting rulebook names. A book adds its own files with ``engine_data`` and an example defines a
card inline with :func:`define`; all three go through one reader, :class:`_CardReader`, which
works on the strict loader's nodes, so a mistake in a card file is reported as
``FILE:LINE:COL: what to do`` (duplicate keys refused, as in a rulebook) and a mistake in an
inline card names the card and the field.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from ...errors import IllegalAction, LoadError, Problem, RulebookError
from ...limits import read_limited
from ...loader import NodeReader, display_path
from ...messages import Message, code, msg, msg_n, msg_p
from ...yamlnodes import Mapping as YMapping
from ...yamlnodes import Scalar, YNode, decode, parse
from ...yamlnodes import Sequence as YSequence
from ..base import PrintedName
from .mana import ManaCost

#: The non-mana cost parts the engine pays in 601.2h (``pay._other_parts``).
COST_PARTS = ("exile-blue-card-from-hand", "sacrifice-land")
_PAY_LIFE = re.compile(r"pay-life-[1-9][0-9]*")
#: Where a cost modifier applies in 601.2f, in the order of the rule (``costs.modify``).
STAGES = ("increase", "target-tax", "reduce", "minimum")
#: What a spell can do on resolution (``resolve.EFFECTS`` has one function for each but "none").
SPELL_EFFECTS = ("damage", "destroy", "exile", "bounce", "tap", "counters", "counter", "search-creature",
                 "add-mana", "draw", "none")
#: What a non-mana activated ability can do on resolution (``resolve.ABILITY_EFFECTS``).
ABILITY_EFFECTS = ("exile", "untap", "cast-copy")
#: Casting prohibitions (``propose``): Meddling Mage as printed in 2001 (the named *card*), as its
#: Oracle text reads now (*spells* with the chosen name, copies too), Void Winnower (opponents'
#: spells with an even mana value, checked in 601.2e once X is chosen).
PROHIBITIONS = ("named-card", "named-spell", "even-mana-value-for-opponents")
_LANGUAGE_RE = re.compile(r"[a-z]{2,3}(_[A-Za-z]{2,4})?")
#: A set code as Wizards prints it (M10, 10E, ARB, 2XM); a name's ``sources`` value is one of
#: these or NOT_PRINTED, when no printing in that language exists and the English name stays.
_SET_CODE_RE = re.compile(r"[0-9A-Z]{2,6}")
NOT_PRINTED = "not printed"
PACKAGED = "data/cards.yaml"


@dataclass(frozen=True)
class TargetWord:
    """One instance of the word "target": how many objects it takes and of what kind."""

    min: int
    max: int
    filter: str
    another: bool = False  # "another target": must differ from the earlier targets
    kicked: bool = False  # only there if the spell was kicked

    def __str__(self) -> str:
        return str(self.said())

    def said(self) -> Message:
        """The word in a message ("target creature (up to 3)"), its filter and how many in the reader's language."""
        if self.filter == "any":
            return msg("any target ({count})", count=self.how_many())
        return msg("target {filter} ({count})", count=self.how_many(), filter=filter_words(self.filter))

    def how_many(self) -> Message | int:
        """How many targets the word takes, in words: a number, "up to 3", "1 or more", "1 to 3"."""
        if self.min == self.max:
            return self.min
        if self.max >= 99:
            return msg_p("target count", "{min} or more", min=self.min)
        if self.min == 0:
            return msg_p("target count", "up to {max}", max=self.max)
        return msg_p("target count", "{min} to {max}", min=self.min, max=self.max)


#: The target filters of the card files in a sentence (the filter itself is the English text).
#: Written out one by one so the extractor finds each; a filter a card file adds is shown in
#: English until it is listed here (tests/test_engine_speech.py finds it in a book's examples).
FILTER_WORDS = {
    "creature": msg_p("target filter", "creature"),
    "player": msg_p("target filter", "player"),
    "spell": msg_p("target filter", "spell"),
    "Forest": msg_p("target filter", "Forest"),
    "nonland permanent": msg_p("target filter", "nonland permanent"),
    "nonartifact nonblack creature": msg_p("target filter", "nonartifact nonblack creature"),
    "creature you control": msg_p("target filter", "creature you control"),
    "land card in a graveyard": msg_p("target filter", "land card in a graveyard"),
    "instant or sorcery card in your graveyard": msg_p("target filter", "instant or sorcery card in your graveyard"),
}


def filter_words(target_filter: str) -> Message | str:
    """A target filter ("nonland permanent") in the reader's language."""
    return FILTER_WORDS.get(target_filter, target_filter)


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
    sources: Mapping[str, str] = field(default_factory=dict)  # language -> set code or NOT_PRINTED
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
    origin: str = ""  # "FILE:LINE" of its definition, or "" for a card defined inline

    def __repr__(self) -> str:
        return f"card({self.name!r})"

    @property
    def unprinted(self) -> tuple[str, ...]:
        """The languages its ``sources`` say it was never printed in (shown there by its English name)."""
        return tuple(language for language, source in self.sources.items() if source == NOT_PRINTED)

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
    def power(self) -> int:
        """The printed power; a permanent's current power is :attr:`.state.Obj.power`."""
        return int(self.pt.split("/")[0]) if self.pt else 0

    @property
    def toughness(self) -> int:
        """The printed toughness; a permanent's current toughness is :attr:`.state.Obj.toughness`."""
        return int(self.pt.split("/")[1]) if self.pt else 0

    def mana_value(self, x: int = 0) -> int:
        return self.cost.mana_value(x) if self.cost else 0


def is_cost_part(part: str) -> bool:
    return part in COST_PARTS or bool(_PAY_LIFE.fullmatch(part))


def cost_part_words(part: str) -> Message:
    """A non-mana part of a cost (``pay-life-2``) as a message: "pay 2 life"."""
    if _PAY_LIFE.fullmatch(part):
        life = int(part.rsplit("-", 1)[1])
        return msg_n("pay {life} life", "pay {life} life", life, life=life)
    return _COST_PART_WORDS[part]


_COST_PART_WORDS = {"exile-blue-card-from-hand": msg("exile a blue card from your hand"), "sacrifice-land": msg("sacrifice a land")}


# --- one reader for every card definition ----------------------------------------------------

_TEXT = ("oracle", "note", "pt", "protection", "divide", "effect", "amount", "permission", "prohibits", "grants")
_REQUIRED = {"name", "cost", "type", "names"}
_CARD_FIELDS = {"name", "cost", "type", "names", "sources", "keywords", "targets", "kicker", "alternative", "cost_modifiers", "abilities", *_TEXT}
_TARGET_FIELDS = {"min": int, "max": int, "filter": str, "another": bool, "kicked": bool}
_MODIFIER_FIELDS = {"stage": str, "amount": str, "spells": str, "whose": str, "untapped": bool}
_ABILITY_FIELDS = {"id": str, "cost": str, "tap": bool, "sacrifice": str, "adds": str, "targets": list, "effect": str}


class _CardReader(NodeReader):
    """Card definitions out of strict-loader nodes; every problem kept with its position.

    The field, string and list helpers are the rulebook loader's own (``NodeReader``)."""

    def __init__(self, path: str):
        super().__init__(path, "")

    def text(self, node: YNode | None, what: str) -> str:
        return self.string(node, what)

    def number(self, node: YNode, what: str) -> int:
        value = self.text(node, what)
        if not value.isdigit():
            self.fail(node, f"{what} must be a whole number, not {value!r}")
            return 0
        return int(value)

    def flag(self, node: YNode, what: str) -> bool:
        value = self.text(node, what)
        if value not in ("true", "false"):
            self.fail(node, f"{what} must be true or false, not {value!r}")
        return value == "true"

    def words(self, node: YNode | None, what: str) -> tuple[str, ...]:
        return tuple(self.text(item, what) for item in self.items(node, what))

    def cost(self, node: YNode | None, what: str) -> ManaCost | None:
        value = self.text(node, what)
        if not value:
            return None
        try:
            return ManaCost(value)
        except (ValueError, RulebookError) as exc:
            assert node is not None
            self.fail(node, f"{what}: {exc}")
            return None

    def typed(self, node: YNode, what: str, schema: Mapping[str, type]) -> dict[str, Any]:
        readers: dict[type, Callable[[YNode, str], Any]] = {int: self.number, bool: self.flag, str: self.text}
        required = {n for n in schema if n in ("min", "max", "filter", "stage", "amount", "id")}
        found = self.fields(node, what, required, set(schema) - required)
        return {name: readers[schema[name]](value, f"{name} of {what}") for name, value in found.items() if schema[name] in readers}

    def target_words(self, node: YNode | None, what: str) -> tuple[TargetWord, ...]:
        words = []
        for item in self.items(node, f"targets of {what}"):
            read = self.typed(item, f"a target word of {what}", _TARGET_FIELDS)
            if {"min", "max", "filter"} <= read.keys():
                if read["min"] > read["max"]:
                    self.fail(item, f"a target word of {what} takes at least {read['min']} but at most {read['max']}")
                words.append(TargetWord(**read))
        return tuple(words)

    def card(self, node: YNode) -> Card | None:
        found = self.fields(node, "a card", _REQUIRED, _CARD_FIELDS - _REQUIRED)
        if not {"name", "type", "names"} <= found.keys():
            return None
        name = self.text(found["name"], "card name")
        what = f"card {name!r}"
        alternatives = self.alternatives(found.get("alternative"), what)
        parts = [*self.words(found.get("kicker"), f"kicker of {what}"), *(p for a in alternatives for p in a.parts)]
        for part, item in zip(parts, self._part_nodes(found)):
            if not is_cost_part(part):
                self.fail(item, f"{what} has an unknown cost part {part!r}; known: {', '.join(COST_PARTS)}, pay-life-N")
        for field_name, known in (("effect", SPELL_EFFECTS), ("prohibits", PROHIBITIONS)):
            value = found.get(field_name)
            if isinstance(value, Scalar) and value.value and value.value not in known:
                self.fail(value, f"{what} has an unknown {field_name} {value.value!r}; known: {', '.join(known)}")
        return Card(
            name=name,
            cost=self.cost(found.get("cost"), f"cost of {what}"),
            type=self.text(found["type"], f"type of {what}"),
            names=(names := self.names(found["names"], what)),
            sources=self.sources(found.get("sources"), names, what),
            keywords=self.words(found.get("keywords"), f"keywords of {what}"),
            targets=self.target_words(found.get("targets"), what),
            kicker=self.words(found.get("kicker"), f"kicker of {what}"),
            alternative=alternatives,
            cost_modifiers=self.modifiers(found.get("cost_modifiers"), what),
            abilities=self.abilities(found.get("abilities"), what),
            origin=f"{self.path}:{node.line}" if node.line else "",
            **{field: self.text(found.get(field), f"{field} of {what}") for field in _TEXT if field != "oracle"},
        )

    def alternatives(self, node: YNode | None, what: str) -> tuple[AlternativeCost, ...]:
        found = []
        for item in self.items(node, f"alternative costs of {what}"):
            alt = self.fields(item, f"an alternative cost of {what}", {"id", "mana"}, {"parts"})
            mana = self.cost(alt.get("mana"), f"mana of an alternative cost of {what}")
            if "id" in alt and mana is not None:
                parts = self.words(alt.get("parts"), f"parts of an alternative cost of {what}")
                found.append(AlternativeCost(self.text(alt["id"], "id"), mana, parts))
        return tuple(found)

    def modifiers(self, node: YNode | None, what: str) -> tuple[CostModifier, ...]:
        found = []
        for item in self.items(node, f"cost_modifiers of {what}"):
            read = self.typed(item, f"a cost modifier of {what}", _MODIFIER_FIELDS)
            if read.get("stage", STAGES[0]) not in STAGES:
                self.fail(item, f"unknown cost stage {read['stage']!r} of {what}; known: {', '.join(STAGES)}")
            elif {"stage", "amount"} <= read.keys():
                found.append(CostModifier(**read))
        return tuple(found)

    def abilities(self, node: YNode | None, what: str) -> tuple[Ability, ...]:
        found = []
        for item in self.items(node, f"abilities of {what}"):
            read = self.fields(item, f"an ability of {what}", {"id"}, set(_ABILITY_FIELDS) - {"id"})
            effect = read.get("effect")
            if isinstance(effect, Scalar) and effect.value not in ABILITY_EFFECTS:
                self.fail(effect, f"an ability of {what} has an unknown effect {effect.value!r}; known: {', '.join(ABILITY_EFFECTS)}")
            if "id" in read:
                found.append(Ability(
                    id=self.text(read["id"], "ability id"),
                    cost=self.cost(read.get("cost"), f"cost of an ability of {what}"),
                    tap=self.flag(read["tap"], "tap") if "tap" in read else False,
                    sacrifice=self.text(read.get("sacrifice"), "sacrifice"),
                    adds=self.text(read.get("adds"), "adds"),
                    targets=self.target_words(read.get("targets"), f"an ability of {what}"),
                    effect=self.text(read.get("effect"), "effect"),
                ))
        return tuple(found)

    def _part_nodes(self, found: dict[str, YNode]) -> Iterator[YNode]:
        # The nodes of the cost parts, in the order card() lists them: kicker, then each alternative's.
        yield from self.items(found.get("kicker"), "kicker")
        for item in self.items(found.get("alternative"), "alternative"):
            if isinstance(item, YMapping) and "parts" in item.items:
                yield from self.items(item.items["parts"][1], "parts")

    def names(self, node: YNode, what: str) -> dict[str, str]:
        found: dict[str, str] = {}
        if not isinstance(node, YMapping) or not node.items:
            self.fail(node, f"names of {what} must map language codes to the card's printed name, e.g. {{en: ..., it: ...}}")
            return found
        for language, (key, value) in node.items.items():
            if not _LANGUAGE_RE.fullmatch(language):
                self.fail(key, f"{language!r} in names of {what} is not a language code such as 'it' or 'pt_BR'")
            found[language] = self.text(value, f"the {language} name of {what}")
        return found

    def sources(self, node: YNode | None, names: Mapping[str, str], what: str) -> dict[str, str]:
        """Where each name was read: a set code, or NOT_PRINTED (then the name is the English one)."""
        found: dict[str, str] = {}
        if node is None:
            return found
        if not isinstance(node, YMapping):
            self.fail(node, f"sources of {what} must map each language of its names to a set code (M10) or '{NOT_PRINTED}'")
            return found
        for language, (key, value) in node.items.items():
            source = self.text(value, f"the {language} source of {what}")
            if not isinstance(value, Scalar):
                continue  # already reported: not a string
            if language not in names:
                self.fail(key, f"{language!r} in sources of {what} has no name; sources name the printing of each name in names")
            elif source == NOT_PRINTED and names[language] != names.get("en"):
                self.fail(value, f"the {language} name of {what} is {names[language]!r}, but its source says '{NOT_PRINTED}'; "
                          "give the set it was printed in, or keep the English name")
            elif source != NOT_PRINTED and not _SET_CODE_RE.fullmatch(source):
                self.fail(value, f"the {language} source of {what} is {source!r}: write the set code of the printing (M10, ARB …) or '{NOT_PRINTED}'")
            found[language] = source
        return found

    def card_file(self, root: YNode) -> list[Card]:
        top = self.fields(root, "a card file", {"cards"}, set())
        found = [c for item in self.items(top.get("cards"), "'cards'") if (c := self.card(item)) is not None]
        seen: dict[str, int] = {}
        for item, c in zip(self.items(top.get("cards"), "'cards'"), found):
            if c.name in seen:
                self.fail(item, f"card {c.name!r} is defined twice (first at line {seen[c.name]}); keep one")
            seen.setdefault(c.name, item.line)
        return found


def read_card_file(path: str | Path, data: bytes | None = None) -> list[Card]:
    """Every card of one card file (``data``: its bytes, when read already); a LoadError lists
    every problem as FILE:LINE:COL."""
    shown = display_path(path)
    data = read_limited(path, shown) if data is None else data
    reader = _CardReader(shown)
    found = reader.card_file(parse(decode(data, shown), shown))
    if reader.problems:
        raise LoadError(sorted(reader.problems, key=lambda p: (p.line, p.column)))
    return found


def packaged_path() -> Path:
    """The card file that comes with the engine (the cards the casting rulebook names)."""
    return Path(str(resources.files(__package__).joinpath(PACKAGED)))


# --- inline cards ----------------------------------------------------------------------------

def _node(value: object) -> YNode:
    """A Python value as the strict loader's nodes, so an inline card meets the file reader."""
    if isinstance(value, Mapping):
        return YMapping({str(k): (Scalar(str(k), 0, 0), _node(v)) for k, v in value.items()})
    if isinstance(value, (list, tuple)):
        return YSequence([_node(v) for v in value], 0, 0)
    if isinstance(value, bool):
        return Scalar("true" if value else "false", 0, 0)
    return Scalar("" if value is None else str(value), 0, 0)


def define(name: str, cost: str, type: str, names: Mapping[str, str], **fields: object) -> Card:  # noqa: A002 - `type` is the card file's field, and a keyword callers use
    """A card defined where it is used, with the fields of a card file (``data/cards.yaml``).

    >>> thorn = define("Thorn of Amethyst", "{2}", "Artifact", {"en": "Thorn of Amethyst", "it": "Spina d'Ametista"},
    ...                cost_modifiers=[{"stage": "increase", "amount": "{1}", "spells": "noncreature"}])
    >>> thorn.cost_modifiers[0].spells, thorn.names["it"]
    ('noncreature', "Spina d'Ametista")
    >>> define("Goat", "{Q}", "Creature", {"en": "Goat"})
    Traceback (most recent call last):
    ...
    rulebook.errors.RulebookError: inline card 'Goat': cost of card 'Goat': unknown mana symbol {Q}
    """
    reader = _CardReader("(inline)")
    made = reader.card(_node({"name": name, "cost": cost, "type": type, "names": names, **fields}))
    if reader.problems or made is None:
        raise RulebookError(f"inline card {name!r}: " + "; ".join(p.message for p in reader.problems))
    return made


# --- the cards a game knows ------------------------------------------------------------------

class Catalogue:
    """The cards one game may use, by English name: the packaged ones, a book's files, inline ones."""

    def __init__(self, cards: Iterable[Card] = ()):
        self.cards: dict[str, Card] = {}
        for c in cards:
            self.cards[c.name] = c

    def with_cards(self, extra: Iterable[Card]) -> Catalogue:
        """This catalogue and ``extra`` (a card of the same name replaces the known one)."""
        return Catalogue([*self.cards.values(), *extra])

    def __getitem__(self, name: str) -> Card:
        try:
            return self.cards[name]
        except KeyError:
            raise IllegalAction("601.2", msg("no card {name} in the card files; name a known card or define it with define(...)", name=code(name))) from None

    def __contains__(self, name: object) -> bool:
        return name in self.cards

    def __iter__(self) -> Iterator[str]:
        return iter(self.cards)

    def items(self) -> Iterable[tuple[str, Card]]:
        return self.cards.items()


@lru_cache(maxsize=1)  # pure: cache.py
def packaged() -> Catalogue:
    return Catalogue(read_card_file(packaged_path()))


def cards() -> Mapping[str, Card]:
    """Every packaged card by English name."""
    return packaged().cards


def card(name: str) -> Card:
    """One packaged card by its English name.

    >>> card('Thalia, Guardian of Thraben').names['it']
    'Thalia, Protettrice di Thraben'
    >>> card('Fireball').cost.mana_value()
    1
    """
    return packaged()[name]


def for_files(paths: Sequence[Path]) -> Catalogue:
    """The packaged cards and those of ``paths`` (a book's ``engine_data``)."""
    return packaged().with_cards(c for path in paths for c in read_card_file(path))


def names_in(path: str | Path, data: bytes | None = None) -> tuple[tuple[PrintedName, ...], tuple[Problem, ...]]:
    """The printed names of a card file's cards (``data``: its bytes, when read already), or the
    problems that keep them out at FILE:LINE: what a glossary binds when a tool or a test names
    its own card file (``load_glossary(locales, lambda: names_in(path), …)``); the engine's own
    are :func:`rulebook.engines.casting.names`."""
    try:
        return tuple(PrintedName.of(c.names, c.origin) for c in read_card_file(path, data)), ()
    except LoadError as exc:
        return (), tuple(exc.problems)
