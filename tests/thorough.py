"""How many Hypothesis examples a differential test tries, or random games an engine's test
plays: few in the suite, thousands on demand.

Where a test compares our code with an oracle on short generated texts, the suite pairs a
few hundred Hypothesis examples with every text of a few pieces, tried in a plain loop
(Hypothesis spends about a millisecond on each example, a hundred times what such a
comparison costs). ``THOROUGH=1`` gives those tests their thorough count back::

    THOROUGH=1 CI=1 .venv/bin/python -m pytest -n 0 tests/test_markup.py tests/test_hostile_po.py

An engine's random games are cut the same way, with the mutations of its rules that the
thorough number caught and the quick one still catches said beside the number.
"""

from __future__ import annotations

import itertools
import os
from typing import Iterable


def examples(quick: int, thorough: int) -> int:
    """``thorough`` when the THOROUGH environment variable is set (not empty), else ``quick``."""
    return thorough if os.environ.get("THOROUGH") else quick


def every_text(pieces: Iterable[str], most: int) -> list[str]:
    """Every text made of at most ``most`` of ``pieces``, each once, in a stable order."""
    pieces = list(pieces)
    return sorted({"".join(chosen) for count in range(most + 1) for chosen in itertools.product(pieces, repeat=count)})
