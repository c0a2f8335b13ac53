"""The translations: catalogs up to date with the rulebooks, nothing a translation broke
(symbols, cross-references, numbers, markup), and every text translated into every language.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rulebook.cli import main

PROJECT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def in_the_project(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(PROJECT)  # the commands read mkdocs.yml, rules/ and locales/ from here


def test_the_catalogs_are_up_to_date(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["i18n", "update", "--check"]) == 0, capsys.readouterr().out + "\nrun: rulebook i18n update"


def test_no_translation_breaks_what_it_must_keep(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["i18n", "check"]) == 0, capsys.readouterr().out


def test_every_text_is_translated(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["i18n", "stats", "--fail-under", "100"]) == 0, capsys.readouterr().out
