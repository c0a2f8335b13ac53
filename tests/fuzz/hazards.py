"""Three fuzz targets for what the audit of issue 30 found: catalogs with duplicates and merge
leftovers (``merge``), special files in every input position (``special``), and a catalog
edited while a build reads it (``concurrent``). Same shape as :mod:`.targets`."""

from __future__ import annotations

import os
import random
import re
import shutil
import stat
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from . import mutate as m
from .targets import COMMANDS, DEMO, TARGETS, Bad, _books, _demo_po, _expect_positions, _quiet, _split, _workdir, oracle

if TYPE_CHECKING:
    from rulebook.cache import BuildCache
    from rulebook.i18n.translate import TranslatedBook


# --- merge: duplicates and conflict markers, the leftovers of a git merge of two catalogs ------

_MARKERS = (b"<<<<<<< HEAD", b"=======", b">>>>>>> theirs", b"||||||| base")


def _blocks(data: bytes) -> list[bytes]:
    return data.split(b"\n\n")


def make_merge(rng: random.Random) -> bytes:
    name, seed = rng.choice([s for s in m.seeds("po") if s[0].endswith(".po")])
    blocks = _blocks(seed)
    duplicated = False
    for _ in range(rng.randint(1, 4)):
        what, where = rng.random(), rng.randrange(1, len(blocks))
        block = blocks[where]
        if what < 0.35 and b"msgid" in block:  # the same entry twice, maybe translated otherwise
            other = block if rng.random() < 0.5 else re.sub(rb'msgstr "(.*)"', rb'msgstr "\1 (theirs)"', block, count=1)
            blocks.insert(rng.randrange(1, len(blocks) + 1), other)
            duplicated = duplicated or (other == block and b"#~" not in block)
        elif what < 0.5 and b"msgid" in block:  # both sides made it obsolete
            obsolete = b"\n".join(line if line.startswith(b"#") else b"#~ " + line for line in block.split(b"\n"))
            blocks[where:where] = [obsolete, obsolete]
        else:  # a conflict left in: ours, theirs, markers around and between
            end = min(len(blocks), where + rng.randint(1, 3))
            ours, theirs = blocks[where:end], [rng.choice(blocks) for _ in range(rng.randint(0, 2))]
            pieces = [_MARKERS[0], *ours, *([_MARKERS[3]] if rng.random() < 0.2 else []), _MARKERS[1], *theirs, _MARKERS[2]]
            blocks[where:end] = [b"\n".join(pieces)]
    data = b"\n\n".join(blocks)
    mutated = rng.random() < 0.3
    if mutated:
        data = m.mutate(rng, data, m.PO_PIECES)
    flags = "dup" if duplicated and not mutated else "-"
    return f"{Path(name).stem} {flags}\n".encode() + data


@lru_cache(maxsize=1)
def _merge_locales() -> Path:
    locales = _workdir() / "merge" / "locales"
    (locales / "en" / "LC_MESSAGES").mkdir(parents=True, exist_ok=True)
    shutil.copy(m.REPO / "locales" / "glossary.yaml", locales / "glossary.yaml")
    return locales


def run_merge(data: bytes) -> str:
    from rulebook.i18n.checks import check_po_file
    from rulebook.i18n.translate import translate_book

    (book_id, flags), payload = _split(data)
    path = _merge_locales() / "en" / "LC_MESSAGES" / f"{book_id}.po"
    path.write_bytes(payload)
    problems = check_po_file(path, "en")
    report = "\n".join(map(str, problems))
    _expect_positions(report)
    if flags == "dup" and not problems:
        raise Bad("a catalog holding one entry twice passed the check")
    if any(line.startswith(_MARKERS[0]) for line in payload.split(b"\n")) and not problems:
        raise Bad("a catalog with a merge conflict marker passed the check")
    if book_id in _books():
        translated = translate_book(_books()[book_id], "en", _merge_locales())
        _expect_positions("\n".join(map(str, translated.problems)))
    return "error" if problems else "clean"


# --- one small project, made once and put back after every input -------------------------------
#
# A project per input (copied, then removed) and the real 42 kB glossary parsed by every command
# cost most of an input's time, none of it what these targets test. The project is made once;
# after each input, whatever the input or its command changed (the hazard, a rewritten catalog,
# a compiled .mo, a cache folder) is put back as it was, so each input meets the same files a
# fresh project would hold. The glossary is a small real one: a spelling rule and a term the
# demo uses, enough for the glossary checks to run on every translation.

GLOSSARY = b"""\
spelling:
  - language: en
    avoid: [colour*, honour*, centre]
    use: the US spelling (color, honor, center)
terms:
  - it: [terra, terre]
    en: [land, lands]
  - it: [mazzo, mazzi]
    en: [deck, decks]
"""

#: The demo's texts in English: a catalog whose every message is translated and passes the checks.
ENGLISH = {
    "Demo": "Sample",
    "Un libro di prova con {W}, **forte** e *lieve*.": "A sample book with {W}, **strong** and *light*.",
    "Primo": "First",
    "Vedi [[r2]] e paga 3 {W}.\n\n- uno\n- due": "See [[r2]] and pay 3 {W}.\n\n- one\n- two",
    "Un mazzo di 60 carte.": "A deck of 60 cards.",
    "Due terre.": "Two lands.",
}


@lru_cache(maxsize=1)
def translated_po() -> bytes:
    """The demo's English catalog as `rulebook i18n update` makes it, every message translated
    (not copied: a build that took B's text for A's must show a difference), dates fixed so an
    input is the same bytes on any day."""
    import io

    from babel.messages.pofile import read_po, write_po

    catalog = read_po(io.BytesIO(_demo_po()))
    for message in catalog:
        if message.id:
            message.string = ENGLISH[message.id]
    out = io.BytesIO()
    write_po(out, catalog, width=76)
    return re.sub(rb"(Creation|Revision)-Date: [^\\]*", rb"\1-Date: 2026-01-01 00:00+0000", out.getvalue())


def _template() -> dict[str, bytes]:
    return {"rules/demo.yaml": DEMO, "locales/en/LC_MESSAGES/demo.po": translated_po(), "locales/glossary.yaml": GLOSSARY, "mkdocs.yml": _CONFIG}


@lru_cache(maxsize=4)
def _project(name: str) -> Path:
    root = _workdir() / name
    shutil.rmtree(root, ignore_errors=True)
    restore(root)
    return root


def restore(root: Path) -> None:
    """Put the project back as :func:`_template` has it: anything else removed (looked at with
    ``lstat``, never opened: it may be a FIFO), a changed or missing file written again."""
    files = _template()
    folders = {str(Path(name).parent) for name in files}
    folders |= {str(parent) for name in folders for parent in Path(name).parents}
    for here, dirs, names in os.walk(root, topdown=True):
        relative = Path(here).relative_to(root)
        for name in [*names, *dirs]:
            path, key = Path(here) / name, str(relative / name)
            status = os.lstat(path)
            if stat.S_ISDIR(status.st_mode) and key in folders:
                continue
            if stat.S_ISREG(status.st_mode) and key in files and stat.S_IMODE(status.st_mode) == _MODE and status.st_size == len(files[key]) \
                    and path.read_bytes() == files[key]:
                continue
            if stat.S_ISDIR(status.st_mode):
                shutil.rmtree(path)
            else:
                path.unlink()
        dirs[:] = [d for d in dirs if (Path(here) / d).exists()]
    for name, data in files.items():
        path = root / name
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
            path.chmod(_MODE)


_MODE = 0o644


# --- special: a FIFO, a device, a folder, a link, an oversized file in each input position ------

POSITIONS = {
    "rules": "rules/demo.yaml",
    "catalog": "locales/en/LC_MESSAGES/demo.po",
    "glossary": "locales/glossary.yaml",
    "mkdocs.yml": "mkdocs.yml",
}
KINDS = ["fifo", "zero", "folder", "dangling", "loop", "big", "unreadable"]
_CONFIG = b"site_name: S\nplugins:\n  - rulebook:\n      languages: [it, en]\n"


def make_special(rng: random.Random) -> bytes:
    position, kind, command = rng.choice(sorted(POSITIONS)), rng.choice(KINDS), rng.choice(COMMANDS)
    return f"{position} {kind} {rng.randint(1, 3)} {' '.join(command)}\n".encode()


def _make(path: Path, kind: str, megabytes: int) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    elif path.exists() or path.is_symlink():
        path.unlink()
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "zero":
        path.symlink_to("/dev/zero")
    elif kind == "folder":
        path.mkdir()
    elif kind == "dangling":
        path.symlink_to(path.parent / "nowhere")
    elif kind == "loop":
        path.symlink_to(path.name)
    elif kind == "big":
        path.write_bytes(b"#" * (megabytes << 20) + b"\n")
    elif kind == "unreadable":
        path.write_bytes(b"x: 1\n")
        path.chmod(0)


def run_special(data: bytes) -> str:
    (position, kind, megabytes, *command), _ = _split(data)
    project = _project("special")
    try:
        _make(project / POSITIONS[position], kind, int(megabytes))
        code, out, err = _quiet(command, project)
    finally:
        with oracle():
            restore(project)
    if "Traceback" in err:
        raise Bad(f"a traceback from {command}: {err[-500:]}")
    if code not in (0, 1, 2):
        raise Bad(f"exit code {code!r} from {command}")
    if code != 0 and not (out + err).strip():
        raise Bad(f"exit {code} without a message from {command}")
    return "clean" if code == 0 else "error"


# --- concurrent: the catalog replaced between a build's read and its parse ---------------------


def make_concurrent(rng: random.Random) -> bytes:
    version_a = translated_po()
    how = rng.random()
    if how < 0.4:  # B is A mutated: maybe unreadable, maybe other entries
        version_b = m.mutate(rng, version_a, m.PO_PIECES)
    elif how < 0.7:  # B translates some messages otherwise, in words the checks accept
        version_b = re.sub(rb'msgstr "([A-Z][^"\n]*)"', lambda mt: b'msgstr "' + mt.group(1) + b' (B)"', version_a, count=rng.randint(1, 5))
    else:  # B's translations reversed: text the checks may refuse
        version_b = re.sub(rb'msgstr "([^"\n]+)"', lambda mt: b'msgstr "' + mt.group(1)[::-1] + b'"', version_a, count=rng.randint(1, 5))
    return f"{len(version_a)}\n".encode() + version_a + version_b


@lru_cache(maxsize=1)
def _code() -> str:
    from rulebook.cache import code_version

    return code_version()


def _build_cache(folder: Path) -> BuildCache:
    """A build's cache writing to ``folder``, as ``translate_book(cache=folder)`` makes it, with the
    digest of the package's code made once per process, not once per build: it hashes every
    module (a third of an input's time) and the code does not change during a campaign."""
    from rulebook.cache import BuildCache

    return BuildCache(folder, _code=_code())


@lru_cache(maxsize=4)
def _uncached(version_a: bytes) -> TranslatedBook:
    """What a build without a cache shows of ``version_a``: the oracle. A function of A's bytes
    alone (the rest of the project is the template's), so made once per A, in the same project
    (a book remembers its file's path), and not timed: every input of the generator has the same A."""
    from rulebook.i18n import translate
    from rulebook.loader import load_book

    project = _project("concurrent")
    (project / "locales" / "en" / "LC_MESSAGES" / "demo.po").write_bytes(version_a)
    try:
        return translate.translate_book(load_book(project / "rules" / "demo.yaml"), "en", project / "locales", cache=None)
    finally:
        restore(project)


def run_concurrent(data: bytes) -> str:
    """Build with a cache while B replaces A between the read and the parse; A back, the cached
    build must show exactly what a build without a cache shows: A's translations."""
    from rulebook.i18n import translate
    from rulebook.loader import load_book

    (size,), payload = _split(data)
    version_a, version_b = payload[:int(size)], payload[int(size):]
    project = _project("concurrent")
    path = project / "locales" / "en" / "LC_MESSAGES" / "demo.po"
    cache = project / ".cache"
    with oracle():
        fresh = _uncached(version_a)
    try:
        path.write_bytes(version_a)
        book = load_book(project / "rules" / "demo.yaml")
        parse = translate.read_catalog

        def saved_meanwhile(*args, **kwargs):
            path.write_bytes(version_b)
            return parse(*args, **kwargs)

        translate.read_catalog = saved_meanwhile
        try:
            translate.translate_book(book, "en", project / "locales", cache=_build_cache(cache))
        finally:
            translate.read_catalog = parse
        path.write_bytes(version_a)
        cached = translate.translate_book(book, "en", project / "locales", cache=_build_cache(cache))  # a new build's: the folder's
    finally:
        with oracle():
            restore(project)
    if cached.book != fresh.book:
        raise Bad("a catalog edited during a build left the cache publishing the other version")
    if version_a == translated_po():  # the generator's A: translated throughout, so a real comparison
        if fresh.problems or fresh.fallback:
            raise Bad(f"the translated demo catalog did not translate cleanly: {[str(p) for p in fresh.problems]}")
        return "clean"
    return "error" if fresh.problems else "clean"


TARGETS.update(merge=(make_merge, run_merge), special=(make_special, run_special), concurrent=(make_concurrent, run_concurrent))
