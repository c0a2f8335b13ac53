"""Where a site build spends its time: cProfile of one build of the generated corpus.

Builds the corpus (default 5 books x 200 rules) in 6 languages with the repository's site
configuration, under cProfile, in this process, and prints the share of the named stages that
issue 15 talks about (cumulative, so nested stages overlap: "of it" lines are part of the line
above), then the top functions by cumulative time. cProfile roughly doubles the
build's time; the shares, not the seconds, are what to read.

Run: .venv/bin/python -m benchmarks.profile_build [--books 5 --rules 200 --languages 6]
     [--top 40] [--out build.prof] [--kept]   (open build.prof with snakeviz or pstats for more)
"""

from __future__ import annotations

import argparse
import cProfile
import logging
import pstats
import shutil
import sys
import tempfile
import time
from pathlib import Path

from .anchors import ALL_LANGUAGES, write_rulebook
from .corpus import generate

#: The stages to account for: label -> (file path ending, function name).
STAGES: dict[str, tuple[str, str]] = {
    "Material search plugin, every page (on_page_context)": ("material/plugins/search/plugin.py", "on_page_context"),
    "  of it: html.parser feeding (HTMLParser.feed)": ("html/parser.py", "feed"),
    "rulebook on_files (load, examples, translate, render)": ("rulebook/mkdocs_plugin.py", "on_files"),
    "  load the books (load_library)": ("rulebook/loader.py", "load_library"),
    "  run the worked examples (run_books)": ("rulebook/examples.py", "run_books"),
    "  Site.translated (cached per book and language)": ("rulebook/render/pages.py", "translated"),
    "  translate_book": ("rulebook/i18n/translate.py", "translate_book"),
    "    of it: checks (message_problems)": ("rulebook/i18n/checks.py", "message_problems"),
    "      of it: the glossary check (check_glossary)": ("rulebook/i18n/checks.py", "check_glossary"),
    "    of it: reading catalogs (read_catalog)": ("rulebook/i18n/catalogs.py", "read_catalog"),
    "  render every page (Site.pages; translates on first use)": ("rulebook/render/pages.py", "pages"),
    "    of it: the coverage figures (Site.coverage)": ("rulebook/render/pages.py", "coverage"),
    "    of it: book pages (Site.book_page)": ("rulebook/render/pages.py", "book_page"),
    "    of it: text fields to HTML (text_to_html)": ("rulebook/render/text.py", "text_to_html"),
    "MkDocs _build_page (theme; includes the search plugin's part)": ("mkdocs/commands/build.py", "_build_page"),
    "rulebook on_post_build (per-language search indexes)": ("rulebook/mkdocs_plugin.py", "on_post_build"),
    "Material search on_post_build (writes the index)": ("material/plugins/search/plugin.py", "on_post_build"),
}


def stage_rows(stats: pstats.Stats) -> list[tuple[str, int, float]]:
    """(label, calls, cumulative seconds) of each stage; a stage not in the profile is left out."""
    rows = []
    for label, (path_end, function) in STAGES.items():
        found = [(value[1], value[3]) for (path, _, name), value in stats.stats.items() if path.endswith(path_end) and name == function]
        if found:
            # One entry per function; ncalls counts every call, cumulative counts outermost calls once.
            rows.append((label, sum(calls for calls, _ in found), sum(cumulative for _, cumulative in found)))
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="cProfile of one site build of the generated corpus")
    parser.add_argument("--books", type=int, default=5)
    parser.add_argument("--rules", type=int, default=200)
    parser.add_argument("--languages", type=int, default=len(ALL_LANGUAGES), choices=range(1, len(ALL_LANGUAGES) + 1))
    parser.add_argument("--top", type=int, default=40, help="functions to list by cumulative time")
    parser.add_argument("--workdir", type=Path, help="keep the corpus here (reused when up to date)")
    parser.add_argument("--out", type=Path, help="also save the profile (pstats format) here")
    parser.add_argument("--kept", action="store_true",
                        help="profile a build that finds the check results the last one kept (default: a first build)")
    args = parser.parse_args(argv)

    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    logging.getLogger("mkdocs").setLevel(logging.ERROR)
    with tempfile.TemporaryDirectory(prefix="rulebook-profile-") as temporary:
        work = args.workdir or Path(temporary)
        corpus = generate(work / f"corpus-{args.books}x{args.rules}", args.books, args.rules)
        config = write_rulebook(corpus, work / f"profile-{args.languages}", ALL_LANGUAGES[: args.languages])
        if not args.kept:
            shutil.rmtree(config.parent / ".cache", ignore_errors=True)  # a first build: nothing kept
        profile = cProfile.Profile()
        start = time.perf_counter()
        loaded = load_config(str(config))
        # Every catalog read and checked in this process, so that the profile sees it (the
        # workers' share of a build would be missing otherwise).
        loaded.plugins["rulebook"].config["workers"] = 1
        profile.enable()
        build(loaded)
        profile.disable()
        elapsed = time.perf_counter() - start

    stats = pstats.Stats(profile)
    if args.out:
        stats.dump_stats(str(args.out))
    total = stats.total_tt
    print(f"{args.books} books x {args.rules} rules, {args.languages} languages: {elapsed:.1f} s under cProfile ({total:.1f} s profiled)\n")
    print(f"{'stage':<64} {'calls':>7} {'cum s':>8} {'share':>6}")
    for label, calls, cumulative in stage_rows(stats):
        print(f"{label:<64} {calls:>7} {cumulative:>8.2f} {100 * cumulative / total:>5.1f}%")
    print()
    stats.sort_stats("cumulative").print_stats(args.top)
    return 0


if __name__ == "__main__":
    sys.exit(main())
