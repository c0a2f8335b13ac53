"""The benchmarks' memory figure is the build's own (benchmarks/measure.py; no timing here)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="VmHWM is Linux's; elsewhere the peak is ru_maxrss")
def test_a_builds_peak_memory_is_its_own_not_that_of_the_benchmark_that_started_it():
    # Linux keeps a process's high-water mark across exec: the child of a benchmark that had just
    # generated the 50 x 200 corpus read 204 MB whatever it built (plain Material and 5 x 200 alike).
    ballast = b"\x01" * (160 * 1024 * 1024)  # resident in this process when the child starts
    shown = subprocess.run([sys.executable, "-c", "from benchmarks.measure import peak_kb; print(peak_kb())"],
                           cwd=REPO, capture_output=True, text=True, check=True).stdout
    del ballast  # held until the child ended
    assert int(shown) < 80 * 1024, f"{int(shown) // 1024} MB: the starting process's size, not the child's"
