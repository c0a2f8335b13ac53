"""The fuzz targets inside pytest: every saved regression, then a few hundred new inputs each.

``python -m tests.fuzz`` runs the hundred-thousand campaigns (docs/fuzzing.md); here Hypothesis
drives the same mutators (derandomised in CI, so every run tries the same inputs) and every
input that ever failed there, saved under tests/fuzz/regressions/, is replayed.
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

#: New inputs per target in one pytest run (the CLI target runs whole commands: a quarter).
# A few hundred keep the suite under a minute (the po target alone took minutes at 2,000); the
# campaigns (`python -m tests.fuzz --target T -n N`, docs/fuzzing.md) run the thousands.
EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "300"))
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
    @given(st.randoms(use_true_random=False))
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
