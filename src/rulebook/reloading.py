"""``mkdocs serve``: an engine edited while the site is served is imported afresh.

Python imports a module once a process; ``mkdocs serve`` rebuilds in the same process, so an
engine's author saw the results of the engine as it was when the server started. The sources of
each book's engine that belong to the project (not an installed package) are watched, and when
one of their files changed since the last build, their modules are dropped from ``sys.modules``:
the rebuild imports them again, and the examples, whose reuse follows the engine module, run
again.

Which files: a project's engine is its whole top-level package (``src/house_rules/``: the engine
may import its neighbours); an engine of this toolkit is its own module or package
(``rulebook/engines/casting/``), never the toolkit's shared modules, whose classes the rest of
the running toolkit holds.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterable
from pathlib import Path

from .model import Book

#: The stamp of each engine's sources at the last build: (file, mtime_ns, size) of every file.
_STAMPS: dict[Path, tuple[tuple[str, int, int], ...]] = {}
_TOOLKIT = Path(__file__).resolve().parent


def _module_file(engine: str) -> Path | None:
    from .i18n.engine_domains import engine_module_file  # its lookup of a book's engine, one place

    return engine_module_file(engine)


def engine_sources(books: Iterable[Book], root: Path) -> list[Path]:
    """The folder or file of each book's engine that is edited under ``root`` (the project)."""
    found: list[Path] = []
    root = Path(root).resolve()
    for name in dict.fromkeys(book.engine for book in books):
        module = _module_file(name)
        if module is None or root not in module.parents or {"site-packages", "dist-packages"} & set(module.parts):
            continue
        if _TOOLKIT in module.parents:
            source = module.parent if module.name == "__init__.py" else module
            # Only an engine's own module or package: base.py and the rest are the toolkit's.
            if source.parent != _TOOLKIT / "engines" or source.name in ("base.py", "__init__.py"):
                continue
        else:
            source = module.parent
            while (source.parent / "__init__.py").exists():
                source = source.parent  # the top-level package
        if source not in found:
            found.append(source)
    return found


def _files(source: Path) -> list[Path]:
    return sorted(source.rglob("*.py")) if source.is_dir() else [source]


def _stamp(source: Path) -> tuple[tuple[str, int, int], ...]:
    stamps = []
    for file in _files(source):
        try:
            stat = file.stat()
        except OSError:
            continue
        stamps.append((str(file), stat.st_mtime_ns, stat.st_size))
    return tuple(stamps)


def reload_changed(books: Iterable[Book], root: Path) -> list[Path]:
    """Drop the modules of every engine source under ``root`` that changed since the last call;
    the sources dropped (the first call only records)."""
    dropped = []
    for source in engine_sources(books, root):
        stamp = _stamp(source)
        last = _STAMPS.get(source)
        _STAMPS[source] = stamp
        if last is None or last == stamp:
            continue
        inside = (lambda f: f == source) if source.is_file() else (lambda f: source in f.parents)  # noqa: B023 - used in this iteration only
        for name, module in list(sys.modules.items()):
            file = getattr(module, "__file__", None)
            if file and inside(Path(file).resolve()):
                del sys.modules[name]
        dropped.append(source)
    if dropped:
        importlib.invalidate_caches()
    return dropped
