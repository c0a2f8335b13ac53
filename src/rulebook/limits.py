"""Size and depth limits on everything a contributor or translator hands us.

Every input is read whole, so each is bounded: a file past a limit is refused with a clear
error (``FILE:LINE:COL: what is wrong; what to do``), never read slowly or half. The numbers
are far above what a rulebook needs (the largest real file is about 120 kB, the longest text
about 1,000 characters, the deepest nesting 6, the most YAML values 1,400) and low enough that every input within them is
processed in well under a second. docs/limits.md lists them for contributors.
"""

from __future__ import annotations

import os
import stat

from .errors import LoadError, Problem

#: A rulebook YAML, card file, glossary or PO catalog larger than this is refused unread.
MAX_FILE_BYTES = 1_048_576
#: One text field of a rulebook, or one msgstr (characters).
MAX_TEXT_CHARS = 20_000
#: Nesting of YAML mappings and sequences (a rulebook needs 6).
MAX_DEPTH = 32
#: Values (scalars, lists, mappings) in one YAML file; the real files have at most 1,400.
MAX_VALUES = 20_000
#: ``nplurals`` in a catalog's Plural-Forms header (no language has more than 6).
MAX_PLURAL_FORMS = 6
#: Problems reported for one file; past this the report stops with "too many problems".
MAX_PROBLEMS = 50


def size_problem(size: int, what: str) -> str | None:
    """The message refusing ``size`` bytes, or None when they are within the limit."""
    if size <= MAX_FILE_BYTES:
        return None
    return f"{what} is larger than the limit of {MAX_FILE_BYTES:,} bytes; split it or remove what does not belong"


def read_limited(path: str | os.PathLike[str], shown: str) -> bytes:
    """A file's bytes, or LoadError naming ``shown`` when it cannot be read or is too big."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):  # a FIFO or a device would block or never end
            raise LoadError([Problem(shown, 1, 1, "not a regular file; replace it with a text file")])
        with open(path, "rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)  # one byte past the limit is enough to know
    except OSError as exc:
        raise LoadError([Problem(shown, 1, 1, f"cannot read the file: {exc.strerror or exc}")]) from None
    if (too_big := size_problem(len(data), "the file")) is not None:
        raise LoadError([Problem(shown, 1, 1, too_big)])
    return data
