"""What a translation must keep of its source, like Weblate's checks and pofilter.

Each check is a small function ``(source, translation, language, glossary) -> details`` that
names what is wrong; nothing stops at the first failure (house style, habit 8). A translation
is untrusted text: it may not add HTML, links, template syntax or symbols of its own.
:func:`check_catalog` runs every check over a catalog and turns the details into
:class:`~rulebook.errors.Problem` values at ``FILE.po:LINE`` naming the msgctxt and the check.
The copy check (``same``) and what of a text is words to translate are in :mod:`.copies`; the
checks that count symbols, cross-references, numbers and markup in :mod:`.counted`.
"""

from __future__ import annotations

import re
import string
from collections.abc import Callable, Iterable, Iterator, Mapping
from functools import partial
from pathlib import Path
from typing import Protocol

from babel.messages.catalog import Catalog, Message, TranslationError

from ..cache import kind, memoized
from ..errors import LoadError, Problem, RulebookError
from ..languages import language as parse_language
from ..limits import MAX_PROBLEMS, MAX_TEXT_CHARS, read_catalog_limited
from ..loader import display_path
from ..model import is_book_domain
from . import catalog_path, domain_of
from .catalogs import obsolete_duplicates
from .copies import check_same, ignored_checks, words_only
from .counted import check_markup, check_numbers, check_references, check_tokens
from .formats import format_details
from .forms import check_symbol_forms, prose_grammar
from .glossary import Glossary, Spelling, Term, load_glossary
from .grammar import spec_problems
from .headers import header_problems
from .plurals import form_problems
from .pofile import read_catalog
from .scripts import foreign_letters
from .typography import check_typography

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
#: A source's words, found once for every language it is checked in.
_source_words = memoized(kind("source words", ("source",), "a source's words, found once for every language"))(words_only)


# "www." in any case: no character but "W" lowercases to (or with) a "w" (checked over Unicode).
_WWW_RE = re.compile(r"[wW]{3}\.")


def check_links(source: str, translation: str, language: str, glossary: Glossary) -> Iterable[str]:
    """Links come only from [[...]] cross-references; a translation may not add any other."""
    address = "://" in translation or _WWW_RE.search(translation) is not None
    if ":" not in translation and "]" not in translation and not address:
        return ()  # no link syntax, no scheme, no address: most texts
    return _link_details(source, translation, address)


def _link_details(source: str, translation: str, address: bool) -> Iterator[str]:
    if "]" in translation and _LINK_RE.search(translation):
        yield "Markdown link syntax '](' is not allowed; use [[rule-id]] cross-references"
    # A scheme needs its ':', an address its "://" or "www." (either case): most texts have neither.
    maybe = (":" in translation, address)
    for pattern, what, possible in ((_DANGEROUS_SCHEME_RE, "script or data URL", maybe[0]), (_URL_RE, "URL", maybe[1])):
        found = pattern.search(translation) if possible else None
        if found and len(pattern.findall(translation)) > len(pattern.findall(source)):
            yield f"{what} not in the source: {found.group(0)!r}"


def check_html(source: str, translation: str, language: str, glossary: Glossary) -> Iterable[str]:
    """The site escapes text and adds its own markup; raw HTML or entities are never needed."""
    if "<" not in translation and "&" not in translation:
        return ()  # what the expression finds starts with one of them
    return _html_details(source, translation)


def _html_details(source: str, translation: str) -> Iterator[str]:
    found = [m.group(0) for m in _HTML_RE.finditer(translation)]
    # The loader keeps HTML out of the source; whatever merely looks like it there may stay.
    if found and len(found) > len(_HTML_RE.findall(source)):
        yield f"raw HTML {', '.join(repr(f) for f in found[:3])}; use **bold**, *italic* or a symbol"


# C0/C1 controls other than newline and tab, the bidirectional marks and overrides that can
# make text read differently from what it is ("Trojan Source"), and the zero-width characters
# that hide inside a word (a glossary term or a link id no longer matches what it shows).
_INVISIBLE_RE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]")


def check_characters(source: str, translation: str, language: str, glossary: Glossary) -> Iterable[str]:
    """No control characters or direction overrides: what a reader sees is what the text is."""
    if not _INVISIBLE_RE.search(translation):
        return ()
    found = sorted({f"U+{ord(c):04X}" for c in _INVISIBLE_RE.findall(translation)} - {f"U+{ord(c):04X}" for c in _INVISIBLE_RE.findall(source)})
    return (f"invisible control character {', '.join(found)}; delete it",) if found else ()


def check_length(source: str, translation: str, language: str, glossary: Glossary) -> Iterable[str]:
    """A translation is about as long as its source; a huge one is a paste gone wrong (or worse)."""
    limit = min(MAX_TEXT_CHARS, 3 * len(source) + 200)
    if len(translation) > limit:
        return (f"{len(translation):,} characters for a source of {len(source):,}; at most {limit:,}: translate the source, nothing more",)
    return ()


def check_glossary(source: str, translation: str, language: str, glossary: Glossary) -> Iterable[str]:
    """Where the source uses a glossary term, the translation uses its official form."""
    # Link ids and symbols are not words: [[fasi-magia]] does not say "magia".
    required = list(glossary.required(_source_words(source), language))
    return _glossary_details(translation, language, required) if required else ()


def _glossary_details(translation: str, language: str, required: list[Term]) -> Iterator[str]:
    translation = words_only(translation)
    for term in required:
        if not term.found_in(language, translation):
            yield f"glossary: the source uses {term.shown('it')!r}; write the official {language} {term.shown(language)!r} (see {term.origin})"


def check_script(source: str, translation: str, language: str, glossary: Glossary) -> Iterable[str]:
    """No letters of a third writing system: a card name pasted in from another language."""
    if letters := foreign_letters(source, translation, language):
        return ((f"letters of another writing system ({letters}) in a {language} translation: "
                 "write names and words as printed in this language"),)
    return ()


_ARGUMENT_RE = re.compile(r"(?<![\w.])[A-Za-z_]\w*=(?=['\"\w{])")


def check_spelling(source: str, translation: str, language: str, glossary: Glossary) -> Iterable[str]:
    """One spelling per language across the books: the glossary's ``spelling:`` conventions."""
    spellings, anywhere = glossary.spelling_rules(language)
    if not spellings:
        return ()
    return _spelling_details(translation, language, spellings, anywhere)


def _spelling_details(translation: str, language: str, spellings: tuple[Spelling, ...], anywhere: re.Pattern[str]) -> Iterator[str]:
    # A link id is no spelling: [[tiro-costo]] stays as the book wrote it; nor is an argument's
    # name in code a message quotes as it is typed (colour='G' is the engine's API).
    translation = _ARGUMENT_RE.sub(" ", words_only(translation))
    if not anywhere.search(translation):
        return  # the common case: none of the language's avoided forms, in one search
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


def check_placeholders(source: str, translation: str, language: str, glossary: Glossary, *, project: Path | None = None) -> Iterator[str]:
    """Named placeholders such as {passed} are filled in by the site: the same ones, written alike.

    A translation may ask for a name's form or select on its gender or number ({card:acc},
    {card.gender:m=…|f=…}, docs/grammar.md): the placeholder is the same, the form one its
    language's grammar knows."""
    wanted, have = _placeholders(source) or set(), _placeholders(translation)
    if have is None:
        yield "a lone '{' or '}': write placeholders as in the source, e.g. {passed}, and a brace itself as {{ or }}"
        return
    asked = {field for field in have if ":" in field or "." in field} - wanted
    if asked:
        try:
            yield from spec_problems(translation, prose_grammar(language, project))
        except LoadError as error:  # its own problems are reported at the grammar file's lines
            yield f"the forms cannot be checked: {error.problems[0]}"
        have = (have - asked) | {"{" + re.split(r"[.:!]", field[1:-1], maxsplit=1)[0] + "}" for field in asked}
    if missing := wanted - have:
        yield f"placeholder missing: {', '.join(sorted(missing))}; keep every placeholder of the source"
    if extra := have - wanted:
        yield f"placeholder not in the source: {', '.join(sorted(extra))}; copy the source's placeholders unchanged"


#: Every check by the name a problem reports; order is the order of the report.
CHECKS: dict[str, Check] = {
    "tokens": check_tokens,
    "forms": check_symbol_forms,
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
    "typography": check_typography,
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
    "typography": check_typography,
}
def checks_for(domain: str, copies_allowed: bool = False, project: Path | None = None) -> dict[str, Check]:
    """A rulebook's messages are rulebook text; a package's words (the site's) plain text with placeholders.

    ``copies_allowed``: the catalog is in the language of its msgids (the shipped ``en/site.po``,
    English msgids), where a msgstr equal to its msgid is the translation. ``project``: the
    project's locales folder, whose ``LANG/grammar.yaml`` adds to the forms a msgstr may ask for.
    """
    checks = CHECKS if is_book_domain(domain) else INTERFACE_CHECKS
    if project is not None:  # its grammar files add forms a msgstr may ask for
        checks = {**checks, "placeholders": partial(check_placeholders, project=project)} if checks is INTERFACE_CHECKS else {
            **checks, "forms": partial(check_symbol_forms, project=project)}
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
    found = [
        Problem(path, message.lineno or 1, 1, f"{name_of}: [{name}] {detail}")
        for source, translation in dict.fromkeys(translation_pairs(message))
        for name, detail in check(source, translation, language, glossary, checks)
    ]
    # What GNU msgfmt -c refuses besides (a format flag's placeholders, line breaks at the ends);
    # where a check above already refuses the translation, it says so in the project's words.
    return found or [Problem(path, message.lineno or 1, 1, f"{name_of}: [{detail.split(':', 1)[0]}]{detail.split(':', 1)[1]}")
                     for detail in format_details(message)]


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


def check_po_file(path: Path, language: str, glossary: Glossary = Glossary(), source: str | None = None,
                  project: Path | None = None) -> list[Problem]:
    """Every problem of one catalog: its PO syntax, its header, then every check of every shown message.

    ``source`` is the language of the catalog's msgids (default: the books' language, for a
    rulebook's catalog); in that language a msgstr may be its msgid. ``project``: the project's
    locales folder (its grammar files add forms), when the catalog is a shipped one.
    """
    shown = display_path(path)
    try:
        data = read_catalog_limited(path, shown)
    except LoadError as exc:
        return list(exc.problems)
    # Its domain is its name, as every reader of a catalog gives it: one shared read serves them all.
    domain = domain_of(path)  # a book's section catalog (BOOK/SECTION.po) is its book's domain
    catalog, problems = read_catalog(path, domain=domain, shared=True, data=data)
    if catalog is None:
        return problems
    source = source if source is not None else (glossary.source if is_book_domain(domain) else "")
    checks = checks_for(domain, copies_allowed=bool(source) and same_language(language, source), project=project)
    return catalog_problems(catalog, shown, data, language) + check_catalog(catalog, shown, language, glossary.for_book(domain), checks)


def catalog_problems(catalog: Catalog, shown: str, data: bytes, language: str | None) -> list[Problem]:
    """What is wrong with a catalog as a whole (``data``: its bytes): its header (:func:`header_problems`),
    a msgid both live and ``#~``, a plural message lacking a form its header asks for. The build
    shows nothing of such a catalog, as ``rulebook i18n compile`` compiles nothing of it: one
    verdict wherever the catalog is read."""
    lines = data.decode("utf-8-sig", "replace").split("\n")
    forms = form_problems(catalog, shown) if language is not None else []
    return header_problems(catalog, shown, lines, language) + obsolete_duplicates(catalog, shown) + forms


def check_template_file(path: Path) -> list[Problem]:
    """A template's problems: its PO syntax and its header (no placeholder)."""
    shown = display_path(path)
    try:
        data = read_catalog_limited(path, shown)
    except LoadError as exc:
        return list(exc.problems)
    template, problems = read_catalog(path, shared=True, data=data)
    if template is None:
        return problems
    return catalog_problems(template, shown, data, None)


def po_files(locales: Path, languages: Iterable[str] | None = None) -> list[tuple[str, Path]]:
    """(language, path) of every catalog under ``locales/<lang>/LC_MESSAGES/``, a book's section
    catalogs (``BOOK/SECTION.po``, :mod:`.parts`) after its own."""
    wanted = set(languages) if languages else None
    found = [*Path(locales).glob("*/LC_MESSAGES/*.po"), *Path(locales).glob("*/LC_MESSAGES/*/*.po")]
    # A book's section files right after its own file; the others in the order of their paths.
    ordered = sorted(found, key=lambda p: (str(catalog_path(Path(locales), _language_of(p, locales), domain_of(p))), str(p)))
    return [(_language_of(po, locales), po) for po in ordered if wanted is None or _language_of(po, locales) in wanted]


def _language_of(path: Path, locales: Path) -> str:
    return path.relative_to(locales).parts[0]


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
        templates = Path(locales) / "templates"
        for template in sorted([*templates.glob("*.pot"), *templates.glob("*/*.pot")], key=lambda p: p.with_suffix("").parts):
            problems.extend(check_template_file(template))
    for language, path in po_files(locales, languages):
        problems.extend(check_po_file(path, language, glossary, (domain_sources or {}).get(domain_of(path)), project=Path(locales)))
    return problems
