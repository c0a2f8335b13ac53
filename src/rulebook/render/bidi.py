"""Direction controls kept inside the text that holds them.

A text may hold direction embeddings and overrides (closed by U+202C) and isolates (closed by
U+2069): the loader admits them in a source, as a right-to-left language may need. What one
reverses must end with its text, never reach the rule number, link or field the page writes
after it ("Trojan Source"): every text the renderer writes goes through :func:`closed_bidi`.
"""

from __future__ import annotations

import re

_BIDI_RE = re.compile("[\u202a-\u202e\u2066-\u2069]")
_POP, _PDI = "\u202c", "\u2069"


def has_bidi(text: str) -> bool:
    """Whether ``text`` holds a direction control at all: where it does not, no piece of it needs
    :func:`closed_bidi` (a text's pieces are asked one by one, and nearly no text holds one)."""
    return _BIDI_RE.search(text) is not None


def closed_bidi(text: str) -> str:
    r"""``text`` with every direction embedding, override or isolate it leaves open closed at its end.

    >>> closed_bidi("txt.exe\u202egnp") == "txt.exe\u202egnp\u202c"
    True
    >>> closed_bidi("a\u2067b\u202ec\u2069d") == "a\u2067b\u202ec\u2069d"  # an isolate's end closes what it holds
    True
    """
    if not _BIDI_RE.search(text):
        return text
    open_: list[str] = []  # the closer each open one needs, innermost last
    for char in _BIDI_RE.findall(text):
        if char == _PDI:
            if _PDI in open_:
                del open_[len(open_) - 1 - open_[::-1].index(_PDI):]
        elif char == _POP:
            if open_ and open_[-1] == _POP:
                open_.pop()
        else:
            open_.append(_PDI if char >= "\u2066" else _POP)
    return text + "".join(reversed(open_))
