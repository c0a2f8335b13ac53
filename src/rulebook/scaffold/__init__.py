"""``rulebook new``: a rulebook project in an empty folder, ready to build, test and translate.

The project is rendered from the Jinja2 templates under ``templates/project/``, a tree that
mirrors the project's own: a path part ``PACKAGE`` becomes the engine package's name, ``BOOK``
the rulebook's id, and a leading ``dot-`` a dot (``dot-ci/run`` is ``.ci/run``). The sample
rulebook's texts are the gettext domain ``scaffold`` of this package (msgids in English, with a
catalog per language we ship, checked as rulebook text), so the rulebook is written in the
chosen source language and each target catalog starts translated where we have the words.
The catalogs themselves are made by ``rulebook i18n init``, as a translator makes them.

The sample engine speaks through gettext messages too (``rulebook.messages``' markers, never
f-strings): its msgids are the domain ``scaffold.engine`` of this package, translated in the
languages we ship, and the new project gets them as its engine's own domain ``engine.BOOK``
beside ``engine.py`` (template, mapping and a catalog per language), the way any third-party
engine ships its messages (docs/engines.md). ``rulebook i18n update`` keeps it current there.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import re
import shlex
import textwrap
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import metadata
from importlib.util import find_spec
from pathlib import Path
from urllib.parse import unquote, urlsplit

import jinja2

from ..adapters.babel import set_plural_forms
from ..errors import RulebookError
from ..i18n import catalog_path
from ..i18n.catalogs import read_catalog, serialize, update_catalog, write_atomic
from ..i18n.checks import same_language
from ..i18n.domains import ENGINE_PREFIX, ShippedDomain, load_messages, write_domain_template
from ..i18n.extract import messages as extracted_messages
from ..i18n.frontend import init, register
from ..i18n.headers import HeaderSettings
from ..i18n.samples import SAMPLE_ENGINE, SCAFFOLD
from ..languages import Language, Languages
from ..loader import load_book_bytes
from ..model import BOOK_ID_RE, SITE_DOMAIN
from ..project import read_project
from ..render.reuse import COMPILED

TEMPLATES = SCAFFOLD.package / "templates" / "project"
#: The toolkit's guides the new project's README names, with those they link to, shipped with the
#: package (``guides/`` is the repository's docs/) and copied into the project's docs/.
GUIDES_DIR = SCAFFOLD.package.parent / "guides"
GUIDES = ("new-game.md", "new-language.md", "grammar.md", "new-project.md", "format.md", "engines.md", "limits.md", "testing.md")
DEFAULT_GAME = "Pig"
PACKAGE_RE = re.compile(r"^[a-z_][a-z0-9_]*$")


@dataclass(frozen=True)
class Plan:
    """What ``rulebook new`` makes: where, the game's names and the site's languages."""

    folder: Path
    game: str  # the name readers see: the book's title and the site's name
    book: str  # the rulebook's id: rules/<book>.yaml, its page, its catalogs, its engine's entry point
    package: str  # the engine's Python package: src/<package>/engine.py
    languages: Languages  # the source first

    @property
    def values(self) -> dict[str, object]:
        return {"game": self.game, "book": self.book, "package": self.package, "distribution": f"{self.book}-rulebook",
                "source": self.languages.source, "languages": self.languages, "requirement": toolkit_requirement(),
                "in_english": lambda lang: lang.name_in(Language("en"))}


def plan(folder: Path, game: str = DEFAULT_GAME, source: str = "en", targets: Sequence[str] = (), *,
         book: str | None = None, package: str | None = None) -> Plan:
    """Check the names before anything is written; every mistake is a RulebookError saying what to do."""
    game = " ".join(game.split())
    if not game:
        raise RulebookError("the game needs a name: --game 'My game'")
    book = book or slug(game)
    if not book:
        raise RulebookError(f"cannot make a rulebook id from {game!r}: give one with --book, in lower-case letters, digits and '-'")
    if not BOOK_ID_RE.match(book) or book == SITE_DOMAIN:
        raise RulebookError(f"--book {book!r}: use lower-case letters, digits and '-', starting with a letter or digit "
                            f"(not {SITE_DOMAIN!r})")
    package = package or book.replace("-", "_")
    if not PACKAGE_RE.match(package):
        raise RulebookError(f"--package {package!r}: a Python package name is lower-case letters, digits and '_', "
                            "not starting with a digit")
    if find_spec(package) is not None:
        raise RulebookError(f"a Python package {package!r} is installed already; name the engine's package with --package")
    chosen = list(targets) or (["it"] if source != "it" else ["en"])
    return Plan(Path(folder), game, book, package, Languages.parse([source, *chosen]))


def slug(name: str) -> str:
    """A rulebook id from a game's name: ``Pig`` -> ``pig``, ``Scopa d'Assi`` -> ``scopa-d-assi``."""
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", ascii_name.lower()).strip("-")


def toolkit_requirement() -> str:
    """The project's dependency on rulebook, bounded to this release series."""
    dist = metadata.distribution("rulebook")
    parts = [int(p) for p in re.findall(r"\d+", dist.version)[:2]] + [0]
    major, minor = parts[0], parts[1]
    return f"rulebook>={major}.{minor},<{major}.{minor + 1}" if major == 0 else f"rulebook>={major}.{minor},<{major + 1}"


def toolkit_install() -> str:
    """What pip installs the toolkit from on this machine before the project, when it did not
    come from a package index: its repository (PEP 610's direct_url.json says which) or the
    folder it was installed from. Only printed by ``rulebook new``, never written into the
    project: a folder of this machine would break the project for every other clone."""
    direct = json.loads(metadata.distribution("rulebook").read_text("direct_url.json") or "{}")
    url = direct.get("url", "")
    if "vcs_info" in direct:
        vcs = direct["vcs_info"]
        return shlex.quote(f"rulebook @ {vcs['vcs']}+{url}@{vcs.get('commit_id', '')}".rstrip("@"))
    if url.startswith("file://"):
        path = shlex.quote(unquote(urlsplit(url).path))
        return f"-e {path}" if direct.get("dir_info", {}).get("editable") else path
    return ""


def _yaml_string(value: str) -> str:
    """A YAML double-quoted scalar (a JSON string is one): safe for any name or text."""
    return json.dumps(str(value), ensure_ascii=False)


def _yaml_block(value: str, indent: int, width: int = 100) -> str:
    """A literal block (``|``) at ``indent`` spaces, wrapped as the rulebooks are (the msgid unwraps it)."""
    pad = " " * indent
    lines = [textwrap.fill(line, width, initial_indent=pad, subsequent_indent=pad, break_on_hyphens=False) if line else ""
             for line in str(value).split("\n")]
    return "|\n" + "\n".join(lines)


def environment(language: Language) -> jinja2.Environment:
    """The templates, their sample texts in ``language`` (English where the domain has no catalog)."""
    # Not HTML: the templates write YAML, TOML, Python and Markdown, and every value a user gives
    # goes through the quoting filter of its format (yaml_string, toml_string, py_string).
    # Compiled once per process (COMPILED): the code does not depend on the language, whose
    # gettext is looked up at render time; `rulebook new` makes an environment per language.
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES), extensions=["jinja2.ext.i18n"], autoescape=False,
                             keep_trailing_newline=True, undefined=jinja2.StrictUndefined, bytecode_cache=COMPILED)
    env.filters.update(yaml_string=_yaml_string, toml_string=_yaml_string, py_string=repr, yaml_block=_yaml_block)
    env.install_gettext_translations(load_messages(SCAFFOLD, language.code).translations)  # type: ignore[attr-defined]  # added by jinja2.ext.i18n
    return env


def has_sample(language: Language) -> bool:
    """Whether the sample rulebook is written in ``language`` (English, or a catalog we ship)."""
    return language.code == SCAFFOLD.source or language.code in SCAFFOLD.languages()


def _output(template: str, chosen: Plan) -> Path:
    parts = []
    for part in template.removesuffix(".j2").split("/"):
        part = chosen.package if part == "PACKAGE" else part.replace("BOOK", chosen.book)
        parts.append("." + part.removeprefix("dot-") if part.startswith("dot-") else part)
    return chosen.folder.joinpath(*parts)


def render(chosen: Plan, language: Language | None = None) -> dict[Path, str]:
    """Every file of the project (its catalogs aside), the rulebook written in ``language`` (default: the source)."""
    env = environment(language or chosen.languages.source)
    values = chosen.values
    return {_output(name, chosen): env.get_template(name).render(values) for name in sorted(env.list_templates(extensions=["j2"]))}


def write(chosen: Plan, force: bool = False, report: Callable[[str], None] = print) -> list[Path]:
    """Write the project, make its catalogs with ``rulebook i18n init`` and fill in the sample's translations."""
    folder = chosen.folder
    if folder.exists() and not folder.is_dir():
        raise RulebookError(f"{folder} is a file: give a folder for the new project")
    if folder.exists() and any(folder.iterdir()) and not force:
        raise RulebookError(f"{folder} is not empty: give a new or empty folder, or --force to write into it "
                            "(files of the same name are replaced)")
    written = []
    # The rendered files, then the guides they name, copied as they are.
    contents = {path: text.encode("utf-8") for path, text in render(chosen).items()}
    contents |= {folder / "docs" / guide: (GUIDES_DIR / guide).read_bytes() for guide in GUIDES}
    for path, data in contents.items():
        existed = path.exists()
        write_atomic(path, data)  # a folder it cannot write to: a message, not a traceback
        if path.parent.name == ".ci":
            path.chmod(0o755)
        written.append(path)
        report(f"{'replaced' if existed else 'created'} {path}")
    _make_catalogs(chosen, report)
    _make_engine_catalogs(chosen, report)
    return written


def _make_catalogs(chosen: Plan, report: Callable[[str], None]) -> None:
    parser = argparse.ArgumentParser(prog="rulebook")
    register(parser.add_subparsers(dest="command"))
    targets = [lang.code for lang in chosen.languages.targets]
    # Inside the project, so that `init` reads its mkdocs.yml and writes only its own catalogs.
    before = set(chosen.folder.joinpath("locales").rglob("*"))
    said = io.StringIO()
    with contextlib.chdir(chosen.folder), contextlib.redirect_stdout(said):
        made = init(parser.parse_args(["i18n", "init", *targets]))
    if made != 0:
        raise RulebookError(f"rulebook i18n init {' '.join(targets)} failed in {chosen.folder}:\n{said.getvalue()}")
    for path in sorted(set(chosen.folder.joinpath("locales").rglob("*")) - before):
        if path.is_file():
            report(f"created {path}")
    source = chosen.languages.source
    if not has_sample(source):
        report(f"note: the sample rulebook's texts are in English (there is no {source.name_in(Language('en'))} sample): "
               f"rewrite rules/{chosen.book}.yaml in {source.name_in(Language('en'))}")
    for language in chosen.languages.targets:
        if has_sample(language):
            _translate_sample(chosen, language)
        else:
            report(f"note: {catalog_path(Path('locales'), language.code, chosen.book)} is yours to translate "
                   "(untranslated texts show in the source language, marked)")


def engine_messages(chosen: Plan) -> ShippedDomain:
    """The new project's engine domain: ``engine.BOOK`` beside ``src/PACKAGE/engine.py``."""
    return ShippedDomain(ENGINE_PREFIX + chosen.book, chosen.folder / "src" / chosen.package)


def _make_engine_catalogs(chosen: Plan, report: Callable[[str], None]) -> None:
    """The engine's domain as ``rulebook i18n update`` keeps it in the project: the template
    extracted from the written engine.py, and a catalog for every language of the site, English
    included (the msgids' language), with the sample engine's words where we ship them."""
    domain = engine_messages(chosen)
    with contextlib.chdir(chosen.folder):  # the project's mkdocs.yml names the catalogs' project
        settings = HeaderSettings.of(read_project())
    template, _ = write_domain_template(domain, settings=settings)
    report(f"created {domain.template}")
    for language in chosen.languages:
        path = domain.catalog(language.code)
        made, problems = update_catalog(template, path, language.code, domain.name, include_lineno=False, settings=settings)
        if made is None:
            raise RulebookError("\n".join(map(str, problems)))
        report(f"{'created' if made.created else 'updated'} {path}")
        if not _translate_engine(path, domain.name, language):
            report(f"note: {path.relative_to(chosen.folder)} is yours to translate (the engine's steps show in English, marked)")
    follows = domain.follows(chosen.languages.source.code)
    if follows is not None:
        # The engine's sentences follow the books' language: each translation records the text it
        # was made from, as `rulebook i18n update` will (i18n/followed.py), once all are written.
        template, _ = write_domain_template(domain, settings=settings, follows=follows)
        for language in chosen.languages:
            update_catalog(template, domain.catalog(language.code), language.code, domain.name, include_lineno=False, settings=settings,
                           follows=follows)


def _translate_engine(path: Path, domain: str, language: Language) -> bool:
    """Fill one catalog of the engine's domain from the sample engine's; False when we ship none."""
    english = same_language(language.code, SAMPLE_ENGINE.source)
    sample = None
    if not english:
        if language.code not in SAMPLE_ENGINE.languages():
            return False
        sample, problems = read_catalog(SAMPLE_ENGINE.catalog(language.code), domain=SAMPLE_ENGINE.name)
        if sample is None:
            raise RulebookError("\n".join(map(str, problems)))
    catalog, problems = read_catalog(path, domain=domain)
    if catalog is None:
        raise RulebookError("\n".join(map(str, problems)))
    if sample is not None:
        # The sample's forms are written for its own rule (a rule of the language): the new
        # catalog takes that rule with them, whatever rule the installed Babel would give.
        set_plural_forms(catalog, sample.plural_forms)
    for message in catalog:
        if not message.id:
            continue
        if english:  # the msgids' own language: the translation is the text itself
            message.string = message.id if isinstance(message.id, str) else tuple(message.id)
        elif (found := sample.get(message.id, message.context)) is not None:  # type: ignore[union-attr]  # not english: sample was read above (or raised)
            message.string = found.string
    write_atomic(path, serialize(catalog, include_lineno=False))
    return True


def _translate_sample(chosen: Plan, language: Language) -> None:
    """Fill the new catalog with the sample rulebook as written in ``language``, message by message.

    Both renderings have the same rules under the same ids, so each message's context
    (``book/id:field``) finds its translation; the catalog is written as ``update`` writes it.
    The book's title is the game's name in every language: it says so (``ignore-same``).
    """
    path = chosen.folder / catalog_path(Path("locales"), language.code, chosen.book)
    catalog, problems = read_catalog(path, domain=chosen.book)
    if catalog is None:
        raise RulebookError("\n".join(map(str, problems)))
    text = render(chosen, language)[chosen.folder / "rules" / f"{chosen.book}.yaml"]
    book = load_book_bytes(text.encode("utf-8"), f"rules/{chosen.book}.yaml ({language})")
    translated = {context: message for _, _, (context, message), _ in extracted_messages(book)}
    for message in catalog:
        if message.id and message.context in translated:
            message.string = translated[message.context]
            if message.context == f"{chosen.book}:title" and message.string == message.id:
                # The game's name, the same in every rendering: a name kept on purpose, not a copy.
                message.user_comments.append("ignore-same: the game's name, the same in every language")
    write_atomic(path, serialize(catalog))
