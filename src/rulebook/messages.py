"""What an engine says, as gettext messages with named placeholders (issue 13).

An engine never writes a sentence into an f-string: it builds a :class:`Message` with one of
the markers below, whose names Babel's Python extractor knows as keywords (:data:`KEYWORDS`):

    msg("{clan} places a half-elf on {square}", clan=clan_name, square="c2")
    msg_n("{count} sprite must roll", "{count} sprites must roll", len(exposed), count=len(exposed))
    msg_p("clan", "red")                     # a short word told apart by its context

A message *is* its English text (a ``str``: the msgid filled in), so a doctest that prints a
refusal, a test that looks for words in a trace and ``Fired`` equality read as before. The site translates the msgid in the engine's domain (``engine.NAME``) for the
page's language and fills the placeholders, each value in that language too: a :class:`Message`
is translated in turn, anything with ``names`` by language (a card: its printed name, a
:class:`Name`) shows the name in the reader's language, :func:`code` is Python shown as code,
a tuple is a list. Numbers and :func:`notation` (a square, a card's rank and suit, a mana
cost: written the same in every language) are shown as they are. A bare ``str`` is English
that no reader of another language can read: tests/test_engine_speech.py refuses one.

This module sits at the bottom of the package, beside :mod:`.errors`, so the engines (which
make messages), :mod:`.errors` (whose IllegalAction carries one) and the renderer all import it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Self

__all__ = ["Message", "Name", "Code", "Notation", "msg", "msg_n", "msg_p", "code", "notation", "KEYWORDS", "english",
           "untold", "messages_in"]

#: The markers as Babel's extractor keywords (argument positions of msgid, plural, context).
KEYWORDS: dict[str, Any] = {"msg": None, "msg_n": (1, 2), "msg_p": ((1, "c"), 2)}


class Message(str):  # noqa: SLOT000 - instances carry their msgid and parameters
    """A sentence an engine says. It *is* its English text (a ``str``, so traces and refusals
    read, compare and print as before) and keeps what a translation needs: the msgid, its
    plural form and count, its context and the placeholders' values."""

    msgid: str
    plural: str | None
    n: int
    context: str | None
    params: tuple[tuple[str, Any], ...]

    def __new__(cls, msgid: str, params: tuple[tuple[str, Any], ...] = (), plural: str | None = None, n: int = 1,
                context: str | None = None) -> Self:
        # A game makes hundreds of thousands of these: a value that is text already, or a plain
        # int, is what english makes of it without the call; a text with no braces at all has
        # nothing to fill or unescape.
        form = msgid if plural is None or n == 1 else plural
        if params:
            text = form.format_map({k: v if isinstance(v, str) else str(v) if type(v) is int else english(v) for k, v in params})
        else:
            text = form.format_map({}) if "{" in form or "}" in form else form
        made = str.__new__(cls, text)
        made.msgid, made.plural, made.n, made.context, made.params = msgid, plural, n, context, tuple(params)
        return made

    def __getnewargs__(self) -> tuple[Any, ...]:
        # A copy or a pickle is made again from the msgid and the values: the English text
        # alone, taken for a msgid, would be formatted again ("pay {2}" has no field to fill).
        return self.msgid, self.params, self.plural, self.n, self.context

    @property
    def values(self) -> dict[str, Any]:
        return dict(self.params)


@dataclass(frozen=True)
class Name:
    """A proper name printed in several languages (a piece of data, not a message to translate).

    ``unprinted``: the languages its data says it was never printed in (their name is the English
    one, kept as printed). A name spelled alike in two languages ("Terror" in English and Spanish)
    is still printed in both: only the data says whether it was, never the spelling."""

    names: tuple[tuple[str, str], ...]
    default: str
    unprinted: tuple[str, ...] = ()

    @classmethod
    def of(cls, names: Mapping[str, str], default: str | None = None, unprinted: Iterable[str] = ()) -> Name:
        return cls(tuple(sorted(names.items())), default if default is not None else names.get("en", next(iter(names.values()), "")),
                   tuple(sorted(unprinted)))

    def __str__(self) -> str:
        return self.default


class Code(str):  # noqa: SLOT000 - kept as Message's siblings are; a slots change is one to measure on its own
    """Python written as it is typed (an action's repr): the same in every language, shown as code."""


def code(value: object) -> Code:
    """``value`` as the call that makes it (``Move('c4', 'd3')``), for a message's placeholder."""
    return Code(repr(value))


class Notation(str):  # noqa: SLOT000 - kept as Message's siblings are; a slots change is one to measure on its own
    """Game notation written the same in every language: a square (``c2``), a card as rank and
    suit (``7♥``), a mana cost (``{2}{R}``). Marking it says it needs no translation."""


def notation(value: object) -> Notation:
    """``value`` as notation that every language writes alike.

    >>> notation("c2")
    'c2'
    >>> isinstance(notation("{2}{R}"), Notation)
    True
    """
    return Notation(value)


def english(value: object) -> str:
    """A placeholder's value in English: a card by its English name, a list joined by commas."""
    if isinstance(value, str):  # a Message is its English text already
        return value
    if isinstance(value, (tuple, list)):
        return ", ".join(english(v) for v in value)
    names = getattr(value, "names", None)
    if names is not None and isinstance(names, Mapping):  # None first: an ABC isinstance is slow, and most values have no names
        return str(getattr(value, "name", names.get("en", value)))
    return str(value)


def msg(msgid: str, /, **params: Any) -> Message:
    return Message(msgid, tuple(params.items()))


def msg_n(singular: str, plural: str, n: int, /, **params: Any) -> Message:
    return Message(singular, tuple(params.items()), plural, n)


def msg_p(context: str, msgid: str, /, **params: Any) -> Message:
    return Message(msgid, tuple(params.items()), context=context)


def _items(said: Message) -> Iterator[tuple[str, Any]]:
    for key, value in said.params:
        for item in value if isinstance(value, (tuple, list)) else (value,):
            yield key, item


def untold(said: object) -> Iterator[str]:
    """What in ``said`` a page in another language could not tell in that language: ``said``
    itself when it is not a message, and each placeholder value (nested messages' too) that is
    not a message, a name, code, notation, a number or an object with printed ``names``. An
    engine's tests assert there is none in anything it says (docs/engines.md).

    >>> list(untold(msg("{clan} places a half-elf on {square}", clan=msg_p("clan", "red"), square=notation("c2"))))
    []
    >>> list(untold(msg("{clan} rolls {value}", clan="red", value=3)))
    ["'{clan} rolls {value}' fills {clan} with str 'red'"]
    """
    if not isinstance(said, Message):
        yield f"not a message: {str(said)[:70]!r}"
        return
    for key, item in _items(said):
        if isinstance(item, Message):
            yield from untold(item)
        elif not (isinstance(item, (Name, Code, Notation, int, float)) or isinstance(getattr(item, "names", None), Mapping)):
            yield f"{said.msgid!r} fills {{{key}}} with {type(item).__name__} {str(item)[:40]!r}"


def messages_in(said: Message) -> Iterator[Message]:
    """``said`` and every message inside its placeholder values: each needs its msgid in the catalog."""
    yield said
    for _, item in _items(said):
        if isinstance(item, Message):
            yield from messages_in(item)
