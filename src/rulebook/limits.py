"""Size and depth limits on everything a contributor or translator hands us.

Every input is read whole, so each is bounded: a file past a limit is refused with a clear
error (``FILE:LINE:COL: what is wrong; what to do``), never read slowly or half. The numbers
are sized for the largest rulebook a project may publish (a book of 3,000 numbered rules with
worked examples, like the Magic Comprehensive Rules: about 5 MB of YAML, 77,000 values, its
catalogs filed per section, 150 files of about 70 kB a language) and are far above what this repository's books need (the largest real
file is about 120 kB, the longest text about 1,000 characters, the deepest nesting 6, the most
YAML values 1,400). Every reader and check runs in time linear in its input, and the limits are
set so that any file within them is processed in about a second or less (a catalog well under
one: a large book files its catalogs per section); benchmarks/bench_limits.py measures it.
docs/limits.md lists them for contributors.
"""

from __future__ import annotations

import os
import stat

from .errors import LoadError, Problem

#: A rulebook YAML, card file or any other input larger than this is refused unread (a catalog and
#: the glossary have lower limits of their own). The 3,000-rule book's YAML is 4.5 MiB; a rulebook
#: at this size and the value limit at once loads in about a second of CPU (1.1 s under a load of
#: 17, benchmarks/bench_limits.py): its values, not its bytes, set most of the time.
MAX_FILE_BYTES = 6 * 1_048_576
#: A PO catalog or template (a book's, the site's, an engine's): read and checked at about 0.4 CPU
#: seconds a MiB, so a catalog at the limit takes well under a second. A book whose catalog would
#: be larger files its catalogs per section (``catalogs: sections``, i18n/parts.py): the
#: 3,000-rule book's section catalogs are about 70 kB each; a book filed whole fits up to about
#: 280 rules (in Russian, the longest language).
MAX_CATALOG_BYTES = 1_048_576
#: What to do with a catalog past MAX_CATALOG_BYTES.
CATALOG_ADVICE = ("for a book's catalog, file the book's catalogs per section: `catalogs: sections` under `book:` in its YAML "
                  "(docs/format.md); for a section's, split the section")
#: One text field of a rulebook, or one msgstr (characters).
MAX_TEXT_CHARS = 20_000
#: Nesting of YAML mappings and sequences (a rulebook needs 6).
MAX_DEPTH = 32
#: Values (scalars, lists, mappings) in one YAML file; the real files have at most 1,400, a book of
#: 3,000 rules with examples and rulings 77,113 (benchmarks/corpus.py). Not more: a rulebook's
#: time is mostly per value (about 13 microseconds each, loaded and checked), so this limit, not
#: the size, bounds it (benchmarks/bench_limits.py).
MAX_VALUES = 80_000
#: The glossary's own limits: every term is looked for in every message of every catalog, so its
#: size multiplies the checks' work where a rulebook's only adds to it (the real one: 42 kB).
MAX_GLOSSARY_BYTES = 1_048_576
MAX_GLOSSARY_VALUES = 20_000
#: ``mkdocs.yml`` and each file its ``INHERIT:`` names (the real one: 4 kB). MkDocs reads it with
#: PyYAML's pure-Python loader, about a second of CPU per MiB: at the 16 MiB of other files a
#: configuration would take 16 s before any check ran (the special-file fuzz target's 3 MB
#: configuration took 3 s).
MAX_CONFIG_BYTES = 262_144
#: ``nplurals`` in a catalog's Plural-Forms header (no language has more than 6).
MAX_PLURAL_FORMS = 6
#: Problems reported for one file; past this the report stops with "too many problems".
MAX_PROBLEMS = 50
#: Wall-clock seconds one worked example may run before it fails as endless (the slowest real
#: one takes a few milliseconds); ``rulebook check --example-seconds``, the plugin's
#: ``example_seconds``, pytest's ``--example-seconds``.
EXAMPLE_SECONDS = 10.0
#: Memory (MiB) a worked example may add to the process that runs it before it gets MemoryError.
EXAMPLE_MEMORY_MB = 512


def size_problem(size: int, what: str, limit: int = MAX_FILE_BYTES, advice: str = "split it or remove what does not belong") -> str | None:
    """The message refusing ``size`` bytes, or None when they are within ``limit``."""
    if size <= limit:
        return None
    return f"{what} is larger than the limit of {limit:,} bytes; {advice}"


def read_catalog_limited(path: str | os.PathLike[str], shown: str) -> bytes:
    """A PO catalog's or template's bytes, as :func:`read_limited` reads them, within MAX_CATALOG_BYTES."""
    return read_limited(path, shown, MAX_CATALOG_BYTES, CATALOG_ADVICE)


def read_limited(path: str | os.PathLike[str], shown: str, limit: int = MAX_FILE_BYTES,
                 advice: str = "split it or remove what does not belong") -> bytes:
    """A file's bytes, or LoadError naming ``shown`` when it cannot be read, is not a regular
    file or is bigger than ``limit``: the one reader of every file a contributor hands us.

    A FIFO would block the reader until someone writes to it, a device (a link to /dev/zero)
    never ends: both are refused before a byte is read. The file is looked at again once open
    (``fstat``), so one swapped in between is refused too, and it is opened without blocking
    (a FIFO opened for reading waits for a writer otherwise; a regular file ignores the flag).
    """
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):  # not opened at all: opening some devices acts
            raise LoadError([Problem(shown, 1, 1, _NOT_REGULAR)])
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
        with open(descriptor, "rb") as handle:
            status = os.fstat(descriptor)
            if not stat.S_ISREG(status.st_mode):
                raise LoadError([Problem(shown, 1, 1, _NOT_REGULAR)])
            # One byte past the limit is enough to know (a file may grow after fstat).
            data = b"" if status.st_size > limit else handle.read(limit + 1)
            size = max(status.st_size, len(data))
    except OSError as exc:
        raise LoadError([Problem(shown, 1, 1, f"cannot read the file: {exc.strerror or exc}")]) from None
    if (too_big := size_problem(size, "the file", limit, advice)) is not None:
        raise LoadError([Problem(shown, 1, 1, too_big)])
    return data


_NOT_REGULAR = "not a regular file (a FIFO, a device or a folder); replace it with a text file"
