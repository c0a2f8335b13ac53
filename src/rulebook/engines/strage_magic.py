"""The optional magic rules of La Strage degli Innocenti: a poker deck without 8, 9 and 10.

Aces, Jacks, Queens, Kings and the two Jokers cast spells; the number cards 2..7 oppose
spells, insist on them, and break an Immunity. Suited cards are the shared
:class:`~.playing_cards.Card`; the Joker, which that deck lacks, is :class:`Joker`.

>>> magic_cards("A♠ 7♥ JK 4c")
(Card('A', 'spades'), Card('7', 'hearts'), Joker(), Card('4', 'clubs'))
>>> len(magic_deck())
42
>>> superior("hearts", "diamonds"), superior("spades", "clubs")
(True, False)
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import MISSING, dataclass, fields, replace
from itertools import combinations
from typing import Sequence, Union

from ..errors import IllegalAction, RulebookError
from . import strage_board as board
from .base import Fired
from .playing_cards import Card, card
from .strage_board import CLANS, ESCORTING, NOTHING, ORC, SPRITE, Phase, at, put

RANKS = ("A", "2", "3", "4", "5", "6", "7", "J", "Q", "K")  # 8, 9 and 10 leave the deck
NUMBERS = ("2", "3", "4", "5", "6", "7")
#: Highest first: hearts over diamonds over clubs over spades ("Come Quando Fuori Piove").
SUIT_ORDER = ("hearts", "diamonds", "clubs", "spades")
HAND, DRAW = 4, 2  # cards dealt before the game, drawn each turn
BEAT = 10  # an opposition (and an attack on an Immunity) must total more than this
PLAY_MENU = 4  # legal_actions lists number plays of up to this many cards (apply takes any)


@dataclass(frozen=True)
class Joker:
    def __repr__(self) -> str:
        return "Joker()"

    def __str__(self) -> str:
        return "JK"


MagicCard = Union[Card, Joker]


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


def is_number(c: MagicCard) -> bool:
    return isinstance(c, Card) and c.rank in NUMBERS


def total(cards: Sequence[MagicCard]) -> int:
    return sum(int(c.rank) for c in cards if isinstance(c, Card) and c.rank in NUMBERS)


def suits(cards: Sequence[MagicCard]) -> set[str]:
    return {c.suit for c in cards if isinstance(c, Card)}


def _key(c: MagicCard) -> tuple[int, int]:
    return (4, 0) if isinstance(c, Joker) else (SUIT_ORDER.index(c.suit), RANKS.index(c.rank))


def _sorted(cards) -> tuple[MagicCard, ...]:  # noqa: ANN001 - any iterable of cards
    return tuple(sorted(cards, key=_key))


def _without(cards: tuple[MagicCard, ...], gone: Sequence[MagicCard]) -> tuple[MagicCard, ...] | None:
    left = list(cards)
    for c in gone:
        if c not in left:
            return None
        left.remove(c)
    return tuple(left)


def show(cards: Sequence[MagicCard]) -> str:
    return " ".join(str(c) for c in cards) or "-"


# --- actions ---------------------------------------------------------------------------------

def _one(value) -> MagicCard:  # noqa: ANN001 - a card or its short name
    if isinstance(value, (Card, Joker)):
        return value
    found = magic_cards(value)
    if len(found) != 1:
        raise RulebookError(f"{value!r} is not one card")
    return found[0]


def _many(value) -> tuple[MagicCard, ...]:  # noqa: ANN001 - cards or their short names
    return magic_cards(value) if isinstance(value, str) else tuple(_one(c) for c in value)


class _Spoken:
    """Cards given and shown by their short names: ``Oppose('7♥ 5♣')`` is its own repr."""

    def __post_init__(self) -> None:
        for name, kind in self._cards.items():
            object.__setattr__(self, name, _one(getattr(self, name)) if kind == "one" else _many(getattr(self, name)))

    def __repr__(self) -> str:
        parts = []
        for f in fields(self):  # type: ignore[arg-type]
            value = getattr(self, f.name)
            if f.default is not MISSING and value == f.default:
                continue
            if f.name in self._cards:
                value = str(value) if self._cards[f.name] == "one" else show(value)
            elif f.name == "take" and value is not None:
                value = (value[0], str(value[1]))
            parts.append(repr(value) if f.default is MISSING else f"{f.name}={value!r}")
        return f"{type(self).__name__}({', '.join(parts)})"


@dataclass(frozen=True, repr=False)
class Lightning(_Spoken):
    """Ace: eliminate the orc or rival half-elf on ``target``; opposable against a half-elf."""

    card: Card
    target: str
    _cards = {"card": "one"}


@dataclass(frozen=True, repr=False)
class Immunity(_Spoken):
    """Jack: rival half-elves and Lightnings cannot attack your half-elves until it is broken."""

    card: Card
    _cards = {"card": "one"}


@dataclass(frozen=True, repr=False)
class Metamorphosis(_Spoken):
    """Queen: the sprite on ``square`` becomes an orc that kills the rival half-elf escorting it.

    ``orc`` is the square of the orc to move there, needed only when no orc is off the map.
    """

    card: Card
    square: str
    orc: str | None = None
    _cards = {"card": "one"}


@dataclass(frozen=True, repr=False)
class Curse(_Spoken):
    """King: take one to three orcs off the map."""

    card: Card
    orcs: tuple[str, ...]
    _cards = {"card": "one"}


@dataclass(frozen=True, repr=False)
class Upheaval(_Spoken):
    """Joker: hands are shown; take ``take`` (player, card) and make all discard ``suit``."""

    card: Joker
    take: tuple[int, Card] | None = None
    suit: str | None = None
    _cards = {"card": "one"}

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.take is not None:
            object.__setattr__(self, "take", (self.take[0], _one(self.take[1])))


@dataclass(frozen=True, repr=False)
class Caprice(_Spoken):
    """Joker: move an unescorted sprite one or two squares; on the exit row it is yours."""

    card: Joker
    start: str
    end: str
    _cards = {"card": "one"}


@dataclass(frozen=True, repr=False)
class Breach(_Spoken):
    """Lay number cards beside ``owner``'s Immunity to break it."""

    owner: int
    cards: tuple[Card, ...]
    _cards = {"cards": "many"}


@dataclass(frozen=True, repr=False)
class Oppose(_Spoken):
    """The target of an opposable spell plays numbers, a Joker, or a higher Queen against it."""

    cards: tuple[MagicCard, ...]
    _cards = {"cards": "many"}


@dataclass(frozen=True)
class Accept:
    """The target lets the spell work."""

    def __repr__(self) -> str:
        return "Accept()"


@dataclass(frozen=True, repr=False)
class Insist(_Spoken):
    """The caster matches the opposition's total with numbers: the spell works."""

    cards: tuple[Card, ...]
    _cards = {"cards": "many"}


@dataclass(frozen=True)
class Yield:
    """The caster gives up: the opposed spell is cancelled."""

    def __repr__(self) -> str:
        return "Yield()"


@dataclass(frozen=True, repr=False)
class Shuffle(_Spoken):
    """Chance outcome: the discards, reshuffled into a new deck (top first)."""

    order: tuple[MagicCard, ...]
    _cards = {"order": "many"}


SPELLS = (Lightning, Immunity, Metamorphosis, Curse, Upheaval, Caprice)
SPELL_RANK = {Lightning: "A", Immunity: "J", Metamorphosis: "Q", Curse: "K"}
SPELL_RULE = {Lightning: "fulmine", Immunity: "immunita", Metamorphosis: "metamorfosi", Curse: "maledizione",
              Upheaval: "rivolgimento", Caprice: "folletto-capriccioso"}
ACTIONS = (*SPELLS, Breach, Oppose, Accept, Insist, Yield, Shuffle)


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
        return cls(deck=magic_cards(deck), hands=tuple(_sorted(magic_cards(h)) for h in hands),
                   discards=magic_cards(discards), immunities=tuple(magic_cards(i) for i in (immunities or [""] * len(hands))))

    @classmethod
    def deal(cls, deck: tuple[MagicCard, ...], players: int) -> Magic:
        if Counter(deck) != Counter(magic_deck()):
            raise IllegalAction("mazzo-magico", "the magic deck is A, 2..7, J, Q, K of each suit and two Jokers")
        hands = tuple(_sorted(deck[p * HAND:(p + 1) * HAND]) for p in range(players))
        return cls(deck=deck[players * HAND:], hands=hands, immunities=((),) * players)

    def all_cards(self) -> Counter:
        zones = [self.deck, self.discards, *self.hands, *self.immunities]
        return Counter(c for zone in zones for c in zone)

    def sample_shuffle(self, rng: random.Random) -> Shuffle:
        order = list(self.discards)
        rng.shuffle(order)
        return Shuffle(tuple(order))

    def summary(self, players: int) -> str:
        hands = " | ".join(f"{CLANS[p]} {show(self.hands[p])}" + (f" [immune: {show(self.immunities[p])}]" if self.immunities[p] else "")
                           for p in range(players))
        return f"deck {len(self.deck)}, discards {len(self.discards)} | {hands}"


# --- hooks the engine calls ------------------------------------------------------------------

def handles(action: object) -> bool:
    return isinstance(action, ACTIONS)


def immune(state, player: int) -> bool:  # noqa: ANN001 - a StrageState
    return bool(state.magic and state.magic.immunities[player])


def draw_for_turn(state, trace: list[Fired]):  # noqa: ANN001, ANN201 - StrageState in and out
    return _draw(replace(state, magic=replace(state.magic, drawing=DRAW)), trace)


def _draw(state, trace: list[Fired]):  # noqa: ANN001, ANN201
    m: Magic = state.magic
    me, drawn = state.active, []
    deck, owed = m.deck, m.drawing
    while owed and deck:
        drawn.append(deck[0])
        deck, owed = deck[1:], owed - 1
    hands = _replace_at(m.hands, me, _sorted(m.hands[me] + tuple(drawn)))
    if drawn:
        trace.append(Fired("distribuzione", f"{CLANS[me]} draws {len(drawn)} card{'s' if len(drawn) > 1 else ''}"))
    m = replace(m, deck=deck, hands=hands, drawing=owed)
    if owed and m.discards:
        return replace(state, magic=m, phase=Phase.SHUFFLE)
    if owed:
        trace.append(Fired("rimescolare-vuoto", "no card left to draw"))
    return replace(state, magic=replace(m, drawing=0), phase=Phase.ACTIONS)


def _replace_at(items: tuple, i: int, value) -> tuple:  # noqa: ANN001
    return items[:i] + (value,) + items[i + 1:]


# --- what may be done ------------------------------------------------------------------------

def legal_actions(state) -> list:  # noqa: ANN001 - a StrageState
    m: Magic = state.magic
    if state.phase is Phase.MAGIC:
        return _spells(state) + _breaches(state) + [_end()]
    pending = m.pending
    assert pending is not None
    if state.phase is Phase.OPPOSE:
        hand = m.hands[pending.victim]
        found: list = [Accept()]
        if Joker() in hand:
            found.append(Oppose((Joker(),)))
        if isinstance(pending.spell, Metamorphosis):
            found += [Oppose((c,)) for c in hand if isinstance(c, Card) and c.rank == "Q" and superior(c.suit, pending.spell.card.suit)]
        return found + [Oppose(play) for play in _number_plays(hand, BEAT + 1)]
    return [Yield()] + [Insist(play) for play in _number_plays(m.hands[pending.caster], pending.opposition)]


def _end():  # noqa: ANN202 - the engine's End action
    from .strage import End  # the engine module imports this one; End belongs to it

    return End()


def _number_plays(hand: tuple[MagicCard, ...], at_least: int) -> list[tuple[Card, ...]]:
    numbers = [c for c in hand if is_number(c)]
    found = []
    for size in range(2, PLAY_MENU + 1):
        for play in combinations(numbers, size):
            if total(play) >= at_least and len(suits(play)) >= 2:
                found.append(play)
    return found


def _spells(state) -> list:  # noqa: ANN001
    m: Magic = state.magic
    me, cells = state.active, state.cells
    if m.cast:
        return []
    found: list = []
    hand = list(dict.fromkeys(m.hands[me]))  # the two Jokers are one choice
    orcs = board.squares_of(cells, ORC)
    for c in hand:
        if isinstance(c, Joker):
            others = [(p, x) for p in range(state.players) if p != me for x in dict.fromkeys(m.hands[p]) if isinstance(x, Card)]
            for take in [None, *others]:
                found += [Upheaval(c, take, suit) for suit in (None, *SUIT_ORDER)]
            for start in board.squares_of(cells, SPRITE):
                found += [Caprice(c, start, end) for end in caprice_reach(cells, start)]
        elif c.rank == "A":
            found += [Lightning(c, t) for t in orcs + _rival_half_elves(state)]
        elif c.rank == "J" and not m.immunities[me]:
            found.append(Immunity(c))
        elif c.rank == "Q":
            for square in board.squares_of(cells, ESCORTING):
                if board.clan_of(at(cells, square)) != me:
                    found += [Metamorphosis(c, square, orc) for orc in ([None] if state.orcs_off_map else orcs)]
        elif c.rank == "K":
            found += [Curse(c, group) for size in (1, 2, 3) for group in combinations(orcs, size)]
    return found


def _rival_half_elves(state) -> tuple[str, ...]:  # noqa: ANN001
    return tuple(s for p in range(state.players) if p != state.active and not immune(state, p)
                 for s in board.squares_of(state.cells, board.ALONE[p] + ESCORTING[p]))


def _breaches(state) -> list[Breach]:  # noqa: ANN001
    m: Magic = state.magic
    me = state.active
    return [Breach(owner, (c,)) for owner in range(state.players) if owner != me and m.immunities[owner]
            for c in m.hands[me] if is_number(c)]


def caprice_reach(cells: str, start: str) -> tuple[str, ...]:
    """Where a capricious sprite may go: one or two steps through empty squares, stopping on the exit row."""
    first = [s for s in board.neighbours(start) if at(cells, s) == NOTHING]
    found = set(first)
    for step in first:
        if board.rank(step) != board.EXIT_RANK:
            found.update(s for s in board.neighbours(step) if s != start and at(cells, s) == NOTHING)
    return tuple(s for s in board.SQUARES if s in found)


# --- doing it --------------------------------------------------------------------------------

def apply(state, action, trace: list[Fired]):  # noqa: ANN001, ANN201 - StrageState in and out
    if isinstance(action, Shuffle):
        return _shuffle(state, action, trace)
    if state.magic is None:
        raise IllegalAction("regole-facoltative", f"{action!r}: this game is played without the magic rules")
    if isinstance(action, SPELLS):
        return _cast(state, action, trace)
    if isinstance(action, Breach):
        return _breach(state, action, trace)
    if isinstance(action, (Oppose, Accept)):
        return _answer(state, action, trace)
    return _insist(state, action, trace)


def _not_now(state, action, rule: str) -> IllegalAction:  # noqa: ANN001
    who = state.current_player
    name = CLANS[who] if who >= 0 else "chance:" if state.is_chance else "nobody:"
    return IllegalAction(rule, f"{action!r} is not possible now: {name} {state.phase.value}")


def _shuffle(state, action: Shuffle, trace: list[Fired]):  # noqa: ANN001, ANN202
    if state.phase is not Phase.SHUFFLE:
        raise _not_now(state, action, "rimescolare")
    m: Magic = state.magic
    if Counter(action.order) != Counter(m.discards):
        raise IllegalAction("rimescolare", f"{action!r} is not an order of the {len(m.discards)} discarded cards")
    trace.append(Fired("rimescolare", f"the {len(m.discards)} discarded cards become the new deck"))
    return _draw(replace(state, magic=replace(m, deck=action.order, discards=())), trace)


def _take_from_hand(m: Magic, player: int, cards: Sequence[MagicCard], action, rule: str) -> Magic:  # noqa: ANN001
    left = _without(m.hands[player], cards)
    if left is None:
        raise IllegalAction(rule, f"{action!r}: {CLANS[player]} does not hold {show(cards)} (hand {show(m.hands[player])})")
    return replace(m, hands=_replace_at(m.hands, player, left))


def _cast(state, spell, trace: list[Fired]):  # noqa: ANN001, ANN202
    rule = SPELL_RULE[type(spell)]
    if state.phase is not Phase.MAGIC:
        raise _not_now(state, spell, "fase-magica")
    m: Magic = state.magic
    me = state.active
    if m.cast:
        raise IllegalAction("fase-magica", f"{spell!r}: {CLANS[me]} has already cast this turn's spell")
    wanted = SPELL_RANK.get(type(spell))
    if (isinstance(spell.card, Joker)) != (wanted is None) or (wanted and spell.card.rank != wanted):
        raise IllegalAction(rule, f"{spell!r}: this spell is cast with {'a Joker' if wanted is None else 'a ' + wanted}")
    _check_target(state, spell, rule)
    m = _take_from_hand(m, me, (spell.card,), spell, rule)
    if isinstance(spell, Immunity):
        m = replace(m, immunities=_replace_at(m.immunities, me, (spell.card,)), cast=True)
    else:
        m = replace(m, discards=m.discards + (spell.card,), cast=True)
    trace.append(Fired(rule, f"{CLANS[me]} casts {type(spell).__name__} with {spell.card}"))
    state = replace(state, magic=m)
    victim = _victim(state, spell)
    if victim is not None:
        trace.append(Fired("opposizione", f"{CLANS[victim]} may oppose it"))
        return replace(state, phase=Phase.OPPOSE, magic=replace(m, pending=Pending(spell, me, victim)))
    return _resolve(state, spell, trace)


def _victim(state, spell) -> int | None:  # noqa: ANN001
    """Who may oppose: the owner of the half-elf a Lightning or a Metamorphosis strikes."""
    if isinstance(spell, Lightning):
        return board.clan_of(at(state.cells, spell.target))
    if isinstance(spell, Metamorphosis):
        return board.clan_of(at(state.cells, spell.square))
    return None


def _check_target(state, spell, rule: str) -> None:  # noqa: ANN001
    me, cells, m = state.active, state.cells, state.magic
    if isinstance(spell, Lightning):
        owner = board.clan_of(at(cells, spell.target))
        if owner is not None and owner != me and immune(state, owner):
            raise IllegalAction("immunita", f"{spell!r}: the {CLANS[owner]} half-elves are immune")
        if at(cells, spell.target) != ORC and (owner is None or owner == me):
            raise IllegalAction("fulmine-bersagli", f"{spell!r}: strikes an orc or a rival half-elf, not {spell.target}")
    elif isinstance(spell, Immunity):
        if m.immunities[me]:
            raise IllegalAction("immunita-una", f"{spell!r}: {CLANS[me]} is already immune")
    elif isinstance(spell, Metamorphosis):
        letter = at(cells, spell.square)
        if letter not in ESCORTING or board.clan_of(letter) == me:
            raise IllegalAction("metamorfosi", f"{spell!r}: {spell.square} holds no sprite escorted by a rival half-elf")
        if state.orcs_off_map and spell.orc is not None:
            raise IllegalAction("metamorfosi", f"{spell!r}: an orc off the map must be used")
        if not state.orcs_off_map and (spell.orc is None or at(cells, spell.orc) != ORC):
            raise IllegalAction("metamorfosi", f"{spell!r}: every orc is on the map; name the square of the one to move")
    elif isinstance(spell, Curse):
        if not 1 <= len(set(spell.orcs)) == len(spell.orcs) <= 3 or any(at(cells, s) != ORC for s in spell.orcs):
            raise IllegalAction("maledizione", f"{spell!r}: names one to three different squares with an orc")
    elif isinstance(spell, Upheaval):
        if spell.suit is not None and spell.suit not in SUIT_ORDER:
            raise IllegalAction("rivolgimento", f"{spell!r}: {spell.suit!r} is not a suit")
        if spell.take is not None:
            player, taken = spell.take
            if player == me or player not in range(state.players) or taken not in m.hands[player]:
                raise IllegalAction("rivolgimento", f"{spell!r}: no such card in a rival's hand")
    elif isinstance(spell, Caprice):
        if at(cells, spell.start) != SPRITE:
            raise IllegalAction("folletto-capriccioso", f"{spell!r}: no unescorted sprite on {spell.start}")
        if spell.end not in caprice_reach(cells, spell.start):
            raise IllegalAction("folletto-capriccioso", f"{spell!r}: one or two steps through empty squares only")


def _resolve(state, spell, trace: list[Fired]):  # noqa: ANN001, ANN202
    """The spell works; the caster goes back to the magic phase (its spell spent)."""
    m: Magic = state.magic
    me, cells = state.active, state.cells
    state = replace(state, phase=Phase.MAGIC, magic=replace(m, pending=None))
    rule = SPELL_RULE[type(spell)]
    if isinstance(spell, Lightning):
        trace.append(Fired(rule, f"the {state._piece(spell.target)} on {spell.target} is struck off the map"))
        return replace(state, cells=put(cells, spell.target, board.without_half_elf(at(cells, spell.target))))
    if isinstance(spell, Immunity):
        trace.append(Fired(rule, f"{CLANS[me]} half-elves are immune"))
        return state
    if isinstance(spell, Metamorphosis):
        if spell.orc is not None:
            cells = put(cells, spell.orc, NOTHING)
            trace.append(Fired("metamorfosi-orco", f"the orc on {spell.orc} is moved"))
        trace.append(Fired(rule, f"the sprite on {spell.square} becomes an orc and kills the {state._piece(spell.square)}"))
        state = replace(state, cells=put(cells, spell.square, ORC), killed=state.killed + 1)
        return state._game_over(trace) if state.sprites_on_map == 0 else state
    if isinstance(spell, Curse):
        for square in spell.orcs:
            cells = put(cells, square, NOTHING)
        trace.append(Fired(rule, f"the orcs on {' '.join(spell.orcs)} leave the map"))
        return replace(state, cells=cells)
    if isinstance(spell, Upheaval):
        return _upheaval(state, spell, trace)
    trace.append(Fired(rule, f"the sprite {spell.start}-{spell.end}"))
    state = replace(state, cells=put(cells, spell.start, NOTHING), arrows=state.arrows + ((spell.start, spell.end),))
    if board.rank(spell.end) != board.EXIT_RANK:
        return replace(state, cells=put(state.cells, spell.end, SPRITE))
    saved = _replace_at(state.saved, me, state.saved[me] + 1)
    trace.append(Fired("folletto-capriccioso", f"the sprite reaches the exit row: {CLANS[me]} saves it ({saved[me]} saved)"))
    state = replace(state, saved=saved)
    return state._game_over(trace) if state.sprites_on_map == 0 else state


def _upheaval(state, spell: Upheaval, trace: list[Fired]):  # noqa: ANN001, ANN202
    m: Magic = state.magic
    me = state.active
    trace.append(Fired("rivolgimento", "hands shown: " + " | ".join(f"{CLANS[p]} {show(m.hands[p])}" for p in range(state.players))))
    hands = m.hands
    if spell.take is not None:
        player, taken = spell.take
        hands = _replace_at(hands, player, _without(hands[player], (taken,)))
        hands = _replace_at(hands, me, _sorted(hands[me] + (taken,)))
        trace.append(Fired("rivolgimento", f"{CLANS[me]} takes {taken} from {CLANS[player]}"))
    discards = m.discards
    if spell.suit is not None:
        gone = [c for hand in hands for c in hand if isinstance(c, Card) and c.suit == spell.suit]
        hands = tuple(tuple(c for c in hand if not (isinstance(c, Card) and c.suit == spell.suit)) for hand in hands)
        discards += tuple(gone)
        trace.append(Fired("rivolgimento", f"everyone discards their {spell.suit}: {show(gone)}"))
    return replace(state, magic=replace(m, hands=hands, discards=discards))


def _breach(state, action: Breach, trace: list[Fired]):  # noqa: ANN001, ANN202
    if state.phase is not Phase.MAGIC:
        raise _not_now(state, action, "immunita")
    m: Magic = state.magic
    me, owner = state.active, action.owner
    if owner == me or owner not in range(state.players) or not m.immunities[owner]:
        raise IllegalAction("immunita", f"{action!r}: no rival Immunity to break there")
    if not action.cards or not all(is_number(c) for c in action.cards):
        raise IllegalAction("immunita", f"{action!r}: only number cards (2 to 7) break an Immunity")
    m = _take_from_hand(m, me, action.cards, action, "immunita")
    laid = m.immunities[owner] + tuple(action.cards)
    trace.append(Fired("immunita", f"{CLANS[me]} lays {show(action.cards)} on the {CLANS[owner]} Immunity: total {total(laid)}, {len(suits(laid[1:]))} suits"))
    if total(laid) > BEAT and len(suits(laid[1:])) >= 3:
        trace.append(Fired("immunita", f"the {CLANS[owner]} Immunity is broken"))
        m = replace(m, immunities=_replace_at(m.immunities, owner, ()), discards=m.discards + laid)
    else:
        m = replace(m, immunities=_replace_at(m.immunities, owner, laid))
    return replace(state, magic=m)


def _answer(state, action: Oppose | Accept, trace: list[Fired]):  # noqa: ANN001, ANN202
    if state.phase is not Phase.OPPOSE:
        raise _not_now(state, action, "opposizione")
    m: Magic = state.magic
    pending = m.pending
    assert pending is not None
    spell, victim = pending.spell, pending.victim
    if isinstance(action, Accept):
        trace.append(Fired("opposizione", f"{CLANS[victim]} does not oppose"))
        return _resolve(state, spell, trace)
    cards = tuple(action.cards)
    m = _take_from_hand(m, victim, cards, action, "opposizione")
    m = replace(m, discards=m.discards + cards)
    state = replace(state, magic=m)
    if cards == (Joker(),):
        trace.append(Fired("opposizione-irresistibile", f"{CLANS[victim]} opposes with a Joker: the spell fails"))
        return _cancel(state)
    if len(cards) == 1 and isinstance(cards[0], Card) and cards[0].rank == "Q":
        if not isinstance(spell, Metamorphosis):
            raise IllegalAction("opposizione-irresistibile", f"{action!r}: a Queen opposes only a Metamorphosis")
        if not superior(cards[0].suit, spell.card.suit):
            raise IllegalAction("ordine-semi", f"{action!r}: {cards[0]} does not outrank {spell.card} ({' > '.join(SUIT_ORDER)})")
        trace.append(Fired("opposizione-irresistibile", f"{cards[0]} outranks {spell.card}: the Metamorphosis fails"))
        return _cancel(state)
    _check_numbers(action, cards, BEAT + 1, "opposizione")
    trace.append(Fired("opposizione", f"{CLANS[victim]} opposes with {show(cards)} = {total(cards)}; {CLANS[pending.caster]} may insist"))
    return replace(state, phase=Phase.INSIST, magic=replace(m, pending=replace(pending, opposition=total(cards))))


def _check_numbers(action, cards: Sequence[MagicCard], at_least: int, rule: str) -> None:  # noqa: ANN001
    if not cards or not all(is_number(c) for c in cards):
        raise IllegalAction(rule, f"{action!r}: only number cards (2 to 7), a Joker or a higher Queen")
    if len(suits(cards)) < 2:
        raise IllegalAction(rule, f"{action!r}: the numbers must be of at least two suits")
    if total(cards) < at_least:
        raise IllegalAction(rule, f"{action!r}: {show(cards)} totals {total(cards)}, at least {at_least} is needed")


def _insist(state, action: Insist | Yield, trace: list[Fired]):  # noqa: ANN001, ANN202
    if state.phase is not Phase.INSIST:
        raise _not_now(state, action, "opposizione")
    m: Magic = state.magic
    pending = m.pending
    assert pending is not None
    caster = pending.caster
    if isinstance(action, Yield):
        trace.append(Fired("opposizione", f"{CLANS[caster]} does not insist: the spell fails"))
        return _cancel(state)
    cards = tuple(action.cards)
    _check_numbers(action, cards, pending.opposition, "opposizione")
    m = _take_from_hand(m, caster, cards, action, "opposizione")
    trace.append(Fired("opposizione", f"{CLANS[caster]} insists with {show(cards)} = {total(cards)} against {pending.opposition}: the spell works"))
    return _resolve(replace(state, magic=replace(m, discards=m.discards + cards)), pending.spell, trace)


def _cancel(state):  # noqa: ANN001, ANN202
    return replace(state, phase=Phase.MAGIC, magic=replace(state.magic, pending=None))
