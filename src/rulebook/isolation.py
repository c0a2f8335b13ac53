"""Worked examples run in a child process, each under a time and a memory limit.

A worked example is code a contributor wrote: it may loop forever, eat memory, raise
KeyboardInterrupt or call ``os._exit(0)``. Run in the checking process, the first hangs
``rulebook check``, pytest and the build, the last ends them with status 0 and no output.
So the examples of one book run in one forked child (one fork per book, not per example: a
site has hundreds of examples), which sends each outcome back as it finishes. The parent waits
for each outcome at most the time limit; when the child is late (a loop) it is killed, and
when it ends before saying all (``os._exit``, a crash, the memory limit's kill) the example it
was running fails at its YAML line, and a new child runs the rest of the book.

Where there is no ``fork`` (Windows) the examples run in the process, as before, without limits.
"""

from __future__ import annotations

import os
import pickle
import select
import signal
import struct
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from .limits import EXAMPLE_MEMORY_MB, EXAMPLE_SECONDS

T = TypeVar("T")


@dataclass(frozen=True)
class Bounds:
    """How long one example may run (seconds of wall time) and how much memory it may add (MiB)."""

    seconds: float = EXAMPLE_SECONDS
    memory_mb: int = EXAMPLE_MEMORY_MB


#: What a child returns for an example whose outcome would not pickle: the parent runs that one
#: itself (it has just ended within the limits in the child, and examples are deterministic).
_RUN_HERE = b"run-here"
_HEADER = struct.Struct("!Q")


def run_bounded(items: Sequence[T], run: Callable[[T], object], fail: Callable[[T, str], object],
                bounds: Bounds | None = None) -> list[object]:
    """``[run(item) for item in items]``, each in a child under ``bounds``; an item whose run does
    not end within them gives ``fail(item, why)`` instead."""
    bounds = bounds or Bounds()
    if not hasattr(os, "fork") or not items:
        return [run(item) for item in items]
    results: list[object] = []
    while len(results) < len(items):
        results.extend(_one_child(items, len(results), run, fail, bounds))
    return results


def _one_child(items: Sequence[T], start: int, run: Callable[[T], object], fail: Callable[[T, str], object],
               bounds: Bounds) -> list[object]:
    """The outcomes of ``items[start:]`` one child gives before it ends, the last of them the
    failure of the item it could not finish (if any)."""
    reader, writer = os.pipe()
    sys.stdout.flush(), sys.stderr.flush()  # else what is buffered is written by both processes
    pid = os.fork()
    if pid == 0:  # the child: never returns
        os.close(reader)
        _child(items, start, run, writer, bounds)
    os.close(writer)
    done: list[object] = []
    buffer = bytearray()
    ended = ""
    try:
        with os.fdopen(reader, "rb", buffering=0) as pipe:
            deadline = time.monotonic() + bounds.seconds
            while start + len(done) < len(items):
                left = deadline - time.monotonic()
                if left <= 0 or not select.select([pipe], [], [], left)[0]:
                    ended = f"did not end within the time limit of {bounds.seconds:g} s (an endless loop?)"
                    break
                chunk = pipe.read(65536)
                if not chunk:
                    break  # what ended it is said below, once the child's status is known
                buffer += chunk
                while len(buffer) >= _HEADER.size and len(buffer) >= _HEADER.size + (size := _HEADER.unpack_from(buffer)[0]):
                    payload = bytes(buffer[_HEADER.size:_HEADER.size + size])
                    del buffer[:_HEADER.size + size]
                    item = items[start + len(done)]
                    done.append(_loaded(payload, item, run))
                    deadline = time.monotonic() + bounds.seconds
    finally:
        status = _reap(pid)
    if start + len(done) < len(items):
        done.append(fail(items[start + len(done)], ended or _how_it_ended(status, bounds)))
    return done


def _loaded(payload: bytes, item: T, run: Callable[[T], object]) -> object:
    if payload != _RUN_HERE:
        try:
            return pickle.loads(payload)
        except Exception:  # noqa: BLE001, S110 - an engine object that does not unpickle: run here instead
            pass
    return run(item)


def _reap(pid: int) -> int:
    """The child's wait status, killing it first if it is still running."""
    finished, status = os.waitpid(pid, os.WNOHANG)
    if finished == 0:
        os.kill(pid, signal.SIGKILL)
        _, status = os.waitpid(pid, 0)
    return status


def _how_it_ended(status: int, bounds: Bounds) -> str:
    if os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        name = signal.Signals(number).name if number in signal.Signals._value2member_map_ else str(number)
        return (f"ended the process by signal {name} (past the memory limit of {bounds.memory_mb} MiB? "
                "a crash in an extension?)")
    code = os.WEXITSTATUS(status) if os.WIFEXITED(status) else status
    return f"ended the process (exit status {code}: os._exit or a crash) before it finished"


def _child(items: Sequence[T], start: int, run: Callable[[T], object], writer: int, bounds: Bounds) -> None:
    code = 0
    try:
        # A Ctrl-C reaches the whole process group: the parent stops; the child just dies.
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        _limit_memory(bounds.memory_mb)
        with os.fdopen(writer, "wb", buffering=0) as pipe:
            for item in items[start:]:
                outcome = run(item)
                try:
                    payload = pickle.dumps(outcome, protocol=pickle.HIGHEST_PROTOCOL)
                except Exception:  # noqa: BLE001 - an engine object that does not pickle (any error of its own): the parent runs it
                    payload = _RUN_HERE
                pipe.write(_HEADER.pack(len(payload)) + payload)
    except BaseException:  # noqa: BLE001 - whatever it was, the parent reports the example
        code = 70
    finally:
        os._exit(code)  # never the parent's exit handlers, pytest's or MkDocs' cleanup


def _limit_memory(megabytes: int) -> None:
    """Address space capped at what the process has now plus ``megabytes``: an example past it
    gets MemoryError (a failure like any other) instead of swapping the machine to a halt."""
    try:
        import resource

        with open("/proc/self/statm", "rb") as statm:
            now = int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
        limit = now + megabytes * 1024 * 1024
        _soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        if hard != resource.RLIM_INFINITY:
            limit = min(limit, hard)
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    except (ImportError, OSError, ValueError):
        pass  # not Linux: the time limit still holds
