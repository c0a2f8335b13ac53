"""The coverage page writes its percentages the way the page's language does (CLDR, by Babel)."""

from __future__ import annotations

import re
from pathlib import Path

from rulebook.render import Site

from .test_render_pages import books


def _percents(html: str) -> list[str]:
    return re.findall(r"</progress> ([^<]*)</td>", html)


def test_the_coverage_percentage_is_written_as_the_page_language_writes_it(tmp_path: Path) -> None:
    site = Site(books(tmp_path), languages=("it", "fr", "en"), locales=tmp_path / "locales")
    # Nothing is translated: Italian, the source, is all there; French and English show nothing yet.
    assert _percents(site.coverage_page("fr").html)[:3] == ["100\u00a0%", "0\u00a0%", "0\u00a0%"]  # «100 %»
    assert _percents(site.coverage_page("en").html)[:3] == ["100%", "0%", "0%"]
    assert _percents(site.coverage_page("it").html)[:3] == ["100%", "0%", "0%"]
