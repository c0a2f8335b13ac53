"""Board figures: a BoardFigure (plain data from an engine state) drawn as SVG."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from rulebook.engines.base import BoardFigure, Piece
from rulebook.errors import RulebookError
from rulebook.render.figures import board_svg, square_xy

SVG = "{http://www.w3.org/2000/svg}"


def test_chessboard_with_pieces_marks_and_an_arrow() -> None:
    figure = BoardFigure(
        pieces=(Piece("e1", "king", "white"), Piece("e8", "king", "black"), Piece("b7", "orc", "Rossi")),
        arrows=(("e1", "e2"),),
        marks=("e2",),
    )
    svg = str(board_svg(figure, label="Esempio"))
    root = ET.fromstring(svg)  # well-formed XML
    assert root.get("viewBox") == "0 0 320 320" and root.get("aria-label") == "Esempio"
    squares = root.findall(f"{SVG}rect")
    assert len(squares) == 64
    fills = {r.get("data-square"): r.get("fill") for r in squares}
    assert fills["a1"] == "#b58863" and fills["h1"] == "#f0d9b5" and fills["e2"] == "#f6f669"  # a1 dark, marks
    pieces = {g.get("data-square"): g for g in root.iter(f"{SVG}g") if g.get("class") == "rb-piece"}
    assert set(pieces) == {"e1", "e8", "b7"}
    assert pieces["e1"].find(f"{SVG}text").text == "\u265a"  # chess kinds get their glyph
    assert pieces["b7"].find(f"{SVG}text").text == "O"  # other kinds their initial
    assert pieces["b7"].find(f"{SVG}title").text == "Rossi orc b7"
    # e1 is at the bottom: column e (5th), lowest rank.
    circle = pieces["e1"].find(f"{SVG}circle")
    assert (float(circle.get("cx")), float(circle.get("cy"))) == (180, 300)
    arrow = [g for g in root.iter(f"{SVG}g") if g.get("class") == "rb-arrow"][0]
    assert arrow.get("data-move") == "e1-e2"
    line, head = arrow.find(f"{SVG}line"), arrow.find(f"{SVG}polygon")
    assert (line.get("x1"), line.get("y1"), line.get("x2")) == ("180", "300", "180")
    assert head.get("points").split()[0] == "180,260"  # the tip is on the centre of e2
    assert "id=" not in svg  # no ids: the same board may be drawn twice on a page


def test_boards_of_other_sizes_and_bad_squares() -> None:
    figure = BoardFigure(pieces=(Piece("c3", "sprite"),), files=3, ranks=3)
    root = ET.fromstring(str(board_svg(figure)))
    assert len(root.findall(f"{SVG}rect")) == 9
    assert square_xy("a3", figure, 10) == (5, 5)
    with pytest.raises(RulebookError, match="'d1' is not a square of a 3x3 board"):
        board_svg(BoardFigure(pieces=(Piece("d1", "orc"),), files=3, ranks=3))


def test_engine_words_are_escaped() -> None:
    svg = str(board_svg(BoardFigure(pieces=(Piece("a1", "<script>", "\"x"),))))
    assert "<script>" not in svg and "&lt;script&gt;" in svg
    ET.fromstring(svg)
