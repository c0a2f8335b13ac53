"""What GNU ``msgfmt -c --check-format`` refuses in a translation, refused here too.

A message flagged ``python-format`` or ``python-brace-format`` must keep its msgid's
placeholders: the same names, of the same kind (a form of a plural may leave one out, as
msgfmt allows, since it may serve a single number); and a translation begins and ends with a
newline exactly when its msgid does. Babel flags a message whose msgid looks like such a format
(a rulebook's ``{W}`` is ``python-brace-format`` to it, ``50% di`` ``python-format``), as
xgettext does, so msgfmt checks them in every catalog we write. Babel's own ``python_format``
checker lets a translation drop a named placeholder, which msgfmt refuses: the placeholders
are compared here, with Babel's expression for finding them.
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterator

from babel.messages.catalog import PYTHON_FORMAT, Message

from ..cache import kind, memoized

# Conversions msgfmt takes for one another (its argument types).
_KINDS = {**dict.fromkeys("diouxX", "integer"), **dict.fromkeys("eEfFgG", "float"), "c": "character", **dict.fromkeys("sra", "any")}
# A field msgfmt reads as a placeholder: a name or a number, then .attribute or [index] parts.
_FIELD_RE = re.compile(r"(?:[A-Za-z_]\w*|\d+)?(?:\.[A-Za-z_]\w*|\[[^\]]+\])*")


def format_details(message: Message) -> Iterator[str]:
    """What msgfmt would say of a translated message, in words for its translator."""
    sources = [message.id] if isinstance(message.id, str) else list(message.id)
    strings = [message.string] if isinstance(message.string, str) else list(message.string or ())
    plural = len(sources) > 1
    for index, translation in enumerate(strings):
        if not translation:
            continue
        source = sources[min(index, len(sources) - 1)]
        if "python-format" in message.flags:
            yield from _compared(_source_percent(source), _percent(translation), plural, "python-format", "%(name)s")
        if "python-brace-format" in message.flags and (wanted := _source_braces(source)) is not None:
            have = _braces(translation)
            if have is None:
                yield "python-brace-format: a lone '{' or '}'; write placeholders as in the source, and a brace itself as {{ or }}"
            else:
                yield from _compared(wanted, have, plural, "python-brace-format", "{name}")
        if source.startswith("\n") != translation.startswith("\n"):
            yield _newlines("begins", source.startswith("\n"))
        if source.endswith("\n") != translation.endswith("\n"):
            yield _newlines("ends", source.endswith("\n"))


def _newlines(where: str, has: bool) -> str:
    return (f"newlines: the source {where} {'with' if has else 'without'} a line break, the translation "
            f"{'without' if has else 'with'}; begin and end as the source does")


def _compared(wanted: dict[str, str] | None, have: dict[str, str] | None, plural: bool, flag: str, example: str) -> Iterator[str]:
    if wanted == have:
        return  # nearly every message: nothing missing, extra or changed
    if wanted is None or have is None:
        if wanted != have:
            yield f"{flag}: the source and the translation do not use placeholders alike; copy the source's (such as {example})"
        return
    missing = [name for name in wanted if name not in have]
    if missing and not plural:
        yield f"{flag}: placeholder missing: {', '.join(missing)}; keep every placeholder of the source"
    if extra := [name for name in have if name not in wanted]:
        yield f"{flag}: placeholder not in the source: {', '.join(extra)}; copy the source's placeholders unchanged"
    if changed := [name for name in have if name in wanted and have[name] != wanted[name]]:
        yield f"{flag}: placeholder of another kind: {', '.join(changed)}; write it as the source does"


def _percent(text: str) -> dict[str, str] | None:
    """name (or position) -> kind of each ``%`` placeholder; None when named and unnamed mix."""
    found = [(name, _KINDS.get(kind, kind)) for name, _, kind in (m.groups() for m in PYTHON_FORMAT.finditer(text)) if kind != "%"]
    named = [name is not None for name, _ in found]
    if any(named) and not all(named):
        return None
    return {name if name is not None else f"#{position + 1}": kind for position, (name, kind) in enumerate(found)}


def _braces(text: str) -> dict[str, str] | None:
    """name -> "" of each ``{}`` placeholder; None when the text is no brace format to msgfmt."""
    if "{" not in text and "}" not in text:
        return {}  # one literal piece, no field
    try:
        fields = [name for _, name, _, _ in _FORMATTER.parse(text) if name is not None]
    except ValueError:
        return None
    if not all(_FIELD_RE.fullmatch(name) for name in fields):
        return None
    return {_NAME_END_RE.split(name, maxsplit=1)[0]: "" for name in fields}


_NAME_END_RE = re.compile(r"[.\[]")
_FORMATTER = string.Formatter()  # its parse keeps no state
# A msgid is checked against its translation in every language: its placeholders read once (the
# dictionaries are only read).
_source_percent = memoized(kind("source percent", ("source",), "a msgid's %-placeholders, once for every language"))(_percent)
_source_braces = memoized(kind("source braces", ("source",), "a msgid's {}-placeholders, once for every language"))(_braces)
