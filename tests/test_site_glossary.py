"""Each language's glossary page, built from the project's ``locales/glossary.yaml``, and the links to it (issue 26.5).

The demo book of test_site_build, with a glossary of two game terms: mana (a whole word in every
language) and the card (a prefix in Russian, ``карт*``, under its ``headword:``). Every language
gets a page in its own words, each term under its headword in that language; a rule's prose links each term's first use
to its entry, a heading never; a project without a glossary has no such page.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from tests.test_site_build import DEMO, Elements, build, make_project, page

GLOSSARY = """
terms:
  - it: mana
    en: mana
    fr: mana
    es: [maná, manás]
    pt: mana
    ru: [мана, маны, мане, ману, маной]
  - it: [carta, carte]
    en: [card, cards]
    fr: [carte, cartes]
    es: [carta, cartas]
    pt: [carta, cartas]
    ru: [карт*]
    headword: {ru: карта}
"""
#: The page's title in each language, from the site's catalogs.
TITLES = {"it": "Glossario", "en": "Glossary", "fr": "Glossaire", "es": "Glosario", "pt": "Glossário", "ru": "Глоссарий"}


#: The demo book with mana twice in its ruling (changed: every translation shows it in Italian) and
#: in its example's title (a title: never linked).
BOOK = DEMO.replace("text: Il mana non si conserva tra i turni.", "text: Il mana non si conserva tra i turni; il mana si perde.").replace(
    "          - id: somma\n", "          - id: somma\n            title: Il mana in un esempio\n")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    assert BOOK.count("il mana si perde") == 1 and BOOK.count("Il mana in un esempio") == 1
    root = tmp_path_factory.mktemp("glossary")
    config = make_project(root, demo=BOOK)
    (root / "locales" / "glossary.yaml").write_text(GLOSSARY, encoding="utf-8")
    return build(config)


def prefix(language: str) -> str:
    return "" if language == "it" else f"{language}/"


@pytest.mark.parametrize("language", list(TITLES))
def test_each_language_has_a_glossary_page_in_its_own_words(site: Path, language: str) -> None:
    html = page(site, f"{prefix(language)}glossary")
    body = html[html.index('<div class="rb-glossary">'):]
    assert f"<h1>{TITLES[language]}</h1>" in body
    assert "rb-untranslated" not in body  # every word of the page is in its language
    names = re.findall(r'<dt id="(term-[^"]+)">([^<]+?)\s*(?:<|$)', body)
    expected = {"it": ["carta", "mana"], "en": ["card", "mana"], "fr": ["carte", "mana"], "es": ["carta", "maná"],
                "pt": ["carta", "mana"], "ru": ["карта", "мана"]}[language]
    # In the language's order, each under its headword: the first form, or the `headword:` given
    # where the first is a prefix (Russian «карта», never «карт…»); the other forms not at all.
    assert [name for _, name in names] == expected, names
    assert "…" not in body and "карт*" not in body
    assert {anchor for anchor, _ in names} == {"term-carta", "term-mana"}  # the same ids in every language
    # The other languages' names, each marked with its language, and the rule that uses it.
    mana = body[body.index('id="term-mana"'):]
    mana = mana[:mana.index("</dd>")]
    # Each by its headword, never the check's list of forms (review2-en R-W2: «danni, il danno, del danno, …»),
    # in its own language too (review3-it W8: «danni (il danno, del danno, …)» as the entry's name).
    assert ('<span lang="es">maná</span>' in mana) == (language != "es")
    assert ('<span lang="ru">мана</span>' in mana) == (language != "ru")
    assert "manás" not in mana and "маной" not in mana
    # The other languages one after the other, with the separator of the page's language (review3-fr
    # SI-5: French writes a narrow no-break space before the semicolon).
    assert ("</span>\u202f; " in mana) == (language == "fr") and ("</span>; " in mana) == (language != "fr")
    assert re.search(r'<a href="\.\./demo/#mana-bianco">[^<]*1\.1</a>', mana.replace('href="demo/', 'href="../demo/')), mana


def test_a_rule_links_the_first_use_of_each_term_to_its_entry_never_in_a_heading(site: Path) -> None:
    for language in ("ru", "it", "en"):
        html = page(site, f"{prefix(language)}demo")
        links = re.findall(r'<a class="rb-term" href="([^"]+)">([^<]+)</a>', html)
        assert ("../glossary/#term-mana" if language != "it" else "../glossary/#term-mana") in [href for href, _ in links], (language, links)
        # Headings and the table of contents hold no term link; the proof's code neither.
        for heading in re.findall(r"<h[1-6][^>]*>.*?</h[1-6]>", html, re.S):
            assert "rb-term" not in heading, (language, heading)
        for code in re.findall(r"<pre.*?</pre>", html, re.S):
            assert "rb-term" not in code, language
        # The ruling names mana twice (Italian; English shows it in Italian, Russian its older
        # translation, which names it once): its first use is linked, once.
        ruling = html[html.index('id="decisione-mana"'):]
        ruling = ruling[:ruling.index("</div>")]
        linked = re.findall(r'class="rb-term" href="[^"]*#term-mana">([^<]*)<', ruling)
        assert linked == (["Мана"] if language == "ru" else ["mana"]), (language, ruling)
        # An example's title is a title: its mana is not linked.
        title = re.search(r'<p class="admonition-title">.*?</p>', html[html.index('id="somma"'):], re.S)
        assert title and "Il mana in un esempio" in title.group() and "rb-term" not in title.group(), (language, title)
    # Russian «карту» is the card (карт*): linked to the same entry as Italian «carta».
    assert '<a class="rb-term" href="../glossary/#term-carta">карту</a>' in page(site, "ru/demo")
    assert '<a class="rb-term" href="../glossary/#term-carta">carta</a>' in page(site, "demo")


def test_the_glossary_is_in_the_nav_and_the_search_index(site: Path) -> None:
    nav = page(site, "ru/demo")
    assert re.search(r'href="\.\./glossary/"[^>]*>\s*(<span[^>]*>)?\s*Глоссарий', nav)
    index = json.loads((site / "ru" / "search" / "search_index.json").read_text(encoding="utf-8"))
    docs = {doc["location"]: doc for doc in index["docs"]}
    assert docs["glossary/"]["title"] == "Глоссарий"
    assert docs["glossary/#term-mana"]["title"] == "мана" and "итальянский: mana" in docs["glossary/#term-mana"]["text"]


def test_a_project_without_a_glossary_has_no_glossary_page_and_no_term_links(tmp_path: Path) -> None:
    site = build(make_project(tmp_path, languages=["it", "ru"]))
    assert not (site / "glossary").exists() and not (site / "ru" / "glossary").exists()
    assert "rb-term" not in page(site, "ru/demo") and "glossary/" not in page(site, "ru/demo")
    assert not [d for d in Elements(page(site, "ru")).find("a") if "glossary" in d.get("href", "")]


def test_at_one_place_the_longest_term_is_found() -> None:
    """Review3-en E-W1: "mana value" linked to the entry "mana", listed first in the glossary."""
    from rulebook.i18n.glossary import Term
    from rulebook.render.glossary import TermFinder
    mana = Term({"en": ("mana",)}, "glossary.yaml:1")
    value = Term({"en": ("mana value",)}, "glossary.yaml:2")
    found = [(index, match.group()) for index, match in TermFinder((mana, value), "en").find("its mana value, then mana")]
    assert found == [(1, "mana value"), (0, "mana")]


def _uses_by_entry(html: str) -> dict[str, tuple[int, str]]:
    """Per glossary entry: how many rules its "used in" line links, and the words after the links."""
    found = {}
    for anchor, body in re.findall(r'<dt id="([^"]+)">.*?</dt>\s*<dd>(.*?)</dd>', html, re.S):
        line = body[body.rindex("<p>"):]
        found[anchor] = (line.count("<a "), re.sub(r"<[^>]+>", "", line.split("</a>")[-1]).strip())
    return found


def test_an_entry_past_its_list_of_rules_says_how_many_more_use_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The rules an entry lists stop at MAX_USES; the rest are counted in words ("and 1 more rule"),
    never dropped in silence (review4-it: «folletto» left out Strage 5.10 unsaid)."""
    from rulebook.render import glossary

    config = make_project(tmp_path, demo=BOOK)
    (tmp_path / "locales" / "glossary.yaml").write_text(GLOSSARY, encoding="utf-8")
    full = {lang: _uses_by_entry(page(build(config), f"{prefix(lang)}glossary")) for lang in ("it", "ru")}
    assert full["it"]["term-carta"][0] >= 2 and all(tail == "" for _, tail in full["it"].values()), full
    monkeypatch.setattr(glossary, "MAX_USES", 1)
    shutil.rmtree(tmp_path / ".cache")  # what a build keeps depends on the code, and the limit is code
    short = {lang: _uses_by_entry(page(build(config), f"{prefix(lang)}glossary")) for lang in ("it", "ru")}
    more = full["it"]["term-carta"][0] - 1
    assert short["it"]["term-carta"] == (1, f"e {more} altra regola" if more == 1 else f"e altre {more} regole"), short
    assert short["ru"]["term-carta"][0] == 1 and short["ru"]["term-carta"][1].startswith(f"и ещё {more} правил"), short
    # An entry within the limit says nothing more.
    assert short["it"]["term-mana"] == full["it"]["term-mana"] == (1, "")
