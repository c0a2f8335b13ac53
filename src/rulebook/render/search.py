"""Search indexes written from the model, one per language. Knows nothing of MkDocs.

The theme's search (mkdocs-material: its lunr worker and its interface) stays; what it searches
comes from here, never from parsing our pages: the home, each book (title and summary), each
section and each rule under its anchor, with the rule's rulings and worked examples, in the
page's language (a text not translated yet as the page shows it, in the source language) and
symbols by their text alternative (``{W}`` is "white mana" in an English index). ``title`` and
``text`` are plain text escaped by markupsafe, the one escaper of every page and index the site
writes: the theme shows a result's title and text as HTML.

markupsafe writes an apostrophe as ``&#39;`` and a quotation mark as ``&#34;``, which no word
separator of the site's configuration knows: "l&#39;arène" would be one word that nobody types.
The index's separator (:func:`escaped_separator`) therefore splits words at every escape
markupsafe writes, whatever separator the project configured: French "l'arène" is indexed as
"l" and "arène", as the configured separator splits the unescaped text.

Game terms are kept apart from the words a stemmer confuses with them: Spanish "maná" and
"mano" (hand) both stem to "man". Each index names the glossary's forms of its language's game
terms (``config.rulebook.keep``: ``[form, term]`` pairs, a form ending in ``*`` matching any word
that starts with it); the site's search script (``assets/javascripts/workers/rulebook-search.js``)
indexes and searches a word of those forms as its term, unstemmed, and every other word through
the language's stemmer.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from ..i18n.glossary import Glossary
from .glossary import GLOSSARY
from .pages import Site
from .text import escape_each

SearchDoc = dict[str, str]  # location (relative to the language's root), title, text


#: Every escape markupsafe writes (``& < > ' "``): each ends a word in the index.
ESCAPES = "&(?:amp|lt|gt|#39|#34);"


def _doc(location: str, title: str, paragraphs: Iterable[str] = ()) -> SearchDoc:
    shown = escape_each([title, *(p for p in paragraphs if p)])
    return {"location": location, "title": shown[0], "text": "".join(f"<p>{p}</p>" for p in shown[1:])}


def escaped_separator(separator: str) -> str:
    r"""The configured word separator (a JavaScript regular expression), also matching every escape.

    >>> print(escaped_separator(r"[\s\-]+"))
    (?:[\s\-]+)|&(?:amp|lt|gt|#39|#34);
    """
    return f"(?:{separator})|{ESCAPES}"


def _locator(site: Site, language: str) -> Callable[..., str]:
    """A page's (and anchor's) location relative to the language's root, as the index names it."""
    prefix = site.prefix(language)

    def location(name: str, anchor: str = "") -> str:
        return site.url(language, name)[len(prefix):] + (f"#{anchor}" if anchor else "")

    return location


def _book_docs(site: Site, book_id: str, language: str) -> list[SearchDoc]:
    """One book's documents in one language: the book, then each section and rule."""
    words = site.words(language)
    location = _locator(site, language)
    ruling, reason, example_word = words.gettext("Ruling").text, words.gettext("Reason").text, words.gettext("Example").text
    departs_words = {"source": words.gettext("Departs from the source").text, "rules": words.gettext("Departs from the game's rules").text}
    docs = []
    view = site.book_view(book_id, language)
    book = view.book
    plain = view.plain_text
    docs.append(_doc(location(book_id), plain(book.title), [plain(book.summary)]))
    for section in book.sections:
        docs.append(_doc(location(book_id, section.id), f"{section.number} {plain(section.title)}", [plain(section.intro)]))
        for rule in section.rules:
            paragraphs = [plain(rule.text)]
            for found in rule.rulings:
                departs = f" {departs_words[found.departs_from]}: {plain(found.departs)}" if found.departs else ""
                paragraphs.append(f"{ruling}: {plain(found.text)}{departs} {reason}: {plain(found.reason)}")
            for example in rule.examples:
                heading = f"{example_word}: {plain(example.title)}" if example.title else example_word
                paragraphs += [heading, plain(example.text)]
            title = f"{rule.number} {plain(rule.title)}" if rule.title else rule.number
            docs.append(_doc(location(book_id, rule.id), title, paragraphs))
    return docs


def book_docs(site: Site, book_id: str, language: str) -> list[SearchDoc]:
    """One book's documents in one language, made again only when its page is (``Site.remembered``)."""
    return site.remembered("search", book_id, language, lambda: _book_docs(site, book_id, language))


def search_docs(site: Site, language: str) -> list[SearchDoc]:
    """Every document of one language's index; a page's own document before its sections'."""
    words = site.words(language)
    location = _locator(site, language)
    docs = [
        _doc(location("index"), words.gettext("Rulebooks").text,
             [words.gettext("Every rulebook, every worked example checked against a reference engine.").text]),
    ]
    for book_id in site.books:
        docs.extend(book_docs(site, book_id, language))
    docs.append(_doc(location("coverage"), words.gettext("Translation coverage").text))
    if site.term_anchors:
        # The glossary: a reader who types a term in another language ("land") finds its entry.
        docs.append(_doc(location(GLOSSARY), words.gettext("Glossary").text))
        for entry in site.glossary_shown(language):
            others = "; ".join(f"{other.name}: {other.forms}" for other in entry.others)
            docs.append(_doc(location(GLOSSARY, entry.anchor), entry.name, [entry.forms, others]))
    return docs


def kept_terms(glossary: Glossary, language: str) -> list[list[str]]:
    """``[form, term]`` for every one-word form of a game term in ``language`` (card names aside).

    >>> from rulebook.i18n.glossary import Term
    >>> kept_terms(Glossary((Term({"es": ("maná", "manás")}, "g:1"), Term({"es": ("tierra*",)}, "g:2"))), "es")
    [['maná', 'maná'], ['manás', 'maná'], ['tierra*', 'tierra']]
    """
    kept = []
    for term in glossary.terms:
        forms = [form.lower() for form in term.forms.get(language, ()) if " " not in form.strip()]
        if term.card or not forms:
            continue
        kept += [[form, forms[0].rstrip("*")] for form in forms]
    return kept


def search_index(site: Site, language: str, config: dict[str, Any]) -> dict[str, Any]:
    """One language's index in the theme's format: its ``config`` (languages, pipeline, fields,
    the separator that also splits at escapes) with the kept game terms, and its documents."""
    own: dict[str, Any] = {"rulebook": {"keep": kept_terms(site.glossary, language)}}
    if "separator" in config:
        own["separator"] = escaped_separator(config["separator"])
    return {"config": {**config, **own}, "docs": search_docs(site, language)}
