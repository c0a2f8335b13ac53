"""What a rebuild (``mkdocs serve``) takes from the last one instead of making it again.

``mkdocs serve`` reloads the configuration and builds the whole site after every saved file, in
the same process. Two things are kept here between builds:

- :data:`REMEMBERED`: what a (book, language) was rendered into (its page, its search documents),
  with the inputs it was made from, compared with ``==`` (identical objects compare at once:
  ``translate_book`` and ``run_books(reuse=True)`` hand back the same objects when nothing changed);
- :class:`CompiledTemplates`: a Jinja bytecode cache in memory, so that a theme's templates are
  compiled once per process and not at every rebuild (a new environment each time).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from types import CodeType
from typing import TypeVar

import jinja2
from jinja2.bccache import Bucket

T = TypeVar("T")


class Remembered:
    """The last thing made for each slot, with what it was made from."""

    def __init__(self) -> None:
        self._last: dict[Hashable, tuple[object, object]] = {}

    def get(self, slot: Hashable, inputs: object, make: Callable[[], T]) -> T:
        last = self._last.get(slot)
        if last is not None and last[0] == inputs:
            return last[1]  # type: ignore[return-value]  # what make() gave for this slot: a T
        made = make()
        self._last[slot] = (inputs, made)
        return made

    def clear(self) -> None:
        self._last.clear()


#: Shared by every Site built with ``reuse=True`` in this process.
REMEMBERED = Remembered()


def _settings(environment: jinja2.Environment) -> str:
    """The environment's options that shape compiled code: two environments share code only if equal."""
    autoescape = environment.autoescape if isinstance(environment.autoescape, bool) else id(environment.autoescape)
    return repr((environment.block_start_string, environment.block_end_string, environment.variable_start_string,
                 environment.variable_end_string, environment.comment_start_string, environment.comment_end_string,
                 environment.line_statement_prefix, environment.line_comment_prefix, environment.trim_blocks,
                 environment.lstrip_blocks, environment.newline_sequence, environment.keep_trailing_newline,
                 sorted(environment.extensions), environment.optimized, environment.is_async, autoescape))


class CompiledTemplates(jinja2.BytecodeCache):
    """Compiled templates kept in memory, by template name, file, source checksum and environment options."""

    def __init__(self) -> None:
        self._code: dict[str, tuple[str, CodeType | None]] = {}

    def get_bucket(self, environment: jinja2.Environment, name: str, filename: str | None, source: str) -> Bucket:
        key = self.get_cache_key(name, filename) + "|" + _settings(environment)
        bucket = Bucket(environment, key, self.get_source_checksum(source))
        self.load_bytecode(bucket)
        return bucket

    def load_bytecode(self, bucket: Bucket) -> None:
        found = self._code.get(bucket.key)
        if found is not None and found[0] == bucket.checksum:
            bucket.code = found[1]

    def dump_bytecode(self, bucket: Bucket) -> None:
        self._code[bucket.key] = (bucket.checksum, bucket.code)


#: Shared by every theme environment of this process.
COMPILED = CompiledTemplates()
