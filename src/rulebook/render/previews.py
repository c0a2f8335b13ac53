"""What a cross-reference tells before it is followed: the rule it names, its number, title and
first sentence, in the page's language (the link's ``title``; rulebook.js shows it on hover and
on keyboard focus, the way rules sites such as Yawgatog's preview a rule)."""

from __future__ import annotations

import re
from collections.abc import Callable

from ..model import Book, Node, Ruling

#: The longest preview sentence shown whole; a longer one is cut at a word, with an ellipsis.
MAX_SENTENCE = 220
# A sentence ends at . ! ? or … followed by a space and more text, or at the end of the text:
# "5.8" and "1.2f" are not sentence ends (no space after the dot), nor is an abbreviation
# before a rule's number («(см. 5.6)», "(cf. 5.6)": review5-ru E3 cut a tooltip there).
_SENTENCE = re.compile(r"(.+?[.!?…])(?=\s+[^\s\d]|\s*$)", re.DOTALL)


def first_sentence(text: str) -> str:
    """The first sentence of a plain text, cut to :data:`MAX_SENTENCE` characters at a word.

    >>> first_sentence("Si paga 2.5 per carta. Poi si pesca.")
    'Si paga 2.5 per carta.'
    >>> first_sentence("Очки действия (см. 5.6) тратятся. Потом ход.")
    'Очки действия (см. 5.6) тратятся.'
    """
    found = _SENTENCE.match(text)
    sentence = (found.group(1) if found else text).strip()
    if len(sentence) <= MAX_SENTENCE:
        return sentence
    return sentence[:MAX_SENTENCE].rsplit(" ", 1)[0].rstrip(",;:") + "…"


def nodes_by_id(book: Book) -> dict[str, Node]:
    """Everything a cross-reference may name in a book: sections, rules, rulings and examples."""
    nodes: dict[str, Node] = {}
    for section in book.sections:
        nodes[section.id] = section
        for rule in section.rules:
            nodes[rule.id] = rule
            nodes.update((ruling.id, ruling) for ruling in rule.rulings)
            nodes.update((example.id, example) for example in rule.examples)
    return nodes


def preview(number: str, node: Node | None, plain: Callable[[str], str]) -> str:
    """"5.8 Orcs — An orc moves one square." (``plain`` gives a text field as plain words)."""
    if node is None:
        return number
    title = plain(node.title) if not isinstance(node, Ruling) and node.title else ""  # a ruling has none
    body = getattr(node, "text", None) or getattr(node, "intro", None) or ""
    head = f"{number} {title}".strip()
    return f"{head} — {first_sentence(plain(body))}" if body else head
