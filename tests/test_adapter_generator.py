"""adapters/generator.py: the plugin runs under MkDocs or properdocs through MkDocs' documented
plugin API only, and the package imports with either installed (.ci/run runs this module under
properdocs alone too).
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

from rulebook.adapters import generator

SRC = Path(generator.__file__).resolve().parents[1]

#: The generator's modules the package uses: MkDocs' plugin API (plugins, exceptions, structure,
#: config: dev-guide/plugins.md and api.md), and for `rulebook serve` its serve command and the
#: mkdocs.yml reader that resolves !ENV and INHERIT as it does.
DOCUMENTED = {"plugins", "exceptions", "structure.files", "structure.nav", "structure.pages", "structure.toc",
              "config", "config.base", "config.config_options", "config.defaults", "commands.serve", "utils.yaml"}


#: What the adapter names for the type checker alone (under ``if TYPE_CHECKING:``): the classes of
#: the plugin API's own signatures (on_serve's server, the template context) besides the above.
TYPES_ONLY = {"livereload", "utils.templates"}


def _type_checking_only(tree: ast.AST) -> set[int]:
    return {id(node) for block in ast.walk(tree) if isinstance(block, ast.If) and isinstance(block.test, ast.Name)
            and block.test.id == "TYPE_CHECKING" for statement in block.body for node in ast.walk(statement)}


def imports(path: Path, *, type_checking: bool = False) -> set[str]:
    """The modules ``path`` imports when it runs (or, with ``type_checking``, those it names for
    the type checker alone)."""
    names = set()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    checker_only = _type_checking_only(tree)
    for node in ast.walk(tree):
        if (id(node) in checker_only) != type_checking:
            continue
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


def test_only_the_adapter_imports_the_generator():
    found = {str(path.relative_to(SRC)): sorted(name for name in imports(path) if name.split(".")[0] in ("mkdocs", "properdocs"))
             for path in SRC.rglob("*.py")}
    assert {path: names for path, names in found.items() if names} == {"adapters/generator.py": ["mkdocs", "properdocs"]}


def test_the_type_checker_is_shown_only_the_plugin_api():
    named = {name.partition(".")[2] for name in imports(SRC / "adapters" / "generator.py", type_checking=True)}
    assert named and named <= DOCUMENTED | TYPES_ONLY, sorted(named - DOCUMENTED - TYPES_ONLY)
    elsewhere = {str(path.relative_to(SRC)) for path in SRC.rglob("*.py") if path.name != "generator.py"
                 and any(name.split(".")[0] in ("mkdocs", "properdocs") for name in imports(path, type_checking=True))}
    assert elsewhere == set()


def test_the_package_takes_only_documented_modules_of_the_generator():
    used = set()
    for path in SRC.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", None)) == "module" \
                    and node.args and isinstance(node.args[0], ast.Constant):
                used.add(node.args[0].value)
    assert used and used <= DOCUMENTED, sorted(used - DOCUMENTED)


def test_the_package_and_its_plugin_import_with_the_generator_installed():
    # A fresh interpreter: nothing this test session imported helps it.
    code = "import rulebook.cli, rulebook.mkdocs_plugin, rulebook.preview; from rulebook.adapters import generator; print(generator.NAME)"
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == generator.NAME


def test_the_commands_that_need_no_generator_run_without_one(tmp_path):
    # Neither mkdocs nor properdocs importable: `rulebook check` still runs (only `serve` needs one).
    code = ("import sys\n"
            "class Block:\n"
            "    def find_spec(self, name, path=None, target=None):\n"
            "        if name.split('.')[0] in ('mkdocs', 'properdocs'): raise ModuleNotFoundError(name)\n"
            "sys.meta_path.insert(0, Block())\n"
            "from rulebook.cli import main\n"
            "sys.exit(main(['check', sys.argv[1]]))\n")
    rules = Path(__file__).resolve().parents[1] / "rules" / "bingomagic.yaml"
    run = subprocess.run([sys.executable, "-c", code, str(rules)], capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert "mkdocs" not in run.stderr
