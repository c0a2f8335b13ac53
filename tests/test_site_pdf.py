"""Printed rulebooks: the plugin's pdf option makes a PDF of every book in every language.

Builds the small site of test_site_build with the option on and reads the PDFs with pypdf:
pages, the table of contents (a page of entries with their page numbers, and the PDF's own
outline), and each language's text of a rule.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from .test_site_build import RUSSIAN, build, make_project, page

pypdf = pytest.importorskip("pypdf")

LANGUAGES = ["it", "en", "fr", "es", "pt", "ru"]
pytestmark = pytest.mark.slow  # a site built with every book printed, then read


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # The test extra installs WeasyPrint; it needs the system's Pango (.ci/run). Imported by the
    # tests that print, not when the module is collected: every xdist worker collects it (2 s).
    pytest.importorskip("weasyprint")
    return build(make_project(tmp_path_factory.mktemp("pdf"), pdf=True))


def pdf_path(site: Path, language: str, book: str) -> Path:
    return site / ("" if language == "it" else language) / "pdf" / f"{book}-{language}.pdf"


def page_texts(reader) -> list[str]:  # noqa: ANN001 - pypdf's PdfReader
    """Each page's text, read once: pypdf parses a page's content stream anew at every call."""
    return [page.extract_text() or "" for page in reader.pages]


def outline_titles(entries) -> list[str]:  # noqa: ANN001 - pypdf's nested outline lists
    titles = []
    for entry in entries:
        titles.extend(outline_titles(entry) if isinstance(entry, list) else [entry.title])
    return titles


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_book_is_printed_with_contents_page_numbers_and_its_text(site: Path, language: str) -> None:
    printed = {}
    for book in ("demo", "altro"):
        reader = pypdf.PdfReader(pdf_path(site, language, book))
        printed[book] = reader, page_texts(reader)
        sheets = printed[book][1]
        assert len(sheets) > 0
        # Every page is numbered "n / total" at its foot.
        total = len(sheets)
        for number, sheet in enumerate(sheets, start=1):
            assert re.search(rf"\b{number} / {total}\b", sheet), (book, number)
    reader, sheets = printed["demo"]
    text = " ".join(" ".join(sheet.split()) for sheet in sheets)
    # The rule's text as the page in that language shows it (Russian translated; the others still Italian).
    rule = RUSSIAN["demo/pesca:text"] if language == "ru" else "Il giocatore pesca una carta dal mazzo."
    assert rule in text, (language, text[:500])
    # A table of contents: its heading in the page's language, each section and rule with the page it starts on.
    heading = {"it": "Indice", "en": "Contents", "fr": "Sommaire", "es": "Índice", "pt": "Sumário", "ru": "Содержание"}[language]
    contents = " ".join(sheets[0].split())
    assert heading in contents
    title = "Взять карту" if language == "ru" else "Pescare"
    assert re.search(rf"1\.2 {title}[ .]*\d+", contents), contents
    # The PDF's own outline (bookmarks) has the sections and rules too (an untranslated one
    # followed by its language's mark, as on the page).
    assert any(t.startswith(f"1.2 {title}") for t in outline_titles(reader.outline)), outline_titles(reader.outline)
    # The symbols are printed in their own font (the stylesheet's web font, embedded).
    fonts = {font.get_object()["/BaseFont"].split("+")[-1] for sheet in reader.pages
             for font in (sheet["/Resources"].get("/Font") or {}).values()}
    assert "Mana" in fonts, fonts


def test_each_book_page_links_its_pdf(site: Path) -> None:
    for language in LANGUAGES:
        html = page(site, f"{'' if language == 'it' else language + '/'}demo")
        link = re.search(r'<p class="rb-pdf-link"><a href="([^"]+)"', html)
        assert link and link.group(1) == f"../pdf/demo-{language}.pdf", language
        assert pdf_path(site, language, "demo").exists()


def test_without_the_option_there_is_no_pdf_and_no_link(tmp_path: Path) -> None:
    site = build(make_project(tmp_path))
    assert "rb-pdf-link" not in page(site, "ru/demo")
    assert not list(site.rglob("*.pdf"))


def test_the_pdfs_are_tagged_for_screen_readers(site: Path) -> None:
    """PDF/UA: a structure tree, marked content, the document's language and title."""
    for language in LANGUAGES:
        reader = pypdf.PdfReader(pdf_path(site, language, "demo"))
        root = reader.trailer["/Root"]
        assert "/StructTreeRoot" in root, language
        assert root["/MarkInfo"]["/Marked"] == True, language  # noqa: E712 - a pypdf BooleanObject
        assert str(root["/Lang"]).lower().startswith(language), (language, root.get("/Lang"))
        assert reader.metadata.title, language
