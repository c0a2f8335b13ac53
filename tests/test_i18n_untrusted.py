"""PO text is untrusted input: hostile translations fall back to Italian and are reported.

translate_book only ever puts a msgstr into the model as plain data, and only after the checks
pass; these tests feed hostile strings through a real PO file and look at what comes out.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.catalog import Catalog

from rulebook.i18n.catalogs import serialize
from rulebook.i18n.headers import HeaderSettings, catalog_headers
from rulebook.i18n.translate import translate_book
from rulebook.loader import load_book
from tests.conftest import demo_book

BOOK = demo_book("""
sections:
  - id: primo
    title: Primo
    rules:
      - id: r1
        text: Paga {W} e vedi [[r2]].
      - id: r2
        text: Due.
""")
SOURCE = "Paga {W} e vedi [[r2]]."

# (hostile msgstr for demo/r1:text, the check that must reject it)
HOSTILE = [
    ("Pay {W}, see [[r2]] {{ 7*7 }}", "tokens"),
    ("Pay {W}, see [[r2]] {% raw %}x{% endraw %}", "tokens"),
    ("Pay {W}, see [[r2]] {{ config.__class__.__init__.__globals__ }}", "tokens"),
    ("Pay {W}, see [[r2]] <script>alert(1)</script>", "html"),
    ("Pay {W}, see [[r2]] <img src=x onerror=alert(1)>", "html"),
    ("Pay {W}, see [[r2]] <img src=x onerror=alert(1)", "html"),
    ('Pay {W}, see [[r2]] <a href="javascript:alert(1)">x</a>', "html"),
    ("Pay {W}, see [[r2]] &lt;script&gt;alert(1)&lt;/script&gt;", "html"),
    ("Pay {W}, see [[r2]] &#106;avascript:alert(1)", "html"),
    ("Pay {W}, see [[r2]] [x](javascript:alert(1))", "links"),
    ("Pay {W}, see [[r2]] [x] (https://evil.example)", "links"),
    ("Pay {W}, see [[r2]] javascript:alert(1)", "links"),
    ("Pay {W}, see [[r2]] JaVaScRiPt :alert(1)", "links"),
    ("Pay {W}, see [[r2]] data:text/html;base64,PHNjcmlwdD4=", "links"),
    ("Pay {W}, see [[r2]] https://evil.example", "links"),
    ("Pay {W}, see [[javascript:alert(1)]]", "references"),
    ("Pay {W}, see [[javascript:alert]]", "references"),
    ("Pay {W}, see [[r2]] [[evil:r2]]", "references"),
    ("Pay {W}, see [[r2]] {FOO}", "tokens"),
    ("Pay {W}{W}, see [[r2]]", "tokens"),
    ("Pay {W}, see [[r2]] \u202egnp.exe", "characters"),
]


@pytest.fixture
def hostile_catalog(write_rules, tmp_path):
    """Write one English catalog whose demo/r1:text translation is ``text``; return the result."""
    book = load_book(write_rules(BOOK))

    def translate(text: str):
        catalog = Catalog(locale="en", domain="demo")
        catalog.add("Demo", "Sample", context="demo:title")
        catalog.add(SOURCE, text, context="demo/r1:text")
        catalog.add("Due.", "Two.", context="demo/r2:text")
        path = tmp_path / "locales" / "en" / "LC_MESSAGES" / "demo.po"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(serialize(catalog_headers(catalog, "en", "demo", HeaderSettings())))  # a real header, as `rulebook i18n update` writes
        return translate_book(book, "en", Path("locales"))

    return translate


@pytest.mark.parametrize(("text", "check"), HOSTILE)
def test_hostile_translation_falls_back_to_italian_and_is_reported(hostile_catalog, text, check):
    result = hostile_catalog(text)
    rule = result.book.sections[0].rules[0]
    assert rule.text == SOURCE  # the Italian source, not the hostile string
    assert "demo/r1:text" in result.fallback
    assert "demo/r1:text" not in result.outdated
    reported = [str(p) for p in result.problems]
    assert any(f"demo/r1:text: [{check}]" in p for p in reported), reported
    assert all(p.startswith("locales/en/LC_MESSAGES/demo.po:") for p in reported)
    # The rest of the catalog is unaffected.
    assert result.book.sections[0].rules[1].text == "Two."
    assert result.book.title == "Sample"


def test_a_clean_translation_goes_through_as_plain_text(hostile_catalog):
    result = hostile_catalog("Pay {W} and see [[r2]].")
    assert result.book.sections[0].rules[0].text == "Pay {W} and see [[r2]]."
    assert type(result.book.sections[0].rules[0].text) is str  # data, never markup
    assert result.problems == ()
    assert result.fallback == frozenset({"demo:summary", "demo/primo:title"})


def test_a_control_character_or_escape_cannot_smuggle_markup(hostile_catalog):
    # The PO escapes decode to real characters; the checks see the decoded text.
    result = hostile_catalog("Pay {W} and see [[r2]].\n\n<script>")
    assert result.book.sections[0].rules[0].text == SOURCE
    assert any("[html]" in p.message for p in result.problems)


@pytest.mark.parametrize(("text", "check"), HOSTILE)
def test_rendered_html_of_hostile_text_is_inert(text, check):
    # Defence in depth: even if a hostile string reached the renderer, it stays text.
    from rulebook.render.text import text_to_html
    html = str(text_to_html(text, language="en"))
    assert "<script" not in html and "<img" not in html and "<a href=\"javascript" not in html
    assert 'href="javascript' not in html.lower() and 'href="data' not in html.lower()
    assert "49" not in html  # {{ 7*7 }} is never evaluated
