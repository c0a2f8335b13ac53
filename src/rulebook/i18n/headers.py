"""The header of every template and catalog: real values, never a tool's placeholder.

Babel, xgettext and msginit leave placeholders for a person to fill in (``FULL NAME
<EMAIL@ADDRESS>``, ``LANGUAGE <LL@li.org>``, ``Copyright (C) YEAR ORGANIZATION``). Ours are
filled from what is known:

- ``Project-Id-Version``: the project's name (``site_name`` in ``mkdocs.yml``) and the domain
  (the rulebook's id, or ``site``);
- ``Report-Msgid-Bugs-To``: the plugin option ``msgid_bugs_address`` (where to report a wrong
  source text; empty when not configured, as xgettext leaves it);
- ``Language``: the catalog's language;
- ``Plural-Forms``: the catalog's own rule once it has one (a rule of its language, see
  :mod:`.plurals`: upgrading Babel never changes it); a new catalog gets Babel's rule;
- ``Language-Team``: the language's English name from Babel and the plugin option
  ``translators`` (the translators' address), e.g. ``French <https://…>``;
- ``Last-Translator``: whoever the translator's editor says (Poedit and Weblate fill it in);
  empty until then;
- ``Content-Type``: UTF-8, the only encoding read.

``update`` keeps what a translator or their tool wrote in ``Language-Team`` and
``Last-Translator`` (Weblate writes its own team address there), and replaces only what is
missing or a placeholder; the other fields follow the configuration.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from typing import overload

from babel.messages.catalog import Catalog

from ..errors import Problem
from ..languages import language as parse_language
from ..project import Project
from .plurals import rule_problem

#: What gettext and Babel write for a person to replace; case matters (a name may say "Year").
PLACEHOLDER_RE = re.compile(
    r"FULL NAME|EMAIL@ADDRESS|LL@li\.org|FIRST AUTHOR|SOME DESCRIPTIVE TITLE|YEAR-MO-DA|"
    r"\b(?:ORGANIZATION|YEAR|PACKAGE|LANGUAGE|CHARSET|ENCODING)\b"
)
# The sentences of Babel's and xgettext's header comment, dropped with their placeholders.
_BOILERPLATE_RE = re.compile(r"(?i)^(?:.*\btranslations? (?:template )?for\b.*|this file is distributed under the same license as\b.*)$")


@dataclass(frozen=True)
class HeaderSettings:
    """What a project's configuration says about its catalogs' headers."""

    project: str = "rulebook"  # Project-Id-Version: "<project> <domain>"
    translators: str = ""  # the translators' address (a URL or an e-mail), in Language-Team
    msgid_bugs_address: str = ""  # Report-Msgid-Bugs-To

    @classmethod
    def of(cls, project: Project) -> HeaderSettings:
        return cls(project.name, project.translators, project.msgid_bugs_address)


def language_team(language: str, settings: HeaderSettings) -> str:
    """``French <https://…>``: the language's English name (as msginit and Weblate write it) and the address."""
    name = parse_language(language).locale.english_name or language
    return f"{name} <{settings.translators}>" if settings.translators else name


def template_headers(template: Catalog, domain: str, settings: HeaderSettings) -> Catalog:
    """Fill a template's header (in place, and returned): no language, no translator, no placeholder."""
    _common(template, domain, settings)
    template.header_comment = f"# {settings.project} ({domain}): the texts to translate.\n# Made by `rulebook i18n update` from the sources: never edit it by hand."
    template.revision_date = template.creation_date  # a template is never revised, only made again
    template.last_translator = ""
    template.language_team = ""
    return template


def catalog_headers(catalog: Catalog, language: str, domain: str, settings: HeaderSettings) -> Catalog:
    """Fill one language's catalog header (in place, and returned), keeping what translators wrote.

    For a new catalog (``rulebook i18n init``, ``rulebook new``) and on every ``update``.
    """
    # Babel shows the comment with its tokens (PROJECT, ORGANIZATION …) replaced by the catalog's
    # values: read it while those are still the file's, placeholders and all.
    comment = catalog.header_comment
    _common(catalog, domain, settings)
    catalog.locale = parse_language(language).code
    ours = language_team(language, settings)
    team = catalog.language_team.strip()
    if not team or PLACEHOLDER_RE.search(team) or team == ours.split(" <")[0]:
        catalog.language_team = ours  # missing, a placeholder, or ours before an address was configured
    if PLACEHOLDER_RE.search(catalog.last_translator):
        catalog.last_translator = ""
    if not isinstance(catalog.revision_date, datetime):
        catalog.revision_date = catalog.creation_date
    if not comment.strip("#\n ") or PLACEHOLDER_RE.search(comment):
        kept = [line for line in comment.splitlines() if _translators_line(line)]
        catalog.header_comment = "\n".join([f"# {ours.split(' <')[0]} translation of {settings.project} ({domain}).", *kept])
    return catalog


def _translators_line(line: str) -> bool:
    """A line of a header comment that a person wrote (not a placeholder, nor a tool's sentence)."""
    text = line.strip().removeprefix("#").strip()
    return bool(text) and not PLACEHOLDER_RE.search(text) and not _BOILERPLATE_RE.match(text)


def _common(catalog: Catalog, domain: str, settings: HeaderSettings) -> None:
    catalog.project, catalog.version = settings.project, domain
    catalog.msgid_bugs_address = settings.msgid_bugs_address
    catalog.charset = "utf-8"


def header_problems(catalog: Catalog, path: str, lines: list[str], language: str | None) -> list[Problem]:
    """What is not real in a header: a placeholder in its comment or fields, a plural rule that is
    not a rule of the catalog's language (:mod:`.plurals`), a Language that is not its language.

    ``lines`` are the file's (the header is what comes before its first blank line);
    ``language`` is the catalog's folder (None for a template).
    """
    problems = []
    end = _header_end(lines)
    for number, line in enumerate(lines[:end], start=1):
        if found := PLACEHOLDER_RE.search(line):
            field = line.strip().strip('"').partition(":")[0] if line.startswith('"') else "comment"
            problems.append(Problem(path, number, found.start() + 1, f"header {field}: placeholder {found.group(0)!r}; run `rulebook i18n update` "
                                    "(it fills the header from mkdocs.yml and Babel) or write what it stands for"))
    if language is not None:
        babels = Catalog(locale=parse_language(language).code)
        written = _line_of(lines[:end], "Plural-Forms", None)
        if written is None and any(not isinstance(m.id, str) for m in catalog if m.id):
            problems.append(Problem(path, _line_of(lines[:end], "Content-Type"), 1,
                                    f"no Plural-Forms header, and the catalog has plural messages; add Plural-Forms: {babels.plural_forms}"))
        elif written is not None and (wrong := rule_problem(catalog.plural_forms, language)):
            problems.append(Problem(path, written, 1, wrong))
        if str(catalog.locale_identifier or "") != str(babels.locale_identifier):
            problems.append(Problem(path, _line_of(lines[:end], "Language"), 1,
                                    f"Language {catalog.locale_identifier or ''!r}, but the file is in the folder of {language}; "
                                    f"write Language: {babels.locale_identifier}"))
    return problems


def _header_end(lines: list[str]) -> int:
    """The number of lines before the first blank line after the header's msgid."""
    seen_msgid = False
    for number, line in enumerate(lines):
        seen_msgid = seen_msgid or line.startswith("msgid")
        if seen_msgid and not line.strip():
            return number
    return len(lines)


@overload
def _line_of(lines: list[str], name: str, missing: int = 0) -> int: ...
@overload
def _line_of(lines: list[str], name: str, missing: None) -> int | None: ...
def _line_of(lines: list[str], name: str, missing: int | None = 0) -> int | None:
    """The line of a header field; if there is none, ``missing`` (0: the header's msgid line)."""
    wanted = f'"{name.lower()}:'
    found = (n for n, line in enumerate(lines, start=1) if line.strip().lower().startswith(wanted))
    if missing is None:
        return next(found, None)
    return next(found, next((n for n, line in enumerate(lines, start=1) if line.startswith("msgid")), 1))
