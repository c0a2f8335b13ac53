"""What rulebook writes: readable as the user's other files, whole or not at all, and a write
that cannot be made is a message naming the file and what to do, never a traceback."""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

import pytest

from rulebook import writing
from rulebook.cli import main
from rulebook.errors import RulebookError
from rulebook.i18n import translate
from rulebook.loader import load_book
from rulebook.writing import write_atomic
from tests.conftest import MINIMAL


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture
def umask():
    """Set the process's umask for the test (restored after)."""
    before = os.umask(0o022)
    os.umask(before)

    def set_to(value: int) -> None:
        os.umask(value)

    yield set_to
    os.umask(before)


@pytest.mark.parametrize("mask", [0o022, 0o002, 0o077])
def test_every_file_written_has_the_mode_the_umask_gives(write_rules, tmp_path, umask, mask, capsys):
    write_rules(MINIMAL)
    umask(mask)
    assert main(["i18n", "update", "-l", "en"]) == 0
    assert main(["i18n", "compile", "-l", "en"]) == 0
    written = [tmp_path / "locales" / "templates" / "demo.pot", *(tmp_path / "locales" / "en" / "LC_MESSAGES").glob("demo.*")]
    cache = tmp_path / "cache"
    translate.translate_book(load_book("rules/demo.yaml"), "en", Path("locales"), cache=cache)
    written += list(cache.rglob("*.json"))
    assert len(written) == 4  # a template, a catalog, its .mo, the translation the cache keeps
    assert {path.name: oct(mode(path)) for path in written} == {path.name: oct(0o666 & ~mask) for path in written}


def test_a_file_rewritten_keeps_its_mode(tmp_path, umask):
    umask(0o022)
    target = tmp_path / "en.po"
    target.write_bytes(b"old\n")
    target.chmod(0o640)
    assert write_atomic(target, b"new\n") and target.read_bytes() == b"new\n"
    assert mode(target) == 0o640


def test_a_link_in_the_project_stays_a_link(tmp_path):
    real = tmp_path / "shared" / "demo.po"
    real.parent.mkdir()
    real.write_bytes(b"old\n")
    link = tmp_path / "demo.po"
    link.symlink_to(Path("shared") / "demo.po")
    assert write_atomic(link, b"new\n")
    assert link.is_symlink() and real.read_bytes() == b"new\n"


def test_the_temporary_files_of_a_killed_update_are_removed_by_the_next(write_rules, tmp_path, capsys):
    write_rules(MINIMAL)
    assert main(["i18n", "update", "-l", "en"]) == 0
    catalogs, templates = tmp_path / "locales" / "en" / "LC_MESSAGES", tmp_path / "locales" / "templates"
    # What os.replace never got to: the temporary files of a run killed while it wrote.
    left = [catalogs / ".demo.po.k2x9q1ab.tmp", templates / ".demo.pot.u7b_03ee.tmp"]
    for path in left:
        path.write_bytes(b"half a catalog")
    others = [catalogs / ".notes.tmp", catalogs / "demo.po.bak"]  # not ours: kept
    for path in others:
        path.write_bytes(b"a translator's")
    assert main(["i18n", "update", "-l", "en"]) == 0  # nothing to change: the leftovers go all the same
    assert [path.exists() for path in left] == [False, False]
    assert [path.exists() for path in others] == [True, True]


@pytest.mark.parametrize(("code", "advice"), [
    (errno.ENOSPC, "free some space on the disk, then run the command again"),
    (errno.EROFS, "the file system is read-only: run the command where the project may be written"),
    (errno.EACCES, "make the folder and the file writable for you (chmod u+w), then run the command again"),
])
def test_a_write_that_fails_is_a_message_and_leaves_the_file_as_it_was(write_rules, tmp_path, monkeypatch, capsys, code, advice):
    write_rules(MINIMAL)
    assert main(["i18n", "update", "-l", "en"]) == 0
    catalog = tmp_path / "locales" / "en" / "LC_MESSAGES" / "demo.po"
    before = catalog.read_bytes()
    write_rules(MINIMAL.replace("Un mazzo.", "Un mazzo nuovo."))  # the catalog is to be rewritten
    capsys.readouterr()
    opened = os.open

    def failing(path, flags, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003, ANN202 - os.open's
        if str(path).endswith(".tmp") and flags & os.O_CREAT:
            raise OSError(code, os.strerror(code), str(path))
        return opened(path, flags, *args, **kwargs)

    monkeypatch.setattr(writing.os, "open", failing)
    assert main(["i18n", "update", "-l", "en"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("rulebook: cannot write locales/") and f"{os.strerror(code)}; {advice} (the file is as it was)" in err, err
    assert "Traceback" not in err and catalog.read_bytes() == before
    assert not list(tmp_path.rglob("*.tmp"))


def test_a_full_disk_while_writing_leaves_no_temporary_file(tmp_path, monkeypatch):
    target = tmp_path / "en.po"
    target.write_bytes(b"old\n")

    def full(descriptor):  # noqa: ANN001, ANN202 - os.fsync's: where a full disk shows at the latest
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(RulebookError, match=f"cannot write {target}: No space left on device; free some space"):
        write_atomic(target, b"new\n" * 100_000)
    monkeypatch.undo()
    assert target.read_bytes() == b"old\n" and [p.name for p in tmp_path.iterdir()] == ["en.po"]


@pytest.mark.parametrize(("data", "said"), [
    (b"site_name: caf\xe9\n", "mkdocs.yml:1: byte 0xe9 is not UTF-8; save the file as UTF-8"),
    (b"site_name: x\nplugins:\n  - rulebook\x00\n", "mkdocs.yml:3: character 0x0000 is not allowed in YAML; delete it"),
    (b"site_name: [x\n", "mkdocs.yml:2:1: not valid YAML"),
])
def test_an_mkdocs_yml_rulebook_cannot_read_is_a_message(write_rules, tmp_path, capsys, data, said):
    write_rules(MINIMAL)
    (tmp_path / "mkdocs.yml").write_bytes(data)
    for command in (["i18n", "check"], ["i18n", "update"], ["i18n", "stats"], ["i18n", "compile"]):
        assert main(command) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"rulebook: {said}") and "Traceback" not in err, err


def test_a_new_project_that_cannot_be_written_is_a_message(tmp_path, monkeypatch, capsys):
    opened = os.open

    def read_only(path, flags, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003, ANN202 - os.open's
        if str(path).endswith(".tmp") and flags & os.O_CREAT:
            raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(path))
        return opened(path, flags, *args, **kwargs)

    monkeypatch.setattr(writing.os, "open", read_only)
    assert main(["new", str(tmp_path / "game")]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"rulebook: cannot write {tmp_path / 'game'}/") and "Read-only file system; the file system is read-only" in err, err


def test_an_update_killed_while_it_writes_loses_nothing_and_the_next_clears_up(write_rules, tmp_path, capsys):
    """A real kill (SIGKILL, no cleanup runs) between the temporary file written and its rename."""
    write_rules(MINIMAL)
    assert main(["i18n", "update", "-l", "en"]) == 0
    catalog = tmp_path / "locales" / "en" / "LC_MESSAGES" / "demo.po"
    before = catalog.read_bytes()
    write_rules(MINIMAL.replace("Un mazzo.", "Un mazzo nuovo."))  # the catalog is to be rewritten
    pid = os.fork()
    if pid == 0:  # the update, killed where os.replace would put the new catalog in place
        writing.os.replace = lambda *args: os.kill(os.getpid(), 9)
        main(["i18n", "update", "-l", "en"])
        os._exit(0)  # not reached
    _, status = os.waitpid(pid, 0)
    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == 9
    assert catalog.read_bytes() == before  # the old catalog whole
    assert list(tmp_path.rglob(".*.tmp"))  # and what the kill left
    capsys.readouterr()
    assert main(["i18n", "update", "-l", "en"]) == 0
    assert not list(tmp_path.rglob(".*.tmp")) and b"Un mazzo nuovo." in catalog.read_bytes()


def test_the_temporary_files_a_killed_build_left_in_its_cache_are_removed(write_rules, tmp_path, monkeypatch):
    """A build killed while it wrote its cache left `.BOOK.LANG.json.XXXX.tmp` files that nothing
    removed; the next build removes those older than a live write can be (another build may be
    writing the same cache right now: its fresh temporary file stays)."""
    from rulebook.loader import load_book

    book = load_book(write_rules(MINIMAL))
    assert main(["i18n", "update", "-l", "en"]) == 0
    folder = tmp_path / "cache" / "translations"
    folder.mkdir(parents=True)
    old, fresh, other = folder / ".demo.en.json.k2x9q1ab.tmp", folder / ".demo.en.json.u7b03eef.tmp", folder / "notes.txt"
    for path in (old, fresh, other):
        path.write_bytes(b"half")
    hour_ago = old.stat().st_mtime - 3600
    os.utime(old, (hour_ago, hour_ago))
    translate.translate_book(book, "en", tmp_path / "locales", cache=tmp_path / "cache")
    assert [path.exists() for path in (old, fresh, other)] == [False, True, True]


def test_a_cache_file_is_not_synced_a_users_file_is(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    synced: list[int] = []
    real = os.fsync
    monkeypatch.setattr(os, "fsync", lambda descriptor: (synced.append(descriptor), real(descriptor))[1])
    assert write_atomic(tmp_path / "en.po", b"msgid \"\"\n")
    assert len(synced) == 1  # a catalog: on the disk before it replaces the old one
    assert write_atomic(tmp_path / "cache.json", b"{}", kept=True)
    assert len(synced) == 1 and (tmp_path / "cache.json").read_bytes() == b"{}"
    assert not write_atomic(tmp_path / "en.po", b"msgid \"\"\n")  # the same bytes: not written
    assert len(synced) == 1
