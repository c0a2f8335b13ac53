"""``python -m tests.fuzz --target loader -n 100000 [--seed 0] [--jobs 2] [--start N]``: run one target, print the counts.

Each input gets at most ``--limit`` seconds of CPU time (2 by default; inputs are at most about
1 MB), and 30 s of wall time in case it blocks.
Every input that fails (an undocumented exception, a traceback, a broken promise, a hang) is
saved under ``tests/fuzz/regressions/<target>/<sha1>.bin.gz``, which ``tests/test_fuzz.py`` replays.
Exit status 1 when anything failed.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import multiprocessing
import os
import random
import signal
import sys
import time
import traceback
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from .targets import TARGETS

REGRESSIONS = Path(__file__).resolve().parent / "regressions"


class Hang(BaseException):
    """Raised by the alarm; a BaseException so no ``except Exception`` in the code swallows it."""


def _alarm(signum, frame):  # noqa: ANN001
    raise Hang()


#: A wall-clock backstop for an input that blocks instead of computing (the limit itself is CPU time).
WALL_LIMIT = 30.0


def arm(limit: float) -> None:
    """Start the per-input limit: ``limit`` seconds of this process's CPU time, so other work
    on a shared machine does not turn a fast input into a "hang"; and a wall-clock backstop."""
    signal.signal(signal.SIGVTALRM, _alarm)
    signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_VIRTUAL, limit)
    signal.setitimer(signal.ITIMER_REAL, WALL_LIMIT)


def disarm() -> None:
    signal.setitimer(signal.ITIMER_VIRTUAL, 0)
    signal.setitimer(signal.ITIMER_REAL, 0)


def save(target: str, data: bytes, why: str) -> Path:
    """Keep a failing input, gzipped (the megabyte-long ones shrink to a few kB), and why it failed."""
    folder = REGRESSIONS / target
    folder.mkdir(parents=True, exist_ok=True)
    name = hashlib.sha1(data).hexdigest()[:16]
    path = folder / f"{name}.bin.gz"
    path.write_bytes(gzip.compress(data, mtime=0))
    (folder / f"{name}.txt").write_text(why, encoding="utf-8")
    return path


def saved() -> list[tuple[str, Path]]:
    """(target, path) of every kept input."""
    return [(path.parent.name, path) for path in sorted(REGRESSIONS.glob("*/*.bin.gz"))]


def replay(path: Path) -> bytes:
    return gzip.decompress(path.read_bytes())


def fuzz(target: str, count: int, seed: int, limit: float, report_every: int, start: int = 0, step: int = 1, label: str = "") -> Counter[str]:
    """Inputs ``start``, ``start + step``, … below ``count`` of ``target``; input ``i`` is made from
    ``Random(f"{seed}:{i}")`` whoever runs it, so a campaign split among workers or resumed later
    runs the very inputs of one uninterrupted run."""
    make, run = TARGETS[target]
    counts: Counter[str] = Counter()
    slowest = (0.0, -1)
    started = time.perf_counter()
    for done, index in enumerate(range(start, count, step), start=1):
        data = make(random.Random(f"{seed}:{index}"))
        began = time.perf_counter()
        why = ""
        arm(limit)
        try:
            outcome = run(data)
        except Hang:
            outcome, why = "hang", f"more than {limit} s of CPU time (or {WALL_LIMIT} s of wall time)"
        except Exception:  # noqa: BLE001 - counting them is the point
            outcome, why = "failure", traceback.format_exc()
        finally:
            disarm()
        spent = time.perf_counter() - began
        if done > 1:  # the first input also pays for the imports and the targets' one-time setup
            slowest = max(slowest, (spent, index))
        else:
            counts["first_ms"] = round(spent * 1000)
        counts[outcome] += 1
        if outcome in ("hang", "failure"):
            path = save(target, data, why)
            print(f"{label}#{index}: {outcome}, saved {path.relative_to(Path.cwd()) if path.is_relative_to(Path.cwd()) else path}\n"
                  f"{why.strip().splitlines()[-1]}", file=sys.stderr)
        if report_every and done % report_every == 0:
            print(f"  {label}{done:,} inputs (up to #{index}), {time.perf_counter() - started:.0f} s, load {os.getloadavg()[0]:.1f}, "
                  f"slowest #{slowest[1]} {slowest[0] * 1000:,.0f} ms: {dict(counts)}", file=sys.stderr, flush=True)
    counts["slowest_ms"] = round(slowest[0] * 1000)
    counts["slowest_index"] = slowest[1]
    return counts


def _worker(task: tuple[str, int, int, float, int, int, int, str]) -> Counter[str]:
    return fuzz(*task)


def campaign(target: str, count: int, seed: int, limit: float, report_every: int, start: int, jobs: int) -> Counter[str]:
    """``fuzz`` in ``jobs`` worker processes, each taking every ``jobs``-th input (forked before
    any target has made its folders: each makes its own)."""
    if jobs <= 1:
        return fuzz(target, count, seed, limit, report_every, start)
    tasks = [(target, count, seed, limit, max(report_every // jobs, 1), start + k, jobs, f"[{k + 1}/{jobs}] ") for k in range(jobs)]
    with ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("fork")) as pool:
        parts = list(pool.map(_worker, tasks))
    total: Counter[str] = Counter()
    for part in parts:
        total.update({key: value for key, value in part.items() if key not in ("first_ms", "slowest_ms", "slowest_index")})
    total["first_ms"] = max(part["first_ms"] for part in parts)
    total["slowest_ms"], total["slowest_index"] = max((part["slowest_ms"], part["slowest_index"]) for part in parts)
    return total


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.fuzz", description=__doc__.splitlines()[0])
    parser.add_argument("--target", choices=sorted(TARGETS), action="append", help="repeatable; default: every target")
    parser.add_argument("-n", "--count", type=int, default=100_000, help="inputs per target (default 100,000): #0 to #n-1")
    parser.add_argument("--start", type=int, default=0, help="the first input's number: resume a campaign where it stopped")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1, help="worker processes, each taking every N-th input (default 1)")
    parser.add_argument("--limit", type=float, default=2.0, help="CPU seconds per input (default 2)")
    parser.add_argument("--report-every", type=int, default=10_000)
    args = parser.parse_args(argv)
    failed = 0
    for target in args.target or sorted(TARGETS):
        started = time.perf_counter()
        counts = campaign(target, args.count, args.seed, args.limit, args.report_every, args.start, args.jobs)
        anything_else = counts["failure"] + counts["hang"]
        failed += anything_else
        print(
            f"{target}: inputs #{args.start:,} to #{args.count - 1:,} ({max(args.count - args.start, 0):,}), seed {args.seed}, "
            f"in {time.perf_counter() - started:.0f} s: {counts['clean']:,} clean, "
            f"{counts['error']:,} documented error, {anything_else:,} anything else "
            f"({counts['failure']:,} exceptions, {counts['hang']:,} hangs); slowest input #{counts['slowest_index']} {counts['slowest_ms']:,} ms "
            f"(the first, with the imports: {counts['first_ms']:,} ms); load {os.getloadavg()[0]:.1f}",
            flush=True,
        )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
