"""The optional magic rules of La Strage degli Innocenti: casting, oppositions, Immunity, draws.

The cards and the spells as actions are in :mod:`.cards`. These functions take and
return the engine's state; :class:`~.state.StrageState` lists the public ones (``cast``,
``breach``, ``answer``, ``insist``, ``shuffle``) in its handler table, the others serve its
magic phases.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations
from typing import TYPE_CHECKING

from ...errors import IllegalAction
from ...messages import Message, Notation, code, msg, msg_n, notation
from ..base import Action, Fired, evolve, replace_at
from ..playing_cards import Card, remove_cards
from . import board
from .actions import End
from .board import CLANS, ESCORTING, NOTHING, ORC, SPRITE, Phase, at, put
from .cards import (
    BEAT,
    DRAW,
    PLAY_MENU,
    SPELL_NAME,
    SPELL_RANK,
    SPELL_RULE,
    SUIT_ORDER,
    SUIT_RANKING,
    Accept,
    Breach,
    Caprice,
    Curse,
    Immunity,
    Insist,
    Joker,
    Lightning,
    Magic,
    MagicCard,
    Metamorphosis,
    Oppose,
    Pending,
    Shuffle,
    Upheaval,
    Yield,
    _sorted,
    is_number,
    said,
    said_cards,
    suits,
    superior,
    total,
)

if TYPE_CHECKING:  # the state imports this module for its handlers
    from .state import StrageState

#: What `cast` takes: one of the spells (cards.SPELLS).
Spell = Lightning | Immunity | Metamorphosis | Curse | Upheaval | Caprice

# --- hooks the engine calls ------------------------------------------------------------------

def _magic(state: StrageState) -> Magic:
    """The magic rules' part of the state: only a magic phase asks for it, and a game without
    the magic rules never reaches one (cast, the first, refuses such a game by name)."""
    assert state.magic is not None
    return state.magic


def immune(state: StrageState, player: int) -> bool:
    return bool(state.magic and state.magic.immunities[player])


def draw_for_turn(state: StrageState, trace: list[Fired]) -> StrageState:
    return _draw(evolve(state, magic=evolve(_magic(state), drawing=DRAW)), trace)


def _draw(state: StrageState, trace: list[Fired]) -> StrageState:
    m = _magic(state)
    me, drawn = state.active, []
    deck, owed = m.deck, m.drawing
    while owed and deck:
        drawn.append(deck[0])
        deck, owed = deck[1:], owed - 1
    hands = replace_at(m.hands, me, _sorted(m.hands[me] + tuple(drawn)))
    if drawn:
        trace.append(Fired("distribuzione", msg_n("{clan} draws {count} card", "{clan} draws {count} cards", len(drawn), clan=CLANS[me], count=len(drawn))))
    m = evolve(m, deck=deck, hands=hands, drawing=owed)
    if owed and m.discards:
        return evolve(state, magic=m, phase=Phase.SHUFFLE)
    if owed:
        trace.append(Fired("rimescolare-vuoto", msg("no card left to draw")))
    return evolve(state, magic=evolve(m, drawing=0), phase=Phase.ACTIONS)


# --- what may be done ------------------------------------------------------------------------

def legal_actions(state: StrageState) -> list[Action]:
    m = _magic(state)
    if state.phase is Phase.MAGIC:
        return _spells(state) + _breaches(state) + [End()]
    pending = m.pending
    assert pending is not None
    if state.phase is Phase.OPPOSE:
        hand = m.hands[pending.victim]
        found: list[Action] = [Accept()]
        if Joker() in hand:
            found.append(Oppose((Joker(),)))
        if isinstance(pending.spell, Metamorphosis):
            found += [Oppose((c,)) for c in hand if isinstance(c, Card) and c.rank == "Q" and superior(c.suit, pending.spell.card.suit)]
        return found + [Oppose(play) for play in _number_plays(hand, BEAT + 1)]
    return [Yield()] + [Insist(play) for play in _number_plays(m.hands[pending.caster], pending.opposition)]


def _number_plays(hand: tuple[MagicCard, ...], at_least: int) -> list[tuple[Card, ...]]:
    numbers = [c for c in hand if is_number(c)]
    found = []
    for size in range(2, PLAY_MENU + 1):
        for play in combinations(numbers, size):
            if total(play) >= at_least and len(suits(play)) >= 2:
                found.append(play)
    return found


def _spells(state: StrageState) -> list[Action]:
    m = _magic(state)
    me, cells = state.active, state.cells
    if m.cast:
        return []
    found: list[Action] = []
    hand = list(dict.fromkeys(m.hands[me]))  # the two Jokers are one choice
    orcs = board.squares_of(cells, ORC)
    for c in hand:
        if isinstance(c, Joker):
            others = [(p, x) for p in range(state.players) if p != me for x in dict.fromkeys(m.hands[p])]
            for take in [None, *others]:
                found += [Upheaval(c, take, suit) for suit in (None, *SUIT_ORDER)]
            for start in board.squares_of(cells, SPRITE):
                found += [Caprice(c, start, end) for end in caprice_reach(cells, start)]
        elif c.rank == "A":
            found += [Lightning(c, t) for t in orcs + _strikable_half_elves(state)]
        elif c.rank == "J" and not m.immunities[me]:
            found.append(Immunity(c))
        elif c.rank == "Q":
            for square in board.squares_of(cells, ESCORTING):
                if board.clan_of(at(cells, square)) != me:
                    found += [Metamorphosis(c, square, orc) for orc in ([None] if state.orcs_off_map else orcs)]
        elif c.rank == "K":
            found += [Curse(c, group) for size in (1, 2, 3) for group in combinations(orcs, size)]
    return found


def _strikable_half_elves(state: StrageState) -> tuple[str, ...]:
    """Half-elves a Lightning may strike: the caster's own, and every rival clan's not immune."""
    return tuple(s for p in range(state.players) if p == state.active or not immune(state, p)
                 for s in board.squares_of(state.cells, board.ALONE[p] + ESCORTING[p]))


def _breaches(state: StrageState) -> list[Breach]:
    m = _magic(state)
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

def _require_magic(state: StrageState, action: Action) -> None:
    if state.magic is None:
        raise IllegalAction("regole-facoltative", msg("{action}: this game is played without the magic rules", action=action.told))


def shuffle(state: StrageState, action: Shuffle, trace: list[Fired]) -> StrageState:
    state._expect(Phase.SHUFFLE, action, "rimescolare")
    m = _magic(state)
    if Counter(action.order) != Counter(m.discards):
        raise IllegalAction("rimescolare", msg("{action} is not an order of the {count} discarded cards", action=action.told, count=len(m.discards)))
    trace.append(Fired("rimescolare", msg("the {count} discarded cards become the new deck", count=len(m.discards))))
    return _draw(evolve(state, magic=evolve(m, deck=action.order, discards=())), trace)


def _take_from_hand(m: Magic, player: int, cards: Sequence[MagicCard], action: Action, rule: str) -> Magic:
    left = remove_cards(m.hands[player], cards)
    if left is None:
        raise IllegalAction(rule, msg("{action}: {clan} does not hold {cards} (hand: {hand})", action=action.told, clan=CLANS[player], cards=said_cards(cards), hand=said_cards(m.hands[player])))
    return evolve(m, hands=replace_at(m.hands, player, left))


def cast(state: StrageState, spell: Spell, trace: list[Fired]) -> StrageState:
    _require_magic(state, spell)
    rule = SPELL_RULE[type(spell)]
    state._expect(Phase.MAGIC, spell, "fase-magica")
    m = _magic(state)
    me = state.active
    if m.cast:
        raise IllegalAction("fase-magica", msg("{spell}: {clan} has already cast this turn's spell", spell=spell.told, clan=CLANS[me]))
    wanted = SPELL_RANK.get(type(spell))
    if (isinstance(spell.card, Joker)) != (wanted is None) or (wanted and not isinstance(spell.card, Joker) and spell.card.rank != wanted):
        raise IllegalAction(rule, _cast_with(spell, wanted))
    _check_target(state, spell, rule)
    m = _take_from_hand(m, me, (spell.card,), spell, rule)
    if isinstance(spell, Immunity):
        m = evolve(m, immunities=replace_at(m.immunities, me, (spell.card,)), cast=True)
    else:
        m = evolve(m, discards=m.discards + (spell.card,), cast=True)
    name = SPELL_NAME[type(spell)]
    trace.append(Fired(rule, msg("{clan} casts {spell} with a Joker", clan=CLANS[me], spell=name) if isinstance(spell.card, Joker) else
                       msg("{clan} casts {spell} with {card}", clan=CLANS[me], spell=name, card=said(spell.card))))
    state = evolve(state, magic=m)
    victim = _victim(state, spell)
    if victim == me:
        trace.append(Fired("fulmine-senza-opposizione", msg("{clan} strikes one of its own half-elves: nobody opposes", clan=CLANS[me])))
    elif victim is not None:
        assert isinstance(spell, (Lightning, Metamorphosis))  # the only spells _victim names one for
        trace.append(Fired("opposizione", msg("{clan} may oppose it", clan=CLANS[victim])))
        return evolve(state, phase=Phase.OPPOSE, magic=evolve(m, pending=Pending(spell, me, victim)))
    return _resolve(state, spell, trace)


def _cast_with(spell: Spell, rank: str | None) -> Message:
    """The refusal of a spell cast with the wrong card, naming the card it wants (a whole sentence each)."""
    if rank == "A":
        return msg("{spell}: this spell is cast with an Ace", spell=spell.told)
    if rank == "J":
        return msg("{spell}: this spell is cast with a Jack", spell=spell.told)
    if rank == "Q":
        return msg("{spell}: this spell is cast with a Queen", spell=spell.told)
    if rank == "K":
        return msg("{spell}: this spell is cast with a King", spell=spell.told)
    return msg("{spell}: this spell is cast with a Joker", spell=spell.told)


def _victim(state: StrageState, spell: Spell) -> int | None:
    """Who may oppose: the owner of the half-elf a Lightning or a Metamorphosis strikes."""
    if isinstance(spell, Lightning):
        return board.clan_of(at(state.cells, spell.target))
    if isinstance(spell, Metamorphosis):
        return board.clan_of(at(state.cells, spell.square))
    return None


def _check_target(state: StrageState, spell: Spell, rule: str) -> None:
    me, cells, m = state.active, state.cells, _magic(state)
    if isinstance(spell, Lightning):
        owner = board.clan_of(at(cells, spell.target))
        if owner is not None and owner != me and immune(state, owner):
            raise IllegalAction("immunita", msg("{spell}: the {clan} half-elves are immune", spell=spell.told, clan=CLANS[owner]))
        if at(cells, spell.target) != ORC and owner is None:
            raise IllegalAction("fulmine-bersagli", msg("{spell}: strikes an orc or a half-elf, not {target}", spell=spell.told, target=notation(spell.target)))
    elif isinstance(spell, Immunity):
        if m.immunities[me]:
            raise IllegalAction("immunita-una", msg("{spell}: {clan} is already immune", spell=spell.told, clan=CLANS[me]))
    elif isinstance(spell, Metamorphosis):
        letter = at(cells, spell.square)
        if letter not in ESCORTING or board.clan_of(letter) == me:
            raise IllegalAction("metamorfosi", msg("{spell}: {square} holds no sprite escorted by a rival half-elf", spell=spell.told, square=notation(spell.square)))
        if state.orcs_off_map and spell.orc is not None:
            raise IllegalAction("metamorfosi", msg("{spell}: an orc off the map must be used", spell=spell.told))
        if not state.orcs_off_map and (spell.orc is None or at(cells, spell.orc) != ORC):
            raise IllegalAction("metamorfosi", msg("{spell}: every orc is on the map; name the square of the one to move", spell=spell.told))
    elif isinstance(spell, Curse):
        if not 1 <= len(set(spell.orcs)) == len(spell.orcs) <= 3 or any(at(cells, s) != ORC for s in spell.orcs):
            raise IllegalAction("maledizione", msg("{spell}: names one to three different squares with an orc", spell=spell.told))
    elif isinstance(spell, Upheaval):
        if spell.suit is not None and spell.suit not in SUIT_ORDER:
            raise IllegalAction("rivolgimento", msg("{spell}: {suit} is not a suit", spell=spell.told, suit=code(spell.suit)))
        if spell.take is not None:
            player, taken = spell.take
            if player == me or player not in range(state.players) or taken not in m.hands[player]:
                raise IllegalAction("rivolgimento", msg("{spell}: no such card in a rival's hand", spell=spell.told))
    elif isinstance(spell, Caprice):
        if at(cells, spell.start) != SPRITE:
            raise IllegalAction("folletto-capriccioso", msg("{spell}: no unescorted sprite on {start}", spell=spell.told, start=notation(spell.start)))
        if spell.end not in caprice_reach(cells, spell.start):
            raise IllegalAction("folletto-capriccioso", msg("{spell}: one or two steps through empty squares only", spell=spell.told))


def _resolve(state: StrageState, spell: Spell, trace: list[Fired]) -> StrageState:
    """The spell works; the caster goes back to the magic phase (its spell spent)."""
    m = _magic(state)
    me, cells = state.active, state.cells
    state = evolve(state, phase=Phase.MAGIC, magic=evolve(m, pending=None))
    rule = SPELL_RULE[type(spell)]
    if isinstance(spell, Lightning):
        trace.append(Fired(rule, msg("{piece} on {target} is struck off the map", piece=state._piece(spell.target), target=notation(spell.target))))
        return evolve(state, cells=put(cells, spell.target, board.without_half_elf(at(cells, spell.target))))
    if isinstance(spell, Immunity):
        trace.append(Fired(rule, msg("{clan} half-elves are immune", clan=CLANS[me])))
        return state
    if isinstance(spell, Metamorphosis):
        if spell.orc is not None:
            cells = put(cells, spell.orc, NOTHING)
            trace.append(Fired("metamorfosi-orco", msg("the orc on {orc} is moved", orc=notation(spell.orc))))
        trace.append(Fired(rule, msg("the sprite on {square} becomes an orc and kills {piece}", square=notation(spell.square), piece=state._piece(spell.square))))
        state = evolve(state, cells=put(cells, spell.square, ORC))
        return state._game_over(trace) if state.sprites_on_map == 0 else state
    if isinstance(spell, Curse):
        for square in spell.orcs:
            cells = put(cells, square, NOTHING)
        trace.append(Fired(rule, msg_n("the orc on {squares} leaves the map", "the orcs on {squares} leave the map", len(spell.orcs),
                                         squares=tuple(notation(s) for s in spell.orcs))))
        return evolve(state, cells=cells)
    if isinstance(spell, Upheaval):
        return _upheaval(state, spell, trace)
    trace.append(Fired(rule, msg("the sprite {start}-{end}", start=notation(spell.start), end=notation(spell.end))))
    state = evolve(state, cells=put(cells, spell.start, NOTHING), arrows=state.arrows + ((spell.start, spell.end),))
    if board.rank(spell.end) != board.EXIT_RANK:
        return evolve(state, cells=put(state.cells, spell.end, SPRITE))
    saved = replace_at(state.saved, me, state.saved[me] + 1)
    trace.append(Fired("folletto-capriccioso", msg("the sprite reaches the exit row: {clan} saves it ({saved} saved)", clan=CLANS[me], saved=saved[me])))
    state = evolve(state, saved=saved)
    return state._game_over(trace) if state.sprites_on_map == 0 else state


def _upheaval(state: StrageState, spell: Upheaval, trace: list[Fired]) -> StrageState:
    m = _magic(state)
    me = state.active
    # Translators: one clan's hand as an Upheaval shows it, e.g. "red (7♥, A♠)".
    shown = tuple(msg("{clan} ({cards})", clan=CLANS[p], cards=said_cards(m.hands[p])) for p in range(state.players))
    trace.append(Fired("rivolgimento", msg("hands shown: {hands}", hands=shown)))
    hands = m.hands
    if spell.take is not None:
        player, taken = spell.take
        left = remove_cards(hands[player], (taken,))
        assert left is not None  # _check_target found the card in that hand
        hands = replace_at(hands, player, left)
        hands = replace_at(hands, me, _sorted(hands[me] + (taken,)))
        trace.append(Fired("rivolgimento", msg("{clan} takes {taken} from {clan2}", clan=CLANS[me], taken=said(taken), clan2=CLANS[player])))
    discards = m.discards
    if spell.suit is not None:
        gone = [c for hand in hands for c in hand if isinstance(c, Card) and c.suit == spell.suit]
        hands = tuple(tuple(c for c in hand if not (isinstance(c, Card) and c.suit == spell.suit)) for hand in hands)
        discards += tuple(gone)
        trace.append(Fired("rivolgimento", _discard_suit(spell.suit, said_cards(gone))))
    return evolve(state, magic=evolve(m, hands=hands, discards=discards))


def _discard_suit(suit: str, cards: tuple[Notation | Message, ...] | Message) -> Message:
    """What an Upheaval makes everyone discard, one whole sentence per suit (a suit's name inflects)."""
    if suit == "hearts":
        return msg("everyone discards their hearts: {cards}", cards=cards)
    if suit == "diamonds":
        return msg("everyone discards their diamonds: {cards}", cards=cards)
    if suit == "clubs":
        return msg("everyone discards their clubs: {cards}", cards=cards)
    return msg("everyone discards their spades: {cards}", cards=cards)


def breach(state: StrageState, action: Breach, trace: list[Fired]) -> StrageState:
    _require_magic(state, action)
    state._expect(Phase.MAGIC, action, "immunita")
    m = _magic(state)
    me, owner = state.active, action.owner
    if owner == me or owner not in range(state.players) or not m.immunities[owner]:
        raise IllegalAction("immunita", msg("{action}: no rival Immunity to break there", action=action.told))
    if not action.cards or not all(is_number(c) for c in action.cards):
        raise IllegalAction("immunita", msg("{action}: only number cards (2 to 7) break an Immunity", action=action.told))
    m = _take_from_hand(m, me, action.cards, action, "immunita")
    laid = m.immunities[owner] + tuple(action.cards)
    trace.append(Fired("immunita", msg_n("{clan} lays {cards} on the {clan2} Immunity: total {total}, {count} suit", "{clan} lays {cards} on the {clan2} Immunity: total {total}, {count} suits",
                                       len(suits(laid[1:])), clan=CLANS[me], cards=said_cards(action.cards), clan2=CLANS[owner], total=total(laid), count=len(suits(laid[1:])))))
    if total(laid) > BEAT and len(suits(laid[1:])) >= 3:
        trace.append(Fired("immunita", msg("the {clan} Immunity is broken", clan=CLANS[owner])))
        m = evolve(m, immunities=replace_at(m.immunities, owner, ()), discards=m.discards + laid)
    else:
        m = evolve(m, immunities=replace_at(m.immunities, owner, laid))
    return evolve(state, magic=m)


def _answering(state: StrageState, action: Action, phase: Phase) -> tuple[Magic, Pending]:
    """The magic and the opposable spell an answer (to oppose, or to insist) is about."""
    _require_magic(state, action)
    state._expect(phase, action, "opposizione")
    m = _magic(state)
    assert m.pending is not None
    return m, m.pending


def answer(state: StrageState, action: Oppose | Accept, trace: list[Fired]) -> StrageState:
    m, pending = _answering(state, action, Phase.OPPOSE)
    spell, victim = pending.spell, pending.victim
    if isinstance(action, Accept):
        trace.append(Fired("opposizione", msg("{clan} does not oppose", clan=CLANS[victim])))
        return _resolve(state, spell, trace)
    cards = tuple(action.cards)
    m = _take_from_hand(m, victim, cards, action, "opposizione")
    m = evolve(m, discards=m.discards + cards)
    state = evolve(state, magic=m)
    if cards == (Joker(),):
        trace.append(Fired("opposizione-irresistibile", msg("{clan} opposes with a Joker: the spell fails", clan=CLANS[victim])))
        return _cancel(state)
    if len(cards) == 1 and isinstance(cards[0], Card) and cards[0].rank == "Q":
        if not isinstance(spell, Metamorphosis):
            raise IllegalAction("opposizione-irresistibile", msg("{action}: a Queen opposes only a Metamorphosis", action=action.told))
        if not superior(cards[0].suit, spell.card.suit):
            raise IllegalAction("ordine-semi", msg("{action}: {cards} does not outrank {card} ({order})", action=action.told, cards=said(cards[0]), card=said(spell.card), order=SUIT_RANKING))
        trace.append(Fired("opposizione-irresistibile", msg("{cards} outranks {card}: the Metamorphosis fails", cards=said(cards[0]), card=said(spell.card))))
        return _cancel(state)
    _check_numbers(action, cards, BEAT + 1, "opposizione")
    trace.append(Fired("opposizione", msg("{clan} opposes with {cards} = {total}; {clan2} may insist", clan=CLANS[victim], cards=said_cards(cards), total=total(cards), clan2=CLANS[pending.caster])))
    return evolve(state, phase=Phase.INSIST, magic=evolve(m, pending=evolve(pending, opposition=total(cards))))


def _check_numbers(action: Action, cards: Sequence[MagicCard], at_least: int, rule: str) -> None:
    if not cards or not all(is_number(c) for c in cards):
        raise IllegalAction(rule, msg("{action}: only number cards (2 to 7), a Joker or a higher Queen", action=action.told))
    if len(suits(cards)) < 2:
        raise IllegalAction(rule, msg("{action}: the numbers must be of at least two suits", action=action.told))
    if total(cards) < at_least:
        raise IllegalAction(rule, msg("{action}: total {total}, at least {at_least} is needed", action=action.told, total=total(cards), at_least=at_least))


def insist(state: StrageState, action: Insist | Yield, trace: list[Fired]) -> StrageState:
    m, pending = _answering(state, action, Phase.INSIST)
    caster = pending.caster
    if isinstance(action, Yield):
        trace.append(Fired("opposizione", msg("{clan} does not insist: the spell fails", clan=CLANS[caster])))
        return _cancel(state)
    cards = tuple(action.cards)
    _check_numbers(action, cards, pending.opposition, "opposizione")
    m = _take_from_hand(m, caster, cards, action, "opposizione")
    trace.append(Fired("opposizione", msg("{clan} insists with {cards} = {total} against {opposition}: the spell works", clan=CLANS[caster], cards=said_cards(cards), total=total(cards), opposition=pending.opposition)))
    return _resolve(evolve(state, magic=evolve(m, discards=m.discards + cards)), pending.spell, trace)


def _cancel(state: StrageState) -> StrageState:
    return evolve(state, phase=Phase.MAGIC, magic=evolve(state.magic, pending=None))
