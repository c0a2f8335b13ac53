"""Catalog lifecycle: create, update, never lose a translation, never give it to another rule."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog

from rulebook.cli import main
from rulebook.errors import RulebookError
from rulebook.i18n.catalogs import live_and_obsolete, merge, read_catalog, serialize, update_catalog, write_atomic
from rulebook.i18n.headers import PLACEHOLDER_RE
from rulebook.i18n.pofile import sharing_catalogs
from rulebook.i18n.translate import translate_book
from rulebook.loader import load_book
from tests.conftest import demo_book, unpublished_language

BOOK = demo_book("""
sections:
  - id: primo
    title: Primo
    rules:
      - id: pesca
        text: Il giocatore pesca una carta dal mazzo.
      - id: scarta
        text: Il giocatore scarta una carta dalla mano.
""")


#: The test project's site languages, the source first, as its mkdocs.yml lists them.
LANGUAGES = ["it", "en", "fr", "es", "pt", "ru"]


@pytest.fixture(autouse=True)
def project(request: pytest.FixtureRequest, tmp_path: Path) -> None:
    """A test that writes rules works in a project folder whose mkdocs.yml names its languages."""
    if "write_rules" not in request.fixturenames:
        return
    request.getfixturevalue("write_rules")  # changes into tmp_path
    config = tmp_path / "mkdocs.yml"
    config.write_text(f"site_name: Test\nplugins:\n  - search\n  - rulebook:\n      languages: [{', '.join(LANGUAGES)}]\n", encoding="utf-8")


def po_path(tmp_path: Path, language: str = "en", domain: str = "demo") -> Path:
    return tmp_path / "locales" / language / "LC_MESSAGES" / f"{domain}.po"


def catalog(tmp_path: Path, language: str = "en", domain: str = "demo") -> Catalog:
    found, problems = read_catalog(po_path(tmp_path, language, domain))
    assert problems == []
    return found


def translate(tmp_path: Path, context: str, text: str, language: str = "en") -> None:
    """What a translator's editor does: fill one msgstr and save."""
    found = catalog(tmp_path, language)
    (message,) = [m for m in found if m.context == context]
    message.string = text
    message.flags.discard("fuzzy")
    po_path(tmp_path, language).write_bytes(serialize(found))


def by_context(found: Catalog) -> dict:
    return {m.context: m for m in found if m.id}


def test_update_creates_a_catalog_per_language_with_babel_headers(write_rules, tmp_path):
    write_rules(BOOK)
    assert main(["i18n", "update"]) == 0
    assert not po_path(tmp_path, "it").exists()  # the source language has no catalog
    for language in LANGUAGES[1:]:
        found = catalog(tmp_path, language)
        assert str(found.locale) == language
        assert {m.context for m in found if m.id} == {"demo:title", "demo:summary", "demo/primo:title", "demo/pesca:text", "demo/scarta:text"}
        assert all(m.string == "" for m in found if m.id)
    text = po_path(tmp_path, "ru").read_text(encoding="utf-8")
    assert '"Language: ru\\n"' in text
    assert "nplurals=3;" in text
    assert "nplurals=2;" in po_path(tmp_path, "en").read_text(encoding="utf-8")
    assert (tmp_path / "locales" / "templates" / "demo.pot").exists()
    # The site's words are shipped in every one of these languages: no project catalog needed.
    assert not list((tmp_path / "locales").glob("*/LC_MESSAGES/site.po"))


def header(tmp_path: Path, language: str) -> dict[str, str]:
    return {name: value for name, value in catalog(tmp_path, language).mime_headers}


def test_headers_come_from_the_configuration_and_babel_and_keep_what_a_translator_wrote(write_rules, tmp_path, capsys):
    write_rules(BOOK)
    config = tmp_path / "mkdocs.yml"
    config.write_text(config.read_text(encoding="utf-8") + "      translators: https://translate.example.org/projects/demo/\n"
                      "      msgid_bugs_address: texts@example.org\n", encoding="utf-8")
    assert main(["i18n", "update"]) == 0
    french = header(tmp_path, "fr")
    assert french["Project-Id-Version"] == "Test demo"  # site_name and the book
    assert french["Report-Msgid-Bugs-To"] == "texts@example.org"
    assert french["Language-Team"] == "French <https://translate.example.org/projects/demo/>"
    assert header(tmp_path, "ru")["Language-Team"] == "Russian <https://translate.example.org/projects/demo/>"
    assert french["Last-Translator"] == ""  # nobody yet: no FULL NAME <EMAIL@ADDRESS>
    for path in [*tmp_path.glob("locales/**/*.po"), *tmp_path.glob("locales/**/*.pot")]:
        assert not PLACEHOLDER_RE.search(path.read_text(encoding="utf-8")), path

    # A translator's editor fills in who translated, and Weblate its own team; update keeps both,
    # and replaces what Babel's own tools would have left (a placeholder).
    path = po_path(tmp_path, "fr")
    text = path.read_text(encoding="utf-8").replace('"Last-Translator: \\n"', '"Last-Translator: Anne Martin <anne@example.org>\\n"')
    path.write_text(text.replace("French <https://translate.example.org/projects/demo/>", "French <https://hosted.example.net/fr/>"), encoding="utf-8")
    spanish = po_path(tmp_path, "es")
    spanish.write_text(spanish.read_text(encoding="utf-8").replace("Spanish <https://translate.example.org/projects/demo/>", "es <LL@li.org>"), encoding="utf-8")
    capsys.readouterr()
    assert main(["i18n", "check", "-l", "es"]) == 1
    assert "locales/es/LC_MESSAGES/demo.po:10:21: header Language-Team: placeholder 'LL@li.org'" in capsys.readouterr().out
    assert main(["i18n", "update"]) == 0
    assert header(tmp_path, "fr")["Last-Translator"] == "Anne Martin <anne@example.org>"
    assert header(tmp_path, "fr")["Language-Team"] == "French <https://hosted.example.net/fr/>"
    assert header(tmp_path, "es")["Language-Team"] == "Spanish <https://translate.example.org/projects/demo/>"
    assert main(["i18n", "check"]) == 0


def test_update_keeps_translations_and_is_idempotent(write_rules, tmp_path):
    write_rules(BOOK)
    main(["i18n", "update"])
    translate(tmp_path, "demo/pesca:text", "The player draws a card from the library.")
    before = po_path(tmp_path).read_bytes()
    assert main(["i18n", "update"]) == 0
    assert po_path(tmp_path).read_bytes() == before
    assert by_context(catalog(tmp_path))["demo/pesca:text"].string == "The player draws a card from the library."


def test_changed_source_keeps_translation_fuzzy_with_previous_msgid(write_rules, tmp_path):
    write_rules(BOOK)
    main(["i18n", "update"])
    translate(tmp_path, "demo/pesca:text", "The player draws a card from the library.")
    write_rules(BOOK.replace("pesca una carta dal mazzo", "pesca due carte dal mazzo"))
    main(["i18n", "update"])
    message = by_context(catalog(tmp_path))["demo/pesca:text"]
    assert message.id == "Il giocatore pesca due carte dal mazzo."
    assert message.string == "The player draws a card from the library."
    assert message.fuzzy
    assert message.previous_id == ["Il giocatore pesca una carta dal mazzo."]
    text = po_path(tmp_path).read_text(encoding="utf-8")
    assert '#| msgid "Il giocatore pesca una carta dal mazzo."' in text
    assert "#~" not in text  # paired with its new source, not left obsolete

    # Shown in Italian until the translator confirms it; counted as outdated.
    translated = translate_book(load_book("rules/demo.yaml"), "en", Path("locales"))
    assert "demo/pesca:text" in translated.fallback and "demo/pesca:text" in translated.outdated
    assert translated.book.sections[0].rules[0].text == "Il giocatore pesca due carte dal mazzo."

    # A second update, and a second change, keep the source the translation was made from.
    main(["i18n", "update"])
    assert by_context(catalog(tmp_path))["demo/pesca:text"].previous_id == ["Il giocatore pesca una carta dal mazzo."]
    write_rules(BOOK.replace("pesca una carta dal mazzo", "pesca tre carte dal mazzo"))
    main(["i18n", "update"])
    message = by_context(catalog(tmp_path))["demo/pesca:text"]
    assert (message.string, message.fuzzy) == ("The player draws a card from the library.", True)
    assert message.previous_id == ["Il giocatore pesca una carta dal mazzo."]


def test_removed_source_becomes_obsolete_and_comes_back(write_rules, tmp_path):
    write_rules(BOOK)
    main(["i18n", "update"])
    translate(tmp_path, "demo/scarta:text", "The player discards a card.")
    without = BOOK.replace("      - id: scarta\n        text: Il giocatore scarta una carta dalla mano.\n", "")
    write_rules(without)
    main(["i18n", "update"])
    found = catalog(tmp_path)
    assert "demo/scarta:text" not in by_context(found)
    (old,) = found.obsolete.values()
    assert (old.context, old.string) == ("demo/scarta:text", "The player discards a card.")
    text = po_path(tmp_path).read_text(encoding="utf-8")
    assert '#~ msgctxt "demo/scarta:text"' in text and '#~ msgstr "The player discards a card."' in text

    write_rules(BOOK)
    main(["i18n", "update"])
    found = catalog(tmp_path)
    restored = by_context(found)["demo/scarta:text"]
    assert (restored.string, restored.fuzzy) == ("The player discards a card.", False)
    assert not found.obsolete


def test_fuzzy_matching_never_crosses_rules(write_rules, tmp_path):
    write_rules(BOOK)
    main(["i18n", "update"])
    translate(tmp_path, "demo/pesca:text", "The player draws a card from the library.")
    # 'pesca' goes away; a new rule with an almost identical text appears.
    write_rules(BOOK.replace("id: pesca\n        text: Il giocatore pesca una carta dal mazzo.", "id: pescata\n        text: Il giocatore pesca una carta dal mazzo comune."))

    # Babel's own matcher would hand 'pesca' to 'pescata' (it compares msgids, not contexts) ...
    template = Catalog()
    template.add("Il giocatore pesca una carta dal mazzo comune.", context="demo/pescata:text")
    plain = catalog(tmp_path)
    plain.update(template)
    assert plain.get("Il giocatore pesca una carta dal mazzo comune.", "demo/pescata:text").string

    # ... ours does not: the new rule is untranslated and the old translation is kept as #~.
    main(["i18n", "update"])
    found = catalog(tmp_path)
    assert by_context(found)["demo/pescata:text"].string == ""
    assert [(m.context, m.string) for m in found.obsolete.values()] == [("demo/pesca:text", "The player draws a card from the library.")]


def test_merge_reports_what_changed():
    old = Catalog(locale="en")
    old.add("Uno.", "One.", context="b/r1:text")
    old.add("Due.", "Two.", context="b/r2:text")
    template = Catalog()
    template.add("Uno, cambiato.", context="b/r1:text")
    template.add("Tre.", context="b/r3:text")
    old.add("Quattro.", "", context="b/r4:text")  # untranslated: nothing to keep when it goes
    report = merge(old, template)
    assert (report.fuzzy, report.obsolete, report.restored) == (("b/r1:text",), ("b/r2:text",), ())
    assert [m.context for m in old.obsolete.values()] == ["b/r2:text"]


def engine_messages(*texts: str) -> Catalog:
    """A template as the engines' are: msgids without msgctxt."""
    template = Catalog(domain="engine.demo")
    for text in texts:
        template.add(text, locations=[("engines/demo.py", None)], flags=["python-brace-format"])
    return template


def test_a_message_without_msgctxt_that_comes_back_is_live_once_with_its_translation(tmp_path):
    path = tmp_path / "engine.demo.po"
    update_catalog(engine_messages("a position cannot hold {cards}", "the deck is empty"), path, "fr", "engine.demo")
    found = read_catalog(path)[0]
    found.get("a position cannot hold {cards}").string = "une position ne peut pas contenir {cards}"
    found.get("a position cannot hold {cards}").user_comments = ["checked against the rulebook"]
    found.get("the deck is empty").string = "la pioche est vide"
    path.write_bytes(serialize(found))

    updated, problems = update_catalog(engine_messages("the deck is empty"), path, "fr", "engine.demo")
    assert (problems, updated.report.obsolete) == ([], ("a position cannot hold {cards}",))
    updated, problems = update_catalog(engine_messages("a position cannot hold {cards}", "the deck is empty"), path, "fr", "engine.demo")
    assert (problems, updated.report.restored) == ([], ("a position cannot hold {cards}",))

    found = read_catalog(path)[0]
    back = found.get("a position cannot hold {cards}")
    assert (back.string, back.fuzzy, back.user_comments) == ("une position ne peut pas contenir {cards}", False, ["checked against the rulebook"])
    assert back.locations == [("engines/demo.py", None)]  # the rest is the template's
    assert not found.obsolete  # not also #~: gettext's tools refuse a msgid defined twice
    assert "#~" not in path.read_text(encoding="utf-8")


def holding_both(path: Path, live: str, obsolete: str) -> None:
    """A catalog that an earlier merge left with one msgid both live and #~."""
    path.write_text(
        'msgid ""\nmsgstr ""\n"Language: fr\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        f'#, python-brace-format\nmsgid "the deck is empty"\nmsgstr "{live}"\n\n'
        f'#~ msgid "the deck is empty"\n#~ msgstr "{obsolete}"\n',
        encoding="utf-8",
    )


@pytest.mark.parametrize(("live", "obsolete"), [("la pioche est vide", "la pioche est vide"), ("", "la pioche est vide"), ("la pioche est vide", "")])
def test_a_msgid_both_live_and_obsolete_is_kept_once_with_its_translation(tmp_path, live, obsolete):
    path = tmp_path / "engine.demo.po"
    holding_both(path, live, obsolete)
    assert len(live_and_obsolete(read_catalog(path)[0])) == 1
    updated, problems = update_catalog(engine_messages("the deck is empty"), path, "fr", "engine.demo")
    assert problems == [] and updated.written
    found = read_catalog(path)[0]
    assert (found.get("the deck is empty").string, dict(found.obsolete)) == ("la pioche est vide", {})


def test_a_msgid_both_live_and_obsolete_with_two_translations_is_left_to_the_translator(tmp_path):
    path = tmp_path / "engine.demo.po"
    holding_both(path, "la pioche est vide", "il n'y a plus de cartes")
    before = path.read_bytes()
    updated, problems = update_catalog(engine_messages("the deck is empty"), path, "fr", "engine.demo")
    assert updated is None and path.read_bytes() == before  # neither translation lost
    assert [str(p) for p in problems] == [
        f"{path}:11:1: 'the deck is empty' is both a message ({path}:8) and an obsolete #~ entry with another translation; "
        "keep the right translation in the message and delete the #~ entry (catalog not updated)"
    ]


def test_write_is_atomic(tmp_path, monkeypatch):
    target = tmp_path / "en.po"
    target.write_bytes(b"old complete catalog\n")

    def crash(src, dst):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(RulebookError, match=f"cannot write {target}: disk full; .* \\(the file is as it was\\)"):
        write_atomic(target, b"new catalog\n")
    assert target.read_bytes() == b"old complete catalog\n"
    assert [p.name for p in tmp_path.iterdir()] == ["en.po"]  # no temporary file left behind
    monkeypatch.undo()
    assert write_atomic(target, b"new catalog\n") is True
    assert target.read_bytes() == b"new catalog\n"
    assert write_atomic(target, b"new catalog\n") is False


def test_a_broken_catalog_is_reported_and_left_alone(write_rules, tmp_path, capsys):
    write_rules(BOOK)
    main(["i18n", "update"])
    translate(tmp_path, "demo/pesca:text", "The player draws a card from the library.")
    translate(tmp_path, "demo/pesca:text", "Le joueur pioche une carte.", language="fr")
    broken = po_path(tmp_path, "fr")
    lines = broken.read_text(encoding="utf-8").splitlines(keepends=True)
    bad_line = next(i for i, line in enumerate(lines) if line.startswith("msgstr") and "pioche" in line) + 1
    lines[bad_line - 1] = 'msgstre "Le joueur pioche une carte."\n'
    broken.write_text("".join(lines), encoding="utf-8")
    broken_bytes = broken.read_bytes()

    write_rules(BOOK.replace("Il giocatore scarta", "Chi gioca scarta"))
    capsys.readouterr()
    assert main(["i18n", "update"]) == 1
    out = capsys.readouterr().out
    assert f"locales/fr/LC_MESSAGES/demo.po:{bad_line}:1: not a valid PO file" in out
    assert broken.read_bytes() == broken_bytes  # untouched, nothing lost
    assert "updated locales/en/LC_MESSAGES/demo.po" in out  # the others still updated

    book = load_book("rules/demo.yaml")
    french = translate_book(book, "fr", Path("locales"))
    assert french.fallback == frozenset({"demo:title", "demo:summary", "demo/primo:title", "demo/pesca:text", "demo/scarta:text"})
    # Our words around Babel's (which change between its versions): where, what, what to do.
    assert [(p.path, p.line) for p in french.problems] == [("locales/fr/LC_MESSAGES/demo.po", bad_line)]
    assert french.problems[0].message.startswith("not a valid PO file (as Babel reads it: ")
    assert french.problems[0].message.endswith("); fix the line in a PO editor")
    english = translate_book(book, "en", Path("locales"))
    assert english.book.sections[0].rules[0].text == "The player draws a card from the library."
    assert english.problems == ()


def test_stats_and_fail_under(write_rules, tmp_path, capsys):
    write_rules(BOOK)
    main(["i18n", "update"])
    for context, text in [("demo:title", "Sample"), ("demo:summary", "A test book."), ("demo/primo:title", "First")]:
        translate(tmp_path, context, text)
    capsys.readouterr()
    assert main(["i18n", "stats", "-l", "en", "--fail-under", "60"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[1].split() == ["demo", "en", "3", "0", "2", "5", "60.0"]
    assert main(["i18n", "stats", "--fail-under", "60"]) == 1
    assert "below 60%: demo/fr 0.0%" in capsys.readouterr().out
    assert main(["i18n", "stats"]) == 0


def test_a_copied_source_counts_as_untranslated_until_a_translator_says_why(write_rules, tmp_path, capsys):
    write_rules(BOOK)
    main(["i18n", "update"])
    translate(tmp_path, "demo:summary", "[en] Un libro di prova.")  # what a machine "translation" left
    translate(tmp_path, "demo/primo:title", "Primo")
    capsys.readouterr()

    def stats_row() -> list[str]:
        assert main(["i18n", "stats", "-l", "en"]) == 0
        return capsys.readouterr().out.splitlines()[1].split()

    assert stats_row() == ["demo", "en", "0", "0", "5", "5", "0.0"]
    assert main(["i18n", "check", "-l", "en"]) == 1
    reported = [line for line in capsys.readouterr().out.splitlines() if "[same]" in line]
    assert [line.split(": ")[1] for line in reported] == ["demo:summary", "demo/primo:title"]
    assert "'[en]' before it" in reported[0]
    # A translator who means it says so, and why, in a comment every PO tool keeps.
    found = catalog(tmp_path, "en")
    by_context(found)["demo/primo:title"].user_comments.append("ignore-same: English keeps the Italian ordinal here")
    po_path(tmp_path, "en").write_bytes(serialize(found))
    assert stats_row() == ["demo", "en", "1", "0", "4", "5", "20.0"]
    assert main(["i18n", "check", "-l", "en"]) == 1
    assert [line.split(": ")[1] for line in capsys.readouterr().out.splitlines() if "[same]" in line] == ["demo:summary"]


def test_a_new_language_is_one_option(write_rules, tmp_path, capsys):
    write_rules(BOOK)
    new = unpublished_language()  # German, while the toolkit ships no German words
    assert main(["i18n", "update", "-l", new]) == 0
    assert "nplurals=2;" in po_path(tmp_path, new).read_text(encoding="utf-8")
    # The package does not ship the site's words in that language: the project gets that catalog too.
    site = catalog(tmp_path, new, "site")
    assert site.num_plurals == 2 and len([m for m in site if m.id]) > 40 and all(m.string in ("", ("", "")) for m in site if m.id)
    # From then on its folder is enough: a plain update keeps it up to date.
    write_rules(BOOK.replace("Un libro di prova.", "Un libro."))
    main(["i18n", "update"])
    assert by_context(catalog(tmp_path, new))["demo:summary"].id == "Un libro."
    assert main(["i18n", "update", "-l", "xx-nope"]) == 2
    assert "unknown language 'xx-nope'" in capsys.readouterr().err


def test_init_creates_every_catalog_of_a_language_and_says_how_to_publish_it(write_rules, tmp_path, capsys):
    write_rules(BOOK)
    assert main(["i18n", "init", "ar"]) == 0
    out = capsys.readouterr().out
    assert "created locales/ar/LC_MESSAGES/demo.po" in out and "created locales/ar/LC_MESSAGES/site.po" in out
    assert "to publish ar: add ar to the languages of the rulebook plugin in mkdocs.yml" in out
    assert catalog(tmp_path, "ar", "site").num_plurals == 6  # Babel's plural forms for Arabic
    assert not po_path(tmp_path, "fr").exists()  # only the language asked for
    # Once listed, the new language is a configured one: a plain update keeps it current.
    (tmp_path / "mkdocs.yml").write_text("plugins:\n  - rulebook:\n      languages: [it, ar]\n", encoding="utf-8")
    write_rules(BOOK.replace("Un libro di prova.", "Un libro."))
    assert main(["i18n", "update"]) == 0
    assert by_context(catalog(tmp_path, "ar"))["demo:summary"].id == "Un libro."
    assert main(["i18n", "init", "pt-BR"]) == 0
    # The code as gettext writes it; a new catalog gets the installed Babel's rule for it.
    assert catalog(tmp_path, "pt_BR").plural_forms == Catalog(locale="pt_BR").plural_forms


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda text: text.replace(b"The player", b"The pl\xe4yer"), "not valid utf-8: save the file as UTF-8"),
        (lambda text: text.replace(b'msgstr "The player', b"msgstr The player"), "not a valid PO file: a string must be in double quotes"),
        (lambda text: text.replace(b'msgstr "The player', b'msgstri "The player'), "not a valid PO file (as Babel reads it: "),
    ],
)
def test_a_damaged_catalog_is_reported_at_the_damaged_line(write_rules, tmp_path, damage, message):
    write_rules(BOOK)
    main(["i18n", "update"])
    translate(tmp_path, "demo/pesca:text", "The player draws a card from the library.")
    path = po_path(tmp_path)
    original = path.read_bytes()
    damaged_line = next(n for n, raw in enumerate(original.splitlines(), start=1) if b"The player" in raw)
    path.write_bytes(damage(original))
    found, problems = read_catalog(path)
    assert found is None
    assert [(p.path, p.line) for p in problems] == [("locales/en/LC_MESSAGES/demo.po", damaged_line)]
    assert problems[0].message.startswith(message)


def test_a_byte_order_mark_is_not_an_error(write_rules, tmp_path):
    write_rules(BOOK)
    main(["i18n", "update"])
    path = po_path(tmp_path)
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    found, problems = read_catalog(path)
    assert problems == [] and found is not None


def test_a_catalog_read_again_while_sharing_is_parsed_once_and_a_writer_changes_only_its_copy(write_rules, tmp_path):
    write_rules(BOOK)
    main(["i18n", "update"])
    translate(tmp_path, "demo/pesca:text", "The player draws a card.")
    translate(tmp_path, "demo/scarta:text", "The player discards a card.")
    # A previous msgid (pesca changed), an obsolete entry (scarta gone) and a header of another tool.
    write_rules(BOOK.replace("pesca una carta", "pesca due carte").replace(
        "      - id: scarta\n        text: Il giocatore scarta una carta dalla mano.\n", ""))
    main(["i18n", "update"])
    path = po_path(tmp_path)
    path.write_text(path.read_text(encoding="utf-8").replace('"Generated-By', '"X-Poedit-Basepath: .\\n"\n"Generated-By'), encoding="utf-8")
    written = path.read_bytes()
    with sharing_catalogs():
        shared, problems = read_catalog(path, domain="demo", shared=True)
        assert problems == [] and read_catalog(path, domain="demo", shared=True)[0] is shared  # parsed once
        assert by_context(shared)["demo/pesca:text"].previous_id and shared.obsolete and shared.extra_headers
        assert serialize(shared) == written
        # A reader that changes what it reads gets its own copy, the same to the last line number.
        copy, _ = read_catalog(path, domain="demo")
        assert copy is not shared and serialize(copy) == written
        assert [(m.lineno, m.previous_id) for m in [*copy, *copy.obsolete.values()]] == [
            (m.lineno, m.previous_id) for m in [*shared, *shared.obsolete.values()]]
        for message in [*copy, *copy.obsolete.values()]:
            message.string, message.previous_id = "changed", ["changed"]
            message.flags.add("changed"), message.user_comments.append("changed"), message.locations.append(("changed", 1))
        copy.extra_headers.append(("X-Changed", "yes"))
        copy.delete(next(m for m in shared if m.id).id, "demo:title")
        assert serialize(shared) == written and serialize(read_catalog(path, domain="demo", shared=True)[0]) == written
        # An update in the block merges a copy; what it writes is read anew.
        write_rules(BOOK)
        assert main(["i18n", "update"]) == 0
        assert serialize(shared) == written and path.read_bytes() != written
        assert read_catalog(path, domain="demo", shared=True)[0] is not shared
    assert read_catalog(path, shared=True)[0] is not read_catalog(path, shared=True)[0]  # after the block, each read parses


def test_update_check_writes_nothing_and_fails_when_out_of_date(write_rules, tmp_path, capsys):
    write_rules(BOOK)
    main(["i18n", "update"])
    assert main(["i18n", "update", "--check"]) == 0
    write_rules(BOOK.replace("Un libro di prova.", "Un libro."))
    before = {p: p.read_bytes() for p in (tmp_path / "locales").rglob("*.po*")}
    capsys.readouterr()
    assert main(["i18n", "update", "--check"]) == 1
    out = capsys.readouterr().out
    assert "out of date locales/templates/demo.pot" in out and "out of date locales/ru/LC_MESSAGES/demo.po" in out
    assert {p: p.read_bytes() for p in (tmp_path / "locales").rglob("*.po*")} == before


LONG = (
    "Il giocatore di turno pesca una carta dal mazzo comune e poi, se vuole, mette una terra "
    "della propria mano nel proprio territorio, una sola per turno."
)


def test_each_language_keeps_its_own_translation_when_a_source_changes(write_rules, tmp_path):
    # Babel's Catalog.update inserts the template's own Message objects; filling one catalog's
    # fuzzy match must never leak into the next language's catalog through that shared object.
    write_rules(BOOK)
    main(["i18n", "update"])
    words = {"en": "The player draws.", "fr": "Le joueur pioche.", "ru": "Игрок берёт карту."}
    for language, text in words.items():
        translate(tmp_path, "demo/pesca:text", text, language)
    write_rules(BOOK.replace("pesca una carta dal mazzo", "prende una carta dal mazzo"))
    assert main(["i18n", "update"]) == 0
    for language, text in words.items():
        message = by_context(catalog(tmp_path, language))["demo/pesca:text"]
        assert (message.string, message.fuzzy) == (text, True), language


def test_a_long_previous_source_is_written_as_gettext_does_and_reads_back(write_rules, tmp_path):
    write_rules(BOOK.replace("Il giocatore pesca una carta dal mazzo.", LONG))
    main(["i18n", "update"])
    translate(tmp_path, "demo/pesca:text", "The active player draws, then may play one land.")
    write_rules(BOOK.replace("Il giocatore pesca una carta dal mazzo.", LONG.replace("comune", "condiviso")))
    main(["i18n", "update"])
    text = po_path(tmp_path).read_text(encoding="utf-8")
    previous = [line for line in text.splitlines() if line.startswith("#|")]
    assert previous[0] == '#| msgid ""' and all(line.startswith('#| "') and line.endswith('"') for line in previous[1:])
    assert by_context(catalog(tmp_path))["demo/pesca:text"].previous_id == [LONG]
    main(["i18n", "update"])  # and a second update keeps it byte for byte
    assert po_path(tmp_path).read_text(encoding="utf-8") == text


@pytest.mark.parametrize("ending", ["", "\n"])
def test_an_unquoted_string_is_found_on_any_line_the_last_one_too(tmp_path, ending):
    # The lines are matched as a run of good ones from the start: the first one that is not
    # good is reported, the last line (with or without its line break) as well as any other.
    head = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
    path = tmp_path / "x.po"
    path.write_text(head + 'msgctxt "a"\nmsgid "Uno"\nmsgstr "One"\n\nmsgctxt "b"\nmsgid "Due"\nmsgstr ""\n"Two' + ending, encoding="utf-8")
    found, problems = read_catalog(path)
    assert found is None
    assert [(p.line, p.message) for p in problems] == [(12, "not a valid PO file: a string must be in double quotes; fix the line in a PO editor")]
    path.write_text(head + 'msgctxt "a"\nmsgid "Uno"\nmsgstr "One\n\nmsgctxt "b"\nmsgid "Due"\nmsgstr "Two"' + ending, encoding="utf-8")
    assert [p.line for p in read_catalog(path)[1]] == [7]
    path.write_text(head + 'msgctxt "a"\nmsgid "Uno"\nmsgstr "One"' + ending, encoding="utf-8")
    assert read_catalog(path)[1] == []


def test_a_catalog_read_without_its_references_gives_the_same_messages_and_problems(tmp_path):
    from rulebook.i18n.pofile import read_catalog as read

    head = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
    entry = '#. Keep {W}.\n#: rules/demo.yaml:3\n# ignore-same: a name\n#, fuzzy\nmsgctxt "demo:a"\nmsgid "Uno {W}"\nmsgstr "One {W}"\n\n'
    path = tmp_path / "x.po"
    path.write_text(head + entry + '#: rules/demo.yaml:5\nmsgctxt "demo:b"\nmsgid "Due"\nmsgstr "Two"\n', encoding="utf-8")
    full, lean = read(path)[0], read(path, extracted=False)[0]
    assert [(m.context, m.string, m.lineno, m.user_comments, m.fuzzy) for m in lean] == [
        (m.context, m.string, m.lineno, m.user_comments, m.fuzzy) for m in full]
    assert full.get("Uno {W}", "demo:a").auto_comments == ["Keep {W}."]
    assert lean.get("Uno {W}", "demo:a").auto_comments == []
    assert lean.get("Due", "demo:b").locations == []
    # Where a comment ends a message Babel then finds broken (a msgid without its msgstr, a
    # string or a msgid_plural after it), the comment stays: the same problem either way.
    for damaged in ('msgctxt "demo:c"\nmsgid "Tre"\n#. x\nmsgstr "Three"\n',
                    'msgctxt "demo:c"\nmsgid "Tre"\nmsgstr "Three"\n#: rules/demo.yaml:9\n"more"\n',
                    'msgctxt "demo:c"\nmsgid "Tre"\n#. x\nmsgid_plural "Tres"\nmsgstr[0] "Three"\nmsgstr[1] "Threes"\n'):
        path.write_text(head + entry + damaged, encoding="utf-8")
        problems = read(path)[1]
        assert problems
        assert read(path, extracted=False)[1] == problems
