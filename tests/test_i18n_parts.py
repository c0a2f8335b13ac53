"""A book filed in one catalog per section (``book: {catalogs: sections}``): every command reads
and writes the section files, and nothing is lost when a rule moves or the book switches layout."""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.catalog import Catalog

from rulebook.cli import main
from rulebook.errors import LoadError
from rulebook.i18n.catalogs import read_catalog, serialize
from rulebook.i18n.parts import existing_catalogs
from rulebook.i18n.translate import translate_book
from rulebook.loader import load_book, load_book_bytes

LANGUAGES = ["it", "en", "fr"]


def book_yaml(layout: str | None, *, moved: bool = False, pesca: str = "Il giocatore pesca una carta dal mazzo.") -> str:
    """Two sections; ``moved``: the rule 'scarta' is in the second section instead of the first."""
    scarta = "      - id: scarta\n        text: Il giocatore scarta una carta dalla mano.\n"
    return (
        "book:\n  id: demo\n  title: Demo\n  summary: Un libro di prova.\n  language: it\n  engine: bingomagic\n"
        + (f"  catalogs: {layout}\n" if layout else "")
        + "sections:\n  - id: primo\n    title: Primo\n    rules:\n"
        + f"      - id: pesca\n        text: {pesca}\n"
        + ("" if moved else scarta)
        + "  - id: secondo\n    title: Secondo\n    rules:\n      - id: vince\n        text: Vince chi resta senza carte.\n"
        + (scarta if moved else "")
    )


TRANSLATIONS = {"demo:title": "Demo Rules", "demo/primo:title": "First", "demo/pesca:text": "The player draws a card from the deck.",
                "demo/scarta:text": "The player discards a card from their hand.", "demo/secondo:title": "Second"}


@pytest.fixture
def project(write_rules, tmp_path: Path) -> Path:
    (tmp_path / "mkdocs.yml").write_text(
        f"site_name: Test\nplugins:\n  - search\n  - rulebook:\n      languages: [{', '.join(LANGUAGES)}]\n", encoding="utf-8")
    return tmp_path


def po(root: Path, name: str, language: str = "en") -> Path:
    return root / "locales" / language / "LC_MESSAGES" / f"{name}.po"


def read(path: Path) -> Catalog:
    found, problems = read_catalog(path)
    assert problems == []
    return found


def translate_all(root: Path, language: str = "en") -> None:
    """A translator fills every msgstr of TRANSLATIONS, in whichever file holds it."""
    for path in existing_catalogs(root / "locales", language, "demo"):
        catalog = read(path)
        for message in catalog:
            if message.context in TRANSLATIONS:
                message.string = TRANSLATIONS[message.context]
        path.write_bytes(serialize(catalog))


def filed(root: Path, language: str = "en") -> dict[str, dict[str, tuple[str, bool]]]:
    """File (relative to LC_MESSAGES) -> msgctxt -> (msgstr, fuzzy), live entries; '#~ ' before an obsolete one's msgctxt."""
    found = {}
    for path in existing_catalogs(root / "locales", language, "demo"):
        catalog = read(path)
        entries = {m.context: (m.string, m.fuzzy) for m in catalog if m.id}
        entries |= {f"#~ {m.context}": (m.string, m.fuzzy) for m in catalog.obsolete.values()}
        found[path.relative_to(root / "locales" / language / "LC_MESSAGES").as_posix()] = entries
    return found


def test_the_layout_is_checked(write_rules):
    assert load_book_bytes(book_yaml("sections").encode(), "demo.yaml").catalogs == "sections"
    assert load_book_bytes(book_yaml(None).encode(), "demo.yaml").catalogs == "book"
    with pytest.raises(LoadError, match="book catalogs 'chapters' must be one of 'book', 'sections'"):
        load_book_bytes(book_yaml("chapters").encode(), "demo.yaml")
    # A section id names a file then: not one Windows keeps for a device (con.po cannot be made there).
    assert load_book_bytes(book_yaml(None).replace("id: secondo", "id: con.1").encode(), "demo.yaml").sections[1].id == "con.1"
    with pytest.raises(LoadError, match=r"demo.yaml:16:9: section id 'con.1' names its catalog file .* Windows reserves that name"):
        load_book_bytes(book_yaml("sections").replace("id: secondo", "id: con.1").encode(), "demo.yaml")


def test_a_book_filed_per_section_has_one_template_and_one_catalog_per_section(project, write_rules):
    write_rules(book_yaml("sections"))
    assert main(["i18n", "update"]) == 0
    templates = project / "locales" / "templates"
    assert sorted(p.relative_to(templates).as_posix() for p in templates.rglob("*.pot")) == ["demo.pot", "demo/primo.pot", "demo/secondo.pot"]
    assert {name: set(entries) for name, entries in filed(project).items()} == {
        "demo.po": {"demo:title", "demo:summary"},
        "demo/primo.po": {"demo/primo:title", "demo/pesca:text", "demo/scarta:text"},
        "demo/secondo.po": {"demo/secondo:title", "demo/vince:text"},
    }
    assert main(["i18n", "update", "--check"]) == 0  # what was written is current
    translate_all(project)
    book = load_book(project / "rules" / "demo.yaml")
    translated = translate_book(book, "en", project / "locales")
    assert translated.book.sections[0].rules[1].text == TRANSLATIONS["demo/scarta:text"]  # from demo/primo.po
    assert translated.book.sections[1].title == "Second"  # from demo/secondo.po
    assert translated.book.title == "Demo Rules"
    assert translated.stats().translated == 5
    assert translated.stats().total == 7
    # Every command finds the section files: check reads them under the book's domain, compile compiles them.
    assert main(["i18n", "check"]) == 0
    assert main(["i18n", "compile", "-l", "en"]) == 0
    assert (po(project, "demo/primo").with_suffix(".mo")).exists()


def test_a_section_file_that_cannot_be_read_falls_back_alone(project, write_rules, capsys):
    write_rules(book_yaml("sections"))
    assert main(["i18n", "update"]) == 0
    translate_all(project)
    po(project, "demo/secondo").write_text('msgid "broken\n', encoding="utf-8")
    translated = translate_book(load_book(project / "rules" / "demo.yaml"), "en", project / "locales")
    assert translated.book.sections[0].rules[0].text == TRANSLATIONS["demo/pesca:text"]  # its own file is fine
    assert translated.book.sections[1].title == "Secondo"  # the broken file's texts fall back, and say why
    assert translated.unreadable
    assert all("demo/secondo.po" in p.path for p in translated.unreadable)
    capsys.readouterr()
    assert main(["i18n", "check"]) == 1
    assert "demo/secondo.po" in capsys.readouterr().out
    # update refuses to rewrite any of the book's files while one cannot be read (nothing is dropped)
    before = po(project, "demo/primo").read_bytes()
    write_rules(book_yaml("sections", moved=True))
    assert main(["i18n", "update"]) == 1
    assert po(project, "demo/primo").read_bytes() == before


def test_switching_layout_carries_every_translation_and_its_state(project, write_rules, capsys):
    write_rules(book_yaml(None))
    assert main(["i18n", "update"]) == 0
    translate_all(project)
    # A changed source (fuzzy after the update) and a removed rule's translation (#~) travel too.
    write_rules(book_yaml(None, pesca="Il giocatore pesca due carte dal mazzo."))
    assert main(["i18n", "update"]) == 0
    catalog = read(po(project, "demo"))
    catalog.add("Una regola tolta.", "A removed rule.", context="demo/antica:text")
    catalog.obsolete["demo/antica:text"] = catalog.get("Una regola tolta.", "demo/antica:text")
    catalog.delete("Una regola tolta.", "demo/antica:text")
    po(project, "demo").write_bytes(serialize(catalog))
    one_file = filed(project)["demo.po"]
    assert one_file["demo/pesca:text"] == (TRANSLATIONS["demo/pesca:text"], True)
    assert one_file["#~ demo/antica:text"] == ("A removed rule.", False)

    write_rules(book_yaml("sections"))
    assert main(["i18n", "update", "--check"]) == 1  # the section files are missing: out of date, nothing written
    assert set(filed(project)) == {"demo.po"}
    assert main(["i18n", "update"]) == 0
    split = filed(project)
    assert set(split) == {"demo.po", "demo/primo.po", "demo/secondo.po"}
    assert split["demo/primo.po"]["demo/pesca:text"] == (TRANSLATIONS["demo/pesca:text"], True)  # still fuzzy
    assert split["demo.po"]["#~ demo/antica:text"] == ("A removed rule.", False)  # kept in the book's own file
    assert {k: v for entries in split.values() for k, v in entries.items()} == one_file  # every entry, in one file or another
    assert main(["i18n", "update", "--check"]) == 0

    write_rules(book_yaml(None))  # and back: one file again, the section files and templates removed
    capsys.readouterr()
    assert main(["i18n", "update", "--check"]) == 1
    assert "out of date locales/en/LC_MESSAGES/demo/primo.po (the book files its messages elsewhere now)" in capsys.readouterr().out
    assert main(["i18n", "update"]) == 0
    assert filed(project) == {"demo.po": one_file}
    assert not (project / "locales" / "templates" / "demo").exists()
    assert not (project / "locales" / "en" / "LC_MESSAGES" / "demo").exists()


def test_a_rule_moved_to_another_section_takes_its_translation_along(project, write_rules):
    write_rules(book_yaml("sections"))
    assert main(["i18n", "update"]) == 0
    translate_all(project)
    write_rules(book_yaml("sections", moved=True, pesca="Il giocatore pesca due carte."))
    assert main(["i18n", "update"]) == 0
    split = filed(project)
    assert "demo/scarta:text" not in split["demo/primo.po"]
    assert "#~ demo/scarta:text" not in split["demo/primo.po"]
    assert split["demo/secondo.po"]["demo/scarta:text"] == (TRANSLATIONS["demo/scarta:text"], False)
    assert split["demo/primo.po"]["demo/pesca:text"] == (TRANSLATIONS["demo/pesca:text"], True)
    translated = translate_book(load_book(project / "rules" / "demo.yaml"), "en", project / "locales")
    assert translated.book.sections[1].rules[1].text == TRANSLATIONS["demo/scarta:text"]


def _scarta_also_in_secondo(project, write_rules, translation: str, obsolete: bool) -> dict:
    """The book filed per section and translated, with scarta (primo.po's) also in secondo.po
    under another ``translation``, live or ``obsolete``; every catalog's bytes before the update."""
    write_rules(book_yaml("sections"))
    assert main(["i18n", "update"]) == 0
    translate_all(project)
    secondo = read(po(project, "demo/secondo"))
    carried = read(po(project, "demo/primo")).get("Il giocatore scarta una carta dalla mano.", "demo/scarta:text")
    carried.string = translation
    if obsolete:
        secondo.obsolete["demo/scarta:text"] = carried
    else:
        secondo[carried.id] = carried
    po(project, "demo/secondo").write_bytes(serialize(secondo))
    return {p: p.read_bytes() for p in existing_catalogs(project / "locales", "en", "demo")}


def test_two_files_translating_one_message_differently_stop_the_update(project, write_rules, capsys):
    # A merge left scarta in both files (as a kill between writing one and removing the other
    # would, but with two translations): which one is right is the translator's call.
    before = _scarta_also_in_secondo(project, write_rules, "Another translation.", obsolete=False)
    write_rules(book_yaml("sections", moved=True))
    capsys.readouterr()
    assert main(["i18n", "update"]) == 1
    out = capsys.readouterr().out
    assert "translated here and, differently, in" in out
    assert "catalogs of the book not updated" in out
    assert {p: p.read_bytes() for p in existing_catalogs(project / "locales", "en", "demo")} == before


def test_workers_translate_a_book_filed_per_section_as_one_process_does(project, write_rules, monkeypatch):
    from rulebook.i18n import translate
    from rulebook.i18n.translate import translating

    write_rules(book_yaml("sections"))
    assert main(["i18n", "update"]) == 0
    translate_all(project)
    translate_all(project, "fr")
    po(project, "demo/secondo", "fr").write_text('msgid "broken\n', encoding="utf-8")  # one file of one language unreadable
    book = load_book(project / "rules" / "demo.yaml")
    alone = {language: translate_book(book, language, project / "locales") for language in ("en", "fr")}
    monkeypatch.setattr(translate, "PARALLEL_BYTES", 0)  # workers whatever the catalogs' size
    with translating([(book, language) for language in ("en", "fr")], project / "locales", workers=2):
        assert [len(jobs) for jobs, _, _ in translate._PENDING.values()] == [3, 3]  # one job per catalog file
        together = {language: translate_book(book, language, project / "locales") for language in ("en", "fr")}
    assert together == alone
    assert together["en"].book.sections[1].title == "Second"
    assert together["fr"].book.sections[1].title == "Secondo"
    assert together["fr"].book.sections[0].title == "First"
    assert together["fr"].unreadable


def big_book(layout: str | None) -> str:
    """Two sections of four rules of 15,000 characters: about 60 kB of catalog a section."""
    text = " ".join(["Il giocatore pesca una carta dal mazzo."] * 375)
    sections = "".join(f"  - id: s{s}\n    title: Sezione {s}\n    rules:\n" + "".join(
        f"      - id: r{s}-{r}\n        text: {text}\n" for r in range(4)) for s in range(2))
    return ("book:\n  id: demo\n  title: Demo\n  summary: Un libro di prova.\n  language: it\n  engine: bingomagic\n"
            + (f"  catalogs: {layout}\n" if layout else "") + "sections:\n" + sections)


def test_a_book_too_large_for_one_catalog_is_told_to_file_it_per_section(project, write_rules, monkeypatch, capsys):
    from rulebook import limits
    from rulebook.i18n import catalogs

    # The limit scaled down with the book (above every shipped catalog): its catalog is past it, each section's within it.
    monkeypatch.setattr(limits, "MAX_CATALOG_BYTES", 100_000)
    monkeypatch.setattr(catalogs, "MAX_CATALOG_BYTES", 100_000)
    write_rules(big_book(None))
    assert main(["i18n", "update"]) == 2  # as a file that cannot be read: nothing done
    out = capsys.readouterr().err
    assert "locales/templates/demo.pot:1:1: the template would be" in out
    assert "larger than the limit of 100,000 bytes" in out
    assert "file the book's catalogs per section: `catalogs: sections` under `book:`" in out
    assert not (project / "locales" / "templates" / "demo.pot").exists()  # written, nothing could read it back
    write_rules(big_book("sections"))
    assert main(["i18n", "update"]) == 0
    assert all(path.stat().st_size <= 100_000 for path in (project / "locales").rglob("*.po"))
    # A catalog past the limit (a book switched back by hand, a merge) is refused, with the same advice.
    po(project, "demo/s0").write_bytes(po(project, "demo/s0").read_bytes() + b"#" * 100_000 + b"\n")
    capsys.readouterr()
    assert main(["i18n", "check"]) == 1
    assert "demo/s0.po:1:1: the file is larger than the limit of 100,000 bytes; for a book's catalog, file the book's catalogs per section" \
        in capsys.readouterr().out


def test_the_site_shows_a_book_filed_per_section_and_a_strict_build_names_its_broken_file(write_rules, tmp_path, caplog):
    import shutil

    from rulebook.adapters import generator
    from tests.test_site_build import build, make_project

    config = make_project(tmp_path, languages=["it", "en"])
    shutil.rmtree(tmp_path / "locales" / "ru")
    (tmp_path / "rules" / "altro.yaml").unlink()
    write_rules(book_yaml("sections"))
    assert main(["i18n", "update", "-f", str(config)]) == 0
    translate_all(tmp_path)
    page = (build(config) / "en" / "demo" / "index.html").read_text(encoding="utf-8")
    assert TRANSLATIONS["demo/scarta:text"] in page  # from demo/primo.po
    assert "Second" in page  # from demo/secondo.po
    po(tmp_path, "demo/secondo").write_text('msgid "broken\n', encoding="utf-8")
    with pytest.raises(generator.Abort):
        build(config)
    assert any("demo/secondo.po" in r.getMessage() and "(every text of this catalog is shown in the source language)" in r.getMessage()
               for r in caplog.records)


def test_an_obsolete_entry_carried_beside_another_translation_stops_the_update(project, write_rules, capsys):
    # secondo.po holds scarta as #~ with another translation (left by an older layout): carried to
    # primo.po it would sit beside the live one, and which is right is the translator's call.
    before = _scarta_also_in_secondo(project, write_rules, "An older translation.", obsolete=True)
    capsys.readouterr()
    assert main(["i18n", "update"]) == 1
    assert "is both a message" in capsys.readouterr().out
    assert {p: p.read_bytes() for p in existing_catalogs(project / "locales", "en", "demo")} == before
