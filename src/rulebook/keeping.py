"""Writing what a build keeps for the next one: the stored kinds of :mod:`rulebook.cache`.

Apart from the cache itself because writing goes through :mod:`rulebook.writing` (atomic files,
leftovers of a killed build swept), which reads the loader's paths, and the loader keeps its books
in the cache.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

from .cache import BuildCache
from .errors import RulebookError
from .writing import remove_stale_leftovers, write_atomic


def write_json(cache: BuildCache, path: Path, data: dict[str, object]) -> None:
    """Write a stored file atomically; a folder that cannot be written keeps nothing, silently
    (a read-only project builds all the same, making everything every time)."""
    write_stored(cache, path, json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True).encode("utf-8"))


def write_stored(cache: BuildCache, path: Path, data: bytes) -> None:
    """:func:`write_json` of bytes already encoded."""
    if path.parent not in cache.swept:  # once per folder and cache: what a killed build left there
        cache.swept.add(path.parent)
        remove_stale_leftovers(path.parent)
    with contextlib.suppress(RulebookError):  # a read-only project builds all the same
        write_atomic(path, data, kept=True)


def save(cache: BuildCache) -> None:
    """Write the stored memos this build used (the highlighted doctests), where they changed."""
    for path, data in cache.unsaved():
        write_json(cache, path, data)
