"""Publish: the thin MkDocs adapter around :mod:`rulebook.render`.

Everything a reader sees is rendered by :class:`rulebook.render.Site`; this module only puts
those pages into a MkDocs build (generated files, one nav section per language, the table of
contents, per-language search indexes, the 404 page's text) and reports failing examples and
broken translations as warnings, counting them itself: a strict build (``mkdocs build --strict``,
``properdocs build --strict``, or ``strict: true`` through the Python API) fails on them however
quiet its log is. MkDocs counts only the warnings its log level lets through (none with ``-q``),
and only on its own logger (properdocs' Python API counts none of ``mkdocs.*``). Moving to another
MkDocs-compatible generator means replacing this file only.

The site's languages are the plugin's ``languages`` option alone, the source first: the
language switcher (``extra.alternate``), the theme's language and the search languages are
derived from it. Material ships interface words and lunr stemmers for many languages, not all:
a language it lacks gets Material's English words and a search index without stemmer.

The generated pages never pass through Markdown: the file's content is empty and the rendered
HTML is swapped in after the Markdown step, so no Markdown extension ever interprets
translated text (and no copy of every page's HTML lasts through the build).

With ``site_url`` set, every page has a canonical link and absolute hreflang alternates, and the
sitemap lists every page of every language with its alternates. Each language has its own 404
page (``404.html``, ``ru/404.html`` …) whose links are absolute paths under ``site_url``, so it
works wherever a server shows it.

The theme is mkdocs-material with this package's overrides (``theme/``: the language switcher,
per-language navigation and search, the 404 and sitemap templates, the symbol font and the
site's stylesheet and scripts). The plugin adds them to the theme itself, after a project's own
``custom_dir``, so a project's ``mkdocs.yml`` names only ``theme: material`` and its own look.
"""

from __future__ import annotations

import gc
import logging
from collections.abc import Callable, Iterable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal
from urllib.parse import urljoin, urlsplit

from jinja2 import Environment
from markupsafe import Markup, escape

from . import keeping, served
from .adapters import generator, material
from .adapters.generator import (
    File,
    Files,
    InclusionLevel,
    Navigation,
    Page,
    PluginError,
    base,
    event_priority,
    get_toc,
)
from .adapters.generator import config_options as c
from .cache import BuildCache, session, using
from .errors import LoadError, Problem, RulebookError, counted
from .examples import reports, run_books
from .i18n.engine_domains import stale_translations
from .i18n.pofile import sharing_catalogs
from .i18n.translate import translate_book, translating
from .isolation import Bounds
from .languages import Languages
from .limits import EXAMPLE_MEMORY_MB, EXAMPLE_SECONDS, MAX_PROBLEMS
from .loader import load_books, rulebook_paths
from .model import Book
from .pdf import write_pdfs
from .project import LANGUAGES_EXPECTED, Project, configuration_problems
from .reloading import engine_sources, reload_changed
from .render import RenderedPage, Site
from .render.broken import broken_book_markdown
from .render.pages import Alternate, TocEntry
from .render.reuse import COMPILED
from .render.search import book_docs, search_index
from .render.stored_pages import KeptPages, PendingPages
from .render.theme_labels import theme_labels
from .render.ui import MADE_WITH, Words, tab_title_parts
from .render.urls import relative_url

if TYPE_CHECKING:  # names for annotations only (MkDocs' livereload is imported by serve alone)
    from .adapters.generator import LiveReloadServer, TemplateContext, TocToken

log = logging.getLogger(generator.plugin_logger_name("rulebook"))
MkDocsConfig = generator.Config

class LanguagesOption(base.BaseConfigOption[Languages]):
    """A list of language codes Babel knows, the source first."""

    def run_validation(self, value: object) -> Languages:
        if not isinstance(value, list):
            raise base.ValidationError(LANGUAGES_EXPECTED)
        try:
            return Languages.parse(value)
        except RulebookError as exc:
            raise base.ValidationError(str(exc)) from None


class RulebookConfig(base.Config):
    rules = c.Type(str, default="rules")
    """Folder of the rulebook YAML files, relative to mkdocs.yml."""
    locales = c.Type(str, default="locales")
    """Folder of the PO catalogs (``<lang>/LC_MESSAGES/<book>.po``), relative to mkdocs.yml."""
    languages = c.Optional(LanguagesOption())
    """Site languages, any Babel knows; the first is the books' source language, served at the root
    (default: the books' own language only)."""
    check_examples = c.Type(bool, default=True)
    """Run every worked example while building; a failure is a warning (an error with --strict)."""
    example_seconds = c.Type((int, float), default=EXAMPLE_SECONDS)
    """Wall-clock seconds one worked example may run before it fails as endless (docs/limits.md)."""
    example_memory = c.Type(int, default=EXAMPLE_MEMORY_MB)
    """Memory one worked example may add, in MiB, before it fails with MemoryError (docs/limits.md)."""
    pdf = c.Type(bool, default=False)
    """Also print every book in every language to PDF (``<lang>/pdf/<book>-<lang>.pdf``, linked from
    its page). Needs WeasyPrint (``pip install 'rulebook[pdf]'``); off by default, so that
    ``mkdocs serve`` stays fast."""
    translators = c.Type(str, default="")
    """The translators' address (a URL or an e-mail), written in every catalog's ``Language-Team``
    header after the language's name (read by ``rulebook i18n``, not by the build)."""
    msgid_bugs_address = c.Type(str, default="")
    """Where translators report a wrong source text: every catalog's ``Report-Msgid-Bugs-To``."""
    workers = c.Type(int, default=0)
    """How many worker processes read and check the catalogs, one (book, language) at a time, while
    the build runs the examples and renders the pages: 0 (the default) starts one per core; 1 does
    everything in the build's own process."""
    cache_dir = c.Type(str, default=".cache/plugin/rulebook")
    """Where a build keeps what the next one can reuse (the translations' check results, the book pages), relative to
    mkdocs.yml, as mkdocs-material's plugins keep theirs under ``.cache/plugin/``; empty: nothing is kept."""


def _toc_tokens(entries: tuple[TocEntry, ...]) -> list[TocToken]:
    return [{"level": e.level, "id": e.id, "name": str(e.title), "children": _toc_tokens(e.children)} for e in entries]


#: The configurations ``mkdocs serve`` serves in this process, each with the pages of its last
#: build that loaded: a rebuild whose rulebooks cannot be loaded shows the error at those
#: addresses instead of failing (a failed rebuild leaves the server holding every request).
_SERVED: dict[str, list[str]] = {}


class RulebookPlugin(generator.BasePlugin[RulebookConfig]):
    def __init__(self) -> None:
        self.pages: dict[str, RenderedPage] = {}
        #: A one-off build's book pages before they are written: (book id, the page without its body).
        self.stubs: dict[str, tuple[str, RenderedPage]] = {}
        self.books: dict[str, Book] = {}
        self.failed: dict[str, LoadError] = {}  # each rulebook file that cannot be loaded, with why
        self.languages: Languages | None = None
        self.rendered: Site | None = None
        self.meta: dict[str, dict[str, Any]] = {}
        self.problems: list[str] = []  # this build's, for a strict build to fail on
        self.not_found_context: dict[str, object] | None = None  # what MkDocs renders its 404.html with
        self.load_error: LoadError | None = None  # mkdocs serve: why this rebuild shows error pages
        self.cache = BuildCache()  # on_config: the configuration's, shared by every build of it in this process
        self.serving = False  # on_startup: this process runs mkdocs serve
        self.built: str | None = None  # the configuration whose build the state above is of (_config_key)
        # mkdocs serve: this rebuild's context token (rulebook.served), each page's inputs, the outputs kept.
        self.context: object | None = None
        self.page_keys: dict[str, object] = {}
        self.kept_outputs: dict[str, str] = {}
        self.pending_pages = PendingPages()  # mkdocs serve: the book pages its rebuilds made, written at its end

    def on_startup(self, *, command: Literal["build", "gh-deploy", "serve"], dirty: bool) -> None:
        # mkdocs serve says so before its first build, whose book pages then keep their texts as
        # worded: the first edit is rebuilt as cheaply as the next. (With this event MkDocs keeps
        # one plugin object across a session's rebuilds: every build's state starts in on_config.)
        self.serving = command == "serve"

    def on_shutdown(self) -> None:
        self.serving = False  # the object outlives the session in a process that builds again
        self.pending_pages.write()  # what the session's rebuilds made, for the next one-off build

    def problem(self, message: str) -> None:
        """A warning, and one more reason for a strict build to fail."""
        log.warning("%s", message)
        self.problems.append(message)

    @staticmethod
    def _config_key(config: MkDocsConfig) -> str:
        return str(Path(config.config_file_path or "mkdocs.yml").resolve())

    def _served(self, config: MkDocsConfig) -> bool:
        """Whether this build is one of a ``mkdocs serve`` session: from its first build on
        (on_startup), or after on_serve (a session started without on_startup, as the benchmarks do)."""
        return self.serving or self._config_key(config) in _SERVED

    def _path(self, config: MkDocsConfig, value: str) -> Path:
        return (Path(config.config_file_path or ".").parent / value).resolve()

    @event_priority(100)  # before the search plugin reads the theme's language
    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        self.problems, self.not_found_context = [], None  # mkdocs serve: every rebuild starts here
        # One object serves every configuration of the process (on_startup): nothing of the last one's build is left.
        self.built, self.pages, self.stubs, self.rendered, self.books, self.failed = self._config_key(config), {}, {}, None, {}, {}
        self.context, self.page_keys, self.kept_outputs = None, {}, {}
        # What a serve session keeps from the last rebuilds lives through this one: frozen from here
        # (on_files freezes again what it adds), the garbage collector's full passes, which the
        # loading below sets off, no longer walk it (5 x 200, a rule edit: a book's anchors took 70 ms
        # where 1 ms does; 0.36 of 4.6 s under cProfile). Unfrozen at the end of the build or its error.
        gc.freeze()
        self.cache = session(self._config_key(config), self._cache(config))
        rules = self._path(config, self.config.rules)
        with using(self.cache):  # the site's words too: their catalogs checked once, not at each rebuild
            return self._configured(config, rules)

    def _configured(self, config: MkDocsConfig, rules: Path) -> MkDocsConfig:
        try:
            # reuse: mkdocs serve's rebuilds parse again only the files whose bytes changed.
            self.books, self.failed = load_books(rulebook_paths(rules), reuse=True) if rules.exists() else ({}, {})
            if self.failed and not self.books:  # nothing to publish: the whole load failed
                raise LoadError([problem for error in self.failed.values() for problem in error.problems])
            # mkdocs serve: an engine of the project edited since the last build is imported anew.
            reload_changed(self.books.values(), self._path(config, "."))
            site = Site(self.books, locales=self._path(config, self.config.locales), languages=self.config.languages,  # type: ignore[arg-type]  # None: the books' own (Site)
                        directory_urls=config.use_directory_urls)
        except LoadError as exc:
            if self._config_key(config) not in _SERVED:
                raise PluginError(f"rulebook: cannot load the rulebooks:\n{exc}") from None
            # Under serve the rebuild goes on, and every page says what to fix (on_files).
            log.error("rulebook: cannot load the rulebooks:\n%s", exc)
            self.load_error, self.rendered, self.pages = exc, None, {}
            material.add_theme(config)
            return config
        self.load_error = None
        for shown, error in self.failed.items():
            # A broken book is a failed book: its address says why, the others are published,
            # and a strict build still fails.
            self.problem(f"rulebook: {shown} cannot be loaded; its page shows why and the other books are published:\n{error}")
        self.languages = site.languages
        # What `rulebook i18n check` says of these options: a problem, so --strict fails alike.
        configured = Project(rules, self._path(config, self.config.locales), self.config.languages, Path(config.config_file_path or "mkdocs.yml"))
        for problem in configuration_problems(configured):
            self.problem(str(problem))
        material.add_theme(config)
        theme = material.Theme(config)
        source = self.languages.source
        config.theme["language"] = theme.partial(source) or "en"
        # The language switcher of pages outside the rulebooks (the 404 page).
        config.extra["alternate"] = [{"name": lang.name, "link": "/" + site.prefix(lang.code), "lang": lang.tag} for lang in self.languages]
        with using(self.cache):  # the site's words checked through the cache: kept between builds, taken by on_files' site
            labels = {lang.code: theme_labels(site.words(lang.code)) for lang in self.languages}
        for refusal in (refusal for _, refused in labels.values() for refusal in refused):
            self.problem(f"rulebook: {refusal}")
        self.meta = {
            lang.code: {
                "language": lang.code,
                "tag": lang.tag,
                "direction": lang.direction,
                "theme_language": theme.partial(lang) or "en",
                "search_language": theme.search_language(lang),
                "search_base": site.prefix(lang.code),
                "nav_index": index,
                # Material's labels a catalog rewords (partials/language.html looks here first).
                "theme_labels": labels[lang.code][0],
                **self._theme_words(config, site.words(lang.code)),
            }
            for index, lang in enumerate(self.languages)
        }
        return config

    @staticmethod
    def _theme_words(config: MkDocsConfig, words: Words) -> dict[str, Any]:
        """What Material's header and footer say around the rulebooks, in one page language."""
        made_with = words.gettext(MADE_WITH, generator="\x00").text
        link = Markup('<a href="https://squidfunk.github.io/mkdocs-material/" target="_blank" rel="noopener">Material for MkDocs</a>')
        return {"config": material.page_config(config, words.configured), "site_name": words.configured(config.site_name or ""),
                "tab_title": list(tab_title_parts(words)),
                "made_with": escape(made_with).replace("\x00", link) if "\x00" in made_with else escape(made_with)}

    def site(self, config: MkDocsConfig) -> Site:
        # A rebuild (mkdocs serve) runs again only the examples of a book that changed.
        bounds = Bounds(self.config.example_seconds, self.config.example_memory)
        outcomes = run_books(self.books.values(), reuse=True, bounds=bounds) if self.config.check_examples else []
        for report in reports(outcomes):
            self.problem(f"worked example failed, shown as failed on the site:\n{report}")
        # reuse: a rebuild renders again only the (book, language) pages whose inputs changed.
        assert self.languages is not None  # on_config has made the site's languages
        served = self._served(config)
        return Site(self.books, outcomes, self._path(config, self.config.locales), self.languages, config.use_directory_urls,
                    pdf=self.config.pdf, translate=partial(translate_book, cache=self.cache), reuse=True,
                    keep_worded=served, keep_pages=served, kept=KeptPages(self.cache) if self.cache.folder is not None else None)

    def _cache(self, config: MkDocsConfig) -> Path | None:
        return self._path(config, self.config.cache_dir) if self.config.cache_dir else None

    def on_files(self, files: Files, config: MkDocsConfig) -> Files:
        if self.load_error is not None:
            return self._load_error_pages(files, config)
        # What is loaded now (the books, MkDocs, the theme) lives through the build: frozen, the
        # garbage collector's full passes, triggered by every page made, no longer walk it (a
        # tenth of a large build), and forked workers do not copy the pages a pass would touch.
        gc.freeze()
        assert self.languages is not None  # on_config has made the site's languages
        pairs = [(book, language.code) for language in self.languages.targets for book in self.books.values()]
        # Worker processes read and check the catalogs, language by language, while this one runs
        # the examples and renders the pages: each page takes its translations as they come.
        with using(self.cache), translating(pairs, self._path(config, self.config.locales), cache=self.cache, workers=self.config.workers):
            return self._files(files, config)

    def _load_error_pages(self, files: Files, config: MkDocsConfig) -> Files:
        """Under serve, while a rulebook cannot be loaded: at every address the last good build
        had, a page listing the problems (FILE:LINE:COL: what to do), until the file is fixed."""
        error = self.load_error
        assert error is not None  # on_files asks for these pages only then
        problems = "\n".join(f"    {line}" for line in str(error).splitlines())  # a Markdown code block: escaped
        text = (f"# The rulebooks cannot be loaded\n\nFix {'this line' if len(error.problems) == 1 else 'these lines'} "
                f"and save the file: this page reloads by itself.\n\n{problems}\n")
        for uri in _SERVED.get(self._config_key(config)) or ["index.md"]:
            files.append(File.generated(config, uri, content=text, inclusion=InclusionLevel.INCLUDED))
        return files

    def _files(self, files: Files, config: MkDocsConfig) -> Files:
        site = self.rendered = self.site(config)
        self.pages, self.stubs = {}, {}
        reported: set[object] = set()
        stale = self._stale_translations(site, config)
        # One language at a time, in the order the workers translate the books (a coverage page
        # shows every language's counts: made last, with the navigation). Under serve each page
        # is made here and kept for the next rebuild; a one-off build makes here what a page's
        # words need (its search documents and glossary uses) and, with the cache's folder, its
        # page, stored there and read back when MkDocs writes it (render.stored_pages), and
        # then lets the language's translations go (Site.let_go: every language's at once were
        # most of the memory of 50 x 200). Without the folder, or printing PDFs, which word every
        # book again, each page is made when MkDocs writes it (on_page_context) and let go.
        one_by_one = not site.keep_pages and site.kept is not None and not site.pdf
        # The source, which needs no translation, last: the workers are never more than a few
        # books ahead of this loop (i18n.translate.AHEAD), and translate while it makes the pages.
        problems: dict[str, list[tuple[Problem, str]]] = {}
        for language in [*site.languages.targets, site.source]:
            stored = one_by_one
            for book_id in site.books:
                if site.keep_pages:
                    site.book_page(book_id, language.code)
                else:
                    book_docs(site, book_id, language.code)
                    site.glossary_uses(book_id, language.code)
                    if one_by_one:
                        site.book_toc(book_id, language.code)
                        stored = site.store_page(book_id, language.code) and stored
            problems[language.code] = self._problems(site, language.code, stale.get(language.code, ()))
            if stored:  # every page of the language can be read back: nothing else needs its translations
                site.glossary_shown(language.code)
                site.prepared(language.code)
                site.let_go(language.code)
        nav = []
        for language in site.languages:
            self._report(problems[language.code], reported)  # in the languages' order, whatever the order made
            section = []
            books = {site.src_uri(language.code, book_id): book_id for book_id in site.books}
            for page in site.pages(language.code, stubs=not site.keep_pages):
                self.pages[page.src_uri] = page
                if page.kind == "book" and not site.keep_pages:
                    self.stubs[page.src_uri] = (books[page.src_uri], page)
                # No Markdown: the body is put in place in on_page_context (a copy of every page's
                # HTML here would last as long as the build: a third of its peak memory).
                files.append(File.generated(config, page.src_uri, content="", inclusion=InclusionLevel.INCLUDED))
                section.append({str(page.title): page.src_uri})
            for shown, error in self.failed.items():
                name = Path(shown).stem  # a book's page is named by its id, which the file names too
                if name in site.books:
                    continue  # another file holds the book of that id: its page stays
                title, markdown = broken_book_markdown(site.words(language.code), error)
                uri = site.src_uri(language.code, name)
                files.append(File.generated(config, uri, content=markdown, inclusion=InclusionLevel.INCLUDED))
                section.append({title: uri})
            nav.append({language.name: section})
        # One nav section per language; the theme override shows only the reader's own.
        config.nav = nav
        if self._config_key(config) in _SERVED:
            _SERVED[self._config_key(config)] = list(self.pages)
        if self._served(config):
            # Under serve a page whose every input is the last rebuild's is written as it was.
            self.context = served.site_context(self.cache, config, self)
        return files

    @staticmethod
    def _problems(site: Site, language: str, stale: Iterable[Problem]) -> list[tuple[Problem, str]]:
        """The problems of ``language``'s words and translations, each with what it leaves in the source language."""
        problems = [(p, "this text") for p in site.messages(language).problems]
        # An engine's translation whose Italian (the books' language) was reworded since its last
        # `rulebook i18n update`: still shown, but `rulebook i18n check` fails on it, so --strict does.
        problems += [(p, "") for p in stale]
        if language != site.source.code:
            for book_id in site.books:
                translated = site.translated(book_id, language)
                # A book filed per section falls back one unreadable file at a time.
                unread = "the whole book" if site.books[book_id].catalogs == "book" else "every text of this catalog"
                problems += [(p, unread if p in translated.unreadable else "" if p in translated.whole else "this text")
                             for p in translated.problems]
        return problems

    def _report(self, problems: list[tuple[Problem, str]], reported: set[object]) -> None:
        """Each problem a warning, said once."""
        for problem, where in problems:
            # A warning, so `mkdocs build --strict` fails: a broken catalog or a failing
            # translation must be fixed, never published silently in the source language.
            # The glossary's problems come with every book: each is said once.
            if problem not in reported:
                reported.add(problem)
                if where:
                    self.problem(f"{problem} ({where} is shown in the source language)")
                else:  # the catalog's header, say: what `rulebook i18n check` reports, its translations shown
                    self.problem(str(problem))

    @staticmethod
    def _stale_translations(site: Site, config: MkDocsConfig) -> dict[str, list[Problem]]:
        """Per language, what `rulebook i18n check` says of the engine catalogs this project keeps
        (the toolkit's own checkout): translations whose Italian changed since (i18n/followed.py)."""
        root = Path(config.config_file_path or "mkdocs.yml").resolve().parent
        domains = [domain for domain in dict.fromkeys(found for book_id in site.books for found in site.engine_domains(book_id))
                   if domain.maintained_in(root)]
        with sharing_catalogs():  # each catalog parsed once, the Italian one for every language
            return {language.code: [problem for domain in domains
                                    for problem in stale_translations(domain, language.code, domain.follows(site.source.code))]
                    for language in site.languages}

    def on_env(self, env: Environment, config: MkDocsConfig, files: Files) -> Environment:
        # The theme's templates compiled once per process (mkdocs serve's rebuilds), and kept in
        # the cache folder for the next build.
        # (MkDocs renders the pages outside the build's active cache: the folder is given.)
        folder = self.cache.folder
        env.bytecode_cache = COMPILED if folder is None else COMPILED.stored_in(folder / "templates")
        return env

    def _alternates(self, config: MkDocsConfig, url: str, alternates: Iterable[Alternate]) -> list[dict[str, str]]:
        """Each alternate's link from this page (the menu) and its absolute URL (hreflang, sitemap)."""
        return [{"lang": alt.tag, "name": alt.name, "href": relative_url(url, alt.url),
                 "url": urljoin(config.site_url, alt.url) if config.site_url else relative_url(url, alt.url)} for alt in alternates]

    def on_page_markdown(self, markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
        rendered = self.pages.get(page.file.src_uri)
        if rendered is None:
            return markdown
        page.meta["title"] = str(rendered.title)
        # The search index is written from the model (on_post_build), never parsed from this HTML.
        page.meta["search"] = {"exclude": True}
        page.meta["rulebook"] = {
            **self.meta[rendered.language],
            "kind": rendered.kind,
            "alternates": self._alternates(config, rendered.url, rendered.alternates),
        }
        if self.context is not None:
            nav = served.navigation_key(config.nav or [], self.meta[rendered.language]["nav_index"], page)
            key = self.page_keys[page.file.src_uri] = (rendered, material.seen_key(page.meta), nav)
            kept = served.kept_output(self.cache, self.context, page.file.src_uri, key)
            if kept is not None:
                page.meta["template"] = served.KEPT_TEMPLATE  # MkDocs' meta key: the page written as it was
                self.kept_outputs[page.file.src_uri] = kept
        return ""  # the page body is the rendered HTML, put in place in on_page_context

    def on_page_content(self, html: str, page: Page, config: MkDocsConfig, files: Files) -> str:
        rendered = self.pages.get(page.file.src_uri)
        if rendered is None:
            return html
        if page.file.src_uri in self.stubs:  # a one-off build's book page: its body is made when it is written
            assert self.rendered is not None  # stubs are made by a build that rendered the site
            book_id, stub = self.stubs[page.file.src_uri]
            with using(self.cache):
                page.toc = get_toc(_toc_tokens(self.rendered.book_toc(book_id, stub.language)))
            return html
        page.toc = get_toc(_toc_tokens(rendered.toc))
        return html

    @event_priority(-100)  # last: other plugins' page hooks see the empty body, not our large HTML
    def on_page_context(self, context: TemplateContext, page: Page, config: MkDocsConfig, nav: Navigation) -> TemplateContext:
        # Material's search plugin runs a regex over every page's HTML here, although our pages
        # are excluded from its index (a tenth of a rebuild's time): the body comes after it.
        rendered = self.pages.get(page.file.src_uri)
        if page.file.src_uri in self.stubs:
            # MkDocs makes every page's content before it writes any: a one-off build's book page is
            # made here, page by page, so that only one is in memory at a time.
            assert self.rendered is not None  # stubs are made by a build that rendered the site
            book_id, stub = self.stubs[page.file.src_uri]
            with using(self.cache):  # the build's memos (highlighted doctests, term patterns) as in on_files
                rendered = self.rendered.book_page(book_id, stub.language)
        if rendered is not None:
            # A plain str, as a page's content always is; a page kept whole: what the theme wrote last time.
            page.content = self.kept_outputs.pop(page.file.src_uri, None) or str(rendered.html)
        return context

    @event_priority(-100)  # last: another plugin's on_post_page may read the content
    def on_post_page(self, output: str, page: Page, config: MkDocsConfig) -> str:
        if self.context is not None and page.file.src_uri in self.page_keys:
            served.keep_output(self.cache, self.context, page.file.src_uri, self.page_keys.pop(page.file.src_uri), output)
        if page.file.src_uri in self.pages:
            # Written: MkDocs keeps the page, and its content, to the end of the build; the
            # rendered page stays in self.pages, so only this copy of its HTML goes.
            page.content = ""
        return output

    def _not_found(self, config: MkDocsConfig, language: str) -> dict[str, Any]:
        """What the theme's 404.html needs for one language: its text, language and menu."""
        site = self.rendered
        assert site is not None  # asked only of a build that rendered the site
        root = urlsplit(config.site_url or "/").path  # MkDocs' base URL for error pages
        page = site.not_found(language, root + site.prefix(language))
        # A 404 page is shown at any address: its menu leads to each language's home by absolute path.
        alternates = [{"lang": alt.tag, "name": alt.name, "href": root + alt.url} for alt in site.alternates("index")]
        return {"rulebook_page": {**self.meta[language], "kind": page.kind, "alternates": alternates},
                "rulebook_not_found": page.html, "rulebook_title": str(page.title)}

    def on_template_context(self, context: TemplateContext, template_name: str, config: MkDocsConfig) -> TemplateContext:
        if template_name == "404.html" and self.rendered is not None:
            # MkDocs' context for an error page (absolute base_url): the other languages' 404 pages get it too.
            self.not_found_context = dict(context)
            with using(self.cache):  # the build's memos, and its folder's compiled templates
                context.update(self._not_found(config, self.rendered.source.code))  # type: ignore[typeddict-item]  # our keys, which our 404.html reads: MkDocs' TypedDict lists only its own
        return context

    def _write_not_found_pages(self, config: MkDocsConfig) -> None:
        """``<lang>/404.html`` for every language but the source (MkDocs writes ``404.html``)."""
        if self.not_found_context is None:
            return  # the theme has no 404 page
        template = material.theme_env(config).get_template("404.html")
        assert self.rendered is not None  # the 404 context is kept only by a build that rendered the site
        for language in self.rendered.languages.targets:
            context = {**self.not_found_context, **self._not_found(config, language.code)}
            out = Path(config.site_dir) / self.rendered.prefix(language.code) / "404.html"
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_text(template.render(context), encoding="utf-8")

    def on_build_error(self, error: Exception) -> None:
        gc.unfreeze()

    @event_priority(-100)  # after the search plugin has written its (empty: our pages are excluded) index
    def on_post_build(self, config: MkDocsConfig) -> None:
        gc.unfreeze()  # mkdocs serve builds again in this process: what this build froze may go
        if self.rendered is None:
            return
        with using(self.cache):
            self._write_search_indexes(config)
        keeping.save(self.cache)  # what the next build can take: the highlighted doctests
        if self.rendered.kept is not None:  # and the book pages, search documents and glossary uses (serve: at its end)
            self.rendered.kept.save(self.rendered, self.pending_pages if self._served(config) else None)
        self._write_not_found_pages(config)
        if self.config.pdf:
            # The site's own stylesheets (symbol font, badges, boards), as the pages use them.
            sheets = [Path(config.site_dir) / str(css) for css in config.extra_css]
            written = write_pdfs(self.rendered, Path(config.site_dir), sheets, site_name=config.site_name)
            log.info("rulebook: %d printed rulebooks (PDF) written", len(written))
        if config.strict and self.problems:
            # Raised, not counted by MkDocs: the build fails with the problems in its error, which
            # every log level shows (-q too) and the Python API raises (Abort) under either generator.
            shown = self.problems[:MAX_PROBLEMS]
            more = f"\n… and {len(self.problems) - len(shown)} more" if len(self.problems) > len(shown) else ""
            raise PluginError(f"rulebook: {counted(len(self.problems), 'problem')} in strict mode:\n"
                              + "\n".join(shown) + more)

    def _write_search_indexes(self, config: MkDocsConfig) -> None:
        """Each language's own index, from the model, with its own stemmer, at ``<lang>/search/``.

        A Russian reader searches Russian pages with the Russian stemmer, never the Italian ones.
        The theme's index gives the configuration (separator, pipeline, fields).
        """
        theirs = material.search_config(Path(config.site_dir))
        if theirs is None:
            return  # the search plugin is off
        site = self.rendered
        assert site is not None  # on_post_build returned before this otherwise
        for language in site.languages:
            stemmer = self.meta[language.code]["search_language"]
            search = {**theirs, "lang": [stemmer or "en"]}
            if stemmer is None:
                search["pipeline"] = [step for step in search.get("pipeline", []) if step not in ("stemmer", "stopWordFilter")]
            out = Path(config.site_dir) / site.prefix(language.code) / "search" / "search_index.json"
            out.parent.mkdir(parents=True, exist_ok=True)
            index = search_index(site, language.code, search)
            # serve: encoded again only when it changed
            out.write_text(served.search_file(self.cache if self._served(config) else None, language.code, index), encoding="utf-8")

    def on_serve(self, server: LiveReloadServer, config: MkDocsConfig, builder: Callable[[], None]) -> LiveReloadServer:
        # Called once, after the first build (of this configuration: the object may have built another since).
        ours = self.built == self._config_key(config)
        pages, books, rendered = (self.pages, self.books, self.rendered) if ours else ({}, {}, None)
        _SERVED[self._config_key(config)] = list(pages)
        for option in (self.config.rules, self.config.locales):
            path = self._path(config, option)
            if path.exists():
                server.watch(str(path))
        # An engine's author edits its code while the site is served (on_config imports it anew).
        for source in engine_sources(books.values(), self._path(config, ".")):
            server.watch(str(source))
        if rendered is not None:
            # An engine's developer edits its shipped catalogs too (the pages' reuse follows them).
            for folder in rendered.shipped_catalog_folders():
                server.watch(str(folder))
        return server
