"""One MkDocs build in a fresh child process: its time, its peak memory, its warnings.

Each build runs in its own interpreter (``python -m benchmarks.measure CONFIG``), so no cache
of an earlier build (Jinja, Pygments, the glossary, lru_caches) helps a later one and the
memory of one build is not counted in the next. The child imports MkDocs, Material, the
rulebook plugin and mkdocs-static-i18n (when installed) before the clock starts, the same for
every configuration; the clock then covers ``load_config`` + ``build``, what ``mkdocs build``
does after Python has started. The child runs without ``PYTHONDONTWRITEBYTECODE`` (set on some
machines, this one among them): the installed packages (MkDocs, Material) were compiled to bytecode
by pip, and an editable checkout of rulebook, compiled afresh at every start under that variable,
paid ~0.3 s a build for what a user's machine reads from ``__pycache__`` (a first run writes it).
Both the wall-clock time and the CPU time (user + system, from
``getrusage``) of that span are reported; the CPU time counts the build's worker processes too
(the rulebook plugin reads and checks catalogs in one per core), so on an idle machine with
several cores it is more than the wall-clock time.

Memory is the child's peak resident set size (:func:`peak_kb`: the largest of the child's own,
``VmHWM``, and that of the processes it waited for, its catalog workers and examples' children),
and the resident size just before the build: their difference is what the build itself needed.
Not ``os.wait4``'s ``ru_maxrss``, as until 2026-11-29: Linux keeps a process's high-water mark
across ``exec``, so a child started by a benchmark that had just generated a large corpus read
at least the benchmark's own size (204 MB for plain Material and for the 5 x 200 build alike,
after the 50 x 200 corpus was generated in the same run).
A difference of two RSS readings is a poor measure of a small build (the allocator reuses what
the imports freed: a few MB either way), so :func:`measure` with ``heap=True`` runs a separate
build under ``tracemalloc`` with the plugin's ``workers: 1`` (all of the build's memory in one
process) and reports the peak of the Python heap during the build: the same count on every run.
"""

from __future__ import annotations

import json
import logging
import os
import resource
import subprocess
import sys
import tempfile
import time
import tracemalloc
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Build:
    seconds: float  # load_config + build, measured in the child (wall clock)
    cpu: float  # the same span's CPU time (user + system) of the child: robust to other load
    wall: float  # the whole child process, interpreter start and imports included
    peak_kb: int  # peak RSS of the child and the processes it waited for (peak_kb)
    before_kb: int  # RSS of the child after its imports, before the build
    warnings: int  # MkDocs warnings logged during the build
    pages: int  # HTML pages in the built site
    log: str = ""  # the child's first warnings, if any
    heap_kb: int = 0  # with heap=True: the Python heap's peak during the build (tracemalloc), one process
    load: float = 0.0  # the machine's 1-minute load average when the build ended

    @property
    def build_kb(self) -> int:
        return self.peak_kb - self.before_kb


def measure(config: Path, *, heap: bool = False) -> Build:
    """Build ``config`` in a child process and report what it cost; ``heap``: under tracemalloc, in
    one process (slower: its times are not comparable with the others')."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        child = subprocess.Popen(
            [sys.executable, "-m", "benchmarks.measure", str(config), *(["--heap"] if heap else [])],
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=err,
            cwd=Path(__file__).resolve().parent.parent,
            env={name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"},
        )
        child.wait()
        wall = time.perf_counter() - start
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read().decode(errors="replace"), err.read().decode(errors="replace")
    if child.returncode != 0:
        raise RuntimeError(f"the build of {config} failed (exit {child.returncode}):\n{stderr[-4000:]}")
    report = json.loads(stdout.strip().splitlines()[-1])
    return Build(report["seconds"], report["cpu"], wall, report["peak_kb"], report["before_kb"], report["warnings"], report["pages"], stderr,
                 report["heap_kb"], os.getloadavg()[0])


class _Counter(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.count = 0
        self.first: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.count += 1
        if len(self.first) < 5:
            self.first.append(record.getMessage()[:300])


def _child(config: str, heap: bool = False) -> int:
    # Everything any configuration imports, before the clock starts.
    from mkdocs.commands.build import build
    from mkdocs.config import load_config
    import material.plugins.search.plugin  # noqa: F401
    import rulebook.mkdocs_plugin  # noqa: F401

    try:
        import mkdocs_static_i18n.plugin  # noqa: F401
    except ImportError:
        pass
    counter = _Counter()
    logging.getLogger("mkdocs").addHandler(counter)
    logging.getLogger("mkdocs").setLevel(logging.WARNING)
    before, cpu = resident_kb("VmRSS"), cpu_seconds()
    if heap:
        tracemalloc.start()
    start = time.perf_counter()
    loaded = load_config(config)
    if heap and "rulebook" in loaded.plugins:
        loaded.plugins["rulebook"].config["workers"] = 1
    build(loaded)
    seconds = time.perf_counter() - start
    cpu = cpu_seconds() - cpu
    heap_kb = tracemalloc.get_traced_memory()[1] // 1024 if heap else 0
    tracemalloc.stop()
    site = Path(load_config(config).site_dir)
    pages = sum(1 for _ in site.rglob("*.html"))
    for message in counter.first:
        print(f"warning: {message}", file=sys.stderr)
    print(json.dumps({"seconds": seconds, "cpu": cpu, "peak_kb": peak_kb(), "before_kb": before, "warnings": counter.count, "pages": pages,
                      "heap_kb": heap_kb}))
    return 0


def cpu_seconds() -> float:
    """CPU seconds of this process (every thread of it) and of its children that have ended and
    been waited for: the build's catalog workers (the pool is shut down, and so reaped, when a
    build's translations are done) and the child that runs each book's worked examples."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def resident_kb(field: str) -> int:
    """This process's resident size (``VmRSS``) or its peak (``VmHWM``) in KB, as Linux counts it
    for the program it runs now (``/proc/self/status``); elsewhere ``ru_maxrss``, the peak."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith(f"{field}:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def peak_kb() -> int:
    """The peak RSS of this process and of the processes it waited for, the larger: what the build
    held at once in one process. Its own is ``VmHWM``, not ``ru_maxrss``: Linux carries the
    high-water mark across ``exec``, so ``ru_maxrss`` is at least the size of whatever process
    started this one (its workers, forked from it without ``exec``, start from its own size)."""
    return max(resident_kb("VmHWM"), resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)


def load_average() -> str:
    """The machine's load average (1, 5, 15 minutes): every figure is printed with it."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


if __name__ == "__main__":
    sys.exit(_child(sys.argv[1], heap="--heap" in sys.argv[2:]))
