"""``rulebook serve``: MkDocs' live preview, optionally of the source and a few chosen languages.

It runs the serve command of the generator installed (MkDocs, or properdocs: adapters/generator.py).

A translator working on French wants to see French pages a moment after saving a catalog; the
other languages only cost rebuild time. The preview is the project's own ``mkdocs.yml`` with the
rulebook plugin's ``languages`` cut to the source language plus the chosen ones: the plugin list
is read from the configuration file (``!ENV`` and ``INHERIT`` resolved as MkDocs resolves them)
and handed to MkDocs' ``serve`` as an override, so everything else (theme, search, site_url,
watched folders) is exactly what ``mkdocs serve`` would use.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .adapters import generator
from .errors import RulebookError
from .languages import Languages
from .project import plugin_entries, read_config

PLUGIN = "rulebook"
#: The generator's own ``serve`` command (MkDocs' or properdocs').
mkdocs_serve = generator.module("commands.serve").serve


def preview_plugins(config_file: Path, chosen: Sequence[str]) -> dict[str, dict[str, Any]]:
    """The configuration's plugins, the rulebook plugin's languages cut to its source and ``chosen``.

    A mapping ``{name: options}``, the form of ``plugins:`` MkDocs reads without consuming it:
    ``mkdocs serve`` hands the same override to every rebuild, and MkDocs pops the one-key
    mappings of the list form as it validates them, so the second rebuild got ``[{}, {}]``.
    A chosen language the site does not publish is refused, naming the ones it does."""
    entries = plugin_entries(read_config(config_file).get("plugins"))
    options = next((options for name, options in entries if name == PLUGIN), None)
    if options is None:
        raise RulebookError(f"{config_file}: the rulebook plugin is not among its plugins: add `- {PLUGIN}` under `plugins:`")
    if "languages" not in options:
        raise RulebookError(f"{config_file}: the rulebook plugin lists no languages, so the site has only its source: "
                            "list them (`languages: [it, fr]`, the source first) to preview one")
    try:
        published = Languages.parse(options["languages"])
    except RulebookError as exc:
        raise RulebookError(f"{config_file}: plugin {PLUGIN!r} option 'languages': {exc}") from None
    wanted = Languages.parse(chosen)  # an unknown or repeated code: a clear RulebookError
    missing = [lang.code for lang in wanted if lang.code not in published.codes]
    if missing:
        raise RulebookError(f"{config_file}: the site does not publish {', '.join(missing)}; its languages are "
                            f"{', '.join(published.codes)} (to add one: rulebook i18n init CODE, then list it in languages)")
    kept = {lang.code for lang in wanted} | {published.source.code}
    # The site's own order, the source first.
    options["languages"] = [code for code in published.codes if code in kept]
    return dict(entries)


def preview_config(config_file: Path, chosen: Sequence[str], **overrides: Any) -> Any:
    """The configuration ``rulebook serve -l …`` builds with (for tests and tools)."""
    plugins = preview_plugins(config_file, chosen) if chosen else None
    generator.as_its_command()
    return generator.load_config(str(config_file), plugins=plugins, **overrides)


def serve(config_file: Path, chosen: Sequence[str], dev_addr: str | None = None, open_in_browser: bool = False) -> None:
    """Run ``mkdocs serve`` on the project, restricted to the source and ``chosen`` when given."""
    if not config_file.is_file():
        raise RulebookError(f"{config_file}: no such MkDocs configuration file (give one with -f, or run in the project's folder)")
    plugins = preview_plugins(config_file, chosen) if chosen else None
    generator.as_its_command()
    # MkDocs' own command line sets its logger up; here we do, so its "Serving on …" is seen.
    logger = logging.getLogger(generator.NAME)
    if not logger.handlers:
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("%(levelname)-7s -  %(message)s"))
        logger.addHandler(handler)
        logger.setLevel(logging.INFO)
    mkdocs_serve(config_file=str(config_file), plugins=plugins, dev_addr=dev_addr, open_in_browser=open_in_browser)
