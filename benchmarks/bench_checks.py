"""Reading the catalogs and checking their messages, as ratios measured in one process (never a timed test).

A first site build reads every (book, language) catalog and checks every message it shows
(issue 15.2: a six-language build of the 5 x 200 corpus within 1.5x a plain mkdocs-material
build). Both are measured on the generated corpus (benchmarks/corpus.py: 25 catalogs,
27,725 messages at 5 x 200) against Babel's bare ``read_po`` of the same bytes, the parser
that every PO reading pays anyway:

- ``read_catalog`` of every catalog (UTF-8 decoding, the header and quoting checks, the msgstr
  lines, the previous msgids, on top of Babel's parser) <= 1.5 x ``read_po`` (1.38 measured;
  1.77 before the quoting check's expression was unrolled); beside it (no target) the read a
  build's translation makes, without the references and extracted comments it never looks at;
- ``check_translation`` of every shown message (every check of ``CHECKS``, each source read
  once for its five languages as in a build) <= 3 x ``read_po`` of their catalogs (2.47
  measured; 3.78 when every translation's markup was parsed into a tree and each check built
  Counters);
- each check alone, as a share of ``read_po`` (no target): where the time goes.

Every measure is the CPU time of one pass, taken in turns with its baseline, the best of
``--runs``. Before each pass of the checks every lru_cache of the package is emptied and the
glossary is a fresh copy, so no source's side is left over from an earlier pass.

Run: .venv/bin/python -m benchmarks.bench_checks [--books 5 --rules 200] [--workdir DIR] [--strict]
"""

from __future__ import annotations

import argparse
import dataclasses
import io
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

from babel.messages.pofile import read_po

from rulebook.cache import BuildCache, using
from rulebook.i18n.checks import CHECKS, check_translation, checked_messages, translation_pairs
from rulebook.i18n.glossary import Glossary, load_glossary
from rulebook.i18n.pofile import read_catalog

from .corpus import generate

READ_TARGET = 1.5
CHECKS_TARGET = 3.0


def cpu(work: Callable[[], object]) -> float:
    start = time.process_time()
    work()
    return time.process_time() - start




def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--books", type=int, default=5)
    parser.add_argument("--rules", type=int, default=200)
    parser.add_argument("--runs", type=int, default=3, help="passes of each measure (the best is reported)")
    parser.add_argument("--workdir", type=Path, help="keep the corpus here (reused when up to date); default: a temporary folder")
    parser.add_argument("--strict", action="store_true", help="exit 1 when a target is missed")
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory(prefix="rulebook-bench-") as temporary:
        corpus = generate((args.workdir or Path(temporary)) / "corpus", args.books, args.rules)
        catalogs = sorted(corpus.locales.glob("*/LC_MESSAGES/*.po"))
        data = {path: path.read_bytes() for path in catalogs}
        glossary = load_glossary(corpus.locales, source="it")

        def babel() -> None:
            for path in catalogs:
                read_po(io.BytesIO(path.read_bytes()))

        def ours() -> None:
            for path in catalogs:
                read_catalog(path)

        def builds() -> None:
            for path in catalogs:
                read_catalog(path, extracted=False)

        read: dict[str, list[float]] = {"babel": [], "ours": [], "build": []}
        for _ in range(args.runs):
            read["babel"].append(cpu(babel))
            read["ours"].append(cpu(ours))
            read["build"].append(cpu(builds))
        messages = []
        for path in catalogs:
            catalog, problems = read_catalog(path)
            assert catalog is not None and not problems, problems[:3]
            language = path.parent.parent.name
            messages += [(source, translation, language, path.stem) for message in checked_messages(catalog)
                         for source, translation in translation_pairs(message)]

        def checking(checks: dict) -> Callable[[], None]:
            def run() -> None:
                fresh = dataclasses.replace(glossary)  # nothing remembered of an earlier pass
                books: dict[str, Glossary] = {}
                # A new build's cache: each source is read once for its five languages, as in a build.
                with using(BuildCache()):
                    for source, translation, language, book in messages:
                        book_glossary = books.get(book) or books.setdefault(book, fresh.for_book(book))
                        check_translation(source, translation, language, book_glossary, checks)
            return run

        times = {"all": [], **{name: [] for name in CHECKS}}
        for _ in range(args.runs):
            times["all"].append(cpu(checking(CHECKS)))
            for name, check in CHECKS.items():
                times[name].append(cpu(checking({name: check})))

    babel_s, ours_s, checks_s = min(read["babel"]), min(read["ours"]), min(times["all"])
    print(f"corpus {args.books} books x {args.rules} rules: {len(catalogs)} catalogs, {sum(map(len, data.values())) / 1e6:.1f} MB,"
          f" {len(messages):,} checked messages; CPU seconds, best of {args.runs}; load average {os.getloadavg()[0]:.2f}")
    print(f"Babel read_po {babel_s:.2f} s, read_catalog {ours_s:.2f} s (a build's, without references and extracted comments:"
          f" {min(read['build']):.2f} s), check_translation {checks_s:.2f} s")
    missed = 0
    for what, ratio, target in (("read_catalog / read_po", ours_s / babel_s, READ_TARGET),
                                ("check_translation / read_po", checks_s / babel_s, CHECKS_TARGET)):
        missed += ratio > target
        print(f"{'PASS' if ratio <= target else 'FAIL'} {what}: {ratio:.2f}x (target <= {target:g}x)")
    shares = sorted(((min(times[name]) / babel_s, name) for name in CHECKS), reverse=True)
    print("each check alone / read_po: " + ", ".join(f"{name} {share:.2f}x" for share, name in shares))
    print(f"\n{missed} targets missed")
    return 1 if missed and args.strict else 0


if __name__ == "__main__":
    sys.exit(main())
