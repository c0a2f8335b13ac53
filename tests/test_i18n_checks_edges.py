"""Edges of the translation checks that the mutation run (docs/testing.md) found unguarded:
each case is one a translator can meet, and the expected answer is worked out by hand."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulebook.i18n.checks import check_locales, check_translation, po_files
from rulebook.i18n.glossary import Glossary, Term
from tests.test_i18n_checks import write_po

LAND = Glossary((Term({"it": ("terra*",), "fr": ("terrain*",), "en": ("land*",)}, "glossary.yaml:3"),), source="it")


def details(source: str, translation: str, language: str = "en", glossary: Glossary = Glossary()) -> list[tuple[str, str]]:
    return check_translation(source, translation, language, glossary)


def test_a_symbol_missing_twice_says_how_many():
    assert details("Paga {W}{W}{U}.", "Pay {U}.") == [("tokens", "symbol missing: {W} ×2; keep every symbol of the source")]
    assert details("Paga {W}{U}.", "Pay.") == [("tokens", "symbol missing: {U}, {W}; keep every symbol of the source")]


def test_a_lone_stray_brace_is_caught_and_the_symbols_still_counted():
    found = details("Paga {W}{W}.", "Pay {W} {.")
    assert [name for name, _ in found] == ["tokens", "tokens"]
    assert found[0][1].startswith("stray '{': template syntax")
    assert found[1][1].startswith("symbol missing: {W}")


def test_a_lone_closing_bracket_is_a_malformed_reference():
    assert details("Vedi [[r2]].", "See [[r2]] and x]].") == [
        ("references", "malformed cross-reference: '[[' or ']]' outside [[rule-id]] / [[book:rule-id]]")
    ]


def test_a_url_the_source_has_may_stay_and_only_an_extra_one_is_refused():
    source = "Vedi https://example.org per le regole."
    assert details(source, "See https://example.org for the rules.") == []
    assert details(source, "See https://example.org or https://example.org.") == [
        ("links", "URL not in the source: 'https://'")  # the check quotes the scheme it found
    ]


def test_an_invisible_character_of_the_source_may_stay():
    assert details("Testo A\u200eB", "Text A\u200eB") == []
    assert details("Testo AB", "Text A\u200eB") == [("characters", "invisible control character U+200E; delete it")]


def test_a_number_grouped_the_french_way_is_the_same_number():
    assert details("Fino a 1000 punti.", "Jusqu’à 1 000 points.", "fr") == []


def test_a_glossary_problem_names_both_forms():
    (found,) = details("Posa una terra.", "Posez une carte.", "fr", LAND)
    assert found == ("glossary", "glossary: the source uses 'terra'; write the official fr 'terrain' (see glossary.yaml:3)")


def test_the_language_of_each_catalog_reaches_the_glossary_check(tmp_path: Path):
    # Through the whole chain: check_locales -> check_po_file -> message_problems -> the checks.
    locales = tmp_path / "locales"
    (locales).mkdir()
    (locales / "glossary.yaml").write_text("terms:\n  - it: terra*\n    fr: terrain*\n    headword: {it: terra, fr: terrain}\n", encoding="utf-8")
    write_po(locales / "fr" / "LC_MESSAGES" / "demo.po", [("demo/r1:text", "Posa una terra.", "Posez une carte.")])
    write_po(locales / "en" / "LC_MESSAGES" / "demo.po", [("demo/r1:text", "Posa una terra.", "Play a card.")])
    problems = [str(p) for p in check_locales(locales, source="it")]
    assert len(problems) == 1 and "fr/LC_MESSAGES/demo.po" in problems[0] and "official fr 'terrain'" in problems[0]
    assert check_locales(locales, ["en"], source="it") == []
    assert [language for language, _ in po_files(locales, ["fr"])] == ["fr"]
    assert [language for language, _ in po_files(locales)] == ["en", "fr"]


@pytest.mark.parametrize("count", [1, 2, 3])
def test_a_symbol_missing_n_times(count: int):
    shown = "{W}" if count == 1 else f"{{W}} ×{count}"
    assert details("Paga " + "{W}" * count + ".", "Pay.") == [("tokens", f"symbol missing: {shown}; keep every symbol of the source")]
