"""No code where a player reads (issue 26 point 1): every page of our site, in every language.

The repository's own site is built once (``our_site``, tests/conftest.py) and each page's
visible text is scanned for what a programmer writes and a rulebook does not: a call
(``Place('a1')``), a keyword argument (``withdraw=True``), an id in quotes (``'c7'``), an ASCII
arrow, "1 x any", a player counted from 0, a range written ``15..26``. The folded proof's code
(the doctest, for authors) is code and is left out; everything else a reader sees is in: the
steps the engine told, refusals, figure captions, rulings, titles, the home and coverage pages.

One test per book (and one for the pages of no book), so a failure says whose words to fix.
"""

from __future__ import annotations

import re
from collections import defaultdict
from html.parser import HTMLParser
from pathlib import Path

import pytest

from tests.conftest import REPO, site_languages

pytestmark = pytest.mark.slow  # the whole site, every book in every language, built once

BOOKS = sorted(p.stem for p in (REPO / "rules").glob("*.yaml"))
LANGUAGES = site_languages()

#: What code looks like in running text, each with why it is code and not prose.
PATTERNS: dict[str, re.Pattern[str]] = {
    # A call: an identifier touching its parenthesis, as Python writes it (prose puts a space
    # before a parenthesis, "Lightning (Ace)").
    "Name(": re.compile(r"(?<![\w.])[A-Za-z_][A-Za-z0-9_]*\((?!s\))"),
    # A keyword argument or an assignment: an identifier glued to "=". Magic writes a value of X
    # as "X=2" beside its cards (a capital X alone, the rules' variable), and a pair of cards
    # is written "K♥+4♣=17" (a suit sign, not a letter, before "="): neither is an identifier.
    "name=value": re.compile(r"(?<![\w.])(?:[a-z_][A-Za-z0-9_]*|[A-Z][A-Za-z0-9_]+)=\S"),
    # An id in straight single quotes, as Python's repr quotes a string ('c7', 'A♠+A♥=28'). An
    # apostrophe inside a word (l'Isola, player's) has a letter before it and is not matched.
    # Double quotes around code come with a call or a keyword and are caught above; a word in
    # double quotes in prose is a quotation, which the typography checks judge.
    "'quoted id'": re.compile(r"(?<![\w'’])'[^\s']+'(?![\w'’])"),
    "->": re.compile(r"->"),
    # A count of targets written as a multiplication, "1 x any target".
    "N x any": re.compile(r"\b\d+\+? x (?!\d)\w"),
    # Players are counted from 1 (seats) or named: never "player 0" or "P0", an index. Casting and
    # Planechase label seats P1, P2, … as a rules text labels its players (counted from 1, the same
    # label in every language, as the examples' tables print it): a label, not code.
    "player 0": re.compile(r"\b(?:player|joueur|jugador|jogador|giocatore|игрок\w*)\s+0\b", re.IGNORECASE),
    "P0": re.compile(r"(?<![\w+-])P0\b"),
    # A range the way Python or Rust write it ("15..26"), not an ellipsis ("…", "...").
    "a..b": re.compile(r"(?<!\.)\b\w+\.\.\w"),
}

#: Attributes a reader meets: hovered (title), read aloud (aria-label), shown in place (alt, placeholder).
READ_ATTRIBUTES = ("title", "aria-label", "alt", "placeholder")
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr"}


class VisibleText(HTMLParser):
    """The text a reader of a page meets, without scripts, styles and the folded proof's code."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.open: list[tuple[str, bool]] = []  # (tag, opens the folded proof)
        self.parts: list[str] = []

    def _hidden(self) -> bool:
        tags = [tag for tag, _ in self.open]
        if any(tag in ("script", "style", "template") for tag in tags):
            return True
        in_proof = any(proof for _, proof in self.open)
        return in_proof and ("pre" in tags or "code" in tags)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        given = dict(attrs)
        if not self._hidden():
            self.parts.extend(value for name in READ_ATTRIBUTES if (value := given.get(name)))
        if tag not in VOID:
            self.open.append((tag, tag == "details" and "rb-proof" in (given.get("class") or "").split()))

    def handle_endtag(self, tag: str) -> None:
        while self.open:
            if self.open.pop()[0] == tag:
                break

    def handle_data(self, data: str) -> None:
        if not self._hidden():
            self.parts.append(data)

    @classmethod
    def of(cls, html: str) -> str:
        reader = cls()
        reader.feed(html)
        return " ".join(" ".join(reader.parts).split())


def code_in(text: str) -> dict[str, list[str]]:
    """Each pattern found in ``text``, with a few words around each place."""
    found: dict[str, list[str]] = defaultdict(list)
    for name, pattern in PATTERNS.items():
        for match in pattern.finditer(text):
            found[name].append(text[max(0, match.start() - 40):match.end() + 30])
    return found


def book_of(page: Path, site: Path) -> str | None:
    """The book a built page shows (``en/strage/index.html`` → strage), None for the others."""
    parts = page.relative_to(site).parts[:-1]
    parts = parts[1:] if parts and parts[0] in LANGUAGES else parts
    return parts[0] if parts and parts[0] in BOOKS else None


def pages(site: Path, book: str | None) -> list[Path]:
    return sorted(page for page in site.rglob("*.html") if book_of(page, site) == book)


@pytest.mark.parametrize("pattern, text", [
    ("Name(", "Refused by rule 5.3: Place('a1'): green has already placed"),
    ("name=value", "Move('c7', 'c8', withdraw=True)"),
    ("name=value", "Counter(other=PLAINS) is not possible now"),
    ("'quoted id'", "'A♠+A♥=28' does not fit row 1"),
    ("->", "mana cost -> pays"),
    ("N x any", "1 x any target: P1"),
    ("player 0", "le joueur 0 passe"),
    ("player 0", "у игрока 0 нет"),
    ("P0", "Agyrem (P0)"),
    ("a..b", "row 1 (15..26)"),
])
def test_each_pattern_finds_the_code_the_issue_quotes(pattern: str, text: str) -> None:
    assert pattern in code_in(text)


def test_seats_counted_from_one_are_labels_not_code() -> None:
    assert not code_in("Seats are counted in turn order, from 1: P2 sits on P1's left.")


@pytest.mark.parametrize("text", [
    "Fireball with X=1 has mana value 2", "K♥+4♣=17 on row 1", "l'Isola e l'altra", "the player's turn",
    "row 1 (from 15 to 26)", "Lightning (Ace): strike", "wait...", "card(s)", "player 1 plays an Island",
    "the 7♥, 5♠ = 12 against 11",
])
def test_prose_is_not_taken_for_code(text: str) -> None:
    assert not code_in(text)


def test_the_folded_proof_is_left_out_and_the_steps_are_read() -> None:
    html = ('<p>Green places a half-elf</p><ol><li>Refused: <code>Place(&#39;a1&#39;)</code></li></ol>'
            '<details class="success rb-proof"><summary>The check as code</summary><pre><code>&gt;&gt;&gt; Place("a1")</code></pre></details>'
            '<script>var x = f(1)</script><a title="player 0">x</a>')
    text = VisibleText.of(html)
    assert "Place('a1')" in text and 'Place("a1")' not in text and "var x" not in text
    assert "The check as code" in text and "player 0" in text  # a summary and a tooltip are read


@pytest.mark.parametrize("book", [*BOOKS, None], ids=[*BOOKS, "other pages"])
def test_no_code_in_what_a_player_reads(our_site: Path, book: str | None) -> None:
    shown = pages(our_site, book)
    assert shown, f"no built page for {book}"
    if book is not None:  # the book in every language of the site
        assert len(shown) == len(LANGUAGES), [str(p.relative_to(our_site)) for p in shown]
    report = []
    for page in shown:
        for name, places in sorted(code_in(VisibleText.of(page.read_text(encoding="utf-8"))).items()):
            report.append(f"{page.relative_to(our_site)}: {name} ×{len(places)}, e.g. …{places[0]}…")
    assert not report, f"code in the text a player reads ({len(report)} page/pattern pairs):\n" + "\n".join(report)


#: A face card or an Ace in card notation, as an engine's step writes it (J♣, Q♦, K♠, A♥).
FACE_CARD = re.compile(r"(?<![\w])[AJQK][♥♦♣♠]")
PARAGRAPH = re.compile(r"<p>(.*?)</p>", re.DOTALL)


@pytest.mark.parametrize("book", BOOKS)
def test_card_ranks_are_explained_on_each_page_that_writes_them(our_site: Path, book: str) -> None:
    """Issue 26 point 6: cards are written as poker cards print them (A, J, Q, K and the suit
    sign) in every language, and each page that shows one says once what the letters mean, in
    a paragraph of the book's own text that its translators write (docs/new-language.md)."""
    unexplained = []
    for page in pages(our_site, book):
        html = page.read_text(encoding="utf-8")
        if not FACE_CARD.search(VisibleText.of(html)):
            continue
        paragraphs = [re.sub(r"<[^>]+>", "", p) for p in PARAGRAPH.findall(html)]
        if not any(all(re.search(rf"(?<!\w){rank}(?!\w)", p) for rank in "AJQK") for p in paragraphs):
            unexplained.append(str(page.relative_to(our_site)))
    assert not unexplained, f"pages that write A, J, Q, K without saying once what they are: {unexplained}"
