"""An engine's code, as what the build's cache folder keeps is versioned by it.

A book page and a worked example's outcome are made by the book's engine: what a build keeps of
them for the next build (:mod:`rulebook.render.stored_pages`, :mod:`rulebook.examples`) holds
the engine's code in its version. An engine of the toolkit is in the toolkit's code
(:func:`rulebook.cache.code_version`); any other (a project's, an installed package's) is its
whole top-level package, read file by file: the engine may import its neighbours.
"""

from __future__ import annotations

from .cache import PACKAGE, parts_digest
from .i18n.engine_domains import engine_module_file


def engine_code(engine: str) -> bytes:
    """What names an engine's code: its name and module file, and for an engine outside the
    toolkit a digest of every file of its top-level package (or of its one module)."""
    module = engine_module_file(engine) if engine else None
    named = f"{engine}\x1f{module}".encode("utf-8", "surrogatepass")
    if module is None or PACKAGE in module.parents:
        return named
    source = module.parent if (module.parent / "__init__.py").exists() else module  # a package's module, or a module alone
    while source.is_dir() and (source.parent / "__init__.py").exists():
        source = source.parent  # the top-level package: the engine may import its neighbours
    files = sorted(p for p in source.rglob("*") if p.is_file() and "__pycache__" not in p.parts) if source.is_dir() else [source]
    parts = (part for path in files for part in (str(path.relative_to(source.parent)).encode("utf-8", "surrogatepass"), path.read_bytes()))
    return named + b"\x1f" + parts_digest(parts).encode()
