"""One engine module, one domain: a project's second engine (Coins, from docs/new-game.md) has
its words extracted into the domain the site looks them up in, and a mapping that reaches
another engine's module is a warning (its translations would never be shown)."""

from __future__ import annotations

import re
import sys
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest
from babel.messages.pofile import read_po, write_po

from rulebook import engines
from rulebook.cli import main
from rulebook.i18n.domains import engine_domain, load_messages
from rulebook.i18n.glossary import Glossary

REPO = Path(__file__).resolve().parents[1]


def guide_block(guide: str, starts: str, language: str) -> str:
    """The fenced ``language`` block of docs/``guide`` whose first line starts with ``starts``."""
    text = (REPO / "docs" / guide).read_text(encoding="utf-8")
    blocks = re.findall(rf"^```{language}\n(.*?)^```", text, flags=re.S | re.M)
    return next(block for block in blocks if block.startswith(starts))


@pytest.fixture
def coins_project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """`rulebook new`, then Coins added as new-game.md says: its rulebook, its engine module
    beside the sample's, registered as `coins`."""
    project = tmp_path / "coin-club"
    assert main(["new", str(project), "--game", "Coin Club", "-l", "it"]) == 0
    (project / "rules" / "coins.yaml").write_text(guide_block("new-game.md", "book:", "yaml"), encoding="utf-8")
    (project / "src" / "coin_club" / "coins.py").write_text(guide_block("engines.md", "import random", "python"), encoding="utf-8")
    monkeypatch.syspath_prepend(str(project / "src"))
    ours = list(engines.entry_points(group=engines.GROUP))
    added = [EntryPoint("coins", "coin_club.coins", engines.GROUP), EntryPoint("coin-club", "coin_club.engine", engines.GROUP)]
    monkeypatch.setattr(engines, "entry_points", lambda group: [*ours, *added] if group == engines.GROUP else [])
    monkeypatch.chdir(project)
    yield project
    for name in [n for n in sys.modules if n.partition(".")[0] == "coin_club"]:
        del sys.modules[name]


def _ids(path: Path) -> set[str]:
    with path.open("rb") as f:
        return {m.id if isinstance(m.id, str) else m.id[0] for m in read_po(f) if m.id}


def test_a_second_engine_module_gets_its_own_domain_which_the_site_reads(coins_project: Path, capsys: pytest.CaptureFixture) -> None:
    assert main(["i18n", "update"]) == 0
    told = capsys.readouterr().out
    assert "created src/coin_club/locale/engine.coins.cfg" in told, told
    coins = engine_domain("coins")
    assert coins is not None and coins.template.exists()
    assert "player {player} flips the coin" in _ids(coins.template)
    # The sample's domain holds the sample's words only.
    assert "player {player} flips the coin" not in _ids(engine_domain("coin-club").template)
    # Translated in the catalog `update` made, the word is what the site shows.
    catalog = coins.catalog("it")
    with catalog.open("rb") as f:
        po = read_po(f)
    po["player {player} flips the coin"].string = "il giocatore {player} lancia la moneta"
    with catalog.open("wb") as f:
        write_po(f, po)
    shown = load_messages(coins, "it", coins_project / "locales").translate(None, "player {player} flips the coin")
    assert shown == "il giocatore {player} lancia la moneta"
    assert main(["i18n", "update", "--check"]) == 0
    assert "warning" not in capsys.readouterr().out


def test_a_mapping_that_reaches_another_engines_module_is_a_warning(coins_project: Path, capsys: pytest.CaptureFixture) -> None:
    assert main(["i18n", "update"]) == 0
    sample = engine_domain("coin-club")
    sample.mapping.write_text("[python: **.py]\n", encoding="utf-8")  # the whole package, Coins too
    assert main(["i18n", "update"]) == 0
    told = capsys.readouterr().out
    assert ("warning: src/coin_club/locale/engine.coin-club.cfg: the messages of src/coin_club/coins.py are extracted "
            "into engine.coin-club, but its engine's words are looked up in engine.coins") in told, told
    assert main(["i18n", "check"]) == 0
    assert "the messages of src/coin_club/coins.py are extracted into engine.coin-club" in capsys.readouterr().out


def _override(locales: Path, language: str, domain: str, msgid: str, msgstr: str) -> None:
    from babel.messages.catalog import Catalog

    catalog = Catalog(locale=language, domain=domain)
    catalog.add(msgid, msgstr)
    path = locales / language / "LC_MESSAGES" / f"{domain}.po"
    path.parent.mkdir(parents=True)
    with path.open("wb") as f:
        write_po(f, catalog)


def test_an_engine_sentence_answers_to_the_projects_spelling_and_typography(tmp_path: Path) -> None:
    """Shown on a page, an engine's message is checked as a book's text is: under the project's
    glossary (``spelling:``) and its language's typography; one that fails is not shown."""
    from rulebook.i18n.domains import ENGINES

    locales = tmp_path / "locales"
    locales.mkdir()
    (locales / "glossary.yaml").write_text("spelling:\n  - language: en\n    avoid: [colour*]\n    use: color\nterms: []\n", encoding="utf-8")
    _override(locales, "en", ENGINES.name, "nobody", "no colour at all")
    _override(locales, "fr", ENGINES.name, "nobody", "personne !")
    english = load_messages(ENGINES, "en", locales)
    assert any("[spelling]" in str(p) and "'colour'" in str(p) for p in english.problems), english.problems
    assert english.translate(None, "nobody") == "nobody"  # the package's, not the project's failing one
    french = load_messages(ENGINES, "fr", locales)
    assert any("[typography]" in str(p) and "'personne !'" in str(p) for p in french.problems), french.problems
    assert french.translate(None, "nobody") == load_messages(ENGINES, "fr").translate(None, "nobody") != "personne !"
    # The glossary a caller gives is the one used: an empty one binds no spelling.
    assert load_messages(ENGINES, "en", locales, glossary=Glossary()).translate(None, "nobody") == "no colour at all"
