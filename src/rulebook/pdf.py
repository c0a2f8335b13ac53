"""Printed rulebooks: every book in every language as a PDF, made with WeasyPrint.

:meth:`rulebook.render.Site.printed_book` gives a book as one HTML document; this module lays it
out on A4 pages with the site's stylesheets (symbols, badges, boards) and ``render/print.css``
(page numbers, running title, the table of contents with page numbers, boxes kept whole) as
tagged PDF/UA-1 (a structure a screen reader follows: headings, lists, figures), and
writes ``<lang>/pdf/<book>-<lang>.pdf`` under a folder (``Site.pdf_url``). WeasyPrint needs
Pango from the system (Debian: ``libpango-1.0-0 libpangoft2-1.0-0``) and is an optional
dependency (``pip install 'rulebook[pdf]'``); the MkDocs plugin calls this only when its ``pdf``
option is on, so ``mkdocs serve`` stays fast.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable
from pathlib import Path

from .errors import RulebookError
from .render import Site

PRINT_CSS = Path(__file__).resolve().parent / "render" / "print.css"
#: WeasyPrint's PDF/UA variant: the PDF is tagged (its structure tree, the document's language
#: and title), so a screen reader reads it as the page is read, not as loose lines of text.
PDF_VARIANT = "pdf/ua-1"
#: A WOFF2 source followed by another in an @font-face's src list. WeasyPrint turns a web font
#: into an OpenType file before it lays out a page: from WOFF2, fontTools rebuilds the glyph
#: table in Python (~0.5 s for the Mana symbols, every build); from WOFF it only inflates zlib
#: streams. Browsers take the smaller WOFF2; the printer is handed the next source, the same font.
_WOFF2_BEFORE_ANOTHER = re.compile(r"""url\(\s*["']?[^)"']*\.woff2(?:[?#][^)"']*)?["']?\s*\)\s*format\(\s*["']woff2["']\s*\)\s*,\s*""")


def write_pdfs(site: Site, out: Path, stylesheets: Iterable[Path] = (), *, site_name: str = "") -> list[Path]:
    """Write every book of ``site`` in every language under ``out``; the paths written.

    ``stylesheets`` are the site's own (symbol fonts, badges, boards), read before ``print.css``;
    their relative links (fonts) resolve against their own location.
    """
    # Imported here, when a book is printed: WeasyPrint (optional, only the pdf option needs it)
    # takes 0.6 s to import, which every start of mkdocs and every test worker paid before.
    try:
        import weasyprint
        from weasyprint.text.fonts import FontConfiguration
    except ImportError:  # pragma: no cover - the test extra installs it
        raise RulebookError("printed rulebooks need WeasyPrint: pip install 'rulebook[pdf]' (and the system's Pango)") from None
    fonts = FontConfiguration()  # without it WeasyPrint ignores @font-face (the Mana symbols)
    written = []
    quiet = _BrowserOnlyCSS()
    weasyprint.LOGGER.addFilter(quiet)
    try:
        sheets = [weasyprint.CSS(string=_WOFF2_BEFORE_ANOTHER.sub("", Path(path).read_text(encoding="utf-8")), base_url=str(path),
                                 font_config=fonts) for path in [*stylesheets, PRINT_CSS]]
        for language in site.languages:
            for book_id in site.books:
                html = site.printed_book(book_id, language.code, site_name)
                path = Path(out) / site.pdf_url(language.code, book_id)
                path.parent.mkdir(parents=True, exist_ok=True)
                weasyprint.HTML(string=str(html), base_url=str(out)).write_pdf(path, stylesheets=sheets, font_config=fonts,
                                                                               pdf_variant=PDF_VARIANT)
                written.append(path)
    finally:
        weasyprint.LOGGER.removeFilter(quiet)
    return written


class _BrowserOnlyCSS(logging.Filter):
    """The site's stylesheets are written for browsers: WeasyPrint skipping a declaration it does
    not support (a conic gradient in the symbol font's sheet) is not news; anything else is."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith("Ignored `")
