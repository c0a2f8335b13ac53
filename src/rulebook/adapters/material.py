"""mkdocs-material: everything the toolkit relies on beyond Material's documented customisation.

Written for mkdocs-material 9.5 to 9.8 (``WRITTEN_FOR``); tests/test_adapter_material.py checks
each assumption listed here against the installed Material and names the versions on failure.
The theme is Material's; the toolkit adds a few templates and scripts and never edits Material's
files. What those rely on, besides the blocks and partials Material documents for overriding:

- ``theme/main.html`` repeats Material's ``site_meta`` block (hreflang alternates of the page)
  and extends ``htmltitle``, ``header`` and ``config`` (:data:`BLOCKS`); ``theme/partials/``
  replaces ``nav.html``, ``alternate.html``, ``language.html`` and ``copyright.html`` and
  includes Material's partials in :data:`PARTIALS`;
- Material's header reads the site's name and the colour schemes' buttons from ``config``
  (``config.site_name``, ``config.theme.palette[].toggle.name``): ``theme/main.html`` hands it
  a :class:`Seen` config whose words are the page's language (:func:`page_config`);
- the interface words are Material's ``partials/languages/<code>.html`` (macro ``t``, key
  ``search.config.lang`` for the lunr language); its lunr stemmers are
  ``assets/javascripts/lunr/min/lunr.<code>.min.js`` (:class:`Theme`);
- ``theme/assets/javascripts/rulebook-theme.js`` wraps ``window.Worker`` (Material's search
  worker, ``assets/javascripts/workers/search.<hash>.min.js``: :data:`SEARCH_WORKER`) and
  ``XMLHttpRequest`` (Material fetches ``search/search_index.json`` and ``sitemap.xml`` with it),
  and reads the ``__config`` element and the ``__search`` toggle;
- ``workers/rulebook-search.js`` runs Material's worker inside its own and reads its messages:
  :data:`WORKER_MESSAGES`; it sends each word as ``stem^N stem``, relying on Material's query
  transform to append ``*`` to a word without a boost only (tests/test_site_search_ranking.py
  runs Material's worker on the site's books and fails if the word typed stops ranking first);
- the plugin reads Material's search index's ``config`` (separator, pipeline, lang) to write
  each language's index.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jinja2

from ..languages import Language
from ..render.reuse import COMPILED
from .generator import PluginError

#: The releases this module was written for (tests/test_adapter_material.py names them).
WRITTEN_FOR = "mkdocs-material 9.5-9.8"

#: The toolkit's overrides and the assets every rulebook page uses, shipped with the package.
THEME = Path(__file__).resolve().parents[1] / "theme"
STYLESHEETS = ("assets/mana-font/css/mana.min.css", "assets/stylesheets/rulebook.css")
SCRIPTS = ("assets/javascripts/rulebook.js",)

#: Blocks of Material's base.html that theme/main.html overrides.
BLOCKS = ("site_meta", "htmltitle", "header", "config")
#: Material's partials our templates include (theme/main.html, theme/partials/*.html).
PARTIALS = ("partials/header.html", "partials/nav-item.html", "partials/logo.html", "partials/source.html")
#: Material's partials ours replace (theme/partials/*.html).
REPLACED = ("partials/nav.html", "partials/alternate.html", "partials/language.html", "partials/copyright.html")
#: Material's search worker, as rulebook-theme.js recognises its URL (the same pattern is there).
SEARCH_WORKER = r"\/workers\/search\.[^/]*\.js$"
#: Message types of Material's search worker protocol, as workers/rulebook-search.js reads them.
WORKER_MESSAGES = {"SETUP": 0, "READY": 1, "QUERY": 2, "RESULT": 3}


class Theme:
    """What Material offers per language: its interface words (a partial) and a lunr stemmer."""

    def __init__(self, config: Any):  # a MkDocs config
        self.env = theme_env(config)
        dirs = [Path(d) for d in config.theme.dirs]
        self.partials = sorted({p.stem for d in dirs for p in (d / "partials" / "languages").glob("*.html")})
        self.stemmers = sorted({p.name.split(".")[1] for d in dirs for p in (d / "assets" / "javascripts" / "lunr" / "min").glob("lunr.*.min.js")})

    def partial(self, language: Language) -> str | None:
        return language.best_of(self.partials)

    def search_language(self, language: Language) -> str | None:
        """The lunr language for it (as Material's partial names it, else a stemmer Material ships); None: none fits."""
        partial = self.partial(language)
        named = ""
        if partial is not None:
            module = self.env.get_template(f"partials/languages/{partial}.html").module
            named = str(module.t("search.config.lang")).strip()  # type: ignore[attr-defined]  # the partial's own macro, made at run time
        found = named or language.best_of(self.stemmers)
        # English stemming of another language's words finds nothing it should: better none.
        return found if found and (found != "en" or language.locale.language == "en") else None


def theme_env(config: Any) -> jinja2.Environment:
    """The theme's Jinja environment, its compiled templates kept across ``mkdocs serve``'s rebuilds."""
    env: jinja2.Environment = config.theme.get_env()
    env.bytecode_cache = COMPILED
    return env


def add_theme(config: Any) -> None:
    """Our overrides between the project's ``custom_dir`` (which wins) and Material's templates."""
    if config.theme.name != "material":
        raise PluginError(f"rulebook: the site's pages are made for the theme 'material' (mkdocs-material), "
                          f"not {config.theme.name!r}: set `theme: name: material` in {config.config_file_path or 'mkdocs.yml'}")
    if str(THEME) not in config.theme.dirs:
        config.theme.dirs.insert(1 if config.theme.custom_dir else 0, str(THEME))
    for listed, ours in ((config.extra_css, STYLESHEETS), (config.extra_javascript, SCRIPTS)):
        listed.extend([path for path in ours if path not in {str(item) for item in listed}])


def search_config(site_dir: Path) -> dict[str, Any] | None:
    """The ``config`` of the search index Material's search plugin wrote; None: search is off."""
    index = site_dir / "search" / "search_index.json"
    if not index.exists():
        return None
    config: dict[str, Any] = json.loads(index.read_text(encoding="utf-8")).get("config", {})
    return config


class Seen:
    """A MkDocs config (or its theme) as a template sees it, some of its values replaced; every
    other name is the config's own (Jinja asks an attribute, then an item)."""

    def __init__(self, inner: Any, replaced: dict[str, Any]):
        self._inner, self._replaced = inner, replaced

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        if name in self._replaced:
            return self._replaced[name]
        return getattr(self._inner, name)

    def __getitem__(self, key: str) -> Any:
        return self._replaced[key] if key in self._replaced else self._inner[key]

    def __contains__(self, key: object) -> bool:
        return key in self._replaced or key in self._inner

    def get(self, key: str, default: Any = None) -> Any:
        return self[key] if key in self else default  # noqa: SIM401 - this is get itself


def page_config(config: Any, translate: Callable[[str], str]) -> Seen:
    """The config as the header of a page in one language sees it: the site's name and the
    colour schemes' buttons (Material reads both from the config) put through ``translate``."""
    palette = config.theme.get("palette") if "palette" in config.theme else None
    options = [palette] if isinstance(palette, dict) else list(palette or [])
    translated = []
    for option in options:
        toggle = option.get("toggle") if isinstance(option, dict) else None
        if isinstance(toggle, dict) and isinstance(toggle.get("name"), str):
            option = {**option, "toggle": {**toggle, "name": translate(toggle["name"])}}
        translated.append(option)
    theme = Seen(config.theme, {"palette": translated} if palette else {})
    return Seen(config, {"site_name": translate(config.site_name or ""), "theme": theme})


def harmless_page_events(plugin: object) -> frozenset[str]:
    """The page events of a Material plugin that never change a rulebook page's output (mkdocs
    serve writes a page again as it was: rulebook.served). Material's search plugin: its
    ``on_page_context`` indexes the page and strips its ``data-search-*`` attributes from the
    Markdown body, which the rulebook plugin's comes after (Material 9.5-9.8)."""
    return frozenset({"on_page_context"}) if type(plugin).__module__ == "material.plugins.search.plugin" else frozenset()


def seen_key(value: object) -> object:
    """A page's meta as plain, comparable values: a :class:`Seen` by the values it replaces (the
    configuration it wraps is compared as a whole elsewhere: rulebook.served)."""
    if isinstance(value, Seen):
        return ("seen", seen_key(value._replaced))
    if isinstance(value, dict):
        return tuple((key, seen_key(item)) for key, item in value.items())
    if isinstance(value, (list, tuple)):
        return tuple(seen_key(item) for item in value)
    return value
