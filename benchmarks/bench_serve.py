"""``mkdocs serve`` after one edit, as ``mkdocs serve`` does it: in one process, each rebuild a
fresh ``load_config`` + ``build`` (issue 15.4).

On a copy of the generated corpus (default 5 books x 200 rules, 6 languages): a full build, then
a rebuild with nothing changed, then one changed msgstr (French, first book), then one changed
rule text (first book), then each of them changed again. Before the full build the plugins'
``on_startup`` runs, and after it their ``on_serve``, as mkdocs serve runs them. Each rebuild is checked to show the edit in the written page, and is
reported in seconds and as a ratio to the full build. What a rebuild reuses: the translation
of every (book, language) whose book, catalog bytes and glossary are unchanged
(``i18n.translate``), the outcomes of every book that did not change (``examples.run_books``).

Targets (issue 31.5): a changed msgstr visible after <= 1 s of CPU, a changed rule after <= 2 s,
the CPU of every process the rebuild uses counted: this one (all its threads), the catalog
workers and the children that run the worked examples (``getrusage`` of this process and of its
waited-for children; the workers' pool ends with each build). CPU time, because the machine it
runs on is shared: the wall-clock seconds are printed beside it, with the load average.

``--languages it fr``: the site of ``rulebook serve -l fr`` (a translator's preview).
``--repository``: the same on the repository's own rulebooks and catalogs (a copy).

Run: .venv/bin/python -m benchmarks.bench_serve [--books 5 --rules 200 | --repository] [--workdir DIR] [--strict] [--profile DIR]
"""

from __future__ import annotations

import argparse
import cProfile
import logging
import re
import shutil
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from mkdocs.commands.build import build
from mkdocs.config import load_config

from .anchors import ALL_LANGUAGES, write_rulebook
from .corpus import REPO, Corpus, generate
from .measure import cpu_seconds, load_average

MARK = "Zzzmodifica"


class _Watcher:
    """What the plugins' ``on_serve`` is handed as mkdocs serve's LiveReloadServer: the paths to watch."""

    def __init__(self) -> None:
        self.watched: list[str] = []

    def watch(self, path: str) -> None:
        self.watched.append(path)


def rebuild(config: Path, profile: Path | None = None, *, first: bool = False) -> tuple[float, float]:
    """(wall s, CPU s) of one load_config + build, as each rebuild of ``mkdocs serve``;
    ``profile``: under cProfile, written there (its times are then not comparable); ``first``: the
    first build, after which serve runs the plugins' ``on_serve`` (outside the time)."""
    profiler = cProfile.Profile() if profile is not None else None
    wall, cpu = time.perf_counter(), cpu_seconds()
    if profiler is not None:
        profiler.enable()
    loaded = load_config(str(config))
    if first:  # mkdocs serve starts the plugins before its first build (a plugin with this event is kept across rebuilds)
        loaded.plugins.on_startup(command="serve", dirty=False)
    build(loaded)
    if first:
        spent = time.perf_counter() - wall, cpu_seconds() - cpu
        loaded.plugins.on_serve(_Watcher(), config=loaded, builder=lambda: None)
        return spent
    if profiler is not None:
        profiler.disable()
        profiler.dump_stats(profile)
    return time.perf_counter() - wall, cpu_seconds() - cpu


def edit_msgstr(catalog: Path) -> None:
    """Put MARK at the start of the catalog's first translated msgstr after the header."""
    text = catalog.read_text(encoding="utf-8")
    match = re.compile(r'^msgstr "(?=[^"])', re.MULTILINE).search(text)
    catalog.write_text(text[: match.end()] + MARK + " " + text[match.end():], encoding="utf-8")


def edit_rule(rulebook: Path) -> None:
    """Put MARK at the start of the first rule's text (a '|' block)."""
    text = rulebook.read_text(encoding="utf-8")
    match = re.compile(r"^( +)text: \|\n( +)", re.MULTILINE).search(text)
    rulebook.write_text(text[: match.end()] + MARK + " " + text[match.end():], encoding="utf-8")


def shown(site: Path, page: str) -> bool:
    return MARK in (site / page / "index.html").read_text(encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="mkdocs serve rebuilds after one edit, as ratios to a full build")
    parser.add_argument("--books", type=int, default=5)
    parser.add_argument("--rules", type=int, default=200)
    parser.add_argument("--workdir", type=Path, help="keep the corpus here (reused when up to date)")
    parser.add_argument("--repository", action="store_true", help="the repository's own rules/ and locales/, not a generated corpus")
    parser.add_argument("--languages", nargs="+", default=list(ALL_LANGUAGES), metavar="LANG",
                        help="the site's languages, the source first; `--languages it fr` is `rulebook serve -l fr` (default: all six)")
    parser.add_argument("--strict", action="store_true", help="exit 1 when a target is missed")
    parser.add_argument("--profile", type=Path, metavar="DIR",
                        help="write a cProfile of each rebuild there (same.prof, msgstr.prof, rule.prof; the times printed are then the profiler's)")
    args = parser.parse_args(argv)
    logging.getLogger("mkdocs").setLevel(logging.ERROR)
    with tempfile.TemporaryDirectory(prefix="rulebook-serve-") as temporary:
        work = args.workdir or Path(temporary)
        if args.repository:
            corpus = Corpus(REPO, REPO / "rules", REPO / "locales", len(list((REPO / "rules").glob("*.yaml"))), 0)
        else:
            corpus = generate(work / f"corpus-{args.books}x{args.rules}", args.books, args.rules)
        edited = Path(temporary) / "edited"  # the edits go to a copy: the corpus stays reusable
        shutil.copytree(corpus.rules, edited / "rules")
        shutil.copytree(corpus.locales, edited / "locales")
        corpus = replace(corpus, root=edited, rules=edited / "rules", locales=edited / "locales")
        config = write_rulebook(corpus, Path(temporary) / "site", tuple(args.languages))
        site = Path(temporary) / "site" / "site"
        book = sorted(corpus.rules.glob("*.yaml"))[0]

        def profiled(name: str) -> Path | None:
            return None if args.profile is None else args.profile / f"{name}.prof"

        if args.profile is not None:
            args.profile.mkdir(parents=True, exist_ok=True)
        full = rebuild(config, first=True)
        same = rebuild(config, profiled("same"))
        catalog = corpus.locales / "fr" / "LC_MESSAGES" / f"{book.stem}.po"
        edit_msgstr(catalog)
        msgstr = rebuild(config, profiled("msgstr"))
        msgstr_shown = shown(site, f"fr/{book.stem}")
        edit_rule(book)
        rule = rebuild(config, profiled("rule"))
        rule_shown = shown(site, book.stem)
        # A translator or an author saves the same page again and again: the second edit of each.
        edit_msgstr(catalog)
        msgstr_again = rebuild(config, profiled("msgstr-again"))
        edit_rule(book)
        rule_again = rebuild(config, profiled("rule-again"))
        again_shown = MARK + " " + MARK in (site / book.stem / "index.html").read_text(encoding="utf-8")
        load = load_average()

    what = "the repository's rulebooks" if args.repository else f"{args.books} books x {args.rules} rules"
    print(f"{what}, languages {' '.join(args.languages)}; each rebuild is load_config + build in one process")
    print(f"load average {load}; CPU: this process and its workers and example children")
    print(f"{'build':<34} {'wall s':>7} {'CPU s':>7} {'CPU / full':>10}")
    for label, (wall, cpu) in (("full (first) build", full), ("rebuild, nothing changed", same),
                               ("rebuild, one msgstr changed (fr)", msgstr), ("rebuild, one rule text changed", rule),
                               ("the same msgstr changed again", msgstr_again), ("the same rule changed again", rule_again)):
        print(f"{label:<34} {wall:>7.2f} {cpu:>7.2f} {cpu / full[1]:>9.2f}x")
    checks = [("the changed msgstr is on the page", msgstr_shown), ("the changed rule is on the page", rule_shown),
              ("the second edits are on the page", again_shown),
              ("msgstr visible <= 1 s of CPU", msgstr[1] <= 1.0), ("rule visible <= 2 s of CPU", rule[1] <= 2.0)]
    for label, ok in checks:
        print(f"{label:<40} {'PASS' if ok else 'FAIL'}")
    return 1 if args.strict and not all(ok for _, ok in checks) else 0


if __name__ == "__main__":
    sys.exit(main())
