"""Shared fixtures: small rulebook files written on the fly, and pytester for plugin tests."""

from __future__ import annotations

import os
import textwrap
from pathlib import Path

import pytest
from hypothesis import settings

from .chromium import CHROMIUM

pytest_plugins = ["pytester"]

# CI is the gate for landing: the same examples every run, so it never fails at random. Local
# runs keep exploring new examples (that is how they find new bugs). Neither has a timing
# deadline: no test here is a timed test, and on a busy machine a 200 ms deadline failed a
# correct parse.
settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
settings.register_profile("explore", deadline=None, print_blob=True)
settings.load_profile("ci" if os.environ.get("CI") else "explore")

REPO = Path(__file__).resolve().parent.parent


def site_languages() -> tuple[str, ...]:
    """The languages of our site as mkdocs.yml lists them, the source first: a test follows the
    configuration, never a list of its own, so adding a language by docs/new-language.md keeps
    every test true."""
    from rulebook.project import read_project

    return read_project(REPO / "mkdocs.yml").languages.codes


def unpublished_language() -> str:
    """A language our site does not publish and the toolkit ships no words for (the site's, the
    sample project's), for a test that
    adds one: German today, another once German is translated (each of these has two plural
    forms and a search stemmer in Material, as the tests that add one expect)."""
    from rulebook.i18n.domains import SITE
    from rulebook.scaffold import SAMPLE_ENGINE, SCAFFOLD

    taken = {*site_languages(), *SITE.languages(), *SCAFFOLD.languages(), *SAMPLE_ENGINE.languages()}
    return next(code for code in ("de", "nl", "sv", "da", "no", "fi", "hu") if code not in taken)


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """``-n auto``: one worker per core, and one more where Chromium runs the browser tests. The
    worker running them spends most of their ~25 s waiting for a page Chromium is loading or for
    the network to settle, and the CPU Chromium uses there is not that worker's: a worker more
    keeps both cores busy meanwhile (measured on 2 cores, back to back: 46.9 and 48.9 s with two
    workers, 46.1 and 46.4 s with three; before the browser tests got cheaper, 64.8 and 60.7 s)."""
    from rulebook.pool import cores

    return cores() + 1 if Path(CHROMIUM).exists() else None


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests marked slow first, each module's in its order: pytest-xdist hands each worker a
    contiguous share and an idle worker takes the end of the other's, so the quick tests fill
    the gaps and the run does not end on one worker running a long test alone. First of all the
    modules slow as a whole (a browser, a printed site): their module fixtures are built by the
    worker that starts them, and the tests that share them stay in one piece, far from the end
    an idle worker takes."""

    def rank(item: pytest.Item) -> int:
        module = item.getparent(pytest.Module)  # None for a rulebook's examples (rules/*.yaml)
        if module is not None and module.get_closest_marker("slow"):
            return 0
        return 1 if item.get_closest_marker("slow") else 2

    items.sort(key=rank)  # stable: each module's tests stay in their order


@pytest.fixture
def write_rules(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """Write ``rules/NAME.yaml`` under a temporary working directory and return its path."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "rules").mkdir()

    def write(text: str | bytes, name: str = "demo") -> Path:
        path = tmp_path / "rules" / f"{name}.yaml"
        if isinstance(text, bytes):
            path.write_bytes(text)
        else:
            path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
        return path

    return write


def demo_book(sections: str, *, book_id: str = "demo", title: str = "Demo", summary: str = "Un libro di prova.",
              engine: str = "bingomagic") -> str:
    """A small rulebook for the tests: the one header they all share, then their own sections
    (YAML text starting at ``sections:``). Line numbers are those of a file written this way."""
    return f"""
book:
  id: {book_id}
  title: {title}
  summary: {summary}
  language: it
  engine: {engine}
{sections.lstrip(chr(10))}"""


MINIMAL = demo_book("""
sections:
  - id: primo
    title: Primo
    rules:
      - id: r1
        text: Vedi [[r2]].
        examples:
          - id: e1
            text: Un mazzo.
            doctest: |
              >>> len(standard_deck())
              60
      - id: r2
        text: Due {W}.
""", summary="Un libro minimo.")


def check_trace(step) -> None:  # noqa: ANN001 - a Step of any engine
    """Every change an engine reports names a rule and says what happened, in words: a message
    the site can translate (rulebook.messages), never a bare English string."""
    from rulebook.messages import Message

    for fired in step.trace:
        assert isinstance(fired.rule, str) and fired.rule, fired
        assert isinstance(fired.what, Message) and fired.what.strip(), fired


@pytest.fixture(scope="session")
def our_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The repository's own site (every book of rules/, every language of mkdocs.yml), built once
    a session with a strict build into a temporary folder, its build cache there too (a test
    neither reads nor leaves the repository's .cache)."""
    import yaml

    from rulebook.adapters import generator

    root = tmp_path_factory.mktemp("our-site")
    config = generator.module("utils.yaml").yaml_load((REPO / "mkdocs.yml").read_text(encoding="utf-8"))
    config["docs_dir"] = str(REPO / config.get("docs_dir", "docs"))
    config["site_dir"] = str(root / "site")
    config["theme"]["custom_dir"] = str(REPO / config["theme"]["custom_dir"])
    for plugin in config["plugins"]:
        if isinstance(plugin, dict) and "rulebook" in plugin:
            options = plugin["rulebook"]
            options.update(rules=str(REPO / options.get("rules", "rules")), locales=str(REPO / options.get("locales", "locales")),
                           cache_dir=str(root / "cache"), pdf=False)
    path = root / "mkdocs.yml"
    path.write_text(yaml.safe_dump(config, allow_unicode=True), encoding="utf-8")
    built = generator.load_config(str(path), strict=True)
    generator.module("commands.build").build(built)
    return Path(built.site_dir)
