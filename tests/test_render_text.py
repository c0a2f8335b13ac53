"""Rulebook text -> HTML: escaped first, then only the known markup becomes tags."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulebook.model import XRef
from rulebook.render.text import Target, symbol_html, text_to_html, text_to_plain
from rulebook.symbols import SYMBOLS

ALLOWED_TAGS = {"p", "ul", "li", "strong", "em", "a", "i", "span"}


def resolve(ref: XRef) -> Target | None:
    if ref.target == "nowhere":
        return None
    href = f"../{ref.book}/#{ref.target}" if ref.book else f"#{ref.target}"
    return Target(href, "4.2", "Vittoria 4.2")


def test_paragraphs_lists_and_emphasis() -> None:
    html = text_to_html("Primo **forte** e *lieve*.\nStessa riga.\n\n- uno\n- due\n  continua\n\nFine.")
    assert html == (
        "<p>Primo <strong>forte</strong> e <em>lieve</em>. Stessa riga.</p>\n"
        "<ul><li>uno</li><li>due continua</li></ul>\n<p>Fine.</p>"
    )


def test_cross_references_become_internal_links_with_the_target_number() -> None:
    html = text_to_html("Vedi [[vittoria]] e [[casting:601.2f]] ma non [[nowhere]].", resolve)
    assert '<a class="rb-xref" href="#vittoria" title="Vittoria 4.2">4.2</a>' in html
    assert '<a class="rb-xref" href="../casting/#601.2f" title="Vittoria 4.2">4.2</a>' in html
    assert '<span class="rb-xref rb-xref--missing">[[nowhere]]</span>' in html


def test_symbols_render_as_icons_with_labels_in_the_language() -> None:
    assert symbol_html(SYMBOLS["{W}"], "en") == '<i class="ms ms-w ms-cost" role="img" aria-label="white mana" title="white mana"></i>'
    assert 'class="ms ms-wu ms-cost"' in symbol_html(SYMBOLS["{W/U}"], "it")
    assert 'aria-label="mana bianco di Phyrexia"' in symbol_html(SYMBOLS["{W/P}"], "it")
    assert 'class="ms ms-wp ms-cost"' in symbol_html(SYMBOLS["{W/P}"], "it")
    assert 'class="ms ms-20 ms-cost"' in symbol_html(SYMBOLS["{20}"], "fr")
    assert 'class="ms ms-tap"' in symbol_html(SYMBOLS["{T}"], "es")
    assert 'class="ms ms-planeswalker"' in symbol_html(SYMBOLS["{PW}"], "pt")
    assert 'class="ms ms-chaos"' in symbol_html(SYMBOLS["{CHAOS}"], "ru")
    assert 'class="rb-planar-blank"' in symbol_html(SYMBOLS["{BLANK}"], "ru")
    assert symbol_html(SYMBOLS["{diamonds}"], "en") == (
        '<span class="rb-suit rb-suit--diamonds" role="img" aria-label="diamonds" title="diamonds">\u2666</span>'
    )
    assert "\u2680" in symbol_html(SYMBOLS["{d1}"], "it") and 'aria-label="dado: 1"' in symbol_html(SYMBOLS["{d1}"], "it")


def test_every_symbol_has_an_icon_and_a_label_in_every_language() -> None:
    for symbol in SYMBOLS.values():
        for language in ("it", "en", "fr", "es", "pt", "ru"):
            html = str(symbol_html(symbol, language))
            label = re.search(r'aria-label="([^"]+)"', html).group(1)
            assert label and "{" not in label, (symbol, language)


def test_hostile_text_stays_text() -> None:
    html = text_to_html(
        "<script>alert(1)</script> [x](javascript:alert(1)) {{ 7*7 }} \" onmouseover=\"x <img src=x onerror=y> &amp; {nope}",
        resolve,
    )
    assert "<script" not in html and "<img" not in html
    assert "&lt;script&gt;" in html and "{{ 7*7 }}" in html and "&amp;amp;" in html and "{nope}" in html
    assert "href" not in html  # links come only from [[cross-references]]
    assert '&#34; onmouseover=&#34;x' in html


def test_emphasis_never_mis_nests() -> None:
    assert text_to_html("**a *b** c*") == "<p><strong>a *b</strong> c*</p>"
    assert text_to_html("2*3*4 e 2 * 3") == "<p>2*3*4 e 2 * 3</p>"


def test_titles_render_inline_and_plain() -> None:
    assert text_to_html("Pianura {W}\n**x**", inline=True, language="en").startswith("Pianura <i class=\"ms ms-w")
    assert text_to_plain("Pianura {W} e *[[casting:601.2f]]*", "en") == "Pianura (white mana) e casting:601.2f"


PIECES = list("ab <>&\"'*-[]{}:/\n") + ["{W}", "[[x]]", "[[b:y]]", "**", "javascript:", "- ", "\n\n"]


@given(st.lists(st.sampled_from(PIECES), max_size=40).map("".join))
def test_any_text_yields_only_known_tags(text: str) -> None:
    html = str(text_to_html(text, resolve))
    tags = set(re.findall(r"</?([a-zA-Z0-9]+)", html))
    assert tags <= ALLOWED_TAGS, tags
    assert all(href.startswith(("#", "../")) for href in re.findall(r'href="([^"]*)"', html))
    assert "javascript:" not in "".join(re.findall(r'="([^"]*)"', html))


@pytest.mark.parametrize("language, title, expected", [
    # The reviewers' tooltips (notes/review-fr.md, review-ru.md W2): a heading that names its symbol.
    ("fr", "Symbole de chaos {CHAOS}", "Symbole de chaos"),
    ("ru", "Пустая грань {BLANK}", "Пустая грань"),
    ("fr", "Le dé montre {CHAOS}", "Le dé montre symbole de chaos"),  # not named before: its name, as a screen reader says it
    ("fr", "le symbole de chaos {CHAOS}, et les autres", "le symbole de chaos, et les autres"),  # no space before the comma
    ("fr", "le symbole de chaos {CHAOS}et", "le symbole de chaos et"),
    # Named with the words between left out (review3-it W10: «Simbolo caos (simbolo del caos)»).
    ("it", "Simbolo caos {CHAOS}", "Simbolo caos"),
    ("it", "Simbolo planeswalker {PW}", "Simbolo planeswalker"),
    ("it", "Il simbolo caos {PW}", "Il simbolo caos simbolo planeswalker"),  # another symbol's name is no name of it
])
def test_a_plain_title_names_its_symbol_once(language: str, title: str, expected: str) -> None:
    assert text_to_plain(title, language) == expected


@pytest.mark.parametrize("language, text, expected", [
    # Symbols in a row are read one after the other, never glued as «(…)(…)» (review3-ru SW4).
    ("ru", "Подавление Верующих стоит {2:acc}{B:acc}{B:acc} и изгоняет",
     "Подавление Верующих стоит 2 единицы общей маны, чёрную ману, чёрную ману и изгоняет"),
    ("it", "prima si applica Thalia ({1}{W}).", "prima si applica Thalia (1 mana generico, mana bianco)."),
    # Named by the sentence: no parenthesis, which would read as an aside (review3-fr SI-4).
    ("fr", "Le raccourci de tournoi pour {X}", "Le raccourci de tournoi pour X"),
    # After a name, what it stands for, in parentheses; after a rank written against it, spaced.
    ("en", "Plains {W} and Island {U}{U}", "Plains (white mana) and Island (blue mana, blue mana)"),
    ("it", "oppone 7{hearts} a 5{clubs}", "oppone 7 (Cuori) a 5 (Fiori)"),
    # A name after an elided article is a name; a word the label echoes already said what the icon is (review4-it W4-2).
    ("it", "scartare un'Isola {U} insieme", "scartare un'Isola (mana blu) insieme"),
    ("it", "le altre quattro sono vuote {BLANK}.", "le altre quattro sono vuote (faccia vuota)."),
    ("pt", "as outras quatro são em branco {BLANK}.", "as outras quatro são em branco (face em branco)."),
    ("it", "costa {2}{B}", "costa 2 mana generici, mana nero"),
])
def test_plain_symbols_read_as_words_of_the_sentence(language: str, text: str, expected: str) -> None:
    assert text_to_plain(text, language) == expected


def test_a_plain_list_is_one_line_without_hyphens_and_with_the_languages_separator() -> None:
    """Review3-it W9: a link's preview read «passi: - 601.2a annunciare…; - 601.2b …»."""
    text = "Si seguono questi passi:\n\n- [[601.2a]] annunciare la magia;\n- [[601.2b]] fare le scelte\n- pagare.\n\nFine."
    assert text_to_plain(text, "it", resolve) == "Si seguono questi passi: 4.2 annunciare la magia; 4.2 fare le scelte; pagare. Fine."
    # An item without its own punctuation is followed by the separator the language writes:
    # French a narrow no-break space before the semicolon (docs/style/fr.md).
    assert text_to_plain("Étapes :\n\n- annoncer\n- payer.", "fr") == "Étapes : annoncer\u202f; payer."
    # A no-break space the translation wrote stays one: only plain spacing is squeezed.
    assert text_to_plain("Exemple\u00a0: un\n\n- deux", "fr") == "Exemple\u00a0: un deux"


@pytest.mark.parametrize("text", [
    "Exemple\u00a01\u00a0: la pile",  # French: a no-break space before the colon
    "Règles optionnelles\u202f: {W}",  # a narrow one
])
def test_no_break_spaces_survive_in_html_and_plain_text(text: str) -> None:
    """A translator's no-break space is typography, not layout: neither the HTML nor the plain
    text (titles, tooltips, search) turns it into a space (review4-fr RN-1)."""
    spaces = [char for char in text if char in "\u00a0\u202f"]
    html = str(text_to_html(text, language="fr", inline=True))
    plain = text_to_plain(text, "fr")
    assert [char for char in html if char in "\u00a0\u202f"] == spaces
    assert [char for char in plain if char in "\u00a0\u202f"] == spaces
