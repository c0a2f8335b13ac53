"""Reference engines, found as plugins; every one in the shape stated in :mod:`.base`.

A rulebook's ``book.engine`` names an engine registered under the entry-point group
``rulebook.engines`` (ours are registered there too, in ``pyproject.toml``) or gives a dotted
module path. Nothing is imported until a book asks for its engine. docs/engines.md is the
contract an engine package follows.
"""

from __future__ import annotations

import difflib
import importlib
import sys
from dataclasses import replace
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path
from types import ModuleType
from typing import Any

from ..cache import Same, current, kind
from ..errors import LoadError, Problem, RulebookError
from ..model import Book
from ..symbols import Symbol
from .base import PrintedName

GROUP = "rulebook.engines"


#: The last reading of the group: (what it was read from, its entry points).
_READ: dict[str, tuple[tuple[object, ...], tuple[EntryPoint, ...]]] = {}


def _stamp(path: str) -> int | None:
    try:
        return Path(path or ".").stat().st_mtime_ns
    except OSError:
        return None


def _registered_entry_points() -> tuple[EntryPoint, ...]:
    """The group's entry points, read again only when they may have changed.

    Reading them opens every installed package's metadata (about 8 ms); a build, a test run or
    a CLI command asks once per book, often hundreds of times. Installing or removing a package
    changes its directory on ``sys.path`` (a new or deleted ``*.dist-info``), and so does
    nothing else this reading depends on but ``sys.path`` itself: both are the key, with the
    reader (a test may stand in its own, as a plugin's installation would)."""
    key = (entry_points, *((path, _stamp(path)) for path in sys.path))
    last = _READ.get(GROUP)
    if last is None or last[0] != key:
        last = _READ[GROUP] = (key, tuple(entry_points(group=GROUP)))
    return last[1]


def registered() -> dict[str, str]:
    """Every registered engine: its name -> the module the entry point names."""
    return {ep.name: ep.value for ep in _registered_entry_points()}


def load_engine(name: str) -> ModuleType:
    """The engine module ``name`` names: a registered engine first, else a dotted module path."""
    found = [ep for ep in _registered_entry_points() if ep.name == name]
    if found:
        return _loaded(found[0])
    known = ", ".join(sorted(registered())) or "none"
    if "." not in name:
        close = difflib.get_close_matches(name, registered(), n=1)
        guess = f"did you mean {close[0]!r}? " if close else ""
        raise RulebookError(f"no engine {name!r}: {guess}registered engines are {known}; or give a module path such as mygame.engine")
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name is not None and name.startswith(exc.name):
            raise RulebookError(f"no engine {name!r}: no such module (registered engines are {known})") from None
        raise RulebookError(f"engine module {name!r} is broken: {type(exc).__name__}: {exc}") from exc
    except Exception as exc:
        raise RulebookError(f"engine module {name!r} is broken: {type(exc).__name__}: {exc}") from exc


def _loaded(entry: EntryPoint) -> ModuleType:
    """The module a registered engine's entry point names."""
    where = f"the entry point {entry.name} = {entry.value}"
    try:
        engine = entry.load()
    except Exception as exc:
        raise RulebookError(f"engine {entry.name!r} ({where}) is broken: {type(exc).__name__}: {exc}") from exc
    if not isinstance(engine, ModuleType):
        raise RulebookError(f"engine {entry.name!r} ({where}) must name a module, not {type(engine).__name__}")
    return engine


def book_engine(book: Book) -> ModuleType:
    """The engine of ``book``; a missing or broken one is an error at the book's ``engine:`` line."""
    try:
        return load_engine(book.engine)
    except RulebookError as exc:
        raise RulebookError(f"{book.path}:{book.lines.get('engine', book.line)}: {exc}") from exc.__cause__


def namespace(book: Book, engine: ModuleType | None = None) -> dict[str, Any]:
    """The globals of the book's worked examples: the engine's own ``namespace(book)`` hook
    when it has one (to hand the book's ``engine_data`` to the engine), else its public names.

    ``engine``: the book's engine when the caller has already found it (finding it reads every
    installed package's entry points, about 10 ms: once per book, not once per example)."""
    engine = engine or book_engine(book)
    hook = getattr(engine, "namespace", None)
    if hook is not None:
        return dict(hook(book))
    if book.engine_data:
        raise RulebookError(f"{book.path}:{book.lines.get('engine_data', book.line)}: engine {book.engine!r} reads no "
                            "engine_data (it has no namespace(book) hook); remove the field or use an engine that does")
    names = getattr(engine, "__all__", [n for n in vars(engine) if not n.startswith("_")])
    return {name: getattr(engine, name) for name in names}


# --- what an engine supplies to the translate and render stages (docs/engines.md) -------------


def engine_symbols(name: str) -> tuple[Symbol, ...]:
    """The symbols the engine ``name`` adds to its books' texts (its ``symbols()`` hook; none
    without one), each knowing its engine, whose domain translates its label."""
    engine = load_engine(name)
    hook = getattr(engine, "symbols", None)
    if hook is None:
        return ()
    try:
        found = tuple(hook())
    except Exception as exc:  # whatever breaks inside a plugin is reported, naming it
        raise RulebookError(f"engine {name!r}: symbols() failed: {type(exc).__name__}: {exc}") from exc
    wrong = [item for item in found if not isinstance(item, Symbol) or item.kind != "engine"]
    if wrong:
        raise RulebookError(f"engine {name!r}: symbols() returns symbols made by rulebook.symbols.define, not {wrong[0]!r}")
    return tuple(replace(symbol, engine=name) for symbol in found)


#: An engine's printed names, by the engine module (compared by identity): every catalog's
#: glossary binds them, fifty times a build of five books in six languages, and a serve session
#: asks again at each rebuild; an engine edited under serve is imported anew (:mod:`rulebook.reloading`),
#: a new module whose names are asked again.
ENGINE_NAMES = kind("engine names", ("engine",), "an engine's printed names asked once per imported module, not once per "
                    "catalog and rebuild (a tenth of a serve rebuild with nothing changed)")


def _names(engine: object) -> tuple[PrintedName, ...]:
    hook = getattr(engine, "names", None)
    return tuple(hook()) if hook is not None else ()


def printed_names() -> tuple[tuple[PrintedName, ...], tuple[Problem, ...]]:
    """The printed names every registered engine supplies (its ``names()`` hook), in the order
    of the engines' names, and the problems of the data they come from (a :class:`LoadError`
    an engine raised, at its FILE:LINE): the glossary reports them and checks translations
    with the names the other engines gave."""
    found: list[PrintedName] = []
    problems: list[Problem] = []
    cache = current()
    entries: dict[str, EntryPoint] = {}
    for entry in _registered_entry_points():  # read once, not once per engine: as load_engine, the first of a name
        entries.setdefault(entry.name, entry)
    for name in sorted(entries):
        try:
            engine = _loaded(entries[name])
            names = _names(engine) if cache is None else cache.memo(ENGINE_NAMES, Same(engine), lambda key: _names(key.value))
        except LoadError as exc:
            problems.extend(exc.problems)
            continue
        except Exception as exc:  # a plugin's failure is reported, naming it
            raise RulebookError(f"engine {name!r}: names() failed: {type(exc).__name__}: {exc}") from exc
        if wrong := [item for item in names if not isinstance(item, PrintedName)]:
            raise RulebookError(f"engine {name!r}: names() returns rulebook.engines.base.PrintedName values, not {wrong[0]!r}")
        found.extend(names)
    return tuple(found), tuple(problems)
