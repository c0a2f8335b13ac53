"""A symbol in a book's prose asked in a form: ``{1:acc}`` in a msgstr (issue 27 point 1, review-ru C1).

The symbol and its icon stay what they are; its label (what a screen reader reads, what a tooltip
shows) takes the form the sentence asks, from the same label entries of the language's grammar
file that engine sentences use (docs/grammar.md, "Symbols in a sentence").
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from rulebook.i18n.checks import CHECKS, check_po_file, check_translation
from rulebook.i18n.glossary import Glossary
from rulebook.loader import load_book
from rulebook.markup import Symbol, Text, parse_inline
from rulebook.render import Site
from rulebook.render.text import text_to_html, text_to_plain
from rulebook.render.ui import shipped_words
from rulebook.symbols import UNKNOWN_TOKEN_RE

from tests.conftest import site_languages


def _labels(html: str) -> list[str]:
    return re.findall(r'aria-label="([^"]*)"', html)


def test_a_symbol_asked_in_a_form_is_the_symbol_with_its_form() -> None:
    assert parse_inline("до {1:acc} и {U}", joined=True) == (Text("до "), Symbol("{1}", "acc"), Text(" и "), Symbol("{U}"))
    # Not a symbol, or not a form's name: text, as any other unknown token (the checks report it).
    assert all(not isinstance(node, Symbol) for node in parse_inline("{1x:acc} {1:2} {1:}"))


@pytest.mark.parametrize("text, labels", [
    ("доводит её до {1:gen}", ["1 единицы общей маны"]),
    ("стоит {2:acc}{W:acc}", ["2 единицы общей маны", "белую ману"]),
    ("вместо {1:gen}, {5:gen}", ["1 единицы общей маны", "5 единиц общей маны"]),
    ("стоимость {T:gen}", ["символа поворота"]),
    ("второй {U:gen} и {U}", ["синей маны", "синяя мана"]),  # a bare symbol keeps its label as shown
    ("стоит {U/B:acc}", ["гибридную ману: синяя или чёрная"]),
])
def test_a_prose_symbols_label_takes_the_form_asked(text: str, labels: list[str]) -> None:
    html = str(text_to_html(text, language=shipped_words("ru"), inline=True))
    assert _labels(html) == labels
    # The icon is the symbol's own: {1:gen} draws {1}.
    assert re.findall(r'class="([^"]*)"', html) == re.findall(r'class="([^"]*)"', str(text_to_html(re.sub(r":\w+}", "}", text), language="ru", inline=True)))
    # Read as words of the sentence, in the form asked: no parenthesis (review3-fr SI-4, ru SW4).
    plain = text_to_plain(text, shipped_words("ru"))
    assert "(" not in plain and all(label in plain for label in labels), plain


def test_the_plain_text_reads_the_asked_form_and_other_languages_read_the_label() -> None:
    assert text_to_plain("до {1:gen}, {1}", shipped_words("ru")) == "до 1 единицы общей маны, 1 единица общей маны"
    # French labels have no forms: an asked one is read as shown (and the check reports it, below).
    assert text_to_plain("à {1:acc}", shipped_words("fr")) == "à 1 mana générique"


@pytest.mark.parametrize("translation, language, problems", [
    ("доводит её до {1:gen}", "ru", []),
    ("доводит её до {1:loc}", "ru", ["[forms] {1:loc}: the label of {1} has no 'loc' form"]),
    ("доводит её до {1:zz}", "ru", ["[forms] {1:zz}: 'zz' is not a form ru knows"]),
    ("доводит её до {2:gen}", "ru", ["[tokens] symbol missing: {1}", "[tokens] symbol not in the source: {2}"]),
    ("porte à {1:acc}", "fr", ["[forms] {1:acc}: 'acc' is not a form fr knows"]),
    ("porte à {1}", "fr", []),
])
def test_the_checks_read_an_asked_symbol_as_its_symbol_and_check_its_form(translation: str, language: str, problems: list[str]) -> None:
    found = [f"[{name}] {detail}" for name, detail in check_translation("lo porta a {1}", translation, language, Glossary(), CHECKS)]
    assert len(found) == len(problems) and all(f.startswith(p) for f, p in zip(found, problems)), found


def test_i18n_check_reports_a_form_the_label_lacks_at_its_line(tmp_path: Path) -> None:
    po = tmp_path / "ru" / "LC_MESSAGES" / "casting.po"
    po.parent.mkdir(parents=True)
    po.write_text('msgid ""\nmsgstr ""\n"Language: ru\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n'
                  '"Plural-Forms: nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);\\n"\n\n'
                  'msgctxt "casting/x:text"\nmsgid "Talia lo porta a {1}."\nmsgstr "Талия доводит его до {1:gen}."\n\n'
                  'msgctxt "casting/y:text"\nmsgid "Costa {T}."\nmsgstr "Стоит {T:loc}."\n', encoding="utf-8")
    found = [(p.line, p.message) for p in check_po_file(po, "ru") if "[forms]" in p.message]
    lines = po.read_text(encoding="utf-8").splitlines()
    entry = range(lines.index('msgctxt "casting/y:text"') + 1, len(lines) + 1)  # the message's own lines
    assert len(found) == 1 and found[0][0] in entry and "casting/y:text: [forms] {T:loc}" in found[0][1], found


def test_the_source_language_keeps_the_plain_symbol() -> None:
    """Only a translation asks a form: in the book's own text ``{1:acc}`` is an unknown symbol (the loader's error)."""
    assert UNKNOWN_TOKEN_RE.findall("Costa {1:acc} o {1}.") == ["{1:acc}"]


@lru_cache(maxsize=None)
def _ru_page(book_id: str) -> str:
    book = load_book(f"rules/{book_id}.yaml")
    return Site({book.id: book}, (), languages=site_languages()).book_page(book.id, "ru").html


@pytest.mark.parametrize("book_id, sentence, label", [
    # Review-ru C1: «Талия доводит её до [1 единица общей маны]».
    ("casting", "Талия доводит её до ", "1 единицы общей маны"),
    ("casting", "оно стоит на ", "2 единицы общей маны"),
    ("casting", "стоимость ", "символа поворота"),
    ("casting", "второй ", "синей маны"),
    ("planechase", "второй стоит ", "1 единицу общей маны"),
])
def test_the_russian_prose_reads_its_symbols_in_the_sentences_case(book_id: str, sentence: str, label: str) -> None:
    page = _ru_page(book_id)
    assert re.search(re.escape(sentence) + r'<i class="ms [^"]*" role="img" aria-label="' + re.escape(label) + '"', page), label


@pytest.mark.parametrize("language", sorted(set(site_languages()) - {"ru"}))
def test_no_other_language_asks_a_prose_symbols_form(language: str) -> None:
    """Their labels have no forms (fr «coûte {1} de plus» reads right as it is): nothing to ask."""
    for po in sorted(Path("locales", language, "LC_MESSAGES").glob("*.po")):
        asked = [m.context for m in read_po(po.open("rb")) if isinstance(m.string, str) and re.search(r"\{[^{}\s:]+:[^{}\s]+\}", m.string)]
        assert not asked, (po, asked)


def test_the_glossary_names_a_term_by_its_headword_not_a_prefix_or_a_books_word() -> None:
    """The Russian page names each term by the headword glossary.yaml gives (review3-ru SW1, SW2:
    «заклинани…», the adjective «общая» alone): never a prefix form, never a word a book happens
    to use for it (the casting prose asks {C:acc}, «бесцветную ману»)."""
    book = load_book("rules/casting.yaml")
    site = Site({book.id: book}, (), languages=site_languages())
    names = {entry.name for entry in site.glossary_shown("ru")}
    assert {"бесцветный", "заклинание", "артефакт", "перманент", "мгновенное заклинание", "общая мана"} <= names
    assert not {"бесцветная", "бесцветную", "общая", "мгновенное"} & names
    assert not [name for name in names if name.endswith(("*", "…"))]
