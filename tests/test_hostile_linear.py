"""Issue 16: every check and the renderer stay linear on adversarial text, and the silent cases
of the issue are flagged.

The budgets are ratios (tests/linear.py), never seconds: a check's cost on a quarter of a
megabyte against its cost on the first quarter of it (linear grows 4x, quadratic 16x), the
issue's hangs at the issue's sizes against reading the same characters once.
The adversarial pieces are each expression's own special characters, repeated: runs of spaces
before a newline that never comes, "**a " with no closing, "[[" without "]]", scheme-like
words without "://", digits with separators, tags without ">".
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulebook.i18n.checks import CHECKS, check_translation
from rulebook.i18n.glossary import load_glossary
from rulebook.limits import MAX_TEXT_CHARS
from rulebook.markup import canonical, parse
from rulebook.render.text import text_to_html, text_to_plain
from tests.linear import assert_grows_linearly, assert_linear

REPO = Path(__file__).resolve().parent.parent
GLOSSARY = load_glossary(REPO / "locales", source="it").for_book("casting")
SOURCE = "Paga {W} e vedi [[r2]]: **3** carte, *una* terra.\n\n- uno\n- due"

ADVERSARIAL = [
    " ", "\t", " \n", "\n ", "\n\n", "**a ", "*a ", "a*", "***", "[[a", "[[a:", "]]", "{W", "{", "<a", "<!", "&a", "&#1",
    "a.", "a+", "1.", "1,", "1 ", "1 000 ", "- ", "-", "](", "javascript ", "http", "www", "terra", "Palude ", "é",
]


def megabyte(pieces: list[str], size: int = 1_000_000) -> str:
    unit = "".join(pieces)
    return (unit * (size // len(unit) + 1))[:size]


#: The growth measure tells linear from quadratic on a quarter of the megabyte the budget
#: against one read needed (tests/linear.py), and holds the cheap checks to far less.
GROWN = 250_000


@pytest.mark.slow
@settings(max_examples=3, deadline=None)
@given(st.lists(st.sampled_from(ADVERSARIAL), min_size=1, max_size=3))
def test_every_check_grows_linearly(pieces):
    text = megabyte(pieces, GROWN)
    for name, check in CHECKS.items():
        assert_grows_linearly(lambda t: list(check(SOURCE, t, "en", GLOSSARY)), text, f"check {name} on {pieces!r}")
        assert_grows_linearly(lambda t: list(check(t, SOURCE, "en", GLOSSARY)), text, f"check {name} (as source) on {pieces!r}")


@settings(max_examples=3, deadline=None)
@given(st.lists(st.sampled_from(ADVERSARIAL), min_size=1, max_size=3))
def test_the_renderer_is_linear(pieces):
    text = megabyte(pieces)
    # The parser under the renderer, past the text limit (limit=None lifts it)...
    assert_grows_linearly(lambda t: parse(t, limit=None), text[:GROWN], f"parse on {pieces!r}")
    assert_grows_linearly(canonical, text[:GROWN], f"canonical on {pieces!r}")
    # ...and the renderer on the longest text it is ever given; past it, a quick refusal.
    longest = text[:MAX_TEXT_CHARS]
    assert_linear(lambda: text_to_html(longest), longest, f"text_to_html on {pieces!r}")
    assert_linear(lambda: text_to_html(longest, inline=True), longest, f"text_to_html inline on {pieces!r}")
    assert_linear(lambda: text_to_plain(longest), longest, f"text_to_plain on {pieces!r}")
    assert_linear(lambda: text_to_html(text), text, "escaping a megabyte it never parses")


# --- the hangs the issue measured, at the issue's sizes --------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize(("what", "text"), [
    ("200 kB of spaces in a msgstr (34 s in the number check)", " " * 200_000),
    ("a megabyte of {W} (over 9 minutes to translate)", "{W}" * 333_333),
    ("8,000 [[r1]] in one text", "[[r1]]" * 8_000),
    ("3 MB of [[x]]", "[[x]]" * 600_000),
    ("'**a ' x 16,000 (78 s in the bold expression)", "**a " * 16_000),
])
def test_the_issue_hangs_are_gone(what, text):
    assert_linear(lambda: check_translation(SOURCE, text, "en", GLOSSARY), text, what)
    assert_linear(lambda: parse(text, limit=None), text, what)


# --- the silent cases: flagged now ------------------------------------------------------------


@pytest.mark.parametrize(("what", "translation", "check"), [
    ("an all-space msgstr of 200 kB", " " * 200_000, "length"),
    ("a megabyte of words", "parola " * 150_000, "length"),
    ("a zero-width space", "Pay {W} and see [[r2]]: **3** cards,\u200b *one* land.\n\n- one\n- two", "characters"),
    ("entities without semicolons", "Pay {W} and see [[r2]]: **3** cards, *one* land &lt/title&gt.\n\n- one\n- two", "html"),
])
def test_what_passed_silently_is_flagged(what, translation, check):
    assert check in {name for name, _ in check_translation(SOURCE, translation, "en")}, what
