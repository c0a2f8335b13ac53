"""What a catalog says, apart from how a tool laid it out: staleness is judged on this.

Poedit, Weblate (through translate-toolkit), ``msgcat`` and Babel each write PO in their own
layout: lines wrapped at another width, a string split elsewhere, references joined on one
line or one per line, a blank line more or less. A catalog saved by any of them says the same
thing, so ``rulebook i18n update`` neither calls it out of date nor rewrites it.

The **content** of a catalog (or a template) is:

- its entries, as a set keyed by (msgctxt, msgid): each one's msgid_plural, msgstr (every
  plural form), flags (as a set, but for those Babel derives from the msgid, differently by
  version: ``python-format``, ``python-brace-format``), translator comments and extracted comments (the words of
  each kind, in order), references (file and line, as a multiset), previous msgid (``#|``) and
  whether it is obsolete (``#~``); for an obsolete entry only what gettext keeps of it:
  msgstr, flags, translator comments, previous msgid;
- its header: the words of the comment above it, whether it is fuzzy, and the fields
  Project-Id-Version, Report-Msgid-Bugs-To, Last-Translator, Language-Team, Language (the
  locale it names: ``pt-BR`` is ``pt_BR``), Plural-Forms (how many forms, and which form each
  number takes: two spellings of one rule are one rule), the charset (any spelling of UTF-8)
  and any other field a tool added (``X-Poedit-Basepath``).

Not content: the wrapping of strings and comments, escapes that mean the same character, the
order of entries, of references and of the kinds of comment, blank lines, the dates
(``POT-Creation-Date``, ``PO-Revision-Date``: when, not what) and the stamps tools leave on
every save (``Generated-By``, ``X-Generator``, ``MIME-Version``, ``Content-Transfer-Encoding``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from babel import Locale, UnknownLocaleError
from babel.messages.catalog import Catalog, Message

from ..adapters.babel import DERIVED_FLAGS
from .plurals import RuleError, parse_rule

#: Header fields a tool stamps on every save: never a reason to call a catalog out of date.
STAMPS = frozenset({"x-generator", "generated-by", "mime-version", "content-transfer-encoding"})


class Entry(NamedTuple):
    """One entry's content. A tuple: a catalog's content holds thousands, made, hashed and
    compared on every read and write of ``rulebook i18n update``."""

    plural: str | None
    strings: tuple[str, ...]
    flags: frozenset[str]
    translator_comments: str
    extracted_comments: str
    references: tuple[tuple[str, int | None], ...]  # sorted: a multiset
    previous: tuple[str, ...]
    obsolete: bool


@dataclass(frozen=True)
class Content:
    header_comment: str
    fuzzy: bool
    fields: tuple[tuple[str, str], ...]  # (lowercase name, value as it counts), sorted
    plural_rule: tuple[int, tuple[int, ...]] | str  # nplurals and the form of each probe; the text if unreadable
    entries: frozenset[tuple[tuple[str | None, str], Entry]]


def content(catalog: Catalog) -> Content:
    """The content of a catalog as read (or as about to be written)."""
    entries = [(message, False) for message in catalog if message.id]
    entries += [(message, True) for message in catalog.obsolete.values()]
    return Content(
        header_comment=_words(line.strip().removeprefix("#") for line in catalog.header_comment.splitlines()),
        fuzzy=bool(catalog.fuzzy),
        fields=tuple(sorted(_fields(catalog))),
        plural_rule=plural_rule(catalog.plural_forms),
        entries=frozenset(_entry(message, obsolete) for message, obsolete in entries),
    )


def plural_rule(plural_forms: str) -> tuple[int, tuple[int, ...]] | str:
    """A Plural-Forms header as what it means: (nplurals, the form each probe number takes).

    ``nplurals=3; plural=n%10==1 && n%100!=11 ? 0 : …`` (as Weblate writes it) and Babel's
    ``(n%10==1 && n%100!=11 ? 0 : …)`` are the same rule. A header that cannot be read is
    compared as written. Read by :func:`.plurals.parse_rule`, the one reader of plural rules.
    """
    try:
        rule = parse_rule(plural_forms)
    except RuleError:
        return " ".join(plural_forms.split())
    return rule.count, rule.forms


def _fields(catalog: Catalog) -> list[tuple[str, str]]:
    found = []
    for name, value in catalog.mime_headers:
        name, value = name.lower(), str(value).strip()
        if name in STAMPS or name in ("pot-creation-date", "po-revision-date", "plural-forms"):
            continue
        if name == "content-type":
            charset = value.lower().rpartition("charset=")[2].strip()
            value = "utf-8" if charset in ("utf-8", "utf8") else charset
        elif name == "language":
            value = _locale(value)
        found.append((name, value))
    return found


def _locale(code: str) -> str:
    try:
        return str(Locale.parse(code.replace("-", "_")))
    except (ValueError, UnknownLocaleError):
        return code


def _words(lines: Iterable[str]) -> str:
    """Comment lines as their words: a tool that wraps a comment at another width says the same."""
    return " ".join(word for line in lines for word in line.split())


def _comment_words(comments: list[str]) -> str:
    """:func:`_words` of a message's comments; most messages have none or one."""
    if not comments:
        return ""
    return " ".join(comments[0].split()) if len(comments) == 1 else _words(comments)


def _reference_order(location: tuple[str, int | None]) -> tuple[str, int]:
    return location[0], location[1] or 0


def _references(locations: Sequence[tuple[str, int | None]]) -> tuple[tuple[str, int | None], ...]:
    """The references as a multiset: equal ones together, in file and line order."""
    if len(locations) < 2:
        return tuple(locations)
    return tuple(sorted(Counter(locations).elements(), key=_reference_order))


def _entry(message: Message, obsolete: bool) -> tuple[tuple[str | None, str], Entry]:
    ids = (message.id,) if isinstance(message.id, str) else tuple(message.id)
    string = message.string
    strings = (string or "",) if isinstance(string, str) or string is None else tuple(s or "" for s in string)
    entry = Entry(
        plural=ids[1] if len(ids) > 1 else None,
        strings=strings,
        flags=frozenset(message.flags) - DERIVED_FLAGS,
        translator_comments=_comment_words(message.user_comments),
        extracted_comments="" if obsolete else _comment_words(message.auto_comments),
        references=() if obsolete else _references(message.locations),
        previous=tuple(message.previous_id or ()),
        obsolete=obsolete,
    )
    return (message.context, ids[0]), entry
