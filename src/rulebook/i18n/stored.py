"""What a build keeps for the next one, so that an unchanged catalog is not read and checked again.

Reading and checking every catalog is most of a cold site build's translation work (25 catalogs
and 28,000 messages on the 5 x 200 benchmark corpus). Two things are kept, per (book, language),
in the plugin's ``cache_dir``:

- :class:`StoredTranslation` (``translations/BOOK.LANG.json``): what the translation took from
  the catalog (the msgstr shown for each msgctxt, the fallbacks, the outdated ones, the check
  failures), under a version made of everything it was made from: the catalog's bytes, the
  book's source texts, the glossary (:attr:`Glossary.fingerprint`), the language, the catalog's
  shown path (in the problems) and the code. The next build with the same inputs neither parses
  the catalog nor checks it.
- :class:`StoredChecks` (``checks/BOOK.LANG.json``): the details each (source, translation) gave
  the checks, under a version made of the language, the glossary and the code: after an edit of
  a catalog or a book only the changed messages are checked again.

"The code" is a digest of the package's Python files and of Python's version (a new Unicode
table may name a letter's script differently): any change of the code checks everything again.
A file of another version, or one that cannot be read or has the wrong shape, is as if it were
not there, and is written anew. Only what a build used is written, so a file never grows past
its catalog.

The files are a build artefact of the project (like mkdocs-material's ``.cache/plugin/``):
trusted as the project's own, never committed, never shared between strangers.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import sys
from dataclasses import dataclass
from functools import lru_cache
from importlib import metadata
from pathlib import Path
from typing import Any, TypeGuard

from ..errors import LoadError, Problem, RulebookError
from ..limits import MAX_FILE_BYTES, read_limited
from ..writing import remove_stale_leftovers
from .catalogs import write_atomic
from .checks import Check, check_translation
from .glossary import Glossary

#: A kept file holds at most the msgstrs of its catalog, each with its msgctxt, and its problems.
CACHE_FILE_BYTES = 8 * MAX_FILE_BYTES

#: The package whose code makes the checks (every module: a check may use any of them).
PACKAGE = Path(__file__).resolve().parent.parent


def _digest(*parts: str) -> str:
    return hashlib.blake2b("\x1f".join(parts).encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


#: The libraries whose releases change what is kept: Babel reads the catalogs and its CLDR data
#: gives the plural rules the checks compare with (2.19 gave French a third form).
LIBRARIES = ("babel",)


@lru_cache(maxsize=1)
def code_version() -> str:
    """A digest of the package's Python code, the interpreter's version and the versions of
    :data:`LIBRARIES`: kept results made under another Babel are made again."""
    files = sorted(PACKAGE.rglob("*.py"))
    hasher = hashlib.blake2b(sys.version.encode(), digest_size=16)
    for library in LIBRARIES:
        hasher.update(f"{library}=={metadata.version(library)}".encode())
    for path in files:
        hasher.update(str(path.relative_to(PACKAGE)).encode())
        hasher.update(path.read_bytes())
    return hasher.hexdigest()


def _read_json(path: Path, version: str) -> dict[str, Any] | None:
    """The file's content if it is of ``version``; None for anything else (missing, broken, older)."""
    try:
        # Through the limited reader: the cache is the project's own, but a FIFO there must not hang a build.
        data = json.loads(read_limited(path, str(path), limit=CACHE_FILE_BYTES))
    except (LoadError, ValueError):
        return None
    return data if isinstance(data, dict) and data.get("version") == version else None


def _write_json(path: Path, data: dict[str, Any]) -> None:
    if path.parent not in _SWEPT:  # once per folder and process: what a killed build left there
        _SWEPT.add(path.parent)
        remove_stale_leftovers(path.parent)
    with contextlib.suppress(RulebookError):  # a read-only project builds all the same, reading and checking everything every time
        write_atomic(path, json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True).encode("utf-8"))


_SWEPT: set[Path] = set()


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

    def __init__(self, path: Path, language: str, glossary: Glossary, shown_path: str, catalog: bytes, sources: dict[str, str]):
        self.path = Path(path)
        texts = "\x1e".join(f"{context}\x1f{text}" for context, text in sorted(sources.items()))
        self.version = _digest(code_version(), language, glossary.fingerprint, shown_path,
                               hashlib.blake2b(catalog, digest_size=16).hexdigest(), texts)
        self._contexts = sources.keys()

    def load(self) -> TakenFromCatalog | None:
        data = _read_json(self.path, self.version)
        if data is None:
            return None
        shown, failures, whole = data.get("shown"), data.get("failures"), data.get("whole")
        if not (isinstance(shown, dict) and all(isinstance(k, str) and isinstance(v, str) and k in self._contexts for k, v in shown.items())
                and _strings(data.get("fallback")) and _strings(data.get("outdated")) and _problems(failures) and _problems(whole)):
            return None
        return TakenFromCatalog(shown, tuple(data["fallback"]), tuple(data["outdated"]), tuple(Problem(*f) for f in failures),
                                tuple(Problem(*f) for f in whole))

    def save(self, taken: TakenFromCatalog) -> None:
        _write_json(self.path, {"version": self.version, "shown": taken.shown, "fallback": list(taken.fallback),
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

    def __init__(self, path: Path, language: str, glossary: Glossary):
        self.path = Path(path)
        self.language, self.glossary = language, glossary
        self.version = _digest(code_version(), language, glossary.fingerprint)
        self._stored = self._read()
        self._used: dict[str, list[list[str]]] = {}

    def _read(self) -> dict[str, list[list[str]]]:
        data = _read_json(self.path, self.version)
        return data["details"] if data is not None and isinstance(data.get("details"), dict) else {}

    def details(self, source: str, translation: str, language: str, glossary: Glossary, checks: dict[str, Check]) -> list[tuple[str, str]]:
        """What :func:`check_translation` says, from the file when it said it before."""
        if language != self.language or glossary is not self.glossary:
            return check_translation(source, translation, language, glossary, checks)
        key = _digest(",".join(checks), source, translation)
        found = self._stored.get(key)
        if not _valid(found):
            found = [[name, detail] for name, detail in check_translation(source, translation, language, glossary, checks)]
        self._used[key] = found
        return [(name, detail) for name, detail in found]

    def save(self) -> None:
        """Write the results this build used, unless the file already holds exactly them."""
        if self._used != self._stored:
            _write_json(self.path, {"version": self.version, "details": self._used})
