"""Every input position of every command, given a FIFO, a link to /dev/zero or an oversized file:
a clear message naming the file (or, where the command does not read it, nothing at all),
never a hang, an unbounded read or a traceback.

A translator's pull request can carry such a file. Each command runs in a forked child of
:mod:`tests.sandbox` with a time and a memory limit, so a command that blocks on a FIFO or reads
/dev/zero without end fails the test instead of stopping the run.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rulebook.limits import MAX_FILE_BYTES
from tests.small_site import FILES, make_small_site

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[1]

POSITIONS = FILES

COMMANDS = {
    "check": ["rulebook", "check"],
    "i18n check": ["rulebook", "i18n", "check"],
    "i18n stats": ["rulebook", "i18n", "stats"],
    "i18n update": ["rulebook", "i18n", "update"],
    "i18n compile": ["rulebook", "i18n", "compile"],
    "build": ["mkdocs", "build", "--strict"],
}

#: The commands that read each file and must refuse it by name. The others do not read it (the
#: examples' check reads no catalog) or leave it to the command that judges it (i18n check
#: reports catalogs, not rulebooks; update makes the template anew); they must still neither
#: hang nor fail with a traceback.
JUDGES = {
    "rules": {"check", "i18n stats", "i18n update", "build"},
    "catalog": {"i18n check", "i18n stats", "i18n update", "i18n compile", "build"},
    "template": {"i18n check"},
    "glossary": {"i18n check", "build"},
    "mkdocs.yml": {"i18n check", "i18n stats", "i18n update", "i18n compile"},
}
#: MkDocs reads mkdocs.yml itself, before any plugin: its reader, not rulebook's (a FIFO there
#: blocks `mkdocs build` in MkDocs' own code).
NOT_OURS = {("mkdocs.yml", "build")}


def _fifo(path: Path) -> None:
    os.mkfifo(path)


def _zero(path: Path) -> None:
    path.symlink_to("/dev/zero")


def _oversized(path: Path) -> None:
    path.write_bytes(b"a" * (MAX_FILE_BYTES + 1))


KINDS = {"FIFO": _fifo, "/dev/zero": _zero, "oversized": _oversized}


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_small_site(tmp_path_factory.mktemp("walk"))


@pytest.fixture(scope="module")
def sandbox():
    server = subprocess.Popen([sys.executable, "-m", "tests.sandbox"], cwd=REPO, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})

    def run(cwd: Path, argv: list[str]) -> dict:
        server.stdin.write(json.dumps({"cwd": str(cwd), "argv": argv, "timeout": 60}) + "\n")
        server.stdin.flush()
        answer = server.stdout.readline()
        assert answer, "the sandbox died"
        return json.loads(answer)

    yield run
    server.stdin.close()
    server.wait(timeout=30)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("position", POSITIONS)
def test_a_special_file_in_any_position_is_refused_by_name_never_waited_on(project, sandbox, tmp_path, position, kind):
    root = tmp_path / "project"
    shutil.copytree(project, root, symlinks=True)
    path = root / POSITIONS[position]
    path.unlink()
    KINDS[kind](path)
    failures = []
    for name, argv in COMMANDS.items():
        if (position, name) in NOT_OURS:
            continue
        found = sandbox(root, argv)
        output = found["output"]
        if found["hung"]:
            failures.append(f"{name}: still running after 60 s (killed)")
        elif "Traceback" in output or found["code"] not in (0, 1, 2):
            failures.append(f"{name}: exit {found['code']}\n{output[-2000:]}")
        elif name in JUDGES[position] and not (found["code"] != 0 and POSITIONS[position] in output and
                                               any(why in output for why in ("not a regular file", "larger than the limit", "outside the project"))):
            failures.append(f"{name}: exit {found['code']}, no message naming {POSITIONS[position]}:\n{output[-2000:]}")
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("kind", [*KINDS, "a loop"])
def test_a_special_file_inherited_by_mkdocs_yml_is_refused_by_name(project, sandbox, tmp_path, kind):
    """`INHERIT: base.yml` is opened by the generator's own reader: rulebook's commands read the
    chain through theirs first, so a FIFO there is refused, not waited on, and a chain that comes
    back to itself is a message instead of Python's recursion limit."""
    root = tmp_path / "project"
    shutil.copytree(project, root, symlinks=True)
    config = root / "mkdocs.yml"
    config.write_bytes(b"INHERIT: base.yml\n" + config.read_bytes())
    if kind == "a loop":
        (root / "base.yml").write_text("INHERIT: mkdocs.yml\n", encoding="utf-8")
    else:
        KINDS[kind](root / "base.yml")
    failures = []
    for name in JUDGES["mkdocs.yml"]:
        found = sandbox(root, COMMANDS[name])
        output = found["output"]
        refused = "comes back to a file already inherited" if kind == "a loop" else "base.yml"
        if found["hung"] or "Traceback" in output or found["code"] not in (1, 2) or refused not in output:
            failures.append(f"{name}: exit {found['code']}, hung {found['hung']}:\n{output[-2000:]}")
    assert not failures, "\n".join(failures)
