"""A cached build against a cold one, in CPU (the workers' included) and wall time, in one run.

Issue 31 point 4: what a build keeps (``cache_dir``: the translations, the check verdicts, the
highlighted doctests; :mod:`rulebook.cache`) must never make the next build slower than one
without it. Each pair is a cold build (an empty ``cache_dir``) and a cached one (the folder the
cold build just wrote), each in a fresh child process (:func:`benchmarks.measure.measure`: its
CPU is ``getrusage`` of the build's own process plus ``RUSAGE_CHILDREN``, the catalog workers),
the two interleaved so that the machine's load falls on both alike. The ratios are taken pair
by pair and their median printed, with the load average beside each pair.

Builds the repository's own rules/ and locales/ with its mkdocs.yml, six languages.
Run: .venv/bin/python -m benchmarks.bench_cache [PAIRS]   (exits 1 when a cached build is slower
in the median of CPU or wall; never a timed test)
"""

from __future__ import annotations

import os
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

import yaml

from benchmarks.bench_site import ALL, config_for
from benchmarks.measure import Build, measure


def _with_cache(config: Path, cache: Path) -> Path:
    """``config`` with the rulebook plugin's ``cache_dir`` set to ``cache``."""
    data = yaml.safe_load(config.read_text(encoding="utf-8"))
    data["plugins"] = [{"rulebook": {**entry["rulebook"], "cache_dir": str(cache)}} if isinstance(entry, dict) and "rulebook" in entry
                       else entry for entry in data["plugins"]]
    config.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return config


def pair(config: Path, cache: Path) -> tuple[Build, Build]:
    """A cold build (no cache), then a cached one (what the cold one kept)."""
    shutil.rmtree(cache, ignore_errors=True)
    cold = measure(config)
    cached = measure(config)
    return cold, cached


def main(pairs: int = 3) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        cache = folder / "cache"
        config = _with_cache(config_for(folder, ALL), cache)
        measure(config)  # the operating system's file cache warm for both
        cpu, wall = [], []
        print(f"{'pair':>4}  {'cold CPU':>9} {'cached CPU':>10} {'ratio':>6}   {'cold wall':>9} {'cached wall':>11} {'ratio':>6}  load")
        for number in range(1, pairs + 1):
            cold, cached = pair(config, cache)
            cpu.append(cached.cpu / cold.cpu)
            wall.append(cached.seconds / cold.seconds)
            if cold.pages != cached.pages:
                print(f"the cached build made {cached.pages} pages, the cold one {cold.pages}")
                return 1
            print(f"{number:>4}  {cold.cpu:8.2f}s {cached.cpu:9.2f}s {cpu[-1]:6.2f}   {cold.seconds:8.2f}s {cached.seconds:10.2f}s "
                  f"{wall[-1]:6.2f}  {os.getloadavg()[0]:.1f}")
    median_cpu, median_wall = statistics.median(cpu), statistics.median(wall)
    print(f"cached / cold, median of {pairs}: CPU {median_cpu:.2f}x, wall {median_wall:.2f}x (target <= 1.0 each)")
    return 0 if median_cpu <= 1.0 and median_wall <= 1.0 else 1


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 3))
