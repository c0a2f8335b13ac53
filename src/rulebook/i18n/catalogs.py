"""Templates and catalogs: reading, merging, writing. Nothing is ever dropped.

``Catalog.update`` does the merge, but Babel's fuzzy matcher compares msgids only and can hand
one rule's translation to another rule; and ``read_po`` does not read back the ``#|`` previous
msgid it writes. So the merge runs with ``no_fuzzy_matching`` and pairs a changed source with
its old translation only by msgctxt (the same field of the same rule), and :func:`read_catalog`
restores ``previous_id``.

A file is out of date when its *content* (:mod:`.content`) differs from what the update makes
of it, never because of its layout: a catalog saved by Poedit, Weblate or ``msgcat`` is left
as its tool wrote it until its content changes; then it is written in our layout
(:func:`.pofile.write_catalog`, Babel's), so that diffs stay small. Every write goes to a
temporary file that then replaces the catalog, so a crash never leaves half a catalog.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_file
from babel.util import LOCALTZ

from ..errors import LoadError, Problem, RulebookError
from ..languages import language as parse_language
from ..limits import CATALOG_ADVICE, MAX_CATALOG_BYTES, size_problem
from ..loader import display_path
from ..writing import remove_leftovers, write_atomic
from . import template_path
from .content import content
from .followed import changed, records, strip_records
from .headers import HeaderSettings, catalog_headers, template_headers
from .pofile import linear_wrapping, read_catalog, write_catalog  # noqa: F401 - the reader lives in .pofile; imported from here too

WIDTH = 76


def serialize(catalog: Catalog, include_lineno: bool = True) -> bytes:
    """The catalog in our layout: Babel's, at 76 columns."""
    return write_catalog(catalog, WIDTH, include_lineno)


def _without_line_numbers(catalog: Catalog) -> Catalog:
    """References by file only (``#: render/figures.py``), as they are written and read back."""
    for message in [*catalog, *catalog.obsolete.values()]:
        message.locations = list(dict.fromkeys((filename, None) for filename, _ in message.locations))
    return catalog


def refuse_outside(path: Path, root: Path) -> None:
    """Refuse to write ``path`` when it resolves outside ``root``: a symbolic link out of the project.

    A language folder linked elsewhere (``locales/de -> /tmp/x``) would otherwise make
    ``rulebook i18n update`` write catalogs wherever the link points.
    """
    try:
        target = Path(path).resolve()
    except (RuntimeError, OSError):  # a link that leads to itself, or through a loop
        raise RulebookError(f"{display_path(path)} is a symbolic link that leads back to itself; "
                            "replace it with a real file or folder") from None
    if not target.is_relative_to(Path(root).resolve()):
        raise RulebookError(
            f"{display_path(path)} leads to {target}, outside the project {Path(root).resolve()}, through a symbolic link; "
            "rulebook writes only inside the project: replace the link with a real file or folder"
        )


@dataclass(frozen=True)
class MergeReport:
    fuzzy: tuple[str, ...]  # msgctxts whose source changed: old translation kept, marked fuzzy
    obsolete: tuple[str, ...]  # msgctxts no longer in the source: kept as #~
    restored: tuple[str, ...]  # msgctxts back in the source: their #~ translation is active again
    followed: tuple[str, ...] = ()  # msgctxts whose followed text (.followed) changed: translation kept, marked fuzzy


def _messages_copied(template: Catalog, catalog: Catalog | None = None) -> Catalog:
    """What ``Catalog.update`` of ``catalog`` reads of a template (its messages, its creation date),
    each message new to the catalog a copy: Babel inserts those as the template's own Message
    objects, and filling them in would leak this language's translations into the next catalog
    merged. A message the catalog holds is merged into a copy Babel makes (``_merge`` clones it),
    so it is not copied twice. (A deep copy of the whole template did the same at several times
    the cost, once per language.)"""
    copied = Catalog(creation_date=template.creation_date)
    for message in template:
        if message.id:
            held = catalog is not None and catalog.get(message.id, message.context) is not None
            copied[message.id] = message if held else message.clone()
    return copied


def _revive(catalog: Catalog, template: Catalog) -> list[str]:
    """Make live again each ``#~`` entry whose msgid and msgctxt the template holds; their msgctxts
    (or msgids when they have none).

    ``Catalog.update`` looks only among the live messages, so a message that comes back would
    get an empty entry while its translation stayed ``#~``: the same msgid twice, which
    ``msgcat``, ``msgfmt`` and Poedit refuse. Live again before the update, it is merged as any
    kept message is (translation, flags and translator comments its own, the rest the
    template's). A file that already holds both keeps one entry: the live translation, or the
    obsolete one when the live entry has none (:func:`conflicting_duplicates` refuses the rest).
    """
    revived = []
    for key, old in list(catalog.obsolete.items()):
        if template.get(old.id, old.context) is None:
            continue
        live = catalog.get(old.id, old.context)
        if _two_translations(live, old):
            continue  # the translator's call: conflicting_duplicates
        del catalog.obsolete[key]
        if live is None:
            catalog[old.id] = old
        elif old.string and not live.string:
            live.string, live.flags = old.string, live.flags | old.flags
            live.user_comments = list(dict.fromkeys(old.user_comments + live.user_comments))
            live.previous_id = live.previous_id or list(old.previous_id)
        else:
            continue  # the same translation, or none: only the duplicate goes
        revived.append(old.context or _shown_id(old))
    return revived


def _two_translations(live: Message | None, old: Message) -> bool:
    return live is not None and bool(old.string) and bool(live.string) and old.string != live.string


def _shown_id(message: Message) -> str:
    return message.id if isinstance(message.id, str) else message.id[0]


def live_and_obsolete(catalog: Catalog) -> list[tuple[Message, Message]]:
    """The (live, ``#~``) pairs of one msgid and msgctxt: GNU gettext's "duplicate message definition"."""
    return [(live, old) for old in catalog.obsolete.values() if (live := catalog.get(old.id, old.context)) is not None]


def obsolete_duplicates(catalog: Catalog, shown: str, *, conflicting_only: bool = False) -> list[Problem]:
    """Each ``#~`` entry whose msgid and msgctxt are also a live message, at its line: GNU
    gettext's "duplicate message definition" (msgfmt refuses the file). ``rulebook i18n update``
    keeps one of the two, unless they hold different translations (``conflicting_only``: those)."""
    problems = []
    for live, old in live_and_obsolete(catalog):
        if _two_translations(live, old):
            advice = " with another translation; keep the right translation in the message and delete the #~ entry"
        elif conflicting_only:
            continue
        else:
            advice = "; run `rulebook i18n update`, which keeps one, or delete the #~ entry"
        problems.append(Problem(shown, old.lineno or 1, 1,
                                f"{_shown_id(old)!r} is both a message ({shown}:{live.lineno}) and an obsolete #~ entry{advice}"))
    return problems


def conflicting_duplicates(catalog: Catalog, shown: str) -> list[Problem]:
    """A ``#~`` entry whose msgid is also live with another translation: which one is right is the
    translator's call, so the catalog is not updated until one is removed."""
    return obsolete_duplicates(catalog, shown, conflicting_only=True)


def merge(catalog: Catalog, template: Catalog, follows: str | None = None) -> MergeReport:
    """Update ``catalog`` in place from ``template``; fuzzy matches only within one msgctxt.

    ``follows``: the language whose msgstr the translations follow (:mod:`.followed`): a
    translated message whose recorded text of it changed is marked fuzzy too."""
    revived = _revive(catalog, template)
    before = {(m.id, m.context): m for m in catalog if m.id}
    followed_before = records(catalog, follows) if follows else {}
    obsolete_before = set(catalog.obsolete)
    catalog.update(_messages_copied(template, catalog), no_fuzzy_matching=True)
    # Babel keeps the translation and takes the template's extracted comments, the new record among them.
    followed_changed = [m.context or _shown_id(m) for m in changed(catalog, followed_before, follows)] if follows else []

    # Babel rebuilds each kept message from the template and forgets its previous_id.
    for message in catalog:
        old = before.get((message.id, message.context))
        if old is not None and message.fuzzy and old.previous_id and not message.previous_id:
            message.previous_id = list(old.previous_id)

    # A changed source is paired with an old translation of the same msgctxt (the same msgid came
    # back through _revive). Candidates: the translation just made obsolete first, older ones after.
    candidates: dict[str, list[tuple[str | tuple[str, str], Message]]] = {}
    for key, old in catalog.obsolete.items():
        if old.context and old.string and isinstance(old.id, str):
            candidates.setdefault(old.context, []).append((key, old))
    for found in candidates.values():
        found.sort(key=lambda item: item[0] in obsolete_before)

    fuzzy = []
    for message in catalog:
        if not message.id or message.string or not message.context or message.context not in candidates:
            continue
        key, old = candidates[message.context].pop(0)
        if not candidates[message.context]:
            del candidates[message.context]
        del catalog.obsolete[key]
        message.string = old.string
        message.user_comments = list(dict.fromkeys(old.user_comments + message.user_comments))
        message.flags |= old.flags | {"fuzzy"}
        # Keep the source the translation was written from, even across several changes.
        assert isinstance(old.id, str)  # only singular messages are candidates (above)
        message.previous_id = list(old.previous_id) if old.fuzzy and old.previous_id else [old.id]
        fuzzy.append(message.context)
    # An untranslated message that left the source holds nothing to keep; #~ is for translations.
    for key in [k for k, m in catalog.obsolete.items() if not m.string and not m.user_comments]:
        del catalog.obsolete[key]
    newly_obsolete = tuple(m.context or str(m.id) for k, m in catalog.obsolete.items() if k not in obsolete_before)
    return MergeReport(tuple(fuzzy), newly_obsolete, tuple(revived), tuple(followed_changed))


def new_catalog(template: Catalog, language: str, domain: str, settings: HeaderSettings = HeaderSettings()) -> Catalog:
    """A catalog for a new language: every message of the template, real headers (:mod:`.headers`)."""
    catalog = Catalog(
        locale=parse_language(language).locale,
        domain=domain,
        creation_date=template.creation_date,
        revision_date=datetime.now(LOCALTZ),
        fuzzy=False,
    )
    catalog.header_comment = ""  # not Babel's, with its placeholders: catalog_headers writes ours
    catalog.last_translator = ""  # until a translator's editor fills it in
    catalog.update(_messages_copied(template), no_fuzzy_matching=True)
    return catalog_headers(catalog, language, domain, settings)


@dataclass(frozen=True)
class Stats:
    total: int
    translated: int  # shown: translated, not fuzzy, passing the checks
    fuzzy: int  # translated once, but the source changed since
    untranslated: int  # missing or failing a check

    @property
    def percent(self) -> float:
        return 100.0 * self.translated / self.total if self.total else 100.0


# --- templates ------------------------------------------------------------------------------


def build_template(book_path: Path, book_id: str, locales: Path, settings: HeaderSettings = HeaderSettings()) -> Catalog:
    """The template of one rulebook, made the way ``pybabel extract`` makes it.

    Locations are relative to the folder holding ``locales/`` (the repository root), so the
    ``#:`` references read ``rules/FILE.yaml:LINE`` wherever the command runs.
    """
    root = Path(locales).resolve().parent
    try:
        location = Path(book_path).resolve().relative_to(root).as_posix()
    except ValueError:
        location = display_path(book_path)
    template = Catalog(domain=book_id)
    for lineno, message, comments, context in extract_from_file("rulebook", book_path, DEFAULT_KEYWORDS):
        template.add(message, None, [(location, lineno)], auto_comments=comments, context=context)
    return template_headers(template, book_id, settings)


def write_template(
    book_path: Path, book_id: str, locales: Path, write: bool = True, settings: HeaderSettings = HeaderSettings()
) -> tuple[Catalog, bool]:
    """Write ``templates/<book>.pot`` unless its content is already current; (template, changed).

    With ``write=False`` nothing is written: ``changed`` says whether the file is out of date.
    """
    return save_template(build_template(book_path, book_id, locales, settings), template_path(locales, book_id), write=write)


def save_template(template: Catalog, path: Path, write: bool = True, include_lineno: bool = True) -> tuple[Catalog, bool]:
    """Write a template unless its content is already current; (template, changed)."""
    if not include_lineno:
        _without_line_numbers(template)
    if write:
        remove_leftovers(path)  # of an earlier run that was killed while it wrote
    old = read_catalog(path, shared=True)[0] if Path(path).exists() else None
    if old is not None and content(old) == content(template):
        # Catalogs merged from it keep the file's POT-Creation-Date too.
        template.creation_date = template.revision_date = old.creation_date
        return template, False
    data = serialize(template, include_lineno)
    if (too_big := too_big_to_read(data, path, "the template")) is not None:
        raise LoadError([too_big])  # written, no command could read it back
    return template, write_atomic(path, data) if write else True


# --- catalogs -------------------------------------------------------------------------------


def languages_in(locales: Path) -> list[str]:
    """The languages a translator has added as a folder under locales/ (``LANG/LC_MESSAGES``)."""
    return [p.parent.name for p in sorted(Path(locales).glob("*/LC_MESSAGES")) if p.is_dir()]


@dataclass(frozen=True)
class Updated:
    path: Path
    language: str
    created: bool
    written: bool
    report: MergeReport


def update_catalog(
    template: Catalog,
    path: Path,
    language: str,
    domain: str,
    write: bool = True,
    include_lineno: bool = True,
    settings: HeaderSettings = HeaderSettings(),
    follows: str | None = None,
) -> tuple[Updated | None, list[Problem]]:
    """Merge the template into one catalog (creating it if missing); a broken catalog is left alone.

    A catalog whose content is already current is not written, whatever its layout. With
    ``write=False`` nothing is written: ``Updated.written`` says whether it would be.
    ``follows``: the language whose msgstr the template records (:mod:`.followed`).
    """
    if write:
        remove_leftovers(path)  # of an earlier run that was killed while it wrote
    created = not Path(path).exists()
    if created:
        catalog, report = new_catalog(template, language, domain, settings), MergeReport((), (), ())
    else:
        found, problems = read_catalog(path, domain=domain)
        if found is None:
            return None, [Problem(p.path, p.line, p.column, f"{p.message} (catalog not updated)") for p in problems]
        catalog = found
        if problems := conflicting_duplicates(catalog, display_path(path)):
            return None, [Problem(p.path, p.line, p.column, f"{p.message} (catalog not updated)") for p in problems]
        before = content(catalog)
        catalog_headers(catalog, language, domain, settings)
        report = merge(catalog, template, follows)
    if follows is not None and parse_language(language).code == parse_language(follows).code:
        strip_records(catalog, follows)  # the followed text is this catalog's own msgstr
    if not include_lineno:
        _without_line_numbers(catalog)
    if not created and content(catalog) == before:
        return Updated(Path(path), language, False, False, report), []
    data = serialize(catalog, include_lineno)
    if (too_big := too_big_to_read(data, path, "the updated catalog")) is not None:
        return None, [too_big]
    written = write_atomic(path, data) if write else True
    return Updated(Path(path), language, created, written, report), []


def too_big_to_read(data: bytes, path: Path, what: str) -> Problem | None:
    """A catalog or template about to be written past the size every reader refuses (nothing is
    written then: the file stays as it was)."""
    problem = size_problem(len(data), f"{what} would be {len(data):,} bytes, which", MAX_CATALOG_BYTES, CATALOG_ADVICE)
    return None if problem is None else Problem(display_path(path), 1, 1, problem.replace("which is larger", "larger") + " (not written)")
