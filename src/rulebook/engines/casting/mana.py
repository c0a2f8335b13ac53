"""Mana costs in ``{…}`` notation, mana pools and paying a cost from a pool.

A :class:`ManaCost` is a value: parsing ``'{1}{1}{W}'`` and ``'{W}{2}'`` gives the same cost,
printed in one canonical order (X first, then generic, then {C}, then the coloured symbols by
the colour order of :func:`colour_order`, plain before hybrid before Phyrexian for the same
first colour), so ``ManaCost(str(c)) == c`` always holds.

Hybrid and Phyrexian symbols are settled by the caster's announcement (601.2b) before the
total cost is computed: :meth:`ManaCost.paid_as` turns them into plain symbols and life.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache

from ...errors import IllegalAction
from ...messages import Message, Notation, code, msg, msg_p, notation
from ...symbols import COLOURS, HYBRID_PAIRS

VARIABLES = "XYZ"

_SYMBOL_RE = re.compile(r"\{([^{}]*)\}")


def _canonical_symbol(code: str) -> str:
    """The canonical spelling of one non-generic symbol, or ValueError."""
    code = code.upper()
    if code in COLOURS or code == "C" or code in VARIABLES:
        return code
    parts = code.split("/")
    if len(parts) == 2:
        a, b = parts
        if b == "P" and a in COLOURS:
            return code
        if a == "2" and b in COLOURS:
            return code
        if a in COLOURS and b in COLOURS and a != b:
            # A hybrid may be written in either order; it is printed in the canonical one.
            return f"{a}/{b}" if a + b in HYBRID_PAIRS else f"{b}/{a}"
    raise ValueError(f"unknown mana symbol {{{code}}}")


def _kind(code: str) -> str:
    if code in VARIABLES:
        return "variable"
    if code == "C":
        return "colourless"
    if code in COLOURS:
        return "coloured"
    if code.endswith("/P"):
        return "phyrexian"
    if code.startswith("2/"):
        return "monohybrid"
    return "hybrid"


def _payments(symbol: str) -> tuple[str, ...]:
    """What one hybrid or Phyrexian symbol may be paid as (601.2b)."""
    a, b = symbol.split("/")
    return (a, "life") if b == "P" else (a, b)


_KIND_RANK = {"coloured": 0, "hybrid": 1, "monohybrid": 2, "phyrexian": 3}


def colour_order(colours: Iterable[str]) -> str:
    """The colours of a cost in printed order: the shortest arc around the colour wheel.

    Two-colour costs print as the pair does on cards ({1}{G}{W} for green-white, {W}{B} for
    white-black); three adjacent colours as a shard. Ties (wedges, four or five colours)
    fall back to WUBRG; printed wedge costs may differ.

    >>> colour_order("WG"), colour_order("BW"), colour_order("RWG")
    ('GW', 'WB', 'RGW')
    """
    wanted = set(colours)
    present = [c for c in COLOURS if c in wanted]
    best = "".join(present)
    best_span = 5
    for start in present:
        wheel = COLOURS[COLOURS.index(start):] + COLOURS[: COLOURS.index(start)]
        ordered = "".join(c for c in wheel if c in present)
        span = wheel.index(ordered[-1]) if ordered else 0
        if span < best_span:
            best, best_span = ordered, span
    return best


def _order(code: str, wheel: str) -> tuple[int, int, int, str]:
    kind = _kind(code)
    if kind == "variable":
        return (0, VARIABLES.index(code), 0, code)
    if kind == "colourless":
        return (1, 0, 0, code)
    first = next(c for c in code if c in COLOURS)
    return (2, wheel.index(first), _KIND_RANK[kind], code)


@lru_cache(maxsize=4096)  # pure: cache.py
def _parsed(written: str) -> tuple[int, tuple[str, ...], str]:
    """A written cost's generic amount, its other symbols in canonical order and its canonical
    text. Costs are worked out again and again while a cast is derived: each text is read once."""
    rest = _SYMBOL_RE.sub("", written)
    if rest.strip():
        raise ValueError(f"mana cost {written!r} has text outside {{…}} symbols: {rest.strip()!r}")
    generic, symbols = 0, []
    for symbol in _SYMBOL_RE.findall(written):
        if symbol.isdigit():
            generic += int(symbol)
        else:
            symbols.append(_canonical_symbol(symbol))
    wheel = colour_order(c for s in symbols for c in s)
    symbols.sort(key=lambda code: _order(code, wheel))
    return generic, tuple(symbols), ManaCost._print(generic, symbols)


@dataclass(frozen=True)
class ManaCost:
    """A mana cost such as ``{X}{R}`` or ``{1}{W/P}``; compares by its canonical text."""

    text: str
    generic: int = field(init=False, compare=False, repr=False)
    symbols: tuple[str, ...] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        if not isinstance(self.text, str):
            raise TypeError(f"ManaCost takes the printed cost as a string, not {self.text!r}")
        generic, symbols, text = _parsed(self.text)
        object.__setattr__(self, "generic", generic)
        object.__setattr__(self, "symbols", symbols)
        object.__setattr__(self, "text", text)

    @staticmethod
    def _print(generic: int, symbols: Iterable[str]) -> str:
        symbols = list(symbols)
        variables = [s for s in symbols if s in VARIABLES]
        others = [s for s in symbols if s not in VARIABLES]
        shown = variables + ([str(generic)] if generic or not symbols else []) + others
        return "".join("{" + s + "}" for s in shown)

    @classmethod
    def of(cls, generic: int = 0, symbols: Iterable[str] = ()) -> ManaCost:
        return cls(cls._print(max(generic, 0), symbols))

    def __repr__(self) -> str:
        return f"ManaCost({self.text!r})"

    def __str__(self) -> str:
        return self.text

    # --- reading ----------------------------------------------------------------------

    @property
    def x_count(self) -> int:
        return sum(1 for s in self.symbols if s in VARIABLES)

    @property
    def coloured(self) -> tuple[str, ...]:
        """Every symbol that is not generic or X, in canonical order."""
        return tuple(s for s in self.symbols if s not in VARIABLES)

    @property
    def colours(self) -> frozenset[str]:
        """The colours of a card with this cost (202.2): every colour letter of its symbols."""
        return frozenset(c for s in self.coloured for c in s if c in COLOURS)

    def mana_value(self, x: int = 0) -> int:
        """202.3: generic counts its number, {2/W} two, every other symbol one, X the given x."""
        value = self.generic
        for s in self.symbols:
            value += x if s in VARIABLES else 2 if _kind(s) == "monohybrid" else 1
        return value

    # --- changing (every change returns a new cost) -------------------------------------

    def with_x(self, x: int) -> ManaCost:
        """The cost with each X replaced by the chosen value (601.2b, 601.2f)."""
        if x < 0:
            raise ValueError(f"X cannot be negative: {x!r}")
        return ManaCost.of(self.generic + x * self.x_count, self.coloured)

    def __add__(self, other: ManaCost) -> ManaCost:
        return ManaCost.of(self.generic + other.generic, self.symbols + other.symbols)

    def reduced_by(self, other: ManaCost) -> ManaCost:
        """A cost reduction: its generic part lowers only generic mana, never below zero
        (118.7a); each of its coloured symbols removes a matching symbol of this cost, or
        one generic mana when none is left to remove (118.7b, 118.7c)."""
        remaining = list(self.symbols)
        generic = other.generic
        for s in other.coloured:
            if s in remaining:
                remaining.remove(s)
            else:
                generic += 1
        return ManaCost.of(max(self.generic - generic, 0), remaining)

    @property
    def open_symbols(self) -> tuple[str, ...]:
        """The hybrid and Phyrexian symbols, whose payment is announced in 601.2b."""
        return tuple(s for s in self.coloured if _kind(s) in ("hybrid", "monohybrid", "phyrexian"))

    @property
    def payment_choices(self) -> tuple[tuple[str, ...], ...]:
        """For each open symbol, in the order of :attr:`open_symbols`, the payments 601.2b
        allows: either colour of a hybrid, ``'2'`` or the colour of {2/W}, the colour or
        ``'life'`` of a Phyrexian symbol.

        >>> cost = ManaCost('{B/G}{W/P}{2/U}')
        >>> cost.open_symbols
        ('W/P', '2/U', 'B/G')
        >>> cost.payment_choices
        (('W', 'life'), ('2', 'U'), ('B', 'G'))
        """
        return tuple(_payments(s) for s in self.open_symbols)

    def paid_as(self, *choices: str) -> tuple[ManaCost, int]:
        """Settle hybrid and Phyrexian symbols as announced in 601.2b.

        One choice per such symbol, in canonical order: a colour letter, ``'2'`` for the generic
        half of {2/W}, or ``'life'`` for a Phyrexian symbol. Returns the plain cost and the life.

        >>> ManaCost('{1}{B/P}{B/P}').paid_as('B', 'life')
        (ManaCost('{1}{B}'), 2)
        >>> ManaCost('{2/W}{G/W}').open_symbols
        ('G/W', '2/W')
        >>> ManaCost('{2/W}{G/W}').paid_as('G', '2')
        (ManaCost('{2}{G}'), 0)
        """
        open_symbols = self.open_symbols
        if len(choices) != len(open_symbols):
            if not open_symbols:
                raise IllegalAction("601.2b", msg("{cost} has no hybrid or Phyrexian symbol: announce no payment, got {choices}", cost=notation(self), choices=code(choices)))
            wanted = notation("".join("{" + s + "}" for s in open_symbols))
            raise IllegalAction("601.2b", msg("announce one payment for each hybrid or Phyrexian symbol ({wanted}), got {choices}", wanted=wanted, choices=code(choices)))
        generic, life, symbols = self.generic, 0, [s for s in self.symbols if s not in open_symbols]
        for symbol, choice in zip(open_symbols, choices):
            allowed = _payments(symbol)
            if choice not in allowed:
                raise IllegalAction("601.2b", msg("{symbol} cannot be paid as {choice}; choose {first} or {second}", symbol=notation("{" + symbol + "}"), choice=code(choice), first=code(allowed[0]), second=code(allowed[1])))
            if choice == "life":
                life += 2
            elif choice == "2":
                generic += 2
            else:
                symbols.append(choice)
        return ManaCost.of(generic, symbols), life

    @property
    def is_plain(self) -> bool:
        """True when only generic, coloured and {C} symbols are left to pay."""
        return all(_kind(s) in ("coloured", "colourless") for s in self.symbols)


ZERO = ManaCost("{0}")


@dataclass(frozen=True)
class Pool:
    """A mana pool: how much mana of each type (W U B R G and C for colourless) a player has."""

    mana: tuple[tuple[str, int], ...] = ()

    @classmethod
    def of(cls, counts: Mapping[str, int] | Iterable[str]) -> Pool:
        counter = Counter(counts) if not isinstance(counts, Mapping) else Counter(dict(counts))
        for kind in counter:
            if kind not in COLOURS and kind != "C":
                raise ValueError(f"unknown mana type {kind!r}; use one of W U B R G C")
        return cls(tuple(sorted(((k, n) for k, n in counter.items() if n > 0), key=lambda kn: "WUBRGC".index(kn[0]))))

    def counts(self) -> Counter[str]:
        return Counter(dict(self.mana))

    def add(self, kind: str, amount: int = 1) -> Pool:
        counts = self.counts()
        counts[kind] += amount
        return Pool.of(counts)

    @property
    def total(self) -> int:
        return sum(n for _, n in self.mana)

    def __str__(self) -> str:
        return "".join("{" + k + "}" for k, n in self.mana for _ in range(n)) or "empty"

    def said(self) -> Notation | Message:
        """The pool in a message: its mana symbols, or "empty" in the reader's language."""
        return notation(self) if self.total else msg_p("mana pool", "empty")

    def __repr__(self) -> str:
        return f"Pool.of({dict(self.mana)!r})"

    def pay(self, cost: ManaCost, generic: str = "") -> Pool:
        """The pool left after paying a plain cost (601.2h); partial payment is not allowed.

        Coloured and {C} symbols need that exact mana; generic takes whatever is left, so
        paying the specific symbols first never blocks a payment that was possible. ``generic``
        names the mana that pays the generic part (``'RG'`` or ``'{R}{G}'``), the caster's
        choice; left out, generic is paid with colourless mana first, then with the most
        plentiful colour (on a tie, the cost's own colour), which keeps the rarer colours for
        later spells.
        """
        if not cost.is_plain or cost.x_count:
            raise ValueError(f"settle X, hybrid and Phyrexian symbols before paying {cost}")
        counts = self.counts()
        for symbol in cost.symbols:
            if counts[symbol] <= 0:
                raise IllegalAction("601.2h", msg("cannot pay {symbol} of {cost} (pool: {pool})", symbol=notation("{" + symbol + "}"), cost=notation(cost), pool=self.said()))
            counts[symbol] -= 1
        if generic:
            return Pool.of(_pay_generic(counts, cost, generic, self))
        left = cost.generic
        own = cost.colours
        for kind in ["C"] + sorted(COLOURS, key=lambda c: (-counts[c], c not in own, COLOURS.index(c))):
            used = min(left, counts[kind])
            counts[kind] -= used
            left -= used
        if left:
            raise IllegalAction("601.2h", msg("cannot pay {cost}: {left} generic mana missing (pool: {pool})", cost=notation(cost), left=left, pool=self.said()))
        return Pool.of(counts)


def _pay_generic(counts: Counter[str], cost: ManaCost, generic: str, pool: Pool) -> Counter[str]:
    """What is left of ``counts`` once the mana the caster named pays the generic part of ``cost``."""
    letters = generic.replace("{", "").replace("}", "").upper()
    if any(letter not in COLOURS and letter != "C" for letter in letters):
        raise IllegalAction("601.2h", msg("generic={generic}: name the mana of the pool that pays the generic part, e.g. 'RG' or '{example}'",
                                          generic=code(generic), example=notation("{R}{G}")))
    if len(letters) != cost.generic:
        raise IllegalAction("601.2h", msg("generic={generic} does not pay the generic part of {cost}, which is {part}: name one mana for each",
                                          generic=code(generic), cost=notation(cost), part=notation("{" + str(cost.generic) + "}")))
    for letter in letters:
        if counts[letter] <= 0:
            raise IllegalAction("601.2h", msg("no {symbol} is left in the pool for the generic part of {cost} (pool: {pool})",
                                              symbol=notation("{" + letter + "}"), cost=notation(cost), pool=pool.said()))
        counts[letter] -= 1
    return counts
