"""Languages are data: a new one is a command and a line of mkdocs.yml, the source may be any.

Each test builds a small project (test_site_build's make_project) with ``mkdocs build
--strict`` and reads the pages as a browser would get them.
"""

from __future__ import annotations

import json
import re
import textwrap
from pathlib import Path

import pytest
import yaml
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po
from mkdocs.exceptions import Abort

from rulebook.cli import main
from rulebook.languages import Language

from .conftest import unpublished_language
from .test_site_build import Elements, build, make_project, page, write_catalog


def set_languages(config: Path, languages: list[str]) -> None:
    """What a translator does to publish a language: list it in the plugin's languages."""
    data = yaml.safe_load(config.read_text(encoding="utf-8"))
    for plugin in data["plugins"]:
        if isinstance(plugin, dict) and "rulebook" in plugin:
            plugin["rulebook"]["languages"] = languages
    config.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")


def translate_po(path: Path, translations: dict[tuple[str | None, str], str]) -> None:
    """A translator's editor: fill some msgstr by (msgctxt, msgid) and save."""
    with path.open("rb") as f:
        catalog = read_po(f)
    for message in catalog:
        key = (message.context, message.id if isinstance(message.id, str) else message.id[0])
        if key in translations:
            message.string = translations[key]
    with path.open("wb") as f:
        write_po(f, catalog)


#: The language the tests add: not published by our site, no words shipped by the toolkit.
NEW = unpublished_language()
NAME = Language(NEW).name  # its name in itself, as the language menu shows it


@pytest.fixture(scope="module")
def added(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A project with Italian books to which a language is added as data: init, two messages, one
    line. The language is one our site does not publish and the toolkit ships no words for
    (German today), so its site words start empty."""
    root = tmp_path_factory.mktemp("added")
    config = make_project(root)
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(root)
        assert main(["i18n", "init", NEW]) == 0
    locales = root / "locales"
    site_po = locales / NEW / "LC_MESSAGES" / "site.po"
    assert {p.name for p in (locales / NEW / "LC_MESSAGES").iterdir()} == {"demo.po", "altro.po", "site.po", "engine.base.po"}  # and the engines' shared messages
    assert Catalog(locale=NEW).plural_forms in site_po.read_text(encoding="utf-8")  # as Babel says
    translate_po(locales / NEW / "LC_MESSAGES" / "demo.po", {("demo/pesca:title", "Pescare"): "Karte ziehen"})
    translate_po(site_po, {(None, "Example {n}"): "Beispiel {n}"})
    # The project also rewords one shipped Russian message, and only that one.
    ru_site = locales / "ru" / "LC_MESSAGES" / "site.po"
    ru_site.write_text('msgid ""\nmsgstr ""\n"Language: ru\\n"\n\nmsgid "Ruling {n}"\nmsgstr "Постановление {n}"\n\n'
                       'msgid "Reason"\nmsgstr ""\n', encoding="utf-8")
    set_languages(config, ["it", "ru", NEW])
    return build(config)


def test_the_new_language_is_published_with_its_own_lang_and_alternates(added: Path) -> None:
    html = page(added, f"{NEW}/demo")
    assert re.search(rf'<html lang="{NEW}"', html) and 'dir="ltr"' in html
    alternates = {a["hreflang"]: a["href"] for a in Elements(html).find("link", rel="alternate")}
    site_url = "https://rules.example.org/base/"
    assert alternates == {"it": site_url + "demo/", "ru": site_url + "ru/demo/", NEW: site_url + f"{NEW}/demo/", "x-default": site_url + "demo/"}
    switcher = [a for a in Elements(html).find("a") if "rb-alternate" in a.get("class", "")]
    assert [(a["hreflang"], a["lang"]) for a in switcher] == [("it", "it"), ("ru", "ru"), (NEW, NEW)]
    assert re.search(rf'hreflang="{NEW}" lang="{NEW}" class="md-select__link rb-alternate" aria-current="true">{NAME}</a>', html)
    assert 'hreflang="ru"' in page(added, "demo") and f'hreflang="{NEW}"' in page(added, "demo")
    for name in ("", "altro/", "coverage/"):
        assert (added / NEW / name / "index.html").exists()
    index = json.loads((added / NEW / "search" / "search_index.json").read_text(encoding="utf-8"))
    assert index["config"]["lang"] == [NEW] and any(d["location"] == "demo/#pesca" for d in index["docs"])


def test_untranslated_rule_texts_and_site_words_are_shown_in_the_source_language_and_marked(added: Path) -> None:
    html = page(added, f"{NEW}/demo")
    # The one translated rule title is translated and unmarked; the others are Italian, marked.
    assert re.search(r'<h3 id="pesca"><span class="rb-number" id="1.2">1.2</span> Karte ziehen<a', html)
    assert re.search(r'data-rb-state="fallback"><span lang="it">Il mana bianco</span>', html)
    assert re.search(r'data-rb-state="fallback"><div lang="it"><p>Paga', html)
    # The site's words: the translated one is translated, the others Italian with the same mark.
    assert re.search(r'<p class="admonition-title">Beispiel 1<span class="rb-visually-hidden">, </span>\s*<span class="rb-status', html)
    assert re.search(r'data-rb-state="fallback"><span lang="it">Decisione 1</span> <abbr class="rb-badge rb-badge--fallback" '
                     r'title="non ancora tradotto: testo in italiano" lang="it">it</abbr>', html)
    # The badge has no translation either: it is shown in Italian, its lang says so.
    assert '<p class="rb-badge rb-badge--fallback" lang="it">non ancora tradotto: testo in italiano</p>' in html
    assert "&lt;span" not in html and "&lt;abbr" not in html  # no markup ever shows as text
    # Words inside attributes cannot hold a mark: their element says their language instead.
    assert 'aria-label="mana bianco" title="mana bianco" lang="it"' in html
    assert 'href="#pesca" title="Link permanente" lang="it">&para;</a>' in html
    for tag, attributes in Elements(html).tags:
        assert not any("<" in value for value in attributes.values()), (tag, attributes)
    # Counts still agree with the page: the banner names what is in Italian.
    assert re.search(r'data-rb-fallback="9">\s*<p class="admonition-title"><span class="rb-untranslated', html)


def test_a_project_catalog_overrides_shipped_words_one_by_one(added: Path) -> None:
    html = page(added, "ru/demo")
    assert '<p class="admonition-title">Постановление 1 <a' in html  # the project's word
    assert "<strong>Причина:</strong>" in html  # its empty msgstr leaves the shipped word in place
    assert "Пример" in html and "lang=\"it\"><span" not in html


def test_coverage_lists_the_new_language(added: Path) -> None:
    coverage = Elements(page(added, "coverage"))
    rows = [a["data-rb-language"] for t, a in coverage.tags if t == "tr" and a.get("data-rb-book") == "demo"]
    assert rows == ["it", "ru", NEW]
    assert f">{NAME}</a>" in page(added, "coverage")


def test_a_right_to_left_language_and_one_the_theme_does_not_know(tmp_path: Path) -> None:
    # Material has Arabic words and an Arabic stemmer; it has neither for Swahili.
    site = build(make_project(tmp_path, languages=["it", "ar", "sw"]))
    arabic, swahili = page(site, "ar/demo"), page(site, "sw/demo")
    assert re.search(r'<html lang="ar"', arabic) and re.search(r'<body dir="rtl"', arabic)
    assert re.search(r'<html lang="sw"', swahili) and re.search(r'<body dir="ltr"', swahili)
    assert "Skip to content" in swahili  # Material's English words, not a crash
    assert ">العربية</a>" in arabic and ">Kiswahili</a>" in arabic
    indexes = {lang: json.loads((site / lang / "search" / "search_index.json").read_text(encoding="utf-8"))["config"]
               for lang in ("ar", "sw")}
    assert indexes["ar"]["lang"] == ["ar"] and "stemmer" in indexes["ar"]["pipeline"]
    assert indexes["sw"]["lang"] == ["en"] and "stemmer" not in indexes["sw"]["pipeline"]


ENGLISH_BOOK = """
book:
  id: house
  title: House rules
  summary: Our club's rules for {W} mana.
  language: en
  engine: base
sections:
  - id: first
    title: First chapter
    rules:
      - id: draw
        title: Drawing
        text: The player draws a card from the deck.
      - id: discard
        title: Discarding
        text: The player discards a card.
"""


def test_an_english_source_project_translated_into_italian(tmp_path: Path) -> None:
    config = make_project(tmp_path, languages=["en", "it"])
    for name in ("demo", "altro"):
        (tmp_path / "rules" / f"{name}.yaml").unlink()
    (tmp_path / "rules" / "house.yaml").write_text(textwrap.dedent(ENGLISH_BOOK).lstrip(), encoding="utf-8")
    write_catalog(tmp_path / "locales", "it", "house",
                  {"house:title": "Regole della casa", "house/draw:text": "Il giocatore pesca una carta dal mazzo."},
                  rules=tmp_path / "rules")
    site = build(config)
    english, italian = page(site, "house"), page(site, "it/house")
    assert re.search(r'<html lang="en"', english) and "data-rb-state" not in english
    assert re.search(r'<html lang="it"', italian) and "Regole della casa" in italian
    assert re.search(r'data-rb-state="fallback"><div lang="en"><p>The player discards a card.</p></div>'
                     r'<p class="rb-badge rb-badge--fallback">non ancora tradotto: testo in inglese</p>', italian)
    # Seven texts (title, summary, a chapter title, two rule titles and texts), two translated.
    assert "5 testi su 7 di questa pagina sono ancora in inglese" in italian
    assert '<th scope="col">In inglese</th>' in page(site, "it/coverage") and '<th scope="col">In English</th>' in page(site, "coverage")
    assert (site / "index.html").exists() and (site / "it" / "index.html").exists() and not (site / "en").exists()


def test_the_first_language_must_be_the_books_language(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    config = make_project(tmp_path, languages=["en", "it"])
    with pytest.raises(Abort):
        build(config)
    assert re.search(r"demo\.yaml:5:1: the book is in 'it' but the site's first language, its source, is 'en'", caplog.text)


def test_an_unknown_language_is_refused_by_the_configuration(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    with pytest.raises(Abort):
        build(make_project(tmp_path, languages=["it", "xx"]))
    assert "option 'languages': unknown language 'xx'" in caplog.text
