"""Compiled templates kept in memory: a theme's templates compiled once per process.

``mkdocs serve`` reloads the configuration and builds the whole site after every saved file, in
the same process, with a new Jinja environment each time. :class:`CompiledTemplates` is a Jinja
bytecode cache keyed by the template's name, file, source checksum and the environment's options:
a value of its exact inputs, which cannot go stale, shared by every environment of the process
(the theme's, ``rulebook new``'s). Everything else a rebuild reuses is in the build's cache
(:mod:`rulebook.cache`): a book's page, by :meth:`rulebook.render.Site.book_inputs`.
"""

from __future__ import annotations

from types import CodeType

import jinja2
from jinja2.bccache import Bucket


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
