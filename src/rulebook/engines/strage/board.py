"""The map of La Strage degli Innocenti: a chessboard read as 64 one-letter cells.

A cell holds at most one piece, except that a half-elf may share its square with the sprite
it escorts. One letter says all of that, so a position is a 64-character string, cheap to
copy and compare (index 0 is a1, 7 is h1, 63 is h8):

- ``.`` empty, ``o`` orc, ``s`` a sprite alone;
- ``R`` ``G`` ``B`` ``Y`` a red, green, blue or yellow half-elf alone;
- ``r`` ``g`` ``b`` ``y`` the same half-elf escorting a sprite.

>>> cells = put(EMPTY, "e2", "s")
>>> cells = put(cells, "c4", "R")
>>> print(picture(cells))
  a b c d e f g h
8 . . . . . . . . 8
7 . . . . . . . . 7
6 . . . . . . . . 6
5 . . . . . . . . 5
4 . . R . . . . . 4
3 . . . . . . . . 3
2 . . . . s . . . 2
1 . . . . . . . . 1
  a b c d e f g h
>>> neighbours("a1")
('b1', 'a2', 'b2')

:class:`Phase` lives here too, so the engine and its magic rules share it without a cycle.
"""

from __future__ import annotations

import re
from enum import Enum
from functools import lru_cache

from ...errors import RulebookError
from ...messages import msg, msg_p

FILES = "abcdefgh"
SQUARES = tuple(f"{file}{rank}" for rank in range(1, 9) for file in FILES)
EMPTY = "." * 64
ORC, SPRITE, NOTHING = "o", "s", "."
# Translators: a clan of La Strage by the colour of its hair, as a name ("Red rolls 4", "Rouge"…).
CLANS = (msg_p("clan", "red"), msg_p("clan", "green"), msg_p("clan", "blue"), msg_p("clan", "yellow"))  # player 0, 1, 2 (3)
# Translators: a clan's half-elf as a sentence names it, with its article.
THE_HALF_ELF = (msg("the red half-elf"), msg("the green half-elf"), msg("the blue half-elf"), msg("the yellow half-elf"))
# Translators: the pieces as a board's caption and tooltips name them (no article).
HALF_ELF = (msg("red half-elf"), msg("green half-elf"), msg("blue half-elf"), msg("yellow half-elf"))
ORC_NAME, SPRITE_NAME = msg("orc"), msg("sprite")
# Translators: the letter drawn on a piece of the board: orc, sprite, half-elf (one letter each).
ORC_LETTER, SPRITE_LETTER, HALF_ELF_LETTER = msg_p("piece letter", "O"), msg_p("piece letter", "S"), msg_p("piece letter", "H")
ALONE = "RGBY"  # a clan's half-elf on its own
ESCORTING = "rgby"  # a clan's half-elf with a sprite in its square
HALF_ELF_LETTERS = ALONE + ESCORTING  # any half-elf
PLACEMENT_RANKS = (1, 2)  # the two bottom rows: the placement area
EXIT_RANK = 8  # the top row: the exit area
SPRITES, ORCS, HALF_ELVES = 16, 8, 6  # pieces in the box (half-elves per clan)
PLACEMENT_AREA = SQUARES[:8 * len(PLACEMENT_RANKS)]  # the first squares of SQUARES: rows 1 and 2


_INDEX = {square: i for i, square in enumerate(SQUARES)}


def index(square: str) -> int:
    try:
        return _INDEX[square]
    except (KeyError, TypeError):
        raise RulebookError(f"{square!r} is not a square of the map; write a1 … h8") from None


def rank(square: str) -> int:
    return int(square[1])


def at(cells: str, square: str) -> str:
    return cells[_INDEX[square] if square in _INDEX else index(square)]


def put(cells: str, square: str, letter: str) -> str:
    i = index(square)
    return cells[:i] + letter + cells[i + 1:]


@lru_cache(maxsize=None)  # pure: cache.py
def neighbours(square: str) -> tuple[str, ...]:
    """The up to eight squares one step away, diagonals included, in a1..h8 order."""
    i = index(square)
    file, row = i % 8, i // 8
    return tuple(
        SQUARES[r * 8 + f]
        for r in range(row - 1, row + 2) for f in range(file - 1, file + 2)
        if (r, f) != (row, file) and 0 <= r < 8 and 0 <= f < 8
    )


def adjacent(a: str, b: str) -> bool:
    return b in neighbours(a)


def clan_of(letter: str) -> int | None:
    """The player whose half-elf the letter shows, or None for an orc, a sprite, nothing."""
    if letter in ALONE:
        return ALONE.index(letter)
    if letter in ESCORTING:
        return ESCORTING.index(letter)
    return None


def without_half_elf(letter: str) -> str:
    """What stays on a square when its half-elf leaves it: the sprite it escorted, or nothing."""
    return SPRITE if letter in ESCORTING else NOTHING


def count(cells: str, letters: str) -> int:
    return sum(map(cells.count, letters))


@lru_cache(maxsize=None)  # pure: cache.py
def _finder(letters: str) -> re.Pattern[str]:
    return re.compile(f"[{re.escape(letters)}]")


def squares_of(cells: str, letters: str) -> tuple[str, ...]:
    """The squares holding one of ``letters``, in a1..h8 order (a search, not a walk of 64 cells)."""
    return tuple(SQUARES[found.start()] for found in _finder(letters).finditer(cells))


#: Per square index, the indices of its neighbours (``neighbours`` by number, for the scans).
_NEAR = tuple(tuple(_INDEX[n] for n in neighbours(square)) for square in SQUARES)


def orc_reach(cells: str, start: str) -> tuple[str, ...]:
    """Where an orc can end after one or two steps, each step into an empty square."""
    origin = _INDEX[start]
    first = [i for i in _NEAR[origin] if cells[i] == NOTHING]
    found = set(first)
    for step in first:
        found.update(i for i in _NEAR[step] if i != origin and cells[i] == NOTHING)
    return tuple(SQUARES[i] for i in sorted(found))


def can_step(cells: str, start: str) -> bool:
    """Whether a piece on ``start`` has an empty square next to it."""
    return any(cells[i] == NOTHING for i in _NEAR[_INDEX[start]])


def orc_attacks(cells: str) -> list[tuple[str, str]]:
    """Each (orc, half-elf) pair of neighbouring squares, orcs in a1..h8 order."""
    return [(SQUARES[orc.start()], SQUARES[i]) for orc in _finder(ORC).finditer(cells) for i in _NEAR[orc.start()]
            if cells[i] in HALF_ELF_LETTERS]


def picture(cells: str) -> str:
    """The map with rank 8 on top, as a player sitting at the placement area sees it."""
    head = "  " + " ".join(FILES)
    rows = [f"{r} {' '.join(cells[(r - 1) * 8:r * 8])} {r}" for r in range(8, 0, -1)]
    return "\n".join([head, *rows, head])


class Phase(Enum):
    """What a game waits for; shared by the engine and its magic rules."""

    ORDER = msg("turn order roll")
    AP = msg("action point roll")
    SHUFFLE = msg("reshuffle")
    ACTIONS = msg("to place, move, fight or end")
    COMBAT = msg("combat roll")
    MAGIC = msg("may cast a spell or end")
    OPPOSE = msg("may oppose the spell")
    INSIST = msg("may insist on the spell")
    ORCS = msg("to place or move an orc")
    ORC_ATTACK = msg("chooses the orcs' attack")
    ORC_ROLL = msg("orc attack roll")
    MASSACRE = msg("massacre rolls")
    OVER = msg("game over")
