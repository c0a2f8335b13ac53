"""Board figures beside worked examples, drawn as SVG.

The engine never draws: a state's ``figure()`` gives a :class:`~rulebook.figures.BoardFigure`
(plain data: pieces on squares, arrows for moves, marked squares) and the example runner keeps
the final one on the :class:`~rulebook.examples.Outcome`. This module turns it into SVG. Piece
kinds and sides are engine words (``"orc"``, ``"half-elf"``), so they are escaped like any text.
"""

from __future__ import annotations

import hashlib
import math
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass

from markupsafe import Markup, escape

from ..cache import current, kind
from ..errors import RulebookError
from ..figures import BoardFigure, Piece
from .ui import Words

_LIGHT, _DARK, _MARK, _ARROW = "#f0d9b5", "#b58863", "#f6f669", "#15781b"
_CHESS = {"king": "\u265a", "queen": "\u265b", "rook": "\u265c", "bishop": "\u265d", "knight": "\u265e", "pawn": "\u265f"}
_SIDES = {
    "white": ("#ffffff", "#222222"),
    "black": ("#222222", "#ffffff"),
    # Sides named after a colour (La Strage's clans) are drawn in that colour.
    "red": ("#c62828", "#ffffff"),
    "green": ("#2e7d32", "#ffffff"),
    "blue": ("#1565c0", "#ffffff"),
    "yellow": ("#f9a825", "#222222"),
}
_PALETTE = ("#c62828", "#1565c0", "#2e7d32", "#6a1b9a", "#ef6c00", "#00838f", "#4e342e", "#ad1457")


def square_xy(square: str, figure: BoardFigure, cell: float) -> tuple[float, float]:
    """Centre of a square (``a1`` bottom left) in SVG coordinates."""
    letters = "abcdefghijklmnopqrstuvwxyz"[: figure.files]
    column, rank = square[:1], square[1:]
    if not column or column not in letters or not rank.isdigit() or not 1 <= int(rank) <= figure.ranks:
        raise RulebookError(f"{square!r} is not a square of a {figure.files}x{figure.ranks} board")
    return (letters.index(column) + 0.5) * cell, (figure.ranks - int(rank) + 0.5) * cell


def side_colours(side: str) -> tuple[str, str]:
    if side.lower() in _SIDES:
        return _SIDES[side.lower()]
    if not side:
        return "#9e9e9e", "#000000"
    digest = hashlib.sha1(side.encode()).digest()[0]  # a stable colour per side name
    return _PALETTE[digest % len(_PALETTE)], "#ffffff"


#: Room around the board for its coordinates: rank numbers on the left, file letters below,
#: outside the squares so no piece ever covers one.
_MARGIN = 0.4
_COORDINATE_SIZE = 0.33  # of a square: 13 px on the 40 px squares drawn at their own size


#: How a page says an engine's message as plain text (:meth:`rulebook.render.proofs.EngineSpeech.plain`).
Say = Callable[[str], str]


def _english(text: str) -> str:
    return str(text)


def piece_labels(figure: BoardFigure, say: Say = _english) -> tuple[tuple[str, str], ...]:
    """Each piece's name and the letter drawn on it, in the page's language."""
    return tuple((say(piece.name) if piece.name else piece_name(piece),
                  say(piece.letter) if piece.letter else (_CHESS.get(piece.kind.lower()) or (piece.kind[:1].upper() or "?")))
                 for piece in figure.pieces)


def board_svg(figure: BoardFigure, *, cell: int = 40, label: str = "", say: Say = _english) -> Markup:
    """The board: squares, marked squares, coordinates, pieces (a glyph or the kind's initial) and arrows.

    Shapes are drawn once per board (the dark squares are one path); what is the same on every
    board (stroke widths, text placement) is in the site's stylesheet, not on each element.
    """
    margin = round(cell * _MARGIN)
    width, height = figure.files * cell + margin, figure.ranks * cell + margin
    title = label or f"{figure.files}x{figure.ranks} board"
    return Markup(
        '<svg class="rb-board" xmlns="http://www.w3.org/2000/svg" viewBox="{0} 0 {1} {2}" width="{1}" height="{2}" role="img" aria-label="{3}">'
        "<title>{3}</title>{4}</svg>"
    ).format(-margin, width, height, title, _board_body(figure, cell, piece_labels(figure, say)))


BOARDS = kind("board", ("figure", "cell"), "a board figure's squares, marks, coordinates, arrows and discs (frozen data), "
              "drawn once per size: the same in every language, only the pieces' names and letters are the page's")


def _board_body(figure: BoardFigure, cell: int, labels: tuple[tuple[str, str], ...]) -> Markup:
    cache = current()
    key = (figure, cell)
    drawn = _drawn(key) if cache is None else cache.memo(BOARDS, key, _drawn)
    return drawn.labelled(labels)


@dataclass(frozen=True)
class _Drawn:
    """A board drawn but for its pieces' names and letters: what lies under the names (squares,
    marks, coordinates, arrow shafts), each piece's markup around its name and its letter, and
    what lies over the pieces (arrowheads). Every value in it is escaped already."""

    under: str
    pieces: tuple[tuple[str, str, str], ...]  # (up to the name, between the name and the letter, after the letter)
    over: str

    def labelled(self, labels: tuple[tuple[str, str], ...]) -> Markup:
        named = "".join(f"{before}{escape(name)}{between}{escape(glyph)}{after}"
                        for (before, between, after), (name, glyph) in zip(self.pieces, labels))
        return Markup(f"{self.under}{named}{self.over}")


def _drawn(key: tuple[BoardFigure, int]) -> _Drawn:
    # f-strings of escaped values: Markup.format parses its format string in Python at each call,
    # and a repository build draws thousands of these elements.
    figure, cell = key
    dark = "".join(f"M{column * cell} {row * cell}h{cell}v{cell}h-{cell}z"
                   for row in range(figure.ranks) for column in range(figure.files) if (row + column) % 2)
    out: list[str] = [f'<rect width="{figure.files * cell}" height="{figure.ranks * cell}" fill="{_LIGHT}"/><path d="{dark}" fill="{_DARK}"/>']
    for square in figure.marks:
        x, y = square_xy(square, figure, cell)
        out.append(f'<rect class="rb-mark" data-square="{escape(square)}" x="{x - cell / 2:g}" y="{y - cell / 2:g}" '
                   f'width="{cell}" height="{cell}" fill="{_MARK}"/>')
    out.append(_coordinates(figure, cell))
    discs = _discs(figure, cell)
    arrows = [arrow_geometry(figure, start, end, cell, discs) for start, end in figure.arrows]
    # An arrow's shaft goes under the pieces (a piece left on its start square stays legible),
    # its head over them, outside the discs on its end square: seen whatever the distance.
    for (start, end), ((x1, y1, x2, y2), _) in zip(figure.arrows, arrows):
        out.append(f'<line class="rb-arrow" data-move="{escape(start)}-{escape(end)}" x1="{x1:g}" y1="{y1:g}" x2="{x2:g}" y2="{y2:g}" '
                   f'stroke="{_ARROW}" stroke-width="{cell / 7:g}"/>')
    pieces = []
    for piece, (x, y, radius, size) in zip(figure.pieces, discs):
        fill, ink = side_colours(piece.side)
        square = escape(piece.square)
        pieces.append((f'<g class="rb-piece" data-square="{square}" data-kind="{escape(piece.kind)}"><title>',
                       (f' {square}</title><circle cx="{x:g}" cy="{y:g}" r="{radius:g}" fill="{fill}" stroke="{ink}"/>'
                        f'<text x="{x:g}" y="{y:g}"{_CENTRED} font-size="{size:g}" fill="{ink}">'),
                       "</text></g>"))
    heads = []
    for (start, end), (_, head) in zip(figure.arrows, arrows):
        # Arrowheads are drawn as triangles, not SVG markers: a marker needs an id, and the
        # same board may appear twice on a page. The light edge keeps a head seen on a disc
        # of its own green or on a piece left on a one-square move's start.
        points = " ".join(f"{x:g},{y:g}" for x, y in head)
        heads.append(f'<polygon class="rb-arrowhead" data-move="{escape(start)}-{escape(end)}" points="{points}" fill="{_ARROW}" '
                     f'stroke="#ffffff" stroke-width="{cell / 40:g}"/>')
    return _Drawn("".join(out), tuple(pieces), "".join(heads))


#: A drawn piece: centre, radius and letter size, in the order of ``BoardFigure.pieces``.
Disc = tuple[float, float, float, float]
Point = tuple[float, float]


def _discs(figure: BoardFigure, cell: int) -> list[Disc]:
    sharing: defaultdict[str, list[int]] = defaultdict(list)
    for index, piece in enumerate(figure.pieces):
        sharing[piece.square].append(index)
    return [_place(square_xy(piece.square, figure, cell), sharing[piece.square].index(index), len(sharing[piece.square]), cell)
            for index, piece in enumerate(figure.pieces)]


def arrow_geometry(figure: BoardFigure, start: str, end: str, cell: int,
                   discs: list[Disc] | None = None) -> tuple[tuple[float, float, float, float], tuple[Point, Point, Point]]:
    """An arrow's shaft ``(x1, y1, x2, y2)`` and head (tip, then the two corners of its base).

    The tip points at the centre of ``end`` when nothing stands there; else it stops short of
    the pieces there, at the first point (half-pixel steps back) where the whole head clears
    each of their discs by a small gap. A neighbouring square is a cell away and the pieces on
    a square reach 0.58 of a cell from its centre at most (:func:`_place`), so even a
    one-square move keeps a whole head.
    """
    discs = _discs(figure, cell) if discs is None else discs
    (x1, y1), (x2, y2) = square_xy(start, figure, cell), square_xy(end, figure, cell)
    length = math.hypot(x2 - x1, y2 - y1) or 1.0
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    there = [(x, y, radius + cell * 0.05) for piece, (x, y, radius, _) in zip(figure.pieces, discs) if piece.square == end]
    full, half = cell * 0.35, cell * 0.2

    def head_at(stop: float) -> tuple[Point, Point, Point]:
        size = min(full, max(length - stop, 1.0))
        tx, ty = x2 - ux * stop, y2 - uy * stop
        bx, by = tx - ux * size, ty - uy * size
        return (tx, ty), (bx - uy * half, by + ux * half), (bx + uy * half, by - ux * half)

    stop = 0.0
    while there and stop < length and any(_distance_to_triangle((x, y), head_at(stop)) <= clearance for x, y, clearance in there):
        stop += 0.5
    head = head_at(stop)
    base = ((head[1][0] + head[2][0]) / 2, (head[1][1] + head[2][1]) / 2)
    return (x1, y1, *base), head


def _distance_to_triangle(point: Point, triangle: tuple[Point, Point, Point]) -> float:
    """0 when ``point`` is inside ``triangle``, else its distance to the nearest edge."""
    px, py = point
    edges = list(zip(triangle, triangle[1:] + triangle[:1]))
    sides = [(bx - ax) * (py - ay) - (by - ay) * (px - ax) for (ax, ay), (bx, by) in edges]
    if all(side >= 0 for side in sides) or all(side <= 0 for side in sides):
        return 0.0
    nearest = math.inf
    for (ax, ay), (bx, by) in edges:
        t = max(0.0, min(1.0, ((px - ax) * (bx - ax) + (py - ay) * (by - ay)) / (((bx - ax) ** 2 + (by - ay) ** 2) or 1.0)))
        nearest = min(nearest, math.hypot(px - ax - t * (bx - ax), py - ay - t * (by - ay)))
    return nearest


def piece_name(piece: Piece) -> str:
    """How a piece is named: its side and kind, the engine's words (``red half-elf``)."""
    return " ".join(part for part in (piece.side, piece.kind) if part)


def board_caption(figure: BoardFigure, words: Words, say: Say = _english) -> Markup:
    """The board in words, for a reader who cannot see it: each occupied square and its pieces,
    in board order (a1, a2 … b1 …), then the marked squares and the moves drawn."""
    on: defaultdict[str, list[str]] = defaultdict(list)
    for piece, (name, _) in zip(figure.pieces, piece_labels(figure, say)):
        on[piece.square].append(name)
    order = sorted(on, key=lambda square: (square[:1], int(square[1:])))
    parts = []
    if order:
        # Translators: one square of a board and the pieces on it, e.g. "e4: sprite, red half-elf".
        squares = [words.gettext("{square}: {pieces}", square=square, pieces=", ".join(on[square])) for square in order]
        items = Markup("").join(Markup("<li>{}</li>").format(square) for square in squares)
        # Translators: a board's description for screen readers, before the list of its pieces.
        parts.append(Markup("<p>{}</p><ul>{}</ul>").format(words.gettext("Pieces on the board, by square:"), items))
    else:
        parts.append(Markup("<p>{}</p>").format(words.gettext("No pieces on the board.")))
    if figure.marks:
        parts.append(Markup("<p>{}</p>").format(words.gettext("Marked squares: {squares}", squares=", ".join(figure.marks))))
    if figure.arrows:
        # Translators: the moves a board shows as arrows, each written "e2 → e4".
        moves = ", ".join(f"{start} \u2192 {end}" for start, end in figure.arrows)
        parts.append(Markup("<p>{}</p>").format(words.gettext("Moves shown: {moves}", moves=moves)))
    return Markup("").join(parts)


def _place(centre: tuple[float, float], position: int, count: int, cell: int) -> tuple[float, float, float, float]:
    """Centre, radius and font size of one of ``count`` pieces on a square.

    An escorting half-elf shares its sprite's square: the pieces are fanned out along the
    square's diagonal, first bottom-left, so each one stays visible.
    """
    x, y = centre
    if count == 1:
        return x, y, cell * 0.4, cell * 0.5
    step = cell * 0.44 / (count - 1)
    offset = -cell * 0.22 + position * step
    return x + offset, y - offset, cell * 0.27, cell * 0.34


#: A letter centred on its point, said on the element itself: a PDF (WeasyPrint draws the SVG)
#: sees no stylesheet of the site's, and its SVG renderer reads these attributes on the text alone.
_CENTRED = Markup(' text-anchor="middle" dominant-baseline="central"')


def _coordinates(figure: BoardFigure, cell: int) -> str:
    """Rank numbers left of the board and file letters below it, in the page's text colour."""
    letters = "abcdefghijklmnopqrstuvwxyz"
    margin = cell * _MARGIN
    bottom = figure.ranks * cell
    labels = [f'<text x="{(column + 0.5) * cell:g}" y="{bottom + margin / 2:g}"{_CENTRED}>{letters[column]}</text>'
              for column in range(figure.files)]
    labels += [f'<text x="{-margin / 2:g}" y="{(row + 0.5) * cell:g}"{_CENTRED}>{figure.ranks - row}</text>'
               for row in range(figure.ranks)]
    return f'<g class="rb-coordinate" font-size="{round(cell * _COORDINATE_SIZE):g}" fill="currentColor">{"".join(labels)}</g>'
