"""The checks' shortcuts (a test that skips a check's full reading of a translation) skip only
what the full reading would pass: each case below is one the shortcut could get wrong, and the
expected answer is worked out by hand."""

from __future__ import annotations

from babel.messages.catalog import Message

from rulebook.cache import BuildCache, using
from rulebook.i18n.checks import check_translation
from rulebook.i18n.formats import format_details
from rulebook.i18n.glossary import Glossary, Term
from rulebook.i18n.scripts import foreign_letters


def names(source: str, translation: str, language: str = "en") -> list[str]:
    return [name for name, _ in check_translation(source, translation, language)]


def test_a_copy_is_found_whatever_its_case_spacing_and_casefolding() -> None:
    # The copy check looks for the source's longest word in the casefolded msgstr first:
    # "Straße" is "strasse" casefolded, and the copy below is written in capitals and on two lines.
    assert names("Die Straße ist lang und breit.", "DIE STRASSE\nIST  LANG UND BREIT.") == ["same"]
    # Its longest word a link id, its longest word a symbol: the copy is found all the same.
    assert names("Vedi [[regola-molto-lunga-davvero]] ora.", "[en] vedi [[regola-molto-lunga-davvero]] ora.") == ["same"]
    assert names("{hearts} e {W}", "{hearts} E {W}") == ["same"]
    # A translation that holds the longest word but is no copy passes.
    assert names("Pesca una carta lunghissima.", "Draw a lunghissima card.") == []


def test_a_foreign_letter_is_found_after_the_known_characters_grew() -> None:
    with using(BuildCache()):
        # Accented Latin and Cyrillic letters become known as ordinary for a Russian text...
        assert foreign_letters("Paga.", "Заплатите é.", "ru") == ""
        # ...a Greek letter never, before or after.
        assert foreign_letters("Paga.", "Заплатите Ωmega.", "ru") == "Ω"
        assert foreign_letters("Paga.", "Заплатите é Ω.", "ru") == "Ω"
        # In English, Cyrillic is foreign even once Russian texts made it ordinary there.
        assert foreign_letters("Paga Terrore.", "Pay Террор.", "en") == "Теро"  # each letter once, in order


def test_a_term_is_found_only_where_a_word_starts_with_it() -> None:
    # A term's search tries its first letter before the word start: the same places all the same.
    land = Term({"it": ("terra",), "fr": ("terrain",), "ru": ("ёлка",)}, "glossary.yaml:3")
    assert not land.found_in("fr", "Un sous-terrainx, unterrain, _terrain.")
    assert land.found_in("fr", "TERRAIN")
    assert land.found_in("fr", "unterrain (terrain)")
    assert land.found_in("fr", "unterrain\nterrain")
    assert land.found_in("ru", "Новая елка.")
    assert not land.found_in("ru", "Новаяелка.")
    glossary = Glossary((land,), source="it")
    assert check_translation("Posa una terra.", "Posez un sousterrain.", "fr", glossary) == [
        ("glossary", "glossary: the source uses 'terra'; write the official fr 'terrain' (see glossary.yaml:3)")]


def test_a_glued_mark_after_a_well_spaced_one_is_found() -> None:
    # The typography check reads a French text only when one of its marks follows anything but
    # a no-break space: every mark is looked at, not the first alone.
    found = check_translation("", "La carte\u00a0: le tour\u00a0; la fin: rien\u00a0!", "fr")
    assert found == [("typography", "typography: 'fin:': French writes a no-break space (U+00A0) before : ; ! ? (see docs/style/fr.md)")]
    assert check_translation("Vedi [[regole:3]].", "La carte\u00a0: le tour\u202f; fin\u00a0! [[regole:3]]", "fr") == []
    # A mark right after a symbol or a link is glued to it (what is not prose ends in no no-break space).
    assert [name for name, _ in check_translation("Paga {W}.", "Payez {W}: fin", "fr")] == ["typography"]


def test_a_translation_without_braces_lacks_the_placeholders_of_its_msgid() -> None:
    # A text with no brace is read as no field at all (not as "no brace format"): msgfmt's check
    # then says which placeholder is missing.
    dropped = Message("{n} carte da pescare", "cards to draw", flags={"python-brace-format"})
    assert list(format_details(dropped)) == ["python-brace-format: placeholder missing: n; keep every placeholder of the source"]
    assert list(format_details(Message("Pesca\n", "Draw", flags=set()))) == [
        "newlines: the source ends with a line break, the translation without; begin and end as the source does"]
