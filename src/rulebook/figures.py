"""Board positions as plain data: what an engine's ``figure()`` gives and the site draws.

It sits at the bottom of the package beside :mod:`.model`, so the engines (which make
figures) and :mod:`.render` (which draws them as SVG) both import it and neither imports
the other.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Piece", "BoardFigure"]


@dataclass(frozen=True)
class Piece:
    square: str  # "a1" … "h8": file letter, rank number (rank 1 at the bottom)
    kind: str  # engine's word for the piece, e.g. "orc", "sprite", "half-elf"
    side: str = ""  # e.g. a clan colour; "" when the piece belongs to nobody
    # How the site names and marks it in the reader's language: messages of the engine's
    # domain (rulebook.messages), e.g. msg("red half-elf") and msg_p("piece letter", "H").
    # None: the side and kind as they are, and the kind's initial.
    name: str | None = None
    letter: str | None = None


@dataclass(frozen=True)
class BoardFigure:
    """A board position as plain data; the site draws it (as SVG), the engine never draws."""

    pieces: tuple[Piece, ...]
    arrows: tuple[tuple[str, str], ...] = ()  # moves, from square to square
    marks: tuple[str, ...] = ()  # highlighted squares
    files: int = 8
    ranks: int = 8
