"""The one shape every game engine follows (after OpenSpiel's State).

- A state is immutable. ``current_player`` says who acts: a player index, ``CHANCE`` when
  the game waits for a die roll or a shuffle, ``TERMINAL`` when it is over.
- ``legal_actions()`` lists what the player to act may do (the engine computes it; nothing is
  looked up). At a chance node the *caller* supplies the outcome: engines hold no random
  generator, so examples are deterministic and playouts sample with ``sample_chance(rng)``.
- ``apply(action)`` returns a :class:`Step`: the new state and the trace of rule ids that
  produced each change, so examples and the site can show why. An illegal action raises
  :class:`~rulebook.errors.IllegalAction` naming the rule that forbids it. The base class
  does the dispatch: an action of class ``Roll`` goes to the state's ``_apply_roll(action,
  trace)``, which returns the new state and appends what fired to ``trace``; an engine whose
  ``phase`` is an Enum refuses an action out of its phase with ``_expect``.
- ``is_over`` and ``outcome`` (engine-specific: a winner, scores…) end the game.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from dataclasses import dataclass
from enum import Enum
from typing import Any, ClassVar, Generic, Iterator, Sequence, TypeVar

from ..errors import IllegalAction

CHANCE = -1
TERMINAL = -2

Action = Any
S = TypeVar("S", bound="State")
T = TypeVar("T")


def replace_at(items: Sequence[T], index: int, value: T) -> tuple[T, ...]:
    """``items`` as a tuple with the one at ``index`` replaced: how a frozen state changes one
    player's hand, score or deck.

    >>> replace_at((0, 0, 0), 1, 5)
    (0, 5, 0)
    """
    items = tuple(items)
    return items[:index] + (value,) + items[index + 1:]


@dataclass(frozen=True)
class Fired:
    """One rule that produced one change."""

    rule: str
    what: str

    def __str__(self) -> str:
        return f"{self.rule}: {self.what}"


@dataclass(frozen=True)
class Step(Generic[S]):
    state: S
    trace: tuple[Fired, ...]

    def rules(self) -> list[str]:
        """The rule ids that fired, in order, without repeats."""
        return list(dict.fromkeys(f.rule for f in self.trace))


@dataclass(frozen=True)
class Piece:
    square: str  # "a1" … "h8": file letter, rank number (rank 1 at the bottom)
    kind: str  # engine's word for the piece, e.g. "orc", "sprite", "half-elf"
    side: str = ""  # e.g. a clan colour; "" when the piece belongs to nobody


@dataclass(frozen=True)
class BoardFigure:
    """A board position as plain data; the site draws it (as SVG), the engine never draws."""

    pieces: tuple[Piece, ...]
    arrows: tuple[tuple[str, str], ...] = ()  # moves, from square to square
    marks: tuple[str, ...] = ()  # highlighted squares
    files: int = 8
    ranks: int = 8


class State(ABC):
    """Base of every engine's state. Subclasses are frozen dataclasses."""

    #: For engines using the base ``apply``: the rule id an action of a kind the game does not
    #: know is refused under, and what the refusal says it is not, e.g. "a Planechase action".
    unknown_action_rule: ClassVar[str]
    actions_are: ClassVar[str]

    def figure(self) -> BoardFigure | None:
        """The position to draw beside an example, for games played on a board."""
        return None

    @property
    @abstractmethod
    def current_player(self) -> int: ...

    @abstractmethod
    def legal_actions(self) -> Sequence[Action]: ...

    def apply(self: S, action: Action) -> Step[S]:
        trace: list[Fired] = []
        handler = getattr(self, f"_apply_{type(action).__name__.lower()}", None)
        state = self._apply_other(action, trace) if handler is None else handler(action, trace)
        return Step(state, tuple(trace))

    def run(self: S, *actions: Action) -> Step[S]:
        """Apply several actions in turn: the last state, with the trace of them all."""
        state, trace = self, ()
        for action in actions:
            step = state.apply(action)
            state, trace = step.state, trace + step.trace
        return Step(state, trace)

    def _apply_other(self: S, action: Action, trace: list[Fired]) -> S:
        """An action with no ``_apply_<class>`` method: refused, unless an engine knows more kinds."""
        raise IllegalAction(self.unknown_action_rule, f"{action!r} is not {self.actions_are}")

    def _expect(self, phases: Enum | tuple[Enum, ...], action: Action, rule: str) -> None:
        """Refuse ``action`` under ``rule`` unless the game's ``phase`` is (one of) ``phases``."""
        if self.phase not in (phases if isinstance(phases, tuple) else (phases,)):  # type: ignore[attr-defined]
            raise IllegalAction(rule, f"{action!r} is not possible now: {self._now()}")

    def _now(self) -> str:
        """Who is to act and what the game waits for, as a refusal out of turn says it."""
        return f"{self._who()} {self.phase.value}"  # type: ignore[attr-defined]

    def _who(self) -> str:
        player = self.current_player
        return f"player {player}" if player >= 0 else "nobody"

    @property
    def is_over(self) -> bool:
        return self.current_player == TERMINAL

    @property
    @abstractmethod
    def outcome(self) -> Any: ...

    @property
    def is_chance(self) -> bool:
        return self.current_player == CHANCE

    def sample_chance(self, rng: random.Random) -> Action:
        """A random chance outcome (die roll, shuffle); only playouts call this."""
        raise NotImplementedError(f"{type(self).__name__} has no chance nodes")


def playout(state: S, rng: random.Random, max_actions: int = 10_000) -> Iterator[tuple[Action, Step[S]]]:
    """Play random legal actions (and sampled chance outcomes) until the game ends or the cap."""
    for _ in range(max_actions):
        if state.is_over:
            return
        action = state.sample_chance(rng) if state.is_chance else rng.choice(list(state.legal_actions()))
        step = state.apply(action)
        yield action, step
        state = step.state
