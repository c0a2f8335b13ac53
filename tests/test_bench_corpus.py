"""The benchmarks' generated corpus is a real rulebook collection (no timing here).

The speed targets of issue 15 are measured on it (benchmarks/bench_corpus.py), so it must be
what the site builds: books the strict loader accepts, examples that pass, every language
fully translated with nothing for ``rulebook i18n check`` to report, catalogs that
``rulebook i18n update`` would leave as they are, and the anchors' Markdown holding every rule.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from benchmarks.anchors import ALL_LANGUAGES, markdown_pages
from benchmarks.corpus import LANGUAGES, SOURCE_LANGUAGE, generate

from rulebook.examples import run_books
from rulebook.i18n import catalog_path
from rulebook.i18n.catalogs import update_catalog, write_template
from rulebook.i18n.checks import check_locales
from rulebook.i18n.translate import translate_book
from rulebook.loader import load_library, rulebook_paths


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    made = generate(tmp_path_factory.mktemp("corpus"), books=2, rules=3)
    return made, load_library(rulebook_paths(made.rules))


def test_books_load_with_their_rules_examples_and_rulings(corpus):
    made, books = corpus
    assert len(books) == 2
    for book in books.values():
        rules = list(book.rules())
        assert len(rules) == 3
        assert any(rule.examples for rule in rules) and any(rule.rulings for rule in rules)


def test_texts_use_every_kind_of_markup(corpus):
    _, books = corpus
    texts = " ".join(rule.text for book in books.values() for rule in book.rules())
    for mark in ("{", "[[", "**", "\n- "):
        assert mark in texts


def test_every_worked_example_passes(corpus):
    _, books = corpus
    outcomes = run_books(books.values())
    assert outcomes and all(outcome.passed for outcome in outcomes), [o.report() for o in outcomes if not o.passed]


def test_every_language_is_fully_translated_and_checks_pass(corpus):
    made, books = corpus
    assert check_locales(made.locales, source=SOURCE_LANGUAGE) == []
    for book in books.values():
        for language in LANGUAGES:
            translated = translate_book(book, language, made.locales)
            assert not translated.fallback and not translated.problems, (book.id, language)
            assert translated.book.title != book.title  # the words really are another language's


def test_catalogs_are_what_i18n_update_would_write(corpus):
    made, books = corpus
    for book in books.values():
        template, stale = write_template(Path(book.path), book.id, made.locales, write=False)
        assert not stale
        for language in LANGUAGES:
            updated, problems = update_catalog(template, catalog_path(made.locales, language, book.id), language, book.id, write=False)
            assert not problems and updated is not None and not updated.written, (book.id, language)


def test_anchor_markdown_holds_every_rule_in_every_language(corpus):
    made, books = corpus
    for language in ALL_LANGUAGES:
        pages = markdown_pages(books, language, made.locales)
        assert set(pages) == {"index.md", "glossary.md"} | {f"{book_id}.md" for book_id in books}
        for book_id, book in books.items():
            for rule in book.rules():
                assert f"{{#{rule.id}}}" in pages[f"{book_id}.md"]


def test_anchor_links_read_as_the_site_numbers_them(corpus):
    # The anchors' link text is a rule's number, as a rulebook page shows it (it was the
    # repr of the model's Anchor: 'Anchor(number=...)', dozens of characters a link).
    made, books = corpus
    pages = markdown_pages(books, SOURCE_LANGUAGE, made.locales)
    numbers = {anchor.number for book in books.values() for anchor in book.anchors().values()}
    # (Every link but those to the glossary, whose text is the term's word.)
    texts = [link for page in pages.values() for link in re.findall(r"\[([^\]]*)\]\((?!glossary\.md)[^)]*#[^)]*\)", page)]
    assert texts, "the corpus' books cross-reference each other"
    for text in texts:
        assert text.split(", ")[0].split(" ")[-1] in numbers, text


def test_the_anchor_holds_what_a_page_shows_of_each_example_its_steps_and_boards():
    # Plain Material is measured on the same content: an example's steps, told from the run that
    # checked it, and its boards are on every rulebook page (they were missing from the anchor).
    from benchmarks.corpus import REPO

    books = load_library(rulebook_paths(REPO / "rules"))
    pages = markdown_pages(books, SOURCE_LANGUAGE, REPO / "locales")
    outcomes = {(o.book.id, o.example.id): o for o in run_books(books.values())}
    stepped = drawn = 0
    for (book_id, example_id), outcome in outcomes.items():
        page = pages[f"{book_id}.md"]
        start = page.index(f'<a id="{example_id}"></a>')
        following = page.find('<a id="', start + 1)
        block = page[start:following if following >= 0 else len(page)]
        steps = re.findall(r"^    \d+\. ", block, re.MULTILINE)
        assert len(steps) >= (1 if outcome.records else 0), f"{book_id}/{example_id}: its steps are missing"
        assert ("<svg" in block) == (outcome.figure is not None), f"{book_id}/{example_id}: its board"
        stepped += bool(steps)
        drawn += outcome.figure is not None
    assert stepped > 50 and drawn > 10  # the repository's proofs and La Strage's boards


def _site_term_links(site, book_id: str, language: str) -> int:
    """How many links to the glossary the site's page of a book makes in its texts."""
    view = site.book_view(book_id, language)
    book = view.book
    fields = [(book, "summary")]
    for section in book.sections:
        fields.append((section, "intro"))
        for rule in section.rules:
            fields.append((rule, "text"))
            fields.extend((example, "text") for example in rule.examples)
            fields.extend((ruling, name) for ruling in rule.rulings for name in ("text", "reason"))
    return sum(str(view.text(node, name)).count('class="rb-term"') for node, name in fields if getattr(node, name))


def test_the_anchor_links_each_term_where_a_rulebook_page_links_it_and_has_the_glossary(corpus):
    # Plain Material is measured on the same content: every rulebook page links each term's first
    # use in a text to its glossary entry (1,708 links on a 200-rule page), and the site has a
    # glossary page; the anchors had neither.
    from rulebook.render.pages import Site

    made, books = corpus
    outcomes = run_books(books.values())
    for language in (SOURCE_LANGUAGE, "fr"):
        pages = markdown_pages(books, language, made.locales)
        site = Site(books, outcomes, made.locales, languages=list(dict.fromkeys((SOURCE_LANGUAGE, language))))
        glossary = pages["glossary.md"]
        total = 0
        for book_id in books:
            targets = re.findall(r"\]\(glossary\.md#([^)]+)\)", pages[f"{book_id}.md"])
            assert len(targets) == _site_term_links(site, book_id, language), (language, book_id)
            assert all(f"{{#{target}}}" in glossary for target in targets)
            total += len(targets)
        assert total > 0, "the corpus' texts use the glossary's terms"


def test_a_symbol_asked_in_a_form_is_drawn_in_the_anchor_as_itself():
    # A Russian text asks symbols in a case ({W:gen}, docs/grammar.md): the anchor's Markdown of
    # the repository's Russian books failed on it (KeyError) where the site draws the symbol.
    from benchmarks.anchors import _inline

    books = load_library(rulebook_paths(Path(__file__).resolve().parent.parent / "rules"))
    book = next(iter(books.values()))
    assert _inline("Paga {W:gen} e {W}", book, {}) == _inline("Paga {W} e {W}", book, {})
    assert 'class="ms ms-w ms-cost"' in _inline("{W:gen}", book, {})
