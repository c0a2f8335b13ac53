"""Time budgets as ratios, never absolute times, measured in the same process a moment before.

Two measures, both of CPU time:

- ``assert_linear``: the work costs at most ``RATIO`` times reading the same characters once
  in Python. A linear pass that builds a tree stays within a few hundred reads (a thousand on a
  busy machine); a quadratic one on a megabyte costs a hundred thousand times more, so the
  budget is generous for slow or busy machines and still tells the two apart. It needs a large
  input: on a small one a quadratic pass is still cheap.
- ``assert_grows_linearly``: the work on a text costs at most ``GROWTH_RATIO`` times the same
  work on its first quarter: linear work grows 4 times, quadratic 16 times, whatever its
  constant. That tells them apart on a quarter of the input the first measure needs (a quarter
  of a megabyte instead of a megabyte), and it holds a cheap check to its own growth, or to
  ``FLOOR_READS`` reads, instead of to a budget sized for the dearest one.
"""

from __future__ import annotations

import gc
import time
from typing import Callable

RATIO = 2000
#: The smaller input is a quarter of the text; linear work costs 4 times as much on the whole,
#: quadratic 16 times. The budget sits between, with room for a measurement that comes out high.
QUARTER = 4
GROWTH_RATIO = 8
#: Work that costs next to nothing on the quarter is counted as this many reads of it. On a
#: few hundred microseconds the timer's noise, and the quarter fitting in the processor's cache
#: while the whole does not, make a linear C-speed pass look 6-8 times dearer on the whole; such
#: work is then held to 2 x FLOOR_READS reads of the whole text, a hundred times less than RATIO.
FLOOR_READS = 10


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


def assert_grows_linearly(work: Callable[[str], object], text: str, what: str = "") -> None:
    """``work(text)`` costs at most GROWTH_RATIO times ``work`` on the text's first quarter.

    ``text`` repeats one pattern (an adversarial piece), so its quarter is the same input, smaller.
    The quarter is measured three times (the least is its cost) and never counted below
    FLOOR_READS reads of its characters.
    """
    quarter = text[: len(text) // QUARTER]
    floor = FLOOR_READS * min(cost(lambda: read_once(quarter)) for _ in range(3))
    small = max(floor, min(cost(lambda: work(quarter)) for _ in range(3)))
    spent = cost(lambda: work(text))
    if spent > GROWTH_RATIO * small:
        # Once more before failing: a quadratic pass is slow every time, a hiccup once.
        spent = min(spent, cost(lambda: work(text)))
    assert spent <= GROWTH_RATIO * small, (
        f"{what}: {spent:.3f} s on {len(text):,} characters, {spent / small:.1f}x its cost on the first {len(quarter):,}")
