"""One small exception family. Every message names where (file:line:col or rule id)."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

# Characters a report must not print raw, by their Unicode category: controls (Cc: a terminal
# obeys ESC sequences), formatting characters (Cf: every direction mark, embedding, override and
# isolate, and the invisible ones: what you read is what is there), line and paragraph
# separators (Zl, Zp: one problem, one line) and lone surrogates (Cs). Messages quote the input,
# and the input may be hostile. The pattern finds the candidates (anything but printable ASCII)
# in one pass; the category decides.
_CANDIDATE_RE = re.compile("[^\x20-\x7e]")
_UNPRINTABLE = frozenset(("Cc", "Cf", "Zl", "Zp", "Cs"))


def _escaped(found: re.Match[str]) -> str:
    char = found.group()
    if unicodedata.category(char) not in _UNPRINTABLE:
        return char
    code = ord(char)
    return repr(char)[1:-1] if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def printable(text: str) -> str:
    r"""``text`` with every control, formatting (bidi) and separator character written as an escape.

    >>> print(printable("a\x1b[2Jb\u2028c\u200fd\U000e0041é"))
    a\x1b[2Jb\u2028c\u200fd\U000e0041é
    """
    return _CANDIDATE_RE.sub(_escaped, text)


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
        return printable(f"{self.path}:{self.line}:{self.column}: {self.message}")


def counted(number: int, singular: str, plural: str | None = None) -> str:
    """``1 problem``, ``2 problems``: every count our commands print goes through here.

    >>> counted(1, "problem"), counted(0, "problem"), counted(3, "file", "files")
    ('1 problem', '0 problems', '3 files')
    """
    return f"{number} {singular if number == 1 else (plural or singular + 's')}"


class LoadError(RulebookError):
    """A rulebook file was rejected; carries every problem found, not just the first."""

    def __init__(self, problems: Iterable[Problem]):
        self.problems = tuple(problems)
        super().__init__("\n".join(str(p) for p in problems))


class IllegalAction(RulebookError):
    """An engine refused an action; the message names the rule that forbids it."""

    def __init__(self, rule_id: str, message: str):
        self.rule_id = rule_id
        self.message = message  # without the rule id, for callers that add context
        super().__init__(f"[{rule_id}] {message}")

    def __reduce__(self) -> tuple[type[IllegalAction], tuple[str, str], dict[str, Any]]:
        # Pickled by its two fields: a worked example's refusals come back from the child
        # process that ran it (isolation.py); the default would call __init__ with one argument.
        return (type(self), (self.rule_id, self.message), self.__dict__)
