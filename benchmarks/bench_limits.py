"""Inputs at the documented limits (docs/limits.md, src/rulebook/limits.py), each timed alone:
every reader and check runs in time linear in its input (issue 31.1), and a file at the limits
takes about a second or less, a catalog well under one (issue 30.4).

- a rulebook YAML (rules with texts, cross-references and worked examples) at a sixteenth, a
  quarter and all of the size limit, its texts long enough that the file at the size limit
  also holds the most values the value limit lets it (both limits at once: the slowest
  rulebook they let through), loaded (strict reader, model, every check of the loader): the
  seconds per MiB must stay flat;
- the densest YAML within the value limit: MAX_VALUES one-letter scalars in one list (refused as
  a rulebook, after every value is read);
- the 3,000-rule book's YAML (benchmarks/corpus.py, issue 31.1): its size and values against the
  limits, and its load;
- a PO catalog (long msgids and msgstrs at 3 x + 200, markup, symbols) at a sixteenth, a quarter
  and all of the catalog limit, read and checked against the real glossary (``check_po_file``);
- a glossary of just under its own limits (the real one and 1,550 terms in four languages, whose
  Italian forms are every word of three letters or more of the real catalogs' msgids, most common
  first, so that every source uses dozens of them): its load, then ``rulebook i18n check`` of
  every real catalog with it, per catalog, in one process (the glossary's patterns compiled
  once, as in a check or a build).

With ``--book DIR``, also every catalog file of the 3,000-rule book in its six languages (filed
per section, ``catalogs: sections``), each read and checked as ``rulebook i18n check`` does:
the time of each file, the largest and the median.

Each measure is CPU time, the best of ``--runs`` (one run for the inputs at the limit), each run
on new text of the same size and kind, printed with the machine's load average. Run: .venv/bin/python -m benchmarks.bench_limits
"""

from __future__ import annotations

import argparse
import collections
import random
import re
import shutil
import statistics
import tempfile
import time
from pathlib import Path
from typing import Callable

import yaml
from babel.messages.pofile import read_po

from rulebook.errors import LoadError
from rulebook.i18n.checks import check_po_file
from rulebook.i18n.glossary import load_glossary
from rulebook.limits import MAX_CATALOG_BYTES, MAX_FILE_BYTES, MAX_GLOSSARY_VALUES, MAX_VALUES
from rulebook.loader import load_book_bytes

from .measure import load_average

REPO = Path(__file__).resolve().parent.parent
LETTERS = "abcdefghilmnoprstuvz"


def _word(rng: random.Random) -> str:
    return "".join(rng.choice(LETTERS) for _ in range(rng.randint(4, 10)))


#: Values a rule of rulebook_at_the_limits adds (14 with its keys, and its share of its section's 7).
_RULE_VALUES = 14 + 7 / 20
#: Words a text of rulebook_at_the_limits holds: as many as make the file at the size limit
#: hold the most values too (about 210 bytes of keys, ids and doctest a rule besides its two texts
#: of about 7.5 bytes a word).
TEXT_WORDS = max(12, int((MAX_FILE_BYTES / (MAX_VALUES / _RULE_VALUES) - 210) / 2 / 7.5))


def rulebook_at_the_limits(rng: random.Random, limit: int = MAX_FILE_BYTES) -> bytes:
    """Rules of a text and one example each (14 values a rule with their keys, 7 a section), just within
    ``limit`` bytes and the value limit."""
    head = "book:\n  id: big\n  title: Big\n  summary: Grande.\n  language: it\n  engine: bingomagic\nsections:\n"
    parts, values, size, n = [head], 17, len(head), 0
    while True:
        section = f"  - id: s{n}\n    title: Sezione {n}\n    rules:\n"
        rules = []
        for k in range(20):
            words = " ".join(_word(rng) for _ in range(TEXT_WORDS))
            rules.append(f"      - id: r{n}-{k}\n        text: {words} [[r{n}-{(k + 1) % 20}]] {{W}} **forte**.\n"
                         f"        examples:\n          - id: e{n}-{k}\n            text: {words}.\n"
                         f"            doctest: |\n              >>> 1 + 1\n              2\n")
        block = section + "".join(rules)
        if values + 7 + 20 * 14 > MAX_VALUES or size + len(block.encode()) > limit:
            return "".join(parts).encode()
        parts.append(block)
        values, size, n = values + 7 + 20 * 14, size + len(block.encode()), n + 1


def catalog_at_the_limits(rng: random.Random, limit: int = MAX_CATALOG_BYTES) -> bytes:
    head = ('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Language: en\\n"\n'
            '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n\n')
    parts, size, n = [head], len(head), 0
    while True:
        source = " ".join(_word(rng) for _ in range(150)) + " {W} **forte** [[r1]]"
        translation = " ".join(_word(rng) for _ in range(150)) + " {W} **strong** [[r1]]"
        entry = f'#: rules/demo.yaml:{n}\nmsgctxt "demo/r{n}:text"\nmsgid "{source}"\nmsgstr "{translation}"\n\n'
        if size + len(entry.encode()) > limit:
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
    assert MAX_GLOSSARY_VALUES == 20_000, "size the generated glossary to the new limit"
    common = [w for w, _ in counts.most_common(room)]
    words = common + [_word(rng) for _ in range(room - len(common))]  # the rest: words no text uses
    terms = [f"  - it: {w}\n    en: {_word(rng)}\n    ru: {_word(rng)}\n    fr: {_word(rng)}" for w in words]
    return ("\n".join([real, *terms]) + "\n").encode()


def best(runs: int, work: Callable[[], object]) -> float:
    times = []
    for _ in range(runs):
        start = time.process_time()
        work()
        times.append(time.process_time() - start)
    return min(times)


def _refused(data: bytes) -> None:
    try:
        load_book_bytes(data, "rules/dense.yaml")
    except LoadError:
        return
    raise AssertionError("a list of bare values is not a rulebook")


def _sizes(name: str, make: Callable[[int], bytes], work: Callable[[bytes], object], runs: int, limit: int) -> None:
    """``work`` on inputs of a sixteenth, a quarter and all of ``limit``: seconds, and per MiB."""
    rows = []
    for part in (16, 4, 1):
        # New text for every run: the checks remember what they found in a text (a build asks
        # again for the same ones), so a second run on the same bytes would measure the memos.
        times = []
        for _ in range(runs if part > 1 else 1):
            data = make(limit // part)
            times.append(best(1, lambda: work(data)))
        seconds = min(times)
        rows.append((len(data), seconds))
        print(f"{name}, {len(data) / 2**20:5.2f} MiB: {seconds:6.2f} s, {seconds / (len(data) / 2**20):.3f} s per MiB (load {load_average()})", flush=True)
    (small, small_s), (large, large_s) = rows[0], rows[-1]
    print(f"  {large / small:.1f}x the bytes: {large_s / small_s:.1f}x the time (linear: {large / small:.1f}x); "
          f"at this rate a second covers {large / 2**20 / large_s:.1f} MiB, half a second {large / 2**20 / large_s / 2:.1f} MiB")


def _book_catalogs(folder: Path) -> None:
    """``rulebook i18n check``'s work on each catalog file of the 3,000-rule book (issue 31.1),
    filed per section."""
    from .corpus import generate  # only with --book: writing the book takes minutes

    catalog_times(generate(folder, books=1, rules=3000).locales, "3,000-rule book")


def catalog_times(locales: Path, what: str) -> None:
    """Read and check each catalog file under ``locales`` (a book filed per section: each
    section's), one at a time in one process as ``rulebook i18n check`` does them (the first
    pays for compiling the glossary's patterns, a few milliseconds); print per language and in
    all the files' median and slowest time."""
    glossary = load_glossary(locales, source="it")
    every: list[tuple[float, int, str]] = []
    for language_dir in sorted(p for p in locales.iterdir() if (p / "LC_MESSAGES").is_dir()):
        language = language_dir.name
        times: list[tuple[float, int, str]] = []
        for path in sorted((language_dir / "LC_MESSAGES").rglob("*.po")):
            seconds = best(1, lambda: check_po_file(path, language, glossary))  # noqa: B023 - called at once
            times.append((seconds, path.stat().st_size, str(path.relative_to(locales))))
        every += times
        slowest = max(times)
        print(f"{what}, {language}: {len(times)} catalog files, {sum(t[1] for t in times) / 2**20:.2f} MiB in all, "
              f"{sum(t[0] for t in times):.2f} s; each file: median {statistics.median(t[0] for t in times):.3f} s, "
              f"the slowest {slowest[0]:.3f} s ({slowest[2]}, {slowest[1] / 1024:.0f} kB) (load {load_average()})", flush=True)
    slowest = max(every)
    print(f"{what}, every language: {len(every)} catalog files, each read and checked: median {statistics.median(t[0] for t in every):.3f} s, "
          f"the slowest {slowest[0]:.3f} s, the largest file {max(t[1] for t in every) / 1024:.0f} kB")


def _book_yaml() -> None:
    """The 3,000-rule book's YAML against the limits, and its load (issue 31.1: it must fit)."""
    from .corpus import single_book_yaml

    data = single_book_yaml(3000)
    values = _values(yaml.compose(data.decode("utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader)))
    assert len(data) <= MAX_FILE_BYTES, "the 3,000-rule book must fit the size limit"
    assert values <= MAX_VALUES, "the 3,000-rule book must fit the value limit"
    seconds = best(1, lambda: load_book_bytes(data, "rules/book.yaml"))
    print(f"3,000-rule book's YAML, {len(data) / 2**20:.2f} MiB ({len(data) / MAX_FILE_BYTES:.0%} of the limit), {values:,} values "
          f"({values / MAX_VALUES:.0%} of the limit): loaded {seconds:.2f} s (load {load_average()})", flush=True)


def _values(node: yaml.Node) -> int:
    """Values as the loader counts them: every scalar, list and mapping (keys too)."""
    if isinstance(node, yaml.SequenceNode):
        return 1 + sum(_values(child) for child in node.value)
    if isinstance(node, yaml.MappingNode):
        return 1 + sum(_values(key) + _values(value) for key, value in node.value)
    return 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--book", type=Path, metavar="DIR",
                        help="also check each catalog of the 3,000-rule book, written to DIR (kept there; a minute to write)")
    args = parser.parse_args()
    rng = random.Random(30)
    work = Path(tempfile.mkdtemp(prefix="rulebook-limits-"))
    print(f"load average {load_average()}; CPU seconds, best of {args.runs}")
    try:
        if args.book is not None:
            _book_catalogs(args.book)
        _book_yaml()
        _sizes("rulebook", lambda limit: rulebook_at_the_limits(rng, limit), lambda data: load_book_bytes(data, "rules/big.yaml"), args.runs,
               MAX_FILE_BYTES)
        dense = ("[" + "a, " * (MAX_VALUES - 1) + "a]\n").encode()
        print(f"YAML of {MAX_VALUES:,} one-letter values ({len(dense) / 2**20:.2f} MiB): read and refused {best(args.runs, lambda: _refused(dense)):.2f} s")

        locales = work / "locales"
        shutil.copytree(REPO / "locales", locales)
        glossary = load_glossary(locales, source="it")
        catalog = locales / "en" / "LC_MESSAGES" / "big.po"

        def check(data: bytes) -> None:
            catalog.write_bytes(data)
            check_po_file(catalog, "en", glossary)

        _sizes("catalog, read and checked", lambda limit: catalog_at_the_limits(rng, limit), check, args.runs, MAX_CATALOG_BYTES)
        catalog.unlink()

        (locales / "glossary.yaml").write_bytes(glossary_at_the_limits(rng))
        size = (locales / "glossary.yaml").stat().st_size
        start = time.process_time()
        big = load_glossary(locales, source="it")
        loaded = time.process_time() - start
        assert not big.problems, big.problems[:3]  # within the limits: every term read
        catalogs = sorted(locales.glob("*/LC_MESSAGES/*.po"))
        start = time.process_time()
        slowest, which = 0.0, ""
        for path in catalogs:
            began = time.process_time()
            check_po_file(path, path.parent.parent.name, big)
            if (spent := time.process_time() - began) > slowest:
                slowest, which = spent, str(path.relative_to(locales))
        total = time.process_time() - start
        print(f"glossary, {size:,} bytes, {len(big.terms):,} terms: load {loaded:.2f} s; check of {len(catalogs)} catalogs "
              f"{total:.2f} s ({total / len(catalogs):.3f} s a catalog, the slowest {slowest:.2f} s: {which}) (load {load_average()})")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
