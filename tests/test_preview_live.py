"""``rulebook serve`` for real: a server in its own process, files saved under it, pages asked for.

A saved catalog, a saved engine and a broken book must each reach the page a translator or an
author has open; a rebuild that fails leaves MkDocs' server holding every request until the
next one that passes, so each test waits for an answer with a deadline.
"""

from __future__ import annotations

import contextlib
import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Callable, Iterator

import pytest

from rulebook.cli import main

from .test_site_build import RUSSIAN, make_project
from .test_site_languages import translate_po

pytestmark = pytest.mark.slow

DEADLINE = 60.0  # seconds for one rebuild to be served (a rebuild of these small sites takes 1-3 s)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def serving(config: Path, *args: str, env: dict[str, str] | None = None) -> Iterator[str]:
    """``rulebook serve`` on ``config`` in a process of its own; its address, stopped on leaving."""
    port = _free_port()
    log = config.parent / "serve.log"
    with log.open("wb") as out:
        process = subprocess.Popen([sys.executable, "-m", "rulebook.cli", "serve", "-f", str(config), "-a", f"127.0.0.1:{port}", *args],
                                   cwd=config.parent, stdout=out, stderr=subprocess.STDOUT, env={**os.environ, **(env or {})})
        try:
            yield f"http://127.0.0.1:{port}/"
        finally:
            process.terminate()
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def fetch(url: str) -> str | None:
    """The page, or None while the server is not answering (starting, rebuilding, or stuck)."""
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.read().decode("utf-8")
    except (urllib.error.URLError, ConnectionError, TimeoutError, socket.timeout):
        return None


def wait_for(url: str, seen: Callable[[str], bool], config: Path) -> str:
    """The page once ``seen`` holds for it; fails with the server's log after DEADLINE."""
    until = time.monotonic() + DEADLINE
    while time.monotonic() < until:
        page = fetch(url)
        if page is not None and seen(page):
            return page
        time.sleep(0.3)
    raise AssertionError(f"{url}: not seen within {DEADLINE} s; the server said:\n"
                         + (config.parent / "serve.log").read_text(encoding="utf-8", errors="replace")[-4000:])


def test_a_translators_preview_shows_every_saved_catalog(tmp_path: Path) -> None:
    config = make_project(tmp_path)
    catalog = tmp_path / "locales" / "ru" / "LC_MESSAGES" / "demo.po"
    with serving(config, "-l", "ru") as address:
        url = address + "base/ru/demo/"  # under site_url's path, as MkDocs serves it
        wait_for(url, lambda page: RUSSIAN["demo/pesca:title"] in page, config)
        # Three saves, three rebuilds: each one's words on the page (the first rebuild used to
        # abort on the plugins' override, and every later request hung).
        for title in ("Взять карту сейчас", "Взять карту снова", "Взять карту опять"):
            time.sleep(1.1)  # a later modification time than the last build saw, on any file system
            translate_po(catalog, {("demo/pesca:title", "Pescare"): title})
            wait_for(url, lambda page: title in page, config)


def test_an_edited_engine_is_imported_again_and_its_words_reach_the_page(tmp_path: Path) -> None:
    """The author of a project's engine edits a message of it while `rulebook serve` runs: the
    rebuild imports the engine again, runs the examples again and shows the new words."""
    project = tmp_path / "pig"
    assert main(["new", str(project), "-l", "it"]) == 0
    book = project / "rules" / "pig.yaml"
    # The module's path (docs/new-game.md: works without installing the project).
    book.write_text(book.read_text(encoding="utf-8").replace("engine: pig", "engine: pig.engine"), encoding="utf-8")
    engine = project / "src" / "pig" / "engine.py"
    config = project / "mkdocs.yml"
    with serving(config, "-l", "it", env={"PYTHONPATH": str(project / "src")}) as address:
        url = address + "pig/"
        wait_for(url, lambda page: "player 0 rolls the die" in page, config)
        time.sleep(1.1)
        engine.write_text(engine.read_text(encoding="utf-8").replace('"player {player} rolls the die"', '"player {player} throws the die"'),
                          encoding="utf-8")
        page = wait_for(url, lambda page: "player 0 throws the die" in page, config)
        assert "player 0 rolls the die" not in page


def test_while_a_rulebook_cannot_be_loaded_the_page_says_where_and_what_to_do(tmp_path: Path) -> None:
    config = make_project(tmp_path)
    demo = tmp_path / "rules" / "demo.yaml"
    good = demo.read_text(encoding="utf-8")
    with serving(config, "-l", "ru") as address:
        url = address + "base/ru/demo/"
        wait_for(url, lambda page: RUSSIAN["demo/pesca:title"] in page, config)
        time.sleep(1.1)
        demo.write_text(good.replace("      - id: pesca\n", "        - id: pesca\n"), encoding="utf-8")  # one indentation too deep
        page = wait_for(url, lambda page: "rules/demo.yaml:" in page, config)
        assert re.search(r"rules/demo\.yaml:\d+:\d+: ", page) and "save" in page
        assert wait_for(address + "base/", lambda page: "rules/demo.yaml:" in page, config)  # every page says it
        time.sleep(1.1)
        demo.write_text(good, encoding="utf-8")
        wait_for(url, lambda page: RUSSIAN["demo/pesca:title"] in page, config)
