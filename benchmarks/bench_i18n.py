"""Translation speed, as ratios measured in one process (never as a timed test).

The site calls translate_book once per book and language, right after loading the book, so
translating must cost no more than a small multiple of loading: reading the catalog, the
glossary and card names, running every check on every message and rebuilding the model.

- translate_book on a fully translated catalog <= 5 x load_book of the same rulebook (about 3
  when measured; 17 if the card names were parsed again on every call instead of once per
  change of cards.yaml — the cache in glossary.py is what this target guards). Its last result,
  given again while nothing changed, is forgotten before each call: the catalog is read,
  checked and applied every time. The translation is a marked copy of each source
  (:func:`marked_copy`), since a plain copy is refused by the ``same`` check.
- `rulebook i18n update` of an up-to-date catalog (extract + merge, nothing written)
  <= 15 x load_book (about 11 when measured): it loads the book again through Babel's
  extractor, reads template and catalog with Babel's pure-Python PO parser, and merges.

Run: .venv/bin/python benchmarks/bench_i18n.py   (exits 1 if a target is missed)
"""

from __future__ import annotations

import re
import sys
import tempfile
import timeit
from pathlib import Path

from rulebook.cache import BuildCache
from rulebook.i18n import catalog_path
from rulebook.i18n.catalogs import read_catalog, serialize, update_catalog, write_template
from rulebook.i18n.translate import translate_book
from rulebook.loader import load_book
from rulebook.model import XREF_RE
from rulebook.symbols import TOKEN_RE

REPO = Path(__file__).resolve().parent.parent
RULEBOOK = REPO / "rules" / "bingomagic.yaml"
LANGUAGE = "de"  # no glossary forms: every message passes, so every field is replaced


# What a translation keeps as it is: symbols and placeholders, cross-references, HTML tags and
# link targets; the rest are words.
_KEPT_RE = re.compile(rf"{TOKEN_RE.pattern}|{XREF_RE.pattern}|<[^<>]*>|\]\([^()]*\)")
_MARKED = str.maketrans("aeiouAEIOU", "äëïöüÄËÏÖÜ")


def marked_copy(source: str) -> str:
    """A stand-in translation: the source with its vowels marked (a -> ä) outside what a
    translation keeps, so it differs from the source in every word with a vowel (the ``same``
    check rejects a plain or tagged copy) and passes every other check."""
    pieces, start = [], 0
    for kept in _KEPT_RE.finditer(source):
        pieces += [source[start : kept.start()].translate(_MARKED), kept.group()]
        start = kept.end()
    return "".join(pieces) + source[start:].translate(_MARKED)


def best(statement, number: int = 10) -> float:
    return min(timeit.repeat(statement, number=number, repeat=5)) / number


def main() -> int:
    book = load_book(RULEBOOK)
    with tempfile.TemporaryDirectory() as folder:
        locales = Path(folder) / "locales"
        template, _ = write_template(RULEBOOK, book.id, locales)
        path = catalog_path(locales, LANGUAGE, book.id)
        update_catalog(template, path, LANGUAGE, book.id)
        catalog, _ = read_catalog(path)
        for message in catalog:
            if message.id:
                message.string = marked_copy(message.id)
        path.write_bytes(serialize(catalog))
        translated = translate_book(book, LANGUAGE, locales)
        # Every message shown translated: the time measured is that of a complete catalog.
        assert not translated.fallback and not translated.problems, translated.problems[:3]

        load = best(lambda: load_book(RULEBOOK))
        # translate_book gives its last result again while book, catalog and glossary are the
        # same (mkdocs serve, one cache): with a new cache each call, the catalog is read, checked and applied.
        translate = best(lambda: translate_book(book, LANGUAGE, locales, BuildCache()))
        session = BuildCache()
        again = best(lambda: translate_book(book, LANGUAGE, locales, session))
        update = best(lambda: update_catalog(write_template(RULEBOOK, book.id, locales)[0], path, LANGUAGE, book.id), number=5)

    messages = sum(1 for m in catalog if m.id)
    results = [
        ("translate_book / load_book", translate / load, 5.0),
        ("i18n update (nothing to write) / load_book", update / load, 15.0),
    ]
    print(f"bingomagic: {messages} messages; load_book {load * 1000:.1f} ms; translate_book unchanged again {again / load:.2f} x load_book")
    missed = 0
    for name, ratio, target in results:
        ok = ratio <= target
        missed += not ok
        print(f"{'ok  ' if ok else 'MISS'} {name}: {ratio:.2f} (target <= {target})")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
