"""The configurations the benchmarks build: rulebook and the two anchors, on the same text.

- ``rulebook``: the repository's ``mkdocs.yml`` (theme, overrides, extensions, plugins) with the
  ``rulebook`` plugin pointed at the corpus and given the languages to build.
- ``material``: plain mkdocs-material, one language: the Italian books as Markdown pages.
- ``static-i18n``: mkdocs-material + mkdocs-static-i18n in its standard folder layout
  (``docs/<lang>/…``), six languages, each page the same book translated.

The Markdown is written from the model (the translated model for the other languages, through
``translate_book``), so each anchor holds what a rulebook page holds: book title and summary,
numbered sections and rules with their anchors, texts with symbols as icons, cross-references
as links, lists and emphasis, each example's text with its steps told in words and its boards
(from the run that checked it, as the site says and draws them: until 2026-11-29 the anchors
lacked both, a quarter of a repository page) and its doctest folded, and each ruling; each
term's first use in a text linked to its glossary entry, where the site links it, and the
glossary page (both missing until 2026-11-29: 1,708 links on a 200-rule page of the corpus).
Both anchors use the repository's theme settings and Markdown extensions, so the only
difference is how the pages are made.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from markupsafe import Markup
from mkdocs.utils.yaml import yaml_load

from rulebook.examples import run_books
from rulebook.i18n.forms import as_shown
from rulebook.i18n.translate import translate_book
from rulebook.languages import language as language_named
from rulebook.loader import load_library, rulebook_paths
from rulebook.model import LIST_ITEM_RE, XREF_RE, Anchor, Book
from rulebook.render.pages import Site
from rulebook.symbols import SYMBOLS, TOKEN_RE

from .corpus import REPO, SITE_LANGUAGES, SOURCE_LANGUAGE, Corpus

#: Every site language, the source first (as the rulebook plugin wants it).
ALL_LANGUAGES: tuple[str, ...] = SITE_LANGUAGES


# --- the books as Markdown ------------------------------------------------------------------


def _inline(text: str, book: Book, anchors: dict[str, dict[str, Anchor]]) -> str:
    def link(match: re.Match[str]) -> str:
        target_book = match.group(1) or book.id
        # The link text a rulebook page shows: the number, and which ruling or example of its rule.
        anchor = anchors[target_book][match.group(2)]
        number = f"{anchor.number}, {anchor.kind} {anchor.index}" if anchor.kind else anchor.number
        page = "" if target_book == book.id else f"{target_book}.md"
        shown = number if target_book == book.id else f"{target_book} {number}"
        return f"[{shown}]({page}#{match.group(2)})"

    def icon(match: re.Match[str]) -> str:
        symbol = SYMBOLS[as_shown(match.group(0))]  # a symbol asked in a form ({W:gen}) is drawn as itself
        code = symbol.token[1:-1].replace("/", "").lower()
        return f'<i class="ms ms-{code} ms-cost" role="img" aria-label="{symbol.name}" title="{symbol.name}"></i>'

    return TOKEN_RE.sub(icon, XREF_RE.sub(link, text))


def _blocks(text: str, book: Book, anchors: dict[str, dict[str, Anchor]]) -> str:
    """Paragraphs and lists as Markdown wants them: a list needs a blank line around it."""
    out: list[str] = []
    for paragraph in re.split(r"\n\s*\n", text.strip()):
        was_item = None
        for line in paragraph.split("\n"):
            is_item = bool(LIST_ITEM_RE.match(line))
            if was_item is not None and is_item != was_item:
                out.append("")
            out.append(_inline(line.strip() if not is_item else "- " + LIST_ITEM_RE.sub("", line).strip(), book, anchors))
            was_item = is_item
        out.append("")
    return "\n".join(out)


def _indent(text: str) -> str:
    return "\n".join("    " + line if line else "" for line in text.split("\n"))


@dataclass(frozen=True)
class Shown:
    """What a rulebook page shows beside an example's text and doctest, from the run that checked
    it: its steps told in words (plain text, each rule it names as a link) and its boards (SVG with
    their captions), in the page's language, as the site makes them."""

    steps: tuple[str, ...]
    figure: str


@dataclass(frozen=True)
class SiteExtras:
    """What a rulebook page shows beyond the book's own words, made by the rulebook site itself
    (not timed: the anchors are written once): each example's steps and boards, each text's links
    to the glossary, and the glossary page."""

    language: str
    shown: dict[tuple[str, str], Shown]  # (book id, example id) -> its steps and boards
    views: dict[str, Any]  # book id -> the site's view of its page: where each text's terms link
    glossary: str  # the glossary page as Markdown; "" where the project's glossary lists no term

    def linked(self, book_id: str, node: object, field_name: str) -> str:
        """A text field with each term the site links there as a Markdown link to its glossary
        entry (the first use of a term in the text, as the site links it)."""
        text: str = getattr(node, field_name)
        view = self.views.get(book_id)
        links = view.terms.links(node, field_name, self.language) if view is not None and text else None
        if links is None:
            return text
        # The site finds terms in the words between a text's symbols and cross-references.
        spans = [match.span() for match in _NOT_WORDS_RE.finditer(text)]
        starts, ends = [0, *(end for _, end in spans)], [*(start for start, _ in spans), len(text)]
        out: list[str] = []
        for index, pieces in enumerate(links.cut([text[start:end] for start, end in zip(starts, ends)])):
            out.extend(f"[{piece}](glossary.md#{href.partition('#')[2]})" if href else piece for piece, href in pieces)
            if index < len(spans):
                out.append(text[spans[index][0]:spans[index][1]])
        return "".join(out)


#: What is not a text's words: its cross-references and symbols.
_NOT_WORDS_RE = re.compile(f"{XREF_RE.pattern}|{TOKEN_RE.pattern}")


def site_extras(books: dict[str, Book], language: str, locales: Path) -> SiteExtras:
    """Each example's steps and boards by (book id, example id), each text's glossary links and the
    glossary page, in ``language``: the examples run, the proofs said, the boards drawn and the
    terms found by the rulebook site itself."""
    languages = [SOURCE_LANGUAGE] if language == SOURCE_LANGUAGE else [SOURCE_LANGUAGE, language]
    site = Site(books, run_books(books.values()), locales, languages=languages)  # type: ignore[arg-type]  # codes: Site makes them Languages
    found: dict[tuple[str, str], Shown] = {}
    views = {book_id: site.book_view(book_id, language) for book_id in books}
    for book in books.values():
        view = views[book.id]
        for rule in book.rules():
            for example in rule.examples:
                steps = view.proof(example.id, example.doctest)["steps"]
                figure = view.figure(example.id)
                drawn = "" if figure is None else "".join(
                    f'<figure class="rb-board-figure">{board.svg}<figcaption>{board.caption.text}</figcaption></figure>' for board in figure.boards
                ) + f"<div>{figure.legend}</div>"
                found[(book.id, example.id)] = Shown(tuple(_step_markdown(str(step)) for step in steps), drawn)  # type: ignore[attr-defined]
    return SiteExtras(language, found, views, _glossary_markdown(site, language))


#: A glossary use's link, to a rule of a book page ("../synth-1/#r-3" or "../../en/synth-1/#r-3").
_USE_HREF_RE = re.compile(r"([^/]+)/#(.+)$")


def _glossary_markdown(site: Site, language: str) -> str:
    """The glossary page as Markdown: each entry's headword, its forms, its names in the other
    languages and the rules that use it, as links (what the site's glossary page lists)."""
    if not site.term_anchors:
        return ""
    lines = ["# Glossary\n"]
    for entry in site.glossary_shown(language):
        lines.append(f"## {entry.name} {{#{entry.anchor}}}\n")
        if entry.forms:
            lines.append(f"*{entry.forms}*\n")
        lines.extend(f"- {named.name} ({named.tag}): {named.forms}" for named in entry.others)
        uses = [f"[{use.label}]({match.group(1)}.md#{match.group(2)})" for use in entry.uses if (match := _USE_HREF_RE.search(use.href))]
        more = f" (+{entry.more})" if entry.more else ""
        lines.append(f"\n{', '.join(uses)}{more}\n" if uses else "")
    return "\n".join(lines) + "\n"


#: A step's link to the rule it names, as the site draws it.
_STEP_LINK_RE = re.compile(r'<a class="rb-step-link" href="#([^"]+)" title="[^"]*">([^<]*)</a>')


def _step_markdown(step: str) -> str:
    """A step as one Markdown list item's text: the site's HTML of it without its tags, its links
    to rules as Markdown links."""
    links: list[str] = []

    def keep(match: re.Match[str]) -> str:
        links.append(f"[{match.group(2)}](#{match.group(1)})")
        return f"\x00{len(links) - 1}\x00"

    plain = Markup(_STEP_LINK_RE.sub(keep, step)).striptags()
    return re.sub("\x00(\\d+)\x00", lambda m: links[int(m.group(1))], plain)


def book_markdown(book: Book, anchors: dict[str, dict[str, Anchor]], extras: SiteExtras | None = None) -> str:
    def text(node: object, field_name: str) -> str:
        return _blocks(extras.linked(book.id, node, field_name) if extras is not None else getattr(node, field_name), book, anchors)

    parts = [f"# {_inline(book.title, book, anchors)}\n", text(book, "summary")]
    for section in book.sections:
        parts.append(f"## {section.number} {_inline(section.title, book, anchors)} {{#{section.id}}}\n")
        if section.intro:
            parts.append(text(section, "intro"))
        for rule in section.rules:
            parts.append(f"### {rule.number} {_inline(rule.title, book, anchors)} {{#{rule.id}}}\n")
            parts.append(text(rule, "text"))
            for example in rule.examples:
                title = f"{rule.number} ({example.id}) {example.title}".strip()
                extra = extras.shown.get((book.id, example.id)) if extras is not None else None
                steps = "".join(f"{n}. {step}\n" for n, step in enumerate(extra.steps, 1)) if extra is not None else ""
                body = text(example, "text") + (f"\n{steps}" if steps else "") + "\n```pycon\n" + example.doctest.rstrip("\n") + "\n```\n"
                parts.append(f'<a id="{example.id}"></a>\n\n??? example "{title}"\n\n{_indent(body)}\n')
                if extra is not None and extra.figure:
                    parts.append(f'<figure class="rb-figure">{extra.figure}</figure>\n')
            for ruling in rule.rulings:
                body = text(ruling, "text") + "\n" + text(ruling, "reason")
                parts.append(f'<a id="{ruling.id}"></a>\n\n!!! note "{rule.number} ({ruling.id})"\n\n{_indent(body)}\n')
    return "\n".join(parts)


def home_markdown(books: dict[str, Book]) -> str:
    lines = ["# Rulebook\n"]
    for book in books.values():
        lines.append(f"- [{book.title}]({book.id}.md): {book.summary}")
    return "\n".join(lines) + "\n"


def markdown_pages(books: dict[str, Book], language: str, locales: Path) -> dict[str, str]:
    """File name -> Markdown of the home page, every book and the glossary, in one language: what
    a rulebook page holds, its examples' steps and boards and its links to the glossary included."""
    source_books = books
    if language != SOURCE_LANGUAGE:
        translated = {book_id: translate_book(book, language, locales) for book_id, book in books.items()}
        unfinished = [f"{t.book.id}/{language}" for t in translated.values() if t.fallback or t.problems]
        if unfinished:
            raise RuntimeError(f"the corpus is not fully translated: {', '.join(unfinished)}")
        books = {book_id: t.book for book_id, t in translated.items()}
    anchors = {book_id: book.anchors() for book_id, book in books.items()}
    extras = site_extras(source_books, language, locales)
    pages = {"index.md": home_markdown(books)}
    pages.update({f"{book_id}.md": book_markdown(book, anchors, extras) for book_id, book in books.items()})
    if extras.glossary:
        pages["glossary.md"] = extras.glossary
    return pages


# --- mkdocs.yml of each configuration -------------------------------------------------------


def repository_config() -> dict:
    """The repository's mkdocs.yml as MkDocs reads it (``!ENV`` resolved), to write variants of."""
    with open(REPO / "mkdocs.yml", encoding="utf-8") as source:
        return yaml_load(source)


def _plugin_options(plugins: list, name: str) -> dict:
    for plugin in plugins:
        if plugin == name:
            return {}
        if isinstance(plugin, dict) and name in plugin:
            return dict(plugin[name] or {})
    return {}


def _anchor_base(repo: dict, folder: Path, name: str) -> dict:
    # The overrides (and the favicon they hold) are the rulebook site's, not the plain builds'.
    theme = {k: v for k, v in repo["theme"].items() if k not in ("custom_dir", "favicon")}
    return {
        "site_name": f"{repo.get('site_name', 'Rulebook')} ({name})",
        "docs_dir": str(folder / "docs"),
        "site_dir": str(folder / "site"),
        "theme": theme,
        "markdown_extensions": repo.get("markdown_extensions", []),
    }


def _write(folder: Path, config: dict) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "mkdocs.yml"
    path.write_text(yaml.safe_dump(config, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path


def _write_pages(docs: Path, pages: dict[str, str]) -> None:
    docs.mkdir(parents=True, exist_ok=True)
    for name, text in pages.items():
        (docs / name).write_text(text, encoding="utf-8")


def write_material(corpus: Corpus, folder: Path) -> Path:
    """Plain mkdocs-material, the Italian books as Markdown."""
    repo = repository_config()
    books = load_library(rulebook_paths(corpus.rules))
    _write_pages(folder / "docs", markdown_pages(books, SOURCE_LANGUAGE, corpus.locales))
    config = _anchor_base(repo, folder, "mkdocs-material")
    config["plugins"] = [{"search": _plugin_options(repo["plugins"], "search")}]
    return _write(folder, config)


def write_static_i18n(corpus: Corpus, folder: Path, languages: tuple[str, ...] = ALL_LANGUAGES) -> Path:
    """mkdocs-material + mkdocs-static-i18n, folder layout: ``docs/<lang>/<page>.md``."""
    repo = repository_config()
    books = load_library(rulebook_paths(corpus.rules))
    for language in languages:
        _write_pages(folder / "docs" / language, markdown_pages(books, language, corpus.locales))
    config = _anchor_base(repo, folder, "mkdocs-static-i18n")
    i18n = {
        "docs_structure": "folder",
        "languages": [
            {"locale": language, "name": language_named(language).name, "build": True, "default": language == languages[0]}
            for language in languages
        ],
    }
    config["plugins"] = [{"search": _plugin_options(repo["plugins"], "search")}, {"i18n": i18n}]
    return _write(folder, config)


def write_rulebook(corpus: Corpus, folder: Path, languages: tuple[str, ...]) -> Path:
    """The repository's own site configuration, building the corpus in ``languages``."""
    repo = repository_config()
    (folder / "docs").mkdir(parents=True, exist_ok=True)  # every page is generated
    repo["docs_dir"] = str(folder / "docs")
    repo["site_dir"] = str(folder / "site")
    if "custom_dir" in repo["theme"]:
        repo["theme"]["custom_dir"] = str(REPO / repo["theme"]["custom_dir"])
    options = {**_plugin_options(repo["plugins"], "rulebook"), "rules": str(corpus.rules), "locales": str(corpus.locales), "languages": list(languages)}
    repo["plugins"] = [
        {"rulebook": options} if p == "rulebook" or (isinstance(p, dict) and "rulebook" in p) else p for p in repo["plugins"]
    ]
    return _write(folder, repo)
