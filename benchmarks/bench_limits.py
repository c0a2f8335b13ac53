"""Inputs at the documented limits (docs/limits.md, src/rulebook/limits.py), each timed alone:
the promise is that every input within them is processed in well under a second per file.

- a rulebook YAML of just under 1 MiB and 20,000 values (rules with texts, cross-references and
  worked examples), loaded (strict reader, model, every check of the loader);
- a PO catalog of just under 1 MiB (entries of long msgids and msgstrs at 3 x + 200, markup,
  symbols), read and checked against the real glossary (``check_po_file``);
- a glossary of just under 20,000 values (the real one and 1,550 terms in four languages, whose Italian forms are every word
  of three letters or more of the real catalogs' msgids, most common first, so
  that every source uses dozens of them): its
  load, then ``rulebook i18n check`` of every real catalog with it, per catalog, in one process
  (the glossary's patterns compiled once, as in a check or a build).

Each measure is CPU time, the best of ``--runs``. Run: .venv/bin/python -m benchmarks.bench_limits
"""

from __future__ import annotations

import argparse
import collections
import random
import re
import shutil
import tempfile
import time
from pathlib import Path

from babel.messages.pofile import read_po

from rulebook.i18n.checks import check_po_file
from rulebook.i18n.glossary import load_glossary
from rulebook.limits import MAX_FILE_BYTES, MAX_VALUES
from rulebook.loader import load_book_bytes

REPO = Path(__file__).resolve().parent.parent
LETTERS = "abcdefghilmnoprstuvz"


def _word(rng: random.Random) -> str:
    return "".join(rng.choice(LETTERS) for _ in range(rng.randint(4, 10)))


def rulebook_at_the_limits(rng: random.Random) -> bytes:
    """Rules of a text and one example each (14 values a rule with their keys, 7 a section), just within both limits."""
    head = "book:\n  id: big\n  title: Big\n  summary: Grande.\n  language: it\n  engine: bingomagic\nsections:\n"
    parts, values, size, n = [head], 17, len(head), 0
    while True:
        section = f"  - id: s{n}\n    title: Sezione {n}\n    rules:\n"
        rules = []
        for k in range(20):
            words = " ".join(_word(rng) for _ in range(12))
            rules.append(f"      - id: r{n}-{k}\n        text: {words} [[r{n}-{(k + 1) % 20}]] {{W}} **forte**.\n"
                         f"        examples:\n          - id: e{n}-{k}\n            text: {words}.\n"
                         f"            doctest: |\n              >>> 1 + 1\n              2\n")
        block = section + "".join(rules)
        if values + 7 + 20 * 14 > MAX_VALUES or size + len(block.encode()) > MAX_FILE_BYTES:
            return "".join(parts).encode()
        parts.append(block)
        values, size, n = values + 7 + 20 * 14, size + len(block.encode()), n + 1


def catalog_at_the_limits(rng: random.Random) -> bytes:
    head = ('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Language: en\\n"\n'
            '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n\n')
    parts, size, n = [head], len(head), 0
    while True:
        source = " ".join(_word(rng) for _ in range(150)) + " {W} **forte** [[r1]]"
        translation = " ".join(_word(rng) for _ in range(150)) + " {W} **strong** [[r1]]"
        entry = f'#: rules/demo.yaml:{n}\nmsgctxt "demo/r{n}:text"\nmsgid "{source}"\nmsgstr "{translation}"\n\n'
        if size + len(entry.encode()) > MAX_FILE_BYTES:
            return "".join(parts).encode()
        parts.append(entry)
        size, n = size + len(entry.encode()), n + 1


def glossary_at_the_limits(rng: random.Random) -> bytes:
    counts: collections.Counter[str] = collections.Counter()
    for po in sorted((REPO / "locales").glob("en/LC_MESSAGES/*.po")):
        with po.open("rb") as handle:
            for message in read_po(handle):
                if isinstance(message.id, str):
                    counts.update(w.lower() for w in re.findall(r"[^\W\d_]{3,}", message.id))
    real = (REPO / "locales" / "glossary.yaml").read_text(encoding="utf-8").rstrip("\n")
    room = 1_550  # a term is 9 values (a mapping, four keys, four forms); with the real glossary's 5,800: just under 20,000
    common = [w for w, _ in counts.most_common(room)]
    words = common + [_word(rng) for _ in range(room - len(common))]  # the rest: words no text uses
    terms = [f"  - it: {w}\n    en: {_word(rng)}\n    ru: {_word(rng)}\n    fr: {_word(rng)}" for w in words]
    return ("\n".join([real, *terms]) + "\n").encode()


def best(runs: int, work) -> float:  # noqa: ANN001
    times = []
    for _ in range(runs):
        start = time.process_time()
        work()
        times.append(time.process_time() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    rng = random.Random(30)
    work = Path(tempfile.mkdtemp(prefix="rulebook-limits-"))
    try:
        book = rulebook_at_the_limits(rng)
        print(f"rulebook, {len(book):,} bytes: load {best(args.runs, lambda: load_book_bytes(book, 'rules/big.yaml')):.2f} s")

        locales = work / "locales"
        shutil.copytree(REPO / "locales", locales)
        glossary = load_glossary(locales, source="it")
        catalog = locales / "en" / "LC_MESSAGES" / "big.po"
        catalog.write_bytes(catalog_at_the_limits(rng))
        seconds = best(args.runs, lambda: check_po_file(catalog, "en", glossary))
        print(f"catalog, {catalog.stat().st_size:,} bytes: read and check {seconds:.2f} s")
        catalog.unlink()

        (locales / "glossary.yaml").write_bytes(glossary_at_the_limits(rng))
        size = (locales / "glossary.yaml").stat().st_size
        start = time.process_time()
        big = load_glossary(locales, source="it")
        loaded = time.process_time() - start
        assert not big.problems, big.problems[:3]  # within the limits: every term read
        catalogs = sorted(locales.glob("*/LC_MESSAGES/*.po"))
        start = time.process_time()
        slowest = 0.0
        for path in catalogs:
            began = time.process_time()
            check_po_file(path, path.parent.parent.name, big)
            slowest = max(slowest, time.process_time() - began)
        total = time.process_time() - start
        print(f"glossary, {size:,} bytes, {len(big.terms):,} terms: load {loaded:.2f} s; check of {len(catalogs)} catalogs "
              f"{total:.2f} s ({total / len(catalogs):.3f} s a catalog, the slowest {slowest:.2f} s, the first compiling the patterns)")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
