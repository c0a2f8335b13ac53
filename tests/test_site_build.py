"""The site, built for real through MkDocs from small rulebooks and catalogs made here.

The helpers at the top (``make_project``, ``build``) are shared with the browser test.
"""

from __future__ import annotations

import json
import re
import textwrap
from html.parser import HTMLParser
from xml.etree import ElementTree
from pathlib import Path

import pytest
import yaml
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

from rulebook.adapters import generator
from rulebook.i18n.domains import ENGINES, SITE
from rulebook.i18n.headers import HeaderSettings, catalog_headers
from rulebook.loader import load_library, rulebook_paths
from rulebook.i18n.extract import messages as extract_messages
from tests.conftest import demo_book, site_languages

# MkDocs, or properdocs where it is the one installed (.ci/run builds with both).
mkdocs_build, load_config, Abort = generator.module("commands.build").build, generator.load_config, generator.Abort
yaml_load = generator.module("utils.yaml").yaml_load

REPO = Path(__file__).resolve().parents[1]

DEMO = demo_book("""
sections:
  - id: primo
    title: Primo capitolo
    rules:
      - id: mana-bianco
        title: Il mana bianco
        text: |
          Paga {W} e {2/U} per giocare la carta; il dado mostra {d6} o {CHAOS}. Vedi [[pesca]] e [[altro:fine]].
        examples:
          - id: somma
            text: Due più due fa quattro.
            doctest: |
              >>> 2 + 2
              4
        rulings:
          - id: decisione-mana
            text: Il mana non si conserva tra i turni.
            reason: Il testo originale non lo dice.
      - id: pesca
        title: Pescare
        text: Il giocatore pesca una carta dal mazzo.
""", summary="Un libro di prova con {W} e {hearts}.", engine="rulebook.engines.base")

ALTRO = demo_book("""
sections:
  - id: unico
    title: Unico capitolo
    rules:
      - id: fine
        title: La fine
        text: Si torna a [[demo:pesca]] con {spades}.
""", book_id="altro", title="Altro libro", summary="Un secondo libro per i collegamenti tra libri.", engine="rulebook.engines.base")

#: Russian for the demo book, by msgctxt. ``demo/primo:title`` is translated from an older
#: source (outdated); the book "altro" has no catalog at all (everything falls back).
RUSSIAN = {
    "demo:title": "Демо",
    "demo:summary": "Пробная книга с {W} и {hearts}.",
    "demo/mana-bianco:title": "Белая мана",
    "demo/mana-bianco:text": "Заплатите {W} и {2/U}, чтобы сыграть карту; кубик показывает {d6} или {CHAOS}. См. [[pesca]] и [[altro:fine]].",
    "demo/mana-bianco/somma:text": "Два плюс два — четыре.",
    "demo/mana-bianco/decisione-mana:text": "Мана не сохраняется между ходами.",
    "demo/mana-bianco/decisione-mana:reason": "В исходном тексте об этом не сказано.",
    "demo/pesca:title": "Взять карту",
    "demo/pesca:text": "Игрок берёт карту из колоды.",
}
OLD_SOURCES = {"demo/primo:title": ("Capitolo primo", "Первая глава")}


def write_catalog(locales: Path, language: str, book_id: str, translations: dict[str, str],
                  old: dict[str, tuple[str, str]] | None = None, rules: Path | None = None,
                  comments: dict[str, str] | None = None) -> Path:
    """A PO catalog for one book: msgid as the i18n extractor writes it, msgstr ours, and a
    translator's comment above the messages ``comments`` names."""
    books = load_library(rulebook_paths(rules))
    catalog = Catalog(locale=language, domain=book_id)
    for _line, _keyword, (context, text), _comments in extract_messages(books[book_id]):
        if old and context in old:
            source, translated = old[context]
            catalog.add(source, translated, context=context, flags=("fuzzy",))
        elif context in translations:
            said = (comments or {}).get(context)
            catalog.add(text, translations[context], context=context, user_comments=[said] if said else [])
    path = locales / language / "LC_MESSAGES" / f"{book_id}.po"
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as out:
        # A real header, as `rulebook i18n update` writes it: Babel's placeholders fail the strict build.
        write_po(out, catalog_headers(catalog, language, book_id, HeaderSettings()))
    return path


def make_project(root: Path, *, demo: str = DEMO, russian: dict[str, str] | None = None,
                 languages: list[str] | None = None, check_examples: bool = True,
                 site_url: str = "https://rules.example.org/base/", pdf: bool = False) -> Path:
    """rules/, locales/ and an mkdocs.yml like the repository's (same theme and overrides)."""
    rules, locales, docs = root / "rules", root / "locales", root / "docs"
    for folder in (rules, locales, docs):
        folder.mkdir(parents=True, exist_ok=True)
    (rules / "demo.yaml").write_text(textwrap.dedent(demo).lstrip(), encoding="utf-8")
    (rules / "altro.yaml").write_text(textwrap.dedent(ALTRO).lstrip(), encoding="utf-8")
    write_catalog(locales, "ru", "demo", RUSSIAN if russian is None else russian, OLD_SOURCES, rules)
    config = yaml_load((REPO / "mkdocs.yml").read_text(encoding="utf-8"))
    config["site_url"] = site_url
    config["docs_dir"] = str(docs)
    config["site_dir"] = str(root / "site")
    config["theme"]["custom_dir"] = str(REPO / config["theme"]["custom_dir"])  # our site_overrides/, wherever root is
    configured = next(p["rulebook"] for p in config["plugins"] if isinstance(p, dict) and "rulebook" in p)
    plugin = {"rules": str(rules), "locales": str(locales), "check_examples": check_examples,
              "languages": languages or configured["languages"], "pdf": pdf}
    config["plugins"] = [p if p != "rulebook" and "rulebook" not in (p if isinstance(p, dict) else {}) else {"rulebook": plugin}
                         for p in config["plugins"]]
    path = root / "mkdocs.yml"
    path.write_text(yaml.safe_dump(config, allow_unicode=True), encoding="utf-8")
    return path


def build(config_file: Path, strict: bool = True) -> Path:
    config = load_config(str(config_file), strict=strict)
    mkdocs_build(config)
    return Path(config.site_dir)


class Elements(HTMLParser):
    """Every start tag with its attributes, and the text inside <script> elements."""

    def __init__(self, html: str):
        super().__init__()
        self.tags: list[tuple[str, dict[str, str]]] = []
        self.scripts: list[str] = []
        self._in_script = False
        self.feed(html)

    def handle_starttag(self, tag, attrs):  # noqa: ANN001
        self.tags.append((tag, {k: v or "" for k, v in attrs}))
        self._in_script = tag == "script"

    def handle_endtag(self, tag):  # noqa: ANN001
        self._in_script = False

    def handle_data(self, data):  # noqa: ANN001
        if self._in_script:
            self.scripts.append(data)

    def find(self, tag: str, **attrs: str) -> list[dict[str, str]]:
        return [a for t, a in self.tags if t == tag and all(a.get(k.rstrip("_")) == v for k, v in attrs.items())]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build(make_project(tmp_path_factory.mktemp("site")))


def page(site: Path, path: str) -> str:
    return (site / path / "index.html").read_text(encoding="utf-8")


#: The site's languages (make_project's default: those of our mkdocs.yml), the source first.
LANGUAGES = site_languages()


def prefix(language: str) -> str:
    """Where a language's pages are: the source at the root, every other under its code."""
    return "" if language == LANGUAGES[0] else language + "/"


def test_every_language_has_home_books_and_coverage(site: Path) -> None:
    for prefix_ in map(prefix, LANGUAGES):
        for name in ("", "demo/", "altro/", "coverage/"):
            assert (site / prefix_ / name / "index.html").exists(), prefix_ + name


SITE_URL = "https://rules.example.org/base/"  # make_project's default


def test_html_lang_canonical_and_absolute_hreflang_alternates_are_per_page(site: Path) -> None:
    html = page(site, "ru/demo")
    assert re.search(r'<html lang="ru"', html)
    alternates = {a["hreflang"]: a["href"] for a in Elements(html).find("link", rel="alternate")}
    assert alternates == {**{lang: SITE_URL + prefix(lang) + "demo/" for lang in LANGUAGES}, "x-default": SITE_URL + "demo/"}
    assert [a["href"] for a in Elements(html).find("link", rel="canonical")] == [SITE_URL + "ru/demo/"]
    assert re.search(r'<html lang="it"', page(site, "demo"))
    # The language menu stays relative: it works wherever the site is opened.
    switcher = [a for a in Elements(html).find("a") if "rb-alternate" in a.get("class", "")]
    assert [(a["hreflang"], a["href"]) for a in switcher] == [(lang, "./" if lang == "ru" else f"../../{prefix(lang)}demo/") for lang in LANGUAGES]


def test_the_sitemap_lists_every_page_of_every_language_with_its_alternates(site: Path) -> None:
    sitemap = ElementTree.parse(site / "sitemap.xml").getroot()
    ns = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9", "x": "http://www.w3.org/1999/xhtml"}
    urls = {u.findtext("s:loc", namespaces=ns): {a.get("hreflang"): a.get("href") for a in u.findall("x:link", ns)}
            for u in sitemap.findall("s:url", ns)}
    folders = [p.parent.relative_to(site).as_posix() for p in site.rglob("index.html")]
    assert set(urls) == {SITE_URL + ("" if f == "." else f + "/") for f in folders} and len(urls) == len(LANGUAGES) * 4
    assert urls[SITE_URL + "fr/altro/"] == {lang: SITE_URL + prefix(lang) + "altro/" for lang in LANGUAGES}


def test_rule_anchors_are_ids_in_every_language(site: Path) -> None:
    for prefix in ("", "ru/", "en/"):
        ids = {a.get("id") for _, a in Elements(page(site, prefix + "demo")).tags}
        assert {"mana-bianco", "pesca", "somma", "decisione-mana", "primo"} <= ids


def test_cross_references_link_to_numbers_within_and_across_books(site: Path) -> None:
    links = Elements(page(site, "ru/demo")).find("a", class_="rb-xref")
    assert [a["href"] for a in links] == ["#pesca", "../altro/#fine"]
    html = page(site, "ru/demo")
    assert re.search(r'<a class="rb-xref" href="#pesca"[^>]*>1\.2</a>', html)
    # The other book's page is another page: the link leaves this one, and shows the rule's number.
    assert re.search(r'<a class="rb-xref" href="\.\./demo/#pesca"[^>]*>1\.2</a>', page(site, "ru/altro"))


def _ru_site_word(msgid: str, context: str | None = None) -> str:
    """A site word as the Russian catalog translates it: the labels are the translator's to choose
    (the suits are the genitive after a rank, review-ru D3), so the tests read them, never pin them."""
    with (SITE.locale_dir / "ru" / "LC_MESSAGES" / "site.po").open("rb") as po:
        message = read_po(po).get(msgid, context)
    assert message is not None and message.string, f"the ru site catalog translates {msgid!r}"
    return str(message.string)


def test_symbols_are_icons_with_text_alternatives_in_the_page_language(site: Path) -> None:
    html = page(site, "ru/demo")
    white = _ru_site_word("{colour} mana").format(colour=_ru_site_word("white", "mana colour"))
    assert f'<i class="ms ms-w ms-cost" role="img" aria-label="{white}" title="{white}"></i>' in html
    assert 'class="ms ms-2u ms-cost"' in html and 'class="ms ms-chaos"' in html
    assert re.search(rf'<span class="rb-suit rb-suit--hearts" role="img" aria-label="{_ru_site_word("hearts")}"[^>]*>\u2665</span>', html)
    assert re.search(r'<span class="rb-die"[^>]*>\u2685</span>', html)
    assert (site / "assets" / "mana-font" / "css" / "mana.min.css").exists()
    assert (site / "assets" / "mana-font" / "fonts" / "mana.woff").exists()


def test_fallback_and_outdated_text_is_marked_never_silent(site: Path) -> None:
    html = page(site, "ru/demo")
    # Translated text is Russian and unmarked; the outdated chapter title is Italian and marked.
    assert "Белая мана" in html and "Заплатите" in html
    assert re.search(r'data-rb-state="outdated"><span lang="it">Primo capitolo</span>', html)
    altro = page(site, "ru/altro")
    assert re.search(r'data-rb-state="fallback"><div lang="it"><p>Si torna a', altro)
    assert "ещё не переведено" in altro  # the badge speaks the reader's language
    assert 'data-rb-state=' not in page(site, "altro")  # the Italian site is the source: no marks
    # Each page also says how much of it is still Italian, and where translators can help.
    assert re.search(r'data-rb-fallback="1">\s*<p class="admonition-title">1 из 10 текстов', html)
    assert 'data-rb-fallback="5"' in altro and "rb-coverage-note" not in page(site, "demo")


def test_a_broken_rulebook_stops_the_build_at_its_line(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    config = make_project(tmp_path)
    (tmp_path / "rules" / "altro.yaml").write_text(ALTRO.replace("[[demo:pesca]]", "[[demo:nessuna]]"), encoding="utf-8")
    with pytest.raises(Abort):
        build(config)
    assert re.search(r"altro\.yaml:\d+:\d+: cross-reference \[\[demo:nessuna\]\] names no rule", caplog.text)


def test_serve_watches_rules_and_locales(tmp_path: Path) -> None:
    config = load_config(str(make_project(tmp_path)))
    watched: list[str] = []

    class Server:
        def watch(self, path: str) -> None:
            watched.append(path)

    config.plugins["rulebook"].on_serve(Server(), config=config, builder=None)
    assert watched == [str((tmp_path / "rules").resolve()), str((tmp_path / "locales").resolve())]
    # After the first build (as `mkdocs serve` calls it): also the catalogs shipped with the
    # package whose words the pages show (the site's words; the demo books' engine ships none of its own).
    mkdocs_build(config)
    watched.clear()
    config.plugins["rulebook"].on_serve(Server(), config=config, builder=None)
    assert sorted(watched[2:]) == sorted([str(SITE.locale_dir), str(ENGINES.locale_dir)])


def test_examples_show_text_doctest_and_outcome(site: Path) -> None:
    html = page(site, "ru/demo")
    example = re.search(r'<div class="admonition example rb-example rb-example--passed" id="somma" data-rb-status="passed">(.*?)</details>', html, re.S)
    assert example, "example block"
    assert "Два плюс два" in example.group(1)
    assert "<details" in example.group(1) and "2</span> <span class=\"o\">+</span>" in example.group(1)
    assert "проверено" in example.group(1)


def test_search_index_per_language_with_its_stemmer(site: Path) -> None:
    indexes = {lang: json.loads((site / prefix / "search" / "search_index.json").read_text(encoding="utf-8"))
               for lang, prefix in (("it", ""), ("ru", "ru/"), ("en", "en/"))}
    assert indexes["ru"]["config"]["lang"] == ["ru"] and indexes["it"]["config"]["lang"] == ["it"]
    ru_text = " ".join(d["text"] + d["title"] for d in indexes["ru"]["docs"])
    it_text = " ".join(d["text"] + d["title"] for d in indexes["it"]["docs"])
    assert "колоды" in ru_text and "колоды" not in it_text
    for lang, index in indexes.items():
        assert not any(d["location"].startswith(("ru/", "en/", "fr/", "es/", "pt/")) for d in index["docs"]), lang
    assert any(d["location"] == "demo/#pesca" for d in indexes["ru"]["docs"])
    # Each page tells the theme where its language's index is.
    assert '"ru/"' in page(site, "ru/demo") and "config.base" in page(site, "ru/demo")


def test_the_search_index_is_ours_wherever_the_plugins_are_listed(tmp_path: Path) -> None:
    # Material's search plugin writes its own (empty) index at its post-build: ours is written
    # after it by priority, not by the order of mkdocs.yml, which a project may write either way.
    config_file = make_project(tmp_path, languages=["it"])
    config = yaml.safe_load(config_file.read_text(encoding="utf-8"))
    config["plugins"].sort(key=lambda p: 0 if isinstance(p, dict) and "rulebook" in p else 1)
    assert isinstance(config["plugins"][0], dict) and "rulebook" in config["plugins"][0]
    config_file.write_text(yaml.safe_dump(config, allow_unicode=True), encoding="utf-8")
    index = json.loads((build(config_file) / "search" / "search_index.json").read_text(encoding="utf-8"))
    assert any(d["location"] == "demo/#pesca" for d in index["docs"])


def test_the_search_index_is_written_from_the_rulebooks_not_parsed_from_pages(site: Path) -> None:
    index = json.loads((site / "ru" / "search" / "search_index.json").read_text(encoding="utf-8"))
    docs = {d["location"]: d for d in index["docs"]}
    # A page's own entry first, then its sections and rules under their anchors.
    locations = [d["location"] for d in index["docs"]]
    assert locations.index("demo/") < locations.index("demo/#primo") < locations.index("demo/#mana-bianco")
    rule = docs["demo/#mana-bianco"]
    assert rule["title"] == "1.1 Белая мана"
    # Symbols by their text alternative, cross-references by their numbers, rulings and examples
    # in the page's words; the doctest is no reader's text.
    white = _ru_site_word("{colour} mana").format(colour=_ru_site_word("white", "mana colour"))
    # After a capitalised word, an icon's name reads as an aside; after «и», as a word of the sentence.
    from rulebook.render.ui import symbol_label
    from rulebook.symbols import SYMBOLS
    hybrid = symbol_label(SYMBOLS["{2/U}"], "ru").text
    assert f"Заплатите ({white}) и {hybrid}, чтобы" in rule["text"] and "См. 1.2 и 1.1." in rule["text"]
    assert "<p>Решение: Мана не сохраняется между ходами. Причина:" in rule["text"] and "Два плюс два" in rule["text"]
    assert ">>>" not in json.dumps(index, ensure_ascii=False) and "2 + 2" not in rule["text"]
    # A text not translated yet is indexed as the page shows it: in Italian.
    assert docs["altro/#fine"]["text"] == f"<p>Si torna a 1.2 con {_ru_site_word('spades')}.</p>"
    # No glossary in this project: no game terms to keep.
    assert index["config"]["rulebook"] == {"keep": []}


def test_game_terms_of_the_glossary_are_kept_whole_in_each_languages_index(tmp_path: Path) -> None:
    config = make_project(tmp_path)
    (tmp_path / "locales" / "glossary.yaml").write_text(
        "terms:\n  - it: mana\n    es: [maná, manás]\n    ru: [мана, маны, манов*]\n", encoding="utf-8")
    site = build(config)
    keep = {lang: json.loads((site / prefix / "search" / "search_index.json").read_text(encoding="utf-8"))["config"]["rulebook"]["keep"]
            for lang, prefix in (("it", ""), ("es", "es/"), ("ru", "ru/"), ("en", "en/"))}
    assert keep == {"it": [["mana", "mana"]], "es": [["maná", "maná"], ["manás", "maná"]],
                    "ru": [["мана", "мана"], ["маны", "мана"], ["манов*", "мана"]], "en": []}


def test_home_lists_books_with_summaries_and_coverage_counts(site: Path) -> None:
    home = page(site, "ru")
    assert "Пробная книга с" in home and 'href="demo/"' in home and 'href="altro/"' in home
    coverage = Elements(page(site, "coverage"))
    rows = [a for t, a in coverage.tags if t == "tr" and a.get("data-rb-book") == "demo"]
    assert [r["data-rb-language"] for r in rows] == list(LANGUAGES)
    html = page(site, "coverage")
    ru_row = re.search(r'<tr data-rb-book="demo" data-rb-language="ru">(.*?)</tr>', html, re.S).group(1)
    cells = re.findall(r"<td>(\d+)</td>", ru_row)
    assert cells == ["10", "9", "1", "1"]  # texts, translated, fuzzy, shown in Italian


def test_nav_lists_only_the_readers_language(site: Path) -> None:
    html = page(site, "ru/demo")
    nav = html[html.index('<nav class="md-nav md-nav--primary"'):html.index('md-sidebar--secondary')]
    assert "Покрытие переводов" in nav and "Правила игр" in nav
    assert "Copertura delle traduzioni" not in html and "Translation coverage" not in html
    logo = [a for a in Elements(html).find("a") if "md-header__button md-logo" in a.get("class", "")]
    assert logo[0]["href"] == "../"  # the Russian home, not the Italian one


def test_a_failing_example_is_shown_and_fails_the_strict_build(tmp_path: Path) -> None:
    config = make_project(tmp_path, demo=DEMO.replace("              4\n", "              5\n"))
    with pytest.raises(Abort):
        build(config, strict=True)
    site = build(config, strict=False)
    html = page(site, "demo")
    assert 'id="somma" data-rb-status="failed"' in html
    assert "Expected:" in html and "verifica fallita" in html


HOSTILE = {
    "demo:title": "Демо</title><script>alert('pwned')</script>",
    "demo:summary": "Книга {W} {hearts} <img src=x onerror=alert('pwned')>",
    "demo/mana-bianco:title": "{{ 7*7 }} {% raw %}pwned",
    "demo/mana-bianco:text": "Заплатите {W} и {2/U}; [pwned](javascript:alert(1)) кубик {d6} {CHAOS}. [[pesca]] [[altro:fine]]",
    # Passes the catalog checks (no tag, link, number or brace): quotes must not break out of anything.
    "demo/mana-bianco/somma:text": "\"pwned\" onmouseover=alert() x='y' ` ---<-- /etc/passwd",
    "demo/pesca:title": "javascript:alert('pwned')",
    "demo/pesca:text": "&lt;script&gt;pwned&lt;/script&gt; ${{pwned}}",
}


def test_hostile_catalog_is_text_in_the_built_html(tmp_path: Path) -> None:
    site = build(make_project(tmp_path, russian=HOSTILE), strict=False)
    for path in ("ru/demo", "ru", "ru/coverage"):
        html = page(site, path)
        parsed = Elements(html)
        assert not [s for s in parsed.scripts if "pwned" in s or "alert" in s], path
        for tag, attrs in parsed.tags:
            assert tag not in ("img", "iframe", "object", "embed"), (path, tag)
            for name, value in attrs.items():
                assert not name.startswith("on"), (path, tag, name)
                assert "javascript:" not in value.lower(), (path, tag, name, value)
                assert "pwned" not in value, (path, tag, name, value)
        assert not re.search(r">[^<]*\b49\b[^<]*<", html.split('<div class="rb-', 1)[1]), "a template was evaluated"
    html = page(site, "ru/demo")
    # What the catalog checks let through is text, quotes escaped, no file included.
    assert "&#34;pwned&#34; onmouseover=alert() x=&#39;y&#39; ` ---&lt;-- /etc/passwd" in html
    assert "root:" not in html
    # What they refused is shown in Italian, marked, never silently.
    assert re.search(r'data-rb-state="fallback"><div lang="it"><p>Paga', html)
    assert re.search(r'data-rb-state="fallback"><span lang="it">Demo</span>', html)
    index = (site / "ru" / "search" / "search_index.json").read_text(encoding="utf-8")
    assert "<script" not in index and "<img" not in index


def test_a_one_off_build_holds_one_book_page_at_a_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """MkDocs makes every page's content before it writes any: a book page made then would keep
    every book in every language in memory at once (most of a large build's peak, issue 31.3)."""
    import gc
    import weakref

    from rulebook.render.pages import Site

    made: list[weakref.ref[object]] = []
    alive_at_each: list[int] = []
    book_page = Site._book_page

    def counted(self: Site, book_id: str, language: str) -> object:
        gc.collect()
        alive_at_each.append(sum(ref() is not None for ref in made))
        page = book_page(self, book_id, language)
        made.append(weakref.ref(page))
        return page

    monkeypatch.setattr(Site, "_book_page", counted)
    # What a page's words need besides the page (search documents, glossary uses): made once, kept for the build.
    from rulebook.render import pages, search
    asked: list[str] = []
    for module, name in ((pages, "book_uses"), (search, "_book_docs")):
        made_by = getattr(module, name)
        monkeypatch.setattr(module, name, lambda *args, made_by=made_by, name=name: asked.append(name) or made_by(*args))
    site = build(make_project(tmp_path, languages=["it", "ru", "en"]))
    assert len(alive_at_each) == 2 * 3  # two books, three languages, each page made once
    assert sorted(asked) == ["_book_docs"] * 6 + ["book_uses"] * 6
    assert max(alive_at_each) == 0, alive_at_each  # the one before was written and let go
    assert "Due più due fa quattro." in page(site, "demo") and "Два плюс два" in page(site, "ru/demo")


def test_a_one_off_build_lets_each_language_go_once_its_pages_are_made(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A one-off build with its cache's folder stores each language's book pages there, then lets
    that language's translations go: every language's at once were most of the memory of 50 x 200
    books (issue 31.3). Each page is read back when MkDocs writes it, never made twice."""
    import gc
    import weakref

    from rulebook import mkdocs_plugin
    from rulebook.render.pages import Site

    translations: list[tuple[str, weakref.ref[object]]] = []
    alive_at: list[tuple[str, set[str]]] = []
    translate, book_page = mkdocs_plugin.translate_book, Site._book_page

    def remembered(*args: object, **kwargs: object) -> object:
        made = translate(*args, **kwargs)  # type: ignore[arg-type]
        translations.append((made.language, weakref.ref(made)))
        return made

    def made(self: Site, book_id: str, language: str) -> object:
        gc.collect()
        alive_at.append((language, {code for code, ref in translations if ref() is not None}))
        return book_page(self, book_id, language)

    monkeypatch.setattr(mkdocs_plugin, "translate_book", remembered)
    monkeypatch.setattr(Site, "_book_page", made)
    site = build(make_project(tmp_path, languages=["it", "ru", "en"]))
    assert sorted(language for language, _ in alive_at) == ["en"] * 2 + ["it"] * 2 + ["ru"] * 2  # each page made once
    assert all(alive <= {language} for language, alive in alive_at), alive_at  # no other language's translation held
    assert "Due più due fa quattro." in page(site, "demo")
    assert "Два плюс два" in page(site, "ru/demo")


def test_a_one_off_build_that_cannot_write_its_cache_makes_each_page_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A read-only project builds all the same: its pages made when MkDocs writes them, each once."""
    from rulebook.render import stored_pages
    from rulebook.render.pages import Site

    made: list[tuple[str, str]] = []
    book_page = Site._book_page

    def counted(self: Site, book_id: str, language: str) -> object:
        made.append((book_id, language))
        return book_page(self, book_id, language)

    monkeypatch.setattr(Site, "_book_page", counted)
    monkeypatch.setattr(stored_pages, "write_json", lambda *args: None)  # the folder keeps nothing
    monkeypatch.setattr(stored_pages.KeptPages, "_writable", lambda self, folder: False)
    site = build(make_project(tmp_path, languages=["it", "ru"]))
    assert sorted(made) == [("altro", "it"), ("altro", "ru"), ("demo", "it"), ("demo", "ru")]
    assert "Два плюс два" in page(site, "ru/demo")
