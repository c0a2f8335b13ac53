"""What people who depend on rulebook rely on: every dependency bounded to the major version we
test, and the versions installed here (the ones the suite runs with) inside those bounds."""

from __future__ import annotations

import ast
import sys
import tomllib
from importlib.metadata import PackageNotFoundError, packages_distributions, version
from pathlib import Path

import pytest
from packaging.requirements import Requirement

REPO = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
REQUIREMENTS = [("dependencies", r) for r in PROJECT["dependencies"]] + [
    (extra, r) for extra, listed in PROJECT["optional-dependencies"].items() for r in listed]


@pytest.mark.parametrize(("where", "text"), REQUIREMENTS, ids=[f"{w}:{t}" for w, t in REQUIREMENTS])
def test_every_dependency_has_an_upper_bound_the_tested_version_satisfies(where: str, text: str) -> None:
    requirement = Requirement(text)
    uppers = [spec for spec in requirement.specifier if spec.operator in ("<", "<=", "~=", "==")]
    assert uppers, f"{where}: {text} has no upper bound: add <NEXT_MAJOR"
    try:
        installed = version(requirement.name)
    except PackageNotFoundError:
        return  # an extra this environment does not install (bench, mutation): its bound is still checked above
    assert requirement.specifier.contains(installed, prereleases=True), f"{text}, but {installed} is what we test"


def test_mkdocs_and_material_stay_below_their_next_majors() -> None:
    wanted = {Requirement(r).name.lower(): Requirement(r).specifier for r in PROJECT["dependencies"]}
    assert not wanted["mkdocs"].contains("2.0") and not wanted["mkdocs-material"].contains("10.0")


def test_the_main_suite_never_collects_the_example_projects() -> None:
    """examples/ are projects of their own, run by .ci/run in their own environments."""
    options = tomllib.loads((Path(__file__).resolve().parents[1] / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["pytest"]["ini_options"]
    assert "examples" in options["norecursedirs"] and not any(path.startswith("examples") for path in options["testpaths"])
    assert ".*" in options["norecursedirs"] and "build" in options["norecursedirs"], "pytest's own defaults stay"


def _locked() -> dict[str, list[str]]:
    """.ci/requirements.txt as {name: [each version locked, one per environment marker]}."""
    locked: dict[str, list[str]] = {}
    for line in (REPO / ".ci" / "requirements.txt").read_text(encoding="utf-8").splitlines():
        if line and not line[0].isspace() and not line.startswith("#"):
            requirement = Requirement(line.rstrip(" \\"))
            (pin,) = requirement.specifier
            assert pin.operator == "==", f"the lock pins exactly: {line}"
            locked.setdefault(requirement.name.lower().replace("_", "-"), []).append(pin.version)
    return locked


def test_the_lock_pins_every_requirement_inside_its_range_with_hashes() -> None:
    """The README's commands install .ci/requirements.txt with --require-hashes: it must hold every
    dependency of the package and of the test and pdf extras, at a version the ranges allow."""
    text = (REPO / ".ci" / "requirements.txt").read_text(encoding="utf-8")
    locked = _locked()
    assert text.count("--hash=sha256:") >= len(locked), "every pinned package carries its hashes"
    for text_of in PROJECT["dependencies"] + PROJECT["optional-dependencies"]["test"] + PROJECT["optional-dependencies"]["pdf"]:
        requirement = Requirement(text_of)
        versions = locked.get(requirement.name.lower())
        assert versions, f"{requirement.name} is not in .ci/requirements.txt: run .ci/lock"
        for pinned in versions:
            assert requirement.specifier.contains(pinned), f"{text_of}, but the lock has {pinned}: run .ci/lock"


def _imported_distributions() -> set[str]:
    """The distributions that src/rulebook imports (top-level names, mapped to who provides them)."""
    modules = set()
    for path in (REPO / "src" / "rulebook").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                modules.update(alias.name.partition(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                modules.add(node.module.partition(".")[0])
    providers = packages_distributions()
    third_party = {m for m in modules if m not in sys.stdlib_module_names and m != "rulebook" and m not in INSTEAD}
    unknown = {m for m in third_party if m not in providers}
    assert not unknown, f"src/rulebook imports {sorted(unknown)}, which no installed distribution provides"
    return {name.lower() for m in third_party for name in providers[m]}


#: Imported only where the declared one is missing: adapters/generator.py takes properdocs
#: (MkDocs 1.x continued, README "MkDocs or properdocs") when mkdocs cannot be imported.
INSTEAD = {"properdocs": "mkdocs"}
#: Imported, but by a host that is itself the requirement: the pytest plugin (an entry point in
#: pytest11) runs only inside pytest, and the printed books only with the `pdf` extra.
HOSTED = {"pytest", "weasyprint"}
#: Declared, never imported: Material is the site's theme, found by MkDocs by its name.
BY_NAME = {"mkdocs-material"}


def test_every_runtime_import_is_declared_and_nothing_unused_is() -> None:
    declared = {Requirement(text).name.lower() for text in PROJECT["dependencies"]}
    imported = _imported_distributions()
    assert imported - declared - HOSTED == set(), "imported by src/rulebook but not in pyproject.toml's dependencies"
    assert declared - imported - BY_NAME == set(), "declared in pyproject.toml but never imported by src/rulebook"
