"""The cards of the optional magic rules: a poker deck without 8, 9 and 10, and two Jokers.

Aces, Jacks, Queens, Kings and the two Jokers cast spells; the number cards 2 to 7 oppose
spells, insist on them, and break an Immunity. Suited cards are the shared
:class:`~rulebook.engines.playing_cards.Card`; the Joker, which that deck lacks, is :class:`Joker`.

>>> magic_cards("A♠ 7♥ JK 4c")
(Card('A', 'spades'), Card('7', 'hearts'), Joker(), Card('4', 'clubs'))
>>> len(magic_deck())
42
>>> superior("hearts", "diamonds"), superior("spades", "clubs")
(True, False)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import ClassVar, TypeGuard

from ...errors import IllegalAction, RulebookError
from ...messages import Message, Notation, msg, msg_n, msg_p, notation
from ..base import Evaluable
from ..playing_cards import SUIT_SIGNS, Card, card, excess, show
from .board import CLANS

RANKS = ("A", "2", "3", "4", "5", "6", "7", "J", "Q", "K")  # 8, 9 and 10 leave the deck
NUMBERS = ("2", "3", "4", "5", "6", "7")
#: Highest first: hearts over diamonds over clubs over spades ("Come Quando Fuori Piove").
SUIT_ORDER = ("hearts", "diamonds", "clubs", "spades")
HAND, DRAW = 4, 2  # cards dealt before the game, drawn each turn
BEAT = 10  # an opposition (and an attack on an Immunity) must total more than this
PLAY_MENU = 4  # legal_actions lists number plays of up to this many cards (apply takes any)


@dataclass(frozen=True, repr=False)
class Joker(Evaluable):

    def __str__(self) -> str:
        return "JK"


MagicCard = Card | Joker

# Translators: the Joker of La Strage's magic deck, as the book names it (it has no rank and suit to write).
JOKER = msg_p("card", "Joker")


def said(c: MagicCard) -> Notation | Message:
    """A card as a sentence shows it in every language: rank and suit (``7♥``), or the Joker by its name."""
    return JOKER if isinstance(c, Joker) else notation(c)


def said_cards(cards: Sequence[MagicCard]) -> tuple[Notation | Message, ...] | Message:
    """Cards as a list a sentence shows (the site joins it), or "no card" for none."""
    return tuple(said(c) for c in cards) or msg("no card")


def magic_cards(text: str) -> tuple[MagicCard, ...]:
    """Cards from short names (``A♠``, ``7h``, ``JK`` for a Joker), in the order written."""
    found: list[MagicCard] = []
    for word in text.replace(",", " ").split():
        c = Joker() if word.upper() in ("JK", "JOKER") else card(word)
        if isinstance(c, Card) and c.rank not in RANKS:
            raise RulebookError(f"{word!r}: the 8s, 9s and 10s are taken out of the magic deck")
        found.append(c)
    return tuple(found)


def magic_deck() -> tuple[MagicCard, ...]:
    """The 42 cards: A, 2..7, J, Q, K of each suit and two Jokers, unshuffled."""
    return tuple(Card(rank, suit) for suit in SUIT_ORDER for rank in RANKS) + (Joker(), Joker())


def superior(suit: str, other: str) -> bool:
    return SUIT_ORDER.index(suit) < SUIT_ORDER.index(other)


def is_number(c: MagicCard) -> TypeGuard[Card]:
    return isinstance(c, Card) and c.rank in NUMBERS


def total(cards: Sequence[MagicCard]) -> int:
    return sum(int(c.rank) for c in cards if isinstance(c, Card) and c.rank in NUMBERS)


def suits(cards: Sequence[MagicCard]) -> set[str]:
    return {c.suit for c in cards if isinstance(c, Card)}


def _key(c: MagicCard) -> tuple[int, int]:
    return (4, 0) if isinstance(c, Joker) else (SUIT_ORDER.index(c.suit), RANKS.index(c.rank))


def _sorted(cards: Iterable[MagicCard]) -> tuple[MagicCard, ...]:
    return tuple(sorted(cards, key=_key))


# --- actions ---------------------------------------------------------------------------------

def _one(value: MagicCard | str) -> MagicCard:  # a card or its short name
    if isinstance(value, (Card, Joker)):
        return value
    found = magic_cards(value)
    if len(found) != 1:
        raise RulebookError(f"{value!r} is not one card")
    return found[0]


def _many(value: str | Iterable[MagicCard | str]) -> tuple[MagicCard, ...]:  # cards or their short names
    return magic_cards(value) if isinstance(value, str) else tuple(_one(c) for c in value)


class _Spoken(Evaluable):
    """Cards given and shown by their short names: ``Oppose('7♥ 5♣')`` is its own repr.

    ``_cards`` names the card fields: "one" card or "many".
    """

    _cards: ClassVar[dict[str, str]] = {}

    def __post_init__(self) -> None:
        for name, kind in self._cards.items():
            object.__setattr__(self, name, _one(getattr(self, name)) if kind == "one" else _many(getattr(self, name)))

    def _shown(self, name: str, value: object) -> object:
        if name in self._cards:
            return str(value) if self._cards[name] == "one" else show(value)  # type: ignore[arg-type]  # a card field: cards, made so in __post_init__
        return value


@dataclass(frozen=True, repr=False)
class Lightning(_Spoken):
    """Ace: eliminate the orc or half-elf on ``target``; a rival may oppose it for a half-elf of theirs."""

    card: Card
    target: str
    _cards: ClassVar[dict[str, str]] = {"card": "one"}

    @property
    def told(self) -> Message:
        # Translators: a spell as a refusal names it, before a colon and the reason; {spell} is
        # the spell's name ("Magic Lightning"), {card} the card it is cast with.
        return msg("casting {spell} with {card} on {target}", spell=SPELL_NAME[Lightning], card=said(self.card), target=notation(self.target))


@dataclass(frozen=True, repr=False)
class Immunity(_Spoken):
    """Jack: rival half-elves and Lightnings cannot attack your half-elves until it is broken."""

    card: Card
    _cards: ClassVar[dict[str, str]] = {"card": "one"}

    @property
    def told(self) -> Message:
        return msg("casting {spell} with {card}", spell=SPELL_NAME[Immunity], card=said(self.card))


@dataclass(frozen=True, repr=False)
class Metamorphosis(_Spoken):
    """Queen: the sprite on ``square`` becomes an orc that kills the rival half-elf escorting it.

    ``orc`` is the square of the orc to move there, needed only when no orc is off the map.
    """

    card: Card
    square: str
    orc: str | None = None
    _cards: ClassVar[dict[str, str]] = {"card": "one"}

    @property
    def told(self) -> Message:
        if self.orc is None:
            return msg("casting {spell} with {card} on {square}", spell=SPELL_NAME[Metamorphosis], card=said(self.card), square=notation(self.square))
        return msg("casting {spell} with {card} on {square}, with the orc from {orc}", spell=SPELL_NAME[Metamorphosis], card=said(self.card),
                   square=notation(self.square), orc=notation(self.orc))


@dataclass(frozen=True, repr=False)
class Curse(_Spoken):
    """King: take one to three orcs off the map."""

    card: Card
    orcs: tuple[str, ...]
    _cards: ClassVar[dict[str, str]] = {"card": "one"}

    @property
    def told(self) -> Message:
        return msg_n("casting {spell} with {card} on the orc on {squares}", "casting {spell} with {card} on the orcs on {squares}", len(self.orcs),
                     spell=SPELL_NAME[Curse], card=said(self.card), squares=tuple(notation(s) for s in self.orcs))


@dataclass(frozen=True, repr=False)
class Upheaval(_Spoken):
    """Joker: hands are shown; take ``take`` (player, card) and make all discard ``suit``."""

    card: Joker
    take: tuple[int, MagicCard] | None = None
    suit: str | None = None
    _cards: ClassVar[dict[str, str]] = {"card": "one"}

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.take is not None:
            object.__setattr__(self, "take", (self.take[0], _one(self.take[1])))

    def _shown(self, name: str, value: object) -> object:
        if name == "take" and value is not None:
            return (value[0], str(value[1]))  # type: ignore[index]  # take: (player, card), made so in __post_init__
        return super()._shown(name, value)

    @property
    def told(self) -> Message:
        return msg("casting {spell} with {card}", spell=SPELL_NAME[Upheaval], card=said(self.card))


@dataclass(frozen=True, repr=False)
class Caprice(_Spoken):
    """Joker: move an unescorted sprite one or two squares; on the exit row it is yours."""

    card: Joker
    start: str
    end: str
    _cards: ClassVar[dict[str, str]] = {"card": "one"}

    @property
    def told(self) -> Message:
        return msg("casting {spell} with {card}: the sprite from {start} to {end}", spell=SPELL_NAME[Caprice], card=said(self.card),
                   start=notation(self.start), end=notation(self.end))


@dataclass(frozen=True, repr=False)
class Breach(_Spoken):
    """Lay number cards beside ``owner``'s Immunity to break it."""

    owner: int
    cards: tuple[Card, ...]
    _cards: ClassVar[dict[str, str]] = {"cards": "many"}

    @property
    def told(self) -> Message:
        clan = CLANS[self.owner] if self.owner in range(len(CLANS)) else msg("nobody")
        # Translators: {clan} owns the Immunity ("laying 7♥, 5♣ on green's Immunity"); Russian asks for {clan:gen}.
        return msg("laying {cards} on the Immunity of {clan}", cards=said_cards(self.cards), clan=clan)


@dataclass(frozen=True, repr=False)
class Oppose(_Spoken):
    """The target of an opposable spell plays numbers, a Joker, or a higher Queen against it."""

    cards: tuple[MagicCard, ...]
    _cards: ClassVar[dict[str, str]] = {"cards": "many"}

    @property
    def told(self) -> Message:
        return msg("opposing with {cards}", cards=said_cards(self.cards))


@dataclass(frozen=True, repr=False)
class Accept(Evaluable):
    """The target lets the spell work."""

    @property
    def told(self) -> Message:
        return msg("letting the spell work")


@dataclass(frozen=True, repr=False)
class Insist(_Spoken):
    """The caster matches the opposition's total with numbers: the spell works."""

    cards: tuple[Card, ...]
    _cards: ClassVar[dict[str, str]] = {"cards": "many"}

    @property
    def told(self) -> Message:
        return msg("insisting with {cards}", cards=said_cards(self.cards))


@dataclass(frozen=True, repr=False)
class Yield(Evaluable):
    """The caster gives up: the opposed spell is cancelled."""

    @property
    def told(self) -> Message:
        return msg("giving up the spell")


@dataclass(frozen=True, repr=False)
class Shuffle(_Spoken):
    """Chance outcome: the discards, reshuffled into a new deck (top first)."""

    order: tuple[MagicCard, ...]
    _cards: ClassVar[dict[str, str]] = {"order": "many"}

    @property
    def told(self) -> Message:
        return msg_n("a shuffle of {count} card", "a shuffle of {count} cards", len(self.order), count=len(self.order))


SPELLS = (Lightning, Immunity, Metamorphosis, Curse, Upheaval, Caprice)
SPELL_RANK = {Lightning: "A", Immunity: "J", Metamorphosis: "Q", Curse: "K"}
SPELL_RULE = {Lightning: "fulmine", Immunity: "immunita", Metamorphosis: "metamorfosi", Curse: "maledizione",
              Upheaval: "rivolgimento", Caprice: "folletto-capriccioso"}
MAGIC_ACTIONS = (*SPELLS, Breach, Oppose, Accept, Insist, Yield, Shuffle)
# Translators: the spells by the names the book gives them (its section titles: "Ace: Magic Lightning"…).
SPELL_NAME = {Lightning: msg_p("spell", "Magic Lightning"), Immunity: msg_p("spell", "Immunity"),
              Metamorphosis: msg_p("spell", "Metamorphosis"), Curse: msg_p("spell", "Curse"),
              Upheaval: msg_p("spell", "Upheaval"), Caprice: msg_p("spell", "Capricious Sprite")}
#: The suits highest first, as a refusal shows the order: ``♥ > ♦ > ♣ > ♠``.
SUIT_RANKING = notation(" > ".join(SUIT_SIGNS[suit] for suit in SUIT_ORDER))


@dataclass(frozen=True)
class Pending:
    """An opposable spell waiting for its target's answer (and maybe the caster's)."""

    spell: Lightning | Metamorphosis
    caster: int
    victim: int
    opposition: int = 0  # the total of the numbers opposed to it, once opposed


@dataclass(frozen=True)
class Magic:
    deck: tuple[MagicCard, ...]  # top card first
    hands: tuple[tuple[MagicCard, ...], ...]
    discards: tuple[MagicCard, ...] = ()
    immunities: tuple[tuple[MagicCard, ...], ...] = ()  # per player: () or the Jack and the numbers laid on it
    cast: bool = False  # this turn's one spell has been cast
    pending: Pending | None = None
    drawing: int = 0  # cards still owed to the active player when a reshuffle interrupted

    @classmethod
    def setup(cls, hands: Sequence[str], deck: str = "", discards: str = "", immunities: Sequence[str] | None = None) -> Magic:
        """The cards of a position; those it does not name are elsewhere, and none may appear
        more often than the magic deck holds it:

        >>> Magic.setup(["A♠ JK", "JK"], discards="A♠ JK")
        Traceback (most recent call last):
        ...
        rulebook.errors.IllegalAction: [mazzo-magico] a position cannot hold A♠ 2 times (the pack holds 1), Joker 3 times (the pack holds 2)
        """
        magic = cls(deck=magic_cards(deck), hands=tuple(_sorted(magic_cards(h)) for h in hands),
                    discards=magic_cards(discards), immunities=tuple(magic_cards(i) for i in (immunities or [""] * len(hands))))
        if too_many := excess(magic.all_cards().elements(), magic_deck()):
            # Apart from the refusal's own call: Babel's extractor loses a message built inside another's arguments.
            each = tuple(msg_n("{card} {count} time (the pack holds {held})", "{card} {count} times (the pack holds {held})", n,
                               card=said(c), count=n, held=held) for c, n, held in too_many)
            raise IllegalAction("mazzo-magico", msg("a position cannot hold {too_many}", too_many=each))
        return magic

    @classmethod
    def deal(cls, deck: tuple[MagicCard, ...], players: int) -> Magic:
        if Counter(deck) != Counter(magic_deck()):
            raise IllegalAction("mazzo-magico", msg("the magic deck is the Ace, the 2 to 7, the Jack, the Queen and the King of each suit, and two Jokers"))
        hands = tuple(_sorted(deck[p * HAND:(p + 1) * HAND]) for p in range(players))
        return cls(deck=deck[players * HAND:], hands=hands, immunities=((),) * players)

    def all_cards(self) -> Counter[MagicCard]:
        zones = [self.deck, self.discards, *self.hands, *self.immunities]
        return Counter(c for zone in zones for c in zone)

    def summary(self, players: int) -> str:
        hands = " | ".join(f"{CLANS[p]} {show(self.hands[p])}" + (f" [immune: {show(self.immunities[p])}]" if self.immunities[p] else "")
                           for p in range(players))
        return f"deck {len(self.deck)}, discards {len(self.discards)} | {hands}"
