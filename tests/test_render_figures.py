"""Board figures: a BoardFigure (plain data from an engine state) drawn as SVG."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from rulebook.figures import BoardFigure, Piece
from rulebook.errors import RulebookError
from rulebook.render.figures import board_caption, board_svg, square_xy
from rulebook.render.ui import shipped_words

SVG = "{http://www.w3.org/2000/svg}"


def square_fills(root: ET.Element, figure: BoardFigure, cell: int = 40) -> dict[str, str]:
    """The colour each square shows: the board's colour, the dark squares' path, then marks on top."""
    board, dark = root.find(f"{SVG}rect"), root.find(f"{SVG}path")
    origins = {tuple(map(int, m)) for m in re.findall(r"M(\d+) (\d+)h", dark.get("d"))}
    fills = {}
    for column in range(figure.files):
        for rank in range(1, figure.ranks + 1):
            origin = (column * cell, (figure.ranks - rank) * cell)
            fills[f"{'abcdefgh'[column]}{rank}"] = dark.get("fill") if origin in origins else board.get("fill")
    for mark in root.iter(f"{SVG}rect"):
        if mark.get("class") == "rb-mark":
            fills[mark.get("data-square")] = mark.get("fill")
    return fills


def test_chessboard_with_pieces_marks_and_an_arrow() -> None:
    figure = BoardFigure(
        pieces=(Piece("e1", "king", "white"), Piece("e8", "king", "black"), Piece("b7", "orc", "Rossi")),
        arrows=(("e1", "e2"),),
        marks=("e2",),
    )
    svg = str(board_svg(figure, label="Esempio"))
    root = ET.fromstring(svg)  # well-formed XML
    assert root.get("aria-label") == "Esempio"
    left, top, width, height = map(float, root.get("viewBox").split())
    assert left < 0 and top == 0 and left + width == 320 and height > 320  # the board, and room for coordinates
    fills = square_fills(root, figure)
    assert len(fills) == 64
    assert fills["a1"] == "#b58863" and fills["h1"] == "#f0d9b5" and fills["a8"] == "#f0d9b5" and fills["e2"] == "#f6f669"
    assert len(svg) < 4000  # one path for 32 dark squares, not 64 rectangles
    pieces = {g.get("data-square"): g for g in root.iter(f"{SVG}g") if g.get("class") == "rb-piece"}
    assert set(pieces) == {"e1", "e8", "b7"}
    assert pieces["e1"].find(f"{SVG}text").text == "\u265a"  # chess kinds get their glyph
    assert pieces["b7"].find(f"{SVG}text").text == "O"  # other kinds their initial
    assert pieces["b7"].find(f"{SVG}title").text == "Rossi orc b7"
    # e1 is at the bottom: column e (5th), lowest rank.
    circle = pieces["e1"].find(f"{SVG}circle")
    assert (float(circle.get("cx")), float(circle.get("cy"))) == (180, 300)
    line, head = root.find(f"{SVG}line[@class='rb-arrow']"), root.find(f"{SVG}polygon[@class='rb-arrowhead']")
    assert line.get("data-move") == head.get("data-move") == "e1-e2"
    assert (line.get("x1"), line.get("y1"), line.get("x2")) == ("180", "300", "180")
    assert head.get("points").split()[0] == "180,260"  # nothing on e2: the tip is on its centre
    assert "id=" not in svg  # no ids: the same board may be drawn twice on a page


def test_boards_of_other_sizes_and_bad_squares() -> None:
    figure = BoardFigure(pieces=(Piece("c3", "sprite"),), files=3, ranks=3)
    root = ET.fromstring(str(board_svg(figure)))
    assert len(square_fills(root, figure)) == 9 and square_fills(root, figure)["a3"] == "#f0d9b5"  # light at the top left
    assert square_xy("a3", figure, 10) == (5, 5)
    with pytest.raises(RulebookError, match="'d1' is not a square of a 3x3 board"):
        board_svg(BoardFigure(pieces=(Piece("d1", "orc"),), files=3, ranks=3))


def test_engine_words_are_escaped() -> None:
    svg = str(board_svg(BoardFigure(pieces=(Piece("a1", "<script>", "\"x"),))))
    assert "<script>" not in svg and "&lt;script&gt;" in svg
    ET.fromstring(svg)


def _pieces(root: ET.Element) -> list[ET.Element]:
    return [g for g in root.iter(f"{SVG}g") if g.get("class") == "rb-piece"]


def test_clan_colours_are_their_names() -> None:
    figure = BoardFigure(pieces=tuple(Piece(f"{f}1", "half-elf", side) for f, side in zip("abcd", ("red", "green", "blue", "yellow"))))
    fills = [g.find(f"{SVG}circle").get("fill") for g in _pieces(ET.fromstring(str(board_svg(figure))))]
    assert len(set(fills)) == 4  # four clans, four colours
    red, green, blue, yellow = [(int(fill[1:3], 16), int(fill[3:5], 16), int(fill[5:7], 16)) for fill in fills]
    assert red[0] > max(red[1:]) and green[1] > max(green[0], green[2]) and blue[2] > max(blue[:2])
    assert min(yellow[:2]) > yellow[2]


def test_pieces_sharing_a_square_are_all_visible() -> None:
    # An escorting half-elf stands on its sprite's square: both must be seen, inside that square.
    figure = BoardFigure(pieces=(Piece("e4", "sprite"), Piece("e4", "half-elf", "red")))
    circles = [g.find(f"{SVG}circle") for g in _pieces(ET.fromstring(str(board_svg(figure, cell=40))))]
    centres = [(float(c.get("cx")), float(c.get("cy"))) for c in circles]
    assert centres[0] != centres[1]
    for circle, (x, y) in zip(circles, centres):
        r = float(circle.get("r"))
        assert 160 <= x - r and x + r <= 200 and 160 <= y - r and y + r <= 200  # e4 spans 160..200
    (x0, y0), (x1, y1) = centres
    assert ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5 >= float(circles[0].get("r"))  # not hidden


def test_coordinates_are_legible_and_never_under_a_piece() -> None:
    figure = BoardFigure(pieces=tuple(Piece(f"{f}{r}", "orc", "red") for f in "abcdefgh" for r in (1, 8)))
    root = ET.fromstring(str(board_svg(figure, cell=40)))
    group = next(g for g in root.iter(f"{SVG}g") if g.get("class") == "rb-coordinate")
    labels = {t.text: (float(t.get("x")), float(t.get("y"))) for t in group.iter(f"{SVG}text")}
    assert set(labels) == set("abcdefgh") | {str(n) for n in range(1, 9)}
    # At the board's own size (40 px squares): at least 12 px, in the page's text colour
    # (its contrast is the page's), and outside the squares, where no piece is drawn.
    assert float(group.get("font-size")) >= 12 and group.get("fill") == "currentColor"
    for text, (x, y) in labels.items():
        assert x < 0 or y > 320, text
    assert labels["a"][0] == 20 and labels["1"][1] == 300  # each beside its own file and rank


def test_every_letter_is_centred_on_its_point_by_the_svg_itself() -> None:
    """A piece's letter sits on its disc's centre, and a coordinate on its file or rank, in a PDF
    too: WeasyPrint draws the SVG without the site's stylesheet (rulebook.css), so the centring
    is said on each <text>, where its SVG renderer reads it."""
    figure = BoardFigure(pieces=(Piece("e4", "sprite"), Piece("b2", "orc", "green")))
    root = ET.fromstring(str(board_svg(figure, cell=40)))
    texts = list(root.iter(f"{SVG}text"))
    assert len(texts) == 2 + 8 + 8
    for text in texts:
        assert (text.get("text-anchor"), text.get("dominant-baseline")) == ("middle", "central"), ET.tostring(text)
    circles = {g.get("data-square"): g.find(f"{SVG}circle") for g in root.iter(f"{SVG}g") if g.get("class") == "rb-piece"}
    for g in root.iter(f"{SVG}g"):
        if g.get("class") == "rb-piece":
            letter = g.find(f"{SVG}text")
            assert (letter.get("x"), letter.get("y")) == (circles[g.get("data-square")].get("cx"), circles[g.get("data-square")].get("cy"))


def test_the_caption_lists_the_pieces_by_square_in_the_pages_words() -> None:
    figure = BoardFigure(pieces=(Piece("e4", "sprite"), Piece("b2", "orc", "green"), Piece("e4", "half-elf", "red")),
                         marks=("c3",), arrows=(("b2", "c3"),))
    caption = str(board_caption(figure, shipped_words("it")))
    items = re.findall(r"<li>(.*?)</li>", caption)
    assert items == ["b2: green orc", "e4: sprite, red half-elf"]  # board order; the kinds are the engine's words
    assert caption.startswith("<p>Pezzi sulla scacchiera, casella per casella:</p>")
    assert "<p>Caselle evidenziate: c3</p>" in caption and "<p>Mosse indicate: b2 \u2192 c3</p>" in caption
    assert str(board_caption(BoardFigure(pieces=()), shipped_words("ru"))) == "<p>На доске нет фигур.</p>"


def _distance_to_triangle(point: tuple[float, float], triangle: list[tuple[float, float]]) -> float:
    """0 inside the triangle, else the distance to its nearest edge."""
    (px, py), signs = point, []
    for (ax, ay), (bx, by) in zip(triangle, triangle[1:] + triangle[:1]):
        signs.append((bx - ax) * (py - ay) - (by - ay) * (px - ax))
    if all(s >= 0 for s in signs) or all(s <= 0 for s in signs):
        return 0.0
    nearest = []
    for (ax, ay), (bx, by) in zip(triangle, triangle[1:] + triangle[:1]):
        t = max(0.0, min(1.0, ((px - ax) * (bx - ax) + (py - ay) * (by - ay)) / ((bx - ax) ** 2 + (by - ay) ** 2)))
        nearest.append(((px - ax - t * (bx - ax)) ** 2 + (py - ay - t * (by - ay)) ** 2) ** 0.5)
    return min(nearest)


@pytest.mark.parametrize("end", ["c5", "d5", "e5", "e4", "e3", "d3", "c3", "c4"])
@pytest.mark.parametrize("on_end", [("orc",), ("sprite", "half-elf")], ids=["one piece", "escort"])
def test_a_one_square_move_shows_its_whole_arrowhead(end: str, on_end: tuple[str, ...]) -> None:
    """The head of an arrow one square long lies outside every disc on the square it points
    to (one piece, or an escort's two), whole and over the pieces, in all eight directions;
    its shaft goes under them (a sprite left on the start square stays legible)."""
    figure = BoardFigure(pieces=(Piece("d4", "sprite"), *(Piece(end, kind, "green") for kind in on_end)), arrows=(("d4", end),))
    cell = 40
    root = ET.fromstring(str(board_svg(figure, cell=cell)))
    order = [element.get("class") for element in root if element.get("class") in ("rb-arrow", "rb-piece", "rb-arrowhead")]
    assert order == ["rb-arrow", "rb-piece", *["rb-piece"] * len(on_end), "rb-arrowhead"]  # shaft, pieces, head on top
    head = [tuple(map(float, corner.split(","))) for corner in root.find(f"{SVG}polygon[@class='rb-arrowhead']").get("points").split()]
    discs = [g.find(f"{SVG}circle") for g in _pieces(root) if g.get("data-square") == end]
    assert len(discs) == len(on_end)
    for disc in discs:
        centre, radius = (float(disc.get("cx")), float(disc.get("cy"))), float(disc.get("r"))
        assert _distance_to_triangle(centre, head) > radius, (end, on_end, head)
    tip, *base = head
    assert ((tip[0] - base[0][0]) ** 2 + (tip[1] - base[0][1]) ** 2) ** 0.5 >= cell / 4  # a head one sees, not a speck
    # It still points at the square: the tip is inside it, on the way in from d4.
    x, y = square_xy(end, figure, cell)
    assert abs(tip[0] - x) < cell / 2 and abs(tip[1] - y) < cell / 2 and (tip[0] - x, tip[1] - y) != (0, 0)


def test_an_arrow_to_an_empty_square_points_at_its_centre() -> None:
    figure = BoardFigure(pieces=(), arrows=(("a1", "a2"), ("a2", "c4")))
    heads = [root_polygon.get("points").split()[0] for root_polygon in ET.fromstring(str(board_svg(figure, cell=40))).iter(f"{SVG}polygon")]
    assert heads == ["20,260", "100,180"]
