"""Golden playthroughs (STYLE habit 6): a recorded game is replayed and must write itself back.

A file in ``tests/playthroughs/`` is the text of one game: an opening the game's test writes
(deck order, first player, the starting picture...), then every action and chance outcome on a
line of its own, each followed by the rules it fired, then a closing (final picture, outcome).
Replaying re-applies the recorded actions to the same opening; any rule that now fires
differently shows up as a diff.

After an intended rule change, record the files anew and review the diff before committing::

    UPDATE_GOLDEN=1 pytest -k golden
"""

from __future__ import annotations

import difflib
import os
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, Callable, Iterable, Sequence

import pytest

UPDATE = "UPDATE_GOLDEN"
PLAYTHROUGHS = Path(__file__).parent / "playthroughs"


@dataclass(frozen=True)
class Notation:
    """How a file writes an action line and a fired-rule line.

    The default is ``> `` and the action's evaluable repr, fired rules indented by two spaces.
    A file whose actions have no mark (``mark=""``) names the prefixes of its other lines in
    ``notes`` so they are not read as actions.
    """

    mark: str = "> "
    indent: str = "  "
    write: Callable[[Any], str] = repr
    notes: tuple[str, ...] = ()

    def is_action(self, line: str) -> bool:
        return (line.startswith(self.mark) and line.strip() != ""
                and not line.startswith(self.indent) and not line.startswith(self.notes))


REPR = Notation()


def text(opening: Sequence[str], state: Any, actions: Iterable[Any], closing: Callable[[Any], Sequence[str]],
         notation: Notation = REPR) -> str:
    """The text of a game: the opening lines, each action then the rules it fired, the closing
    lines of the last state."""
    lines = list(opening)
    for action in actions:
        step = state.apply(action)
        lines.append(notation.mark + notation.write(action))
        lines.extend(f"{notation.indent}{fired}" for fired in step.trace)
        state = step.state
    lines.extend(closing(state))
    return "\n".join(lines) + "\n"


def engine_names(module: ModuleType) -> dict[str, Any]:
    """The engine's public names (its ``__all__``): all an action's repr may refer to."""
    return {name: getattr(module, name) for name in module.__all__}


def evaluator(module: ModuleType) -> Callable[[str], Any]:
    """Read an action back from its repr with the engine's public names and no builtins."""
    names = engine_names(module)
    # The files are our own fixtures; even so, a line can reach nothing beyond the engine.
    return lambda source: eval(source, {"__builtins__": {}}, names)  # noqa: S307


def actions(recorded: str, read: Callable[[str], Any], notation: Notation = REPR) -> list[Any]:
    """The recorded actions, in order, each read from its line without the mark."""
    return [read(line[len(notation.mark):]) for line in recorded.splitlines() if notation.is_action(line)]


def check(path: Path, replay: Callable[[str], str], record: Callable[[], str]) -> str:
    """Fail, with a diff, unless replaying the recorded file writes it back byte for byte.

    With ``UPDATE_GOLDEN`` set, the file is first recorded anew from ``record()``. Returns the
    recorded text, for checks of what the game exercises.
    """
    if os.environ.get(UPDATE):
        path.write_text(record(), encoding="utf-8")
    recorded = path.read_text(encoding="utf-8")
    replayed = replay(recorded)
    if replayed != recorded:
        diff = "".join(difflib.unified_diff(recorded.splitlines(keepends=True), replayed.splitlines(keepends=True),
                                            fromfile=f"{path.name} (recorded)", tofile=f"{path.name} (replayed)"))
        pytest.fail(f"{path.name} no longer replays as recorded. If the rule change is intended, "
                    f"run `{UPDATE}=1 pytest -k golden` and review the diff.\n{diff}", pytrace=False)
    return recorded
