"""Writing the project's files: whole or not at all, readable as the user's other files are.

Every file rulebook writes (catalogs, templates, ``.mo`` files, a build's cache) goes to a
temporary file beside it, ``.NAME.XXXXXXXX.tmp``, which then replaces it: a crash or a kill
never leaves half a file, and :func:`remove_leftovers` clears what a killed run left.

The temporary file is created with the permissions of a new file (0666 less the umask, as any
editor's file), or given the permissions of the file it replaces: ``tempfile.mkstemp``'s 0600
would survive the replacement and make every catalog private. A link inside the project stays
a link: the file it points to is written (``rulebook i18n update`` refuses links out of it).
A failure to write (a read-only folder, a full disk) is a :class:`~rulebook.errors.RulebookError`
naming the file and what to do, and the file is left as it was.
"""

from __future__ import annotations

import errno
import glob
import os
import secrets
import stat
import time
from pathlib import Path

from .errors import RulebookError
from .loader import display_path

_ADVICE = {
    errno.ENOSPC: "free some space on the disk, then run the command again",
    errno.EDQUOT: "free some space (the disk quota is reached), then run the command again",
    errno.EROFS: "the file system is read-only: run the command where the project may be written",
    errno.EACCES: "make the folder and the file writable for you (chmod u+w), then run the command again",
    errno.EPERM: "make the folder and the file writable for you (chmod u+w), then run the command again",
}


def write_atomic(path: str | os.PathLike[str], data: bytes, *, kept: bool = False) -> bool:
    """Write ``data`` unless the file already holds it; True when the file changed.

    ``kept``: a file of the build's cache, written only when its content changed, and read back as
    absent when damaged: neither compared with what it holds nor synced to the disk (the cache of
    a first build wrote ~180 files, and their fsyncs took 0.75 s)."""
    path = Path(path)
    target = Path(os.path.realpath(path)) if path.is_symlink() else path
    shown = display_path(path)
    try:
        if not kept and _holds(target, data, shown):
            return False
        target.parent.mkdir(parents=True, exist_ok=True)
        mode = stat.S_IMODE(os.stat(target).st_mode) if target.exists() else None
        descriptor, temporary = _temporary(target)
        try:
            with os.fdopen(descriptor, "wb") as out:
                if mode is not None and hasattr(os, "fchmod"):  # not on Windows before Python 3.13
                    os.fchmod(out.fileno(), mode)
                out.write(data)
                out.flush()
                if not kept:  # a catalog or template the user keeps: on the disk before it replaces the old one
                    os.fsync(out.fileno())
            os.replace(temporary, target)
        except BaseException:
            os.unlink(temporary)
            raise
    except OSError as exc:
        advice = _ADVICE.get(exc.errno or 0, "fix that, then run the command again")
        raise RulebookError(f"cannot write {shown}: {exc.strerror or exc}; {advice} (the file is as it was)") from None
    return True


def _holds(target: Path, data: bytes, shown: str) -> bool:
    """Whether the file already holds ``data``; one that is not a regular file is refused (a FIFO
    would block the comparison, and replacing a device is not ours to do)."""
    if not os.path.lexists(target):
        return False
    if not stat.S_ISREG(os.stat(target).st_mode):
        raise RulebookError(f"{shown} is not a regular file (a FIFO, a device or a folder); delete it, then run the command again")
    with open(os.open(target, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)), "rb") as held:
        status = os.fstat(held.fileno())
        return stat.S_ISREG(status.st_mode) and status.st_size == len(data) and held.read(len(data) + 1) == data


def _temporary(target: Path) -> tuple[int, str]:
    """A new temporary file beside ``target`` (descriptor, path), permissions as the umask gives."""
    while True:
        name = str(target.parent / f".{target.name}.{secrets.token_hex(4)}.tmp")
        try:
            return os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o666), name
        except FileExistsError:
            continue


def remove_leftovers(path: str | os.PathLike[str]) -> list[Path]:
    """Delete the temporary files a killed write of ``path`` left beside it; those deleted.

    Only for a command that writes the file (``rulebook i18n update``, ``compile``): two of them
    at once on one project would each take the other's temporary file for a leftover."""
    path = Path(path)
    target = Path(os.path.realpath(path)) if path.is_symlink() else path
    removed = []
    for found in target.parent.glob(f".{glob.escape(target.name)}.*.tmp"):
        if found.is_file() and not found.is_symlink():
            try:
                found.unlink()
            except OSError:
                continue  # not ours to force: the write itself will say what is wrong
            removed.append(found)
    return removed


#: A temporary file older than this is a killed run's: a live write holds one for milliseconds.
STALE_SECONDS = 600


def remove_stale_leftovers(folder: str | os.PathLike[str], older_than: float = STALE_SECONDS) -> list[Path]:
    """Delete the temporary files of writes in ``folder`` that a killed run left (older than
    ``older_than`` seconds); those deleted. For folders that several runs write at once (the
    build's cache, shared by concurrent builds), where a recent one may be another run's."""
    removed: list[Path] = []
    now = time.time()
    try:
        found_files = list(Path(folder).glob(".*.tmp"))
    except OSError:
        return removed
    for found in found_files:
        try:
            status = os.lstat(found)
            if stat.S_ISREG(status.st_mode) and now - status.st_mtime > older_than:
                found.unlink()
                removed.append(found)
        except OSError:
            continue  # gone meanwhile, or not ours to remove
    return removed
