"""Links between the site's pages, relative, so a site works wherever it is published."""

from __future__ import annotations

import posixpath


def relative_url(from_url: str, to_url: str) -> str:
    """A link from one site-relative URL to another (``en/bingomagic/`` -> ``../casting/``)."""
    base = from_url if from_url.endswith("/") or not from_url else posixpath.dirname(from_url) + "/"
    path, _, fragment = to_url.partition("#")
    rel = posixpath.relpath(path or ".", base.rstrip("/") or ".")
    if path.endswith("/") or not path:
        rel = "./" if rel == "." else rel + "/"
    return rel + (f"#{fragment}" if fragment else "")
