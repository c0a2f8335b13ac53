"""Semantic symbol tokens that may appear in any text field, e.g. ``{W}`` or ``{hearts}``.

A token is a meaning, not a picture: each language renders it as an icon with a text
alternative. :data:`SYMBOLS` are the toolkit's own (mana, tap, planar, suits, dice), known to
every book; a book's engine adds its own through its ``symbols()`` hook (:func:`define`,
docs/engines.md), known to that engine's books: :func:`table` joins the two. The loader
rejects any ``{...}`` that is in neither.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from .messages import Message

TOKEN_RE = re.compile(r"\{([^{}\s]{1,20})\}")


@dataclass(frozen=True)
class Symbol:
    token: str  # as written, e.g. "{W/P}"
    kind: str  # mana | generic | variable | tap | planar | suit | die | engine (an engine's own)
    name: str  # English name, used as the icon's fallback text alternative
    #: An engine's symbol: the characters its icon shows (escaped, never markup), its text
    #: alternative as a message of the engine's domain, and the engine's name (its domain).
    glyph: str = ""
    label: Message | None = None
    engine: str = ""


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


#: What an engine's symbol may be called: letters, digits, '-' and '_' (no '/', no braces).
_CODE_RE = re.compile(r"[A-Za-z0-9_-]{1,20}")


def define(code: str, glyph: str, label: Message) -> Symbol:
    """An engine's own symbol, as its ``symbols()`` hook returns it: written ``{code}`` in its
    books' texts, drawn as ``glyph`` (plain characters, such as a Unicode sign), read out as
    ``label`` (a message of the engine's domain, translated in its catalogs like everything
    it says). A code the toolkit already has, or a label that is no message, is an error.

    >>> from rulebook.messages import msg_p
    >>> define("knock", "\u270a", msg_p("symbol", "knock")).token
    '{knock}'
    """
    if not isinstance(label, Message):
        raise TypeError(f"{{{code}}}: the label is a message (rulebook.messages.msg or msg_p), not {label!r}, so it is translated")
    if not isinstance(code, str) or not _CODE_RE.fullmatch(code):
        raise ValueError(f"a symbol's code is 1-20 letters, digits, '-' or '_', not {code!r}")
    if "{" + code + "}" in SYMBOLS:
        raise ValueError(f"{{{code}}} is a symbol of the toolkit already (docs/format.md); choose another code")
    if not isinstance(glyph, str) or not glyph.strip():
        raise ValueError(f"{{{code}}}: the glyph is the characters its icon shows, not {glyph!r}")
    return Symbol("{" + code + "}", "engine", str(label), glyph, label)


def table(extra: Iterable[Symbol] = ()) -> Mapping[str, Symbol]:
    """The symbols a book may use: the toolkit's and its engine's (``extra``)."""
    own = {symbol.token: symbol for symbol in extra}
    return {**SYMBOLS, **own} if own else SYMBOLS


def tokens_in(text: str) -> list[tuple[int, str]]:
    """Every ``{...}`` token in ``text`` with its offset, known or not.

    >>> tokens_in("Paga {2}{W} e tira {CHAOS}")
    [(5, '{2}'), (8, '{W}'), (19, '{CHAOS}')]
    """
    return [(m.start(), m.group(0)) for m in TOKEN_RE.finditer(text)]

