"""Strict means strict: a strict build fails on every problem the plugin reports, however quiet
its log, from the command line and through the Python API, under whichever generator is
installed (MkDocs here; .ci/run runs this module again where properdocs is the one installed).

MkDocs counts for --strict only the warnings its log level lets through (none with -q), and only
on its own logger; these builds fail because the plugin counts its problems itself.
"""

from __future__ import annotations

import logging
import re
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from rulebook.adapters import generator

# What properdocs' own command does first (Material's plugins import mkdocs.*), as a script must.
generator.as_its_command()

from tests.test_site_build import DEMO, RUSSIAN, make_project

build = generator.module("commands.build").build

BAD_TRANSLATION = {**RUSSIAN, "demo:summary": "<script>alert(1)</script> {W} {hearts}"}
PO = r"ru/LC_MESSAGES/demo\.po:\d+:1: "

#: (what is wrong, how the project is made, what the error must name)
CASES = {
    "bad translation": (dict(russian=BAD_TRANSLATION, check_examples=False), PO + r"demo:summary: \[html\]"),
    "unreadable catalog": (dict(check_examples=False), PO + "not a valid PO file"),
    "failing example": (dict(demo=DEMO.replace("              4\n", "              5\n")), r"worked example failed"),
    # Once ended the build with status 0, no output and no site (issue 30.3).
    "example that exits": (dict(demo=DEMO.replace(">>> 2 + 2\n              4\n", ">>> import os; os._exit(0)\n")),
                           r"rules/demo\.yaml:\d+: >>> import os; os\._exit\(0\)"),
}


def project(tmp_path: Path, case: str) -> Path:
    options, _ = CASES[case]
    config = make_project(tmp_path, languages=["it", "ru"], **options)
    if case == "unreadable catalog":
        po = tmp_path / "locales" / "ru" / "LC_MESSAGES" / "demo.po"
        po.write_text(po.read_text(encoding="utf-8").replace('msgstr "Пробная', 'msgstri "Пробная'), encoding="utf-8")
    return config


@pytest.fixture
def quiet():
    """The generator's log at ERROR, as -q sets it: its warnings are dropped before anything counts them."""
    logger = logging.getLogger(generator.NAME)
    level = logger.level
    logger.setLevel(logging.ERROR)
    yield
    logger.setLevel(level)


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES)
def test_a_quiet_strict_build_through_the_python_api_fails(tmp_path, caplog, quiet, case):
    config = generator.load_config(str(project(tmp_path, case)), strict=True)
    with pytest.raises(generator.Abort):
        build(config)
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert any(re.search(CASES[case][1], e) for e in errors), errors


@pytest.mark.slow
def test_the_same_build_without_strict_publishes_the_site(tmp_path, quiet):
    config = generator.load_config(str(project(tmp_path, "bad translation")), strict=False)
    build(config)
    assert (Path(config.site_dir) / "ru" / "demo" / "index.html").exists()


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES)
def test_a_quiet_strict_build_from_the_command_line_fails_naming_the_problem(tmp_path, case):
    run = subprocess.run([sys.executable, "-m", generator.NAME, "build", "--strict", "-q", "-f", str(project(tmp_path, case))],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode != 0, run.stderr
    assert re.search(CASES[case][1], run.stderr), run.stderr
    assert "strict mode" in run.stderr


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.mark.slow
@pytest.mark.parametrize("command", ["generator", "rulebook"])
def test_the_site_is_served(tmp_path, command):
    config = make_project(tmp_path, languages=["it", "ru"], check_examples=False, site_url="http://127.0.0.1/")
    port = _free_port()
    serve = ([sys.executable, "-m", generator.NAME, "serve", "--no-livereload"] if command == "generator"
             else [sys.executable, "-m", "rulebook.cli", "serve", "-l", "ru"])
    server = subprocess.Popen([*serve, "-a", f"127.0.0.1:{port}", "-f", str(config)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/ru/demo/", timeout=5) as response:
                    html = response.read().decode("utf-8")
                break
            except OSError:
                assert server.poll() is None, server.stderr.read()
                assert time.monotonic() < deadline, "the site was not served within 120 s"
                time.sleep(0.5)
        assert "Белая мана" in html
    finally:
        server.terminate()
        server.wait(timeout=30)


@pytest.mark.slow
def test_a_broken_book_is_a_failed_book_not_a_failed_site(tmp_path):
    """Without --strict the other books are published and the broken one's address, in every
    language, says what to fix; --strict still fails on it."""
    config_file = make_project(tmp_path, languages=["it", "ru"], check_examples=False)
    # A third book, broken: the other two (which link each other) must not care.
    (tmp_path / "rules" / "rotto.yaml").write_text("book:\n  id: rotto\n  title: [Rotto\n", encoding="utf-8")
    config = generator.load_config(str(config_file), strict=False)
    build(config)
    site = Path(config.site_dir)
    assert "Пробная" in (site / "ru" / "demo" / "index.html").read_text(encoding="utf-8")
    assert (site / "altro" / "index.html").exists()
    for prefix in ("", "ru/"):
        page = (site / prefix / "rotto" / "index.html").read_text(encoding="utf-8")
        assert re.search(r"rotto\.yaml:\d+:\d+: ", page), page[-2000:]
    assert "Этот свод правил" in (site / "ru" / "rotto" / "index.html").read_text(encoding="utf-8"), "the page speaks the reader's language"
    with pytest.raises(generator.Abort):
        build(generator.load_config(str(config_file), strict=True))
