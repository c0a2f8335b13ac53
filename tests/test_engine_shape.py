"""One engine shape in fact: the same dispatch, phase type and error classes in all five engines,
engines found as plugins, and a package whose imports only go downward."""

from __future__ import annotations

import ast
import dataclasses
import enum
import functools
import random
import textwrap
import types
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

from rulebook import engines
from rulebook.engines import bidomino, bingomagic, casting, planechase, strage
from rulebook.engines.base import State, evolve
from rulebook.errors import IllegalAction, RulebookError
from rulebook.examples import run_books
from rulebook.loader import load_book
from tests.conftest import MINIMAL, demo_book

ENGINES = {"bingomagic": bingomagic, "bidomino": bidomino, "casting": casting, "planechase": planechase, "strage": strage}
PACKAGE = Path(engines.__file__).resolve().parent.parent  # src/rulebook


def state_class(module: types.ModuleType) -> type[State]:
    (found,) = {v for v in vars(module).values() if isinstance(v, type) and issubclass(v, State) and v is not State}
    return found


@pytest.mark.parametrize("name", ENGINES)
def test_every_action_has_its_handler_and_every_handler_an_action(name):
    module = ENGINES[name]
    actions = set(module.ACTIONS)
    assert set(state_class(module).handlers) == actions
    assert {a.__name__ for a in actions} <= set(module.__all__), "every action class is exported"


def test_a_handler_table_holds_action_classes_and_functions():
    with pytest.raises(TypeError, match="maps action classes to functions"):
        class Wrong(bingomagic.BingoState):  # noqa: F841 - defining it is the test
            handlers = {"Pass": lambda self, action, trace: self}


def test_an_action_class_with_the_same_name_is_not_taken_for_the_real_one():
    # Dispatch is by the class itself, never by its name.
    class Pass:
        pass

    with pytest.raises(IllegalAction, match=r"\[turno\] .* is not a BingoMagic action"):
        bingomagic.BingoState.setup(hands=("W", "G")).apply(Pass())


FRESH = {
    "bingomagic": lambda: bingomagic.new_game(random.Random(1)),
    "bidomino": lambda: bidomino.new_game(players=2),
    "casting": lambda: casting.setup(hand=["Lightning Bolt"]),
    "planechase": lambda: planechase.new_game(random.Random(1), players=3),
    "strage": lambda: strage.new_game(random.Random(1)),
}


@pytest.mark.parametrize("name", ENGINES)
def test_evolve_makes_what_dataclasses_replace_makes(name):
    state = FRESH[name]()
    # A state made after a few plays, so that its fields hold more than their defaults.
    rng = random.Random(2)
    for _ in range(6):
        if state.is_over:
            break
        state = state.apply(state.sample_chance(rng) if state.is_chance else rng.choice(list(state.legal_actions()))).state
    marker = ("a value no field holds",)
    for f in dataclasses.fields(state):
        made, expected = evolve(state, **{f.name: marker}), dataclasses.replace(state, **{f.name: marker})
        assert type(made) is type(expected) and made == expected and repr(made) == repr(expected)
        assert vars(made) == vars(expected) and getattr(made, f.name) is marker
    assert evolve(state) == state and evolve(state) is not state
    with pytest.raises(TypeError, match="no field"):
        evolve(state, no_such_field=1)


def test_evolve_leaves_a_class_that_checks_or_converts_to_its_init():
    @dataclasses.dataclass(frozen=True)
    class Doubled:
        n: int
        twice: int = dataclasses.field(init=False)

        def __post_init__(self):
            if self.n < 0:
                raise ValueError("negative")
            object.__setattr__(self, "twice", 2 * self.n)

    assert evolve(Doubled(1), n=4).twice == 8
    with pytest.raises(ValueError, match="negative"):
        evolve(Doubled(1), n=-1)


@pytest.mark.parametrize("name", ENGINES)
def test_phases_are_enums(name):
    state = FRESH[name]()
    assert isinstance(state.phase, enum.Enum)


@pytest.mark.parametrize(("name", "players"), [
    ("bingomagic", 3), ("bidomino", 7), ("casting", 3), ("planechase", 1), ("strage", 2),
])
def test_a_player_count_the_game_does_not_allow_is_an_illegal_action(name, players):
    with pytest.raises(IllegalAction):
        ENGINES[name].new_game(random.Random(0), players=players)


@pytest.mark.parametrize(("name", "attempt"), [
    ("bingomagic", lambda: bingomagic.BingoState.setup(hands=("W", "G")).apply(bingomagic.Place(bingomagic.SWAMP))),
    ("bidomino", lambda: bidomino.position(hands=["K♥ 4♣ 9♦ 9♠", "7♣ 8♦ 2♠ 5♥"]).play("discard A♠")),
    ("casting", lambda: casting.setup(hand=["Lightning Bolt"]).apply(casting.Cast("no-such-card"))),
    ("casting", lambda: casting.setup(hand=["No Such Card"])),
    ("planechase", lambda: planechase.started([["Agyrem"], ["Bant"], ["Naya"]], casual=True).apply(planechase.Leave(7))),
    ("strage", lambda: strage.StrageState.setup(red="c4", ap=2).apply(strage.Move("d4", "d5"))),
])
def test_an_unknown_id_is_an_illegal_action(name, attempt):
    with pytest.raises(IllegalAction):
        attempt()


# --- engines are plugins -----------------------------------------------------------------------

def test_our_engines_are_registered_entry_points():
    assert {name: value for name, value in engines.registered().items() if name in ENGINES} == {
        name: f"rulebook.engines.{name}" for name in ENGINES
    }
    assert all(engines.load_engine(name) is module for name, module in ENGINES.items())


def test_a_third_party_engine_registered_by_entry_point(write_rules, monkeypatch, tmp_path):
    # What `pip install` of a package declaring [project.entry-points."rulebook.engines"] does.
    (tmp_path / "dicegame.py").write_text("__all__ = ['roll']\ndef roll():\n    return 4\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    ours = list(engines.entry_points(group=engines.GROUP))
    plugin = EntryPoint(name="dice", value="dicegame", group=engines.GROUP)
    monkeypatch.setattr(engines, "entry_points", lambda group: [*ours, plugin] if group == engines.GROUP else [])
    book = MINIMAL.replace("engine: bingomagic", "engine: dice").replace("len(standard_deck())\n              60", "roll()\n              4")
    (outcome,) = run_books([load_book(write_rules(book))])
    assert outcome.passed, outcome.report()


def test_an_engine_installed_or_removed_while_running_is_seen(monkeypatch, tmp_path):
    # The entry points are read once and kept (a build asks per book); what `pip install` and
    # `pip uninstall` change (a *.dist-info in a sys.path directory), and sys.path, read them again.
    monkeypatch.syspath_prepend(str(tmp_path))
    assert "coins" not in engines.registered()
    info = tmp_path / "coingame-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: coingame\nVersion: 1.0\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(f"[{engines.GROUP}]\ncoins = coingame.engine\n", encoding="utf-8")
    assert engines.registered()["coins"] == "coingame.engine"
    for written in info.iterdir():
        written.unlink()
    info.rmdir()
    assert "coins" not in engines.registered()
    monkeypatch.undo()
    assert engines.registered() == {ep.name: ep.value for ep in engines.entry_points(group=engines.GROUP)}


def test_a_dotted_module_path_names_an_engine_too(write_rules):
    book = MINIMAL.replace("engine: bingomagic", "engine: rulebook.engines.bingomagic")
    (outcome,) = run_books([load_book(write_rules(book))])
    assert outcome.passed, outcome.report()


def test_a_missing_or_broken_engine_is_an_error_at_the_books_engine_line(write_rules, monkeypatch, tmp_path):
    (tmp_path / "brokengame.py").write_text("import no_such_dependency\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))

    def refusal(engine: str) -> str:
        (outcome,) = run_books([load_book(write_rules(MINIMAL.replace("engine: bingomagic", f"engine: {engine}")))])
        return outcome.failures[0].got

    assert refusal("nosuchgame.rules").startswith("rules/demo.yaml:6: no engine 'nosuchgame.rules': no such module")
    assert refusal("nosuchgame").startswith("rules/demo.yaml:6: no engine 'nosuchgame': registered engines are")
    assert refusal("brokengame").startswith("rules/demo.yaml:6: no engine 'brokengame': registered engines are")
    assert refusal("brokengame.rules") == ("rules/demo.yaml:6: engine module 'brokengame.rules' is broken: "
                                          "ModuleNotFoundError: No module named 'no_such_dependency'")


def test_a_broken_registered_engine_names_its_entry_point(write_rules, monkeypatch):
    broken = EntryPoint(name="broken", value="no_such_package.engine", group=engines.GROUP)
    monkeypatch.setattr(engines, "entry_points", lambda group: [broken])
    (outcome,) = run_books([load_book(write_rules(MINIMAL.replace("engine: bingomagic", "engine: broken")))])
    assert outcome.failures[0].got.startswith(
        "rules/demo.yaml:6: engine 'broken' (the entry point broken = no_such_package.engine) is broken: ModuleNotFoundError")


# --- cards are data a book can extend ---------------------------------------------------------

EXTRA_CARDS = """
cards:
  - name: Thorn of Amethyst
    cost: "{2}"
    type: Artifact
    cost_modifiers: [{stage: increase, amount: "{1}", spells: noncreature}]
    names: {it: Spina d'Ametista, en: Thorn of Amethyst}
"""

THORN_EXAMPLE = """
        examples:
          - id: spina
            text: La Spina rende più caro il Fulmine.
            doctest: |
              >>> game = setup(hand=["Lightning Bolt"], battlefield=["Thorn of Amethyst"])
              >>> game.total_cost(Cast("lightning-bolt", targets="p2")).total
              ManaCost('{1}{R}')
"""


def casting_book(examples: str, data: str = "") -> str:
    sections = f"""
sections:
  - id: primo
    title: Primo
    rules:
      - id: r1
        text: Uno.{examples}"""
    return demo_book(sections, engine="casting").replace("  engine: casting\n", f"  engine: casting\n{data}")


def test_a_book_names_extra_card_files_the_engine_reads(write_rules):
    path = write_rules(casting_book(THORN_EXAMPLE, "  engine_data: [extra-cards.yaml]\n"))
    (path.parent / "extra-cards.yaml").write_text(EXTRA_CARDS.lstrip(), encoding="utf-8")
    book = load_book(path)
    assert book.engine_data == ("extra-cards.yaml",)
    (outcome,) = run_books([book])
    assert outcome.passed, outcome.report()
    # Without the file the same example knows no Thorn of Amethyst.
    (outcome,) = run_books([load_book(write_rules(casting_book(THORN_EXAMPLE)))])
    assert "no card 'Thorn of Amethyst'" in outcome.failures[0].got


def test_an_error_in_a_card_file_names_its_file_line_and_column(write_rules):
    path = write_rules(casting_book(THORN_EXAMPLE, "  engine_data: [extra-cards.yaml]\n"))
    broken = EXTRA_CARDS.replace("    cost_modifiers:", "    cost: '{3}'\n    cost_modifiers:").replace("stage: increase", "stage: sometimes")
    (path.parent / "extra-cards.yaml").write_text(broken.lstrip(), encoding="utf-8")
    (outcome,) = run_books([load_book(path)])
    got = outcome.failures[0].got
    assert "rules/extra-cards.yaml:5:5: duplicate key 'cost' (first at line 3); remove one" in got, got


def test_a_missing_card_file_is_a_load_error_at_its_line(write_rules):
    from rulebook.errors import LoadError

    with pytest.raises(LoadError, match=r"rules/demo\.yaml:7:17: engine data file 'nowhere\.yaml' not found"):
        load_book(write_rules(casting_book(THORN_EXAMPLE, "  engine_data: [nowhere.yaml]\n")))


def refusals(path, text: str) -> list[tuple[int, int, str]]:
    """(line, column, message) of every problem the card reader finds in ``text`` written to ``path``."""
    from rulebook.errors import LoadError

    path.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    with pytest.raises(LoadError) as refused:
        casting.cards.read_card_file(path)
    return [(p.line, p.column, str(p).split(": ", 1)[1]) for p in refused.value.problems]


def test_card_values_are_checked_with_their_position(tmp_path):
    # Lines and columns counted by hand in the text: the value "one", the value "maybe", the key "english".
    assert refusals(tmp_path / "cards.yaml", """
        cards:
          - name: Goat
            cost: "{G}"
            type: Creature — Goat
            targets: [{min: one, max: 1, filter: creature}]
            abilities: [{id: mana, tap: maybe, adds: G}]
            names: {it: Capra, english: Goat}
        """) == [
        (5, 21, "min of a target word of card 'Goat' must be a whole number, not 'one'"),
        (6, 33, "tap must be true or false, not 'maybe'"),
        (7, 24, "'english' in names of card 'Goat' is not a language code such as 'it' or 'pt_BR'"),
    ]


def test_the_source_of_each_card_name_is_checked_with_its_position(tmp_path):
    cards = tmp_path / "cards.yaml"
    text = """
        cards:
          - name: Goat
            cost: "{G}"
            type: Creature — Goat
            names: {it: Capra, en: Goat, fr: Chèvre, ru: Goat}
            sources: {it: M10, en: Alpha, fr: not printed, ru: not printed, de: M10}
        """
    # Counted by hand: the values "Alpha" and "not printed" (fr), the key "de"; ru's English name is accepted.
    assert refusals(cards, text) == [
        (6, 28, "the en source of card 'Goat' is 'Alpha': write the set code of the printing (M10, ARB …) or 'not printed'"),
        (6, 39, "the fr name of card 'Goat' is 'Chèvre', but its source says 'not printed'; give the set it was printed in, or keep the English name"),
        (6, 69, "'de' in sources of card 'Goat' has no name; sources name the printing of each name in names"),
    ]
    cards.write_text(textwrap.dedent(text.replace("en: Alpha", "en: LEA").replace("fr: not printed", "fr: M10").replace(", de: M10", "")),
                     encoding="utf-8")
    (goat,) = casting.cards.read_card_file(cards)
    assert goat.sources == {"it": "M10", "en": "LEA", "fr": "M10", "ru": "not printed"}


def test_an_example_defines_a_card_inline(write_rules):
    inline = THORN_EXAMPLE.replace(
        '>>> game = setup(hand=["Lightning Bolt"], battlefield=["Thorn of Amethyst"])',
        '>>> thorn = define("Thorn of Amethyst", "{2}", "Artifact", {"en": "Thorn of Amethyst"},\n'
        '              ...                cost_modifiers=[{"stage": "increase", "amount": "{1}", "spells": "noncreature"}])\n'
        '              >>> game = setup(hand=["Lightning Bolt"], battlefield=["Thorn of Amethyst"], cards=[thorn])')
    (outcome,) = run_books([load_book(write_rules(casting_book(inline)))])
    assert outcome.passed, outcome.report()


def test_engine_data_for_an_engine_that_reads_none_is_an_error(write_rules, tmp_path):
    path = write_rules(MINIMAL.replace("  engine: bingomagic\n", "  engine: bingomagic\n  engine_data: [x.yaml]\n"))
    (path.parent / "x.yaml").write_text("x: 1\n", encoding="utf-8")
    (outcome,) = run_books([load_book(path)])
    assert outcome.failures[0].got.startswith("rules/demo.yaml:7: engine 'bingomagic' reads no engine_data")


# --- imports go downward -------------------------------------------------------------------------

def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


IMPORTS = (ast.Import, ast.ImportFrom)
FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)


@functools.cache
def package_imports() -> dict[Path, tuple[tuple[ast.Import | ast.ImportFrom, bool], ...]]:
    """Every import statement of every module of the package, and whether it is inside a
    function: each file parsed once for the tests below, which all read them. Only the import
    nodes are kept: the whole trees (some 100,000 nodes) would make every later garbage
    collection of the worker slower."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        in_functions = {id(node) for function in ast.walk(tree) if isinstance(function, FUNCTIONS)
                        for node in ast.walk(function) if isinstance(node, IMPORTS)}
        found[path] = tuple((node, id(node) in in_functions) for node in ast.walk(tree) if isinstance(node, IMPORTS))
    return found


@functools.cache
def type_checking_only() -> set[tuple[Path, int]]:
    """(file, line) of each import under ``if TYPE_CHECKING:``: an annotation's name (a handler
    module's functions take the state class that imports them), never imported at run time."""
    found = set()
    for path in sorted(PACKAGE.rglob("*.py")):
        for block in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(block, ast.If) and isinstance(block.test, ast.Name) and block.test.id == "TYPE_CHECKING":
                found.update((path, node.lineno) for statement in block.body for node in ast.walk(statement) if isinstance(node, IMPORTS))
    return found


@functools.cache
def import_graph() -> dict[str, set[str]]:
    """Every module of the package -> the package modules it imports, at any level of the file
    (a function-level import counts: it is how a cycle hides). Made once: the tests only read it."""
    files = {_module_name(p): p for p in package_imports()}
    graph: dict[str, set[str]] = {name: set() for name in files}
    for name, path in files.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node, _ in package_imports()[path]:
            if (path, node.lineno) in type_checking_only():
                continue  # never run: the type checker's view of a handler's state, not a layer
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            else:
                base = node.module or ""
                if node.level:
                    anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join(anchor + ([base] if base else []))
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in files else base for a in node.names]
            graph[name].update(t for t in targets if t in files and t != name)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for following in sorted(graph[node]):
            if following not in index:
                visit(following)
                low[node] = min(low[node], low[following])
            elif following in stack:
                low[node] = min(low[node], index[following])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_import_cycle_anywhere_in_the_package():
    graph = import_graph()
    assert "rulebook.engines.casting.game" in graph["rulebook.engines.casting"]  # the walk sees imports
    assert cycles(graph) == []


def test_the_cycle_check_sees_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_engines_import_no_stage_above_them():
    above = ("rulebook.examples", "rulebook.i18n", "rulebook.render", "rulebook.mkdocs_plugin", "rulebook.cli", "rulebook.pytest_plugin")
    graph = import_graph()
    upward = {(m, t) for m, targets in graph.items() if m.startswith("rulebook.engines") for t in targets if t.startswith(above)}
    assert upward == set()
    assert not any(t.startswith("rulebook.engines") for t in graph["rulebook.render.figures"])


def test_no_function_level_import_in_the_engines():
    engine_files = [path for path in package_imports() if path.is_relative_to(PACKAGE / "engines")]
    assert len(engine_files) > 20
    inside = [f"{path.name}:{node.lineno}" for path in engine_files for node, in_function in package_imports()[path] if in_function]
    assert inside == []


# --- every template escapes ----------------------------------------------------------------------

def test_autoescaping_is_on_for_every_template():
    import jinja2

    from rulebook.render import pages

    environments = [v for v in vars(pages).values() if isinstance(v, jinja2.Environment)]
    assert environments, "the render layer's Jinja environment"
    for env in environments:
        names = env.list_templates()
        assert names
        for name in names:
            on = env.autoescape(name) if callable(env.autoescape) else env.autoescape
            assert on is True, f"{name} is rendered without autoescaping"
            source = env.loader.get_source(env, name)[0]
            assert "autoescape false" not in source.replace("  ", " "), name
            hostile = env.get_template(name).environment.from_string("{{ x }}").render(x="<script>")
            assert hostile == "&lt;script&gt;"


def test_setting_a_wrong_engine_name_type_is_refused_plainly():
    with pytest.raises(RulebookError, match="no engine"):
        engines.load_engine("nope")


# --- the contract's own worked skeleton works as written ------------------------------------------

DOCS = Path(__file__).resolve().parent.parent / "docs" / "engines.md"


def skeleton_block(kind: str, starting: str) -> str:
    import re

    blocks = re.findall(rf"```{kind}\n(.*?)```", DOCS.read_text(encoding="utf-8"), re.S)
    (found,) = [b for b in blocks if b.lstrip().startswith(starting)]
    return found


def test_the_skeleton_in_docs_engines_md_is_a_working_engine(write_rules, monkeypatch, tmp_path, capsys):
    package = tmp_path / "coinsgame"
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "engine.py").write_text(skeleton_block("python", "import random"), encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    module = engines.load_engine("coinsgame.engine")
    assert set(module.Coins.handlers) == set(module.ACTIONS)
    doctest = textwrap.indent(skeleton_block("yaml", "doctest:").split("|", 1)[1].strip("\n"), "    ")
    book = MINIMAL.replace("engine: bingomagic", "engine: coinsgame.engine").replace(
        "            doctest: |\n              >>> len(standard_deck())\n              60\n",
        "            doctest: |\n" + textwrap.indent(textwrap.dedent(doctest), " " * 14) + "\n")
    (outcome,) = run_books([load_book(write_rules(book))])
    assert outcome.passed and outcome.attempted == 3, outcome.report()
    from rulebook.cli import main

    assert main(["play", "coinsgame.engine", "--seed", "2"]) == 0
    assert "outcome: " in capsys.readouterr().out
