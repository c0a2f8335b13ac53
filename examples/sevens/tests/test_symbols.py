"""A symbol of Sevens' own: the rules write ``{knock}`` (a knock on the table, "I pass"), the
engine defines it (``symbols()`` in engine.py, rulebook's engine interface), and every page
draws it with its label in the page's language, from the engine's own catalogs. Nothing in
rulebook knows this symbol: a game brings its symbols as it brings its words.
"""

from __future__ import annotations

import html
from pathlib import Path

import pytest

from rulebook.errors import LoadError
from rulebook.loader import load_book
from rulebook.render import Site
from rulebook.symbols import SYMBOLS
from sevens import engine

PROJECT = Path(__file__).resolve().parent.parent


def test_the_symbol_is_the_engines_not_the_toolkits() -> None:
    (knock,) = engine.symbols()
    assert knock.token == "{knock}" and knock.token not in SYMBOLS and knock.kind == "engine"


def test_the_rules_use_it() -> None:
    book = load_book(PROJECT / "rules" / "sevens.yaml")
    assert "{knock}" in next(rule for rule in book.rules() if rule.id == "pass").text


@pytest.mark.parametrize(("language", "label"), [
    ("en", "a knock on the table: the player passes"),
    ("it", "un colpo sul tavolo: il giocatore passa"),
    ("fr", "un coup sur la table\u202f: le joueur passe"),
])
def test_each_page_draws_it_with_its_label_in_the_pages_language(language: str, label: str) -> None:
    book = load_book(PROJECT / "rules" / "sevens.yaml")
    page = Site({book.id: book}, (), locales=PROJECT / "locales", languages=["en", "it", "fr"]).book_page(book.id, language).html
    drawn = f'<span class="rb-symbol rb-symbol--knock" role="img" aria-label="{label}" title="{label}">\u270a</span>'
    assert drawn in html.unescape(str(page)), "the rule 'pass' should show the fist with its label"
    assert "{knock}" not in page  # never left as text


def test_a_book_of_another_engine_may_not_use_it(tmp_path: Path) -> None:
    text = (PROJECT / "rules" / "sevens.yaml").read_text(encoding="utf-8").replace("engine: sevens", "engine: bidomino")
    (tmp_path / "sevens.yaml").write_text(text, encoding="utf-8")
    with pytest.raises(LoadError, match=r"unknown symbol \{knock\} in text of rule 'pass'"):
        load_book(tmp_path / "sevens.yaml")
