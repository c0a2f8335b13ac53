"""Each check catches its own breakage, lets a good translation through, and says where."""

from __future__ import annotations

import logging
import re
import textwrap
from pathlib import Path

import pytest
from hypothesis import assume, example, given
from hypothesis import strategies as st
from babel.messages.frontend import CommandLineInterface
from babel.messages.pofile import escape

from rulebook.cli import main
from babel.messages.catalog import Message

from rulebook.i18n.checks import CHECKS, INTERFACE_CHECKS, check_locales, check_translation, checks_for, message_problems
from rulebook.engines.casting.cards import names_in
from rulebook.i18n.glossary import Glossary, load_glossary

GLOSSARY = """
spelling:
  - language: en
    avoid: colour*
    use: color
  - language: fr
    avoid: [jet, jets]
    use: lancer
terms:
  - it: [terra, terre]
    en: land*
    fr: terrain*
    ru: земл*
  - it: cimitero
    en: graveyard
"""

# (check, source, a good translation, a broken one)
CASES = [
    ("tokens", "Paga {2}{W}.", "Pay {2}{W}.", "Pay {2}."),
    ("tokens", "Paga {W}{W}.", "Pay {W}{W}.", "Pay {W}."),
    ("tokens", "Paga {W}.", "Pay {W}.", "Pay {W}{U}."),
    ("tokens", "Paga {W}.", "Pay {W}.", "Pay {W} {FOO}."),
    ("tokens", "Paga {W}.", "Pay {W}.", "Pay {W} {{ 7*7 }}."),
    # A symbol asked in a form its language's labels do not have (English labels have none).
    ("forms", "Paga {1}.", "Pay {1}.", "Pay {1:acc}."),
    ("references", "Vedi [[r2]].", "See [[r2]].", "See [[r3]]."),
    ("references", "Vedi [[casting:601.2]].", "See [[casting:601.2]].", "See [[601.2]]."),
    ("references", "Vedi [[r2]].", "See [[r2]].", "See [[r2]] and [[r2]."),
    ("numbers", "Pesca 3 carte.", "Draw 3 cards.", "Draw three cards."),
    ("numbers", "Costa 1,5 punti.", "Costs 1.5 points.", "Costs 15 points or 2."),
    ("numbers", "Fino a 1.000 punti.", "Jusqu’à 1\u202f000 points.", "Jusqu’à 10 000 points."),
    ("numbers", "Il giocatore 0 passa.", "Player 0 passes.", "Player 1 passes."),
    ("markup", "È **vietato**.", "It is **forbidden**.", "It is **forbidden."),
    ("markup", "È *raro*.", "It is *rare*.", "It is rare."),
    ("markup", "Serve:\n\n- uno\n- due", "You need:\n\n- one\n- two", "You need:\n\n- one, two"),
    ("markup", "Uno.\n\nDue.", "One.\n\nTwo.", "One. Two."),
    ("html", "Testo.", "Text.", "<b>Text</b>."),
    ("html", "Testo.", "Text.", "Text &amp; more."),
    ("characters", "Testo.", "Text.", "Te\u202ext."),
    ("characters", "Testo.", "Text.", "Text\x00."),
    ("characters", "Vedi [[r2]].", "See [[r2]].", "See [[r\u200b2]]."),  # zero-width: the page shows [[r2]]
    ("characters", "Testo.", "Text.", "Te\ufeffxt."),
    ("html", "Testo.", "Text.", "Text &lt/title&gt."),  # entities without ';' are still entities
    ("length", "Testo.", "Text.", "Text. " + "More words. " * 100),
    ("length", "Testo.", "Text.", "Text. " * 200_000),
    ("markup", "È *raro*.", "It is *rare*.", "It is *rare*. *"),
    ("links", "Vedi [[r2]].", "See [[r2]].", "See [[r2]] and [here](https://example.com)."),
    ("links", "Testo.", "Text.", "Text javascript:alert(1)"),
    ("links", "Testo.", "Text.", "Text at https://example.com"),
    ("links", "Dati: 3.", "Data: 3.", "Data:text/html,3"),
    ("glossary", "Posa una terra.", "Play a land.", "Play a card."),
    ("glossary", "Due terre.", "Deux terrains.", "Deux cartes."),
    ("glossary", "Nel cimitero.", "In the graveyard.", "In the discard pile."),
    ("spelling", "Mana incolore.", "Colorless mana.", "Colourless mana."),
    ("spelling", "Di' quale colore: colour='G'.", "Say which color: colour='G'.", "Say which colour: colour='G'."),
    ("script", "Non si può pagare Terrore.", "You can't pay Terror.", "You can't pay Террор."),
    # French: a no-break space before : ; ! ? (docs/style/fr.md), never in a reference or a symbol.
    ("typography", "Due terre: vedi [[casting:601.2]].", "Deux terrains\u00a0: voir [[casting:601.2]].", "Deux terrains : voir [[casting:601.2]]."),
    ("typography", "Due terre?", "Deux terrains\u202f?", "Deux terrains?"),
    ("same", "Pesca una carta.", "Draw a card.", "Pesca una carta."),
    ("same", "Pesca una carta.", "Draw a card.", "[en] Pesca una carta."),
    ("same", "Il giocatore pesca una carta.", "The player draws a card.", "Il giocatore pesca una carta. (translated)"),
    ("same", "Paga {W} e vedi [[r2]].", "Pay {W} and see [[r2]].", "Paga {W} e vedi [[r2]]."),
]

#: The site's own words (the `site` domain): plain text with named placeholders the site fills in.
# (check, source, a good translation, a broken one)
INTERFACE_CASES = [
    ("placeholders", "{passed}/{total} examples passed", "{passed}/{total} exemples vérifiés", "{pased}/{total} exemples vérifiés"),
    ("placeholders", "{passed}/{total} examples passed", "{passed}/{total} exemples vérifiés", "{passed} exemples vérifiés"),
    ("placeholders", "die showing {n}", "dé\u00a0: {n}", "dé\u00a0: {n:>999999999}"),
    ("placeholders", "die showing {n}", "dé\u00a0: {n}", "dé\u00a0: {n.__class__}"),
    ("placeholders", "in {language}", "en {language}", "en {language"),
    ("placeholders", "in {language}", "en {language}", "en {0}"),
    ("html", "Ruling", "Décision", "<b>Décision</b>"),
    ("links", "Ruling", "Décision", "Décision javascript:alert(1)"),
    ("characters", "Ruling", "Décision", "Déci\u202esion"),
    ("numbers", "Error 404", "Erreur 404", "Erreur 40"),
    ("script", "Terror", "Terreur", "Террор"),
    ("spelling", "the turn's roll", "le lancer du tour", "le jet du tour"),
    ("typography", "{card}: tapped", "{card}\u00a0: engagé", "{card}: engagé"),
    ("typography", "{card} wins!", "{card} gagne\u00a0!", "{card} gagne !"),
    ("same", "Contents", "Sommaire", "Contents"),
    ("same", "{passed}/{total} examples passed", "{passed}/{total} exemples vérifiés", "FR: {passed}/{total} examples passed"),
]


@pytest.mark.parametrize(("checks", "check", "source", "good", "bad"),
                         [(CHECKS, *case) for case in CASES] + [(INTERFACE_CHECKS, *case) for case in INTERFACE_CASES])
def test_each_check_catches_its_breakage(checks, check, source, good, bad):
    language = "fr" if "Deux" in good or "Jusqu" in good or checks is INTERFACE_CHECKS else "en"
    read = load_glossary(_glossary_folder(GLOSSARY), names=(), source="it")
    glossary = Glossary(read.terms, read.spellings, source="it")
    assert check_translation(source, good, language, glossary, checks) == []
    broken = check_translation(source, bad, language, glossary, checks)
    assert check in {name for name, _ in broken}, broken


def test_every_check_has_a_case():
    assert {case[0] for case in CASES} == set(CHECKS)
    assert {case[0] for case in INTERFACE_CASES} == set(INTERFACE_CHECKS)


def test_a_check_reports_every_problem_not_just_the_first():
    found = check_translation("Paga {W} e vedi [[r2]] per 3 turni.", "Pay <i>now</i> and see [x](javascript:go) for many turns.", "en")
    assert {name for name, _ in found} == {"tokens", "references", "numbers", "html", "links"}


def test_russian_glossary_form_may_inflect():
    glossary = load_glossary(_glossary_folder(GLOSSARY), names=(), source="it")
    assert check_translation("Posa una terra.", "Выложите землю.", "ru", glossary) == []
    assert [n for n, _ in check_translation("Posa una terra.", "Выложите карту.", "ru", glossary)] == ["glossary"]


def test_a_term_scoped_to_books_binds_only_those_books():
    # "incantesimo" is a Magic term (enchantment) in the Magic books and a plain "spell" elsewhere.
    scoped = GLOSSARY + "  - it: incantesimo\n    ru: чар*\n    books: [casting]\n"
    glossary = load_glossary(_glossary_folder(scoped), names=(), source="it")
    source, plain = "Lancia un incantesimo.", "Произнесите заклинание."
    assert [n for n, _ in check_translation(source, plain, "ru", glossary.for_book("casting"))] == ["glossary"]
    assert check_translation(source, plain, "ru", glossary.for_book("strage")) == []
    # Unscoped terms bind every book.
    assert [n for n, _ in check_translation("Posa una terra.", "Выложите карту.", "ru", glossary.for_book("strage"))] == ["glossary"]


def test_card_names_bind_the_books_the_glossary_names(tmp_path):
    cards = tmp_path / "cards.yaml"
    cards.write_text('cards:\n  - {name: Lightning Bolt, cost: "{R}", type: Instant, names: {it: Fulmine, en: Lightning Bolt}}\n',
                     encoding="utf-8")
    folder = _glossary_folder("card_books: [casting]\n" + GLOSSARY, tmp_path)
    glossary = load_glossary(folder, names=lambda: names_in(cards), source="it")
    source, plain = "Il Fulmine colpisce.", "The Lightning strikes."
    assert [n for n, _ in check_translation(source, plain, "en", glossary.for_book("casting"))] == ["glossary"]
    assert check_translation(source, plain, "en", glossary.for_book("strage")) == []


def test_a_form_of_several_words_matches_across_a_line_break():
    glossary = load_glossary(_glossary_folder("terms:\n  - it: campo di battaglia\n    en: battlefield\n    fr: champ de bataille\n"),
                             names=(), source="it")
    assert check_translation("Entra nel campo di\nbattaglia.", "Arrive sur le champ\nde  bataille.", "fr", glossary) == []
    assert [n for n, _ in check_translation("Entra nel campo di battaglia.", "Arrive sur le champ.", "fr", glossary)] == ["glossary"]
    # Italian "campo" alone is not the term.
    assert check_translation("Un campo.", "Un champ.", "fr", glossary) == []


def test_russian_forms_match_with_or_without_yo():
    glossary = load_glossary(_glossary_folder("terms:\n  - it: [tappare, tappata]\n    ru: [поверн*]\n    headword: {ru: повернуть}\n"),
                             names=(), source="it")
    assert check_translation("Una terra tappata.", "Повёрнутая земля.", "ru", glossary) == []
    assert check_translation("Una terra tappata.", "Повернутая земля.", "ru", glossary) == []
    assert [n for n, _ in check_translation("Una terra tappata.", "Развёрнутая земля.", "ru", glossary)] == ["glossary"]


def test_a_card_name_is_not_a_use_of_the_terms_inside_it(tmp_path):
    cards = tmp_path / "cards.yaml"
    cards.write_text('cards:\n  - {name: Chord of Calling, cost: "{X}{G}{G}{G}", type: Instant, '
                     'names: {it: Corda della Convocazione, en: Chord of Calling}}\n', encoding="utf-8")
    folder = _glossary_folder("terms:\n  - it: [convocazione, convocare]\n    en: [convoke]\n", tmp_path)
    glossary = load_glossary(folder, names=lambda: names_in(cards), source="it")
    assert check_translation("Lancia Corda della Convocazione.", "Cast Chord of Calling.", "en", glossary) == []
    # The same word outside the name still asks for the term.
    assert [n for n, _ in check_translation("Con convocare.", "With help.", "en", glossary)] == ["glossary"]


def test_a_russian_card_name_may_inflect_around_its_comma(tmp_path):
    cards = tmp_path / "cards.yaml"
    cards.write_text('cards:\n  - {name: "Thalia, Guardian of Thraben", cost: "{1}{W}", type: Creature, '
                     'names: {it: "Thalia, Protettrice di Thraben", en: "Thalia, Guardian of Thraben", ru: "Талия, Страж Трейбена"}}\n',
                     encoding="utf-8")
    glossary = load_glossary(tmp_path / "no-locales", names=lambda: names_in(cards), source="it")
    source = "Con Thalia, Protettrice di Thraben in gioco."
    assert check_translation(source, "Когда в игре Талия, Страж Трейбена.", "ru", glossary) == []
    assert check_translation(source, "Из-за Талии, Стража Трейбена.", "ru", glossary) == []
    assert [n for n, _ in check_translation(source, "Из-за Талии.", "ru", glossary)] == ["glossary"]


def test_a_glossary_entry_keeps_its_source_and_refuses_an_unknown_key(tmp_path):
    folder = _glossary_folder("terms:\n  - it: pila\n    en: stack\n    source: printed on Time Stop (10E)\n    sorce: typo\n", tmp_path)
    glossary = load_glossary(folder, names=(), source="it")
    (term,) = glossary.terms
    assert term.source == "printed on Time Stop (10E)" and set(term.forms) == {"it", "en"}
    assert [(p.line, p.column, p.message) for p in glossary.problems] == [
        (5, 5, "'sorce' is neither a language code (it, pt_BR) nor note, source, books or headword")]


def test_a_link_id_or_symbol_is_not_a_glossary_word():
    glossary = load_glossary(_glossary_folder(GLOSSARY), names=(), source="it")
    assert check_translation("Vedi [[terre-base]].", "See [[terre-base]].", "en", glossary) == []


def test_card_names_come_from_the_engine_data(tmp_path):
    cards = tmp_path / "cards.yaml"
    cards.write_text(
        textwrap.dedent(
            """
            cards:
              - name: Swamp
                cost: ""
                type: Basic Land — Swamp
                names: {it: Palude, en: Swamp, fr: Marais, ru: Болото}
              - name: White Knight
                cost: "{W}{W}"
                type: Creature — Human Knight
                names: {it: Cavaliere Bianco, en: White Knight, ru: Белый Рыцарь}
            """
        ),
        encoding="utf-8",
    )
    glossary = load_glossary(tmp_path / "no-locales", names=lambda: names_in(cards), source="it")
    assert check_translation("Posa una Palude.", "Play a Swamp.", "en", glossary) == []
    assert check_translation("Due Paludi.", "Two Swamps.", "en", glossary) == []
    assert check_translation("Due Paludi.", "Два Болота.", "ru", glossary) == []
    assert check_translation("Con il Cavaliere Bianco.", "С Белым Рыцарем.", "ru", glossary) == []
    assert [n for n, _ in check_translation("Posa una Palude.", "Play a Marsh.", "en", glossary)] == ["glossary"]
    # A common word written in lower case is not the card.
    assert check_translation("Una palude vera.", "A real marsh.", "en", glossary) == []


def test_the_real_card_file_feeds_the_glossary():
    glossary = load_glossary(Path("/nonexistent"), source="it")
    assert any(t.forms.get("it") == ("Palude",) and t.forms.get("en") == ("Swamp",) for t in glossary.terms)
    assert all(re.search(r"(cards\.yaml|planes\.py):[0-9]+$", t.origin) for t in glossary.terms if t.card)  # a translator finds the entry


def test_a_broken_card_file_is_a_glossary_problem_at_its_line(tmp_path):
    cards = tmp_path / "cards.yaml"
    cards.write_text("cards:\n  - name: Swamp\n    name: Swamp\n", encoding="utf-8")
    problems = [str(p) for p in load_glossary(tmp_path / "no-locales", names=lambda: names_in(cards), source="it").problems]
    assert len(problems) == 1 and problems[0].endswith("cards.yaml:3:5: duplicate key 'name' (first at line 2); remove one"), problems


def test_a_broken_glossary_is_a_problem_at_its_line(tmp_path):
    folder = _glossary_folder("terms:\n  - it: terra\n    en: [land\n", tmp_path)
    glossary = load_glossary(folder, names=(), source="it")
    assert glossary.terms == ()
    assert len(glossary.problems) == 1 and glossary.problems[0].path.endswith("glossary.yaml")
    assert glossary.problems[0].line == 4
    folder = _glossary_folder("terms:\n  - en: land\n", tmp_path)
    (problem,) = load_glossary(folder, names=(), source="it").problems
    assert (problem.line, problem.message) == (2, "a term needs its form in the source language ('it:')")


def _glossary_folder(text: str, folder: Path | None = None) -> Path:
    import tempfile

    folder = folder or Path(tempfile.mkdtemp())
    (folder / "glossary.yaml").write_text(text, encoding="utf-8")
    return folder


def write_po(path: Path, entries: list[tuple[str, str, str]], fuzzy: tuple[str, ...] = ()) -> None:
    """A small catalog as a translator's editor saves it, its Language that of its folder."""
    out = ['msgid ""', 'msgstr ""', f'"Language: {path.parent.parent.name}\\n"', '"Content-Type: text/plain; charset=UTF-8\\n"', ""]
    for context, source, translation in entries:
        if context in fuzzy:
            out.append("#, fuzzy")
        out += [f'msgctxt "{context}"', f'msgid "{escape(source)[1:-1]}"', f'msgstr "{escape(translation)[1:-1]}"', ""]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(out), encoding="utf-8")


def test_problems_name_po_file_line_context_and_check(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    po = Path("locales/en/LC_MESSAGES/demo.po")
    write_po(
        po,
        [
            ("demo:title", "Demo", "Sample"),
            ("demo/r1:text", "Paga {W} e vedi [[r2]].", "Pay and see <b>[[r2]]</b>."),
            ("demo/r2:text", "Pesca 3 carte.", "Draw three cards."),
            ("demo/r3:text", "Pesca {W}.", "Draw."),
        ],
        fuzzy=("demo/r3:text",),  # fuzzy falls back anyway: not checked
    )
    problems = [str(p) for p in check_locales(Path("locales"), source="it")]
    lines = po.read_text(encoding="utf-8").split("\n")
    # Each problem points at the msgstr a translator has to fix, not at the msgid.
    assert lines[12 - 1].startswith('msgstr "Pay and see') and lines[16 - 1].startswith('msgstr "Draw three')
    assert problems == [
        "locales/en/LC_MESSAGES/demo.po:12:1: demo/r1:text: [tokens] symbol missing: {W}; keep every symbol of the source",
        "locales/en/LC_MESSAGES/demo.po:12:1: demo/r1:text: [html] raw HTML '<b>', '</b>'; use **bold**, *italic* or a symbol",
        "locales/en/LC_MESSAGES/demo.po:16:1: demo/r2:text: [numbers] number missing: 3; write numbers in digits as in the source",
    ]
    assert main(["i18n", "check"]) == 1
    out = capsys.readouterr().out
    assert "demo.po:16:1: demo/r2:text: [numbers]" in out and out.rstrip().endswith("3 problems")
    write_po(po, [("demo/r1:text", "Paga {W} e vedi [[r2]].", "Pay {W} and see [[r2]].")])
    assert main(["i18n", "check"]) == 0


def test_a_syntax_error_is_reported_with_the_others(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write_po(Path("locales/en/LC_MESSAGES/demo.po"), [("demo/r2:text", "Pesca 3 carte.", "Draw three cards.")])
    broken = Path("locales/fr/LC_MESSAGES/demo.po")
    write_po(broken, [("demo/r2:text", "Pesca 3 carte.", "Piochez 3 cartes.")])
    broken.write_text(broken.read_text(encoding="utf-8").replace('msgstr "Pioch', 'msgstr Pioch'), encoding="utf-8")
    problems = [str(p) for p in check_locales(Path("locales"), source="it")]
    assert len(problems) == 2
    assert problems[0].startswith("locales/en/LC_MESSAGES/demo.po:8:1: demo/r2:text: [numbers]")
    # Babel itself would silently drop the first and last letter of an unquoted string.
    assert problems[1] == "locales/fr/LC_MESSAGES/demo.po:8:1: not a valid PO file: a string must be in double quotes; fix the line in a PO editor"


def test_pybabel_compile_runs_the_token_and_reference_checks(tmp_path, caplog):
    po = tmp_path / "locales" / "en" / "LC_MESSAGES" / "demo.po"
    write_po(po, [("demo/r1:text", "Paga {W} e vedi [[r2]].", "Pay and see [[r3]]."), ("demo/r2:text", "Due {W}.", "Two {W}.")])
    with caplog.at_level(logging.ERROR, logger="babel"):
        status = CommandLineInterface().run(["pybabel", "compile", "-d", str(tmp_path / "locales"), "-D", "demo"])
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert status == 1
    assert any("demo.po:7: demo/r1:text: symbol missing: {W}" in e for e in errors), errors
    assert any("demo.po:7: demo/r1:text: cross-reference missing: [[r2]]" in e for e in errors), errors
    assert not any("demo/r2:text" in e for e in errors)


def _loadable(text: str) -> bool:
    """What the loader lets into a source text: only known symbols."""
    from rulebook.symbols import SYMBOLS, tokens_in

    return all(token in SYMBOLS for _, token in tokens_in(text))


# Text made of everything a rulebook field may hold, and of what merely looks like it.
_PIECES = st.sampled_from(
    ["Paga", " ", "\n", "\n\n", "- ", "**", "*", "{W}", "{2}", "{ x }", "{", "}", "[[r2]]", "[[casting:601.2f]]", "[", "]",
     "3", "1,5", "1.000", "<", "a < b", "&", "http", ":", "terra", "Palude", "è", "«", "»"]
)


@given(st.lists(_PIECES, max_size=25).map("".join))
def test_the_source_itself_always_passes(source):
    assume(_loadable(source))
    # No check may fail a translation that keeps everything: no false alarm from the source's own
    # text (in the source's own language, where a copy is the translation).
    assert check_translation(source, source, "it", checks=checks_for("demo", copies_allowed=True)) == []


@example("-\nPaga")  # a bare dash once became a list item on the second pass
@example("3\n333")  # a line break inside a number's neighbourhood is a space on the page
@given(st.lists(_PIECES, max_size=25).map("".join))
def test_canonical_text_is_stable(text):
    from rulebook.i18n.extract import canonical
    from rulebook.render.text import text_to_html

    assume(_loadable(text))
    once = canonical(text)
    assert canonical(once) == once
    assert check_translation(text, once, "it", checks=checks_for("demo", copies_allowed=True)) == []  # unwrapping changes nothing a check sees
    assert text_to_html(text) == text_to_html(once)  # ...nor anything a reader sees


def test_the_site_domain_is_checked_as_site_words():
    assert checks_for("site") is INTERFACE_CHECKS and checks_for("engine.strage") is INTERFACE_CHECKS
    assert checks_for("casting") is CHECKS


@given(st.lists(st.sampled_from(["Page", " ", "{passed}", "{total}", "{{", "}}", "/", "3", ":", "{n}"]), max_size=12).map("".join))
def test_site_words_pass_their_own_checks(source):
    assert check_translation(source, source, "en", checks=checks_for("site", copies_allowed=True)) == []


def test_a_projects_site_words_are_checked_by_the_same_command(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    po = Path("locales/fr/LC_MESSAGES/site.po")
    po.parent.mkdir(parents=True)
    po.write_text('msgid ""\nmsgstr ""\n"Language: fr\\n"\n\nmsgid "{passed}/{total} examples passed"\nmsgstr "{pased}/{total} vérifiés"\n',
                  encoding="utf-8")
    assert main(["i18n", "check"]) == 1
    out = capsys.readouterr().out
    assert "locales/fr/LC_MESSAGES/site.po:6:1: {passed}/{total} examples passed: [placeholders] placeholder missing: {passed}" in out


def test_a_translator_switches_off_the_same_check_with_a_reason_and_nothing_else():
    def reported(**marks) -> list[str]:
        message = Message("Primo {W}.", "Primo {W}.", context="demo/r1:title", **marks)
        return [p.message.split("] ")[0] + "]" for p in message_problems(message, "en.po", "en", Glossary())]

    assert reported() == ["demo/r1:title: [same]"]
    assert reported(user_comments=["ignore-same: English keeps the Italian ordinal"]) == []
    assert reported(flags=["ignore-same"]) == []  # Weblate's flag, kept by translate-toolkit and Babel
    assert reported(user_comments=["ignore-same:"]) == ["demo/r1:title: [same]"]  # no reason given, nothing switched off
    # A check that keeps the site working is never switched off.
    dropped = Message("Primo {W}.", "First.", context="demo/r1:title", user_comments=["ignore-symbols: not needed"], flags=["ignore-symbols"])
    assert [p.message for p in message_problems(dropped, "en.po", "en", Glossary())] != []


def test_the_script_check_allows_latin_and_the_source_s_script_and_judges_only_known_scripts():
    from rulebook.i18n.scripts import foreign_letters

    assert foreign_letters("Paga {W}.", "Заплатите {W} (CR 601.2, Oracle).", "ru") == ""
    assert foreign_letters("Paga.", "Заплатите Ωmega.", "ru") == "Ω"
    assert foreign_letters("Terrore (Террор).", "Terror (Террор).", "en") == ""  # the source quotes it too
    assert foreign_letters("Paga.", "Pay 支払う.", "en") == ""  # a script the table does not name: not judged
    assert foreign_letters("Paga.", "Pagar Террор.", "pt_BR") == "Теро"  # each letter once
    assert foreign_letters("Terrore", "Террор — «Ж»", "ru") == ""  # punctuation is no letter, whatever the source holds
