"""An example's boards as the page shows them: before and after (or the one position), each
with its caption, and one legend of what is drawn on them, in the page's language.

:mod:`.figures` draws one board; this module chooses the boards of an example from the
positions its run showed (:attr:`rulebook.examples.Outcome.positions`, computed by the engine)
and says what their letters, colours, arrows and marks mean. The legend's letters are the very
labels the boards are drawn with (:func:`.figures.piece_labels`), so text and drawing agree in
every language.
"""

from __future__ import annotations

from dataclasses import dataclass

from markupsafe import Markup

from ..figures import BoardFigure
from .figures import _ARROW, _CENTRED, _MARK, Say, board_caption, board_svg, piece_labels, side_colours
from .ui import Phrase, Words

__all__ = ["Board", "ExampleFigure", "LegendEntry", "example_figure", "legend_entries"]


@dataclass(frozen=True)
class LegendEntry:
    """One kind of drawn piece: the letter on its disc, its colours, and its name."""

    letter: str
    fill: str
    ink: str
    name: str


@dataclass(frozen=True)
class Board:
    svg: Markup
    caption: Phrase  # what the reader sees under the board: "Before", "After"
    words: Markup  # the board in words, for screen readers (hidden on screen)


@dataclass(frozen=True)
class ExampleFigure:
    boards: tuple[Board, ...]
    legend: Markup


def legend_entries(figures: tuple[BoardFigure, ...], say: Say) -> tuple[LegendEntry, ...]:
    """Each kind of piece drawn on ``figures``, once, in the order it first appears."""
    seen: dict[LegendEntry, None] = {}
    for figure in figures:
        for piece, (name, letter) in zip(figure.pieces, piece_labels(figure, say)):
            fill, ink = side_colours(piece.side)
            seen.setdefault(LegendEntry(letter, fill, ink, name))
    return tuple(seen)


def example_figure(before: BoardFigure | None, after: BoardFigure, words: Words, say: Say) -> ExampleFigure:
    """The boards of an example: the position it starts from and the one it ends on when its
    pieces moved, else its one position; and their legend."""
    boards: tuple[Board, ...]
    if before is None:
        # Translators: a board's caption and description, beside an example where no piece moves.
        only = words.gettext("The position in this example")
        boards = (Board(board_svg(after, label=only.text, say=say), only, board_caption(after, words, say)),)
    else:
        # Translators: the description of the first of two boards beside an example, for screen readers.
        start = words.gettext("The position at the start of the example").text
        # Translators: the description of the second of two boards beside an example, for screen readers.
        end = words.gettext("The position at the end of the example").text
        boards = (
            # Translators: the caption under the board of the position an example starts from.
            Board(board_svg(before, label=start, say=say), words.pgettext("board", "Before"), board_caption(before, words, say)),
            # Translators: the caption under the board of the position an example ends on.
            Board(board_svg(after, label=end, say=say), words.pgettext("board", "After"), board_caption(after, words, say)),
        )
    shown = (after,) if before is None else (before, after)
    return ExampleFigure(boards, _legend(shown, words, say))


_SWATCH = Markup('<svg class="rb-swatch" viewBox="0 0 20 20" width="20" height="20" aria-hidden="true" focusable="false">{}</svg>')


def _legend(figures: tuple[BoardFigure, ...], words: Words, say: Say) -> Markup:
    """What the boards' letters, colours, arrows and marks mean: each drawn as on the board."""
    items = [Markup('<li class="rb-legend-piece">{} {}</li>').format(_SWATCH.format(Markup(
                '<circle cx="10" cy="10" r="9" fill="{}" stroke="{}" stroke-width="1"/><text x="10" y="10"{} font-size="12" fill="{}">{}</text>'
             ).format(entry.fill, entry.ink, _CENTRED, entry.ink, entry.letter)), entry.name)
             for entry in legend_entries(figures, say)]
    if any(figure.arrows for figure in figures):
        # Translators: the legend of a board: what an arrow drawn on it shows.
        moved = words.pgettext("board legend", "a move in this example")
        arrow = Markup('<line x1="2" y1="10" x2="11" y2="10" stroke="{0}" stroke-width="3"/><polygon points="18,10 11,5 11,15" fill="{0}"/>').format(_ARROW)
        items.append(Markup('<li class="rb-legend-arrow">{} {}</li>').format(_SWATCH.format(arrow), moved))
    if any(figure.marks for figure in figures):
        # Translators: the legend of a board: what a square drawn in yellow shows (the board's
        # description for screen readers says "Marked squares: …").
        marked = words.pgettext("board legend", "a marked square")
        square = Markup('<rect x="1" y="1" width="18" height="18" fill="{}" stroke="#888888" stroke-width="1"/>').format(_MARK)
        items.append(Markup('<li class="rb-legend-mark">{} {}</li>').format(_SWATCH.format(square), marked))
    # Translators: the heading of a board's legend (the letters, colours and arrows drawn on it).
    title = words.pgettext("board legend", "Legend")
    return Markup('<p class="rb-legend-title">{}</p><ul class="rb-legend">{}</ul>').format(title, Markup("").join(items))
