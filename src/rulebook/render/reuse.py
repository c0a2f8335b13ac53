"""Compiled templates kept in memory: a theme's templates compiled once per process.

``mkdocs serve`` reloads the configuration and builds the whole site after every saved file, in
the same process, with a new Jinja environment each time. :class:`CompiledTemplates` is a Jinja
bytecode cache keyed by the template's name, file, source checksum and the environment's options:
a value of its exact inputs, which cannot go stale, shared by every environment of the process
(the theme's, ``rulebook new``'s). Everything else a rebuild reuses is in the build's cache
(:mod:`rulebook.cache`): a book's page, by :meth:`rulebook.render.Site.book_inputs`.

A one-off ``mkdocs build`` is a new process: each compiled template is also written to the build's
cache folder, where the next build finds it (compiling Material's and our templates was a tenth of
a build of the repository with everything else kept).
"""

from __future__ import annotations

import contextlib
import hashlib
import pickle
from pathlib import Path
from types import CodeType

import jinja2
from jinja2.bccache import Bucket

from ..cache import current
from ..errors import RulebookError
from ..writing import remove_stale_leftovers, write_atomic


def _settings(environment: jinja2.Environment) -> str:
    """The environment's options that shape compiled code: two environments share code only if equal."""
    autoescape = environment.autoescape if isinstance(environment.autoescape, bool) else id(environment.autoescape)
    return repr((environment.block_start_string, environment.block_end_string, environment.variable_start_string,
                 environment.variable_end_string, environment.comment_start_string, environment.comment_end_string,
                 environment.line_statement_prefix, environment.line_comment_prefix, environment.trim_blocks,
                 environment.lstrip_blocks, environment.newline_sequence, environment.keep_trailing_newline,
                 sorted(environment.extensions), environment.optimized, environment.is_async, autoescape))


class CompiledTemplates(jinja2.BytecodeCache):
    """Compiled templates kept in memory, by template name, file, source checksum and environment
    options, and in the build's cache folder: ``folder``, else the active build cache's
    (:func:`rulebook.cache.current`) ``templates`` folder, else none.

    Jinja's bucket checks what it reads: a file of another Jinja bytecode format or Python version
    (its magic header) or of another source (its checksum) is ignored and compiled again; the file
    name holds Jinja's version too, whose compiler may change the code without its format.
    """

    def __init__(self, folder: Path | None = None, shared: CompiledTemplates | None = None) -> None:
        self.folder = folder
        self._code: dict[str, tuple[str, CodeType | None]] = shared._code if shared is not None else {}
        self._swept: set[Path] = shared._swept if shared is not None else set()

    def stored_in(self, folder: Path) -> CompiledTemplates:
        """The same templates in memory, kept in ``folder`` (an environment used outside the build's active cache)."""
        return CompiledTemplates(folder, self)

    def _stored_folder(self) -> Path | None:
        if self.folder is not None:
            return self.folder
        cache = current()
        return cache.folder / "templates" if cache is not None and cache.folder is not None else None

    @staticmethod
    def _file(folder: Path, bucket: Bucket) -> Path:
        name = hashlib.blake2b(f"{jinja2.__version__}|{bucket.key}".encode("utf-8", "surrogatepass"), digest_size=16)
        return folder / f"{name.hexdigest()}.jinja"

    def get_bucket(self, environment: jinja2.Environment, name: str, filename: str | None, source: str) -> Bucket:
        key = self.get_cache_key(name, filename) + "|" + _settings(environment)
        bucket = Bucket(environment, key, self.get_source_checksum(source))
        self.load_bytecode(bucket)
        return bucket

    def load_bytecode(self, bucket: Bucket) -> None:
        found = self._code.get(bucket.key)
        if found is not None and found[0] == bucket.checksum:
            bucket.code = found[1]
            return
        folder = self._stored_folder()
        if folder is None:
            return
        try:
            with self._file(folder, bucket).open("rb") as stored:
                bucket.load_bytecode(stored)
        except (OSError, ValueError, EOFError, TypeError, pickle.UnpicklingError):  # none yet, or a damaged file: compiled again
            bucket.reset()
        if bucket.code is not None:
            self._code[bucket.key] = (bucket.checksum, bucket.code)

    def dump_bytecode(self, bucket: Bucket) -> None:
        self._code[bucket.key] = (bucket.checksum, bucket.code)
        folder = self._stored_folder()
        if folder is None:
            return
        if folder not in self._swept:  # once per folder and process: what a killed build left half written
            self._swept.add(folder)
            remove_stale_leftovers(folder)
        with contextlib.suppress(RulebookError, OSError):  # a read-only project builds all the same, compiling every time
            folder.mkdir(parents=True, exist_ok=True)
            write_atomic(self._file(folder, bucket), bucket.bytecode_to_string(), kept=True)


#: Shared by every theme environment of this process.
COMPILED = CompiledTemplates()
