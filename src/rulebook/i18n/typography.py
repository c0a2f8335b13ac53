"""Typography a language's style sheet asks of every translation (docs/style/LANG.md): the books',
the site's words and the engines' sentences alike.

French (docs/style/fr.md) puts a no-break space before ``:`` ``;`` ``!`` ``?``: U+00A0, or the
narrow U+202F that French typesetting also uses before ``;`` ``!`` ``?``. An ordinary space
there lets a line break before the colon, and no space at all is English typography. Canadian
French spaces the colon only. What is not prose is left alone: placeholders and their forms
(``{target:à}``, ``{card.gender:m=…|f=…}``), symbols, cross-references (``[[casting:601.2]]``),
code, addresses, times (``10:30``), and the product name *Magic: The Gathering*.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from .glossary import Glossary

#: The spaces French puts before its high punctuation.
NO_BREAK = "\u00a0\u202f"
# What is not prose, blanked before the search: {…} (nested once, for a select's options),
# [[…]], `code`, an address, digits on both sides of a colon, the game's English name.
_NOT_PROSE_RE = re.compile(r"\{(?:[^{}]|\{[^{}]*\})*\}|\[\[[^\]]*\]\]|`[^`]*`|\b[a-z][a-z0-9+.-]*://\S*|\d:\d|Magic: The Gathering")
#: Punctuation after a letter, a digit or a closing mark with no space, or after an ordinary space.
_SPACED = {mark: re.compile(rf"(?:(?<=[\w»”’)\]…\x00])|[ \t\n]+)[{re.escape(mark)}]") for mark in ":;!?"}


def _marks(language: str) -> str:
    """The punctuation the language spaces with a no-break space ("" for none)."""
    code, _, region = language.replace("-", "_").partition("_")
    if code != "fr":
        return ""
    return ":" if region.upper() == "CA" else ":;!?"


def check_typography(source: str, translation: str, language: str, glossary: Glossary) -> Iterable[str]:
    """Each punctuation mark the language spaces that is glued to its word or follows an ordinary space.

    >>> list(check_typography("", "Exemple 2: la carte ; le tour\u00a0: fin", "fr", Glossary()))
    ["typography: '2:', 'carte ;': French writes a no-break space (U+00A0) before : ; ! ? (see docs/style/fr.md)"]
    """
    marks = _marks(language)
    if not marks or not any(mark in translation and _unspaced(mark, translation) for mark in marks):
        return ()  # most texts: each mark after its no-break space
    return _details(translation, marks)


def _unspaced(mark: str, text: str) -> bool:
    """Whether a ``mark`` of ``text`` follows anything but a no-break space: only such a mark can be
    glued or follow an ordinary space (what is not prose never ends in a no-break space, which is
    no \\S: a mark after one is prose's own, rightly spaced)."""
    at = text.find(mark)
    while at != -1:
        if at == 0 or text[at - 1] not in NO_BREAK:
            return True
        at = text.find(mark, at + 1)
    return False


def _details(translation: str, marks: str) -> Iterator[str]:
    prose = _NOT_PROSE_RE.sub(lambda m: "\x00" * len(m.group(0)), translation)
    found = [match for mark in marks for match in _SPACED[mark].finditer(prose)]
    if found:
        quoted = [repr(_word_before(translation, m.start()) + translation[m.start():m.end()]) for m in sorted(found, key=lambda m: m.start())]
        more = f" and {len(quoted) - 3} more" if len(quoted) > 3 else ""
        yield (f"typography: {', '.join(quoted[:3])}{more}: French writes a no-break space (U+00A0) before "
               f"{' '.join(marks)} (see docs/style/fr.md)")


def _word_before(text: str, end: int) -> str:
    """The word that ends at ``end``, its spaces aside (what a translator searches the msgstr for)."""
    words = text[:end].split()
    return words[-1] if words else ""
