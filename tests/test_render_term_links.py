"""Where a text's game terms link: each term's first use, found in one search of the text's pieces."""

from __future__ import annotations

from typing import ClassVar

from rulebook.i18n.glossary import Term
from rulebook.render.glossary import TermFinder, TermLinks
from rulebook.render.text import text_to_html

MANA = Term({"en": ("mana",)}, "glossary.yaml:1")
VALUE = Term({"en": ("mana value",)}, "glossary.yaml:2")
LAND = Term({"en": ("land*",)}, "glossary.yaml:3")
HREFS = {0: "#mana", 1: "#value", 2: "#land"}


def links() -> TermLinks:
    return TermLinks(TermFinder((MANA, VALUE, LAND), "en"), dict(HREFS))


def test_a_texts_pieces_are_cut_apart_each_term_linked_once() -> None:
    # "mana" ends one piece and "value" starts the next: no term runs across them (a symbol or a
    # bold mark stands between), so the first piece links "mana", and "mana value" comes later.
    texts = ["its mana", " value, then mana value and mana", "lands of mana", ""]
    assert links().cut(texts) == [
        [("its ", None), ("mana", "#mana")],
        [(" value, then ", None), ("mana value", "#value"), (" and mana", None)],
        [("lands", "#land"), (" of mana", None)],
        [],
    ]


def test_the_cut_is_what_the_pieces_one_by_one_give() -> None:
    texts = ["A land, then mana", "mana value", "\x00 mana value land", "more mana"]
    one_by_one = links()
    # The third piece holds the character that joins them: searched one by one all the same.
    assert links().cut(texts) == [list(one_by_one.pieces(text)) for text in texts]
    assert links().cut(texts)[1] == [("mana value", "#value")]


def test_a_linked_term_still_hides_a_shorter_one_inside_it() -> None:
    terms = links()
    terms.linked.add(1)  # "mana value" linked by an earlier text of the rule
    assert terms.cut(["the mana value", " and mana"]) == [[("the mana value", None)], [(" and ", None), ("mana", "#mana")]]


def test_the_search_ends_when_no_wanted_term_is_left() -> None:
    finder = TermFinder((MANA, VALUE, LAND), "en")
    wanted = {0, 2}
    found = []
    for index, match in finder.find("land " + "mana value " * 50 + "mana", wanted):
        found.append((index, match.group()))
        wanted.discard(index)
    # After "land", "mana" is wanted: the search goes on past every "mana value" to the last "mana", then stops.
    assert found == [(2, "land"), *[(1, "mana value")] * 50, (0, "mana")]
    assert list(finder.find("mana value mana", set())) == []


def test_a_page_text_links_its_first_uses_across_bold_and_symbols() -> None:
    html = str(text_to_html("Pay {W} **mana** then mana {U} value, then a mana value and lands", terms=links(), language="en"))
    assert html.count('class="rb-term"') == 3
    assert '<strong><a class="rb-term" href="#mana">mana</a></strong>' in html
    assert '<a class="rb-term" href="#value">mana value</a>' in html
    assert '<a class="rb-term" href="#land">lands</a>' in html


class _Terms:
    """What the glossary's uses read of a book page's terms (render.glossary.BookTerms)."""

    anchors: ClassVar[dict[int, str]] = {id(MANA): "mana", id(VALUE): "value", id(LAND): "land"}

    def finder(self, terms: tuple[Term, ...], language: str) -> TermFinder:
        return TermFinder(terms, language)


def test_a_texts_uses_are_each_term_once_in_the_order_of_first_use() -> None:
    from rulebook.render.glossary import _anchors_found
    plain = "The mana value of a land, then mana, lands and mana value again"
    assert _anchors_found(_Terms(), (MANA, VALUE, LAND), "en", plain) == ("value", "land", "mana")  # type: ignore[arg-type]
    assert _anchors_found(_Terms(), (LAND, MANA), "en", plain) == ("mana", "land")  # type: ignore[arg-type]


def test_a_term_inside_a_word_is_passed_over() -> None:
    # The search looks where a form's letters are, then asks the whole pattern there: "mana"
    # inside "xmana" and "manaless" is no use of the term.
    finder = TermFinder((MANA, LAND), "en")
    found = [(index, match.span()) for index, match in finder.find("xmana manaless, a mana and unlands; lands")]
    assert found == [(0, (18, 22)), (1, (36, 41))]
