"""The book pages and search documents of the generated corpus, against Python-Markdown on the same text.

Issue 15.2 measures whole builds; this isolates the part that renders the rulebooks: every book
page in every language (``Site.book_page``: the template, the texts, the proofs and their
highlighted doctests) and every language's search documents (``render.search.search_docs``),
with each (book, language) translated beforehand and not counted (that is the translation's
share, measured by bench_i18n and bench_corpus). The baseline, measured in the same process
and in turns with it, is what a plain mkdocs-material build spends on the same content's page
bodies: Python-Markdown with the repository's Markdown extensions converting the anchors'
Markdown of the books (``anchors.markdown_pages``), one language.

Every round starts from nothing a first build would not have: a new Site, and the highlighted
doctests (``render.fragments.highlight_doctest``) in a new build cache. CPU time,
the best round reported. No target of its own: the ratios say what the rulebook pages cost
next to the anchor's, per added language (``pages / Markdown``, 6 languages against 1).

Run: .venv/bin/python -m benchmarks.bench_render [--books 5 --rules 200] [--rounds 3] [--workdir DIR]
"""

from __future__ import annotations

import argparse
import logging
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

import markdown
from mkdocs.config import load_config

from rulebook.cache import BuildCache, using
from rulebook.examples import run_books
from rulebook.loader import load_library, rulebook_paths
from rulebook.render.pages import Site
from rulebook.render.search import search_docs

from .anchors import ALL_LANGUAGES, markdown_pages, write_material
from .corpus import SOURCE_LANGUAGE, generate


def cpu_seconds(work: Callable[[], object]) -> float:
    start = time.process_time()
    work()
    return time.process_time() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="book pages and search documents against Python-Markdown, same text")
    parser.add_argument("--books", type=int, default=5)
    parser.add_argument("--rules", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--workdir", type=Path, help="keep the corpus here (reused when up to date)")
    args = parser.parse_args(argv)
    logging.getLogger("mkdocs").setLevel(logging.ERROR)

    with tempfile.TemporaryDirectory(prefix="rulebook-render-") as temporary:
        work = args.workdir or Path(temporary)
        corpus = generate(work / f"corpus-{args.books}x{args.rules}", args.books, args.rules)
        books = load_library(rulebook_paths(corpus.rules))
        outcomes = run_books(books.values())
        # The anchor's own Markdown configuration: the repository's extensions, as MkDocs loads them.
        config = load_config(str(write_material(corpus, work / "render-material")))
        texts = [text for name, text in markdown_pages(books, SOURCE_LANGUAGE, corpus.locales).items() if name != "index.md"]

        def new_site() -> Site:
            return Site(books, outcomes, corpus.locales, ALL_LANGUAGES)

        translating = new_site()
        translate = cpu_seconds(lambda: [translating.translated(book_id, language.code)
                                         for book_id in books for language in translating.languages.targets])

        def convert() -> None:
            for text in texts:
                markdown.Markdown(extensions=config.markdown_extensions, extension_configs=config.mdx_configs).convert(text)

        def pages_and_search() -> tuple[float, float]:
            site = new_site()
            site._translated = translating._translated  # translated beforehand: not this measure's share
            with using(BuildCache()):  # a new build's cache: every doctest highlighted once, as a cold build does
                pages = cpu_seconds(lambda: [site.book_page(book_id, code) for code in site.languages.codes for book_id in books])
                search = cpu_seconds(lambda: [search_docs(site, code) for code in site.languages.codes])
            return pages, search

        rounds = []
        for _ in range(args.rounds):
            rounds.append((cpu_seconds(convert), *pages_and_search()))

    baseline = min(r[0] for r in rounds)
    pages, search = min(r[1] for r in rounds), min(r[2] for r in rounds)
    count = len(books) * len(ALL_LANGUAGES)
    print(f"{args.books} books x {args.rules} rules, {len(ALL_LANGUAGES)} languages; CPU seconds, best of {args.rounds} rounds\n")
    print(f"{'Python-Markdown, the anchor’s ' + str(len(texts)) + ' book pages (1 language)':<58} {baseline:7.2f}")
    print(f"{'rulebook book pages (' + str(count) + ')':<58} {pages:7.2f}   {pages / baseline:5.2f}x")
    print(f"{'rulebook search documents (' + str(count) + ')':<58} {search:7.2f}   {search / baseline:5.2f}x")
    print(f"{'  together':<58} {pages + search:7.2f}   {(pages + search) / baseline:5.2f}x")
    print(f"{'(translating the ' + str(len(books) * (len(ALL_LANGUAGES) - 1)) + ' (book, language) pairs, before: not counted)':<58} {translate:7.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
