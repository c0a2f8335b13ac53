"""The checks that count what a source holds and its translation must hold as many times:
symbols, cross-references, numbers and markup.

Each source is counted once for the five languages it is checked in (memos of its side in the build's cache,
sorted), and a translation's counts are compared with it as sorted lists or tuples: they mostly
agree, and then no Counter is built. The checks are named in :data:`.checks.CHECKS`.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator

from ..cache import kind, memoized
from ..limits import MAX_TEXT_CHARS
from ..markup import markup_counts
from ..model import XREF_RE
from ..symbols import SYMBOLS, TOKEN_RE
from .glossary import Glossary

# A number: digits with decimal or grouping separators in any of the target languages
# ("1.5", "1,5", "1 000", "1 000" with a no-break or narrow no-break space).
_DIGIT_RE = re.compile(r"\d")
_NUMBER_RE = re.compile(r"\d+(?:[.,]\d+)*(?:[ \u00a0\u202f]\d{3}(?![\d]))*")


def _differences(wanted: list[str], have: list[str]) -> tuple[str, str]:
    """(what is missing, what is extra) as a report names them, "" for none; ``wanted`` is sorted.

    Sorted lists are compared first: they mostly agree, and then no Counter is built."""
    if len(wanted) == len(have) and wanted == sorted(have):
        return "", ""
    wanted_counts, have_counts = Counter(wanted), Counter(have)
    return _plural(wanted_counts - have_counts), _plural(have_counts - wanted_counts)


def _plural(counter: Counter[str]) -> str:
    return ", ".join(f"{k} ×{n}" if n > 1 else k for k, n in sorted(counter.items()))


def _tokens(text: str) -> tuple[list[str], tuple[int, int]]:
    """The symbol tokens of a text in order, and its braces outside them ('{', '}')."""
    if "{" not in text and "}" not in text:
        return [], (0, 0)
    # A symbol asked in a form is the symbol ({1:acc} is {1}: its form is the forms check's).
    found = [m.group(0) if ":" not in m.group(1) else "{" + m.group(1).partition(":")[0] + "}" for m in TOKEN_RE.finditer(text)]
    # A token holds one '{' and one '}' and no other: the rest are outside the tokens.
    return found, (text.count("{") - len(found), text.count("}") - len(found))


@memoized(kind("source tokens", ("source",), "a source's symbols, read once for every language it is checked in"))
def _source_tokens(source: str) -> tuple[list[str], tuple[int, int]]:
    """A source's side of :func:`check_tokens` (its tokens sorted): a source is checked against
    its translation in every language, so it is read once."""
    found, braces = _tokens(source)
    return sorted(found), braces


def check_tokens(source: str, translation: str, language: str, glossary: Glossary) -> Iterable[str]:
    """Symbols are meanings the site draws as icons: the same ones, as many times."""
    found, braces = _tokens(translation)
    wanted, source_braces = _source_tokens(source)
    if not found and not wanted and braces == (0, 0):
        return ()  # no symbol, no brace: most texts
    return _token_details(found, braces, wanted, source_braces)


def _token_details(found: list[str], braces: tuple[int, int], wanted: list[str], source_braces: tuple[int, int]) -> Iterator[str]:
    # The source's own tokens are symbols: the loader let none through that neither the toolkit
    # nor the book's engine knows (an engine's {knock}).
    known = [t for t in found if t in SYMBOLS or t in wanted]
    if len(known) < len(found):
        yield f"unknown symbol {', '.join(t for t in found if t not in known)}; only symbols of the source may be used"
    for brace, count, in_source in zip("{}", braces, source_braces):
        if count > in_source:
            yield f"stray {brace!r}: template syntax such as {{{{ }}}} or {{% %}} is not allowed; copy the source's symbols like {{W}}"
            break
    missing, extra = _differences(wanted, known)
    if missing:
        yield f"symbol missing: {missing}; keep every symbol of the source"
    if extra:
        yield f"symbol not in the source: {extra}"


def _references(text: str) -> tuple[list[str], tuple[int, int]]:
    """The cross-references of a text, and its '[[' and ']]' outside them."""
    if "[[" not in text and "]]" not in text:
        return [], (0, 0)
    parts = XREF_RE.split(text)  # text, book, target, text, ...: one pass, no match objects
    rest = "".join(parts[::3])  # the text without its cross-references
    found = [f"[[{book}:{target}]]" if book is not None else f"[[{target}]]" for book, target in zip(parts[1::3], parts[2::3])]
    return found, (rest.count("[["), rest.count("]]"))


@memoized(kind("source references", ("source",), "a source's cross-references, once for every language"))
def _source_references(source: str) -> tuple[list[str], tuple[int, int]]:
    """The source's side, sorted, read once for every language (as :func:`_source_tokens`)."""
    found, marks = _references(source)
    return sorted(found), marks


def check_references(source: str, translation: str, language: str, glossary: Glossary) -> Iterable[str]:
    """Cross-references are links the site resolves by id: copy them unchanged."""
    wanted, source_marks = _source_references(source)
    have, marks = _references(translation)
    missing, extra = _differences(wanted, have)
    malformed = marks[0] > source_marks[0] or marks[1] > source_marks[1]
    if not (missing or extra or malformed):
        return ()
    found = [f"cross-reference missing: {missing}; copy [[...]] unchanged"] if missing else []
    found += [f"cross-reference not in the source: {extra}"] if extra else []
    return found + (["malformed cross-reference: '[[' or ']]' outside [[rule-id]] / [[book:rule-id]]"] if malformed else [])


def _numbers(text: str) -> list[str]:
    """The numbers of a text, as their digits only ("1 000" and "1.000" are "1000")."""
    if not _DIGIT_RE.search(text):
        return []  # most texts: nothing to read
    # Symbols and link ids hold no number of the text ({2}, [[regola-3]]); without a '{' or a
    # '[[' (most texts) there is none to blank. Blanked, most texts have no digit left.
    if "{" in text or "[[" in text:
        text = TOKEN_RE.sub(" ", text) if "{" in text else text
        text = XREF_RE.sub(" ", text) if "[[" in text else text
        if not _DIGIT_RE.search(text):
            return []
    # Read the text as a page shows it: a line break inside a paragraph is a space ("3\n333"
    # and "3 333" are the same on the page). Split and strip, not a regex: "[ \t]*\n" rescans
    # a run of spaces from each of its characters (a 200 kB run of spaces took 34 s).
    plain = " ".join(line.strip(" \t") for line in text.split("\n")) if "\n" in text else text.strip(" \t")  # blanks at the ends hold no number
    # A number is digits and separators: dropping the separators leaves its digits.
    return [number.translate(_SEPARATORS) for number in _NUMBER_RE.findall(plain)]


_SEPARATORS = str.maketrans("", "", ". ,\u00a0\u202f")


@memoized(kind("source numbers", ("source",), "a source's numbers, once for every language"))
def _source_numbers(source: str) -> list[str]:
    """The source's side, sorted, read once for every language (as :func:`_source_tokens`)."""
    return sorted(_numbers(source))


def check_numbers(source: str, translation: str, language: str, glossary: Glossary) -> Iterable[str]:
    """The same numbers in digits; decimal and grouping separators may follow the language."""
    missing, extra = _differences(_source_numbers(source), _numbers(translation))
    if not (missing or extra):
        return ()
    found = [f"number missing: {missing}; write numbers in digits as in the source"] if missing else []
    return found + ([f"number not in the source: {extra}"] if extra else [])


_MARKUP = {
    "strong": "'**' (bold)",
    "emphasis": "'*' (italic)",
    "list_items": "list line ('- ')",
    "paragraphs": "paragraph break (blank line)",
}
#: What :func:`_markup` counts, in this order (two texts compare at once): the markup and the
#: '*' left over as text.
_COUNTED = (*_MARKUP, "stray_stars")
_NO_MARKUP = (0,) * len(_COUNTED)


def _markup(text: str) -> tuple[int, ...]:
    # Without '*', '-' or a line break a text has no markup at all: no need to parse it.
    if "*" not in text and "-" not in text and "\n" not in text:
        return _NO_MARKUP
    counts = markup_counts(text).get  # a Counter's get: no __missing__ call for a count of none
    return tuple([counts(name, 0) for name in _COUNTED])


#: A source is checked against its translation in every language: counted once.
_source_markup = memoized(kind("source markup", ("source",), "a source's markup counts, once for every language"))(_markup)


def check_markup(source: str, translation: str, language: str, glossary: Glossary) -> Iterable[str]:
    """Bold, italic, list lines and paragraphs as in the source, as the page parses them."""
    if max(len(source), len(translation)) > MAX_TEXT_CHARS:
        return ()  # never parsed nor shown: the loader or the length check reports it
    wanted_counts, have_counts = _source_markup(source), _markup(translation)
    if wanted_counts == have_counts:
        return ()
    return _markup_details(wanted_counts, have_counts)


def _markup_details(wanted_counts: tuple[int, ...], have_counts: tuple[int, ...]) -> Iterator[str]:
    wanted, have = dict(zip(_COUNTED, wanted_counts)), dict(zip(_COUNTED, have_counts))
    # A '*' the parser left as text, where the source has none, is a marker without its partner.
    unbalanced = have["stray_stars"] > wanted["stray_stars"]
    for name, what in _MARKUP.items():
        if have[name] == wanted[name]:
            continue
        if unbalanced and name in ("strong", "emphasis") and have[name] < wanted[name]:
            yield f"unbalanced {what}: every opening marker needs its closing one"
        else:
            yield f"{what}: source has {wanted[name]}, translation has {have[name]}"
    if unbalanced and all(have[n] == wanted[n] for n in ("strong", "emphasis")):
        yield "stray '*': write it as in the source, or remove it"
