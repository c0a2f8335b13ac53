"""``rulebook i18n``: extract, update, stats, check — the translators' commands.

Registered into the main parser by :func:`register`; each command returns an exit code.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from ..loader import load_chosen
from ..model import Book
from . import LANGUAGES, catalog_path
from .catalogs import languages_in, update_catalog, write_template
from .checks import check_locales
from .translate import translate_book


def _books(args: argparse.Namespace) -> dict[str, Book]:
    return load_chosen(args.paths)


def extract(args: argparse.Namespace) -> int:
    for book in _books(args).values():
        template, written = write_template(Path(book.path), book.id, args.locales)
        count = sum(1 for m in template if m.id)
        print(f"{'wrote' if written else 'unchanged'} {args.locales / 'templates' / (book.id + '.pot')} ({count} messages)")
    return 0


def update(args: argparse.Namespace) -> int:
    languages = languages_in(args.locales, tuple(args.language or LANGUAGES))
    failed = stale = 0
    write = not args.check
    for book in _books(args).values():
        template, changed = write_template(Path(book.path), book.id, args.locales, write=write)
        if changed and not write:
            stale += 1
            print(f"out of date {args.locales / 'templates' / (book.id + '.pot')}")
        for language in languages:
            result, problems = update_catalog(template, catalog_path(args.locales, language, book.id), language, book.id, write=write)
            for problem in problems:
                print(problem)
            if result is None:
                failed += 1
                continue
            if not write:
                stale += result.written
                print(f"{'out of date' if result.written else 'up to date'} {result.path}")
                continue
            state = "created" if result.created else ("updated" if result.written else "unchanged")
            notes = [f"{len(v)} {k}" for k, v in (("fuzzy", result.report.fuzzy), ("obsolete", result.report.obsolete), ("restored", result.report.restored)) if v]
            print(f"{state} {result.path}" + (f" ({', '.join(notes)})" if notes else ""))
    if stale:
        print(f"{stale} files out of date: run `rulebook i18n update`")
    return 1 if failed or stale else 0


def stats(args: argparse.Namespace) -> int:
    languages = args.language or languages_in(args.locales, LANGUAGES)
    rows = []
    for book in _books(args).values():
        for language in languages:
            rows.append((book.id, language, translate_book(book, language, args.locales).stats()))
    print(f"{'book':<16} {'lang':<5} {'translated':>10} {'fuzzy':>6} {'untranslated':>12} {'total':>6} {'%':>6}")
    below = []
    for book_id, language, s in rows:
        print(f"{book_id:<16} {language:<5} {s.translated:>10} {s.fuzzy:>6} {s.untranslated:>12} {s.total:>6} {s.percent:>6.1f}")
        if args.fail_under is not None and s.percent < args.fail_under:
            below.append(f"{book_id}/{language} {s.percent:.1f}%")
    if below:
        print(f"below {args.fail_under:g}%: {', '.join(below)}")
        return 1
    return 0


def check(args: argparse.Namespace) -> int:
    problems = check_locales(args.locales, args.language or None)
    for problem in problems:
        print(problem)
    print(f"rulebook i18n check: {len(problems)} problems")
    return 1 if problems else 0


def register(commands: argparse._SubParsersAction) -> None:
    """Add ``i18n`` and its subcommands to the ``rulebook`` parser."""
    group = commands.add_parser("i18n", help="translations: extract, update, stats, check")
    sub = group.add_subparsers(dest="i18n_command", required=True)

    def add(name: str, run, help: str, paths: bool = True) -> argparse.ArgumentParser:
        parser = sub.add_parser(name, help=help)
        if paths:
            parser.add_argument("paths", nargs="*", help="rulebook files or folders (default: rules)")
        parser.add_argument("--locales", type=Path, default=Path("locales"), help="catalog folder (default: locales)")
        parser.set_defaults(run=run)
        return parser

    add("extract", extract, "write locales/templates/<book>.pot from the rulebooks")
    updating = add("update", update, "extract, then merge every catalog (fuzzy when the source changed, #~ when removed)")
    updating.add_argument(
        "-l", "--language", action="append", help="also create/update this language (repeatable); default: en fr es pt ru and any folder present"
    )
    updating.add_argument("--check", action="store_true", help="write nothing; exit 1 if a template or catalog is out of date (for CI)")
    stat = add("stats", stats, "coverage per book and language")
    stat.add_argument("-l", "--language", action="append", help="only this language (repeatable)")
    stat.add_argument("--fail-under", type=float, metavar="PCT", help="exit 1 when any book/language is below PCT%% translated")
    add("check", check, "check every catalog: PO syntax, symbols, references, numbers, markup, HTML, links, glossary", paths=False).add_argument(
        "-l", "--language", action="append", help="only this language (repeatable)"
    )
