"""One verdict, two entry points: `mkdocs build --strict` fails wherever `rulebook i18n check`
fails, on the same project, and both pass on a clean one.

Each case spoils one thing of a small site that both accept; the check must exit 1 and the
strict build must stop. A strict build that published such a site did so silently: every page
in the source language, or no book at all.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Callable

import pytest
from mkdocs.commands.build import build as mkdocs_build
from mkdocs.config import load_config
from mkdocs.exceptions import Abort

from rulebook.cli import main
from rulebook.i18n.domains import SITE
from tests.small_site import make_small_site

pytestmark = pytest.mark.slow

CATALOG = "locales/en/LC_MESSAGES/demo.po"
#: The site's own words in English, as the package ships them (a project may override them).
SITE_WORDS = SITE.catalog("en")


def _edit(path: str, change: Callable[[str], str]) -> Callable[[Path], None]:
    def apply(root: Path) -> None:
        target = root / path
        target.write_text(change(target.read_text(encoding="utf-8")), encoding="utf-8")
    return apply


def _translated(text: str) -> str:
    """The catalog with r2 translated (so a duplicate of it has a translation to lose)."""
    return re.sub(r'(msgctxt "demo/r2:text"\nmsgid "Due \{W\}\."\nmsgstr )""', r'\1"Two {W}."', text)


def _entry_of_r2(text: str) -> str:
    return re.search(r'msgctxt "demo/r2:text"\n.*?\n\n', _translated(text), re.S).group(0)


CASES: dict[str, Callable[[Path], None]] = {
    "an empty catalog": _edit(CATALOG, lambda text: ""),
    "a wrong Language header": _edit(CATALOG, lambda text: text.replace('"Language: en\\n"', '"Language: fr\\n"')),
    "rules: pointing nowhere": _edit("mkdocs.yml", lambda text: text + "      rules: nowhere\n"),
    "locales: pointing nowhere": _edit("mkdocs.yml", lambda text: text + "      locales: nowhere\n"),
    "a duplicate entry": _edit(CATALOG, lambda text: _translated(text) + "\n" + _entry_of_r2(text).replace("Two {W}.", "")),
    "a msgid both live and #~": _edit(CATALOG, lambda text: _translated(text) + "\n" + "".join(
        f"#~ {line}\n" for line in _entry_of_r2(text).splitlines() if line.startswith("msg"))),
    "a site's words catalog with a wrong Language header": lambda root: (root / "locales/en/LC_MESSAGES/site.po").write_text(
        SITE_WORDS.read_text(encoding="utf-8").replace('"Language: en\\n"', '"Language: fr\\n"'), encoding="utf-8"),
    "a translation failing a check": _edit(CATALOG, lambda text: _translated(text).replace("Two {W}.", "Two <b>W</b>.")),
}


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = make_small_site(tmp_path_factory.mktemp("verdicts"))
    _edit(CATALOG, _translated)(root)
    return root


def verdicts(root: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture,
             caplog: pytest.LogCaptureFixture) -> tuple[int, str | None]:
    """(exit code of `rulebook i18n check`, why the strict build stopped or None).

    The plugin stops a strict build itself, at its end, with the problems it counted (the
    build's error log says "N problems in strict mode"); MkDocs then aborts."""
    monkeypatch.chdir(root)
    code = main(["i18n", "check"])
    capsys.readouterr()
    caplog.clear()
    try:
        mkdocs_build(load_config(str(root / "mkdocs.yml"), strict=True))
    except Abort:
        errors = [r.getMessage() for r in caplog.records if r.levelname == "ERROR"]
        return code, next((e for e in errors if "strict mode" in e), "; ".join(errors) or "aborted, saying nothing")
    return code, None


def test_the_clean_site_passes_both(site, tmp_path, monkeypatch, capsys, caplog):
    root = Path(shutil.copytree(site, tmp_path / "site"))
    assert verdicts(root, monkeypatch, capsys, caplog) == (0, None)
    assert "Two" in (root / "site" / "en" / "demo" / "index.html").read_text(encoding="utf-8")


@pytest.mark.parametrize("case", CASES)
def test_what_the_check_refuses_stops_the_strict_build(site, tmp_path, monkeypatch, capsys, caplog, case):
    root = Path(shutil.copytree(site, tmp_path / "site"))
    CASES[case](root)
    code, stopped = verdicts(root, monkeypatch, capsys, caplog)
    assert code == 1, f"rulebook i18n check passes {case}"
    assert stopped is not None and "strict" in stopped, f"the strict build publishes {case}"
