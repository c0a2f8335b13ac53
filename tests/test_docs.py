"""The README and the guides say what is true: the commands CI runs, links that lead somewhere,
and the walk-through of docs/new-game.md working with the engine skeleton of docs/engines.md."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from rulebook.engines import load_engine
from rulebook.examples import run_books
from rulebook.loader import load_book

REPO = Path(__file__).resolve().parent.parent
GUIDES = sorted((REPO / "docs").glob("*.md"))
PAGES = [REPO / "README.md", *GUIDES, REPO / "examples" / "sevens" / "README.md"]


def code_blocks(path: Path, kind: str) -> list[str]:
    return re.findall(rf"```{kind}\n(.*?)```", path.read_text(encoding="utf-8"), re.S)


def commands(block: str) -> list[str]:
    return [line for line in block.splitlines() if line.strip() and not line.lstrip().startswith("#")]


def test_the_readme_opens_with_the_site_and_the_test_command_and_ci_runs_the_test_command_last() -> None:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    first = text.index("```sh")
    assert "## " not in text[:first], "the two commands come before any section"
    site, tests = commands(code_blocks(REPO / "README.md", "sh")[0])
    assert site.startswith("python3 -m venv .venv &&") and site.endswith("mkdocs build --strict")
    assert tests.startswith("python3 -m venv .venv &&") and tests.endswith("python -m pytest")
    ci = [line for line in (REPO / ".ci" / "run").read_text(encoding="utf-8").splitlines() if line.strip() and not line.startswith("#")]
    assert ci[-1] == tests, "the README's test command is exactly what CI runs last"
    assert "examples/sevens/.ci/run" in ci, "CI runs the example project's own checks"


def test_ci_runs_the_linter_and_the_type_checker_before_the_tests() -> None:
    ci = [line for line in (REPO / ".ci" / "run").read_text(encoding="utf-8").splitlines() if line.strip() and not line.startswith("#")]
    lint = [i for i, line in enumerate(ci) if line.startswith((".venv/bin/ruff check", ".venv/bin/mypy"))]
    assert [ci[i].split()[0] for i in lint] == [".venv/bin/ruff", ".venv/bin/mypy"], "ruff and mypy, once each"
    assert ci[lint[0]].split()[-1] == "src" and max(lint) < len(ci) - 1, "on src/, before the README's test command"
    config = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    assert "[tool.ruff.lint]" in config and "[tool.mypy]" in config and "strict = true" in config


def test_the_example_projects_ci_runs_its_three_checks_in_a_fresh_environment() -> None:
    run = (REPO / "examples" / "sevens" / ".ci" / "run").read_text(encoding="utf-8")
    steps = [shlex.split(line) for line in run.splitlines() if line.strip() and not line.startswith(("#", "set ", "cd "))]
    assert steps[0][:4] == ["python3", "-m", "venv", "--clear"]
    locked, install = [step for step in steps if step[0] == ".venv/bin/pip"]
    assert locked == [".venv/bin/pip", "install", "--require-hashes", "-r", "../../.ci/requirements.txt"], "the toolkit's lock, hashes checked"
    assert install[:5] == [".venv/bin/pip", "install", "--no-deps", "--no-build-isolation", "../.."], "the toolkit as a package, not in editable mode"
    assert [s[0] for s in steps[-3:]] == [".venv/bin/rulebook", ".venv/bin/python", ".venv/bin/mkdocs"]
    assert steps[-1][-1] == "--strict" and not list((REPO / "src" / "rulebook").rglob("sevens*"))


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(REPO)))
def test_every_relative_link_leads_to_a_file(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text):
        if "://" not in target:
            assert (page.parent / target).exists(), f"{page.relative_to(REPO)} links to {target}, which does not exist"


def test_the_new_game_walk_through_passes_with_the_engine_skeleton(write_rules, monkeypatch, tmp_path) -> None:
    """docs/new-game.md's rulebook, checked against docs/engines.md's skeleton saved as it says."""
    (skeleton,) = [b for b in code_blocks(REPO / "docs" / "engines.md", "python") if b.lstrip().startswith("import random")]
    package = tmp_path / "house_rules"
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "coins.py").write_text(skeleton, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    (book_text,) = code_blocks(REPO / "docs" / "new-game.md", "yaml")
    (registration,) = code_blocks(REPO / "docs" / "new-game.md", "toml")
    name, module = (part.strip().strip('"') for part in registration.split("="))
    assert load_engine(module).ACTIONS and name == "coins"
    # The registered name stands for the module the registration names.
    book = load_book(write_rules(book_text.replace(f"engine: {name} ", f"engine: {module} "), name="coins"))
    outcomes = run_books([book])
    assert outcomes and all(o.passed for o in outcomes), "\n".join(o.report() for o in outcomes if not o.passed)
    assert {rule.id for rule in book.rules()} >= {"lancio", "testa", "croce", "vittoria"}


def test_the_readme_names_the_versions_the_lock_installs() -> None:
    """"Tested with …" is a promise about .ci/requirements.txt: it follows every refresh of the lock."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    flat = " ".join(readme.split())
    said = flat[flat.index("from the lock:"):flat.index("`.ci/bounds lowest`")]
    named = dict(re.findall(r"([A-Za-z][\w-]*) (\d+(?:\.\d+)+)", said))
    locked = dict(re.findall(r"^([A-Za-z][\w.-]*)==([^\s;]+)", (REPO / ".ci" / "requirements.txt").read_text(encoding="utf-8"), re.M))
    locked = {name.lower(): v for name, v in locked.items()}
    assert len(named) >= 5, said
    for name, number in named.items():
        assert locked.get(name.lower()) == number, f"README says {name} {number}, the lock has {locked.get(name.lower())}: update the README"


def test_the_guides_quote_the_readmes_first_command_as_it_is():
    """A guide that sends its reader to the README's first command shows that very command (they
    showed an older one, without the lock)."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    first = next(line for line in readme.splitlines() if line.startswith("python3 -m venv"))
    for guide in sorted((REPO / "docs").glob("*.md")):
        text = guide.read_text(encoding="utf-8")
        if "README's first command" in text:
            quoted = [line for line in text.splitlines() if line.startswith("python3 -m venv")]
            assert quoted and quoted[0] == first, f"{guide.name}: {quoted[:1]} is not the README's {first!r}"
