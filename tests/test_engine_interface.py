"""What an engine supplies to the translate and render stages (issue 29 point 2; docs/engines.md,
"What an engine supplies"): its printed names and its own symbols, through the engine interface
(``names()``, ``symbols()``, found by entry point), never by i18n or render importing an engine.
A plugin engine written here gets exactly what ours get; examples/sevens proves it from outside.
"""

from __future__ import annotations

import ast
import subprocess
import sys
import textwrap
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

from rulebook import engines
from rulebook.engines.base import PrintedName
from rulebook.errors import LoadError, RulebookError
from rulebook.i18n.checks import check_translation
from rulebook.i18n.glossary import load_glossary
from rulebook.loader import load_book
from rulebook.messages import msg, msg_p
from rulebook.render import Site
from rulebook.symbols import SYMBOLS, define

from .conftest import REPO, demo_book

PACKAGE = REPO / "src" / "rulebook"
#: What the stages may import of rulebook.engines: the registry (the package itself) and the
#: interface's types (base: PrintedName, the recorded Applied/Refused, chance under it).
INTERFACE = {"rulebook.engines", "rulebook.engines.base", "rulebook.engines.chance"}
STAGES = ("i18n", "render")


def _imported(path: Path, package: str = "") -> list[tuple[int, str]]:
    """(line, module) of every import in a module of the package (``package``: the one it is
    read as being in; default: where it is), relative ones made absolute; ``from X import a``
    counts ``X.a`` too (a submodule imported by name)."""
    package = package or ".".join(("rulebook", *path.relative_to(PACKAGE).parent.parts))
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parent, *([node.module] if node.module else [])])
            found.append((node.lineno, base))
            found += [(node.lineno, f"{base}.{alias.name}") for alias in node.names]
    return found


def _engine_modules() -> set[str]:
    """The modules that are engines: every registered entry point's, and every package or module
    under rulebook/engines that is not the interface."""
    ours = {f"rulebook.engines.{p.stem}" for p in (PACKAGE / "engines").iterdir() if p.suffix == ".py" or (p / "__init__.py").is_file()}
    return (ours | set(engines.registered().values())) - INTERFACE


def _is_engine(module: str, engine_modules: set[str]) -> bool:
    return any(module == m or module.startswith(m + ".") for m in engine_modules)


@pytest.mark.parametrize("stage", STAGES)
def test_the_stage_imports_no_engine(stage: str) -> None:
    """Names and symbols come through the interface: no module of i18n/ or render/ imports an
    engine (the glossary imported the casting engine for its card names)."""
    engine_modules = _engine_modules()
    assert "rulebook.engines.casting" in engine_modules  # the walk knows what it looks for
    found = [f"{path.relative_to(REPO)}:{line}: imports {module}"
             for path in sorted((PACKAGE / stage).rglob("*.py")) for line, module in _imported(path)
             if _is_engine(module, engine_modules)]
    assert found == [], "\n".join(found)


def test_the_walk_finds_an_engine_import(tmp_path: Path) -> None:
    """The walk itself: a module of i18n/ that imports an engine, relatively or not, is found;
    the registry and the interface's types are not engines."""
    written = tmp_path / "probe.py"
    written.write_text("from ..engines.casting import cards\nfrom ..engines import strage\nimport rulebook.engines.planechase\n"
                       "from ..engines.base import PrintedName\nfrom ..engines import registered\n", encoding="utf-8")
    lines = [line for line, m in _imported(written, "rulebook.i18n") if _is_engine(m, _engine_modules())]
    assert lines == [1, 1, 2, 3], lines


def test_importing_every_module_of_the_stages_loads_no_engine() -> None:
    """At run time too: importing all of i18n and render (what a build imports before it loads a
    book's engine by its entry point) brings in no engine module, directly or through another."""
    script = textwrap.dedent("""
        import importlib, pkgutil, sys
        import rulebook.i18n, rulebook.render
        for package in (rulebook.i18n, rulebook.render):
            for found in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
                importlib.import_module(found.name)
        print("\\n".join(sorted(m for m in sys.modules if m.startswith("rulebook.engines"))))
    """)
    loaded = set(subprocess.run([sys.executable, "-c", script], check=True, capture_output=True, text=True).stdout.split())
    assert loaded and not any(_is_engine(m, _engine_modules()) for m in loaded), sorted(loaded)


# --- a plugin engine, registered as a third party's would be -----------------------------------

PLUGIN = '''
from rulebook.engines.base import PrintedName
from rulebook.messages import msg_p
from rulebook.symbols import define

def symbols():
    return (define("pip", "\\u2022", msg_p("symbol", "one pip of the die")),)

def names():
    return (PrintedName.of({"it": "Dado Rosso", "en": "Red Die"}, "pipgame/data.yaml:3", "piece"),)
'''


@pytest.fixture
def plugin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """The engine ``pips`` (module ``pipgame``), registered beside ours."""
    (tmp_path / "pipgame.py").write_text(PLUGIN, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    ours = list(engines.entry_points(group=engines.GROUP))
    entry = EntryPoint(name="pips", value="pipgame", group=engines.GROUP)
    monkeypatch.setattr(engines, "entry_points", lambda group: [*ours, entry] if group == engines.GROUP else [])
    monkeypatch.delitem(sys.modules, "pipgame", raising=False)
    return "pips"


def _book(tmp_path: Path, text: str, engine: str) -> Path:
    path = tmp_path / "rules" / "demo.yaml"
    path.parent.mkdir(exist_ok=True)
    path.write_text(demo_book(f"""
sections:
  - id: primo
    title: Primo
    rules:
      - id: r1
        text: {text}
""", engine=engine), encoding="utf-8")
    return path


def test_a_plugin_engines_symbol_is_known_to_its_books_and_drawn_with_its_label(plugin: str, tmp_path: Path) -> None:
    book = load_book(_book(tmp_path, "Tira il dado {pip} e paga {W}.", plugin))
    page = Site({book.id: book}, (), locales=tmp_path / "locales", languages=["it", "en"]).book_page(book.id, "it").html
    # No catalog translates the label: it is shown in English, marked with its language.
    assert '<span class="rb-symbol rb-symbol--pip" role="img" aria-label="one pip of the die" title="one pip of the die" lang="en">\u2022</span>' in page
    assert 'aria-label="mana bianco"' in page  # the toolkit's symbols beside it, as before


def test_another_engines_book_does_not_know_the_symbol(plugin: str, tmp_path: Path) -> None:
    with pytest.raises(LoadError) as caught:
        load_book(_book(tmp_path, "Tira il dado {pip}.", "bingomagic"))
    assert str(caught.value).endswith("demo.yaml:13:15: unknown symbol {pip} in text of rule 'r1'; see docs/format.md for the list")


def test_a_token_neither_the_toolkit_nor_the_engine_knows_is_refused_naming_both(plugin: str, tmp_path: Path) -> None:
    with pytest.raises(LoadError) as caught:
        load_book(_book(tmp_path, "Tira il dado {pips}.", plugin))
    assert str(caught.value).endswith("demo.yaml:13:15: unknown symbol {pips} in text of rule 'r1'; "
                                      "see docs/format.md for the list; engine 'pips' adds {pip}")


def test_a_translation_keeps_the_engines_symbol(plugin: str) -> None:
    glossary = load_glossary(Path("/nonexistent"), names=(), source="it")
    assert check_translation("Tira {pip}.", "Roll {pip}.", "en", glossary) == []
    assert [text for _, text in check_translation("Tira {pip}.", "Roll {pop}.", "en", glossary)] == [
        "unknown symbol {pop}; only symbols of the source may be used", "symbol missing: {pip}; keep every symbol of the source"]


def test_a_plugin_engines_printed_names_bind_translations(plugin: str) -> None:
    names, problems = engines.printed_names()
    assert problems == () and PrintedName.of({"it": "Dado Rosso", "en": "Red Die"}, "pipgame/data.yaml:3", "piece") in names
    assert any(name.origin.endswith("cards.yaml:54") for name in names)  # ours come the same way: casting's cards,
    krosa = next(name for name in names if name.kind == "plane" and ("en", "Krosa") in name.names)  # planechase's planes
    assert ("fr", "Krosia") in krosa.names and ("ru", "Krosa") in krosa.names and krosa.origin.startswith("src/rulebook/engines/planes.py:")
    glossary = load_glossary(Path("/nonexistent"), source="it")
    assert check_translation("Il Dado Rosso.", "The Red Die.", "en", glossary) == []
    (found,) = check_translation("Il Dado Rosso.", "The red cube.", "en", glossary)
    assert found[0] == "glossary" and "Red Die" in found[1] and "pipgame/data.yaml:3" in found[1]


@pytest.mark.parametrize(("code", "glyph", "label", "error", "says"), [
    ("W", "w", msg_p("symbol", "white"), ValueError, "a symbol of the toolkit already"),
    ("a b", "x", msg("x"), ValueError, "1-20 letters"),
    ("ok", "", msg("x"), ValueError, "the glyph"),
    ("ok", "x", "plain English", TypeError, "the label is a message"),
])
def test_a_symbol_is_defined_with_a_new_code_a_glyph_and_a_message(code: str, glyph: str, label: object, error: type[Exception],
                                                                    says: str) -> None:
    with pytest.raises(error, match=says):
        define(code, glyph, label)  # type: ignore[arg-type]
    assert "{ok}" not in SYMBOLS


def test_a_hook_that_returns_something_else_is_an_error_naming_the_engine(plugin: str, tmp_path: Path,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    import pipgame  # type: ignore[import-not-found]

    monkeypatch.setattr(pipgame, "symbols", lambda: ["{pip}"])
    monkeypatch.setattr(pipgame, "names", lambda: [{"it": "Dado"}])
    with pytest.raises(RulebookError, match="engine 'pips': symbols\\(\\) returns symbols made by rulebook.symbols.define"):
        engines.engine_symbols(plugin)
    with pytest.raises(RulebookError, match="engine 'pips': names\\(\\) returns rulebook.engines.base.PrintedName"):
        engines.printed_names()
