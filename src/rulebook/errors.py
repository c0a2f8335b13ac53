"""One small exception family. Every message names where (file:line:col or rule id)."""

from __future__ import annotations

from dataclasses import dataclass


class RulebookError(ValueError):
    """Base of every error this package raises on purpose."""


@dataclass(frozen=True)
class Problem:
    """One thing wrong with an input file, at a 1-based line and column."""

    path: str
    line: int
    column: int
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.column}: {self.message}"


def counted(number: int, singular: str, plural: str | None = None) -> str:
    """``1 problem``, ``2 problems``: every count our commands print goes through here.

    >>> counted(1, "problem"), counted(0, "problem"), counted(3, "file", "files")
    ('1 problem', '0 problems', '3 files')
    """
    return f"{number} {singular if number == 1 else (plural or singular + 's')}"


class LoadError(RulebookError):
    """A rulebook file was rejected; carries every problem found, not just the first."""

    def __init__(self, problems: list[Problem]):
        self.problems = tuple(problems)
        super().__init__("\n".join(str(p) for p in problems))


class IllegalAction(RulebookError):
    """An engine refused an action; the message names the rule that forbids it."""

    def __init__(self, rule_id: str, message: str):
        self.rule_id = rule_id
        self.message = message  # without the rule id, for callers that add context
        super().__init__(f"[{rule_id}] {message}")
