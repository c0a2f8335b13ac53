"""A project's own ``locales/LANG/grammar.yaml`` (docs/grammar.md, "Where the grammar lives"): read
over the package's files, its names and rules winning; it reaches the proofs, the forms a msgstr
may ask for, and ``rulebook i18n check``, which reports its mistakes at their lines.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import write_po
from markupsafe import Markup

from rulebook.cli import main
from rulebook.i18n.grammar import Term, fill
from rulebook.languages import language
from rulebook.loader import load_book

REPO = Path(__file__).resolve().parent.parent


def _grammar(locales: Path, code: str, text: str) -> Path:
    path = locales / code / "grammar.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_the_projects_names_override_the_packages_in_the_proofs(tmp_path: Path) -> None:
    """The casting engine writes Island as feminine in French (une Île); a project that writes
    its own entry gets its own, and keeps every other name the package gives."""
    from rulebook.render import Site

    book = load_book(REPO / "rules" / "casting.yaml")
    locales = tmp_path / "locales"
    site = Site({book.id: book}, (), locales=locales, languages=["it", "fr"])
    fr = language("fr")
    assert site.speech("casting", "fr").grammar(fr).entry("Island")["gender"] == "f"
    _grammar(locales, "fr", 'names:\n  Island: {gender: m, à: "à mon Île"}\n')
    grammar = Site({book.id: book}, (), locales=locales, languages=["it", "fr"]).speech("casting", "fr").grammar(fr)
    assert grammar.entry("Island")["gender"] == "m" and grammar.entry("Swamp")["gender"] == "m"
    assert grammar.entry("Forest")["gender"] == "f"  # the package's, untouched
    filled = fill("jouée {land:à}", {"land": Term("Island", Markup("Île"), grammar.entry("Island"))}, grammar)
    assert str(filled.html) == "jouée à mon Île" and not filled.wrong_forms
    # A page is made again when the project's grammar changes: the file is among its inputs.
    assert str(locales / "fr" / "grammar.yaml") in [path for path, _ in site._words_files("casting", "fr")]


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A new project (`rulebook new`), worked in."""
    root = tmp_path / "club"
    assert main(["new", str(root), "--game", "Club", "-l", "it"]) == 0
    monkeypatch.chdir(root)
    return root


def _override(locales: Path, code: str, msgid: str, msgstr: str) -> None:
    """A project's own translation of an engine message (engine.base), overriding the package's."""
    catalog = Catalog(locale=code, domain="engine.base")
    catalog.add(msgid, msgstr)
    path = locales / code / "LC_MESSAGES" / "engine.base.po"
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as f:
        write_po(f, catalog)


def test_i18n_check_reads_the_projects_grammar(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    locales = project / "locales"
    # A form the package's French does not have, asked for by the project's own msgstr.
    _override(locales, "fr", "player {player}", "joueur {player:ordinal}")
    assert main(["i18n", "check"]) == 1
    said = capsys.readouterr().out
    assert "'ordinal' is not a form fr knows" in said, said
    _grammar(locales, "fr", "forms: [ordinal]\nnames:\n  Island: {ordinal: \"l'Île première\"}\n")
    main(["i18n", "check"])
    said = capsys.readouterr().out
    assert "ordinal" not in said, said
    # Its mistakes are reported at their lines, as the package's files' are.
    _grammar(locales, "fr", "forms: [ordinal]\nnames:\n  Island: {gender: x}\nunknown: 1\n")
    assert main(["i18n", "check"]) == 1
    said = capsys.readouterr().out
    assert "locales/fr/grammar.yaml:3:" in said and "gender 'x'" in said, said
    assert "locales/fr/grammar.yaml:4:" in said and "unknown key 'unknown'" in said, said
