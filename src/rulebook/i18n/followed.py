"""The text a translation follows, recorded in its entry: when that text changes, the entry goes fuzzy.

An engine's msgids are English (the gettext convention, :mod:`.domains`), but its sentences are
worded in the books' language: the Italian catalog of an engine is where a rule's wording is
decided, and every other language, English included, translates that Italian. gettext marks a
translation fuzzy when its msgid changes (``msgmerge``, Babel's ``Catalog.update``); an Italian
msgstr reworded changes no msgid, so nothing would go fuzzy and the other languages would keep
the old meaning unseen.

So each entry of such a domain carries the text it follows as an extracted comment::

    #. it: Paga {cost} dalla riserva.
    #. it[0]: {n} segnalino        (a plural message: one comment per form)
    #. it[1]: {n} segnalini

``rulebook i18n update`` writes it into the template from the followed language's catalog, and
Babel's merge copies a template's extracted comments into every catalog (that language's own
excepted: :func:`strip_records`). A translator sees it beside the msgid in any PO editor; nobody
edits it. Before the merge replaces a catalog's record with the template's, :func:`changed`
compares the two: a translated entry whose followed text changed is marked fuzzy, its
translation kept. An entry without a record yet (the first update) just gets one.
:func:`stale_problems` finds the entries whose record differs from the followed catalog now,
when that catalog was edited and ``rulebook i18n update`` not run since.

Texts are compared by their words, as :mod:`.content` compares comments: a PO editor that wraps
the comment at another width records the same text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from textwrap import shorten

from babel.messages.catalog import Catalog, Message

from ..errors import Problem
from ..languages import language as parse_language

#: What a record is: a language's text, one string per form.
Record = tuple[str, ...]
MessageKey = tuple[str | None, str]  # (msgctxt, msgid); a plural message by its singular msgid

_BLANKS_RE = re.compile(r"[\t\n\x0b\x0c\r ]+")  # what a PO writer may wrap a comment at (not a no-break space)


def _tag(language: str) -> re.Pattern[str]:
    return re.compile(rf"{re.escape(language)}(?:\[\d+\])?:(?: |$)")


def _forms(string: str | Iterable[str] | None) -> Record:
    if string is None:
        return ("",)
    return (string,) if isinstance(string, str) else tuple(s or "" for s in string)


def record_lines(language: str, string: str | Iterable[str] | None) -> list[str]:
    """The extracted comments recording ``string`` (a msgstr, or its plural forms) in ``language``."""
    forms = _forms(string)
    tags = [language] if isinstance(string, str) else [f"{language}[{index}]" for index in range(len(forms))]
    # A comment is one line: the msgstr's line breaks become spaces (words are what is compared).
    return [f"{tag}: {_BLANKS_RE.sub(' ', form).strip()}".rstrip() for tag, form in zip(tags, forms, strict=True)]


def recorded(message: Message, language: str) -> Record | None:
    """The text ``message`` records in ``language`` (None: no record). A record's comments come
    last; a line without a tag continues the form before it (a comment wrapped by the writer)."""
    tag = _tag(language)
    forms: list[str] = []
    for line in message.auto_comments:
        found = tag.match(line)
        if found:
            forms.append(line[found.end():])
        elif forms:
            forms[-1] = f"{forms[-1]} {line}"
    return tuple(forms) if forms else None


def without_record(comments: Iterable[str], language: str) -> list[str]:
    """The extracted comments before the record of ``language``: the developer's notes."""
    tag = _tag(language)
    kept: list[str] = []
    for line in comments:
        if tag.match(line):
            break
        kept.append(line)
    return kept


def same(one: Record | None, other: Record | None) -> bool:
    """Whether two records say the same text: the same words, form by form."""
    if one is None or other is None:
        return one is other
    return len(one) == len(other) and all(a.split() == b.split() for a, b in zip(one, other, strict=True))


def has_text(string: str | Iterable[str] | None) -> bool:
    return any(form.strip() for form in _forms(string))


def add_records(template: Catalog, followed: Catalog, language: str) -> Catalog:
    """Record in each message of ``template`` the msgstr ``followed`` (the catalog of ``language``)
    gives it, when it gives one (an untranslated one is nothing to follow)."""
    for message in template:
        if not message.id:
            continue
        source = followed.get(message.id, message.context)
        comments = without_record(message.auto_comments, language)
        if source is not None and has_text(source.string):
            comments += record_lines(language, source.string)
        message.auto_comments = comments
    return template


def strip_records(catalog: Catalog, language: str) -> None:
    """A catalog of the followed language itself records nothing: its msgstr is the text."""
    for message in catalog:
        if message.id and recorded(message, language) is not None:
            message.auto_comments = without_record(message.auto_comments, language)


def _key(message: Message) -> MessageKey:
    return message.context, message.id if isinstance(message.id, str) else message.id[0]


def records(catalog: Catalog, language: str) -> dict[MessageKey, Record | None]:
    """Each message's record, by (msgctxt, msgid), before a merge replaces them."""
    return {_key(message): recorded(message, language) for message in catalog if message.id}


def changed(catalog: Catalog, before: Mapping[MessageKey, Record | None], language: str) -> list[Message]:
    """Mark fuzzy each translated message whose followed text changed since its record ``before``
    the merge (the translation is kept: a translator compares it with the new text); the messages
    marked. Untranslated messages, and those recorded for the first time, are left as they are."""
    marked = []
    for message in catalog:
        if not message.id or not has_text(message.string):
            continue
        old, new = before.get(_key(message)), recorded(message, language)
        if old is not None and new is not None and not same(old, new):
            message.flags |= {"fuzzy"}
            marked.append(message)
    return marked


def stale_problems(catalog: Catalog, shown: str, followed: Catalog, language: str, followed_shown: str) -> list[Problem]:
    """Each translated entry of ``catalog`` (shown as ``shown``) whose record of ``language``
    differs from what ``followed`` says now: its text was edited and ``rulebook i18n update``
    not run since, so nothing marked the translation fuzzy yet."""
    problems = []
    for message in catalog:
        if not message.id or not has_text(message.string):
            continue
        old = recorded(message, language)
        if old is None:
            continue  # never recorded: `rulebook i18n update --check` says the catalog is out of date
        source = followed.get(message.id, message.context)
        now = _forms(source.string) if source is not None and has_text(source.string) else None
        if same(old, now):
            continue
        name = f"{_key(message)[1]!r}" + (f" ({message.context})" if message.context else "")
        said = repr(" / ".join(_short(form) for form in now)) if now is not None else "nothing (untranslated)"
        words = _language_name(language)
        problems.append(Problem(shown, message.lineno or 1, 1,
                                f"{name}: translated from the {words} {' / '.join(_short(f) for f in old)!r}, but "
                                f"{followed_shown} now says {said}; run `rulebook i18n update` (it marks this entry fuzzy), "
                                f"then make the translation say what the new {words} says and remove the fuzzy flag"))
    return problems


def _language_name(code: str) -> str:
    try:
        return str(parse_language(code).locale.english_name or code)
    except ValueError:  # RulebookError: a code Babel does not know
        return code


def _short(text: str) -> str:
    return shorten(text, 120, placeholder=" …") if len(text) > 120 else text
