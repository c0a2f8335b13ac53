"""Which domain an engine's messages go to: one engine module, one domain.

The site looks the messages of a book's engine up in the domain ``engine.NAME`` (NAME as the
book's ``engine:`` gives it), whose Babel mapping ``locale/engine.NAME.cfg`` sits beside the
engine's module (:func:`.domains.engine_domain`). A project's second engine module, say
``src/house_rules/coins.py`` beside the sample's ``engine.py``, has no mapping of its own at
first: ``rulebook i18n`` writes one naming that module alone, so its messages are extracted
into the domain the site reads. Run where the engine's sources are (a project's checkout);
an installed engine's files are never written.

A mapping that reaches another engine's module (``[python: **.py]`` for the first engine of a
package) extracts that engine's messages into the wrong domain, where they can be translated
and never shown: :func:`misplaced` says so.

An engine's sentences are worded in the books' language, whatever the language of its msgids:
its catalogs record the text of that language each translation follows, and
:func:`stale_translations` finds the translations whose text changed since (:mod:`.followed`).
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
from collections.abc import Callable, Iterable
from pathlib import Path

from ..cache import current, kind
from ..engines import registered
from ..errors import LoadError, Problem
from ..languages import language as parse_language
from ..limits import read_catalog_limited
from ..loader import display_path
from .catalogs import read_catalog
from .domains import ENGINE_PREFIX, ShippedDomain, engine_domain
from .followed import stale_problems


def engine_module_file(engine: str) -> Path | None:
    """The file of the module a book's ``engine:`` names (a registered name or a module path)."""
    try:
        spec = importlib.util.find_spec(registered().get(engine, engine))
    except (ImportError, ValueError):
        return None
    return Path(spec.origin).resolve() if spec is not None and spec.origin and spec.origin.endswith(".py") else None


def default_mapping(module: Path) -> str:
    """The Babel mapping of one engine module: the module alone, or a package's every file."""
    sources = "**.py" if module.name == "__init__.py" else module.name
    return (f"# Babel mapping of one engine's messages (paths relative to this folder's parent), written by\n"
            f"# `rulebook i18n`: one engine module, one domain, the one the site looks its messages up in.\n"
            f"[python: {sources}]\n")


def book_engine_domain(engine: str, root: Path, write: bool = True, report: Callable[[str], object] = print) -> ShippedDomain | None:
    """The domain of the engine a book names; for an engine of the project at ``root`` without
    a mapping yet, the mapping of its module alone is written (``write``) and its domain given."""
    found = engine_domain(engine)
    if found is not None:
        return found
    module = engine_module_file(engine)
    if module is None:
        return None
    domain = ShippedDomain(ENGINE_PREFIX + engine, module.parent)
    if not domain.maintained_in(root):
        return None  # an installed engine that ships no messages: shown in English
    if write:
        domain.locale_dir.mkdir(parents=True, exist_ok=True)
        domain.mapping.write_text(default_mapping(module), encoding="utf-8")
        report(f"created {display_path(domain.mapping)} (the messages of {display_path(module)}, domain {domain.name})")
    return domain


def misplaced(engines: Iterable[str]) -> list[str]:
    """Warnings: a domain's template holding messages of another engine's module, which the site
    looks up in that engine's own domain (translated there, never shown)."""
    domains = {name: found for name in dict.fromkeys(engines) if (found := engine_domain(name)) is not None}
    owner = {module: domains[name] for name in domains if (module := engine_module_file(name)) is not None}
    warnings = []
    for domain in domains.values():
        if not domain.template.exists():
            continue
        template, _ = read_catalog(domain.template, shared=True)
        files = {(domain.package / location).resolve() for message in template or () if message.id
                 for location, _line in message.locations}
        for file in sorted(files):
            other = owner.get(file)
            if other is not None and other.name != domain.name:
                warnings.append(f"warning: {display_path(domain.mapping)}: the messages of {display_path(file)} are extracted into "
                                f"{domain.name}, but its engine's words are looked up in {other.name} (translated here, never shown): "
                                f"name only {domain.name}'s own module in the mapping, such as [python: {_own(domain, owner)}]")
    return warnings


def _own(domain: ShippedDomain, owner: dict[Path, ShippedDomain]) -> str:
    mine = [file for file, found in owner.items() if found.name == domain.name]
    return mine[0].name if mine and mine[0].name != "__init__.py" else "engine.py"


#: Every build of a checkout that keeps engine catalogs asks for their stale entries (the strict
#: build fails where `rulebook i18n check` does): about 0.4 s of parsing for the toolkit's 30
#: catalogs, on a rebuild where nothing changed too. Kept between builds by the two files' bytes.
STALE = kind("stale translations", (), "an engine catalog's entries whose followed text changed, found again only "
             "when its bytes or the followed catalog's change", stored=True)


def stale_translations(domain: ShippedDomain, language: str, follows: str | None) -> list[Problem]:
    """The entries of ``domain``'s catalog of ``language`` translated from a text of ``follows``
    (the books' language) that its catalog has changed since: ``rulebook i18n check`` and the
    strict build report them, each at its line. Nothing when the domain follows no language, or
    for the followed language's own catalog; an unreadable catalog's problems are the checks'."""
    if follows is None or parse_language(language).code == parse_language(follows).code:
        return []
    path, followed_path = domain.catalog(language), domain.catalog(follows)
    if not path.exists() or not followed_path.exists():
        return []
    shown, followed_shown = display_path(path), display_path(followed_path)
    try:
        data, followed_data = read_catalog_limited(path, shown), read_catalog_limited(followed_path, followed_shown)
    except LoadError:
        return []

    def found(_key: str) -> str:
        # The very bytes the key is made of are parsed (a file saved meanwhile is the next build's).
        catalog = read_catalog(path, domain=domain.name, shared=True, data=data)[0]
        followed = read_catalog(followed_path, domain=domain.name, shared=True, data=followed_data)[0]
        if catalog is None or followed is None:
            return "[]"
        return json.dumps([[p.path, p.line, p.column, p.message] for p in stale_problems(catalog, shown, followed, follows, followed_shown)])

    key = hashlib.blake2b(b"\0".join((shown.encode(), followed_shown.encode(), follows.encode(), data, followed_data)), digest_size=16).hexdigest()
    cache = current()
    rows = json.loads(cache.stored_memo(STALE, key, found) if cache is not None else found(key))
    return [Problem(str(row[0]), int(row[1]), int(row[2]), str(row[3])) for row in rows]
