"""The state of La Strage degli Innocenti and its turns: action points, orcs, massacre, the end.

Rule and ruling ids in traces and errors are the ids of ``rules/strage.yaml``. The optional
magic rules' handlers are in :mod:`.magic`; this class lists them in its handler table.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import ClassVar

from ...errors import IllegalAction
from ...figures import BoardFigure, Piece
from ...messages import Message, code, msg, msg_n, msg_p, notation
from ..base import CHANCE, TERMINAL, Action, Fired, State, evolve, replace_at
from ..chance import Orders, Outcome, faces
from . import board
from . import magic as magic_rules
from .actions import Attack, End, Move, MoveOrc, OrcAttack, Place, PlaceOrc, Result, Roll, winner_of
from .board import ALONE, CLANS, ESCORTING, NOTHING, ORC, SPRITE, Phase, at, put
from .cards import SPELLS, Accept, Breach, Insist, Magic, Oppose, Shuffle, Yield

MAX_PLACED = 2  # half-elves a player may put on the map in one turn
HIT = 5  # a combat or orc attack roll of 5 or 6 eliminates the victim
MASSACRE_HIT = 6  # an unescorted sprite next to an orc dies on a 6


CHANCE_PHASES = (Phase.ORDER, Phase.AP, Phase.SHUFFLE, Phase.COMBAT, Phase.ORC_ROLL, Phase.MASSACRE)
# The actions legal_actions offers, each made once: they are immutable values of a few squares
# (a few thousand in all), and every decision of a game lists dozens of them again.
_PLACE, _MOVE, _ATTACK, _PLACE_ORC, _MOVE_ORC, _ORC_ATTACK = (lru_cache(maxsize=None)(Place), lru_cache(maxsize=None)(Move), lru_cache(maxsize=None)(Attack), lru_cache(maxsize=None)(PlaceOrc), lru_cache(maxsize=None)(MoveOrc), lru_cache(maxsize=None)(OrcAttack))  # pure: cache.py


# --- the state -------------------------------------------------------------------------------

START = "s" * 16 + "." * 48  # the sprites fill the placement area; everyone else waits off the map


def _and(clans: Iterable[Message]) -> Message:
    """Clans tied on a roll: "red and green", "red and green and blue"."""
    *first, last = clans
    # Translators: clans tied on a roll, e.g. "red and green".
    return msg("{clans} and {clan}", clans=_and(first), clan=last) if first else last


def _moved(clan: Message, start: str, end: str, *, leaving: bool, joining: bool) -> Message:
    """A half-elf's move without escort: whether it leaves its sprite behind, joins one, or both."""
    if leaving and joining:
        return msg("{clan} half-elf {start}-{end}, leaving its sprite, joining the sprite there", clan=clan, start=notation(start), end=notation(end))
    if leaving:
        return msg("{clan} half-elf {start}-{end}, leaving its sprite", clan=clan, start=notation(start), end=notation(end))
    if joining:
        return msg("{clan} half-elf {start}-{end}, joining the sprite there", clan=clan, start=notation(start), end=notation(end))
    return msg("{clan} half-elf {start}-{end}", clan=clan, start=notation(start), end=notation(end))


@lru_cache(maxsize=None)  # pure: cache.py
def _pieces(square: str, letter: str) -> tuple[Piece, ...]:
    """What the figure draws for one cell (at most 64 squares × 10 letters: made once each)."""
    if letter == ORC:
        return (Piece(square, "orc", name=board.ORC_NAME, letter=board.ORC_LETTER),)
    sprite = Piece(square, "sprite", name=board.SPRITE_NAME, letter=board.SPRITE_LETTER)
    if letter == SPRITE:
        return (sprite,)
    owner = board.clan_of(letter)
    assert owner is not None
    half_elf = Piece(square, "half-elf", str(CLANS[owner]), name=board.HALF_ELF[owner], letter=board.HALF_ELF_LETTER)
    return (sprite, half_elf) if letter in ESCORTING else (half_elf,)  # the sprite first: the half-elf stands over it

@dataclass(frozen=True)
class StrageState(State):
    players: int = 3
    cells: str = START
    saved: tuple[int, ...] = (0, 0, 0)
    ranking: tuple[tuple[int, ...], ...] = ((0, 1, 2),)  # groups still tied while rolling for it
    rolls: tuple[int, ...] = ()  # the rolls so far of the tied group being decided
    active: int = 0
    turn: int = 0  # turns begun
    phase: Phase = Phase.ORDER
    ap: int = 0
    placed: int = 0  # half-elves put on the map this turn
    fought: bool = False  # the one combat of the turn has been tried
    acted: bool = False  # a half-elf has moved or fought this turn: placing is over (ruling collocare-prima)
    attack: tuple[str, str] | None = None  # (attacker, target) waiting for its roll
    massacre: tuple[str, ...] = ()  # sprites still to roll in the massacre
    arrows: tuple[tuple[str, str], ...] = ()  # this turn's moves, for the figure
    marks: tuple[str, ...] = ()  # squares to highlight: the sprites that rolled in the massacre
    magic: Magic | None = None  # the optional magic rules, when played

    unknown_action_rule = "fasi"
    actions_are = "an action of La Strage degli Innocenti"

    @classmethod
    def setup(cls, *, sprites: str = "", orcs: str = "", red: str = "", green: str = "", blue: str = "",
              yellow: str = "", players: int = 3, active: int = 0, ap: int | None = None,
              saved: Sequence[int] | None = None,
              hands: Sequence[str] | None = None, deck: str = "", discards: str = "",
              immunities: Sequence[str] | None = None) -> StrageState:
        """A position in the middle of a game, squares separated by spaces.

        A half-elf on a sprite's square escorts it. Turn order is red, green, blue; ``active``
        plays, about to roll for action points, or with ``ap`` points ready to spend. Sprites
        neither on the map nor ``saved`` count as killed; ``hands`` turns the magic rules on.
        """
        cells = board.EMPTY
        for square in sprites.split():
            cells = put(cells, square, SPRITE)
        for square in orcs.split():
            if at(cells, square) != NOTHING:
                raise IllegalAction("materiale", msg("{square} cannot hold an orc and another piece", square=code(square)))
            cells = put(cells, square, ORC)
        for player, squares in enumerate((red, green, blue, yellow)):
            for square in squares.split():
                here = at(cells, square)
                if here not in (NOTHING, SPRITE):
                    raise IllegalAction("materiale", msg("{square} already holds {here}", square=code(square), here=code(here)))
                cells = put(cells, square, (ESCORTING if here == SPRITE else ALONE)[player])
        saved = tuple(saved or (0,) * players)
        state = cls(players=players, cells=cells, saved=saved,
                    ranking=tuple((p,) for p in range(players)), active=active, turn=1,
                    phase=Phase.AP if ap is None else Phase.ACTIONS, ap=ap or 0)
        if hands is not None:
            state = evolve(state, magic=Magic.setup(hands, deck=deck, discards=discards, immunities=immunities))
        state._check()
        return state

    def _check(self) -> None:
        if self.killed < 0:
            raise IllegalAction("materiale", msg("{sprites} sprites in all: {on_map} on the map, {saved} saved, {killed} killed", sprites=board.SPRITES, on_map=self.sprites_on_map, saved=sum(self.saved), killed=self.killed))
        if self.orcs_off_map < 0 or min(self.half_elves_off_map(p) for p in range(self.players)) < 0:
            raise IllegalAction("materiale", msg("{orcs} orcs and {half_elves} half-elves per clan at most", orcs=board.ORCS, half_elves=board.HALF_ELVES))

    # --- counts ------------------------------------------------------------------------------

    @property
    def sprites_on_map(self) -> int:
        return board.count(self.cells, SPRITE + ESCORTING)

    @property
    def killed(self) -> int:
        """Sprites eliminated: every sprite of the box neither on the map nor saved."""
        return board.SPRITES - self.sprites_on_map - sum(self.saved)

    @property
    def order(self) -> tuple[int, ...]:
        """The turn order, once rolled: () while some players are still tied."""
        if any(len(group) > 1 for group in self.ranking):
            return ()
        return tuple(group[0] for group in self.ranking)

    @property
    def orcs_off_map(self) -> int:
        return board.ORCS - self.cells.count(ORC)

    def half_elves_on_map(self, player: int) -> int:
        return self.cells.count(ALONE[player]) + self.cells.count(ESCORTING[player])

    def half_elves_off_map(self, player: int) -> int:
        return board.HALF_ELVES - self.half_elves_on_map(player)

    # --- the engine shape --------------------------------------------------------------------

    @property
    def current_player(self) -> int:
        if self.phase is Phase.OVER:
            return TERMINAL
        if self.phase in CHANCE_PHASES:
            return CHANCE
        if self.phase is Phase.OPPOSE:
            assert self.magic
            assert self.magic.pending
            return self.magic.pending.victim
        return self.active

    @property
    def outcome(self) -> Result | None:
        if self.phase is not Phase.OVER:
            return None
        on_map = tuple(self.half_elves_on_map(p) for p in range(self.players))
        return Result(self.saved, on_map, winner_of(self.saved, on_map))

    def legal_actions(self) -> list[Action]:
        if self.phase is Phase.ACTIONS:
            return self._placements() + self._moves() + self._attacks() + [End()]
        if self.phase is Phase.ORCS:
            return self._orc_options()
        if self.phase is Phase.ORC_ATTACK:
            return [_ORC_ATTACK(orc, target) for orc, target in self._orc_attacks()]
        if self.phase in (Phase.MAGIC, Phase.OPPOSE, Phase.INSIST):
            return magic_rules.legal_actions(self)
        return []

    def chance_outcomes(self) -> Sequence[Outcome]:
        """A die's six faces, each 1/6, or every order of the discards being shuffled."""
        if self.phase is Phase.SHUFFLE:
            assert self.magic is not None
            return Orders(self.magic.discards, Shuffle)
        return faces([(Roll(value), 1) for value in range(1, 7)]) if self.phase in CHANCE_PHASES else ()

    def _apply_roll(self, action: Roll, trace: list[Fired]) -> StrageState:
        """A die roll goes to the roll handler of the phase that waits for it (``ROLLS``)."""
        if not self.is_chance or self.phase is Phase.SHUFFLE:
            raise IllegalAction("fasi", msg("{action}: nobody is rolling now; {now}", action=action.told, now=self._now()))
        if action.value not in range(1, 7):
            raise IllegalAction("materiale", msg("{action}: a die shows 1 to 6", action=action.told))
        return self.ROLLS[self.phase](self, action.value, trace)

    # --- turn order --------------------------------------------------------------------------

    def _roll_order(self, value: int, trace: list[Fired]) -> StrageState:
        position = next(i for i, group in enumerate(self.ranking) if len(group) > 1)
        group = self.ranking[position]
        roller = group[len(self.rolls)]
        trace.append(Fired("ordine-di-gioco", msg("{clan} rolls {value}", clan=CLANS[roller], value=value)))
        rolls = self.rolls + (value,)
        if len(rolls) < len(group):
            return evolve(self, rolls=rolls)
        # The group splits by roll, highest first; players still level roll again among themselves.
        faces = sorted(set(rolls), reverse=True)
        split = tuple(tuple(p for p, r in zip(group, rolls) if r == face) for face in faces)
        for tied in split:
            if len(tied) > 1:
                trace.append(Fired("ordine-spareggio", msg("{clans} tie on {value} and roll again", clans=_and(CLANS[p] for p in tied), value=rolls[group.index(tied[0])])))
        ranking = self.ranking[:position] + split + self.ranking[position + 1:]
        state = evolve(self, ranking=ranking, rolls=())
        if not state.order:
            return state
        trace.append(Fired("ordine-di-gioco", msg("turn order: {clans}", clans=tuple(CLANS[p] for p in state.order))))
        return state._begin_turn(state.order[0], trace)

    # --- action points: place, move, fight -----------------------------------------------------

    def _begin_turn(self, player: int, trace: list[Fired]) -> StrageState:
        trace.append(Fired("fasi", msg("{clan}'s turn", clan=CLANS[player])))
        return evolve(self, active=player, turn=self.turn + 1, phase=Phase.AP, ap=0, placed=0, fought=False,
                       acted=False, attack=None, massacre=(), arrows=(), marks=())

    def _roll_ap(self, value: int, trace: list[Fired]) -> StrageState:
        trace.append(Fired("punti-azione", msg_n("{clan} rolls {value}: {value} action point", "{clan} rolls {value}: {value} action points", value,
                                                       clan=CLANS[self.active], value=value)))
        state = evolve(self, ap=value, phase=Phase.ACTIONS)
        if self.magic is not None:
            return magic_rules.draw_for_turn(state, trace)
        return state

    def _spend(self, action: Action, rule: str) -> None:
        self._expect((Phase.ACTIONS,), action, rule)
        if self.ap < 1:
            raise IllegalAction("punti-azione", msg("{action}: {clan} has no action point left", action=action.told, clan=CLANS[self.active]))

    def _placements(self) -> list[Place]:
        if self.ap < 1 or self.acted or self.placed >= MAX_PLACED or not self.half_elves_off_map(self.active):
            return []
        return [_PLACE(s) for s, letter in zip(board.PLACEMENT_AREA, self.cells) if letter in (NOTHING, SPRITE)]

    def _apply_place(self, action: Place, trace: list[Fired]) -> StrageState:
        self._spend(action, "collocare")
        me = self.active
        if board.rank(action.square) not in board.PLACEMENT_RANKS:
            raise IllegalAction("collocare", msg("{action}: half-elves enter the map on rows 1 and 2 only", action=action.told))
        if self.acted:
            raise IllegalAction("collocare-prima", msg("{action}: {clan} has already moved or fought this turn; half-elves are placed first", action=action.told, clan=CLANS[me]))
        if self.placed >= MAX_PLACED:
            raise IllegalAction("collocare", msg("{action}: {clan} has already placed {most} half-elves this turn", action=action.told, clan=CLANS[me], most=MAX_PLACED))
        if not self.half_elves_off_map(me):
            raise IllegalAction("collocare", msg("{action}: all {half_elves} {clan} half-elves are on the map", action=action.told, half_elves=board.HALF_ELVES, clan=CLANS[me]))
        here = at(self.cells, action.square)
        if here not in (NOTHING, SPRITE):
            raise IllegalAction("collocare", msg("{action}: {square} is taken ({here})", action=action.told, square=notation(action.square), here=self._piece(action.square)))
        letter = (ESCORTING if here == SPRITE else ALONE)[me]
        trace.append(Fired("collocare", msg("{clan} places a half-elf on {square} with the sprite there", clan=CLANS[me], square=notation(action.square))
                           if here == SPRITE else msg("{clan} places a half-elf on {square}", clan=CLANS[me], square=notation(action.square))))
        state = evolve(self, cells=put(self.cells, action.square, letter), ap=self.ap - 1, placed=self.placed + 1)
        return state._spent(trace)

    def _moves(self) -> list[Move]:
        if self.ap < 1:
            return []
        me, found = self.active, []
        for start in board.squares_of(self.cells, ALONE[me] + ESCORTING[me]):
            escorting = at(self.cells, start) in ESCORTING
            for end in board.neighbours(start):
                here = at(self.cells, end)
                if here in (NOTHING, SPRITE):
                    found.append(_MOVE(start, end))
                if escorting and here == NOTHING:
                    found.append(_MOVE(start, end, True))
                    if board.rank(end) == board.EXIT_RANK:
                        found.append(_MOVE(start, end, True, True))
        return found

    def _apply_move(self, action: Move, trace: list[Fired]) -> StrageState:
        self._spend(action, "muovere")
        me, start, end = self.active, action.start, action.end
        letter = at(self.cells, start)
        if board.clan_of(letter) != me:
            raise IllegalAction("muovere", msg("{action}: no {clan} half-elf on {start}", action=action.told, clan=CLANS[me], start=notation(start)))
        if not board.adjacent(start, end):
            raise IllegalAction("muovere", msg("{action}: a half-elf moves one square at a time", action=action.told))
        here = at(self.cells, end)
        rule = "accompagnare" if action.escort else "muovere"
        if action.escort and letter not in ESCORTING:
            raise IllegalAction("accompagnare", msg("{action}: the half-elf on {start} escorts no sprite", action=action.told, start=notation(start)))
        if here not in ((NOTHING,) if action.escort else (NOTHING, SPRITE)):
            if here == SPRITE:
                raise IllegalAction(rule, msg("{action}: an escorted sprite needs an empty square", action=action.told))
            raise IllegalAction(rule, msg("{action}: {square} is taken ({here})", action=action.told, square=notation(end), here=self._piece(end)))
        saves = action.escort and board.rank(end) == board.EXIT_RANK
        if action.withdraw and not saves:
            raise IllegalAction("uscita", msg("{action}: a half-elf leaves the map only with a sprite it brings to row {row}", action=action.told, row=board.EXIT_RANK))
        cells = put(self.cells, start, SPRITE if letter in ESCORTING and not action.escort else NOTHING)
        if action.escort:
            trace.append(Fired("accompagnare", msg("{clan} half-elf {start}-{end} with its sprite", clan=CLANS[me], start=notation(start), end=notation(end))))
        else:
            trace.append(Fired("muovere", _moved(CLANS[me], start, end, leaving=letter in ESCORTING, joining=here == SPRITE)))
        saved = self.saved
        if saves:
            saved = replace_at(saved, me, saved[me] + 1)
            trace.append(Fired("uscita", msg("the sprite reaches {end} and is saved by {clan} ({saved} saved)", end=notation(end), clan=CLANS[me], saved=saved[me])))
            if action.withdraw:
                trace.append(Fired("uscita", msg("the {clan} half-elf leaves the map with it", clan=CLANS[me])))
            cells = put(cells, end, NOTHING if action.withdraw else ALONE[me])
        else:
            cells = put(cells, end, (ESCORTING if action.escort or here == SPRITE else ALONE)[me])
        state = evolve(self, cells=cells, saved=saved, ap=self.ap - 1, acted=True, arrows=self.arrows + ((start, end),))
        if state.sprites_on_map == 0:
            return state._game_over(trace)
        return state._spent(trace)

    def attack_targets(self, square: str) -> list[str]:
        """Squares the active player's half-elf at ``square`` may attack: orcs, rival half-elves."""
        found = []
        for target in board.neighbours(square):
            here = at(self.cells, target)
            owner = board.clan_of(here)
            if here == ORC or (owner is not None and owner != self.active and not magic_rules.immune(self, owner)):
                found.append(target)
        return found

    def _attacks(self) -> list[Attack]:
        if self.ap < 1 or self.fought:
            return []
        me = self.active
        return [_ATTACK(s, t) for s in board.squares_of(self.cells, ALONE[me] + ESCORTING[me]) for t in self.attack_targets(s)]

    def _apply_attack(self, action: Attack, trace: list[Fired]) -> StrageState:
        self._spend(action, "combattimento")
        me = self.active
        if self.fought:
            raise IllegalAction("combattimento", msg("{action}: {clan} has already fought this turn", action=action.told, clan=CLANS[me]))
        if board.clan_of(at(self.cells, action.attacker)) != me:
            raise IllegalAction("combattimento", msg("{action}: no {clan} half-elf on {attacker}", action=action.told, clan=CLANS[me], attacker=notation(action.attacker)))
        if action.target not in self.attack_targets(action.attacker):
            owner = board.clan_of(at(self.cells, action.target))
            if owner is not None and owner != me and magic_rules.immune(self, owner) and board.adjacent(action.attacker, action.target):
                raise IllegalAction("immunita", msg("{action}: the {clan} half-elves are immune", action=action.told, clan=CLANS[owner]))
            raise IllegalAction("combattimento", msg("{action}: no orc or rival half-elf next to {attacker} on {target}", action=action.told, attacker=notation(action.attacker), target=notation(action.target)))
        trace.append(Fired("combattimento", msg("{clan} half-elf on {attacker} attacks {piece} on {target}", clan=CLANS[me], attacker=notation(action.attacker), piece=self._piece(action.target), target=notation(action.target))))
        return evolve(self, ap=self.ap - 1, fought=True, acted=True, attack=(action.attacker, action.target), phase=Phase.COMBAT)

    def _roll_combat(self, value: int, trace: list[Fired]) -> StrageState:
        return evolve(self._strike(value, "combattimento", False, trace), phase=Phase.ACTIONS)._spent(trace)

    def _strike(self, value: int, rule: str, by_orc: bool, trace: list[Fired]) -> StrageState:
        """The roll of the waiting attack, a half-elf's or an orc's: ``HIT`` or more eliminates the target."""
        assert self.attack is not None
        target = self.attack[1]
        state = evolve(self, attack=None)
        if value < HIT:
            trace.append(Fired(rule, (msg("roll {value}: {piece} on {target} survives", value=value, piece=self._piece(target), target=notation(target)) if by_orc else
                               msg("roll {value}: {piece} on {target} stays", value=value, piece=self._piece(target), target=notation(target)))))
            return state
        trace.append(Fired(rule, msg("roll {value}: {piece} on {target} is eliminated", value=value, piece=self._piece(target), target=notation(target))))
        return evolve(state, cells=put(self.cells, target, board.without_half_elf(at(self.cells, target))))

    def _spent(self, trace: list[Fired]) -> StrageState:
        if self.ap == 0:
            trace.append(Fired("pa-esauriti", msg("{clan} has no action point left", clan=CLANS[self.active])))
            return self._after_actions(trace)
        return self

    def _apply_end(self, action: End, trace: list[Fired]) -> StrageState:
        self._expect((Phase.ACTIONS, Phase.MAGIC), action, "fasi")
        if self.phase is Phase.MAGIC:
            trace.append(Fired("fase-magica", msg("{clan} ends the magic phase", clan=CLANS[self.active])))
            return self._orc_phase(trace)
        if self.ap:
            trace.append(Fired("pa-non-spesi", msg_n("{clan} stops with {ap} action point unspent", "{clan} stops with {ap} action points unspent", self.ap, clan=CLANS[self.active], ap=self.ap)))
        return evolve(self, ap=0)._after_actions(trace)

    def _after_actions(self, trace: list[Fired]) -> StrageState:
        if self.magic is not None:
            return evolve(self, phase=Phase.MAGIC, magic=evolve(self.magic, cast=False))
        return self._orc_phase(trace)

    # --- the orcs ----------------------------------------------------------------------------

    def _orc_places(self) -> list[str]:
        if not self.orcs_off_map:
            return []
        start = len(board.PLACEMENT_AREA)
        return [s for s, letter in zip(board.SQUARES[start:], self.cells[start:]) if letter == NOTHING]

    def _orc_options(self) -> list[Action]:
        places = self._orc_places()
        if places:
            return [_PLACE_ORC(s) for s in places]
        return [_MOVE_ORC(orc, end) for orc in board.squares_of(self.cells, ORC) for end in board.orc_reach(self.cells, orc)]

    def _orc_phase(self, trace: list[Fired]) -> StrageState:
        state = evolve(self, phase=Phase.ORCS)
        if state._orc_places() or any(board.can_step(self.cells, orc) for orc in board.squares_of(self.cells, ORC)):
            return state
        trace.append(Fired("orchi-bloccati", msg("no orc can be placed or moved")))
        return state._orc_attack_phase(trace)

    def _apply_placeorc(self, action: PlaceOrc, trace: list[Fired]) -> StrageState:
        self._expect((Phase.ORCS,), action, "orchi")
        if not self.orcs_off_map:
            raise IllegalAction("orchi", msg("{action}: every orc is on the map; move one instead", action=action.told))
        if board.rank(action.square) in board.PLACEMENT_RANKS:
            raise IllegalAction("orchi", msg("{action}: orcs are never placed in the placement area (rows 1 and 2)", action=action.told))
        if at(self.cells, action.square) != NOTHING:
            raise IllegalAction("orchi", msg("{action}: {square} is not empty", action=action.told, square=notation(action.square)))
        trace.append(Fired("orchi", msg("{clan} places an orc on {square}", clan=CLANS[self.active], square=notation(action.square))))
        return evolve(self, cells=put(self.cells, action.square, ORC))._orc_attack_phase(trace)

    def _apply_moveorc(self, action: MoveOrc, trace: list[Fired]) -> StrageState:
        self._expect((Phase.ORCS,), action, "orchi")
        if self._orc_places():
            raise IllegalAction("orchi", msg_n("{action}: {orcs_off_map} orc is off the map; place it instead", "{action}: {orcs_off_map} orcs are off the map; place one instead", self.orcs_off_map,
                                                  action=action.told, orcs_off_map=self.orcs_off_map))
        if at(self.cells, action.start) != ORC:
            raise IllegalAction("orchi", msg("{action}: no orc on {start}", action=action.told, start=notation(action.start)))
        if action.end not in board.orc_reach(self.cells, action.start):
            raise IllegalAction("orchi-passi", msg("{action}: an orc takes one or two steps through empty squares", action=action.told))
        trace.append(Fired("orchi", msg("{clan} moves the orc {start}-{end}", clan=CLANS[self.active], start=notation(action.start), end=notation(action.end))))
        cells = put(put(self.cells, action.start, NOTHING), action.end, ORC)
        return evolve(self, cells=cells, arrows=self.arrows + ((action.start, action.end),))._orc_attack_phase(trace)

    def _orc_attacks(self) -> list[tuple[str, str]]:
        return board.orc_attacks(self.cells)

    def _orc_attack_phase(self, trace: list[Fired]) -> StrageState:
        if self._orc_attacks():
            return evolve(self, phase=Phase.ORC_ATTACK)
        trace.append(Fired("attacco-orchi", msg("no orc stands next to a half-elf")))
        return self._massacre_phase(trace)

    def _apply_orcattack(self, action: OrcAttack, trace: list[Fired]) -> StrageState:
        self._expect((Phase.ORC_ATTACK,), action, "attacco-orchi")
        if (action.orc, action.target) not in self._orc_attacks():
            raise IllegalAction("attacco-orchi", msg("{action}: no orc on {orc} next to a half-elf on {target}", action=action.told, orc=notation(action.orc), target=notation(action.target)))
        trace.append(Fired("attacco-orchi", msg("the orc on {orc} attacks {piece} on {target}", orc=notation(action.orc), piece=self._piece(action.target), target=notation(action.target))))
        return evolve(self, attack=(action.orc, action.target), phase=Phase.ORC_ROLL)

    def _roll_orc_roll(self, value: int, trace: list[Fired]) -> StrageState:
        return self._strike(value, "attacco-orchi", True, trace)._massacre_phase(trace)

    # --- the massacre ------------------------------------------------------------------------

    def exposed_sprites(self) -> tuple[str, ...]:
        """Sprites with no half-elf beside them in their square and an orc next to them."""
        return tuple(s for s in board.squares_of(self.cells, SPRITE) if any(at(self.cells, n) == ORC for n in board.neighbours(s)))

    def _massacre_phase(self, trace: list[Fired]) -> StrageState:
        exposed = self.exposed_sprites()
        escorted = [s for s in board.squares_of(self.cells, ESCORTING) if any(at(self.cells, n) == ORC for n in board.neighbours(s))]
        if escorted:
            trace.append(Fired("strage", msg("escorted sprites on {squares} do not roll", squares=tuple(notation(s) for s in escorted))))
        if not exposed:
            trace.append(Fired("strage", msg("no unescorted sprite next to an orc")))
            return self._end_turn(trace)
        trace.append(Fired("strage", msg_n("{count} sprite must roll: {squares}", "{count} sprites must roll: {squares}", len(exposed), count=len(exposed), squares=tuple(notation(s) for s in exposed))))
        return evolve(self, phase=Phase.MASSACRE, massacre=exposed, marks=exposed)

    def _roll_massacre(self, value: int, trace: list[Fired]) -> StrageState:
        square, rest = self.massacre[0], self.massacre[1:]
        state = evolve(self, massacre=rest)
        if value >= MASSACRE_HIT:
            trace.append(Fired("strage", msg("the sprite on {square} rolls {value} and is killed", square=notation(square), value=value)))
            state = evolve(state, cells=put(self.cells, square, NOTHING))
        else:
            trace.append(Fired("strage", msg("the sprite on {square} rolls {value} and survives", square=notation(square), value=value)))
        if rest:
            return state
        if state.sprites_on_map == 0:
            return state._game_over(trace)
        return state._end_turn(trace)

    #: Which phase a die roll is for, and the method that applies it.
    ROLLS: ClassVar[Mapping[Phase, Callable[..., StrageState]]] = {
        Phase.ORDER: _roll_order, Phase.AP: _roll_ap, Phase.COMBAT: _roll_combat,
        Phase.ORC_ROLL: _roll_orc_roll, Phase.MASSACRE: _roll_massacre,
    }

    # --- end of turn, end of game --------------------------------------------------------------

    def _end_turn(self, trace: list[Fired]) -> StrageState:
        following = self.order[(self.order.index(self.active) + 1) % len(self.order)]
        return self._begin_turn(following, trace)

    def _game_over(self, trace: list[Fired]) -> StrageState:
        trace.append(Fired("fine-partita", msg("no sprite is left on the map")))
        state = evolve(self, phase=Phase.OVER, attack=None, massacre=())
        result = state.outcome
        assert result is not None
        trace.append(Fired("vincitore", result.said()))
        return state

    # --- showing it --------------------------------------------------------------------------

    def _piece(self, square: str) -> Message:
        """The piece on ``square`` with its article, as a sentence names it ("the red half-elf")."""
        letter = at(self.cells, square)
        owner = board.clan_of(letter)
        if owner is not None:
            return board.THE_HALF_ELF[owner]
        # Translators: a piece of La Strage as a sentence names it, with its article.
        return {ORC: msg("the orc"), SPRITE: msg("the sprite")}.get(letter) or msg("the nothing")

    def _who(self) -> Message:
        player = self.current_player
        # Translators: who acts while the dice decide, before the phase ("chance: action point roll").
        return CLANS[player] if player >= 0 else msg_p("who acts", "chance") if player == CHANCE else msg("nobody")

    def figure(self) -> BoardFigure:
        pieces = tuple(piece for square, letter in zip(board.SQUARES, self.cells) if letter != NOTHING
                       for piece in _pieces(square, letter))
        return BoardFigure(pieces, arrows=self.arrows, marks=self.marks)

    def __str__(self) -> str:
        if self.phase is Phase.OVER:
            head = f"game over: {self.outcome}"
        elif self.phase is Phase.ORDER:
            group = next(g for g in self.ranking if len(g) > 1)
            head = f"{CLANS[group[len(self.rolls)]]} rolls for the turn order"
        else:
            head = f"turn {self.turn} | {self._now()}"
            if self.phase is Phase.ACTIONS:
                placing = "placing over" if self.acted else f"placed {self.placed}/{MAX_PLACED}"
                head += f" | {self.ap} AP, {placing}, {'has fought' if self.fought else 'may fight'}"
            if self.phase is Phase.MASSACRE:
                head += f" | to roll: {' '.join(self.massacre)}"
        clans = range(self.players)
        counts = (f"saved: {', '.join(f'{CLANS[p]} {self.saved[p]}' for p in clans)} | killed {self.killed} | off map: orcs {self.orcs_off_map}, "
                  + ", ".join(f"{CLANS[p]} {self.half_elves_off_map(p)}" for p in clans))
        lines = [head, counts]
        if self.magic is not None:
            lines.append(self.magic.summary(self.players))
        lines.append(board.picture(self.cells))
        return "\n".join(lines)

    #: Which function applies each action class: the dispatch table ``apply`` reads. The
    #: optional magic rules' actions are applied by the functions of .magic.
    handlers = {  # noqa: RUF012 - a ClassVar: engines.base.State declares it so
        Roll: _apply_roll,
        Place: _apply_place,
        Move: _apply_move,
        Attack: _apply_attack,
        End: _apply_end,
        PlaceOrc: _apply_placeorc,
        MoveOrc: _apply_moveorc,
        OrcAttack: _apply_orcattack,
        **dict.fromkeys(SPELLS, magic_rules.cast), Breach: magic_rules.breach, Oppose: magic_rules.answer,
        Accept: magic_rules.answer, Insist: magic_rules.insist, Yield: magic_rules.insist, Shuffle: magic_rules.shuffle,
    }
