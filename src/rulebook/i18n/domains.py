"""Shipped message domains: the site's own words, kept in the package and overridable by a project.

A rulebook's catalogs belong to the project (``locales/templates/BOOK.pot``,
``locales/LANG/LC_MESSAGES/BOOK.po``). A *shipped* domain belongs to a Python package: its
messages are in the package's code and templates (msgids in English, named placeholders such
as ``{passed}``), Babel's own extractors read them as ``<package>/locale/<domain>.cfg`` maps,
and the template and catalogs sit beside it::

    src/rulebook/locale/site.cfg                      what Babel extracts (python, jinja2)
    src/rulebook/locale/site.pot                      the template
    src/rulebook/locale/LANG/LC_MESSAGES/site.po      one catalog per language we ship

A project's ``locales/LANG/LC_MESSAGES/site.po`` overrides the shipped catalog message by
message: only its translated, checked messages count, so an empty or partial file is harmless.
A language the package does not ship is translated there alone.

The site's words are the domain :data:`SITE`. An engine ships its messages (what its traces and
refusals say, :mod:`rulebook.messages`) the same way, as the domain ``engine.NAME`` beside its
module: ``<folder of the engine's module>/locale/engine.NAME.cfg`` (:func:`engine_domain`); the
messages every engine shares (``rulebook.engines.base``) are the domain :data:`ENGINES`. A name
with a dot can never be a book id.
"""

from __future__ import annotations

import base64
import hashlib
import importlib.util
import io
from dataclasses import dataclass
from gettext import NullTranslations
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import write_mo
from babel.support import Translations

from ..adapters.babel import set_plural_forms
from ..cache import BuildCache, current, kind, read_json
from ..engines import registered
from ..errors import LoadError, Problem
from ..keeping import write_json
from ..limits import read_catalog_limited, read_limited
from ..loader import display_path
from ..messages import KEYWORDS as ENGINE_KEYWORDS
from ..model import SITE_DOMAIN
from . import catalog_path
from .catalogs import Stats, read_catalog, save_template
from .checks import catalog_problems, checked_messages, checks_for, message_problems, same_language
from .followed import add_records
from .glossary import Glossary, load_glossary
from .grammar import grammar_files
from .headers import HeaderSettings, template_headers
from .plurals import form_map, moved_strings, parse_rule, rule_problem

#: The comment a developer writes above a message for its translators (``# Translators: …``).
COMMENT_TAG = "Translators:"
MessageKey = tuple[str | None, str]  # (msgctxt, msgid); a plural message by its singular msgid


@dataclass(frozen=True)
class ShippedDomain:
    name: str
    package: Path  # the folder whose sources hold the messages
    source: str = "en"  # the language of the msgids (the gettext convention)

    @property
    def locale_dir(self) -> Path:
        return self.package / "locale"

    @property
    def mapping(self) -> Path:
        return self.locale_dir / f"{self.name}.cfg"

    @property
    def template(self) -> Path:
        return self.locale_dir / f"{self.name}.pot"

    def catalog(self, language: str) -> Path:
        return catalog_path(self.locale_dir, language, self.name)

    def follows(self, books: str | None) -> str | None:
        """The language whose msgstr this domain's translations follow (:mod:`.followed`): an
        engine's sentences are worded in ``books``, the books' language, when its msgids are not
        (the site's own words are translated from their English msgids)."""
        if books is None or not self.name.startswith(ENGINE_PREFIX) or same_language(books, self.source):
            return None
        return books

    def languages(self) -> list[str]:
        """The languages the package ships a catalog for."""
        return sorted(p.parent.parent.name for p in self.locale_dir.glob(f"*/LC_MESSAGES/{self.name}.po"))

    def maintained_in(self, root: Path) -> bool:
        """Whether ``root`` holds the package's sources (the toolkit's own checkout).

        There ``rulebook i18n`` keeps the template and the shipped catalogs current; an
        installed package's files are never written.
        """
        package = self.package.resolve()
        # A project's own virtual environment may live inside the project (.venv/): a package
        # installed there is under root, yet it is an installed copy, not our sources.
        installed = {"site-packages", "dist-packages"} & set(package.parts)
        return not installed and Path(root).resolve() in package.parents


SITE = ShippedDomain(SITE_DOMAIN, Path(__file__).resolve().parent.parent)
#: What every engine says through the shared base (a refusal out of phase, "player 1"…).
ENGINES = ShippedDomain("engine.base", SITE.package / "engines")
#: What an engine's domain is called: ``engine.`` and the name the book gives its engine.
ENGINE_PREFIX = "engine."


def engine_domain(engine: str) -> ShippedDomain | None:
    """The messages of the engine a book names (a registered name or a module path), shipped
    beside its module as ``locale/engine.NAME.cfg``; None when it ships none (its messages are
    then shown in English) or the module cannot be found."""
    module = registered().get(engine, engine)
    try:
        spec = importlib.util.find_spec(module)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.origin:
        return None
    domain = ShippedDomain(ENGINE_PREFIX + engine, Path(spec.origin).resolve().parent)
    return domain if domain.mapping.exists() else None


def extract_template(domain: ShippedDomain, settings: HeaderSettings = HeaderSettings()) -> Catalog:
    """The template, made by Babel's extractors from the package as the domain's mapping says.

    Locations name the file only (as ``xgettext --add-location=file``), so moving code within
    a file leaves the template unchanged.
    """
    with domain.mapping.open(encoding="utf-8") as mapping:
        method_map, options_map = parse_mapping_cfg(mapping, str(domain.mapping))
    template = Catalog(domain=domain.name)
    found = extract_from_dir(
        str(domain.package), method_map, options_map, keywords={**DEFAULT_KEYWORDS, **ENGINE_KEYWORDS},
        comment_tags=(COMMENT_TAG,), strip_comment_tags=True
    )
    for filename, lineno, message, comments, context in found:
        template.add(message, None, [(Path(filename).as_posix(), lineno)], auto_comments=comments, context=context)
    return template_headers(template, domain.name, settings)


def write_domain_template(domain: ShippedDomain, write: bool = True, settings: HeaderSettings = HeaderSettings(),
                          follows: str | None = None) -> tuple[Catalog, bool]:
    """Write ``<domain>.pot`` unless its content is already current; (template, changed).

    ``follows``: the language whose msgstr each message records (:mod:`.followed`), read from
    the domain's catalog of it; a catalog that cannot be read stops the update at its line."""
    template = extract_template(domain, settings)
    if follows is not None and domain.catalog(follows).exists():
        followed, problems = read_catalog(domain.catalog(follows), domain=domain.name, shared=True)
        if followed is None:
            raise LoadError([Problem(p.path, p.line, p.column, f"{p.message} (the {follows} text the other languages follow: "
                                     "no template or catalog of this domain updated)") for p in problems])
        add_records(template, followed, follows)
    return save_template(template, domain.template, write=write, include_lineno=False)


# --- the messages shown ----------------------------------------------------------------------


@dataclass(frozen=True)
class Messages:
    """One language's messages of a shipped domain: the package's catalog, then the project's."""

    language: str
    translations: NullTranslations
    translated: frozenset[MessageKey]  # shown: translated, not fuzzy, passing the checks
    fuzzy: frozenset[MessageKey]
    problems: tuple[Problem, ...]
    unreadable: tuple[Problem, ...] = ()  # why a catalog could not be read at all (also in problems)

    def has(self, context: str | None, message: str) -> bool:
        return (context, message) in self.translated

    def translate(self, context: str | None, singular: str, plural: str | None = None, n: int = 1) -> str:
        t = self.translations
        if plural is None:
            return t.pgettext(context, singular) if context else t.gettext(singular)
        return t.npgettext(context, singular, plural, n) if context else t.ngettext(singular, plural, n)

    def stats(self, template: Catalog) -> Stats:
        keys = [(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in template if m.id]
        translated = sum(1 for key in keys if key in self.translated)
        fuzzy = sum(1 for key in keys if key in self.fuzzy and key not in self.translated)
        return Stats(len(keys), translated, fuzzy, len(keys) - translated - fuzzy)


def load_messages(domain: ShippedDomain, language: str, locales: Path | None = None, glossary: Glossary | None = None) -> Messages:
    """The shipped catalog of ``language``, overridden message by message by the project's.

    Each message is checked as a book's translation is, under the project's glossary
    (``locales/glossary.yaml``: its spellings, one per language across every word a reader
    sees) and the language's typography: an engine's "colour" or a French colon without its
    no-break space is not shown. ``glossary``: the project's, when the caller has it loaded."""
    if glossary is None:
        glossary = load_glossary(Path(locales), names=(), source=domain.source) if locales is not None else Glossary()
    translations: Translations | None = None
    translated: set[MessageKey] = set()
    fuzzy: set[MessageKey] = set()
    problems: list[Problem] = []
    unreadable: list[Problem] = []
    rule: str | None = None  # the plural rule of the messages shown: the first catalog's that is right
    layers = [domain.catalog(language)] + ([catalog_path(Path(locales), language, domain.name)] if locales is not None else [])
    for path in layers:
        if not path.exists():
            continue
        layer, keys, fuzzy_keys, found, rule = _checked_layer(path, language, domain.name, same_language(language, domain.source), rule, glossary,
                                                              Path(locales) if locales is not None else None)
        problems.extend(found)
        if layer is None:
            unreadable.extend(found)
        translated |= keys
        fuzzy |= fuzzy_keys
        if layer is not None:
            # Babel's merge: the later catalog's messages replace the earlier one's.
            translations = layer if translations is None else translations.merge(layer)
    return Messages(language, translations or NullTranslations(), frozenset(translated), frozenset(fuzzy), tuple(problems), tuple(unreadable))


#: A layer as kept: its shown messages compiled (.mo bytes: a Translations object is changed by
#: the merge of the next layer, so each use gets its own), their keys, its fuzzy keys, its
#: problems and the plural rule after it.
_Layer = tuple[bytes | None, frozenset[MessageKey], frozenset[MessageKey], tuple[Problem, ...], str | None]

CHECKED_CATALOGS = kind("checked catalogs", ("shown_path", "catalog", "language", "domain", "copies_allowed", "rule", "glossary", "grammar"),
                        "a site or engine catalog (shipped or the project's) after the checks: read and checked once, "
                        "kept between builds", stored=True)


def _grammar_input(project: Path | None, language: str) -> str:
    """The project's own grammar files of ``language``, as a checked catalog's input: the forms a
    msgstr may ask for (the package's files are part of the code version)."""
    if project is None:
        return ""
    digest = hashlib.blake2b(digest_size=16)
    for path in grammar_files(language, [project]):
        digest.update(str(path).encode() + b"\0")
        try:
            digest.update(read_limited(path, display_path(path)))
        except LoadError:
            digest.update(b"unreadable")  # the checks say why, at its line
    return digest.hexdigest()


def _checked_layer(path: Path, language: str, domain: str, copies_allowed: bool, rule: str | None, glossary: Glossary,
                   project: Path | None = None) -> tuple[Translations | None, set[MessageKey], set[MessageKey], list[Problem], str | None]:
    """One catalog's shown messages, their keys, its fuzzy keys, its problems and the plural rule
    of the messages shown so far (``rule``: an earlier layer's, into which its plurals are moved);
    from the build's cache when the same bytes were checked with the same inputs (the glossary and
    ``project``'s grammar files among them: ``project`` is the project's locales folder, whose
    grammar files add forms a msgstr may ask for)."""
    shown = display_path(path)
    try:
        data = read_catalog_limited(path, shown)
    except LoadError as exc:
        return None, set(), set(), list(exc.problems), rule
    cache = current()
    if cache is None:
        layer = _check_layer(path, shown, data, language, domain, copies_allowed, rule, glossary, project)
    else:
        version = cache.version(CHECKED_CATALOGS, shown_path=shown, catalog=hashlib.blake2b(data, digest_size=16).hexdigest(),
                                language=language, domain=domain, copies_allowed=str(copies_allowed), rule=str(rule),
                                glossary=glossary.fingerprint, grammar=_grammar_input(project, language))
        layer = cache.memo(CHECKED_CATALOGS, version, lambda _: _kept_layer(cache, version, shown, domain, language) or _store_layer(
            cache, version, shown, domain, language, _check_layer(path, shown, data, language, domain, copies_allowed, rule, glossary, project)))
    mo, keys, fuzzy, problems, after = layer
    translations = Translations(io.BytesIO(mo), domain=domain) if mo is not None else None
    return translations, set(keys), set(fuzzy), list(problems), after


def _layer_file(cache: BuildCache, shown: str, domain: str, language: str) -> Path | None:
    return cache.stored_path(CHECKED_CATALOGS, f"{domain}.{language}.{hashlib.blake2b(shown.encode(), digest_size=6).hexdigest()}.json")


def _kept_layer(cache: BuildCache, version: str, shown: str, domain: str, language: str) -> _Layer | None:
    path = _layer_file(cache, shown, domain, language)
    data = read_json(path, version) if path is not None else None
    layer = data.get("layer") if data is not None else None
    if not (isinstance(layer, list) and len(layer) == 5 and (layer[4] is None or isinstance(layer[4], str))):
        return None  # none, or not of the shape written: checked again
    mo, keys, fuzzy, problems, rule = layer
    try:
        return (base64.b64decode(mo) if mo is not None else None, frozenset((c, m) for c, m in keys), frozenset((c, m) for c, m in fuzzy),
                tuple(Problem(*p) for p in problems), rule)
    except (TypeError, ValueError):
        return None


def _store_layer(cache: BuildCache, version: str, shown: str, domain: str, language: str, layer: _Layer) -> _Layer:
    path = _layer_file(cache, shown, domain, language)
    if path is not None:
        mo, keys, fuzzy, problems, rule = layer
        write_json(cache, path, {"version": version, "layer": [
            base64.b64encode(mo).decode("ascii") if mo is not None else None, sorted(keys, key=str), sorted(fuzzy, key=str),
            [[p.path, p.line, p.column, p.message] for p in problems], rule]})
    return layer


def _check_layer(path: Path, shown: str, data: bytes, language: str, domain: str, copies_allowed: bool, rule: str | None,
                 glossary: Glossary, project: Path | None) -> _Layer:
    catalog, problems = read_catalog(path, domain=domain, shared=True, data=data)
    if catalog is None:
        return None, frozenset(), frozenset(), tuple(problems), rule
    problems = catalog_problems(catalog, shown, data, language)  # what i18n check says of the file as a whole
    # The catalog's own plural rule picks its forms, when it is a rule of its language (if not,
    # catalog_problems said so at its header's line, and its plural messages are not shown).
    wrong_rule = rule_problem(catalog.plural_forms, language) is not None
    if not wrong_rule and rule is None:
        rule = catalog.plural_forms
    mapping = form_map(parse_rule(catalog.plural_forms), parse_rule(rule)) if rule is not None and not wrong_rule else None
    checked = Catalog(locale=language, domain=domain)
    if rule is not None:
        set_plural_forms(checked, rule)
    keys: set[MessageKey] = set()
    for message in checked_messages(catalog):
        singular = message.id if isinstance(message.id, str) else message.id[0]
        if not isinstance(message.id, str) and mapping is None:
            continue
        failures = message_problems(message, shown, language, glossary, checks_for(domain, copies_allowed, project))
        if failures:
            problems.extend(failures)
            continue
        if isinstance(message.id, str):
            string = message.string
        else:
            assert mapping is not None  # a plural message without a mapping was skipped above
            assert isinstance(message.string, (tuple, list))  # a plural message's forms
            string = moved_strings(message.string, mapping)
        checked.add(message.id, string, context=message.context)
        keys.add((message.context, singular))
    fuzzy = {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in catalog if m.id and m.fuzzy}
    buffer = io.BytesIO()
    write_mo(buffer, checked)
    return buffer.getvalue(), frozenset(keys), frozenset(fuzzy), tuple(problems), rule

