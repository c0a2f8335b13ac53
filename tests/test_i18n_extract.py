"""Extraction: one message per translatable field, stable msgctxt, never a doctest."""

from __future__ import annotations

import io
import re
import shutil
from pathlib import Path

import pytest
from babel.messages.extract import _find_extractor
from babel.messages.frontend import CommandLineInterface

from rulebook.cli import main
from rulebook.errors import LoadError
from rulebook.i18n.catalogs import read_catalog
from rulebook.i18n.extract import extract_rulebook, translator_comments
from tests.conftest import demo_book

REPO = Path(__file__).resolve().parent.parent

BOOK = demo_book("""
sections:
  - id: primo
    title: Primo
    intro: |
      Paragrafo con **grassetto**.

      - voce uno
      - voce due
    rules:
      - id: r1
        title: Regola uno
        text: Paga {2}{W} e vedi [[r2]]; pesca 3 carte.
        examples:
          - id: e1
            text: Un mazzo di carte.
            doctest: |
              >>> print("SOLO-CODICE")
              SOLO-CODICE
      - id: r2
        text: Due.
        rulings:
          - id: d1
            text: Decisione *importante*.
            reason: Perché sì.
""", summary="Un libro di prova con {W} e {hearts}.")


def template(tmp_path: Path) -> dict[str, tuple[str, list, list[str]]]:
    catalog, problems = read_catalog(tmp_path / "locales" / "templates" / "demo.pot")
    assert problems == []
    return {m.context: (m.id, m.locations, m.auto_comments) for m in catalog if m.id}


def test_every_translatable_field_is_one_message_at_its_line_in_file_order(write_rules, tmp_path):
    write_rules(BOOK)
    assert main(["i18n", "extract"]) == 0
    found = template(tmp_path)
    assert list(found) == [
        "demo:title",
        "demo:summary",
        "demo/primo:title",
        "demo/primo:intro",
        "demo/r1:title",
        "demo/r1:text",
        "demo/r1/e1:text",
        "demo/r2:text",
        "demo/r2/d1:text",
        "demo/r2/d1:reason",
    ]
    assert found["demo/r1:text"][:2] == ("Paga {2}{W} e vedi [[r2]]; pesca 3 carte.", [("rules/demo.yaml", 18)])
    # A block scalar's text starts on the line after its key.
    assert found["demo/primo:intro"][1] == [("rules/demo.yaml", 11)]
    assert found["demo/r2/d1:reason"][1] == [("rules/demo.yaml", 30)]


def test_a_departure_is_a_message_of_its_own(write_rules, tmp_path):
    # The passage a ruling departs from is read by readers in their language: one more msgid.
    write_rules(BOOK.replace("            text: Decisione *importante*.", "            departs: «vince chi resta» (Vittoria)\n            text: Decisione *importante*."))
    assert main(["i18n", "extract"]) == 0
    found = template(tmp_path)
    assert [c for c in found if c.startswith("demo/r2/d1")] == ["demo/r2/d1:departs", "demo/r2/d1:text", "demo/r2/d1:reason"]
    assert found["demo/r2/d1:departs"][:2] == ("«vince chi resta» (Vittoria)", [("rules/demo.yaml", 29)])


def test_doctest_code_is_never_extracted(write_rules, tmp_path):
    write_rules(BOOK)
    main(["i18n", "extract"])
    text = (tmp_path / "locales" / "templates" / "demo.pot").read_text(encoding="utf-8")
    assert "SOLO-CODICE" not in text and ">>>" not in text
    assert "Un mazzo di carte." in text


def test_msgctxt_survives_moving_and_editing_other_rules(write_rules, tmp_path):
    write_rules(BOOK)
    main(["i18n", "extract"])
    before = template(tmp_path)
    # A new rule first, r1 moved into a new section, r2 reworded: r1's messages keep their context.
    moved = BOOK.replace(
        "    rules:\n      - id: r1",
        "    rules:\n      - id: r0\n        text: Nuova.\n  - id: secondo\n    title: Secondo\n    rules:\n      - id: r1",
    ).replace("text: Due.", "text: Due, riscritta.")
    write_rules(moved)
    main(["i18n", "extract"])
    after = template(tmp_path)
    for context in ("demo/r1:text", "demo/r1:title", "demo/r1/e1:text"):
        assert after[context][0] == before[context][0]
        assert after[context][1] != before[context][1]  # the reference follows the line
    assert after["demo/r2:text"][0] == "Due, riscritta."


def test_translator_comments_say_what_to_keep(write_rules, tmp_path):
    write_rules(BOOK)
    main(["i18n", "extract"])
    found = template(tmp_path)
    r1 = " ".join(found["demo/r1:text"][2])
    assert "{2} {W}" in r1 and "[[r2]]" in r1 and "digits" in r1
    intro = " ".join(found["demo/primo:intro"][2])
    assert "**bold**" in intro and "'- '" in intro and "blank lines" in intro
    assert "*italic*" in " ".join(found["demo/r2/d1:text"][2])
    assert found["demo/r2:text"][2] == []  # nothing to keep, nothing said


def test_translator_comments_ignore_digits_inside_symbols_and_references():
    assert translator_comments("Paga {2} e vedi [[casting:601.2]].") == [
        "Keep the symbols {2} exactly as written: the site draws them as icons.",
        "Keep the cross-references [[casting:601.2]] unchanged: the site turns them into links.",
    ]


def test_extractor_is_found_by_entry_point():
    assert _find_extractor("rulebook") is extract_rulebook


def _messages(text: str) -> str:
    """A PO file without its header (the first entry, up to the first blank line)."""
    return text.split("\n\n", 1)[1]


def test_pybabel_extract_makes_the_same_template(write_rules, tmp_path):
    """The same messages, laid out the same; the header is ours (real values, not Babel's placeholders)."""
    write_rules(BOOK)
    (tmp_path / "locales").mkdir()
    shutil.copy(REPO / "locales" / "babel.cfg", tmp_path / "locales" / "babel.cfg")
    main(["i18n", "extract"])
    out = tmp_path / "pybabel.pot"
    CommandLineInterface().run(
        ["pybabel", "-q", "extract", "-F", "locales/babel.cfg", "--project", "rulebook", "--version", "demo", "-o", str(out), "rules/demo.yaml"]
    )
    ours = (tmp_path / "locales" / "templates" / "demo.pot").read_text(encoding="utf-8")
    assert "msgctxt" in ours
    theirs = out.read_text(encoding="utf-8")
    assert _messages(theirs) == _messages(ours)
    assert "EMAIL@ADDRESS" in theirs.split("\n\n", 1)[0]  # what pybabel writes, and ours does not
    assert "EMAIL@ADDRESS" not in ours and "ORGANIZATION" not in ours
    assert '"Project-Id-Version: rulebook demo\\n"' in ours


def test_extract_twice_leaves_the_template_untouched(write_rules, tmp_path, capsys):
    write_rules(BOOK)
    main(["i18n", "extract"])
    path = tmp_path / "locales" / "templates" / "demo.pot"
    # An older date: a new extraction with the same messages must not even touch the date.
    first = re.sub(rb"POT-Creation-Date: [^\\]*", b"POT-Creation-Date: 2000-01-01 00:00+0000", path.read_bytes())
    assert b"2000-01-01" in first
    path.write_bytes(first)
    capsys.readouterr()
    main(["i18n", "extract"])
    assert "unchanged" in capsys.readouterr().out
    assert path.read_bytes() == first


def test_extractor_uses_the_strict_loader_and_names_the_file():
    broken = io.BytesIO(BOOK.lstrip("\n").replace("title: Primo", "title: Primo\n    colour: blu").encode())
    broken.name = "rules/demo.yaml"
    with pytest.raises(LoadError) as caught:
        list(extract_rulebook(broken, ["pgettext"], [], {}))
    assert [str(p) for p in caught.value.problems] == [
        "rules/demo.yaml:10:5: unknown field 'colour' in a section; known fields: id, intro, number, rules, title"
    ]


def test_extract_reports_a_broken_rulebook_at_its_line(write_rules, capsys):
    write_rules(BOOK.replace("text: Due.", "text: Due {NOPE}."))
    assert main(["i18n", "extract"]) == 2
    assert "rules/demo.yaml:26:" in capsys.readouterr().err


def test_rewrapping_a_paragraph_changes_no_msgid(write_rules, tmp_path):
    wrapped = BOOK.replace("Paragrafo con **grassetto**.", "Paragrafo\n      con **grassetto**.").replace(
        "- voce uno", "- voce\n        uno"
    )
    write_rules(wrapped)
    main(["i18n", "extract"])
    # Line breaks inside a paragraph or list item are the YAML's, not the text's.
    assert template(tmp_path)["demo/primo:intro"][0] == "Paragrafo con **grassetto**.\n\n- voce uno\n- voce due"
    write_rules(BOOK)
    main(["i18n", "extract"])
    assert template(tmp_path)["demo/primo:intro"][0] == "Paragrafo con **grassetto**.\n\n- voce uno\n- voce due"


def test_canonical_text_renders_like_the_source():
    from rulebook.i18n.extract import canonical

    from rulebook.render.text import text_to_html as render
    source = "Uno\ndue.\n\n- a\n  segue\n- b\ndopo\n\n\nFine.\n"
    assert canonical(source) == "Uno due.\n\n- a segue\n- b\ndopo\n\nFine."
    assert render(canonical(source)) == render(source)
