"""Markup speed, as ratios measured in one process (never as a timed test).

- Rendering every real text (each msgid and msgstr of the catalogs) with text_to_html costs
  at most 30 x escaping the same texts with markupsafe (the least any renderer must do;
  6 on a quiet machine, 14 on a busy one).
- Parsing a megabyte of the worst markup found (unclosed "**a *", "[[a", runs of spaces)
  costs at most 1000 x reading its characters once in Python (100 to 180 when measured); the
  regular expressions the parser replaced were quadratic there (78 s for 64 kB of "**a ").

Run: .venv/bin/python benchmarks/bench_markup.py   (exits 1 if a target is missed)
"""

from __future__ import annotations

import sys
import timeit
from pathlib import Path

from markupsafe import escape

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rulebook.markup import parse  # noqa: E402
from rulebook.render.text import text_to_html  # noqa: E402
from tests.fuzz.mutate import texts  # noqa: E402
from tests.linear import read_once  # noqa: E402


def best(statement, number: int = 3) -> float:
    return min(timeit.repeat(statement, number=number, repeat=5)) / number


def main() -> int:
    real = texts()
    escaping = best(lambda: [escape(t) for t in real])
    rendering = best(lambda: [text_to_html(t) for t in real])
    ratio = rendering / escaping
    print(f"render {len(real):,} real texts: {rendering * 1000:.0f} ms, {ratio:.1f} x escaping them (target <= 30)")
    failed = ratio > 30
    for unit in ("**a *", "[[a ", "a \n ", "*a* **b** {W} [[x]] - "):
        text = (unit * (1_000_000 // len(unit) + 1))[:1_000_000]
        reading = best(lambda: read_once(text), 1)
        parsing = best(lambda: parse(text, limit=None), 1)  # the algorithm, past the limit any caller is held to
        print(f"parse 1 MB of {unit!r}: {parsing:.2f} s, {parsing / reading:.0f} x reading it (target <= 1000)")
        failed |= parsing / reading > 1000
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
