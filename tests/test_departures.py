"""Where a book departs from its source (issue 14.4): each departure quotes the source truly.

A ruling's ``departs`` names the passage it departs from, often with a short quotation. A
quotation that is not of the game's rules (``departs_from: rules``, the Comprehensive Rules) must be
words of the source: every quoted run is looked for, word for word (lower case, punctuation aside), in the
Italian seed texts. A misquoted or invented
passage fails here, at its ruling. Without the seeds folder the comparison is skipped, saying so.
"""

from __future__ import annotations

import re

import pytest

from rulebook.loader import DEPARTS_QUOTE_RE, load_library, rulebook_paths
from tests.test_rules_fidelity import REPO, seeds_folder

_WORD_RE = re.compile(r"[^\W_]+")


def departures() -> list[tuple[str, str, str, str]]:
    """(book id, ruling id, departs, departs_from) of every departing ruling of every book."""
    books = load_library(rulebook_paths(REPO / "rules"))
    return [(book.id, ruling.id, ruling.departs, ruling.departs_from) for book in books.values() for rule in book.rules()
            for ruling in rule.rulings if ruling.departs]


def quotations(departs: str) -> list[str]:
    return [next(g for g in m.groups() if g is not None) for m in DEPARTS_QUOTE_RE.finditer(departs)]


def normalised(text: str) -> str:
    """The words only, lower case: a quotation may differ from its source in punctuation
    (an apostrophe, a dash), never in a word or a number."""
    return " " + " ".join(m.group(0).lower() for m in _WORD_RE.finditer(text)) + " "


def test_the_books_name_where_they_depart():
    found = {book for book, _, _, _ in departures()}
    assert {"casting", "planechase"} <= found


@pytest.mark.parametrize(("book", "ruling", "departs", "departs_from"), [pytest.param(*d, id=f"{d[0]}/{d[1]}") for d in departures()])
def test_a_departure_from_a_numbered_rule_is_marked_as_one(book, ruling, departs, departs_from):
    """The page labels a departure by whose words it sets aside (issue 27.5, review W1): the
    source texts number no rule, so a departure that names "regola N" is one from the game's rules."""
    names_a_rule = re.search(r"\bregola \d+\.\d+", departs) is not None
    assert names_a_rule == (departs_from == "rules"), f"{book}/{ruling}: departs {departs!r} but departs_from is {departs_from!r}"


@pytest.mark.parametrize(("book", "ruling", "departs", "departs_from"), [pytest.param(*d, id=f"{d[0]}/{d[1]}") for d in departures()])
def test_a_departure_quotes_its_source_word_for_word(book, ruling, departs, departs_from):
    folder = seeds_folder()
    if folder is None:
        pytest.skip("no shared/seeds folder next to the repository: the quotations are not compared")
    if departs_from == "rules":
        return  # a quotation of the Comprehensive Rules, not of the seed
    seeds = normalised(" ".join(path.read_text(encoding="utf-8") for path in sorted(folder.glob("*.txt"))))
    for quoted in quotations(departs):
        assert normalised(quoted) in seeds, f"{book}/{ruling}: «{quoted}» is not in the source text"


def test_a_misquotation_is_caught():
    folder = seeds_folder()
    if folder is None:
        pytest.skip("no shared/seeds folder next to the repository")
    seeds = normalised(" ".join(path.read_text(encoding="utf-8") for path in sorted(folder.glob("*.txt"))))
    assert normalised("numero di tiri che hai già effettuato") in seeds
    assert normalised("numero di tiri che hai effettuato") not in seeds
    assert normalised("da tre a sei giocatori") in seeds and normalised("da tre a otto giocatori") not in seeds
