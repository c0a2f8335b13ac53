"""BingoMagic: two players, a shared deck of 60 basic lands, five lands of a kind to win.

Rule ids in traces and errors are the ids of ``rules/bingomagic.yaml``. The state's indexes
(``active``, ``current_player``, ``hands[i]``) count the two players from 0, as Python does;
what the engine says and its picture count seats from 1, as a reader does.

>>> state = BingoState.setup(hands=("WWB", "GG"), deck="RRGG")
>>> print(state)
deck 4 | player 1 to place or pass
P1 hand W W B | territory - | discards -
P2 hand G G | territory - | discards -
>>> step = state.apply(Place(PLAINS))
>>> step.rules()
['posare', 'pianura', 'fine-turno', 'pesca-turno']
"""

from __future__ import annotations

import random
from collections import Counter as Tally  # the action class below is called Counter
from dataclasses import dataclass
from enum import Enum

from ..errors import IllegalAction, RulebookError
from ..messages import Message, code, msg, msg_n, msg_p
from .base import CHANCE, TERMINAL, Action, Fired, State, evolve, replace_at
from .chance import Orders
from .playing_cards import excess, remove_cards

__all__ = [
    "Land", "PLAINS", "ISLAND", "SWAMP", "MOUNTAIN", "FOREST", "lands", "standard_deck",
    "Phase", "Place", "Pass", "Counter", "Allow", "Discard", "Destroy", "Retrieve", "Shuffle",
    "BingoState", "Win", "deal", "new_game", "IllegalAction", "ACTIONS",
]


class Land(Enum):
    """A basic land; its value is the colour letter used on Magic cards."""

    PLAINS = "W"
    ISLAND = "U"
    SWAMP = "B"
    MOUNTAIN = "R"
    FOREST = "G"

    def __repr__(self) -> str:
        return self.name

    def __str__(self) -> str:
        return self.value

    # A member is its own only instance, equal to nothing else: its identity is a hash as good
    # as Enum's hash of its name, and needs no Python call (hands and decks are counted at
    # every step of a game).
    __hash__ = object.__hash__

    @property
    def label(self) -> Message:
        """The land's name in a sentence (a message: translated on the site)."""
        return _LAND_NAMES[self]


PLAINS, ISLAND, SWAMP, MOUNTAIN, FOREST = Land
WIN_COUNT = 5
# Translators: the basic lands by their printed names (Plains, Island…), as a sentence names them.
_LAND_NAMES = {PLAINS: msg_p("basic land", "plains"), ISLAND: msg_p("basic land", "island"), SWAMP: msg_p("basic land", "swamp"),
               MOUNTAIN: msg_p("basic land", "mountain"), FOREST: msg_p("basic land", "forest")}


def lands(letters: str) -> tuple[Land, ...]:
    """Lands from colour letters, in order: ``lands("WUB")``.

    >>> lands("WUx")
    Traceback (most recent call last):
    ...
    rulebook.errors.RulebookError: 'x' is not a land letter; use W U B R G
    """
    try:
        return tuple(Land(letter) for letter in letters.replace(" ", ""))
    except ValueError as exc:
        bad = next(ch for ch in letters if ch not in "WUBRG ")
        raise RulebookError(f"{bad!r} is not a land letter; use W U B R G") from exc


def standard_deck() -> tuple[Land, ...]:
    """The 60-card deck, unshuffled: twelve of each basic land."""
    return tuple(land for land in Land for _ in range(12))


_WUBRG = {land: index for index, land in enumerate(Land)}


def _seat(player: int) -> int:
    """A player as the engine tells them: by seat counted from 1 (the state's indexes count from 0)."""
    return player + 1


def _sorted(cards: tuple[Land, ...] | list[Land] | set[Land]) -> tuple[Land, ...]:
    # A hand is a multiset; keeping it in Magic's colour order makes equal hands compare equal.
    return tuple(sorted(cards, key=_WUBRG.__getitem__))


class Phase(Enum):
    TURN = msg("to place or pass")
    COUNTER = msg("may counter")
    SWAMP = msg("discards for the swamp")
    MOUNTAIN = msg("chooses a land to destroy")
    FOREST = msg("chooses a land to take back")
    SHUFFLE = msg("reshuffle (chance)")
    OVER = msg("game over")


@dataclass(frozen=True)
class Place:
    land: Land

    def __str__(self) -> str:
        return f"place {self.land.name.lower()}"

    @property
    def told(self) -> Message:
        # Translators: an action as a refusal names it, before a colon or "is not possible now".
        return msg("playing a land: {land}", land=self.land.label)


@dataclass(frozen=True)
class Pass:
    def __str__(self) -> str:
        return "pass"

    @property
    def told(self) -> Message:
        return msg("passing")


@dataclass(frozen=True)
class Counter:
    """Discard an island and ``other`` to neutralise the land being placed."""

    other: Land

    def __str__(self) -> str:
        return f"counter (island + {self.other.name.lower()})"

    @property
    def told(self) -> Message:
        return msg("countering with an island and a second land: {land}", land=self.other.label)


@dataclass(frozen=True)
class Allow:
    def __str__(self) -> str:
        return "allow"

    @property
    def told(self) -> Message:
        return msg("letting the land be played")


@dataclass(frozen=True)
class Discard:
    land: Land

    def __str__(self) -> str:
        return f"discard {self.land.name.lower()}"

    @property
    def told(self) -> Message:
        return msg("discarding a land: {land}", land=self.land.label)


@dataclass(frozen=True)
class Destroy:
    land: Land

    def __str__(self) -> str:
        return f"destroy {self.land.name.lower()}"

    @property
    def told(self) -> Message:
        return msg("destroying a land: {land}", land=self.land.label)


@dataclass(frozen=True)
class Retrieve:
    land: Land

    def __str__(self) -> str:
        return f"take back {self.land.name.lower()}"

    @property
    def told(self) -> Message:
        return msg("taking back a land: {land}", land=self.land.label)


@dataclass(frozen=True)
class Shuffle:
    """Chance outcome: the new deck order (top first) made of both discard piles."""

    order: tuple[Land, ...]

    def __str__(self) -> str:
        return f"reshuffle into {len(self.order)} cards"

    @property
    def told(self) -> Message:
        return msg_n("a shuffle of {count} card", "a shuffle of {count} cards", len(self.order), count=len(self.order))


#: Every action class, a player's or chance's: each has its handler in BingoState.handlers.
ACTIONS = (Place, Pass, Counter, Allow, Discard, Destroy, Retrieve, Shuffle)


@dataclass(frozen=True)
class Win:
    player: int
    reason: str  # "same-colour" or "five-colours"


# Translators: how a BingoMagic game is won, as in "player 0 wins with {reason}".
_REASONS = {"same-colour": msg("same colour"), "five-colours": msg("five colours")}


def winning_reason(territory: tuple[Land, ...]) -> str | None:
    counts = Tally(territory)
    if max(counts.values(), default=0) >= WIN_COUNT:
        return "same-colour"
    if len(counts) == WIN_COUNT:
        return "five-colours"
    return None


@dataclass(frozen=True)
class BingoState(State):
    deck: tuple[Land, ...]  # top card first
    hands: tuple[tuple[Land, ...], tuple[Land, ...]]
    territories: tuple[tuple[Land, ...], tuple[Land, ...]] = ((), ())
    discards: tuple[tuple[Land, ...], tuple[Land, ...]] = ((), ())
    active: int = 0  # whose turn it is
    phase: Phase = Phase.TURN
    placing: Land | None = None  # the land waiting in the counter window
    drawer: int | None = None  # who draws once the reshuffle is done
    resume: Phase | None = None  # what the reshuffle interrupted: TURN, or None = end of turn
    win: Win | None = None

    unknown_action_rule = "turno"
    actions_are = msg("a BingoMagic action")

    @classmethod
    def setup(cls, hands: tuple[str, str] = ("", ""), territories: tuple[str, str] = ("", ""), discards: tuple[str, str] = ("", ""),
              deck: str = "", active: int = 0) -> BingoState:
        """A position written with colour letters, the active player about to place or pass.

        Lands it does not name are elsewhere; none may appear more often than the deck holds it,
        and an empty deck beside discarded cards cannot be (they would be a new deck already):

        >>> BingoState.setup(hands=("GGGGGG", "GGGGGG"), territories=("G", ""))
        Traceback (most recent call last):
        ...
        rulebook.errors.IllegalAction: [mazzo] a position cannot hold forest 13 times (the pack holds 12)
        >>> BingoState.setup(hands=("G", "W"), discards=("", "UU"))
        Traceback (most recent call last):
        ...
        rulebook.errors.IllegalAction: [rimescolare-quando] the deck is empty while the discard piles hold 2 cards: they are reshuffled into a new deck as soon as the deck runs out
        """
        state = cls(
            deck=lands(deck),
            hands=tuple(_sorted(lands(h)) for h in hands),  # type: ignore[arg-type]  # a pair, as `hands` is: mypy sees any length
            territories=tuple(lands(t) for t in territories),  # type: ignore[arg-type]  # a pair, as above
            discards=tuple(lands(d) for d in discards),  # type: ignore[arg-type]  # a pair, as above
            active=active,
        )
        named = [land for zone in (state.deck, *state.hands, *state.territories, *state.discards) for land in zone]
        if too_many := excess(named, standard_deck()):
            # Apart from the refusal's own call: Babel's extractor loses a message built inside another's arguments.
            each = tuple(msg_n("{land} {count} time (the pack holds {held})", "{land} {count} times (the pack holds {held})", n,
                               land=land.label, count=n, held=held) for land, n, held in too_many)
            raise IllegalAction("mazzo", msg("a position cannot hold {cards}", cards=each))
        if not state.deck and (held := len(state.discards[0] + state.discards[1])):
            raise IllegalAction("rimescolare-quando", msg("the deck is empty while the discard piles hold {held} cards: "
                                                          "they are reshuffled into a new deck as soon as the deck runs out", held=held))
        return state

    # --- the engine shape -------------------------------------------------------------------

    @property
    def current_player(self) -> int:
        if self.phase is Phase.OVER:
            return TERMINAL
        if self.phase is Phase.SHUFFLE:
            return CHANCE
        if self.phase in (Phase.COUNTER, Phase.SWAMP):
            return 1 - self.active
        return self.active

    @property
    def outcome(self) -> Win | None:
        return self.win

    def legal_actions(self) -> list[Action]:
        me = self.current_player
        if me < 0:
            return []
        hand = self.hands[me]
        options = _sorted(set(hand))
        if self.phase is Phase.TURN:
            return [Place(land) for land in options] + [Pass()]
        if self.phase is Phase.COUNTER:
            others = _sorted(set(remove_cards(hand, (ISLAND,)) or ())) if ISLAND in hand else []
            return [Allow()] + [Counter(land) for land in others]
        if self.phase is Phase.SWAMP:
            return [Discard(land) for land in options]
        if self.phase is Phase.MOUNTAIN:
            return [Destroy(land) for land in _sorted(set(self.territories[1 - me]))]
        if self.phase is Phase.FOREST:
            return [Retrieve(land) for land in _sorted(set(self.discards[me]))]
        raise AssertionError(self.phase)

    def chance_outcomes(self) -> Orders | tuple[()]:
        """Every order of both discard piles shuffled together, equally likely."""
        return Orders(self.discards[0] + self.discards[1], Shuffle) if self.is_chance else ()

    # --- actions ---------------------------------------------------------------------------

    def _apply_place(self, action: Place, trace: list[Fired]) -> BingoState:
        self._expect(Phase.TURN, action, "posare")
        if action.land not in self.hands[self.active]:
            raise IllegalAction("posare", msg("player {player} has no {land} in their hand ({hand})", player=_seat(self.active), land=action.land.label,
                                               hand=self._hand(self.active)))
        state = self._move_hand(self.active, action.land)
        trace.append(Fired("posare", msg("player {player} places a {land}", player=_seat(self.active), land=action.land.label)))
        opponent = 1 - self.active
        hand = state.hands[opponent]
        if ISLAND in hand and len(hand) >= 2:
            trace.append(Fired("counter", msg("player {player} may counter it", player=_seat(opponent))))
            return evolve(state, phase=Phase.COUNTER, placing=action.land)
        return state._resolve(action.land, trace)

    def _apply_pass(self, action: Pass, trace: list[Fired]) -> BingoState:
        self._expect(Phase.TURN, action, "passare")
        trace.append(Fired("passare", msg("player {player} passes", player=_seat(self.active))))
        return self._end_turn(trace)

    def _apply_allow(self, action: Allow, trace: list[Fired]) -> BingoState:
        self._expect(Phase.COUNTER, action, "counter")
        assert self.placing is not None
        return evolve(self, phase=Phase.TURN, placing=None)._resolve(self.placing, trace)

    def _apply_counter(self, action: Counter, trace: list[Fired]) -> BingoState:
        self._expect(Phase.COUNTER, action, "counter")
        me = 1 - self.active
        hand = self.hands[me]
        if ISLAND not in hand or action.other not in (remove_cards(hand, (ISLAND,)) or ()):
            raise IllegalAction("counter", msg("player {player} needs two islands in their hand ({hand})", player=_seat(me), hand=self._hand(me))
                                if action.other is ISLAND else
                                msg("player {player} needs an island and a {land} in their hand ({hand})", player=_seat(me), land=action.other.label, hand=self._hand(me)))
        assert self.placing is not None
        hands = replace_at(self.hands, me, remove_cards(hand, (ISLAND, action.other)))
        discards = replace_at(self.discards, me, self.discards[me] + (ISLAND, action.other))
        discards = replace_at(discards, self.active, discards[self.active] + (self.placing,))
        trace.append(Fired("counter", msg("player {player} discards an island and a {land}", player=_seat(me), land=action.other.label)))
        trace.append(Fired("neutralizzata", msg("the {land} is not placed and goes to player {player}'s discards", land=self.placing.label,
                                                  player=_seat(self.active))))
        trace.append(Fired("counter-turno-continua", msg("player {player} has placed no land: still player {player}'s turn", player=_seat(self.active))))
        state = evolve(self, hands=hands, discards=discards, phase=Phase.TURN, placing=None)
        return state if state.deck else state._run_out(Phase.TURN, trace)

    def _apply_discard(self, action: Discard, trace: list[Fired]) -> BingoState:
        self._expect(Phase.SWAMP, action, "palude")
        me = 1 - self.active
        if action.land not in self.hands[me]:
            raise IllegalAction("palude", msg("player {player} has no {land} in their hand ({hand})", player=_seat(me), land=action.land.label, hand=self._hand(me)))
        state = self._move_hand(me, action.land, to_discards=True)
        trace.append(Fired("palude", msg("player {player} discards a {land}", player=_seat(me), land=action.land.label)))
        return evolve(state, phase=Phase.TURN)._end_turn(trace)

    def _apply_destroy(self, action: Destroy, trace: list[Fired]) -> BingoState:
        self._expect(Phase.MOUNTAIN, action, "montagna")
        victim = 1 - self.active
        if action.land not in self.territories[victim]:
            raise IllegalAction("montagna", msg("player {player} controls no {land}", player=_seat(victim), land=action.land.label))
        territories = replace_at(self.territories, victim, remove_cards(self.territories[victim], (action.land,)))
        discards = replace_at(self.discards, victim, self.discards[victim] + (action.land,))
        trace.append(Fired("montagna", msg("player {player}'s {land} is destroyed", player=_seat(victim), land=action.land.label)))
        state = evolve(self, territories=territories, discards=discards, phase=Phase.TURN)
        return state._end_turn(trace)

    def _apply_retrieve(self, action: Retrieve, trace: list[Fired]) -> BingoState:
        self._expect(Phase.FOREST, action, "foresta")
        me = self.active
        if action.land not in self.discards[me]:
            raise IllegalAction("foresta", msg("no {land} in player {player}'s discards", land=action.land.label, player=_seat(me)))
        discards = replace_at(self.discards, me, remove_cards(self.discards[me], (action.land,)))
        hands = replace_at(self.hands, me, _sorted(self.hands[me] + (action.land,)))
        trace.append(Fired("foresta", msg("player {player} takes a {land} back into hand", player=_seat(me), land=action.land.label)))
        state = evolve(self, hands=hands, discards=discards, phase=Phase.TURN)
        return state._end_turn(trace)

    def _apply_shuffle(self, action: Shuffle, trace: list[Fired]) -> BingoState:
        self._expect(Phase.SHUFFLE, action, "rimescolare")
        if Tally(action.order) != Tally(self.discards[0] + self.discards[1]):
            raise IllegalAction("rimescolare", msg("{action} is not an order of the two discard piles", action=action.told))
        trace.append(Fired("rimescolare", msg_n("both discard piles become a new deck of {count} card", "both discard piles become a new deck of {count} cards", len(action.order), count=len(action.order))))
        state = evolve(self, deck=action.order, discards=((), ()), phase=Phase.TURN, drawer=None, resume=None)
        if self.drawer is None:
            # The deck ran out without a draw waiting: the turn goes on, or ends (resume None).
            return state if self.resume is Phase.TURN else state._end_turn(trace)
        # The interrupted draw happens now: the turn's draw, or a plains' draw (resume None).
        rule = "pesca-turno" if self.resume is Phase.TURN else "pianura"
        return state._draw(self.drawer, self.resume, trace, rule=rule)

    # --- what follows an action ------------------------------------------------------------

    def _resolve(self, land: Land, trace: list[Fired]) -> BingoState:
        """The land enters the territory: a win ends the game at once, else its effect."""
        me, opponent = self.active, 1 - self.active
        territories = replace_at(self.territories, me, self.territories[me] + (land,))
        state = evolve(self, territories=territories)
        reason = winning_reason(territories[me])
        if reason:
            trace.append(Fired("vittoria", msg("player {player} wins with {reason}", player=_seat(me), reason=_REASONS.get(reason, reason))))
            return evolve(state, phase=Phase.OVER, win=Win(me, reason))
        if land is PLAINS:
            trace.append(Fired("pianura", msg("player {player} draws a card", player=_seat(me))))
            return state._draw(me, None, trace)
        if land is ISLAND:
            trace.append(Fired("isola", msg("no effect")))
        elif land is SWAMP:
            if state.hands[opponent]:
                return evolve(state, phase=Phase.SWAMP)
            trace.append(Fired("palude-mano-vuota", msg("player {player} has no card to discard", player=_seat(opponent))))
        elif land is MOUNTAIN:
            if state.territories[opponent]:
                return evolve(state, phase=Phase.MOUNTAIN)
            trace.append(Fired("montagna-nessun-bersaglio", msg("player {player} controls no land", player=_seat(opponent))))
        elif land is FOREST:
            if state.discards[me]:
                return evolve(state, phase=Phase.FOREST)
            trace.append(Fired("foresta-scarti-vuoti", msg("player {player}'s discard pile is empty", player=_seat(me))))
        return state._end_turn(trace)

    def _end_turn(self, trace: list[Fired]) -> BingoState:
        following = 1 - self.active
        trace.append(Fired("fine-turno", msg("player {player}'s turn", player=_seat(following))))
        return evolve(self, active=following)._draw(following, Phase.TURN, trace, rule="pesca-turno")

    def _draw(self, player: int, resume: Phase | None, trace: list[Fired], rule: str | None = None) -> BingoState:
        """Draw one card, then go on as ``resume`` says: TURN, or None to end the turn.

        The deck never stays empty while a discard pile holds a card (ruling rimescolare-quando):
        the draw that takes its last card reshuffles the piles at once, and a deck that ran out
        while both piles were empty is refilled before the next draw.
        """
        if not self.deck:
            if self.discards[0] or self.discards[1]:
                return evolve(self, phase=Phase.SHUFFLE, drawer=player, resume=resume)
            trace.append(Fired("rimescolare-vuoto", msg("no card left anywhere to draw")))
            state = self
        else:
            hands = replace_at(self.hands, player, _sorted(self.hands[player] + self.deck[:1]))
            if rule:
                trace.append(Fired(rule, msg("player {player} draws", player=_seat(player))))
            state = evolve(self, deck=self.deck[1:], hands=hands)
            if not state.deck:
                return state._run_out(resume, trace)
        state = evolve(state, drawer=None, resume=None, phase=Phase.TURN)
        return state if resume is Phase.TURN else state._end_turn(trace)

    def _run_out(self, resume: Phase | None, trace: list[Fired]) -> BingoState:
        """The deck has no card left: the discard piles, if any card is in them, become a new
        deck now, before anyone acts again; then play goes on as ``resume`` says."""
        if not (self.discards[0] or self.discards[1]):
            state = evolve(self, drawer=None, resume=None, phase=Phase.TURN)
            return state if resume is Phase.TURN else state._end_turn(trace)
        trace.append(Fired("rimescolare-quando", msg("the deck has run out: both discard piles are reshuffled now")))
        return evolve(self, phase=Phase.SHUFFLE, drawer=None, resume=resume)

    def _move_hand(self, player: int, land: Land, to_discards: bool = False) -> BingoState:
        hands = replace_at(self.hands, player, remove_cards(self.hands[player], (land,)))
        discards = replace_at(self.discards, player, self.discards[player] + (land,)) if to_discards else self.discards
        return evolve(self, hands=hands, discards=discards)

    def _now(self) -> Message:
        """Where the game stands, as a refusal out of turn says it: a sentence on a player's turn,
        where "player 1: to place or pass" after "is not possible now:" chained three colons."""
        if self.phase is Phase.TURN:
            return msg("it is player {player}'s turn to place a land or pass", player=_seat(self.active))
        return super()._now()

    def _who(self) -> Message:
        player = self.current_player
        # Translators: who acts, as a refusal out of turn says it ("player 2: may counter").
        return msg("player {player}", player=_seat(player)) if player >= 0 else msg("nobody")

    def _hand(self, player: int) -> tuple[Message, ...] | Message:
        """A hand as a refusal shows it: the lands by name (the site joins them), or "empty"."""
        return tuple(land.label for land in self.hands[player]) or msg("(empty)")

    def __str__(self) -> str:
        def row(cards: tuple[Land, ...]) -> str:
            return " ".join(str(land) for land in cards) or "-"

        who = self.current_player
        if self.phase is Phase.OVER and self.win:
            head = f"player {_seat(self.win.player)} has won ({self.win.reason})"
        elif who == CHANCE:
            head = self.phase.value
        else:
            head = f"player {_seat(who)} {self.phase.value}"
            if self.placing:
                head += f" the {self.placing.name.lower()}"
        lines = [f"deck {len(self.deck)} | {head}"]
        for p in (0, 1):
            lines.append(f"P{_seat(p)} hand {row(self.hands[p])} | territory {row(self.territories[p])} | discards {row(self.discards[p])}")
        return "\n".join(lines)

    #: Which method applies each action class: the dispatch table ``apply`` reads.
    handlers = {  # noqa: RUF012 - a ClassVar: engines.base.State declares it so
        Place: _apply_place,
        Pass: _apply_pass,
        Allow: _apply_allow,
        Counter: _apply_counter,
        Discard: _apply_discard,
        Destroy: _apply_destroy,
        Retrieve: _apply_retrieve,
        Shuffle: _apply_shuffle,
    }


def deal(deck: tuple[Land, ...], first: int) -> BingoState:
    """The opening position from a shuffled deck: five cards each, ``first`` won the die roll."""
    if Tally(deck) != Tally(standard_deck()):
        raise IllegalAction("mazzo", msg("the deck must hold exactly twelve lands of each colour"))
    if first not in (0, 1):
        raise IllegalAction("preparazione", msg("the first player is 0 or 1, not {first}", first=code(first)))
    hands: list[tuple[Land, ...]] = [(), ()]
    hands[first], hands[1 - first] = _sorted(deck[:5]), _sorted(deck[5:10])
    return BingoState(deck=tuple(deck[10:]), hands=(hands[0], hands[1]), active=first)


def new_game(rng: random.Random, players: int = 2) -> BingoState:
    """Shuffle and roll the die with the caller's rng, then :func:`deal`."""
    if players != 2:
        raise IllegalAction("due-giocatori", msg("BingoMagic is for 2 players, not {players}", players=code(players)))
    deck = list(standard_deck())
    rng.shuffle(deck)
    return deal(tuple(deck), rng.randrange(2))
