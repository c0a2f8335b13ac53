"""What a translation must keep of its source, like Weblate's checks and pofilter.

Each check is a small function ``(source, translation, language, glossary) -> details`` that
names what is wrong; nothing stops at the first failure (house style, habit 8). A translation
is untrusted text: it may not add HTML, links, template syntax or symbols of its own.
:func:`check_catalog` runs every check over a catalog and turns the details into
:class:`~rulebook.errors.Problem` values at ``FILE.po:LINE`` naming the msgctxt and the check.
The copy check (``same``) and what of a text is words to translate are in :mod:`.copies`.
"""

from __future__ import annotations

import re
import string
from collections import Counter
from functools import lru_cache
from pathlib import Path
from typing import Callable, Iterable, Iterator, Mapping, Protocol

from babel.messages.catalog import Catalog, Message, TranslationError

from ..errors import Problem, RulebookError
from ..languages import language as parse_language
from ..limits import MAX_PROBLEMS, MAX_TEXT_CHARS
from ..loader import display_path
from ..markup import markup_counts
from ..model import XREF_RE, is_book_domain
from ..symbols import SYMBOLS, TOKEN_RE
from .copies import check_same, ignored_checks, words_only
from .glossary import Glossary, load_glossary
from .headers import header_problems
from .pofile import read_catalog
from .scripts import foreign_letters

Check = Callable[[str, str, str, Glossary], Iterable[str]]


class StoredResults(Protocol):
    """Check results kept between builds (:class:`rulebook.i18n.stored.StoredChecks`)."""

    def details(self, source: str, translation: str, language: str, glossary: Glossary, checks: dict[str, Check]) -> list[tuple[str, str]]: ...


# A tag, or an entity with or without its ';' (browsers read "&lt/title&gt" as "</title>").
_HTML_RE = re.compile(r"<[/!?]?[A-Za-z!][^<>]*>?|&#?[A-Za-z0-9]+;?")
_LINK_RE = re.compile(r"\]\s*\(")
# Browsers ignore blanks inside "javascript :"; "data:"/"file:" count only as URLs ("data: 3" is prose).
_DANGEROUS_SCHEME_RE = re.compile(r"(?i)\b(?:javascript|vbscript)\s*:|\b(?:data|file):(?=\S)")
# A scheme starts where a run of scheme characters starts, so each run is scanned once (linear).
_URL_RE = re.compile(r"(?i)(?<![a-z0-9+.-])[a-z][a-z0-9+.-]*://|\bwww\.")
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


#: A source's words, found once for every language it is checked in.
_source_words = lru_cache(maxsize=16_384)(words_only)


def _tokens(text: str) -> tuple[list[str], tuple[int, int]]:
    """The symbol tokens of a text in order, and its braces outside them ('{', '}')."""
    if "{" not in text and "}" not in text:
        return [], (0, 0)
    found = [m.group(0) for m in TOKEN_RE.finditer(text)]
    # A token holds one '{' and one '}' and no other: the rest are outside the tokens.
    return found, (text.count("{") - len(found), text.count("}") - len(found))


@lru_cache(maxsize=16_384)
def _source_tokens(source: str) -> tuple[list[str], tuple[int, int]]:
    """A source's side of :func:`check_tokens` (its tokens sorted): a source is checked against
    its translation in every language, so it is read once."""
    found, braces = _tokens(source)
    return sorted(found), braces


def check_tokens(source: str, translation: str, language: str, glossary: Glossary) -> Iterator[str]:
    """Symbols are meanings the site draws as icons: the same ones, as many times."""
    found, braces = _tokens(translation)
    known = [t for t in found if t in SYMBOLS]
    if len(known) < len(found):
        yield f"unknown symbol {', '.join(t for t in found if t not in SYMBOLS)}; only symbols of the source may be used"
    wanted, source_braces = _source_tokens(source)
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
    rest = XREF_RE.sub("", text)
    return [m.group(0) for m in XREF_RE.finditer(text)], (rest.count("[["), rest.count("]]"))


@lru_cache(maxsize=16_384)
def _source_references(source: str) -> tuple[list[str], tuple[int, int]]:
    """The source's side, sorted, read once for every language (as :func:`_source_tokens`)."""
    found, marks = _references(source)
    return sorted(found), marks


def check_references(source: str, translation: str, language: str, glossary: Glossary) -> Iterator[str]:
    """Cross-references are links the site resolves by id: copy them unchanged."""
    wanted, source_marks = _source_references(source)
    have, marks = _references(translation)
    missing, extra = _differences(wanted, have)
    if missing:
        yield f"cross-reference missing: {missing}; copy [[...]] unchanged"
    if extra:
        yield f"cross-reference not in the source: {extra}"
    if any(count > in_source for count, in_source in zip(marks, source_marks)):
        yield "malformed cross-reference: '[[' or ']]' outside [[rule-id]] / [[book:rule-id]]"


def check_links(source: str, translation: str, language: str, glossary: Glossary) -> Iterator[str]:
    """Links come only from [[...]] cross-references; a translation may not add any other."""
    if ":" not in translation and "]" not in translation and "www." not in translation.lower():
        return  # no link syntax, no scheme, no address: most texts
    if "]" in translation and _LINK_RE.search(translation):
        yield "Markdown link syntax '](' is not allowed; use [[rule-id]] cross-references"
    # A scheme needs its ':', an address its "://" or "www." (either case): most texts have neither.
    maybe = (":" in translation, "://" in translation or "www." in translation.lower())
    for pattern, what, possible in ((_DANGEROUS_SCHEME_RE, "script or data URL", maybe[0]), (_URL_RE, "URL", maybe[1])):
        found = pattern.search(translation) if possible else None
        if found and len(pattern.findall(translation)) > len(pattern.findall(source)):
            yield f"{what} not in the source: {found.group(0)!r}"


def check_html(source: str, translation: str, language: str, glossary: Glossary) -> Iterator[str]:
    """The site escapes text and adds its own markup; raw HTML or entities are never needed."""
    if "<" not in translation and "&" not in translation:
        return  # what the expression finds starts with one of them
    found = [m.group(0) for m in _HTML_RE.finditer(translation)]
    # The loader keeps HTML out of the source; whatever merely looks like it there may stay.
    if found and len(found) > len(_HTML_RE.findall(source)):
        yield f"raw HTML {', '.join(repr(f) for f in found[:3])}; use **bold**, *italic* or a symbol"


# C0/C1 controls other than newline and tab, the bidirectional marks and overrides that can
# make text read differently from what it is ("Trojan Source"), and the zero-width characters
# that hide inside a word (a glossary term or a link id no longer matches what it shows).
_INVISIBLE_RE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]")


def check_characters(source: str, translation: str, language: str, glossary: Glossary) -> Iterator[str]:
    """No control characters or direction overrides: what a reader sees is what the text is."""
    if not _INVISIBLE_RE.search(translation):
        return
    found = sorted({f"U+{ord(c):04X}" for c in _INVISIBLE_RE.findall(translation)} - {f"U+{ord(c):04X}" for c in _INVISIBLE_RE.findall(source)})
    if found:
        yield f"invisible control character {', '.join(found)}; delete it"


def _numbers(text: str) -> list[str]:
    """The numbers of a text, as their digits only ("1 000" and "1.000" are "1000")."""
    if not _DIGIT_RE.search(text):
        return []  # most texts: nothing to read
    # Symbols and link ids hold no number of the text ({2}, [[regola-3]]); without a '{' or a
    # '[[' (most texts) there is none to blank.
    text = TOKEN_RE.sub(" ", text) if "{" in text else text
    text = XREF_RE.sub(" ", text) if "[[" in text else text
    # Read the text as a page shows it: a line break inside a paragraph is a space ("3\n333"
    # and "3 333" are the same on the page). Split and strip, not a regex: "[ \t]*\n" rescans
    # a run of spaces from each of its characters (a 200 kB run of spaces took 34 s).
    plain = " ".join(line.strip(" \t") for line in text.split("\n")) if "\n" in text else text.strip(" \t")  # blanks at the ends hold no number
    # A number is digits and separators: dropping the separators leaves its digits.
    return [number.translate(_SEPARATORS) for number in _NUMBER_RE.findall(plain)]


_SEPARATORS = str.maketrans("", "", ". ,\u00a0\u202f")


@lru_cache(maxsize=16_384)
def _source_numbers(source: str) -> list[str]:
    """The source's side, sorted, read once for every language (as :func:`_source_tokens`)."""
    return sorted(_numbers(source))


def check_numbers(source: str, translation: str, language: str, glossary: Glossary) -> Iterator[str]:
    """The same numbers in digits; decimal and grouping separators may follow the language."""
    missing, extra = _differences(_source_numbers(source), _numbers(translation))
    if missing:
        yield f"number missing: {missing}; write numbers in digits as in the source"
    if extra:
        yield f"number not in the source: {extra}"


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
    counts = markup_counts(text)
    return tuple(counts[name] for name in _COUNTED)


#: A source is checked against its translation in every language: counted once.
_source_markup = lru_cache(maxsize=16_384)(_markup)


def check_markup(source: str, translation: str, language: str, glossary: Glossary) -> Iterator[str]:
    """Bold, italic, list lines and paragraphs as in the source, as the page parses them."""
    if max(len(source), len(translation)) > MAX_TEXT_CHARS:
        return  # never parsed nor shown: the loader or the length check reports it
    wanted_counts, have_counts = _source_markup(source), _markup(translation)
    if wanted_counts == have_counts:
        return
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


def check_length(source: str, translation: str, language: str, glossary: Glossary) -> Iterator[str]:
    """A translation is about as long as its source; a huge one is a paste gone wrong (or worse)."""
    limit = min(MAX_TEXT_CHARS, 3 * len(source) + 200)
    if len(translation) > limit:
        yield f"{len(translation):,} characters for a source of {len(source):,}; at most {limit:,}: translate the source, nothing more"


def check_glossary(source: str, translation: str, language: str, glossary: Glossary) -> Iterator[str]:
    """Where the source uses a glossary term, the translation uses its official form."""
    # Link ids and symbols are not words: [[fasi-magia]] does not say "magia".
    required = list(glossary.required(_source_words(source), language))
    translation = words_only(translation) if required else translation
    for term in required:
        if not term.found_in(language, translation):
            yield f"glossary: the source uses {term.shown('it')!r}; write the official {language} {term.shown(language)!r} (see {term.origin})"


def check_script(source: str, translation: str, language: str, glossary: Glossary) -> Iterator[str]:
    """No letters of a third writing system: a card name pasted in from another language."""
    if letters := foreign_letters(source, translation, language):
        yield (f"letters of another writing system ({letters}) in a {language} translation: "
               "write names and words as printed in this language")


def check_spelling(source: str, translation: str, language: str, glossary: Glossary) -> Iterator[str]:
    """One spelling per language across the books: the glossary's ``spelling:`` conventions."""
    spellings = [spelling for spelling in glossary.spellings if spelling.language == language]
    # A link id is no spelling: [[tiro-costo]] stays as the book wrote it.
    translation = words_only(translation) if spellings else translation
    for spelling in spellings:
        for found in dict.fromkeys(spelling.found_in(translation)):
            why = f" ({spelling.note})" if spelling.note else ""
            yield f"spelling: {found!r} is not this project's {language} spelling; write {spelling.use!r}{why} (see {spelling.origin})"


def _placeholders(text: str) -> set[str] | None:
    """The ``{name}`` fields of a str.format text as written (spec included); None if malformed."""
    try:
        parsed = list(string.Formatter().parse(text))
    except ValueError:
        return None
    return {
        "{" + name + (f"!{conversion}" if conversion else "") + (f":{spec}" if spec else "") + "}"
        for _, name, spec, conversion in parsed
        if name is not None
    }


def check_placeholders(source: str, translation: str, language: str, glossary: Glossary) -> Iterator[str]:
    """Named placeholders such as {passed} are filled in by the site: the same ones, written alike."""
    wanted, have = _placeholders(source) or set(), _placeholders(translation)
    if have is None:
        yield "a lone '{' or '}': write placeholders as in the source, e.g. {passed}, and a brace itself as {{ or }}"
        return
    if missing := wanted - have:
        yield f"placeholder missing: {', '.join(sorted(missing))}; keep every placeholder of the source"
    if extra := have - wanted:
        yield f"placeholder not in the source: {', '.join(sorted(extra))}; copy the source's placeholders unchanged"


#: Every check by the name a problem reports; order is the order of the report.
CHECKS: dict[str, Check] = {
    "tokens": check_tokens,
    "references": check_references,
    "links": check_links,
    "html": check_html,
    "characters": check_characters,
    "numbers": check_numbers,
    "markup": check_markup,
    "length": check_length,
    "glossary": check_glossary,
    "spelling": check_spelling,
    "script": check_script,
    "same": check_same,
}
#: The checks of a message of the site's own words (a shipped domain): plain text with named
#: placeholders, no rulebook markup.
INTERFACE_CHECKS: dict[str, Check] = {
    "placeholders": check_placeholders,
    "links": check_links,
    "html": check_html,
    "characters": check_characters,
    "numbers": check_numbers,
    "same": check_same,
    # The project's spelling conventions and scripts bind every word a reader sees, the
    # engines' sentences and the site's words as much as the books.
    "spelling": check_spelling,
    "script": check_script,
}
def checks_for(domain: str, copies_allowed: bool = False) -> dict[str, Check]:
    """A rulebook's messages are rulebook text; a package's words (the site's) plain text with placeholders.

    ``copies_allowed``: the catalog is in the language of its msgids (the shipped ``en/site.po``,
    English msgids), where a msgstr equal to its msgid is the translation.
    """
    checks = CHECKS if is_book_domain(domain) else INTERFACE_CHECKS
    return {name: check for name, check in checks.items() if name != "same"} if copies_allowed else checks


def same_language(a: str, b: str) -> bool:
    """Whether two codes name one language (``en`` and ``en_GB``): no translation between them."""
    try:
        return parse_language(a).locale.language == parse_language(b).locale.language
    except RulebookError:
        return False


def check_translation(
    source: str, translation: str, language: str, glossary: Glossary = Glossary(), checks: dict[str, Check] = CHECKS
) -> list[tuple[str, str]]:
    """Every (check name, detail) a translation breaks; empty when it may be shown."""
    return [(name, detail) for name, check in checks.items() for detail in check(source, translation, language, glossary)]


def translation_pairs(message: Message) -> list[tuple[str, str]]:
    """(source, translation) of a message; each plural form is checked against the plural msgid."""
    if isinstance(message.id, str):
        return [(message.id, message.string)] if isinstance(message.string, str) else []
    strings = message.string if isinstance(message.string, (tuple, list)) else ()
    return [(message.id[-1], form) for form in strings]


def checked_messages(catalog: Catalog) -> Iterator[Message]:
    """Messages that would be shown: translated (every plural form), not fuzzy (a fuzzy one falls back anyway)."""
    for message in catalog:
        pairs = translation_pairs(message) if message.id else []
        if pairs and all(translation for _, translation in pairs) and not message.fuzzy:
            yield message


def message_problems(message: Message, path: str, language: str, glossary: Glossary, checks: dict[str, Check] = CHECKS,
                     *, stored: StoredResults | None = None) -> list[Problem]:
    """Every problem of one message at its line; ``stored``: results kept from an earlier build
    (:class:`rulebook.i18n.stored.StoredChecks`), asked instead of :func:`check_translation`."""
    name_of = message.context or (message.id if isinstance(message.id, str) else message.id[0])
    ignored = ignored_checks(message)
    if ignored:
        checks = {name: check for name, check in checks.items() if name not in ignored}
    check = check_translation if stored is None else stored.details
    return [
        Problem(path, message.lineno or 1, 1, f"{name_of}: [{name}] {detail}")
        for source, translation in dict.fromkeys(translation_pairs(message))
        for name, detail in check(source, translation, language, glossary, checks)
    ]


def check_catalog(
    catalog: Catalog, path: str, language: str, glossary: Glossary = Glossary(), checks: dict[str, Check] = CHECKS
) -> list[Problem]:
    """Every problem of every shown message of one catalog, in file order; past MAX_PROBLEMS, a count."""
    problems = sorted(
        (p for message in checked_messages(catalog) for p in message_problems(message, path, language, glossary, checks)),
        key=lambda p: p.line,
    )
    if len(problems) > MAX_PROBLEMS:
        rest = len(problems) - MAX_PROBLEMS
        problems = problems[:MAX_PROBLEMS] + [Problem(path, problems[MAX_PROBLEMS].line, 1, f"too many problems; {rest:,} more not shown: fix these first")]
    return problems


# --- Babel checkers (entry point ``babel.checkers``), so ``pybabel compile`` reports the same -----

_OUR_CONTEXT_RE = re.compile(r"^[a-z0-9][a-z0-9-]*(?:/[a-z0-9][a-z0-9.-]*)*:[a-z_]+$")


def _babel_check(check: Check, catalog: Catalog | None, message: Message) -> None:
    # Babel runs every registered checker on every catalog it compiles; touch only ours.
    if not (message.context and _OUR_CONTEXT_RE.match(message.context)):
        return
    if not (isinstance(message.id, str) and isinstance(message.string, str) and message.string) or message.fuzzy:
        return
    language = str(catalog.locale) if catalog is not None and catalog.locale else ""
    details = list(check(message.id, message.string, language, Glossary()))
    if details:
        raise TranslationError(f"{message.context}: " + "; ".join(details))


def babel_check_tokens(catalog: Catalog | None, message: Message) -> None:
    _babel_check(check_tokens, catalog, message)


def babel_check_references(catalog: Catalog | None, message: Message) -> None:
    _babel_check(check_references, catalog, message)


# --- whole files ----------------------------------------------------------------------------


def check_po_file(path: Path, language: str, glossary: Glossary = Glossary(), source: str | None = None) -> list[Problem]:
    """Every problem of one catalog: its PO syntax, its header, then every check of every shown message.

    ``source`` is the language of the catalog's msgids (default: the books' language, for a
    rulebook's catalog); in that language a msgstr may be its msgid.
    """
    catalog, problems = read_catalog(path, locale=None)
    if catalog is None:
        return problems
    shown = display_path(path)
    source = source if source is not None else (glossary.source if is_book_domain(path.stem) else "")
    checks = checks_for(path.stem, copies_allowed=bool(source) and same_language(language, source))
    lines = Path(path).read_text(encoding="utf-8-sig").split("\n")
    return header_problems(catalog, shown, lines, language) + check_catalog(catalog, shown, language, glossary.for_book(path.stem), checks)


def check_template_file(path: Path) -> list[Problem]:
    """A template's problems: its PO syntax and its header (no placeholder)."""
    template, problems = read_catalog(path, locale=None)
    if template is None:
        return problems
    return header_problems(template, display_path(path), Path(path).read_text(encoding="utf-8-sig").split("\n"), None)


def po_files(locales: Path, languages: Iterable[str] | None = None) -> list[tuple[str, Path]]:
    """(language, path) of every catalog under ``locales/<lang>/LC_MESSAGES/``."""
    wanted = set(languages) if languages else None
    return [
        (po.parent.parent.name, po)
        for po in sorted(Path(locales).glob("*/LC_MESSAGES/*.po"))
        if wanted is None or po.parent.parent.name in wanted
    ]


def check_locales(
    locales: Path, languages: Iterable[str] | None = None, *, source: str | None, domain_sources: Mapping[str, str] | None = None
) -> list[Problem]:
    """Problems of the glossary, of every template and of every catalog; one broken file never hides another's.

    ``source`` is the books' language, whose forms the glossary looks for (None: not known);
    ``domain_sources`` the language of the msgids of each other domain (``{"site": "en"}``).
    """
    glossary_path = Path(locales) / "glossary.yaml"
    if source is None and glossary_path.exists():
        glossary = Glossary()
        problems = [Problem(str(glossary_path), 1, 1, "not checked: the source language is not known; list the site's languages in mkdocs.yml")]
    else:
        glossary = load_glossary(Path(locales), source=source or "")
        problems = list(glossary.problems)
    if languages is None:
        for template in sorted((Path(locales) / "templates").glob("*.pot")):
            problems.extend(check_template_file(template))
    for language, path in po_files(locales, languages):
        problems.extend(check_po_file(path, language, glossary, (domain_sources or {}).get(path.stem)))
    return problems
