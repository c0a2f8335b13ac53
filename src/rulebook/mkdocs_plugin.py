"""Publish: the thin MkDocs adapter around :mod:`rulebook.render`.

Everything a reader sees is rendered by :class:`rulebook.render.Site`; this module only puts
those pages into a MkDocs build (generated files, one nav section per language, the table of
contents, per-language search indexes) and reports failing examples through MkDocs' logger,
so ``mkdocs build --strict`` fails on them. Moving to another MkDocs-compatible generator
means replacing this file only.

The generated pages never pass through Markdown: the file's content is the rendered HTML and
it is swapped in after the (empty) Markdown step, so no Markdown extension ever interprets
translated text.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

from mkdocs.config import base
from mkdocs.config import config_options as c
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, event_priority
from mkdocs.structure.files import File, Files, InclusionLevel
from mkdocs.structure.pages import Page
from mkdocs.structure.toc import get_toc

from .errors import LoadError
from .examples import run_books
from .loader import load_library, rulebook_paths
from .render import RenderedPage, Site
from .render.pages import TocEntry, prefix, relative_url
from .model import SOURCE_LANGUAGE
from .render.ui import LANGUAGES

log = logging.getLogger("mkdocs.plugins.rulebook")


class RulebookConfig(base.Config):
    rules = c.Type(str, default="rules")
    """Folder of the rulebook YAML files, relative to mkdocs.yml."""
    locales = c.Type(str, default="locales")
    """Folder of the PO catalogs (``<lang>/LC_MESSAGES/<book>.po``), relative to mkdocs.yml."""
    languages = c.ListOfItems(c.Choice(tuple(LANGUAGES)), default=list(LANGUAGES))
    """Site languages; the first is served at the root."""
    check_examples = c.Type(bool, default=True)
    """Run every worked example while building; a failure is a warning (an error with --strict)."""


def _toc_tokens(entries: tuple[TocEntry, ...]) -> list[dict]:
    return [{"level": e.level, "id": e.id, "name": str(e.title), "children": _toc_tokens(e.children)} for e in entries]


class RulebookPlugin(BasePlugin[RulebookConfig]):
    def __init__(self) -> None:
        self.pages: dict[str, RenderedPage] = {}
        self.root = Path(".")

    def _path(self, config: MkDocsConfig, value: str) -> Path:
        return (Path(config.config_file_path or ".").parent / value).resolve()

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        if self.config.languages[0] != SOURCE_LANGUAGE:
            raise PluginError(f"rulebook: the first language must be {SOURCE_LANGUAGE!r}, the rulebooks' source language")
        return config

    def site(self, config: MkDocsConfig) -> Site:
        rules = self._path(config, self.config.rules)
        try:
            books = load_library(rulebook_paths(rules)) if rules.exists() else {}
        except LoadError as exc:
            raise PluginError(f"rulebook: cannot load the rulebooks:\n{exc}") from None
        outcomes = run_books(books.values()) if self.config.check_examples else []
        for outcome in outcomes:
            if not outcome.passed:
                log.warning("worked example failed, shown as failed on the site:\n%s", outcome.report())
        return Site(books, outcomes, self._path(config, self.config.locales), self.config.languages, config.use_directory_urls)

    def on_files(self, files: Files, config: MkDocsConfig) -> Files:
        site = self.site(config)
        self.pages = {}
        nav = []
        for language in self.config.languages:
            section = []
            for page in site.pages(language):
                self.pages[page.src_uri] = page
                files.append(File.generated(config, page.src_uri, content=page.html, inclusion=InclusionLevel.INCLUDED))
                section.append({str(page.title): page.src_uri})
            nav.append({LANGUAGES[language]: section})
            for book_id in site.books:
                for problem in site.translated(book_id, language).problems:
                    log.info("translation shown in Italian: %s", problem)
        # One nav section per language; the theme override shows only the reader's own.
        config.nav = nav
        return files

    def on_page_markdown(self, markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
        rendered = self.pages.get(page.file.src_uri)
        if rendered is None:
            return markdown
        page.meta["title"] = str(rendered.title)
        page.meta["rulebook"] = {
            "language": rendered.language,
            "kind": rendered.kind,
            "nav_index": self.config.languages.index(rendered.language),
            "search_base": prefix(rendered.language),
            "alternates": [
                {"lang": alt.language, "name": alt.name, "href": relative_url(rendered.url, alt.url)}
                for alt in rendered.alternates
            ],
        }
        return ""  # the page body is the rendered HTML, put in place in on_page_content

    def on_page_content(self, html: str, page: Page, config: MkDocsConfig, files: Files) -> str:
        rendered = self.pages.get(page.file.src_uri)
        if rendered is None:
            return html
        page.toc = get_toc(_toc_tokens(rendered.toc))
        return str(rendered.html)

    @event_priority(-100)  # after the search plugin has written its index
    def on_post_build(self, config: MkDocsConfig) -> None:
        index_path = Path(config.site_dir) / "search" / "search_index.json"
        if not index_path.exists():
            return
        index = json.loads(index_path.read_text(encoding="utf-8"))
        split: dict[str, list[dict]] = {language: [] for language in self.config.languages}
        for doc in index.get("docs", []):
            first = doc["location"].split("/", 1)[0]
            language = first if first in split and first != SOURCE_LANGUAGE else SOURCE_LANGUAGE
            if language != SOURCE_LANGUAGE:
                doc = {**doc, "location": doc["location"][len(language) + 1 :]}
            split[language].append(doc)
        for language, docs in split.items():
            # Each language gets its own index, stemmer and base: a Russian reader searches
            # Russian pages with the Russian stemmer, never the Italian ones.
            out = Path(config.site_dir) / prefix(language) / "search" / "search_index.json"
            out.parent.mkdir(parents=True, exist_ok=True)
            data = {**index, "config": {**index.get("config", {}), "lang": [language]}, "docs": docs}
            out.write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")

    def on_serve(self, server, config: MkDocsConfig, builder):  # noqa: ANN001 - livereload types
        for option in (self.config.rules, self.config.locales):
            path = self._path(config, option)
            if path.exists():
                server.watch(str(path))
        return server
