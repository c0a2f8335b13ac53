"""The fuzz targets inside pytest: every saved regression, then a hundred new inputs each.

``python -m tests.fuzz`` runs the hundred-thousand campaigns (docs/fuzzing.md); here Hypothesis
seeds the same mutators with a plain ``random.Random``, as the campaigns do (derandomised in
CI, so every run tries the same inputs), and every input that ever failed there, saved under
tests/fuzz/regressions/, is replayed.
"""

from __future__ import annotations

import os
import random
import signal
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.fuzz.__main__ import Hang, arm, disarm, replay, saved
from tests.fuzz.targets import TARGETS
from tests.thorough import examples

#: New inputs per target in one pytest run (the CLI target runs whole commands: a quarter).
# The campaigns (`python -m tests.fuzz --target T -n N`, docs/fuzzing.md) run the thousands.
# Of 20 mutations of the targets' code tried, the 300 inputs run here before (drawn from
# Hypothesis's own Random) caught 7: an unescaped "<", an unclosed <em> or <li> in the HTML, a
# decode error out of the loader or the PO reader, a crash on a duplicate YAML key, the CLI's
# exit 2 without a message. A hundred inputs of a plain Random seeded by Hypothesis catch the
# same 7 (Hypothesis's Random needed 200 for the duplicate key), in a third of the time.
# THOROUGH=1 (tests/thorough.py) runs 300, FUZZ_EXAMPLES=N any number.
EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES") or examples(100, 300))
LIMIT = 2.0  # CPU seconds per input


def run_within_limit(target: str, data: bytes) -> str:
    previous = signal.getsignal(signal.SIGALRM), signal.getsignal(signal.SIGVTALRM)
    arm(LIMIT)
    try:
        return TARGETS[target][1](data)
    except Hang:
        pytest.fail(f"{target}: more than {LIMIT} s of CPU time on one input")
    finally:
        disarm()
        signal.signal(signal.SIGALRM, previous[0])
        signal.signal(signal.SIGVTALRM, previous[1])


SAVED = saved()


@pytest.mark.parametrize(("target", "path"), SAVED, ids=[f"{target}/{path.name.split('.')[0]}" for target, path in SAVED])
def test_every_input_that_ever_failed_is_now_handled(target: str, path: Path):
    assert run_within_limit(target, replay(path)) in ("clean", "error")


def test_regressions_are_kept():
    # The campaigns of issue 16 found failures in these targets; their inputs must stay.
    assert {target for target, _ in SAVED} >= {"loader", "po"}


def _fuzz(target: str, examples: int):
    @settings(max_examples=examples, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much])
    @given(st.randoms(use_true_random=True))
    def run(rng: random.Random) -> None:
        data = TARGETS[target][0](rng)
        assert run_within_limit(target, data) in ("clean", "error")

    return run


@pytest.mark.slow
@pytest.mark.parametrize("target", ["loader", "po", "render"])
def test_fuzz_target(target):
    _fuzz(target, EXAMPLES)()


@pytest.mark.slow
def test_fuzz_cli():
    _fuzz("cli", max(EXAMPLES // 4, 1))()


@pytest.mark.slow
@pytest.mark.parametrize(("target", "share"), [("merge", 1), ("special", 4), ("concurrent", 4)])
def test_fuzz_issue_30_targets(target, share):
    # special and concurrent run whole commands and builds: a quarter, like cli.
    _fuzz(target, max(EXAMPLES // share, 1))()


def _snapshot(root: Path) -> dict[str, tuple[int, bytes]]:
    found = {}
    for path in sorted(root.rglob("*")):
        status = path.lstat()
        found[str(path.relative_to(root))] = (status.st_mode, path.read_bytes() if path.is_file() and not path.is_symlink() else b"")
    return found


def test_every_special_input_meets_the_same_project():
    """The special target reuses one project: after any hazard in any position and a command that
    writes (update rewrites the catalog and writes a template, compile a .mo), restore() must put
    back the very files a fresh project holds, or later inputs would test another project."""
    from tests.fuzz.hazards import KINDS, POSITIONS, _make, _project, restore
    from tests.fuzz.targets import _quiet

    project = _project("special")
    fresh = _snapshot(project)
    assert set(fresh) >= set(POSITIONS.values())
    for position in POSITIONS.values():
        for kind in KINDS:
            _make(project / position, kind, 1)
            for command in (["i18n", "update"], ["i18n", "compile"]):
                _quiet(command, project)
            restore(project)
            assert _snapshot(project) == fresh, (position, kind)
    _quiet(["i18n", "update"], project)
    _quiet(["i18n", "compile"], project)
    assert _snapshot(project) != fresh  # the commands did write: the comparison above can fail
    restore(project)
    assert _snapshot(project) == fresh


def test_the_concurrent_target_compares_translations():
    """Version A is translated throughout, so a cache that published B would show B's text, not
    the same Italian fallback as A (as with a catalog whose msgstr repeats its msgid)."""
    from tests.fuzz.hazards import ENGLISH, _uncached, translated_po

    fresh = _uncached(translated_po())
    assert not fresh.problems and not fresh.fallback
    assert fresh.book.title == ENGLISH["Demo"] != "Demo"
