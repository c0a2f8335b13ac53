"""Check results kept between builds, so that an unchanged translation is not checked again.

Checking every message of every catalog is most of a cold site build's translation work (28,000
messages on the 5 x 200 benchmark corpus), and a build after an edit checks the same texts again.
What a check finds depends only on the source, the translation, the language, the glossary of
the book, which checks run and the code of the checks; a :class:`StoredChecks` file keeps, for one
(book, language), the details each (source, translation) gave, under a version made of
everything else (the language, :attr:`Glossary.fingerprint`, the package's code and Python's
version: a new Unicode table may name a letter's script differently). A file of another version,
or one that cannot be read, is as if it were not there: the messages are checked again and the
file is written anew. Only the entries a build used are written, so a file never grows past its
catalog.

The file is a build artefact in the project (the MkDocs plugin's ``cache_dir``); like
mkdocs-material's caches it is trusted as the project's own, never committed, never shared
between strangers.
"""

from __future__ import annotations

import hashlib
import json
import sys
from functools import lru_cache
from pathlib import Path

from .catalogs import write_atomic
from .checks import Check, check_translation
from .glossary import Glossary

#: The package whose code makes the checks (every module: a check may use any of them).
PACKAGE = Path(__file__).resolve().parent.parent


def _digest(*parts: str) -> str:
    return hashlib.blake2b("\x1f".join(parts).encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


@lru_cache(maxsize=1)
def code_version() -> str:
    """A digest of the package's Python code and of the interpreter's version."""
    files = sorted(PACKAGE.rglob("*.py"))
    hasher = hashlib.blake2b(sys.version.encode(), digest_size=16)
    for path in files:
        hasher.update(str(path.relative_to(PACKAGE)).encode())
        hasher.update(path.read_bytes())
    return hasher.hexdigest()


def _valid(details: object) -> bool:
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
        try:
            data = json.loads(self.path.read_bytes())
        except (OSError, ValueError):
            return {}
        if not isinstance(data, dict) or data.get("version") != self.version or not isinstance(data.get("details"), dict):
            return {}
        return data["details"]

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
        if self._used == self._stored:
            return
        data = json.dumps({"version": self.version, "details": self._used}, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
        try:
            write_atomic(self.path, data.encode("utf-8"))
        except OSError:
            pass  # a read-only project builds all the same, checking everything every time
