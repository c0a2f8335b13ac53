"""What a ``mkdocs serve`` session keeps of a book's texts in a language from one rebuild to the next.

A book page made again after an edit (its own, or one of a book it links to) asked every text of
the book again for its plain words: the previews of its links, the search documents, the titles
of its proofs' links, and the glossary's scan of each rule for the terms it uses. Those are
functions of the text, of the site's words and settings (:data:`TEXTS`' inputs, the slot's) and
of the numbers its cross-references show, which are looked up again (cheap) and compared before a
kept value is taken: a text is worded again only when it, or where it leads, changed.

The worded HTML of a page's texts is kept by ``pages.WORDED``, per page; these are kept per book
and language whoever asks (a page, another book's link preview, the search index, the glossary).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

from markupsafe import Markup

from ..cache import Same, current, kind
from ..model import Book, XRef
from .text import Target

T = TypeVar("T")

#: A book's texts in a language as plain words and the glossary terms each uses, by (locales,
#: book, language); the site's words (every catalog but the books' own, and the glossary),
#: settings and the engine's symbols are its inputs.
TEXTS = kind("plain texts", ("settings", "words", "symbols"),
             "a book's texts as plain words, the glossary terms each uses and its examples' proofs: a page made "
             "again under serve asks only its changed texts again, not its 200 rules' (its search documents and glossary uses too)")

#: Each cross-reference a text resolved, with where it led.
Resolved = tuple[tuple[XRef, Target | None], ...]

#: Kept entries beyond this many times the book's texts are a history of edits: dropped.
SLACK = 4


#: What a page looks up in a book: its anchors, its nodes by id, each node's key; by (what, book id,
#: language), made again only for another book object (an unchanged book is the same object in
#: every rebuild: the loader's and the translations' reuse).
BOOK_INDEX = kind("book index", ("book",), "a book's anchors, nodes by id and node keys made once per book object, "
                  "not once per page, view and rebuild (a tenth of a serve rebuild with one msgstr changed)")


def indexed(book: Book, what: str, language: str, make: Callable[[], T]) -> T:
    """``make()`` for ``book`` (``what`` of it, as shown in ``language``), once per book object in
    the active build cache; without one, every time."""
    cache = current()
    return make() if cache is None else cache.last(BOOK_INDEX, (what, book.id, language), make, book=Same(book))


@dataclass
class KeptTexts:
    """One book's texts in one language, as the last rebuilds made them."""

    plain: dict[str, tuple[str, Resolved]] = field(default_factory=dict)
    #: (source text, language shown in, plain text) -> the glossary anchors of the terms it uses, in order.
    terms: dict[tuple[str, str, str], tuple[str, ...]] = field(default_factory=dict)
    #: An example's outcome (the same object while its book is unchanged) -> its proof's steps and
    #: the link each rule it names got.
    proofs: dict[Same, tuple[list[Markup], tuple[tuple[str, Markup], ...]]] = field(default_factory=dict)

    def bound(self, texts: int) -> None:
        """Forget what an edited session piled up past ``SLACK`` times the book's ``texts``."""
        if len(self.plain) > SLACK * texts:
            self.plain.clear()
        if len(self.terms) > SLACK * texts:
            self.terms.clear()
        if len(self.proofs) > SLACK * texts:
            self.proofs.clear()

    def plain_text(self, text: str, numbered: Callable[[XRef], Target | None],
                   make: Callable[[Callable[[XRef], Target | None]], str]) -> str:
        """``make(numbered)``, or what it made last for ``text`` while each of its references
        still leads where it led."""
        known = self.plain.get(text)
        if known is not None and all(numbered(ref) == target for ref, target in known[1]):
            return known[0]
        resolved: list[tuple[XRef, Target | None]] = []

        def recorded(ref: XRef) -> Target | None:
            target = numbered(ref)
            resolved.append((ref, target))
            return target

        made = make(recorded)
        self.plain[text] = (made, tuple(resolved))
        return made

    def proof_steps(self, outcome: object, rule_link: Callable[[str], Markup],
                    make: Callable[[Callable[[str], Markup]], list[Markup]]) -> list[Markup]:
        """``make(rule_link)``, or what it made last for the same outcome while each rule it names
        is linked as it was (its number, its title)."""
        known = self.proofs.get(Same(outcome))
        if known is not None and all(rule_link(rule) == link for rule, link in known[1]):
            return known[0]
        linked: list[tuple[str, Markup]] = []

        def recorded(rule: str) -> Markup:
            link = rule_link(rule)
            linked.append((rule, link))
            return link

        made = make(recorded)
        self.proofs[Same(outcome)] = (made, tuple(linked))
        return made

    def terms_used(self, key: tuple[str, str, str], make: Callable[[], tuple[str, ...]]) -> tuple[str, ...]:
        """The glossary anchors of the terms a text uses (``key``: its source text, the language it
        is shown in, its plain words), found once per key."""
        found = self.terms.get(key)
        if found is None:
            found = self.terms[key] = make()
        return found
