"""``mkdocs serve``: a page whose every input is unchanged is written as the last rebuild wrote it.

After one edit most pages of a site are what they were, yet MkDocs and Material rendered each one
again: the navigation and the table of contents of every page, half a rebuild of the 5 x 200
corpus with one msgstr changed. Under ``mkdocs serve`` the plugin keeps each of its pages' output
with what it was made of:

- the site's context: every option of the configuration (the plugin objects among them: MkDocs
  keeps the same ones across a session's rebuilds only for plugins that ask to be kept, so any
  other plugin makes every rebuild a new context), the theme, and the stamp of every template
  file outside the installed packages (a project's ``custom_dir``, edited under serve);
- the page: its rendered HTML, title, table of contents and alternates, the meta the plugin
  gives the theme (the site's words in its language, the language switcher), and the navigation
  it shows: the languages' names, its own language's pages, the pages before and after it.

A page whose inputs are all equal gets, as its ``template`` (MkDocs' documented meta key), one
that writes its kept output as it is (``theme/rulebook-kept.html``); every other page is rendered
as always. Nothing is kept while another plugin has a page hook that could make a page differ
from one rebuild to the next (Material's search plugin only reads pages, before our body is put
in place), nor while a project's template reads the build's date, which changes at every build.
"""

from __future__ import annotations

import json
import os
from collections.abc import Hashable
from pathlib import Path
from typing import Any

from .adapters import material
from .adapters.generator import BasePlugin
from .cache import BuildCache, Same, kind

#: The template that writes a kept page as it is (in the plugin's theme folder).
KEPT_TEMPLATE = "rulebook-kept.html"

#: The site's context of a serve session's rebuild, by its snapshot: one token while it holds.
CONTEXT = kind("site context", ("snapshot",), "a rebuild's configuration, plugins, theme and template stamps, "
               "so that its pages can tell whether their context is the last rebuild's")
#: A page's output as the theme wrote it, by (the site's context token, the page's own inputs).
WRITTEN = kind("written page", ("context", "page"), "a page written again as it was when neither the site's context "
               "nor the page changed: MkDocs and Material render only the pages an edit changed")

#: A language's search index as written, by the index itself (its documents are the same objects
#: while their books are unchanged: compared in C), under serve: encoded again only when it changed.
SEARCH_FILES = kind("search index file", ("index",), "a language's search index encoded again only when it changed "
                    "(six languages' JSON at every rebuild, a twentieth of a rebuild with nothing changed)")


def search_file(cache: BuildCache | None, language: str, index: dict[str, Any]) -> str:
    """The JSON of a language's search index; with a serve session's cache, the last one while the index is equal."""
    def encoded() -> str:
        return json.dumps(index, ensure_ascii=False, separators=(",", ":"))

    return encoded() if cache is None else cache.last(SEARCH_FILES, language, encoded, index=index)


#: The events through which a plugin can change a page's output.
_PAGE_EVENTS = ("on_env", "on_pre_page", "on_page_read_source", "on_page_markdown", "on_page_content", "on_page_context",
                "on_post_page")


def _changes_pages(plugin: object) -> bool:
    """Whether a plugin has a page hook of its own (or is not a plugin object we can tell of)."""
    if not isinstance(plugin, BasePlugin):
        return True  # a hooks module: whatever it defines
    known = material.harmless_page_events(plugin)
    return any(getattr(type(plugin), event, None) is not getattr(BasePlugin, event, None)
               for event in _PAGE_EVENTS if event not in known)


def _templates(config: Any) -> tuple[tuple[str, int, int], ...] | None:
    """The stamp of every file in the theme's folders outside the installed packages; None when
    a template there reads the build's date (a page made again each build)."""
    stamps: list[tuple[str, int, int]] = []
    for folder in config.theme.dirs:
        if {"site-packages", "dist-packages"} & set(Path(folder).parts):
            continue  # an installed package's templates do not change under a running process
        for root, _, names in os.walk(folder):
            for name in sorted(names):
                path = Path(root) / name
                stat = path.stat()
                stamps.append((str(path), stat.st_mtime_ns, stat.st_size))
                if path.suffix == ".html" and b"build_date_utc" in path.read_bytes():
                    return None
    return tuple(stamps)


def site_context(cache: BuildCache, config: Any, ours: object) -> object | None:
    """This rebuild's context token: the last rebuild's while every input of every page but the
    page's own is equal; None when no page can be kept (another plugin's page hooks)."""
    if any(_changes_pages(plugin) for plugin in config.plugins.values() if plugin is not ours):
        return None
    templates = _templates(config)
    if templates is None:
        return None
    # The navigation is each page's own (its language's section, its neighbours): a title changed
    # in one language leaves the other languages' pages as they were.
    snapshot = (tuple((key, value) for key, value in config.items() if key != "nav"), tuple(config.theme.items()),
                tuple(config.theme.dirs), templates)
    return cache.last(CONTEXT, "site", object, snapshot=snapshot)


def navigation_key(nav: list[dict[str, list[dict[str, str]]]], index: int, page: Any) -> tuple[object, ...]:
    """What a page shows of the site's navigation (our nav partial: the languages, then the pages of
    its own language's section, ``index``; Material: the pages before and after it), comparable."""
    def neighbour(other: Any) -> tuple[str, str] | None:
        return None if other is None else (str(other.title), str(other.url))

    sections = tuple(name for section in nav for name in section)
    own = tuple(tuple(entry.items()) for entry in next(iter(nav[index].values()))) if index < len(nav) else ()
    return sections, own, neighbour(page.previous_page), neighbour(page.next_page)


def kept_output(cache: BuildCache, context: object, src_uri: str, page: Hashable) -> str | None:
    """The output the last rebuild wrote for the page when it was made of equal inputs."""
    if not cache.holds(WRITTEN, src_uri, context=Same(context), page=page):
        return None
    return cache.last(WRITTEN, src_uri, str, context=Same(context), page=page)


def keep_output(cache: BuildCache, context: object, src_uri: str, page: Hashable, output: str) -> None:
    """Keep what the theme wrote for the page, with what it was made of."""
    cache.last(WRITTEN, src_uri, lambda: output, context=Same(context), page=page)
