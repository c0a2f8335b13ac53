"""Semantic symbol tokens that may appear in any text field, e.g. ``{W}`` or ``{hearts}``.

A token is a meaning, not a picture: each language renders it as an icon with a text
alternative. The loader rejects any ``{...}`` that is not listed here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

TOKEN_RE = re.compile(r"\{([^{}\s]{1,20})\}")


@dataclass(frozen=True)
class Symbol:
    token: str  # as written, e.g. "{W/P}"
    kind: str  # mana | generic | variable | tap | planar | suit | die
    name: str  # English name, used as the icon's fallback text alternative


#: English colour names by letter (the text alternatives fall back to them).
COLOUR_NAMES = {"W": "white", "U": "blue", "B": "black", "R": "red", "G": "green"}
#: The five colours in Magic's order.
COLOURS = "WUBRG"
#: The ten hybrid colour pairs in their printed order; no other hybrid symbol exists.
HYBRID_PAIRS = ("WU", "UB", "BR", "RG", "GW", "WB", "UR", "BG", "RW", "GU")


def _build() -> dict[str, Symbol]:
    table: dict[str, Symbol] = {}

    def add(code: str, kind: str, name: str) -> None:
        table["{" + code + "}"] = Symbol("{" + code + "}", kind, name)

    for code, colour in COLOUR_NAMES.items():
        add(code, "mana", f"{colour} mana")
        add(f"{code}/P", "mana", f"Phyrexian {colour} mana")
        add(f"2/{code}", "mana", f"two generic or {colour} mana")
    add("C", "mana", "colourless mana")
    for a, b in map(tuple, HYBRID_PAIRS):
        add(f"{a}/{b}", "mana", f"hybrid {COLOUR_NAMES[a]} or {COLOUR_NAMES[b]} mana")
    for n in range(21):
        add(str(n), "generic", f"{n} generic mana")
    for v in "XYZ":
        add(v, "variable", f"{v} generic mana")
    add("T", "tap", "tap")
    add("Q", "tap", "untap")
    add("PW", "planar", "planeswalker symbol")
    add("CHAOS", "planar", "chaos symbol")
    add("BLANK", "planar", "blank face")
    for suit in ("hearts", "diamonds", "clubs", "spades"):
        add(suit, "suit", suit)
    for n in range(1, 7):
        add(f"d{n}", "die", f"die showing {n}")
    return table


SYMBOLS: dict[str, Symbol] = _build()
#: A token that is no symbol: TOKEN_RE's matches minus the known ones, in one C-speed scan.
UNKNOWN_TOKEN_RE = re.compile(
    r"\{(?!(?:" + "|".join(re.escape(code[1:-1]) for code in sorted(SYMBOLS, key=len, reverse=True)) + r")\})[^{}\s]{1,20}\}"
)


def tokens_in(text: str) -> list[tuple[int, str]]:
    """Every ``{...}`` token in ``text`` with its offset, known or not.

    >>> tokens_in("Paga {2}{W} e tira {CHAOS}")
    [(5, '{2}'), (8, '{W}'), (19, '{CHAOS}')]
    """
    return [(m.start(), m.group(0)) for m in TOKEN_RE.finditer(text)]
