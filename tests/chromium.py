"""Which browser the browser tests drive, known before they are collected (tests/conftest.py
gives the run a worker more where there is one)."""

from __future__ import annotations

import os
import shutil

#: Debian's Chromium headless shell (apt-get install chromium-headless-shell), else Debian's
#: Chromium; RULEBOOK_CHROMIUM names another. The shell is the same Blink and V8 without the
#: browser's window and its compositor, which drew every frame of a page load once more: with it
#: a page load costs ~30% less CPU (measured: 252 against 362 ms a page, both Chromium 156).
CHROMIUM = (os.environ.get("RULEBOOK_CHROMIUM") or shutil.which("chromium-headless-shell") or shutil.which("chromium")
            or "/usr/bin/chromium")
