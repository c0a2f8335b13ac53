"""Page weight (issue 13.4): each built page's gzipped HTML, largest first.

Builds the repository's own site (its ``mkdocs.yml``, ``rules/`` and ``locales/``) into a
temporary folder, or reads an already built one (``--site DIR``), and prints every HTML page's
size raw and gzipped (level 6, gzip's and most web servers' default), largest first. The
target: the largest book page (one rulebook in one language) under 60 KB of gzipped HTML;
assets (CSS, fonts, scripts, the search index) are cached across pages and not counted.

Run: .venv/bin/python -m benchmarks.bench_pages [--site DIR] [--top 20] [--strict]
"""

from __future__ import annotations

import argparse
import gzip
import logging
import sys
import tempfile
from pathlib import Path

from rulebook.loader import rulebook_paths

from .anchors import REPO

TARGET_KB = 60
LEVEL = 6


def build_repository_site(site_dir: Path) -> Path:
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    logging.getLogger("mkdocs").setLevel(logging.ERROR)
    config = load_config(str(REPO / "mkdocs.yml"), site_dir=str(site_dir))
    build(config)
    return site_dir


def page_weights(site: Path) -> list[tuple[str, int, int]]:
    """(URL path, raw bytes, gzipped bytes) of every HTML page, largest gzipped first."""
    rows = []
    for page in site.rglob("*.html"):
        data = page.read_bytes()
        rows.append((page.relative_to(site).as_posix(), len(data), len(gzip.compress(data, compresslevel=LEVEL, mtime=0))))
    return sorted(rows, key=lambda row: -row[2])


def is_book_page(path: str, book_ids: set[str]) -> bool:
    """``<book>/index.html`` or ``<lang>/<book>/index.html`` (directory URLs)."""
    parts = path.split("/")
    return parts[-1] == "index.html" and len(parts) >= 2 and parts[-2] in book_ids


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="gzipped HTML weight of every page")
    parser.add_argument("--site", type=Path, help="an already built site (default: build the repository's into a temporary folder)")
    parser.add_argument("--top", type=int, default=20, help="pages to list (default 20; 0: all)")
    parser.add_argument("--strict", action="store_true", help="exit 1 when the largest book page is over the target")
    args = parser.parse_args(argv)
    book_ids = {path.stem for path in rulebook_paths(REPO / "rules")}
    with tempfile.TemporaryDirectory(prefix="rulebook-pages-") as temporary:
        site = args.site or build_repository_site(Path(temporary) / "site")
        rows = page_weights(site)
    shown = rows if args.top == 0 else rows[: args.top]
    print(f"{'page':<40} {'HTML KB':>8} {'gzip KB':>8}")
    for path, raw, packed in shown:
        print(f"{path:<40} {raw / 1024:>8.1f} {packed / 1024:>8.1f}")
    if len(shown) < len(rows):
        print(f"... {len(rows) - len(shown)} smaller pages")
    books = [row for row in rows if is_book_page(row[0], book_ids)]
    if not books:
        print("no book page found")
        return 1
    path, raw, packed = books[0]
    ok = packed <= TARGET_KB * 1024
    total = sum(row[2] for row in rows)
    print(f"{len(rows)} pages, {total / 1024:.0f} KB gzipped in all")
    print(f"{'PASS' if ok else 'FAIL'} largest book page {path}: {packed / 1024:.1f} KB gzipped (target <= {TARGET_KB} KB)")
    return 1 if not ok and args.strict else 0


if __name__ == "__main__":
    sys.exit(main())
