"""Every use of Babel beyond its documented API, in one place: written for Babel 2.16 to 2.19.

Babel documents ``read_po``/``write_po``, ``Catalog``'s public attributes and methods,
``Locale.plural_form`` and the extractors. Our reader and writer need a little more: its PO
parser (to check the header before Babel acts on it, see :mod:`rulebook.i18n.pofile`), its string quoting,
the hooks through which a ``Catalog`` takes and gives its header fields, the dictionary that
holds its messages (to copy a catalog cheaply), its wrapping expression (to swap in a linear
one) and the text of its parse errors. Each of them is used here and nowhere else, so a new
Babel release is checked against this module and its test (``tests/test_adapter_babel.py``,
which names the versions it was written for) instead of against the whole package.

What we rely on, by Babel version:

- ``PoFileParser(catalog, abort_invalid=True).parse(lines)`` raises ``PoFileError`` with the
  0-based ``lineno`` of the bad line, its text ending in ``" on N"`` (2.16-2.19; only the
  wording before it changed, as in "Start of line didn't match any expected keyword." in 2.16,
  "Unknown or misformatted keyword" in 2.19: never shown without our own words around it);
  an entry without ``msgstr`` is such an error from 2.17 on, an ``IndexError`` in 2.16 (the
  parser's ``offset`` is then the entry's msgid line);
- ``Catalog._get_mime_headers``/``_set_mime_headers`` are the two halves of the
  ``mime_headers`` property, and the reader sets the header through the property (2.16-2.19);
- ``Catalog._messages`` is the ordered dictionary of live messages (2.16-2.19);
- the reader adds each live entry as ``catalog[msgid] = message`` and each ``#~`` entry as
  ``catalog.obsolete[key] = message``, so a second entry of one msgctxt and msgid is seen
  before Babel merges or replaces it (2.16-2.19);
- ``babel.messages.pofile.WORD_SEP`` is the expression ``write_po``/``normalize`` wrap with,
  looked up at each call (2.16-2.19);
- ``Message`` sets the ``python-format`` flag from the msgid (every version) and, from 2.17
  on, the ``python-brace-format`` flag too: flags derived from the msgid, not written by anyone
  (:data:`DERIVED_FLAGS`).
"""

from __future__ import annotations

import contextlib
import copy
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from babel.messages import pofile as _babel_pofile
from babel.messages.catalog import Catalog, Message
from babel.messages.catalog import parse_separated_header as _parse_separated_header
from babel.messages.pofile import PoFileError, PoFileParser
from babel.messages.pofile import normalize as _normalize
from babel.messages.pofile import unescape as _unescape

if TYPE_CHECKING:  # Babel's alias for what a message id may be (an annotation of its own)
    from babel.messages.catalog import _MessageID

#: A catalog of any class: a copy is of the class of its original.
C = TypeVar("C", bound=Catalog)

#: The Babel versions this module was written for and tested with (the oldest and the newest).
WRITTEN_FOR = ("2.16", "2.19")

#: The headers Babel reads into a Catalog's attributes (and writes back from them); any other
#: header a tool writes (X-Generator, X-Poedit-Basepath …) Babel's Catalog forgets.
BABEL_HEADERS = frozenset({
    "project-id-version", "report-msgid-bugs-to", "pot-creation-date", "po-revision-date", "last-translator",
    "language", "language-team", "plural-forms", "mime-version", "content-type", "content-transfer-encoding",
    "generated-by",
})  # fmt: skip

#: Flags Babel's ``Message`` sets or clears from the msgid itself, differently by version
#: (``python-brace-format`` from 2.17): what they say is the msgid, so they are no content.
DERIVED_FLAGS = frozenset({"python-format", "python-brace-format"})


def parse_separated_header(value: str) -> dict[str, str]:
    """``text/plain; charset=UTF-8`` or ``nplurals=2; plural=…`` as Babel splits them."""
    return _parse_separated_header(value)


def normalize(text: str, prefix: str = "", width: int = 76) -> str:
    """A string quoted and wrapped as ``write_po`` writes it."""
    return _normalize(text, prefix=prefix, width=width)


def unescape(quoted: str) -> str:
    """The text of one quoted PO string (``"a\\"b"`` is ``a"b``)."""
    return _unescape(quoted)


# --- reading ----------------------------------------------------------------------------------


@dataclass
class PoSyntaxError(Exception):
    """A line Babel's parser refused: ``line`` counted from 1, ``detail`` in Babel's words."""

    line: int
    detail: str


class _ObsoleteEntries(dict[str | tuple[str, str], Message]):
    """A catalog's ``#~`` entries while :func:`parse_po` reads: a key already there is a
    duplicate (Babel would let the second replace the first)."""

    def __init__(self, duplicates: list[Duplicate]) -> None:
        super().__init__()
        self.duplicates = duplicates

    def __setitem__(self, key: str | tuple[str, str], message: Message) -> None:  # Babel's key: the msgid, or it with its context
        if key in self:
            self.duplicates.append((self[key], message, True))
        super().__setitem__(key, message)


def parse_po(catalog: Catalog, lines: list[str]) -> list[Duplicate]:
    """Fill ``catalog`` from the lines of a PO file; each entry defined twice (live ones only in
    a :class:`HeaderHookCatalog`). A line Babel refuses is a :class:`PoSyntaxError`."""
    duplicates: list[Duplicate] = []
    if isinstance(catalog, HeaderHookCatalog):
        catalog._duplicates = duplicates
    catalog.obsolete = _ObsoleteEntries(duplicates)  # Babel's reader sets catalog.obsolete[key] = message
    parser = PoFileParser(catalog, abort_invalid=True)
    try:
        parser.parse(lines)
    except PoFileError as exc:
        # Babel counts lines from 0 and appends " on N" to its message.
        raise PoSyntaxError(exc.lineno + 1, str(exc).rsplit(" on ", 1)[0]) from None
    except IndexError:
        # Babel 2.16 indexes the msgstr of an entry that has none; 2.17 on say "missing msgstr"
        # at the entry's msgid, the parser's offset then.
        raise PoSyntaxError(parser.offset + 1, "missing msgstr") from None
    finally:
        if isinstance(catalog, HeaderHookCatalog):
            catalog._duplicates = None
        catalog.obsolete = dict(catalog.obsolete)
    return duplicates


#: An entry defined twice: (the first, the second, whether they are ``#~`` entries).
Duplicate = tuple[Message, Message, bool]


class HeaderHookCatalog(Catalog):
    """A Catalog that shows each header, as Babel's reader hands the fields over, to
    :meth:`check_headers` before Babel interprets them, keeps the headers Babel does not know
    (``extra_headers``, written back before Babel's last one), and, while :func:`parse_po`
    reads into it, notes each live entry defined twice (Babel would merge the second into the
    first, its translation lost)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.extra_headers: list[tuple[str, str]] = []
        self._duplicates: list[Duplicate] | None = None  # while parse_po reads into it
        self._header: Message | None = None
        super().__init__(*args, **kwargs)

    def __setitem__(self, id: _MessageID, message: Message) -> None:  # noqa: A002 - Babel's name for it
        # Babel's reader adds each live entry, the header too, as catalog[msgid] = message.
        if self._duplicates is not None:
            first = self.get(id, message.context) if id else self._header
            if first is not None:
                self._duplicates.append((first, message, False))
            elif not id:
                self._header = message
        super().__setitem__(id, message)

    def check_headers(self, headers: list[tuple[str, str]]) -> None:
        """Raise to refuse a header; called once per header read."""

    def _get_mime_headers(self) -> list[tuple[str, str]]:
        headers = super()._get_mime_headers()
        # Babel's last header (Generated-By) ends the header with its newline: others go before it.
        return headers[:-1] + self.extra_headers + headers[-1:]

    def _set_mime_headers(self, headers: Iterable[tuple[str, str]]) -> None:
        headers = list(headers)
        self.check_headers(headers)
        self.extra_headers = [(name, value) for name, value in headers if name.lower() not in BABEL_HEADERS]
        super()._set_mime_headers(headers)

    mime_headers = property(_get_mime_headers, _set_mime_headers)


def copy_catalog(catalog: C) -> C:
    """A catalog to change: its header as it is (plain values), each message a clone."""
    copied = copy.copy(catalog)
    copied._messages = {key: message.clone() for key, message in catalog._messages.items()}
    copied.obsolete = {key: message.clone() for key, message in catalog.obsolete.items()}
    return copied


def set_plural_forms(catalog: Catalog, plural_forms: str) -> None:
    """Give a catalog a plural rule (Babel has no setter for it but the header itself).

    Babel's own half of the header setter, so that a :class:`HeaderHookCatalog` keeps its
    other headers."""
    Catalog._set_mime_headers(catalog, [("Plural-Forms", plural_forms)])


# --- writing ----------------------------------------------------------------------------------

# Babel's WORD_SEP, with each alternative anchored where a run starts: a hyphenated word is
# looked for only from the start of a run of punctuation or of a word, never from inside one
# (a match from inside would have started at the run's start anyway), so no run is rescanned.
WORD_SEP = re.compile(
    "("
    r"\s+|"  # any whitespace
    r"(?<![^\s\w])[^\s\w]+\w+[a-zA-Z]-(?=\w+[a-zA-Z])|"  # hyphenated words, after punctuation
    r"(?<!\w)\w+[a-zA-Z]-(?=\w+[a-zA-Z])|"  # hyphenated words
    r"(?<=[\w\!\"\'\&\.\,\?])-{2,}(?=\w)"  # em-dash
    ")"
)


def babel_word_sep() -> re.Pattern[str]:
    """The expression Babel's writer wraps with (to compare ours with)."""
    return _babel_pofile.WORD_SEP


@contextlib.contextmanager
def linear_wrapping() -> Iterator[None]:
    """Within the block, Babel's PO writer wraps lines with :data:`WORD_SEP` (same result, linear)."""
    original = _babel_pofile.WORD_SEP
    _babel_pofile.WORD_SEP = WORD_SEP
    try:
        yield
    finally:
        _babel_pofile.WORD_SEP = original
