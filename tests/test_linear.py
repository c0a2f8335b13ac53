"""The measures of tests/linear.py tell linear work from quadratic work (a measure that never
fails proves nothing)."""

from __future__ import annotations

import pytest

from tests.linear import assert_grows_linearly

TEXT = "**a " * 62_500  # a quarter of a megabyte, as the growth tests use


#: Characters between two matches. Quadratic work grows 16 times on four times the text
#: whatever this is; at 64 it costs about 20 ms on the quarter (three times the floor of
#: tests/linear.py) and a third of a second on the whole, measured twice before failing.
STEP = 64


def line_of_every_star(text: str) -> None:
    # Quadratic at C speed, the slip the loader once had (tests/test_hostile_yaml.py): the line
    # of each match counted from the start of the text.
    for start in range(0, len(text), STEP):
        text.count("\n", 0, start)


def line_of_every_star_carried(text: str) -> None:
    line = 0
    for start in range(0, len(text), STEP):
        line += text.count("\n", start - STEP if start else 0, start)


def test_quadratic_work_fails_the_growth_measure():
    with pytest.raises(AssertionError, match="its cost on the first 62,500"):
        assert_grows_linearly(line_of_every_star, TEXT, "counting lines from the start")


def test_linear_work_passes_the_growth_measure():
    assert_grows_linearly(line_of_every_star_carried, TEXT, "counting lines as it goes")
    assert_grows_linearly(lambda text: text.split(" "), TEXT, "splitting")
