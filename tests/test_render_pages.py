"""Pages rendered straight from the model, without MkDocs: layout, marks, escaping."""

from __future__ import annotations

import dataclasses
import re
import textwrap
from pathlib import Path

from rulebook.examples import run_books
from rulebook.i18n.translate import TranslatedBook
from rulebook.loader import load_library, rulebook_paths
from rulebook.model import Book
from rulebook.render import Site
from rulebook.render.pages import relative_url

from .test_site_build import ALTRO, DEMO, OLD_SOURCES, RUSSIAN, write_catalog


def books(tmp_path: Path) -> dict[str, Book]:
    (tmp_path / "demo.yaml").write_text(textwrap.dedent(DEMO).lstrip(), encoding="utf-8")
    (tmp_path / "altro.yaml").write_text(textwrap.dedent(ALTRO).lstrip(), encoding="utf-8")
    return load_library(rulebook_paths(tmp_path))


def test_relative_urls() -> None:
    assert relative_url("en/demo/", "en/altro/#fine") == "../altro/#fine"
    assert relative_url("", "ru/demo/") == "ru/demo/"
    assert relative_url("ru/demo/", "demo/") == "../../demo/"
    assert relative_url("ru/", "ru/") == "./"
    assert relative_url("ru/demo.html", "altro.html") == "../altro.html"


def test_layout_italian_at_the_root_others_under_their_code(tmp_path: Path) -> None:
    site = Site(books(tmp_path), languages=("it", "ru"), locales=tmp_path / "locales")  # no glossary: no glossary page
    assert [p.src_uri for p in site.all_pages()] == [
        "index.md", "altro.md", "demo.md", "coverage.md", "ru/index.md", "ru/altro.md", "ru/demo.md", "ru/coverage.md",
    ]
    page = site.book_page("demo", "ru")
    assert page.url == "ru/demo/" and [a.url for a in page.alternates] == ["demo/", "ru/demo/"]
    assert [(e.id, [c.id for c in e.children]) for e in page.toc] == [("primo", ["mana-bianco", "pesca"])]
    flat = Site(books(tmp_path), languages=("it", "ru"), directory_urls=False)
    assert flat.book_page("demo", "ru").url == "ru/demo.html"
    assert 'href="altro.html#fine"' in flat.book_page("demo", "ru").html


def test_unchecked_hostile_translation_is_still_escaped(tmp_path: Path) -> None:
    """Even if a msgstr skipped the catalog checks, the renderer alone keeps it inert."""
    library = books(tmp_path)
    hostile = "<script>alert(1)</script>{{ 7*7 }} [x](javascript:alert(1)) \" onload=\"x"

    def translate(book: Book, language: str, locales: Path) -> TranslatedBook:
        evil = dataclasses.replace(book, title=hostile, summary=hostile)
        return TranslatedBook(evil, language, frozenset(), frozenset(), ())

    site = Site(library, run_books(library.values()), languages=("it", "ru"), translate=translate)
    for page in site.pages("ru"):
        assert "<script>" not in page.html and 'href="javascript' not in page.html
        assert "onload=\"x" not in page.html
    page = site.book_page("demo", "ru")
    assert "&lt;script&gt;" in page.html and "{{ 7*7 }}" in page.html
    assert "<script>" not in page.title  # the head and nav get escaped plain text


def test_example_outcomes_are_on_the_page(tmp_path: Path) -> None:
    library = books(tmp_path)
    site = Site(library, run_books(library.values()), languages=("it",))
    html = site.book_page("demo", "it").html
    assert 'id="somma" data-rb-status="passed"' in html and "verificato" in html
    assert 'data-rb-status="not_run"' in Site(library, (), languages=("it",)).book_page("demo", "it").html
    # Its title and the badge are apart for whoever hears or copies them ("Esempio 1, verificato",
    # review3-en E-W2: "Example 1: Hexchecked"); the comma is hidden from the eye only.
    title = re.search(r'<p class="admonition-title">(.*?)<a class="headerlink"', html.split('id="somma"', 1)[1], re.S)
    assert title and re.sub(r"<[^>]+>", "", title.group(1)).split() == ["Esempio", "1,", "verificato"], title
    assert '<span class="rb-visually-hidden">, </span>' in title.group(1)


def test_the_proof_is_told_in_players_words_and_its_code_kept_folded_for_authors(tmp_path: Path) -> None:
    library = books(tmp_path)
    checked = Site(library, run_books(library.values()), languages=("it", "en", "fr", "ru"))
    badges = {"it": "verificato", "en": "checked", "fr": "vérifié", "ru": "проверено"}
    folded = {"it": "La verifica in codice, per gli autori", "en": "The check as code, for authors",
              "fr": "La vérification en code, pour les auteurs", "ru": "Проверка в виде кода, для авторов"}
    for language, badge in badges.items():
        html = checked.book_page("demo", language).html
        example = html.split('id="somma"', 1)[1].split(">", 1)[1].split("</details>", 1)[0]
        assert f'<span class="rb-status rb-status--passed" title="' in example and f">{badge}</span>" in example, language
        # The doctest is there, folded under a heading in plain words; no "doctest", "proof" or "passed" shown.
        outside, summary_and_code = example.split("<details", 1)
        assert f"<summary>{folded[language]}</summary>" in summary_and_code, language
        assert "&gt;&gt;&gt;" in summary_and_code, language
        shown = re.sub(r"<[^>]+>", " ", outside + summary_and_code.split(">", 1)[1].split("</summary>", 1)[0])  # the text a reader sees
        for developers_word in ("doctest", "Proof", "passed", "Preuve", "Verifica (", "пройден"):
            assert developers_word not in shown, (language, developers_word)
    printed = checked.printed_book("demo", "en")
    assert "<details" not in printed and "&gt;&gt;&gt;" not in printed  # the PDF leaves the code out


def test_a_label_and_its_colon_are_written_as_the_language_writes_them(tmp_path: Path) -> None:
    """French puts a narrow no-break space before a colon ("Motif :"), the others none."""
    site = Site(books(tmp_path), languages=("it", "fr", "en"))
    assert "<strong>Motif\u202f:</strong>" in site.book_page("demo", "fr").html
    assert "<strong>Motivo:</strong>" in site.book_page("demo", "it").html
    assert "<strong>Reason:</strong>" in site.book_page("demo", "en").html
    for language in ("it", "fr", "en"):
        assert not re.search(r"\w:</strong>", site.book_page("demo", language).html.replace("Motivo:", "").replace("Reason:", ""))


def test_the_not_found_page_offers_every_book_and_the_home_page(tmp_path: Path) -> None:
    site = Site(books(tmp_path), languages=("it", "ru"))
    html = site.not_found("ru", "/base/ru/").html
    links = re.findall(r'<a (?:class="([^"]*)" )?href="([^"]+)">([^<]+)</a>', str(html))
    assert links == [("", "/base/ru/altro/", "Altro libro"), ("", "/base/ru/demo/", "Demo"), ("rb-not-found-home", "/base/ru/", "Главная страница")]


def test_a_book_page_lists_where_the_book_departs_from_its_source(tmp_path: Path) -> None:
    departing = DEMO.replace("            text: Il mana non si conserva tra i turni.",
                             "            departs: «il mana resta» (Mana)\n            text: Il mana non si conserva tra i turni.")
    (tmp_path / "demo.yaml").write_text(textwrap.dedent(departing).lstrip(), encoding="utf-8")
    (tmp_path / "altro.yaml").write_text(textwrap.dedent(ALTRO).lstrip(), encoding="utf-8")
    site = Site(load_library(rulebook_paths(tmp_path)), languages=("it", "ru"))
    page = site.book_page("demo", "it")
    listed = page.html.split('<section class="rb-departures">')[1]
    assert '<h2 id="rb-departures">Dove questo regolamento decide' in listed
    assert '<a href="#decisione-mana">1.1, decisione 1</a> Il mana bianco: «il mana resta» (Mana)</li>' in listed
    assert page.toc[-1].id == "rb-departures" and page.toc[-1].level == 2
    # In the ruling itself, the passage is named beside the reason.
    ruling = page.html.split('id="decisione-mana"')[1].split("</div>\n</div>")[0]
    assert "Si discosta dal testo di partenza:</strong> «il mana resta» (Mana)" in ruling
    # Another language says it in its own words (the departure itself falls back, marked).
    assert "Где эта книга решает сама" in site.book_page("demo", "ru").html and ">1.1, решение 1</a>" in site.book_page("demo", "ru").html
    # A book without departures has no such list, and its other book neither.
    assert "rb-departures" not in site.book_page("altro", "it").html
    assert "rb-departures" not in Site(books(tmp_path), languages=("it",)).book_page("demo", "it").html
    # Only the source is departed from: the list's introduction names only the source text.
    assert "si discostano dalla lettera del testo di partenza:" in listed
    # A ruling that departs from the game's rules says so, and the introduction names both (issue 27.5, W1).
    ruled = departing.replace("            departs: «il mana resta» (Mana)\n",
                              "            departs: regola 500.4\n            departs_from: rules\n")
    (tmp_path / "demo.yaml").write_text(textwrap.dedent(ruled).lstrip(), encoding="utf-8")
    ruled_page = Site(load_library(rulebook_paths(tmp_path)), languages=("it", "en")).book_page("demo", "it").html
    assert "Si discosta dalle regole del gioco:</strong> regola 500.4" in ruled_page
    assert "Si discosta dal testo di partenza" not in ruled_page
    assert "si discostano dalla lettera del testo di partenza o delle regole del gioco:" in ruled_page
    # A title with its own stop is set off by a dash, never "? :" or a second colon (review-fr S-1).
    for title, joined in (("Quale mana bianco resta?", "Quale mana bianco resta? — «il mana resta»"),
                          ("\"Asso: il mana bianco\"", "Asso: il mana bianco — «il mana resta»")):
        (tmp_path / "demo.yaml").write_text(textwrap.dedent(departing.replace("Il mana bianco", title)).lstrip(), encoding="utf-8")
        listed = Site(load_library(rulebook_paths(tmp_path)), languages=("it",)).book_page("demo", "it").html.split('<section class="rb-departures">')[1]
        assert joined in listed and "?:" not in listed


def test_a_cross_reference_previews_the_rule_it_names_and_every_rule_has_a_permalink_by_number(tmp_path: Path) -> None:
    library = books(tmp_path)
    write_catalog(tmp_path / "locales", "ru", "demo", RUSSIAN, OLD_SOURCES, tmp_path)
    site = Site(library, languages=("it", "ru"), locales=tmp_path / "locales")
    html = str(site.book_page("demo", "ru").html)
    # Its number, title and first sentence, in the page's language; another book's named first.
    assert '<a class="rb-xref" href="#pesca" title="1.2 Взять карту — Игрок берёт карту из колоды.">1.2</a>' in html
    assert re.search(r'<a class="rb-xref" href="\.\./altro/#fine" title="Altro libro 1\.1 La fine — Si torna a 1\.2 con [^"]+\.">1\.1</a>', html)
    # Every section and rule can be linked by its number (#1.2) as by its id (#pesca).
    for anchor, number in (("primo", "1"), ("mana-bianco", "1.1"), ("pesca", "1.2")):
        assert re.search(rf'<h[23] id="{anchor}"><span class="rb-number" id="{re.escape(number)}">{re.escape(number)}</span>', html), anchor


def test_a_number_that_is_already_an_id_is_not_given_twice(tmp_path: Path) -> None:
    numbered = DEMO.replace("      - id: pesca\n", "      - id: '1.2'\n").replace("[[pesca]]", "[[1.2]]")
    (tmp_path / "demo.yaml").write_text(textwrap.dedent(numbered).lstrip(), encoding="utf-8")
    (tmp_path / "altro.yaml").write_text(textwrap.dedent(ALTRO).lstrip().replace("[[demo:pesca]]", "[[demo:1.2]]"), encoding="utf-8")
    html = str(Site(load_library(rulebook_paths(tmp_path)), languages=("it",)).book_page("demo", "it").html)
    assert len(re.findall(r'\sid="1\.2"', html)) == 1 and '<h3 id="1.2"><span class="rb-number">1.2</span>' in html


def test_first_sentence_is_cut_at_a_sentence_end_not_at_a_number() -> None:
    from rulebook.render.previews import MAX_SENTENCE, first_sentence
    assert first_sentence("Vedi 601.2f prima. Poi il resto.") == "Vedi 601.2f prima."
    assert first_sentence("Nessun punto finale") == "Nessun punto finale"
    long = "parola " * 100
    cut = first_sentence(long)
    assert len(cut) <= MAX_SENTENCE + 1 and cut.endswith("…") and not cut.endswith(" …")
