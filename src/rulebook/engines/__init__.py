"""Reference engines, one module per game, all in the shape stated in :mod:`.base`."""

from __future__ import annotations

import importlib
from types import ModuleType

from ..errors import RulebookError


def engine_module(name: str) -> ModuleType:
    """The engine module a rulebook names in ``book.engine``."""
    if not name.isidentifier():
        raise RulebookError(f"engine name {name!r} is not a module name")
    try:
        return importlib.import_module(f"{__name__}.{name}")
    except ModuleNotFoundError as exc:
        if exc.name == f"{__name__}.{name}":
            raise RulebookError(f"no engine module rulebook.engines.{name}") from None
        raise
