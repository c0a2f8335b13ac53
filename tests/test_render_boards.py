"""An example's boards on its page, in every language (issue 26 point 3): before and after where
the pieces move, a visible caption under each board and a legend under them whose letters are the
drawing's, the map-legend example's text naming those same letters, every letter centred by the
SVG itself in the document the PDF is made from."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from functools import lru_cache
from html import unescape

import pytest
from markupsafe import escape

from rulebook.examples import Outcome, run_example
from rulebook.loader import load_book
from rulebook.pdf import PRINT_CSS
from rulebook.render import Site

LANGUAGES = ["it", "en", "fr", "es", "pt", "ru"]
SVG = "{http://www.w3.org/2000/svg}"


@lru_cache(maxsize=None)
def _site() -> Site:
    book = load_book("rules/strage.yaml")
    outcomes = [run_example(book, rule, example) for rule, example in book.examples()]
    assert all(outcome.passed for outcome in outcomes)
    return Site({book.id: book}, outcomes, languages=LANGUAGES)


@dataclass(frozen=True)
class Shown:
    """One example's figure as a page shows it."""

    text: str  # the example's text, as plain text
    boards: list[ET.Element]  # each board's <svg>
    captions: list[str]  # the visible caption under each board
    legend: list[tuple[str, str, str]]  # each swatch's letter, fill, and the name beside it
    html: str


def _svg(markup: str) -> ET.Element:
    return ET.fromstring(markup)


@lru_cache(maxsize=None)
def _shown(language: str, printed: bool = False) -> dict[str, Shown]:
    site = _site()
    html = str(site.printed_book("strage", language)) if printed else str(site.book_page("strage", language).html)
    found = {}
    for chunk in html.split('<div class="admonition example rb-example')[1:]:
        example_id = re.search(r'id="([^"]+)"', chunk).group(1)
        figure = re.search(r'<figure class="rb-figure">(.*?)<figcaption class="rb-figure-legend">(.*?)</figcaption></figure>', chunk, re.DOTALL)
        if not figure:
            continue
        boards_html, legend_html = figure.groups()
        text = re.search(r"</p>\s*(.*?)<figure", chunk, re.DOTALL).group(1)
        found[example_id] = Shown(
            text=unescape(re.sub(r"<[^>]+>", "", text)),
            boards=[_svg(svg) for svg in re.findall(r'<svg class="rb-board".*?</svg>', boards_html, re.DOTALL)],
            captions=[unescape(re.sub(r"<[^>]+>", "", caption)).strip()
                      for caption in re.findall(r'<figcaption class="rb-board-caption">(.*?)<div class="rb-board-words">', boards_html, re.DOTALL)],
            legend=[(unescape(letter), fill, unescape(name).strip())
                    for fill, letter, name in re.findall(r'<li class="rb-legend-piece"><svg[^>]*><circle[^>]*fill="([^"]+)"[^>]*/><text[^>]*>([^<]*)</text></svg>([^<]*)</li>',
                                                         legend_html)],
            html=figure.group(0),
        )
    return found


def _drawn(board: ET.Element) -> list[tuple[str, str, str, str]]:
    """Each piece drawn on a board: square, kind, letter, fill."""
    return [(g.get("data-square"), g.get("data-kind"), g.find(f"{SVG}text").text, g.find(f"{SVG}circle").get("fill"))
            for g in board.iter(f"{SVG}g") if g.get("class") == "rb-piece"]


def _outcomes() -> dict[str, Outcome]:
    return {outcome.example.id: outcome for outcome in _site().outcomes}


@pytest.mark.parametrize("language", LANGUAGES)
def test_an_example_that_moves_pieces_shows_the_board_before_and_after(language: str) -> None:
    shown, outcomes, words = _shown(language), _outcomes(), _site().words(language)
    before, after = words.pgettext("board", "Before").text, words.pgettext("board", "After").text
    only = words.gettext("The position in this example").text
    assert len({before, after, only}) == 3
    moving = [example_id for example_id, outcome in outcomes.items() if outcome.before is not None]
    # Every example whose final board has an arrow moved a piece (the issue counted them).
    assert {example_id for example_id, outcome in outcomes.items() if outcome.figure is not None and outcome.figure.arrows} <= set(moving)
    assert len(moving) >= 20
    assert set(shown) == {example_id for example_id, outcome in outcomes.items() if outcome.figure is not None}
    for example_id, figure in shown.items():
        outcome = outcomes[example_id]
        assert outcome.figure is not None
        # The boards are the engine's: each piece drawn where the run's state had it.
        engine_boards = [outcome.figure] if outcome.before is None else [outcome.before, outcome.figure]
        assert [[(square, kind) for square, kind, _, _ in _drawn(board)] for board in figure.boards] == \
            [[(piece.square, piece.kind) for piece in board.pieces] for board in engine_boards], example_id
        assert figure.captions == ([only] if outcome.before is None else [before, after]), example_id
    # What a move looks like: a board where the half-elf still stands on d4, another where it is on c5.
    start, end = (_drawn(board) for board in shown["muovere-un-passo"].boards)
    assert any(square == "d4" and kind == "half-elf" for square, kind, _, _ in start)
    assert any(square == "c5" and kind == "half-elf" for square, kind, _, _ in end)
    assert not any(square == "d4" for square, *_ in end)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_legend_shows_the_letters_and_colours_the_boards_are_drawn_with(language: str) -> None:
    words = _site().words(language)
    arrow, mark = (str(escape(words.pgettext("board legend", message).text)) for message in ("a move in this example", "a marked square"))
    for example_id, figure in _shown(language).items():
        drawn = {(letter, fill) for board in figure.boards for _, _, letter, fill in _drawn(board)}
        assert {(letter, fill) for letter, fill, _ in figure.legend} == drawn, example_id
        # Each name in the legend is the one the board's pieces carry in this language (their tooltips).
        titles = {title.text.rsplit(" ", 1)[0] for board in figure.boards for title in board.iter(f"{SVG}title")
                  if title is not board.find(f"{SVG}title")}
        assert {name for _, _, name in figure.legend} == titles, example_id
        assert len(figure.legend) == len({(letter, fill) for letter, fill, _ in figure.legend})  # each kind once
        has_arrows = any(board.find(f"{SVG}polygon[@class='rb-arrowhead']") is not None for board in figure.boards)
        assert (arrow in figure.html) == has_arrows, example_id
        has_marks = any(board.find(f"{SVG}rect[@class='rb-mark']") is not None for board in figure.boards)
        assert (mark in figure.html) == has_marks, example_id
    letters = {letter for figure in _shown(language).values() for letter, _, _ in figure.legend}
    # Russian boards are lettered in Cyrillic, the others in Latin letters.
    assert all(("\u0400" <= letter <= "\u04ff") == (language == "ru") for letter in letters), letters


#: A letter quoted in a text: «F», “S”, « L » (French spaces), "O".
_QUOTED_LETTER = re.compile(r"[«“\"]\s?(\w)\s?[»”\"]")


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_map_legend_example_names_the_letters_its_board_shows(language: str) -> None:
    """The example that explains the boards names the letters drawn on them, in the page's
    language (not the engine's text map, «o», «s», R, G, B, which only the folded proof shows)."""
    figure = _shown(language)["mappa-legenda"]
    said = set(_QUOTED_LETTER.findall(figure.text))
    assert said == {letter for letter, _, _ in figure.legend}, (said, figure.legend, figure.text)
    assert len(said) == 3  # sprite, orc, half-elf


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_printed_boards_centre_every_letter_in_the_svg_and_keep_legend_and_captions(language: str) -> None:
    """The PDF is made from this document, drawn by WeasyPrint without the site's stylesheet:
    every letter (pieces, coordinates, legend swatches) is centred by its own attributes."""
    printed = _shown(language, printed=True)
    assert printed.keys() == _shown(language).keys()
    for example_id, figure in printed.items():
        swatches = [_svg(svg) for svg in re.findall(r'<svg class="rb-swatch".*?</svg>', figure.html, re.DOTALL)]
        texts = [text for svg in [*figure.boards, *swatches] for text in svg.iter(f"{SVG}text")]
        assert texts
        for text in texts:
            assert (text.get("text-anchor"), text.get("dominant-baseline")) == ("middle", "central"), (example_id, ET.tostring(text))
        assert figure.captions, example_id
        assert figure.legend, example_id
    # ... and the print stylesheet shows the captions and the legend (only the words for screen
    # readers are left out of the page).
    hidden = re.findall(r"([^{}]*)\{[^}]*display:\s*none", PRINT_CSS.read_text(encoding="utf-8"))
    assert not [rule for rule in hidden if re.search(r"rb-board-caption|rb-figure-legend|rb-legend|rb-swatch|rb-board(?![\w-])", rule)], hidden
    assert any("rb-board-words" in rule for rule in hidden)
