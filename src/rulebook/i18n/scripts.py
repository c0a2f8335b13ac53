"""The writing system of a language, from Babel's likely subtags, and the check that a
translation holds no letters of a third one: a Russian card name pasted into an English or
Portuguese sentence («Террор» for Terror) passes every other check, and two reviews found one.

A translation may use its own script and Latin (rule ids, symbols, the English names of
cards and rules documents), and any script its source uses. Scripts this table does not
name are not judged, so a language it does not know is never flagged wrongly.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from babel.core import Locale, UnknownLocaleError, get_global, parse_locale

# Babel's script codes and the first word of the Unicode names of their letters.
UNICODE_NAMES = {
    "Latn": "LATIN", "Cyrl": "CYRILLIC", "Grek": "GREEK", "Arab": "ARABIC", "Hebr": "HEBREW",
    "Armn": "ARMENIAN", "Geor": "GEORGIAN", "Deva": "DEVANAGARI", "Thai": "THAI",
}
KNOWN_SCRIPTS = frozenset(UNICODE_NAMES.values())
_ASCII_RE = re.compile("[\x00-\x7f]+")


@lru_cache(maxsize=None)  # pure: cache.py
def script_of(code: str) -> str | None:
    """Babel's script for a language code: ``ru`` -> ``Cyrl``, ``sr_Latn`` -> ``Latn``.

    >>> script_of("ru"), script_of("pt_BR"), script_of("sr_Latn")
    ('Cyrl', 'Latn', 'Latn')
    """
    try:
        locale = Locale.parse(code)
    except (ValueError, UnknownLocaleError):
        return None
    if locale.script:
        return locale.script
    likely = get_global("likely_subtags").get(locale.language)
    return parse_locale(likely)[2] if likely else None


@lru_cache(maxsize=None)  # pure: cache.py
def _script_word(char: str) -> str | None:
    """The Unicode script word of a letter of a known script (``Ж`` -> ``CYRILLIC``); None otherwise.

    Asked once per distinct character: a catalog holds a few hundred, its texts millions.
    """
    if not char.isalpha():
        return None
    word = unicodedata.name(char, "").split(" ")[0]
    return word if word in KNOWN_SCRIPTS else None


#: Per script, the characters known to be no letter, a Latin letter or a letter of that script:
#: a translation made of them alone (nearly every one) needs no look at its characters one by one.
_ORDINARY: dict[str, set[str]] = {}


def foreign_letters(source: str, translation: str, language: str) -> str:
    """The letters of ``translation`` in a script neither its language, Latin nor the source uses."""
    own = UNICODE_NAMES.get(script_of(language) or "")
    if own is None or translation.isascii():
        return ""  # ASCII letters are Latin, which every language may use
    ordinary = _ORDINARY.get(own)
    if ordinary is None:
        ordinary = _ORDINARY[own] = set(map(chr, range(128)))
    if not _outside(own, ordinary).search(translation):
        return ""  # one scan at C speed, no set of the text's characters made
    characters = set(translation)
    ordinary.update(char for char in characters if _script_word(char) in (None, own, "LATIN"))
    # None: not a letter, or a letter of a script the table does not name (never judged). An
    # ASCII character is Latin or no letter: only the others are looked at.
    allowed = {None, own, "LATIN"} | {_script_word(char) for char in set(_ASCII_RE.sub("", source))}
    # Each distinct character once, in the order the translation first has it.
    return "".join(char for char in dict.fromkeys(_ASCII_RE.sub("", translation)) if _script_word(char) not in allowed)


#: Per script, a search for any character not (yet) known to be ordinary, and how many were known
#: when it was made: made again when more are known (a catalog adds a few hundred, once).
_OUTSIDE: dict[str, tuple[int, re.Pattern[str]]] = {}


def _outside(own: str, ordinary: set[str]) -> re.Pattern[str]:
    made = _OUTSIDE.get(own)
    if made is None or made[0] != len(ordinary):
        made = _OUTSIDE[own] = (len(ordinary), re.compile("[^" + "".join(map(re.escape, sorted(ordinary))) + "]"))
    return made[1]
