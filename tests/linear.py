"""A time budget as a ratio, never an absolute time: the work must cost at most ``RATIO`` times
reading the same characters once in Python, measured in the same process a moment before.

A linear pass that builds a tree stays within a few hundred reads (a thousand on a busy machine:
the baseline is measured a moment before); a quadratic one costs a hundred thousand times
more, so the budget is generous for slow or busy machines and still tells the two apart.
"""

from __future__ import annotations

import gc
import time
from typing import Callable

RATIO = 2000


def read_once(text: str) -> None:
    """The baseline: look at every character once (what any parser must do at least)."""
    for _ in text:
        pass


def cost(work: Callable[[], object]) -> float:
    # CPU time of this process, not wall time: other work on a shared machine counts for neither
    # side. The collector is paused: late in a full suite the heap is large, and one full
    # collection landing inside the measurement cost a linear parse 2,063x (0.4 s) once.
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        start = time.process_time()
        work()
        return time.process_time() - start
    finally:
        if was_enabled:
            gc.enable()


def assert_linear(work: Callable[[], object], text: str, what: str = "") -> None:
    baseline = min(cost(lambda: read_once(text)) for _ in range(3))
    spent = cost(work)
    if spent > RATIO * baseline:
        # Once more before failing: a quadratic pass is slow every time, a hiccup once.
        spent = min(spent, cost(work))
    assert spent <= RATIO * baseline, f"{what}: {spent:.3f} s, {spent / baseline:.0f}x reading the same {len(text):,} characters"
