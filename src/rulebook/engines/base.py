"""The one shape every game engine follows (after OpenSpiel's State); docs/engines.md tells it in full.

- A state is immutable. ``current_player`` says who acts: a player index, ``CHANCE`` when
  the game waits for a die roll or a shuffle, ``TERMINAL`` when it is over.
- ``legal_actions()`` lists what the player to act may do (the engine computes it; nothing is
  looked up). At a chance node the *caller* supplies the outcome: engines hold no random
  generator, so examples are deterministic. ``chance_outcomes()`` lists a chance node's
  outcomes with exact probabilities; playouts draw from that list with ``sample_chance(rng)``.
- ``apply(action)`` returns a :class:`Step`: the new state and the trace of rule ids that
  produced each change, so examples and the site can show why. An illegal action raises
  :class:`~rulebook.errors.IllegalAction` naming the rule that forbids it. Dispatch is an
  explicit table written out in each state class, ``handlers = {Roll: _apply_roll, …}``: the
  handler receives ``(action, trace)``, returns the new state and appends what fired to
  ``trace``; tools and tests read the same table. ``phase`` is an Enum in every engine;
  ``_expect`` refuses an action out of its phase.
- ``is_over`` and ``outcome`` (engine-specific: a winner, scores…) end the game.

Beside its states, an engine module may tell the translate and render stages what they cannot
know without importing it (docs/engines.md, "What an engine supplies"): ``names()``, the
printed names of its objects (:class:`PrintedName`: the glossary binds translations to them),
and ``symbols()``, its own symbol tokens (:func:`rulebook.symbols.define`). The stages ask
through :func:`rulebook.engines.engine_symbols` and :func:`rulebook.engines.printed_names`,
never by importing an engine.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import MISSING, dataclass, fields, is_dataclass, replace
from enum import Enum
from functools import cached_property
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Self, TypeVar

from ..errors import IllegalAction
from ..figures import BoardFigure
from ..messages import Code, Message, code, msg
from .chance import Outcome, draw

CHANCE = -1
TERMINAL = -2

Action = Any
S = TypeVar("S", bound="State")
T = TypeVar("T")


def told(action: Action) -> Message | Code:
    """An action as a refusal tells it to a player: its ``told`` message ("the roll of the
    planar die", a noun phrase in the engine's domain) when its class has one, else the call
    that makes it, as code (an engine not yet telling its actions in words, or a value that is
    no action of the game at all)."""
    said = getattr(action, "told", None)
    return said if isinstance(said, Message) else code(action)


def replace_at(items: Sequence[T], index: int, value: T) -> tuple[T, ...]:
    """``items`` as a tuple with the one at ``index`` replaced: how a frozen state changes one
    player's hand, score or deck.

    >>> replace_at((0, 0, 0), 1, 5)
    (0, 5, 0)
    """
    items = tuple(items)
    return items[:index] + (value,) + items[index + 1:]


#: Per dataclass: the names of its fields when a copy may share the instance's attributes
#: (``evolve``), None when it must go through ``dataclasses.replace``.
_COPYABLE: dict[type, frozenset[str] | None] = {}


def _copyable(cls: type) -> frozenset[str] | None:
    if not is_dataclass(cls) or hasattr(cls, "__post_init__") or any(not f.init for f in fields(cls)):
        return None
    names = frozenset(f.name for f in fields(cls))
    for k in cls.__mro__:  # a field in a slot, or a property caching itself, is no plain attribute
        slots = vars(k).get("__slots__", ())
        if names.intersection((slots,) if isinstance(slots, str) else slots):
            return None
        if any(isinstance(v, cached_property) for v in vars(k).values()):
            return None
    return names


def evolve(item: T, /, **changes: Any) -> T:
    """``dataclasses.replace`` for the engines' frozen states: the same new object, made without
    running ``__init__`` again (each step of a game makes several; ``replace`` was the engines'
    hottest function). Its instance attributes are exactly its fields, so a copy of them with the
    changes is the object ``__init__`` would make. A class with a ``__post_init__`` (which may
    check or convert), a field outside ``__init__`` or a cached property goes through
    ``dataclasses.replace`` itself.

    >>> evolve(Fired("r1", "one"), what="two")
    Fired(rule='r1', what='two')
    """
    cls = type(item)
    try:
        names = _COPYABLE[cls]
    except KeyError:
        names = _COPYABLE[cls] = _copyable(cls)
    if names is None:
        return replace(item, **changes)  # type: ignore[type-var]  # any dataclass instance: T is bound to none
    if not names.issuperset(changes):
        raise TypeError(f"{cls.__name__} has no field {', '.join(sorted(set(changes) - names))}")
    made = object.__new__(cls)
    attributes = made.__dict__
    attributes.update(item.__dict__)
    attributes.update(changes)
    return made


@dataclass(frozen=True)
class PrintedName:
    """A name an engine's object is printed under in each language (a card, a piece, a land, a
    plane, a zone), as its ``names()`` hook returns it. The glossary makes it a term: a
    translation that names the object must use the printed name of its language."""

    names: tuple[tuple[str, str], ...]  # (language, name), e.g. (("en", "Island"), ("it", "Isola"))
    origin: str  # "FILE:LINE" where the engine's data says so, for the translator who must look it up
    kind: str = "card"  # what it names: card | piece | land | plane | zone | …

    @classmethod
    def of(cls, names: Mapping[str, str], origin: str, kind: str = "card") -> PrintedName:
        return cls(tuple(sorted(names.items())), origin, kind)


@dataclass(frozen=True)
class Fired:
    """One rule that produced one change; ``what`` is a :class:`~rulebook.messages.Message`
    (its English text, translatable by the site)."""

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
class Applied:
    """An action a worked example applied, and what fired."""

    action: Action
    trace: tuple[Fired, ...]
    #: Set on the one record that stands for a game's set-up (:func:`setting_up`): the line
    #: that tells it in place of its steps; ``action`` is then the tuple of actions it applied.
    summary: Fired | None = None


@dataclass(frozen=True)
class Refused:
    """An action a worked example tried and the game refused."""

    action: Action
    error: IllegalAction


Record = Applied | Refused
# The log of the run being recorded (None: nobody records). An apply made while another is
# recorded (a handler or legal_actions trying an action) is the engine's business, not the
# example's: it runs with the log unset.
_LOG: ContextVar[list[Record] | None] = ContextVar("rulebook_engine_log", default=None)


@contextmanager
def recording() -> Iterator[list[Record]]:
    """Record every action applied (or refused) by the code run inside, in order: the example
    runner runs a doctest inside it, so what the site tells of an example comes from that run."""
    log: list[Record] = []
    token = _LOG.set(log)
    try:
        yield log
    finally:
        _LOG.reset(token)


@contextmanager
def setting_up() -> Iterator[list[Fired]]:
    """Record the actions applied inside as one set-up record, told by the line the caller
    appends to the yielded list (``started()``'s mulligans, the same in every example: issue 26
    asks for them summarised in one line). Their trace is kept whole, for the rules a book's
    coverage counts; a refusal inside, or no line given, leaves the records as they were."""
    log = _LOG.get()
    start = len(log) if log is not None else 0
    told: list[Fired] = []
    yield told
    if log is None or not told:
        return
    inner = [r for r in log[start:] if isinstance(r, Applied)]
    if not inner or len(inner) != len(log) - start:  # none, or a refusal among them
        return
    del log[start:]
    log.append(Applied(tuple(r.action for r in inner), tuple(f for r in inner for f in r.trace), told[0]))


@contextmanager
def unrecorded() -> Iterator[None]:
    """Apply actions here without recording them: tries an engine makes for itself."""
    token = _LOG.set(None)
    try:
        yield
    finally:
        _LOG.reset(token)


#: A handler: ``(state, action, trace) -> new state``, appending what fired to ``trace``.
Handler = Callable[..., Any]


class State(ABC):
    """Base of every engine's state. Subclasses are frozen dataclasses."""

    if TYPE_CHECKING:  # nothing at run time: no dataclass field or class attribute comes of it
        @property
        def phase(self) -> Enum:
            """The game's phase, an Enum of its own whose values say it in words (each state's field)."""

    #: Action class -> the function that applies it. Each engine writes its table out at the
    #: end of its state class, e.g. ``handlers = {Place: _apply_place, Pass: _apply_pass}``.
    handlers: ClassVar[Mapping[type, Handler]] = {}
    #: The rule id an action of a kind the game does not know is refused under, and what the
    #: refusal says it is not, e.g. "a Planechase action".
    unknown_action_rule: ClassVar[str]
    actions_are: ClassVar[str]
    #: The number the messages give the first seat: 1 in an engine that tells players as a
    #: player counts them (issue 26), 0 in one that still shows its indices.
    first_seat: ClassVar[int] = 0

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for kind, handler in cls.handlers.items():
            if not isinstance(kind, type) or not callable(handler):
                raise TypeError(f"{cls.__name__}.handlers maps action classes to functions, not {kind!r}: {handler!r}")

    def figure(self) -> BoardFigure | None:
        """The position to draw beside an example, for games played on a board."""
        return None

    @property
    @abstractmethod
    def current_player(self) -> int: ...

    @abstractmethod
    def legal_actions(self) -> Sequence[Action]: ...

    def apply(self, action: Action) -> Step[Self]:
        log = _LOG.get()
        if log is None:
            return self._step(action)
        with unrecorded():
            try:
                step = self._step(action)
            except IllegalAction as exc:
                log.append(Refused(action, exc))
                raise
        log.append(Applied(action, step.trace))
        return step

    def _step(self, action: Action) -> Step[Self]:
        handler = self.handlers.get(type(action))
        if handler is None:
            # Translators: {action} is Python code (an action); {kind} says what the game's actions are.
            raise IllegalAction(self.unknown_action_rule, msg("{action} is not {kind}", action=code(action), kind=self.actions_are))
        self._admit(action)
        trace: list[Fired] = []
        state = handler(self, action, trace)
        return Step(state, tuple(trace))

    def attempt(self, action: Action) -> Step[Self] | None:
        """The step ``action`` makes, or None if the game refuses it; never recorded (legal_actions
        that try every candidate use this)."""
        with unrecorded():
            try:
                return self.apply(action)
            except IllegalAction:
                return None

    def _admit(self, action: Action) -> None:  # noqa: B027 - a hook: most games admit every action here
        """Checks every action passes before its handler (the game is over, an offer waits…)."""

    def run(self, *actions: Action) -> Step[Self]:
        """Apply several actions in turn: the last state, with the trace of them all."""
        state = self
        trace: tuple[Fired, ...] = ()
        for action in actions:
            step = state.apply(action)
            state, trace = step.state, trace + step.trace
        return Step(state, trace)

    def _expect(self, phases: Enum | tuple[Enum, ...], action: Action, rule: str) -> None:
        """Refuse ``action`` under ``rule`` unless the game's ``phase`` is (one of) ``phases``."""
        if self.phase not in (phases if isinstance(phases, tuple) else (phases,)):
            # Translators: {action} is what a player tried, in words ("the roll of the planar die",
            # "keeping the hand"), or Python code in an engine that does not tell it yet.
            raise IllegalAction(rule, msg("{action} is not possible now: {now}", action=told(action), now=self._now()))

    def _now(self) -> Message:
        """Who is to act and what the game waits for, as a refusal out of turn says it."""
        # Translators: {who} is "player 1", "nobody" or an engine's own word for who acts ("chance");
        # {waiting} the game's phase as the engine words it ("to roll", "play", "game over").
        return msg("{who}: {waiting}", who=self._who(), waiting=self.phase.value)

    def _who(self) -> Message:
        player = self.current_player
        return msg("player {player}", player=self.seat(player)) if player >= 0 else msg("nobody")

    def seat(self, player: int) -> int:
        """A player's index as the messages number the seat (:attr:`first_seat`)."""
        return player + self.first_seat

    @property
    def is_over(self) -> bool:
        return self.current_player == TERMINAL

    @property
    @abstractmethod
    def outcome(self) -> Any: ...

    @property
    def is_chance(self) -> bool:
        return self.current_player == CHANCE

    def chance_outcomes(self) -> Sequence[Outcome]:
        """At a chance node, every outcome (the action that applies it) with its exact
        probability, a :class:`~fractions.Fraction`; they add up to 1 (OpenSpiel's
        ``chance_outcomes``). A die lists its faces; a shuffle is :class:`~.chance.Orders`."""
        raise NotImplementedError(f"{type(self).__name__} has no chance nodes")

    def sample_chance(self, rng: random.Random) -> Action:
        """A random chance outcome drawn from :meth:`chance_outcomes`; only playouts call this."""
        if not self.is_chance:
            raise ValueError(f"{type(self).__name__}: no chance node now, {self.current_player!r} is to act")
        return draw(self.chance_outcomes(), rng)


class Evaluable:
    """A repr that is the call making the value: required fields by position, the others by
    name and only when they differ from their default, e.g. ``Move('c4', 'd3', escort=True)``.

    A class shows a field another way (cards by their short names…) by overriding ``_shown``.
    """

    def _shown(self, name: str, value: Any) -> Any:
        return value

    def __repr__(self) -> str:
        parts = []
        for f in fields(self):  # type: ignore[arg-type]  # every Evaluable subclass is a dataclass; this base is not
            if not f.repr:
                continue
            value = getattr(self, f.name)
            if f.default is not MISSING:
                default = f.default
            elif f.default_factory is not MISSING:
                default = f.default_factory()
            else:  # no default: always shown, by position
                parts.append(repr(self._shown(f.name, value)))
                continue
            if value != default:
                parts.append(f"{f.name}={self._shown(f.name, value)!r}")
        return f"{type(self).__name__}({', '.join(parts)})"


def playout(state: S, rng: random.Random, max_actions: int = 10_000) -> Iterator[tuple[Action, Step[S]]]:
    """Play random legal actions (and sampled chance outcomes) until the game ends or the cap."""
    for _ in range(max_actions):
        if state.is_over:
            return
        action = state.sample_chance(rng) if state.is_chance else rng.choice(list(state.legal_actions()))
        step = state.apply(action)
        yield action, step
        state = step.state
