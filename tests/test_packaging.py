"""What people who depend on rulebook rely on: every dependency bounded to the major version we
test, and the versions installed here (the ones the suite runs with) inside those bounds."""

from __future__ import annotations

import tomllib
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

import pytest
from packaging.requirements import Requirement

PROJECT = tomllib.loads((Path(__file__).resolve().parents[1] / "pyproject.toml").read_text(encoding="utf-8"))["project"]
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
