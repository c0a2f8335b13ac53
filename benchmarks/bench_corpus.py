"""Issue 15's targets: the site build against its anchors, on a generated corpus, as ratios.

Generates N books x M rules (benchmarks/corpus.py, every language fully translated) and the
same text as Markdown, then builds, each in a fresh child process (benchmarks/measure.py),
``--runs`` times, interleaved so that a burst of load elsewhere on the machine hits every
configuration alike:

    material      plain mkdocs-material, 1 language (Italian), the books as Markdown
    static-i18n   mkdocs-material + mkdocs-static-i18n, 6 languages, the same Markdown translated
    rulebook-1    our site, Italian only
    rulebook-6    our site, 6 languages
    rulebook-6 small   our site, 6 languages, a tenth of the rules (for the growth targets)
    rulebook-6 kept    rulebook-6 with the check results an earlier build kept (its cache_dir,
                  .cache/plugin/rulebook): every later build of an unchanged project

Every other rulebook build starts without that cache (it is deleted before each one): a
first build, as on a fresh checkout or a CI runner without a cache.

and prints the medians and these ratios (targets of issue 15):

    rulebook-6 / material            <= 1.5   (and, printed beside it, rulebook-6 kept / material)
    rulebook-6 / static-i18n         <= 0.4   (and rulebook-6 kept / static-i18n)
    rulebook-6 / rulebook-1          (how much each added language costs; no target)
    time   rulebook-6 / rulebook-6 small <= 1.05 x the rule ratio (10.5 for 10x the rules)
    memory rulebook-6 / rulebook-6 small <= the rule ratio (at most linear growth), on the
           peak of the Python heap during the build (tracemalloc, one more build of each in
           one process: measure.py); printed beside it, the peak RSS minus the RSS after the imports

Ratios use the median wall-clock time of each build (``--clock wall``, the default: how long one
waits for the site; the rulebook plugin reads and checks catalogs in worker processes, one per
core) or its CPU time, the workers' included (``--clock cpu``: steadier when other processes
share the cores); the table shows both. On one core the two agree.
The report always prints; it exits 1 on a missed target only with ``--strict``. Needs the
anchors: ``pip install -e '.[bench]'``.

Run: .venv/bin/python -m benchmarks.bench_corpus --books 5 --rules 200 --runs 3
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from .anchors import ALL_LANGUAGES, write_material, write_rulebook, write_static_i18n
from .corpus import generate
from .measure import Build, measure


def _median(builds: list[Build], attribute: str) -> float:
    return statistics.median(getattr(b, attribute) for b in builds)


def _configs(work: Path, books: int, rules: int, small_rules: int) -> dict[str, Path]:
    large = generate(work / f"corpus-{books}x{rules}", books, rules)
    small = generate(work / f"corpus-{books}x{small_rules}", books, small_rules)
    return {
        "material": write_material(large, work / "material"),
        "static-i18n": write_static_i18n(large, work / "static-i18n"),
        "rulebook-1": write_rulebook(large, work / "rulebook-1", ALL_LANGUAGES[:1]),
        "rulebook-6": write_rulebook(large, work / "rulebook-6", ALL_LANGUAGES),
        "rulebook-6 small": write_rulebook(small, work / "rulebook-6-small", ALL_LANGUAGES),
        KEPT: write_rulebook(large, work / "rulebook-6-kept", ALL_LANGUAGES),
    }


#: The build that keeps its cache between runs; every other rulebook build starts without one.
KEPT = "rulebook-6 kept"


def _forget_cache(config: Path) -> None:
    """Delete what an earlier build of ``config`` kept for the next (the plugin's cache_dir)."""
    shutil.rmtree(config.parent / ".cache", ignore_errors=True)


def machine() -> str:
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    return f"{platform.node()}, {os.cpu_count()} cores, Python {platform.python_version()}, load average {load}"


def report(results: dict[str, list[Build]], rules: int, small_rules: int, clock: str,
           heap: dict[str, int]) -> list[tuple[str, float, float | None]]:
    """Print the table of medians; return (name, ratio, target or None) for each ratio, on ``clock``;
    ``heap``: the Python heap's peak (KB) of the rulebook-6 builds, large and small."""
    print(f"\n{'build':<18} {'pages':>5} {'build s':>8} {'(min-max)':>15} {'cpu s':>8} {'(min-max)':>15} {'process s':>9} {'peak MB':>8} {'build MB':>8} {'warnings':>8}")
    for name, builds in results.items():
        times, cpus = [b.seconds for b in builds], [b.cpu for b in builds]
        print(
            f"{name:<18} {builds[0].pages:>5} {statistics.median(times):>8.2f} {f'({min(times):.2f}-{max(times):.2f})':>15}"
            f" {statistics.median(cpus):>8.2f} {f'({min(cpus):.2f}-{max(cpus):.2f})':>15}"
            f" {_median(builds, 'wall'):>9.2f} {_median(builds, 'peak_kb') / 1024:>8.0f} {_median(builds, 'build_kb') / 1024:>8.0f}"
            f" {max(b.warnings for b in builds):>8}"
        )
        for build in builds:
            if build.warnings:
                print(f"  {name} logged {build.warnings} warnings:\n{build.log}")
                break
    t = {name: _median(builds, clock) for name, builds in results.items()}
    memory = {name: _median(builds, "build_kb") for name, builds in results.items()}
    peak = {name: _median(builds, "peak_kb") for name, builds in results.items()}
    factor = rules / small_rules
    return [
        ("rulebook 6 languages / plain mkdocs-material 1 language", t["rulebook-6"] / t["material"], 1.5),
        ("rulebook 6 languages / mkdocs-static-i18n 6 languages", t["rulebook-6"] / t["static-i18n"], 0.4),
        ("  the same, check results kept by an earlier build / plain mkdocs-material", t[KEPT] / t["material"], None),
        ("  the same, check results kept by an earlier build / mkdocs-static-i18n", t[KEPT] / t["static-i18n"], None),
        ("rulebook 6 languages / rulebook 1 language", t["rulebook-6"] / t["rulebook-1"], None),
        ("rulebook 1 language / plain mkdocs-material 1 language", t["rulebook-1"] / t["material"], None),
        ("mkdocs-static-i18n 6 languages / plain mkdocs-material 1 language", t["static-i18n"] / t["material"], None),
        (f"time, {factor:g}x the rules (rulebook 6 languages)", t["rulebook-6"] / t["rulebook-6 small"], 1.05 * factor),
        (f"build memory, {factor:g}x the rules (peak of the Python heap during the build)", heap["rulebook-6"] / heap["rulebook-6 small"], factor),
        (f"  the same on peak RSS - RSS before the build (a few MB of noise either way)", memory["rulebook-6"] / max(memory["rulebook-6 small"], 1), None),
        (f"peak RSS, {factor:g}x the rules (whole process)", peak["rulebook-6"] / peak["rulebook-6 small"], None),
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--books", type=int, default=5)
    parser.add_argument("--rules", type=int, default=200, help="rules per book (the growth build has a tenth)")
    parser.add_argument("--runs", type=int, default=3, help="builds of each configuration (medians are reported)")
    parser.add_argument("--workdir", type=Path, help="keep corpus and sites here (reused when up to date); default: a temporary folder")
    parser.add_argument("--clock", choices=("cpu", "wall"), default="wall",
                        help="time the ratios use: wall-clock time (default) or the build's CPU time, its workers' included")
    parser.add_argument("--strict", action="store_true", help="exit 1 when a target is missed")
    args = parser.parse_args(argv)
    small_rules = max(1, args.rules // 10)

    with tempfile.TemporaryDirectory(prefix="rulebook-bench-") as temporary:
        work = args.workdir or Path(temporary)
        start = time.perf_counter()
        configs = _configs(work, args.books, args.rules, small_rules)
        print(f"corpus {args.books} books x {args.rules} rules (and x {small_rules}), {len(ALL_LANGUAGES)} languages,"
              f" generated in {time.perf_counter() - start:.1f} s under {work}")
        print(f"machine: {machine()}")
        print("time: load_config + build in a fresh child process (imports done before the clock), wall and CPU;"
              " memory: the child's peak RSS from os.wait4, minus its RSS after the imports")
        results: dict[str, list[Build]] = {name: [] for name in configs}
        _forget_cache(configs[KEPT])
        measure(configs[KEPT])  # the earlier build whose check results the kept builds find
        for run in range(args.runs):
            for name, config in configs.items():
                if name != KEPT:
                    _forget_cache(config)
                results[name].append(measure(config))
            print(f"run {run + 1}/{args.runs} done: " + ", ".join(f"{n} {r[-1].seconds:.1f} s ({r[-1].cpu:.1f} cpu)" for n, r in results.items()), flush=True)
        heap = {name: measure(configs[name], heap=True).heap_kb for name in ("rulebook-6", "rulebook-6 small")}
        print(f"load average after the runs: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        print(f"Python heap peak during the build (tracemalloc, one process): "
              + ", ".join(f"{name} {kb / 1024:.0f} MB" for name, kb in heap.items()))

    missed = 0
    ratios = report(results, args.rules, small_rules, "seconds" if args.clock == "wall" else "cpu", heap)
    print(f"\nratios of the median {'CPU' if args.clock == 'cpu' else 'wall-clock'} build times (--clock):")
    for name, ratio, target in ratios:
        if target is None:
            print(f"     {name}: {ratio:.2f}x")
            continue
        ok = ratio <= target
        missed += not ok
        print(f"{'PASS' if ok else 'FAIL'} {name}: {ratio:.2f}x (target <= {target:g}x)")
    print(f"\n{missed} targets missed")
    return 1 if missed and args.strict else 0


if __name__ == "__main__":
    sys.exit(main())
