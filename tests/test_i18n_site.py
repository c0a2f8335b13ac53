"""The site's own words: a gettext domain shipped with the package, overridable by a project."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import write_po
from markupsafe import Markup, escape

from rulebook.i18n.catalogs import read_catalog
from rulebook.i18n.domains import SITE, extract_template, load_messages
from rulebook.i18n.headers import HeaderSettings, catalog_headers
from rulebook.languages import language
from rulebook.render.ui import Words, symbol_label
from rulebook.symbols import SYMBOLS
from tests.conftest import unpublished_language

#: UNSHIPPED: a language the package ships no words for (German today: tests/conftest.py).
ITALIAN, UNSHIPPED, RUSSIAN, ENGLISH = (language(code) for code in ("it", unpublished_language(), "ru", "en"))


def project_catalog(locales: Path, lang: str, messages: list[tuple]) -> Path:
    """A project's own site.po: (msgid, msgstr) or (msgctxt, msgid, msgstr) or plural ((s, p), (forms…))."""
    catalog = Catalog(locale=lang, domain="site")
    for entry in messages:
        context, msgid, msgstr = entry if len(entry) == 3 else (None, *entry)
        catalog.add(msgid, msgstr, context=context)
    path = locales / lang / "LC_MESSAGES" / "site.po"
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as out:
        # A real header, as `rulebook i18n update` writes it: Babel's placeholders are problems of the file.
        write_po(out, catalog_headers(catalog, lang, "site", HeaderSettings()))
    return path


def words(page, source, locales: Path | None = None) -> Words:
    return Words(page, source, lambda code: load_messages(SITE, code, locales))


def test_the_template_is_what_babels_extractors_find_in_the_package():
    shipped, problems = read_catalog(SITE.template)
    assert problems == []
    extracted = extract_template(SITE)
    key = lambda m: (m.context, m.id)  # noqa: E731
    assert sorted(map(key, (m for m in extracted if m.id)), key=str) == sorted(map(key, (m for m in shipped if m.id)), key=str)
    by_id = {m.id: m for m in extracted if m.id}
    # From the templates (jinja2) and the code (python), with the developers' notes for translators.
    assert {path for path, _ in by_id["Ruling {n}"].locations} == {"render/templates/book.html.j2"}
    assert {path for path, _ in by_id["Ruling"].locations} == {"render/search.py"}
    assert {path for path, _ in by_id["{colour} mana"].locations} == {"render/ui.py"}
    assert any("agreeing with" in c for c in extracted.get("white", "mana colour").auto_comments)
    plural = by_id[("{passed}/{total} example passed", "{passed}/{total} examples passed")]
    assert plural.pluralizable


def test_a_message_missing_in_the_page_language_comes_from_the_source_language_marked():
    unshipped = words(UNSHIPPED, ITALIAN)  # the package ships no words in it
    phrase = unshipped.gettext("Ruling")
    assert (phrase.text, phrase.language) == ("Decisione", ITALIAN)
    assert (phrase.badge.text, phrase.badge.language) == ("non ancora tradotto: testo in italiano", ITALIAN)  # it fell back too
    assert str(phrase) == "Decisione" and phrase.lang_attribute == Markup(' lang="it"')
    assert escape(phrase) == Markup(
        '<span class="rb-untranslated rb-untranslated--fallback" data-rb-state="fallback"><span lang="it">Decisione</span>'
        ' <abbr class="rb-badge rb-badge--fallback" title="non ancora tradotto: testo in italiano" lang="it">it</abbr></span>'
    )
    # Inside other markup it stays markup, escaped once.
    assert Markup("<p>{}</p>").format(phrase) == Markup("<p>") + escape(phrase) + Markup("</p>")
    # Missing everywhere: the English msgid, marked as English.
    swahili = words(language("sw"), language("sw"))
    assert (swahili.gettext("Ruling").text, swahili.gettext("Ruling").language) == ("Ruling", ENGLISH)


def test_a_message_in_the_page_language_is_plain_and_escaped():
    french = words(language("fr"), ITALIAN)
    phrase = french.gettext("There is no page at this address.")
    assert phrase.badge is None and phrase.lang_attribute == Markup("")
    assert escape(phrase) == escape("Il n'y a aucune page à cette adresse.")


def test_a_language_in_a_sentence_is_named_in_that_sentences_language():
    assert words(language("fr"), ITALIAN).gettext("in {language}", language=ITALIAN).text == "en italien"
    assert words(ENGLISH, ITALIAN).gettext("in {language}", language=ITALIAN).text == "In Italian"  # a column header, capitalized like its row (W3)
    # Fallen back to Italian, the sentence names the language in Italian.
    assert words(UNSHIPPED, ITALIAN).gettext("in {language}", language=ITALIAN).text == "In italiano"  # a column header (coverage), capitalised like «Lingua»


def test_plural_forms_follow_babels_rules_for_the_language():
    russian = words(RUSSIAN, ITALIAN)
    said = {n: russian.ngettext("{passed}/{total} example passed", "{passed}/{total} examples passed", n, passed=n, total=n).text
            for n in (1, 3, 5, 21, 22, 25)}
    assert said == {1: "1/1 пример проверен", 3: "3/3 примера проверено", 5: "5/5 примеров проверено",
                    21: "21/21 пример проверен", 22: "22/22 примера проверено", 25: "25/25 примеров проверено"}
    english = words(ENGLISH, ITALIAN)
    assert [english.ngettext("{passed}/{total} example passed", "{passed}/{total} examples passed", n, passed=n, total=n).text
            for n in (1, 2)] == ["1/1 example passed", "2/2 examples passed"]


def test_a_project_catalog_overrides_the_shipped_one_message_by_message(tmp_path):
    project_catalog(tmp_path, "fr", [("Ruling", "Arbitrage"), ("Reason", ""), ("mana colour", "white", "blanc nacré")])
    french = words(language("fr"), ITALIAN, tmp_path)
    assert french.gettext("Ruling").text == "Arbitrage"
    assert french.gettext("Reason").text == "Motif"  # an empty msgstr overrides nothing
    assert french.gettext("Example").text == "Exemple"  # nor does a message the file lacks
    assert symbol_label(SYMBOLS["{W}"], french).text == "mana blanc nacré"


def test_a_broken_override_is_reported_and_the_shipped_word_shown(tmp_path):
    path = project_catalog(tmp_path, "fr", [("{amount} generic mana", "{montant} mana générique"), ("Ruling", "<b>Arbitrage</b>")])
    # As a hand edit might leave it: a header claiming three plural forms French does not have
    # (a dual), and a message with three.
    path.write_text(re.sub(r'"Plural-Forms: [^"]*"', r'"Plural-Forms: nplurals=3; plural=(n==1 ? 0 : n==2 ? 1 : 2);\\n"',
                           path.read_text(encoding="utf-8")), encoding="utf-8")
    rule_line = next(n for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1) if line.startswith('"Plural-Forms:'))
    with path.open("a", encoding="utf-8") as out:
        out.write('\nmsgid "{passed}/{total} example passed"\nmsgid_plural "{passed}/{total} examples passed"\n'
                  'msgstr[0] "{passed}/{total} exemple"\nmsgstr[1] "{passed}/{total} exemples"\nmsgstr[2] "{passed}/{total} trop"\n')
    messages = load_messages(SITE, "fr", tmp_path)
    problems = [str(p) for p in messages.problems]
    assert all(p.startswith(f"{path}:") for p in problems)
    # What i18n check says of the file as a whole (a Plural-Forms French does not have), said by
    # the build too, at the header's line; then the messages' (the plural one is not shown).
    assert all("Plural-Forms" in p for p in problems if ": [" not in p)
    assert problems[0].startswith(f"{path}:{rule_line}:1: Plural-Forms 'nplurals=3; plural=(n==1 ? 0 : n==2 ? 1 : 2);' "
                                  "is not a plural rule of fr: it gives 0 and 3 the same form")
    problems = [p for p in problems if ": [" in p]
    assert [p.split(": [")[1].split("]")[0] for p in problems] == ["placeholders", "placeholders", "html"]
    assert "placeholder missing: {amount}" in problems[0]
    french = words(language("fr"), ITALIAN, tmp_path)
    assert french.gettext("Ruling").text == "Décision"
    assert symbol_label(SYMBOLS["{3}"], french).text == "3 manas génériques"  # the shipped plural
    assert french.ngettext("{passed}/{total} example passed", "{passed}/{total} examples passed", 2, passed=2, total=2).text == (
        "2/2 exemples vérifiés")


def test_an_unreadable_override_leaves_the_shipped_catalog_in_place(tmp_path):
    path = tmp_path / "fr" / "LC_MESSAGES" / "site.po"
    path.parent.mkdir(parents=True)
    path.write_text('msgid "Ruling"\nmsgstr Arbitrage"\n', encoding="utf-8")
    messages = load_messages(SITE, "fr", tmp_path)
    assert [p.line for p in messages.problems] == [2]
    assert messages.translate(None, "Ruling") == "Décision"


@pytest.mark.parametrize("code", SITE.languages())
def test_every_symbol_has_a_label_in_every_shipped_language(code):
    labels = {symbol.token: symbol_label(symbol, code) for symbol in SYMBOLS.values()}
    assert all(label.text and "{" not in label.text and label.badge is None for label in labels.values()), code
    # Distinct symbols never read alike.
    assert len({label.text for label in labels.values()}) == len(labels)


def test_another_package_ships_its_own_domain_the_same_way(tmp_path):
    """The shape an engine's words take (issue 13): its package, its mapping, its catalogs."""
    from rulebook.i18n.catalogs import new_catalog, serialize, write_atomic
    from rulebook.i18n.domains import ShippedDomain, write_domain_template
    from rulebook.render import Site

    package = tmp_path / "house_engine"
    (package / "locale").mkdir(parents=True)
    (package / "trace.py").write_text('def say(words):\n    return words.gettext("the orc attacks {square}")\n', encoding="utf-8")
    (package / "locale" / "engine.house.cfg").write_text("[python: **.py]\n", encoding="utf-8")
    domain = ShippedDomain("engine.house", package)
    template, written = write_domain_template(domain)
    assert written and [m.id for m in template if m.id] == ["the orc attacks {square}"]
    french = new_catalog(template, "fr", domain.name)
    french.get("the orc attacks {square}").string = "l'orque attaque {square}"
    write_atomic(domain.catalog("fr"), serialize(french))

    site = Site({}, languages=["it", "fr", UNSHIPPED.code])
    assert site.words("fr", domain).gettext("the orc attacks {square}", square="e4").text == "l'orque attaque e4"
    unshipped = site.words(UNSHIPPED.code, domain).gettext("the orc attacks {square}", square="e4")
    # Neither that language nor the source language has it: the msgid, marked with the site's own badge.
    assert (unshipped.text, unshipped.language.code, unshipped.badge.text) == ("the orc attacks e4", "en", "non ancora tradotto: testo in inglese")


def test_a_package_installed_in_a_project_s_own_venv_is_not_maintained_there(tmp_path):
    # examples/sevens in CI: the project's .venv lives inside the project folder.
    from rulebook.i18n.domains import ShippedDomain

    installed = tmp_path / ".venv" / "lib" / "python3.11" / "site-packages" / "rulebook"
    checkout = tmp_path / "src" / "rulebook"
    assert not ShippedDomain("site", installed).maintained_in(tmp_path)
    assert ShippedDomain("site", checkout).maintained_in(tmp_path)
    assert not ShippedDomain("site", checkout).maintained_in(tmp_path / "elsewhere")


def test_the_tab_title_has_the_dash_of_its_language(tmp_path: Path) -> None:
    """Russian writes a dash, never a hyphen, between the page and the site (review-ru W3)."""
    from rulebook.render.ui import tab_title_parts

    assert tab_title_parts(words(RUSSIAN, ITALIAN)) == ("", " — ", "")
    assert tab_title_parts(words(ENGLISH, ITALIAN)) == ("", " – ", "")  # review2-en R-W1: an en dash, not a hyphen
    # A translation that puts the site first, or drops a name, keeps the English order.
    project_catalog(tmp_path, "ru", [("{page} - {site}", "{site}: {page}")])
    assert tab_title_parts(words(RUSSIAN, ITALIAN, tmp_path)) == ("", " - ", "")
