"""A msgstr that copies its msgid: the ``same`` check, and a translator's way to say a copy is right.

A copied source is the commonest untranslated text that no empty-msgstr count sees ("[en] Draw a
card", or the Italian pasted as is). What a translation must change is the source's words: not
its symbols, link ids or placeholders (:func:`words_only`), nor the glossary's names whose
official form in the language is the source's own (:func:`to_translate`). Where a language
truly says the same, the translator writes ``# ignore-same: why`` above the message
(:func:`ignored_checks`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import replace

from babel.messages.catalog import Message

from ..cache import kind, memoized
from ..model import XREF_RE
from ..symbols import TOKEN_RE
from .glossary import Glossary


def words_only(text: str) -> str:
    """``text`` with its link ids and symbols blanked: [[fasi-magia]] does not say "magia"."""
    return TOKEN_RE.sub(" ", XREF_RE.sub(" ", text))


# Letters are what a reader translates; digits, symbols, punctuation and markup are not.
_LETTER_RE = re.compile(r"[^\W\d_]")


def _flat(text: str) -> str:
    return " ".join(text.split()).casefold()


@memoized(kind("source flat", ("source",), "a source's words to compare a copy with, once for every language"))
def _source_flat(source: str) -> tuple[str, str]:
    """A source flattened (:func:`_flat`), with its longest word (a symbol or a link id, which a
    translation copies, only when it has nothing else): a source is compared with its translation
    in every language, so it is flattened once."""
    wanted = _flat(source)
    return wanted, max(wanted.split(" "), key=lambda word: ("[" not in word and "{" not in word, len(word)))


def to_translate(source: str, language: str, glossary: Glossary) -> str:
    """What of ``source`` a translation into ``language`` must change: the text without its symbols
    and placeholders, its cross-references, and the glossary's terms and names whose official
    form in ``language`` is the source's own (a plane's name, "BingoMagic", pt "cascata")."""
    text = words_only(source)
    for term in glossary.terms:
        own = {f.casefold() for f in term.forms.get(language, ())}
        same = tuple(f for f in term.forms.get(glossary.source, ()) if f.casefold() in own)
        if same:
            text = replace(term, forms={glossary.source: same}).blanked(glossary.source, text)
    return text


# What may stand around a copied source as a tag: punctuation and at most one short code ("[en] ",
# " (fr)", "EN: "); "a " before "demo" is an article, not a tag.
_TAG_RE = re.compile(r"^(?=.*[^\w\s])[\W_]*(?:[^\W\d_]{1,3}[\W_]*)?$")


def check_same(source: str, translation: str, language: str, glossary: Glossary) -> Iterable[str]:
    """A msgstr that is its msgid is a copy, not a translation; so is the msgid with a tag before
    or after it ("[en] " + the source), or a source of three words or more followed or preceded
    by anything. A text with nothing to translate (symbols, numbers, references, markup, names
    the glossary keeps) may be the same."""
    wanted, longest = _source_flat(source)
    # A copy holds every word of the source, casefolded as it is (casefolding makes no space):
    # most translations lack its longest, and are not flattened at all.
    if not wanted or longest not in translation.casefold():
        return ()
    return _copy_details(source, translation, language, glossary, wanted)


def _copy_details(source: str, translation: str, language: str, glossary: Glossary, wanted: str) -> Iterator[str]:
    have = _flat(translation)
    if not (have.startswith(wanted) or have.endswith(wanted)):
        return
    before, after = ("", have[len(wanted):]) if have.startswith(wanted) else (have[: len(have) - len(wanted)], "")
    if have != wanted and len(wanted.split()) < 3 and not _TAG_RE.match(before + " " + after):
        return  # "Demo" -> "Demo book": a short source that a translation starts with
    if not _LETTER_RE.search(to_translate(source, language, glossary)):
        return
    how = " and ".join(f"{text.strip()!r} {where}" for text, where in ((before, "before it"), (after, "after it")) if text.strip())
    yield (f"the source copied{', with ' + how if how else ''}, not a translation; translate it (if {language} truly says "
           "the same, write the comment '# ignore-same: why' above the message)")


#: Checks a message may switch off, for a translator to say "this is right" where a check can
#: only guess; never the checks that keep the site safe or working. See :func:`ignored_checks`.
IGNORABLE = frozenset({"same"})


def ignored_checks(message: Message) -> set[str]:
    """The checks a message switches off: a translator comment ``# ignore-NAME: why`` (the reason
    on the same line), or Weblate's flag ``#, ignore-NAME``.

    Our catalogs use the comment: GNU ``msgcat`` and ``msgmerge`` keep every translator comment
    but drop a flag they do not know, so a flag would not survive a round trip through them.
    """
    flags, comments = message.flags, message.user_comments
    if not comments and not any(flag in flags for flag in _IGNORE_FLAGS):
        return set()  # nearly every message: no comment, no such flag
    said = {name.strip() for name, _, why in (line.partition(":") for line in comments) if why.strip()}
    return {name for name in IGNORABLE if f"ignore-{name}" in flags or f"ignore-{name}" in said}


_IGNORE_FLAGS = tuple(f"ignore-{name}" for name in sorted(IGNORABLE))
