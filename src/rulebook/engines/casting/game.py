"""The game's face: :class:`Game` (the table with the engine shape and its handler table),
:func:`setup` for worked examples and :func:`new_game` for ``rulebook play``.

The state is one main phase of the first player's turn (P1 in every message). Casting is one transaction: if any step is
illegal, :class:`IllegalAction` names the rule and the state is the one before the cast:
states are immutable, so nothing was moved and nothing was paid. Rule ids in traces and
errors are the ids of ``rules/casting.yaml``.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ...errors import IllegalAction
from ...messages import code, msg
from ..base import TERMINAL, Fired, State, evolve
from .actions import Activate, Cast, Choose, Concede, Decline, Mana, Pass, PlayLand, Resolve
from .cards import Card, Catalogue, packaged
from .costs import Derivation
from .mana import Pool
from .moves import activate, choose, decline, legal_actions, play_land, resolve_top
from .pay import activate_mana, cast
from .propose import propose
from .state import PLAYER_IDS, Obj, Phase, Table


@dataclass(frozen=True)
class Game(Table, State):
    """One moment of the main phase: the :class:`~.state.Table` with the engine shape."""

    unknown_action_rule = "601.2"
    actions_are = "an action of the casting engine"

    # --- the shape of base.State --------------------------------------------------------

    @property
    def current_player(self) -> int:
        if self.phase is Phase.OVER:
            return TERMINAL
        return self.pending.player if self.pending else self.priority

    @property
    def outcome(self) -> int | None:
        """The winner once a player is at 0 life or less (704.5a) or has conceded (104.3a), else
        None (the phase simply ended)."""
        if self.conceded >= 0:
            return 1 - self.conceded
        losers = [p for p, life in enumerate(self.life) if life <= 0]
        return (1 - losers[0]) if len(losers) == 1 else None

    def legal_actions(self) -> Sequence[object]:
        return legal_actions(self)

    def total_cost(self, action: Cast) -> Derivation:
        """The 601.2f derivation the proposed cast would lock in, without casting: a cast
        by the player to act, who answers a pending offer even without priority."""
        if self.is_over:
            raise IllegalAction("601.2", msg("the game is over; {action} can't be proposed", action=code(action)))
        return propose(self, action, self.current_player)[2]

    # --- the handler table ------------------------------------------------------------------

    def _admit(self, action: object) -> None:
        if self.is_over:
            raise IllegalAction("601.2", msg("the game is over; {action} can't be taken", action=code(action)))
        if self.pending is not None and not isinstance(action, (Cast, Decline, Choose, Concede)):
            raise IllegalAction("601.2", msg("first answer the offer of {source} about {object}", source=self.offer_source(), object=self.quoted(self.pending.object)))

    def _apply_cast(self, action: Cast, trace: list[Fired]) -> Game:
        try:
            game, fired = cast(self, action, self.current_player)
        except IllegalAction as exc:
            raise IllegalAction(exc.rule_id, msg("{message}; the cast is reversed, nothing was moved or paid", message=exc.message)) from None
        return _traced(game, fired, trace)

    def _apply_mana(self, action: Mana, trace: list[Fired]) -> Game:
        game, fired = activate_mana(self, action, self.current_player, "605.3a")
        return _traced(evolve(game, passes=0), fired, trace)

    def _apply_activate(self, action: Activate, trace: list[Fired]) -> Game:
        return _traced(*activate(self, action, self.current_player), trace)

    def _apply_playland(self, action: PlayLand, trace: list[Fired]) -> Game:
        return _traced(*play_land(self, action, self.current_player), trace)

    def _apply_resolve(self, action: Resolve, trace: list[Fired]) -> Game:
        return _traced(*resolve_top(self), trace)

    def _apply_pass(self, action: Pass, trace: list[Fired]) -> Game:
        player = self.current_player
        if self.passes + 1 >= 2 and self.stack:
            return _traced(*resolve_top(self), trace)
        if self.passes + 1 >= 2:
            trace.append(Fired("601.2i", msg("P{player} passes too, with the stack empty: the phase ends", player=player + 1)))
            return evolve(self, ended=True)
        trace.append(Fired("601.2i", msg("P{player} passes priority", player=player + 1)))
        return evolve(self, priority=1 - player, passes=self.passes + 1)

    def _apply_decline(self, action: Decline, trace: list[Fired]) -> Game:
        return _traced(*decline(self), trace)

    def _apply_choose(self, action: Choose, trace: list[Fired]) -> Game:
        return _traced(*choose(self, action), trace)

    def _apply_concede(self, action: Concede, trace: list[Fired]) -> Game:
        if action.player not in (0, 1):
            raise IllegalAction("104.3a", msg("{player} is not a player of this game: concede as 0 or 1", player=code(action.player)))
        trace.append(Fired("104.3a", msg("P{player} concedes: they leave the game and lose it", player=action.player + 1)))
        return evolve(self, conceded=action.player)

    #: Which method applies each action class: the dispatch table ``apply`` reads.
    handlers = {  # noqa: RUF012 - a ClassVar: engines.base.State declares it so
        Cast: _apply_cast,
        Mana: _apply_mana,
        Activate: _apply_activate,
        PlayLand: _apply_playland,
        Resolve: _apply_resolve,
        Pass: _apply_pass,
        Decline: _apply_decline,
        Choose: _apply_choose,
        Concede: _apply_concede,
    }


def _traced(game: Table, fired: list[Fired], trace: list[Fired]) -> Game:
    # The rule modules return (state, what fired); a handler appends it to the step's trace.
    trace.extend(fired)
    assert isinstance(game, Game)
    return game


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.split(",", maxsplit=1)[0].lower()).strip("-")


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
    cards: Iterable[Card] = (),
    catalogue: Catalogue | None = None,
) -> Game:
    """A main phase of P1's turn (the first player; players are indices 0 and 1 in the code, P1 and P2 on the page). Each card is ``"Name"`` or ``"id=Name"``; ids default
    to the name before any comma, lower-case, with ``-2``, ``-3`` … for repeats. The first
    library card is the top one. A name is looked up in ``catalogue`` (the packaged cards, or
    a book's: its ``namespace`` passes them) and in ``cards``, cards defined inline with
    :func:`~.cards.define`.

    >>> print(setup(hand=["Plains", "Plains"], their_battlefield=["Thalia, Guardian of Thraben"], pool="W"))
    P1 life 20 | pool {W} | hand: plains, plains-2
    P2 life 20 | battlefield: thalia
    """
    known = (catalogue or packaged()).with_cards(cards)
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
            definition = known[name]  # unknown names fail here, at the setup line
            object_id = object_id or _slug(name)
            if object_id in used:
                if "=" in entry:
                    raise IllegalAction("601.2", msg("object id {object_id} is used twice; give each object its own id", object_id=code(object_id)))
                n = 2
                while f"{object_id}-{n}" in used:
                    n += 1
                object_id = f"{object_id}-{n}"
            used.add(object_id)
            objects.append(Obj(object_id, name, owner, zone, card=definition))
    return Game(tuple(objects), life=life, pools=(Pool.of(pool), Pool()))


def new_game(rng: random.Random, players: int = 2) -> Game:
    """A random main phase for ``rulebook play casting``: the caller's rng deals each player
    five basic lands and some spells; the engine itself never draws a random number."""
    if players != 2:
        raise IllegalAction("601.2", msg("the casting engine models two players, not {players}", players=code(players)))
    known = packaged()
    spells = sorted(n for n, c in known.items() if not c.is_land)
    creatures = sorted(n for n in spells if known[n].is_type("creature"))
    basics = ["Plains", "Island", "Swamp", "Mountain", "Forest"]
    return setup(
        hand=rng.sample(spells, 4),
        battlefield=[rng.choice(basics) for _ in range(5)] + rng.sample(creatures, 1),
        their_hand=rng.sample(spells, 3),
        their_battlefield=[rng.choice(basics) for _ in range(5)] + rng.sample(creatures, 2),
    )
