"""Worked examples kept between builds: an example that passed is not run again by the next build.

A build runs every worked example in a child process (:mod:`rulebook.examples`); a one-off
``mkdocs build`` is a new process, and an edit under ``mkdocs serve`` changes one book, whose
examples all ran again for one changed text (200 examples for a word). Each example that passed
is kept in the build's cache folder (``stored-outcomes/BOOK.pickle``), by its doctest, under a
version of everything else its outcome is made of:

- the toolkit's code (:meth:`rulebook.cache.BuildCache.version`) and the book's engine's
  (:func:`rulebook.engine_code.engine_code`: a project's engine, file by file);
- the book's ``engine_data`` files, byte for byte: an engine's ``namespace(book)`` hands them to
  the examples (docs/engines.md: an example's globals are made of the engine and those files);
- the limits the examples run under.

A failure is never kept: an example stopped by its time limit on a busy machine may pass on the
next build, and a failing example runs again at each build, as its author fixes it, with the
lines of the book as it is now. The file is the build's own, in the project's cache folder, as
trusted as the engine code the build imports: pickle, as the child processes send their outcomes.
"""

from __future__ import annotations

import contextlib
import hashlib
import pickle
from collections.abc import Callable, Sequence
from pathlib import Path

from .cache import STORED_FILE_BYTES, BuildCache, kind
from .engine_code import engine_code
from .engines.base import Record
from .figures import BoardFigure
from .isolation import Bounds
from .keeping import write_stored
from .model import Book, Example

#: An outcome's fields as the child sends them: attempted, failures, positions, records, not_run.
Slim = tuple[object, ...]

STORED_OUTCOMES = kind("stored outcomes", ("engine", "data", "bounds"), "a worked example that passed not run again by the next "
                       "build while its doctest, its engine's code, the book's engine_data files and the limits are the same",
                       stored=True, entry_inputs=("doctest",))


def kept_or_run(cache: BuildCache, book: Book, examples: Sequence[Example], bounds: Bounds | None,
                run: Callable[[list[int]], list[Slim]]) -> list[Slim]:
    """Each example's outcome fields: kept by an earlier build, or ``run(indexes)`` for the others."""
    path = cache.stored_path(STORED_OUTCOMES, f"{book.id}.pickle")
    version = _version(cache, book, bounds) if path is not None else None
    if path is None or version is None:
        return run(list(range(len(examples))))
    kept = _read(path, version)
    keys = [cache.entry_key(STORED_OUTCOMES, doctest=example.doctest) for example in examples]
    missing = [index for index, key in enumerate(keys) if key not in kept]
    ran = dict(zip(missing, run(missing), strict=True)) if missing else {}
    found = [ran[index] if index in ran else kept[key] for index, key in enumerate(keys)]
    passed = {key: fields for key, fields in zip(keys, found, strict=True) if _passed(fields)}
    if passed.keys() != kept.keys():  # new examples passed, or kept ones gone from the book: the file follows the book
        with contextlib.suppress(pickle.PicklingError, TypeError, AttributeError):  # a record pickle cannot write: not kept
            write_stored(cache, path, version + b"\n" + pickle.dumps(passed, protocol=5))
    return found


def _version(cache: BuildCache, book: Book, bounds: Bounds | None) -> bytes | None:
    data = []
    for path in book.data_paths():
        try:
            data.append(hashlib.blake2b(Path(path).read_bytes(), digest_size=16).hexdigest())
        except OSError:
            return None  # the examples report the missing file: run them
    return cache.version(STORED_OUTCOMES, engine=engine_code(book.engine).decode("utf-8", "surrogatepass"),
                         data=repr(data), bounds=repr(bounds)).encode()


def _passed(fields: Slim) -> bool:
    attempted, failures, _, _, not_run = fields
    return isinstance(attempted, int) and attempted > 0 and failures == () and not_run == ""


def _read(path: Path, version: bytes) -> dict[str, Slim]:
    """The passed examples' fields a build kept in ``path`` for ``version`` (none: no file, another version, damaged)."""
    try:
        with path.open("rb") as stored:
            if stored.readline(len(version) + 1) != version + b"\n":
                return {}
            data = stored.read(STORED_FILE_BYTES + 1)
        kept = pickle.loads(data) if len(data) <= STORED_FILE_BYTES else None
    except (OSError, pickle.UnpicklingError, EOFError, ValueError, TypeError, AttributeError, ImportError, IndexError):
        return {}
    if not (isinstance(kept, dict) and all(isinstance(key, str) and _well_formed(fields) for key, fields in kept.items())):
        return {}
    return kept


def _well_formed(fields: object) -> bool:
    """Whether ``fields`` are a passed outcome's, every part of its type."""
    if not (isinstance(fields, tuple) and len(fields) == 5 and _passed(fields)):
        return False
    _, _, positions, records, _ = fields
    return (isinstance(positions, tuple) and all(isinstance(position, BoardFigure) for position in positions)
            and isinstance(records, tuple) and all(isinstance(record, Record) for record in records))
