"""What a build keeps for the next one, so that an unchanged catalog is not read and checked again.

Reading and checking every catalog is most of a cold site build's translation work (25 catalogs
and 28,000 messages on the 5 x 200 benchmark corpus). Two things are kept, per (book, language),
in the plugin's ``cache_dir``:

- :class:`StoredTranslation` (``translations/BOOK.LANG.json``; for a book filed per section one
  file per catalog, ``BOOK.SECTION.LANG.json``): what the translation took from the catalog (the msgstr shown for each msgctxt, the fallbacks, the outdated ones, the check
  failures), under a version made of everything it was made from: the catalog's bytes, the
  book's source texts, the glossary (:attr:`Glossary.fingerprint`), the language, the catalog's
  shown path (in the problems) and the code. The next build with the same inputs neither parses
  the catalog nor checks it.
- :class:`StoredChecks` (``checks/BOOK.LANG.json``): the details each (source, translation) gave
  the checks, under a version made of the language, the glossary and the code: after an edit of
  a catalog or a book only the changed messages are checked again.

Both are stored kinds of the build's cache (:mod:`rulebook.cache`), which declares their inputs
and makes their versions: "the code" is a digest of the package's Python files, Python's version
and Babel's (:func:`rulebook.cache.code_version`): any change of the code checks everything again.
A file of another version, or one that cannot be read or has the wrong shape, is as if it were
not there, and is written anew. Only what a build used is written, so a file never grows past
its catalog.

The files are a build artefact of the project (like mkdocs-material's ``.cache/plugin/``):
trusted as the project's own, never committed, never shared between strangers.
"""

from __future__ import annotations

import hashlib
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeGuard

from ..cache import BuildCache, kind, read_json
from ..errors import Problem
from ..keeping import write_json
from .checks import Check, check_translation
from .glossary import Glossary

TRANSLATIONS = kind("translations", ("language", "glossary", "shown_path", "catalog", "texts"),
                    "what a (book, language) took from its catalog after the checks: neither parsed nor checked again", stored=True)
VERDICTS = kind("checks", ("language", "glossary"), "each (source, translation)'s check verdicts: an edited catalog has only its "
              "changed messages checked", stored=True, entry_inputs=("checks", "source", "translation"))

def _strings(value: object) -> TypeGuard[list[str]]:
    return isinstance(value, list) and all(isinstance(item, str) for item in value)


@dataclass(frozen=True)
class TakenFromCatalog:
    """What a translation takes from its catalog, beside the book's own texts."""

    shown: dict[str, str]  # msgctxt -> the msgstr shown
    fallback: tuple[str, ...]  # msgctxts shown in the source language
    outdated: tuple[str, ...]  # of them, those translated from an older source
    failures: tuple[Problem, ...]  # the checks' problems, in catalog order
    whole: tuple[Problem, ...] = ()  # what is wrong with the catalog as a whole (its header, a msgid live and #~)


class StoredTranslation:
    """What one (book, language) took from its catalog, kept for a build with the same inputs."""

    def __init__(self, cache: BuildCache, path: Path, version: str, contexts: Collection[str]):
        self.cache, self.path, self.version, self._contexts = cache, Path(path), version, contexts

    @classmethod
    def of(cls, cache: BuildCache, name: str, language: str, glossary: Glossary, shown_path: str, catalog: bytes,
           sources: dict[str, str]) -> StoredTranslation | None:
        """The kept file of one (book, language) in ``cache``'s folder; None: the cache has none."""
        path = cache.stored_path(TRANSLATIONS, name)
        if path is None:
            return None
        texts = "\x1e".join(f"{context}\x1f{text}" for context, text in sorted(sources.items()))
        version = cache.version(TRANSLATIONS, language=language, glossary=glossary.fingerprint, shown_path=shown_path,
                                catalog=hashlib.blake2b(catalog, digest_size=16).hexdigest(), texts=texts)
        return cls(cache, path, version, sources.keys())

    def load(self) -> TakenFromCatalog | None:
        data = read_json(self.path, self.version)
        if data is None:
            return None
        shown, failures, whole = data.get("shown"), data.get("failures"), data.get("whole")
        fallback, outdated = data.get("fallback"), data.get("outdated")
        if not (isinstance(shown, dict) and all(isinstance(k, str) and isinstance(v, str) and k in self._contexts for k, v in shown.items())
                and _strings(fallback) and _strings(outdated) and _problems(failures) and _problems(whole)):
            return None
        return TakenFromCatalog(shown, tuple(fallback), tuple(outdated), tuple(Problem(*f) for f in failures),
                                tuple(Problem(*f) for f in whole))

    def save(self, taken: TakenFromCatalog) -> None:
        write_json(self.cache, self.path, {"version": self.version, "shown": taken.shown, "fallback": list(taken.fallback),
                                "outdated": list(taken.outdated),
                                "failures": [[p.path, p.line, p.column, p.message] for p in taken.failures],
                                "whole": [[p.path, p.line, p.column, p.message] for p in taken.whole]})


def _problems(value: object) -> TypeGuard[list[list[Any]]]:  # each [path, line, column, message]
    return isinstance(value, list) and all(
        isinstance(f, list) and len(f) == 4 and isinstance(f[0], str) and isinstance(f[1], int) and isinstance(f[2], int)
        and isinstance(f[3], str) for f in value)


def _valid(details: object) -> TypeGuard[list[list[str]]]:
    return isinstance(details, list) and all(
        isinstance(d, list) and len(d) == 2 and all(isinstance(part, str) for part in d) for d in details)


class StoredChecks:
    """The check results of one (book, language), read from ``path`` and written back by :meth:`save`."""

    def __init__(self, cache: BuildCache, path: Path, language: str, glossary: Glossary):
        self.cache, self.path = cache, Path(path)
        self.language, self.glossary = language, glossary
        self.version = cache.version(VERDICTS, language=language, glossary=glossary.fingerprint)
        self._stored = self._read()
        self._used: dict[str, list[list[str]]] = {}

    @classmethod
    def of(cls, cache: BuildCache, name: str, language: str, glossary: Glossary) -> StoredChecks | None:
        """The kept verdicts of one (book, language) in ``cache``'s folder; None: the cache has none."""
        path = cache.stored_path(VERDICTS, name)
        return None if path is None else cls(cache, path, language, glossary)

    def _read(self) -> dict[str, list[list[str]]]:
        data = read_json(self.path, self.version)
        details = data.get("details") if data is not None else None
        return details if isinstance(details, dict) else {}

    def details(self, source: str, translation: str, language: str, glossary: Glossary, checks: dict[str, Check]) -> list[tuple[str, str]]:
        """What :func:`check_translation` says, from the file when it said it before."""
        if language != self.language or glossary is not self.glossary:
            return check_translation(source, translation, language, glossary, checks)
        key = self.cache.entry_key(VERDICTS, checks=",".join(checks), source=source, translation=translation)
        kept = self._stored.get(key)
        found = kept if _valid(kept) else [[name, detail] for name, detail in check_translation(source, translation, language, glossary, checks)]
        self._used[key] = found
        return [(name, detail) for name, detail in found]

    def save(self) -> None:
        """Write the results this build used, unless the file already holds exactly them."""
        if self._used != self._stored:
            write_json(self.cache, self.path, {"version": self.version, "details": self._used})
