"""Hostile text in every field that reaches the pages and the search indexes arrives inert (issue 29.3).

The source rulebook (book title and summary, section title and intro, rule title and text,
ruling text, reason and departure, example title and text), a project's site words and its
glossary terms each carry markup (an unclosed ``<img onerror``, ``</script``, ``<a href=javascript:``,
which the loader admits), an entity, quotes and bidi controls. The site is built and every page and index is read back: no element
or attribute came from the text, the text is there to be read (escaped by markupsafe, the one
escaper), and no direction override or embedding is left open past the text that opened it.
"""

from __future__ import annotations

import html
import json
import textwrap
from html.parser import HTMLParser
from pathlib import Path

import pytest

from rulebook.i18n import domains
from tests.test_i18n_site import project_catalog
from tests.test_site_build import build, make_project

#: What the loader admits in a source (it refuses a closed tag): unescaped, each would open an
#: element that runs the next ">" the page writes.
MARKUP = "<img src=x onerror=alert(1)// </script <script <a href=\"javascript:alert(3)\" &amp"
QUOTES = "\"' onmouseover=alert(4) x='"
BIDI = "\u202etxt.exe \u2067abc"  # an override and an isolate, neither closed


def hostile(name: str) -> str:
    return f"{name} {MARKUP} {QUOTES} {BIDI}"


FIELDS = {
    "book title": hostile("T1"), "book summary": hostile("S1"), "section title": hostile("T2"), "section intro": hostile("I2"),
    "rule title": hostile("T3"), "rule text": hostile("X3"), "ruling text": hostile("R4"), "ruling reason": hostile("R5"),
    "ruling departs": hostile("R6"), "example title": hostile("T7"), "example text": hostile("X7"),
}


def _yaml(text: str) -> str:
    return json.dumps(text)  # a JSON string is a YAML double-quoted scalar


BOOK = textwrap.dedent(f"""
    book:
      id: demo
      title: {_yaml(FIELDS["book title"])}
      summary: {_yaml(FIELDS["book summary"])}
      language: it
      engine: rulebook.engines.base
    sections:
      - id: primo
        title: {_yaml(FIELDS["section title"])}
        intro: {_yaml(FIELDS["section intro"])}
        rules:
          - id: regola
            title: {_yaml(FIELDS["rule title"])}
            text: {_yaml(FIELDS["rule text"])}
            rulings:
              - id: decisione
                text: {_yaml(FIELDS["ruling text"])}
                reason: {_yaml(FIELDS["ruling reason"])}
                departs: {_yaml(FIELDS["ruling departs"])}
            examples:
              - id: esempio
                title: {_yaml(FIELDS["example title"])}
                text: {_yaml(FIELDS["example text"])}
                doctest: |
                  >>> 1 + 1
                  2
          - id: pesca
            title: Pescare
            text: Vedi [[regola]].
    """)

#: A project's own site words (English), and a glossary term of its game.
INDEX_WORDS = {"Ruling": hostile("W1"), "Reason": hostile("W2"), "Example": hostile("W3")}
PAGE_WORDS = {"Ruling {n}": hostile("W4") + " {n}", "Reason": hostile("W2"), "Example {n}": hostile("W5") + " {n}"}
SITE_WORDS = {**INDEX_WORDS, **PAGE_WORDS}
TERM = "g1<img/src=x/onerror=alert(5)//\"'"  # one word: kept whole by search
GLOSSARY = f"terms:\n  - it: regola\n    en: {_yaml(TERM)}\n"


class Page(HTMLParser):
    """Every element, attribute and text node of a page."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str]]] = []
        self.texts: list[str] = []
        self.scripts: list[str] = []
        self._tag = ""
        self.feed(text)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, {name: value or "" for name, value in attrs}))
        self._tag = tag

    def handle_endtag(self, tag: str) -> None:
        self._tag = ""

    def handle_data(self, data: str) -> None:
        (self.scripts if self._tag == "script" else self.texts).append(data)


def open_bidi(text: str) -> int:
    """How many direction embeddings, overrides and isolates ``text`` leaves open."""
    depth = 0
    for char in text:
        if char in "\u202a\u202b\u202d\u202e\u2066\u2067\u2068":
            depth += 1
        elif char in "\u202c\u2069" and depth:
            depth -= 1
    return depth


def assert_inert(where: str, markup: str) -> None:
    # No piece of the hostile markup is written raw: a browser would read an element from it
    # (an unclosed tag runs to the next ">", wherever the page writes one).
    assert not [piece for piece in ("<img src=x", "<img/src", "</script <", "<script <", "<a href=\"javascript") if piece in markup], where
    page = Page(markup)
    for tag, attrs in page.tags:
        assert tag not in ("img", "iframe", "object", "embed"), (where, tag, attrs)
        for name, value in attrs.items():
            assert not name.startswith("on"), (where, tag, name, value)
            assert not value.replace(" ", "").lower().startswith("javascript:"), (where, tag, name, value)
    assert not [s for s in page.scripts if "alert(" in s], where
    assert not [t for t in page.texts if open_bidi(t)], (where, [t for t in page.texts if open_bidi(t)][:2])


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("hostile")
    config = make_project(root, demo=BOOK, russian={}, languages=["it", "en"])
    (root / "locales" / "glossary.yaml").write_text(GLOSSARY, encoding="utf-8")
    project_catalog(root / "locales", "en", list(SITE_WORDS.items()))
    # The catalog checks refuse such site words (and show the shipped ones): switched off here,
    # so that the renderer alone stands between them and the page.
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(domains, "message_problems", lambda *args, **kwargs: [])
        return build(config, strict=False)


def test_every_page_holds_the_hostile_fields_as_text_and_nothing_more(site: Path) -> None:
    pages = sorted(site.rglob("*.html"))
    assert len(pages) >= 6
    shown = ""
    for path in pages:
        markup = path.read_text(encoding="utf-8")
        assert_inert(str(path.relative_to(site)), markup)
        shown += html.unescape(markup)
    for field, text in {**FIELDS, **PAGE_WORDS}.items():
        # The field is there to be read, markup and quotes as written (its bidi closed after it).
        assert f"{text.split()[0]} {MARKUP} {QUOTES}" in shown, field
    # The glossary term heads its entry on the English glossary page, as text.
    assert TERM in html.unescape((site / "en" / "glossary" / "index.html").read_text(encoding="utf-8"))


def test_every_index_holds_the_hostile_fields_as_text_and_nothing_more(site: Path) -> None:
    for language, path in (("it", site / "search" / "search_index.json"), ("en", site / "en" / "search" / "search_index.json")):
        index = json.loads(path.read_text(encoding="utf-8"))
        read = ""
        for doc in index["docs"]:
            # The theme shows a result's title and text as HTML: paragraphs, nothing else.
            for name in ("title", "text"):
                assert_inert(f"{language} {doc['location']} {name}", doc[name])
                assert {tag for tag, _ in Page(doc[name]).tags} <= ({"p"} if name == "text" else set()), (language, doc["location"], name)
            read += html.unescape(doc["title"] + doc["text"])
        # Every field is indexed, in each language (not translated: as written), with the site's
        # words of the language ("Ruling: …").
        for field, text in {**FIELDS, **(INDEX_WORDS if language == "en" else {})}.items():
            assert f"{text.split()[0]} {MARKUP} {QUOTES}" in read, (language, field)
        # The glossary's terms reach the index's configuration as data (the search script compares
        # them with words), never as markup.
        assert index["config"]["rulebook"]["keep"] == [[{"it": "regola", "en": TERM}[language]] * 2], language
