"""Planechase (Magic Planare): planar decks, the planar die, roll costs, plane control, leaving.

Rule ids in traces and errors are the ids of ``rules/planechase.yaml``. The engine models what
the Planechase rules decide, not the rest of Magic: seats in turn order (seat ``p + 1`` sits on
the left of seat ``p``), each player's planar deck (its order supplied by the caller: the engine
knows it, no action shows or changes it), the face-up plane with its owner and controller, the
planar die as a chance outcome, roll costs paid from a count of mana, the chaos and
planeswalking abilities waiting on the stack, mulligans, and players leaving. Spells,
creatures and combat stay outside, and so does *why* a player leaves: ``Leave(p)`` is the
moment the rest of Magic takes ``p`` out (a loss or a concession), and ``RollByEffect(card)``
the moment a card's effect makes the active player roll (free, and not counted).

Players are indices from 0 in the code (``Leave(1)``, ``first=2``, ``decks[0]``); every message
and the printed state number the seats as players do, from 1 (``first_seat``), so that a page
never shows a player 0.

A planar deck has at least ten planes, no two with the same English name (CR 901.3);
``setup(..., casual=True)`` allows smaller decks, never a repeated name.

>>> state = started([["Agyrem", "Bant"], ["Krosa", "Shiv"], ["Naya"]], casual=True)
>>> print(state)
turn 1 · player 1 to act · main phase · rolls 0 (next costs {0}) · mana 3
plane Agyrem (player 1's), controlled by player 1
P1 hand 8 · planar deck 1: Bant
P2 hand 7 · planar deck 2: Krosa | Shiv
P3 hand 7 · planar deck 1: Naya
>>> step = state.run(Roll(), PLANESWALKER, Resolve())
>>> step.rules()
['tiro-costo', 'tiro-risposta', 'faccia-planeswalker', 'viaggio-innesca']
>>> print(step.state.plane)
Bant
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from functools import cached_property, lru_cache

from ..errors import IllegalAction
from ..messages import Message, Name, Notation, code, msg, msg_n, msg_p, notation
from .base import CHANCE, TERMINAL, Action, Fired, PrintedName, State, evolve, replace_at, setting_up
from .casting.cards import packaged as magic_cards
from .chance import Outcome, faces
from .planes import NOT_PRINTED, PLANES, PRINTED_NAMES, printed_names

__all__ = [
    "DieFace", "BLANK", "CHAOS", "PLANESWALKER", "DIE", "Plane", "Ability", "Phase",
    "Keep", "Mulligan", "Roll", "RollByEffect", "Resolve", "EndTurn", "Leave", "Win", "Planechase",
    "PLANES", "setup", "started", "new_game", "IllegalAction", "ACTIONS",
]

HAND = 7
MIN_PLAYERS, MAX_PLAYERS = 2, 6
MANA_PER_TURN = 3  # a stand-in for the lands a player taps; examples choose their own
PLANAR_DECK = 10  # the fewest planes of a planar deck (CR 901.3), and what one 2009 game pack holds


class DieFace(Enum):
    """A face of the planar die; the value is the rulebook's symbol token."""

    BLANK = "{BLANK}"
    CHAOS = "{CHAOS}"
    PLANESWALKER = "{PW}"

    def __repr__(self) -> str:
        return self.name

    def __str__(self) -> str:
        return self.value

    @property
    def told(self) -> Message:
        return msg_p("action", "the face {face} of the planar die", face=notation(self.value))


BLANK, CHAOS, PLANESWALKER = DieFace
#: The six faces: one planeswalker symbol, one chaos symbol, four blank faces.
DIE = (PLANESWALKER, CHAOS, BLANK, BLANK, BLANK, BLANK)


@lru_cache(maxsize=None)  # pure: cache.py
def _printed_names(name: str) -> tuple[tuple[str, str], ...]:
    """A plane's names by language, worked out once per plane (every message naming it asks)."""
    printed = PRINTED_NAMES.get(name, {})
    return tuple(({"en": name} | (dict.fromkeys(NOT_PRINTED, name) if printed else {}) | printed).items())


@dataclass(frozen=True)
class Plane:
    """A plane card; its owner (the seat whose planar deck it came from) never changes."""

    name: str
    owner: int

    @property
    def names(self) -> dict[str, str]:
        """The printed name in each language (:mod:`.planes`); a name the data does not hold, in English only."""
        return dict(_printed_names(self.name))

    @property
    def unprinted(self) -> tuple[str, ...]:
        """The languages no printing of the plane exists in (:data:`.planes.NOT_PRINTED`): the English name stays."""
        return NOT_PRINTED if self.name in PRINTED_NAMES else ()

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class Ability:
    """A triggered ability waiting on the stack: ``kind`` is "chaos" or "planeswalk"."""

    kind: str
    plane: Plane
    controller: int

    @cached_property
    def said(self) -> Message:
        """The ability as the engine's messages name it (a whole phrase for each kind, so that a
        translation can inflect it); made once per ability."""
        if self.kind == "chaos":
            return msg("chaos ability of {plane} (controlled by player {controller})", plane=self.plane, controller=self.controller + 1)
        return msg("planeswalking ability of {plane} (controlled by player {controller})", plane=self.plane, controller=self.controller + 1)

    def __str__(self) -> str:
        return str(self)


class Phase(Enum):
    _value_: Message  # what the phase is called in a refusal out of turn

    MULLIGAN = msg("to keep or mulligan")
    MAIN = msg("main phase")
    ROLLING = msg("the planar die is rolling (chance)")
    OVER = msg("game over")

    def __repr__(self) -> str:
        return f"Phase.{self.name}"


# Each action's ``told``: the action as a refusal names it to a player (a noun phrase, issue 26),
# never its Python call.
@dataclass(frozen=True)
class Keep:
    told = msg_p("action", "keeping the hand")

    def __str__(self) -> str:
        return "keep"


@dataclass(frozen=True)
class Mulligan:
    told = msg_p("action", "a mulligan")

    def __str__(self) -> str:
        return "mulligan"


@dataclass(frozen=True)
class Roll:
    """Pay the roll cost and roll the planar die; the face is the chance outcome that follows."""

    told = msg_p("action", "a roll of the planar die")

    def __str__(self) -> str:
        return "roll the planar die"


@dataclass(frozen=True)
class RollByEffect:
    """An effect makes the active player roll the planar die (Fractured Powerstone's ability, as it
    resolves, the stack otherwise empty): no cost, and it does not count toward the cost of the
    next :class:`Roll`. No player chooses it, so ``legal_actions`` never offers it. ``source`` is
    the card's English name, a card of the Magic card data (:mod:`.casting.cards`), so that the
    proof names it as it is printed in the reader's language."""

    source: str

    @property
    def told(self) -> Message:
        card = magic_cards()[self.source] if isinstance(self.source, str) and self.source in magic_cards() else None
        return msg_p("action", "a roll of the planar die made by {source}", source=card if card is not None else Name.of({"en": str(self.source)}))

    def __str__(self) -> str:
        return f"roll the planar die ({self.source})"


@dataclass(frozen=True)
class Resolve:
    """Every player passes in turn: the top ability of the stack resolves."""

    told = msg_p("action", "resolving the top ability of the stack")

    def __str__(self) -> str:
        return "resolve"


@dataclass(frozen=True)
class EndTurn:
    told = msg_p("action", "ending the turn")

    def __str__(self) -> str:
        return "end the turn"


@dataclass(frozen=True)
class Leave:
    """``player`` leaves the game (loses or concedes: decided by the rest of Magic)."""

    player: int

    @property
    def told(self) -> Message:
        seat = self.player + 1 if isinstance(self.player, int) else code(self.player)
        return msg_p("action", "player {player} leaving the game", player=seat)

    def __str__(self) -> str:
        return f"player {self.player} leaves the game"


#: Every action class, a player's or chance's (the die face): each has its handler in Planechase.handlers.
ACTIONS = (Keep, Mulligan, Roll, RollByEffect, DieFace, Resolve, EndTurn, Leave)


@dataclass(frozen=True)
class Win:
    player: int


def _mana(amount: int) -> Notation:
    """A generic mana cost as the cards print it (``{2}``), shown as the mana symbol."""
    return notation(f"{{{amount}}}")


@dataclass(frozen=True)
class Planechase(State):
    decks: tuple[tuple[str, ...], ...]  # each seat's planar deck, top card first
    first: int = 0  # who starts: mulligans, the first plane and the first turn
    hands: tuple[int, ...] = ()  # hand sizes only: the cards themselves are ordinary Magic
    mulligans: tuple[int, ...] = ()
    kept: frozenset[int] = frozenset()
    gone: tuple[int, ...] = ()  # seats that left, in the order they left
    plane: Plane | None = None  # the face-up plane in the command zone
    controller: int | None = None  # who controls it ("you" on the card)
    active: int = 0  # whose turn it is (that seat may have left: the turn goes on)
    turn: int = 0
    rolls: int = 0  # rolls made by the active player this turn
    mana: int = 0  # mana the active player still has this turn
    mana_per_turn: int = MANA_PER_TURN
    stack: tuple[Ability, ...] = ()  # bottom first, top last
    phase: Phase = Phase.MULLIGAN
    winner: int | None = None

    unknown_action_rule = "piano-a-faccia-in-su"
    actions_are = msg("a Planechase action")
    first_seat = 1

    # --- what the rules compute ------------------------------------------------------------

    @property
    def players(self) -> int:
        return len(self.decks)

    @property
    def multiplayer(self) -> bool:
        # Three or more players at the start (ruling multiplayer): decks keeps a slot for every seat, left or not.
        return self.players >= 3

    @property
    def in_game(self) -> tuple[int, ...]:
        if not self.gone:  # most of a game, and asked for at every step
            return tuple(range(self.players))
        return tuple(p for p in range(self.players) if p not in self.gone)

    @property
    def roll_cost(self) -> int:
        """Generic mana the next roll costs: one for each roll already made this turn."""
        return self.rolls

    def next_player(self, seat: int) -> int | None:
        """The first seat still in the game to the left of ``seat`` (never ``seat`` itself)."""
        for step in range(1, self.players):
            candidate = (seat + step) % self.players
            if candidate not in self.gone:
                return candidate
        return None

    # --- the engine shape ------------------------------------------------------------------

    @property
    def current_player(self) -> int:
        if self.phase is Phase.OVER:
            return TERMINAL
        if self.phase is Phase.ROLLING:
            return CHANCE
        if self.phase is Phase.MULLIGAN:
            return next(p for p in self._seats_from(self.first) if p not in self.kept)
        if self.active in self.gone:  # the turn goes on without its player (uscita-turno-chi)
            return self.next_player(self.active)  # type: ignore[return-value]  # None only once the game is over, decided above
        return self.active

    @property
    def outcome(self) -> Win | None:
        return None if self.winner is None else Win(self.winner)

    def legal_actions(self) -> list[Action]:
        if self.phase is Phase.MULLIGAN:
            # CR 104.3a: a player may concede at any time, the mulligans included.
            return [Keep()] + ([Mulligan()] if self.hands[self.current_player] else []) + [Leave(p) for p in self.in_game]
        if self.phase is not Phase.MAIN:
            return []
        leaving = [Leave(p) for p in self.in_game]
        if self.stack:
            return [Resolve()] + leaving
        can_roll = self.active not in self.gone and self.mana >= self.roll_cost
        return ([Roll()] if can_roll else []) + [EndTurn()] + leaving

    def chance_outcomes(self) -> tuple[Outcome, ...]:
        """The planar die's three kinds of face, each with its share of the six faces."""
        return faces([(face, 1) for face in DIE]) if self.phase is Phase.ROLLING else ()

    # --- mulligans and the first plane -----------------------------------------------------

    def _apply_keep(self, action: Keep, trace: list[Fired]) -> Planechase:
        self._expect(Phase.MULLIGAN, action, "mano-iniziale")
        me = self.current_player
        trace.append(Fired("mano-iniziale", msg_n("player {player} keeps a hand of {hands} card", "player {player} keeps a hand of {hands} cards", self.hands[me], player=self.seat(me), hands=self.hands[me])))
        return evolve(self, kept=self.kept | {me})._after_mulligans(trace)

    def _after_mulligans(self, trace: list[Fired]) -> Planechase:
        """Once every player still in the game has kept a hand, the first plane and the first turn."""
        if not set(self.in_game) <= self.kept:
            return self
        return self._turn_over_first_plane(trace)._begin_turn(self.first, trace)

    def _apply_mulligan(self, action: Mulligan, trace: list[Fired]) -> Planechase:
        self._expect(Phase.MULLIGAN, action, "mano-iniziale")
        me = self.current_player
        if not self.hands[me]:
            raise IllegalAction("mulligan-ordine", msg("player {player} has no card left to mulligan; they must keep", player=self.seat(me)))
        taken = self.mulligans[me] + 1
        free = 1 if self.multiplayer else 0
        size = max(0, HAND - max(0, taken - free))
        if self.multiplayer and taken == 1:
            trace.append(Fired("mulligan-multiplayer", msg_n("player {player}'s first mulligan: a new hand of {size} card", "player {player}'s first mulligan: a new hand of {size} cards", size, player=self.seat(me), size=size)))
        else:
            trace.append(Fired("mulligan-consueto", msg_n("player {player}'s mulligan number {taken}: a new hand of {size} card", "player {player}'s mulligan number {taken}: a new hand of {size} cards", size, player=self.seat(me), taken=taken, size=size)))
        return evolve(self, hands=replace_at(self.hands, me, size), mulligans=replace_at(self.mulligans, me, taken))

    def _turn_over_first_plane(self, trace: list[Fired]) -> Planechase:
        plane = Plane(self.decks[self.first][0], self.first)
        trace.append(Fired("primo-piano", msg("player {first} turns over {plane}; no 'when you planeswalk to' ability triggers: the game has not begun", first=self.seat(self.first), plane=plane)))
        decks = replace_at(self.decks, self.first, self.decks[self.first][1:])
        return evolve(self, decks=decks, plane=plane, controller=self.first)

    # --- turns -----------------------------------------------------------------------------

    def _apply_endturn(self, action: EndTurn, trace: list[Fired]) -> Planechase:
        self._expect(Phase.MAIN, action, "turni")
        if self.stack:
            raise IllegalAction("turni", msg("the turn can't end while an ability waits on the stack: {stack}", stack=self.stack[-1].said))
        following = self.next_player(self.active)
        assert following is not None  # at least two players remain while the game goes on
        trace.append(Fired("turni", msg("player {player}'s turn ends; the turn passes to the left", player=self.seat(self.active))))
        return self._begin_turn(following, trace)

    def _begin_turn(self, player: int, trace: list[Fired]) -> Planechase:
        turn = self.turn + 1
        state = evolve(self, active=player, turn=turn, rolls=0, mana=self.mana_per_turn, phase=Phase.MAIN)
        trace.append(Fired("turni", msg("turn {turn} begins: player {player}'s", turn=turn, player=self.seat(player))))
        if self.controller != player:
            trace.append(Fired("proprietario-controllore", msg("player {player} now controls {plane}", player=self.seat(player), plane=self.plane)))
            state = evolve(state, controller=player)
        if turn == 1 and not self.multiplayer:
            trace.append(Fired("prima-pescata-due", msg("player {player} skips the draw of the game's first turn", player=self.seat(player))))
            return state
        hands = replace_at(self.hands, player, self.hands[player] + 1)
        rule = "prima-pescata" if turn == 1 else "turni"
        trace.append(Fired(rule, msg("player {player} draws (hand {hands})", player=self.seat(player), hands=hands[player])))
        return evolve(state, hands=hands)

    # --- the planar die --------------------------------------------------------------------

    def _apply_roll(self, action: Roll, trace: list[Fired]) -> Planechase:
        self._expect(Phase.MAIN, action, "tiro-quando")
        if self.active in self.gone:
            raise IllegalAction("tiro-quando", msg("only the active player rolls the planar die, and player {player} has left the game", player=self.seat(self.active)))
        if self.stack:
            raise IllegalAction("tiro-quando", msg("the planar die is rolled only with an empty stack, when a sorcery could be cast; waiting on the stack: {stack}", stack=self.stack[-1].said))
        cost, number = self.roll_cost, self.rolls + 1
        if self.mana < cost:
            raise IllegalAction("tiro-costo", msg_n("roll number {number} this turn costs {cost}; player {player} has {mana} mana",
                                                     "roll number {number} this turn costs {cost}; player {player} has {mana} mana", self.mana,
                                                     number=number, cost=_mana(cost), player=self.seat(self.active), mana=self.mana))
        trace.append(Fired("tiro-costo", msg("player {player} pays {cost} for roll number {number} this turn", player=self.seat(self.active), cost=_mana(cost), number=number)))
        trace.append(Fired("tiro-risposta", msg("the die is rolled at once: nobody can respond to the roll")))
        return evolve(self, rolls=number, mana=self.mana - cost, phase=Phase.ROLLING)

    def _apply_rollbyeffect(self, action: RollByEffect, trace: list[Fired]) -> Planechase:
        self._expect(Phase.MAIN, action, "tiro-effetto")
        if not (isinstance(action.source, str) and action.source.strip()):
            raise IllegalAction("tiro-effetto", msg("an effect that rolls the planar die is a card's: name the card"))
        if action.source not in magic_cards():
            raise IllegalAction("tiro-effetto", msg("no Magic card is called {source}: name a card of the card data", source=Name.of({"en": action.source})))
        if self.active in self.gone:
            raise IllegalAction("tiro-effetto", msg("the effect is the active player's, and player {player} has left the game", player=self.seat(self.active)))
        if self.stack:
            # Fractured Powerstone's ability is activated as a sorcery: nothing is left under it as it resolves.
            raise IllegalAction("tiro-effetto", msg("an effect rolls the planar die as it resolves, with nothing under it on the stack; waiting on the stack: {stack}", stack=self.stack[-1].said))
        trace.append(Fired("tiro-effetto", msg("{source} makes player {player} roll the planar die: it costs nothing and does not count toward the cost of the next roll, still {roll_cost}", source=magic_cards()[action.source], player=self.seat(self.active), roll_cost=_mana(self.roll_cost))))
        trace.append(Fired("tiro-risposta", msg("the die is rolled at once: nobody can respond to the roll")))
        return evolve(self, phase=Phase.ROLLING)

    def _apply_dieface(self, face: DieFace, trace: list[Fired]) -> Planechase:
        self._expect(Phase.ROLLING, face, "tiro-risposta")
        assert self.plane is not None
        assert self.controller is not None
        state = evolve(self, phase=Phase.MAIN)
        if face is BLANK:
            trace.append(Fired("faccia-vuota", msg("{face}: nothing happens", face=notation(face.value))))
            return state
        # The kind's words are a message whose English text is the kind itself.
        kind, rule = (msg_p("planar ability", "chaos"), "faccia-caos") if face is CHAOS else (
            msg_p("planar ability", "planeswalk"), "faccia-planeswalker")
        ability = Ability(str(kind), self.plane, self.controller)
        trace.append(Fired(rule, msg("{face}: the {kind} ability of {plane} triggers and waits on the stack", face=notation(face.value), kind=kind, plane=self.plane)))
        return evolve(state, stack=self.stack + (ability,))

    def _apply_resolve(self, action: Resolve, trace: list[Fired]) -> Planechase:
        self._expect(Phase.MAIN, action, "faccia-caos")
        if not self.stack:
            raise IllegalAction("faccia-caos", msg("nothing to resolve: no ability is waiting on the stack"))
        ability, state = self.stack[-1], evolve(self, stack=self.stack[:-1])
        if ability.kind == "chaos":
            rule = "faccia-caos" if ability.plane == self.plane else "caos-resta"
            trace.append(Fired(rule, msg("the chaos ability of {plane} resolves; its 'you' is player {controller}", plane=ability.plane, controller=self.seat(ability.controller))))
            return state
        old = self.plane
        assert old is not None
        decks = replace_at(self.decks, old.owner, self.decks[old.owner] + (old.name,))
        trace.append(Fired("faccia-planeswalker", msg("{old} goes to the bottom of player {owner}'s planar deck", old=old, owner=self.seat(old.owner))))
        return evolve(state, decks=decks)._turn_over(ability.controller, old, "faccia-planeswalker", trace)

    def _turn_over(self, player: int, old: Plane, rule: str, trace: list[Fired]) -> Planechase:
        """``player`` turns over their top planar card: planeswalking from ``old`` to it."""
        deck = self.decks[player]
        assert deck, "a player's cards are in their deck whenever the face-up plane is not theirs"
        new = Plane(deck[0], player)
        trace.append(Fired(rule, msg("player {player} turns over {new}", player=self.seat(player), new=new)))
        trace.append(Fired("viaggio-innesca", msg("planeswalking from {old} to {new}: their 'when you planeswalk' abilities trigger", old=old, new=new)))
        return evolve(self, decks=replace_at(self.decks, player, deck[1:]), plane=new)

    # --- leaving the game ------------------------------------------------------------------

    def _apply_leave(self, action: Leave, trace: list[Fired]) -> Planechase:
        self._expect((Phase.MULLIGAN, Phase.MAIN), action, "uscita-quando")
        who = action.player
        if who not in self.in_game:
            raise IllegalAction("uscita", msg("player {player} is not in the game and can't leave it", player=self.seat(who) if isinstance(who, int) else code(who)))
        trace.append(Fired("uscita", msg("player {player} leaves the game", player=self.seat(who))))
        if self.phase is Phase.MULLIGAN:
            return self._leave_before_play(who, trace)
        state = self
        if self.controller == who:
            heir = self.next_player(who)
            assert heir is not None  # two players at least are in the game while it goes on
            trace.append(Fired("uscita-controllore-piano", msg("player {player} takes control of {plane} just before player {player2} leaves", player=self.seat(heir), plane=self.plane, player2=self.seat(who))))
            state = evolve(state, controller=heir)
        for ability in state.stack:
            if ability.controller == who:
                trace.append(Fired("uscita-abilita", msg("the {ability} ceases to exist", ability=ability.said)))
        stack = tuple(a for a in state.stack if a.controller != who)
        if self.decks[who]:
            count = len(self.decks[who])
            trace.append(Fired("uscita", msg_n("player {player}'s planar deck ({count} card) leaves with them", "player {player}'s planar deck ({count} cards) leaves with them", count, player=self.seat(who), count=count)))
        state = evolve(state, stack=stack, decks=replace_at(self.decks, who, ()), gone=self.gone + (who,))
        if state.plane is not None and state.plane.owner == who:
            state = state._owner_left(trace)
        if who == self.active:
            trace.append(Fired("uscita-turno", msg("player {player}'s turn goes on without them", player=self.seat(who))))
        if len(state.in_game) == 1:
            return state._last_one_wins(trace)
        return state

    def _leave_before_play(self, who: int, trace: list[Fired]) -> Planechase:
        """A player leaves during the mulligans (CR 104.3a): no plane is face up and nothing waits
        on the stack; their planar deck leaves with them, and if they were to start, the next
        player still in the game to their left starts instead (ruling uscita-mulligan)."""
        if self.decks[who]:
            count = len(self.decks[who])
            trace.append(Fired("uscita", msg_n("player {player}'s planar deck ({count} card) leaves with them", "player {player}'s planar deck ({count} cards) leaves with them", count, player=self.seat(who), count=count)))
        state = evolve(self, decks=replace_at(self.decks, who, ()), gone=self.gone + (who,))
        if len(state.in_game) == 1:
            return state._last_one_wins(trace)
        if who == self.first:
            first = state.next_player(who)
            assert first is not None  # more than one player is left (above)
            trace.append(Fired("uscita-mulligan", msg("player {player} left before the first turn: player {first} starts instead", player=self.seat(who), first=self.seat(first))))
            state = evolve(state, first=first)
        return state._after_mulligans(trace)

    def _last_one_wins(self, trace: list[Fired]) -> Planechase:
        winner = self.in_game[0]
        trace.append(Fired("vittoria", msg("player {player} is the last player left and wins", player=self.seat(winner))))
        return evolve(self, phase=Phase.OVER, winner=winner)

    def _owner_left(self, trace: list[Fired]) -> Planechase:
        old, controller = self.plane, self.controller
        assert old is not None
        assert controller is not None
        trace.append(Fired("uscita-proprietario-piano", msg("{old} leaves the game with its owner", old=old)))
        for ability in self.stack:
            if ability.kind == "planeswalk":
                trace.append(Fired("uscita-proprietario-piano", msg("the {ability} ceases to exist", ability=ability.said)))
            else:
                trace.append(Fired("caos-resta", msg("the {ability} stays on the stack", ability=ability.said)))
        stack = tuple(a for a in self.stack if a.kind != "planeswalk")
        return evolve(self, stack=stack)._turn_over(controller, old, "uscita-proprietario-piano", trace)

    # --- helpers ---------------------------------------------------------------------------

    def _seats_from(self, seat: int) -> list[int]:
        return [(seat + i) % self.players for i in range(self.players) if (seat + i) % self.players not in self.gone]

    def _now(self) -> Message:
        return self._headline()

    def _headline(self) -> Message:
        """Where the game stands, as a refusal out of turn and the state's first line say it."""
        who = self.current_player
        if self.phase is Phase.OVER:
            assert self.winner is not None  # the game ends only with a winner (_last_one_wins)
            return msg("game over, player {winner} has won", winner=self.seat(self.winner))
        if self.phase is Phase.ROLLING:
            return Phase.ROLLING.value
        if self.phase is Phase.MULLIGAN:
            return msg("mulligans · player {player} to keep or mulligan", player=self.seat(who))
        return msg("turn {turn} · player {player} to act · main phase · rolls {rolls} (next costs {cost}) · mana {mana}",
                   turn=self.turn, player=self.seat(who), rolls=self.rolls, cost=notation(f"{{{self.roll_cost}}}"), mana=self.mana)

    def __str__(self) -> str:
        lines: list[str] = [self._headline()]
        if self.plane is not None:
            assert self.controller is not None  # a face-up plane has a controller
            lines.append(f"plane {self.plane} (player {self.seat(self.plane.owner)}'s), controlled by player {self.seat(self.controller)}")
        if self.stack:
            lines.append("stack (top first): " + "; ".join(str(a) for a in reversed(self.stack)))
        for p in range(self.players):
            if p in self.gone:
                lines.append(f"P{self.seat(p)} has left the game")
                continue
            deck = " | ".join(self.decks[p]) or "-"
            extra = f" · mulligans {self.mulligans[p]}" if self.phase is Phase.MULLIGAN else ""
            lines.append(f"P{self.seat(p)} hand {self.hands[p]}{extra} · planar deck {len(self.decks[p])}: {deck}")
        return "\n".join(lines)

    #: Which method applies each action class: the dispatch table ``apply`` reads.
    handlers = {  # noqa: RUF012 - a ClassVar: engines.base.State declares it so
        Keep: _apply_keep,
        Mulligan: _apply_mulligan,
        EndTurn: _apply_endturn,
        Roll: _apply_roll,
        RollByEffect: _apply_rollbyeffect,
        DieFace: _apply_dieface,
        Resolve: _apply_resolve,
        Leave: _apply_leave,
    }


def _check_deck(seat: int, deck: object, casual: bool) -> None:
    """CR 901.3: at least ten planes, no two with the same English name. In casual play (ruling
    mazzo-planare-informale) fewer will do, one at least; a repeated name never."""
    if isinstance(deck, str) or not isinstance(deck, Sequence) or not deck or not all(isinstance(name, str) and name.strip() for name in deck):
        raise IllegalAction("mazzo-planare-composizione", msg("player {player}'s planar deck must be a non-empty list of plane names, not {deck}", player=seat + 1, deck=code(deck)))
    repeated = sorted({name for name in deck if deck.count(name) > 1})
    if repeated:
        raise IllegalAction("mazzo-planare-composizione", msg_n("player {player}'s planar deck holds {repeated} {count} time: no two cards of a planar deck may have the same English name (CR 901.3)",
                                                          "player {player}'s planar deck holds {repeated} {count} times: no two cards of a planar deck may have the same English name (CR 901.3)",
                                                          deck.count(repeated[0]), player=seat + 1, repeated=Name.of({"en": repeated[0]}), count=deck.count(repeated[0])))
    if len(deck) < PLANAR_DECK and not casual:
        raise IllegalAction("mazzo-planare-composizione", msg_n("player {player}'s planar deck has {count} plane: it needs at least {PLANAR_DECK} (CR 901.3), unless the table agrees on smaller decks (a casual game)",
                                                          "player {player}'s planar deck has {count} planes: it needs at least {PLANAR_DECK} (CR 901.3), unless the table agrees on smaller decks (a casual game)",
                                                          len(deck), player=seat + 1, count=len(deck), PLANAR_DECK=PLANAR_DECK))


def setup(decks: Sequence[Sequence[str]], first: int = 0, mana_per_turn: int = MANA_PER_TURN, *, casual: bool = False) -> Planechase:
    """The game before the mulligans: each seat's planar deck (top first, already shuffled)
    and the player who starts. Seats are numbered in turn order. ``casual=True`` allows the
    smaller planar decks of ruling mazzo-planare-informale."""
    if not MIN_PLAYERS <= len(decks) <= MAX_PLAYERS:
        raise IllegalAction("giocatori-numero", msg("Planechase is played by {MIN_PLAYERS} to {MAX_PLAYERS} players, not {count}", MIN_PLAYERS=MIN_PLAYERS, MAX_PLAYERS=MAX_PLAYERS, count=code(len(decks))))
    for seat, deck in enumerate(decks):
        _check_deck(seat, deck, casual)
    if not (isinstance(first, int) and 0 <= first < len(decks)):
        raise IllegalAction("primo-giocatore", msg("the first player is a seat index from 0 to {value}, not {first}", value=len(decks) - 1, first=code(first)))
    n = len(decks)
    return Planechase(decks=tuple(tuple(d) for d in decks), first=first,
                      hands=(HAND,) * n, mulligans=(0,) * n, mana_per_turn=mana_per_turn)


def started(decks: Sequence[Sequence[str]], first: int = 0, mana_per_turn: int = MANA_PER_TURN, *, casual: bool = False) -> Planechase:
    """:func:`setup`, then every player keeps their seven: the first turn's main phase."""
    state = setup(decks, first, mana_per_turn, casual=casual)
    with setting_up() as told:
        while state.phase is Phase.MULLIGAN:
            state = state.apply(Keep()).state
        assert state.plane is not None
        # Every example that starts this way opens with the same steps: a page tells them in one line.
        told.append(Fired("mano-iniziale", msg(
            "set-up: every player keeps a hand of seven; player {first} turns over {plane} and plays the first turn",
            first=state.seat(state.first), plane=state.plane)))
    return state


def new_game(rng: random.Random, players: int = 2) -> Planechase:
    """Ten different planes per player, shuffled, and a random first player, with the caller's rng.

    Random seating needs nothing more: seats are simply numbered in turn order.
    """
    if not isinstance(players, int) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise IllegalAction("giocatori-numero", msg("Planechase is played by {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}", MIN_PLAYERS=MIN_PLAYERS, MAX_PLAYERS=MAX_PLAYERS, players=code(players)))
    decks = [rng.sample(PLANES, PLANAR_DECK) for _ in range(players)]
    return setup(decks, first=rng.randrange(players))


def names() -> tuple[PrintedName, ...]:
    """The printed names of the forty planes (:mod:`.planes`): the translation glossary binds
    every translation to them (docs/engines.md, "What an engine supplies")."""
    return printed_names()
