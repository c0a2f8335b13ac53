"""A rulebook project's configuration, read from its ``mkdocs.yml`` as the generator reads it.

The site's languages are configured once: the ``languages`` option of the ``rulebook`` plugin
in ``mkdocs.yml`` (the source language first). The ``rulebook`` command reads them from
there, with the plugin's ``rules`` and ``locales`` folders, so nothing is configured twice.
The catalogs' headers take the project's name (``site_name``) and the plugin's ``translators``
(the translators' address) and ``msgid_bugs_address`` (where to report a wrong source text).
A folder without ``mkdocs.yml`` is a project too: ``rules/`` and ``locales/``, no languages.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from .adapters import pyyaml
from .errors import LoadError, Problem, RulebookError
from .languages import Languages
from .limits import MAX_CONFIG_BYTES, read_limited
from .loader import display_path, rulebook_paths

PLUGIN = "rulebook"
#: What the plugin's ``languages`` option must be, said alike by the build and the commands.
LANGUAGES_EXPECTED = "expected a list of language codes, the source first, e.g. [it, en, pt_BR]"


@dataclass(frozen=True)
class Project:
    rules: Path
    locales: Path
    languages: Languages | None  # None: the configuration names no languages
    config_file: Path | None = None
    name: str = "rulebook"  # site_name: the catalogs' Project-Id-Version
    translators: str = ""  # the translators' address (URL or e-mail): the catalogs' Language-Team
    msgid_bugs_address: str = ""  # where to report a wrong source text: Report-Msgid-Bugs-To


def read_config(config_file: Path, shown: str | None = None) -> dict[str, Any]:
    """``mkdocs.yml`` as the generator reads it: its own YAML loader (MkDocs' or properdocs'),
    with ``INHERIT`` merged and ``!ENV`` resolved, so every command sees the configuration the
    build sees. The one reader of the file: the limited reader takes its bytes (a FIFO, a device,
    a huge file refused), and what is wrong with it is a message at its line, never a traceback.

    The generator is imported here, not with this module: the package imports without it."""
    from .adapters import generator

    shown = shown or display_path(config_file)
    data = read_limited(config_file, shown, MAX_CONFIG_BYTES)  # a LoadError names the file: a FIFO, a device, too big
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise RulebookError(f"{shown}:{line}: byte {data[exc.start]:#04x} is not UTF-8; save the file as UTF-8") from None
    _refuse_unreadable_parents(config_file, data, shown)
    source = io.BytesIO(data)
    source.name = str(config_file)  # the generator finds an INHERIT's file beside it
    try:
        config = generator.module("utils.yaml").yaml_load(source)
    except generator.module("exceptions").ConfigurationError as exc:
        cause = exc.__context__
        if isinstance(cause, pyyaml.SyntaxError_):
            found = pyyaml.syntax(cause)
            mark = cause.problem_mark or cause.context_mark
            where = display_path(mark.name) if mark and mark.name and not mark.name.startswith("<") else shown
            raise RulebookError(f"{where}:{found.line}:{found.column}: not valid YAML: {found.message}") from None
        if isinstance(cause, yaml.reader.ReaderError):  # a character YAML does not allow (NUL, another control character)
            line = data.decode("utf-8").count("\n", 0, cause.position) + 1
            character = ord(cause.character) if isinstance(cause.character, str) else cause.character
            raise RulebookError(f"{shown}:{line}: character {character:#06x} is not allowed in YAML; delete it") from None
        raise RulebookError(f"{shown}: {exc}") from None  # an INHERIT naming no file
    if not isinstance(config, dict):
        raise RulebookError(f"{shown}: not a MkDocs configuration (a mapping of settings such as site_name: and plugins:)")
    return config


def _inherited(data: bytes) -> str | None:
    """The ``INHERIT:`` a configuration names, read without building it (its tags need not be
    known to compose it); None when it names none or does not parse (the generator says why)."""
    try:
        node = yaml.compose(data, Loader=pyyaml.Loader)
    except yaml.YAMLError:
        return None
    if not isinstance(node, yaml.MappingNode):
        return None
    return next((value.value for key, value in node.value
                 if isinstance(key, yaml.ScalarNode) and key.value == "INHERIT" and isinstance(value, yaml.ScalarNode)), None)


def _refuse_unreadable_parents(config_file: Path, data: bytes, shown: str) -> None:
    """Every file of the ``INHERIT:`` chain through the limited reader before the generator opens
    it: the generator's own ``open()`` would wait forever on a FIFO and read a link to /dev/zero
    without end, and it follows a chain that loops back until Python's recursion limit."""
    seen = {config_file.resolve()}
    while (parent := _inherited(data)) is not None:
        config_file = config_file.parent / parent
        if config_file.resolve() in seen or len(seen) > _MAX_INHERITED:
            raise RulebookError(f"{shown}: INHERIT: {parent} comes back to a file already inherited (or goes deeper than "
                                f"{_MAX_INHERITED} files): end the chain at a configuration without INHERIT")
        seen.add(config_file.resolve())
        if not config_file.exists() and not config_file.is_symlink():
            return  # the generator reports an INHERIT naming no file, at its own words
        shown = display_path(config_file)
        data = read_limited(config_file, shown, MAX_CONFIG_BYTES)


#: How many configurations an INHERIT chain may go through: MkDocs sets none, a real site uses one or two.
_MAX_INHERITED = 32


def plugin_entries(plugins: object) -> list[tuple[str, dict[str, Any]]]:
    """``plugins:`` as MkDocs accepts it (a list of names or one-key mappings, or a mapping) as pairs."""
    entries: list[tuple[Any, Any]] = []
    if isinstance(plugins, dict):
        entries.extend(plugins.items())
    elif isinstance(plugins, list):
        for entry in plugins:
            entries.extend(entry.items() if isinstance(entry, dict) else [(entry, None)])
    return [(name, dict(options) if isinstance(options, dict) else {}) for name, options in entries]


def _plugin_options(config: dict[str, Any]) -> dict[str, Any] | None:
    """The ``rulebook`` plugin's options, None when it is not among the plugins."""
    return next((options for name, options in plugin_entries(config.get("plugins")) if name == PLUGIN), None)


def read_project(config_file: Path | None = None) -> Project:
    """The project of ``config_file`` (default: ``mkdocs.yml`` here, if there is one)."""
    if config_file is None:
        config_file = Path("mkdocs.yml")
        if not config_file.exists():
            return Project(Path("rules"), Path("locales"), None)
    shown = display_path(config_file)
    config = read_config(config_file, shown)
    root = Path(config_file).parent
    options = _plugin_options(config) or {}
    languages = options.get("languages")
    if languages is not None and not isinstance(languages, list):  # `languages: it` is not the codes i and t
        raise RulebookError(f"{shown}: plugin {PLUGIN!r} option 'languages': {LANGUAGES_EXPECTED}")
    try:
        parsed = Languages.parse(languages) if languages is not None else None
    except RulebookError as exc:
        raise RulebookError(f"{shown}: plugin {PLUGIN!r} option 'languages': {exc}") from None
    addresses = {}
    for option in ("translators", "msgid_bugs_address"):
        value = options.get(option, "")
        if not isinstance(value, str) or "\n" in value:
            raise RulebookError(f"{shown}: plugin {PLUGIN!r} option {option!r}: an address on one line, such as https://example.org/translate or team@example.org")
        addresses[option] = value.strip()
    name = config.get("site_name")
    return Project(
        root / str(options.get("rules", "rules")),
        root / str(options.get("locales", "locales")),
        parsed,
        Path(config_file),
        name=" ".join(str(name).split()) if name else "rulebook",
        **addresses,
    )


def configuration_problems(project: Project) -> list[Problem]:
    """What the configuration points to that is not there: a ``rules`` folder without rulebooks
    (a site with no books), a ``locales`` folder missing while the site has languages to
    translate into (every page in the source language). The same problems, in the same words,
    from ``rulebook i18n check`` and the build: one verdict. A folder without ``mkdocs.yml``
    configures nothing (the commands take their paths as arguments): none."""
    if project.config_file is None:
        return []
    shown = display_path(project.config_file)
    problems = []
    if not rulebook_paths(project.rules):
        problems.append(Problem(shown, _option_line(project.config_file, "rules"), 1,
                                f"rules: {display_path(project.rules)} holds no rulebook (*.yaml), so the site has no books; "
                                "point the rulebook plugin's `rules:` at the rulebooks' folder"))
    if project.languages and project.languages.targets and not Path(project.locales).is_dir():
        targets = ", ".join(language.code for language in project.languages.targets)
        problems.append(Problem(shown, _option_line(project.config_file, "locales"), 1,
                                f"locales: {display_path(project.locales)} is not a folder, so nothing is translated into {targets}; "
                                "point the rulebook plugin's `locales:` at the catalogs' folder, or make it with `rulebook i18n update`"))
    return problems


def _option_line(config_file: Path, option: str) -> int:
    """The line of ``option:`` in the file (the first), or 1 when it is not written (its default)."""
    try:
        lines = read_limited(config_file, display_path(config_file), MAX_CONFIG_BYTES).decode("utf-8", "replace").split("\n")
    except LoadError:
        return 1
    wanted = re.compile(rf"^\s*(?:-\s+)?{re.escape(option)}\s*:")
    return next((number for number, line in enumerate(lines, start=1) if wanted.match(line)), 1)
