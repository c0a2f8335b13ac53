"""Worker processes for build work that splits into independent parts.

A site build reads and checks one catalog per (book, language): 25 independent jobs for five
books in six languages, each pure computation on plain data. On a machine with several cores
they run in worker processes (:func:`workers`), one per core by default.

How the workers start: on Linux, forked from this process when it runs a single thread (nothing
to copy but memory pages: no import, no pickling of the module state), else from a fork server
(a fresh interpreter that imported the jobs' module once; a fork of a process with other
threads, such as ``mkdocs serve``'s, can deadlock on a lock one of them held); elsewhere by the
platform's own default, a fresh interpreter each (macOS's system libraries do not survive a
fork; Windows has none). Jobs take and return plain data, so each way gives the same results.
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import sys
import threading
from concurrent.futures import Executor, ProcessPoolExecutor


def cores() -> int:
    """The cores this process may run on (its CPU affinity, where the system tells it)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on macOS or Windows
        return os.cpu_count() or 1


def worker_count(wanted: int, jobs: int) -> int:
    """How many workers for ``jobs`` jobs: ``wanted`` (0: one per core), never more than the jobs."""
    return max(1, min(wanted if wanted > 0 else cores(), jobs))


def workers(count: int, preload: str) -> Executor:
    """A pool of ``count`` worker processes; ``preload``: the module whose functions they run."""
    context: multiprocessing.context.BaseContext
    if sys.platform == "linux" and threading.active_count() == 1:
        context = multiprocessing.get_context("fork")
    elif sys.platform == "linux":
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload([preload])
    else:
        context = multiprocessing.get_context("spawn")
    return ProcessPoolExecutor(count, mp_context=context, initializer=gc.freeze)
