"""`rulebook new`: a project that passes its own checks at once, in any source language.

The first test installs the new project as its README says (`pip install -e .`, which reads its
pyproject.toml: package, entry point, pytest configuration) into a virtual environment of its
own, and runs the project's three commands there. That environment borrows this one's packages
(the toolkit under test among them) instead of downloading them again, to stay fast; the
complete proof, a fresh environment installed from nothing, is `.ci/run`'s example step.
"""

from __future__ import annotations

import importlib
import os
import random
import re
import subprocess
import sys
import sysconfig
import time
from pathlib import Path

import pytest
import yaml
from babel.messages.pofile import read_po

from rulebook.cli import main
from rulebook.engines.base import playout
from rulebook.errors import IllegalAction
from rulebook.i18n.catalogs import update_catalog
from rulebook.i18n.domains import SITE, load_messages, write_domain_template
from rulebook.loader import load_book
from rulebook.languages import language
from rulebook.messages import Message
from tests.conftest import unpublished_language
from rulebook.scaffold import SAMPLE_ENGINE, SCAFFOLD, engine_messages, has_sample, plan, toolkit_install

REPO = Path(__file__).resolve().parents[1]
#: A language the toolkit ships no sample words for (German today): a project's to translate.
NEW = unpublished_language()


def borrowing_venv(where: Path) -> Path:
    """A virtual environment of its own that also sees this environment's installed packages."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(where)], check=True)
    python = where / "bin" / "python"
    purelib = subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                             check=True, capture_output=True, text=True).stdout.strip()
    ours = sysconfig.get_paths()["purelib"]
    # addsitedir also reads that folder's .pth files: the toolkit's editable install among them.
    Path(purelib, "borrowed.pth").write_text(f"import site; site.addsitedir({ours!r})\n", encoding="utf-8")
    return python


def run_all(python: Path, commands: dict[str, list[str]], cwd: Path) -> dict[str, tuple[int, str]]:
    """Each command under ``python`` in ``cwd``, side by side: name -> (exit code, output)."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "CI")}
    running = {name: subprocess.Popen([str(python), *args], cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                      text=True) for name, args in commands.items()}
    return {name: (process.wait(timeout=300), process.stdout.read()) for name, process in running.items()}


@pytest.mark.slow
def test_a_new_project_passes_its_check_tests_and_strict_build_at_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    started = time.perf_counter()
    project = tmp_path / "pig"
    shipped = {p: p.stat().st_mtime_ns for p in SITE.locale_dir.rglob("*.po*")}
    monkeypatch.chdir(REPO)  # run from inside the toolkit's checkout: the project alone is written
    assert main(["new", str(project)]) == 0
    assert {p: p.stat().st_mtime_ns for p in SITE.locale_dir.rglob("*.po*")} == shipped
    python = borrowing_venv(tmp_path / "venv")
    # The project's build backend, setuptools, is this environment's (the test extra's): nothing is downloaded.
    installed = subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-index", "--no-deps",
                                "--no-build-isolation", "-e", str(project)], capture_output=True, text=True, timeout=300)
    assert installed.returncode == 0, installed.stderr
    done = run_all(python, {"check": ["-m", "rulebook.cli", "check"], "pytest": ["-m", "pytest", "-p", "no:cacheprovider"],
                            "build": ["-m", "mkdocs", "build", "--strict"], "play": ["-m", "rulebook.cli", "play", "pig", "--seed", "1"]},
                   cwd=project)
    for name, (code, output) in done.items():
        assert code == 0, f"{name}:\n{output}"
    assert "1 book, 1 example, 0 failed" in done["check"][1]
    # The engine's tests, the translation tests and the rulebook's worked example all ran.
    tested = done["pytest"][1]
    assert "tests/test_engine.py" in tested and "tests/test_translations.py" in tested and "rules/pig.yaml ." in tested
    assert "outcome: " in done["play"][1]
    italian = (project / "site" / "it" / "pig" / "index.html").read_text(encoding="utf-8")
    # The rulebook is translated, and so are the engine's own sentences (each example's steps,
    # above its doctest): the engine's messages in its domain engine.pig, shipped translated.
    # Nothing is shown in English, marked; the die face is drawn as a die.
    steps = "".join(re.findall(r'<div class="rb-steps">.*?</div>', italian, flags=re.S))
    assert "Come si gioca" in italian and "data-rb-state" not in italian
    assert "il giocatore 0 tira il dado" in steps and 'class="rb-die"' in steps, steps
    print(f"scaffold, install and the project's commands: {time.perf_counter() - started:.1f} s")


def test_the_engine_speaks_in_gettext_messages_that_i18n_extracts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    project = tmp_path / "pig"
    chosen = plan(project, "Pig", "en", ["it", NEW])
    assert main(["new", str(project), "-l", "it", "-l", NEW]) == 0
    assert f"src/pig/locale/{NEW}/LC_MESSAGES/engine.pig.po is yours to translate" in capsys.readouterr().out
    domain = engine_messages(chosen)
    assert domain.mapping.exists() and domain.languages() == sorted([NEW, "en", "it"])
    with domain.template.open("rb") as f:
        extracted = {m.id if isinstance(m.id, str) else m.id[0] for m in read_po(f) if m.id}
    # Importable as `pip install -e .` makes it (the book's `engine: pig` is then the module pig):
    # `rulebook i18n` finds the engine's domain beside its module, template and catalogs current.
    monkeypatch.syspath_prepend(str(project / "src"))
    try:
        engine = importlib.import_module("pig.engine")
        assert _in(project, monkeypatch, "i18n", "update", "--check") == 0
        told = capsys.readouterr().out
        assert "up to date src/pig/locale/it/LC_MESSAGES/engine.pig.po" in told, told
        assert _in(project, monkeypatch, "i18n", "check") == 0
        # Everything a game says, and a refusal, is a message whose msgid the template holds.
        rng = random.Random(5)
        said = [fired.what for _, step in playout(engine.new_game(rng), rng, 5_000) for fired in step.trace]
        with pytest.raises(IllegalAction) as refused:
            engine.Game().apply(engine.Hold())
        said += [refused.value.message, engine.Phase.TURN.value]
        assert said and all(isinstance(s, Message) and s.msgid in extracted for s in said), said
    finally:
        for name in [n for n in sys.modules if n.partition(".")[0] == "pig"]:  # later tests make their own pig
            del sys.modules[name]
    # Italian from the sample engine's catalog; English its own text; the new language left to translate.
    italian = _catalog_by_id(domain.catalog("it"))
    assert italian["player {player} rolls the die"] == "il giocatore {player} tira il dado" and all(italian.values())
    assert not any(_catalog_by_id(domain.catalog(NEW)).values())


def _catalog_by_id(path: Path) -> dict[str, object]:
    with path.open("rb") as f:
        return {m.id if isinstance(m.id, str) else m.id[0]: (m.string if isinstance(m.string, str) else all(m.string) and m.string)
                for m in read_po(f) if m.id}


def test_the_project_has_every_file_its_readme_names(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "p"
    root.mkdir()
    monkeypatch.chdir(root)
    assert main(["new"]) == 0  # into this folder, empty
    root = Path(".")
    told = capsys.readouterr().out
    readme = (root / "README.md").read_text(encoding="utf-8")
    for name in ("rules/pig.yaml", "src/pig/engine.py", "locales/", "tests/", "mkdocs.yml", "site_overrides/", ".ci/run"):
        assert f"`{name}" in readme and (root / name).exists(), name
    assert os.access(root / ".ci" / "run", os.X_OK)
    assert "python -m pytest" in readme and "mkdocs build --strict" in readme
    assert "  .venv/bin/pip install" not in told and told.count("  python3 -m venv .venv && .venv/bin/pip install") == 2
    pyproject = (root / "pyproject.toml").read_text(encoding="utf-8")
    assert '[project.entry-points."rulebook.engines"]\npig = "pig.engine"' in pyproject
    assert "rulebook>=0.1,<0.2" in pyproject
    # Any clone works on any machine: no file names a folder of this one (the toolkit's
    # checkout, from which it is installed here, is said on the terminal only).
    for path in root.rglob("*"):
        if path.is_file() and path.suffix not in (".mo",):
            text = path.read_text(encoding="utf-8")
            assert str(REPO) not in text and str(root.resolve()) not in text, path
            assert not toolkit_install() or toolkit_install() not in text, path
    assert toolkit_install() in told  # this machine's extra step (where the toolkit is installed from), printed
    assert ".cache/" in (root / ".gitignore").read_text(encoding="utf-8").splitlines()
    # The guides the README names are in the project, and every link between them leads to one.
    named = re.findall(r"\]\((docs/[\w.-]+\.md)\)", readme)
    assert {"docs/new-game.md", "docs/new-language.md", "docs/format.md", "docs/engines.md"} <= set(named)
    for guide in named:
        text = (root / guide).read_text(encoding="utf-8")
        for target in re.findall(r"\]\(([\w-]+\.md)(?:#[\w-]*)?\)", text):
            assert (root / "docs" / target).exists(), f"{guide} links to {target}"


def _in(project: Path, monkeypatch: pytest.MonkeyPatch, *command: str) -> int:
    with monkeypatch.context() as patch:
        patch.chdir(project)
        return main(list(command))


def test_an_italian_source_translated_into_english_and_german(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    project = tmp_path / "assi"
    assert main(["new", str(project), "--game", "Scopa d'Assi", "--source", "it", "-l", "en", "-l", NEW]) == 0
    out = capsys.readouterr().out
    book = load_book(project / "rules" / "scopa-d-assi.yaml")
    assert book.language == "it" and book.title == "Scopa d'Assi" and book.engine == "scopa-d-assi"
    assert (project / "src" / "scopa_d_assi" / "engine.py").exists()
    assert "Come si gioca" in (project / "rules" / "scopa-d-assi.yaml").read_text(encoding="utf-8")
    languages = next(p["rulebook"]["languages"] for p in yaml.load((project / "mkdocs.yml").read_text(encoding="utf-8"),
                     Loader=yaml.BaseLoader)["plugins"] if isinstance(p, dict) and "rulebook" in p)
    assert languages == ["it", "en", NEW]
    english = _catalog(project, "en", "scopa-d-assi")
    assert english["scopa-d-assi/play:title"] == "How to play" and all(english.values())
    german = _catalog(project, NEW, "scopa-d-assi")
    assert german and not any(german.values())  # ours to translate: shown in Italian, marked
    assert (project / "locales" / NEW / "LC_MESSAGES" / "site.po").exists()  # the package has no site words in it
    assert f"locales/{NEW}/LC_MESSAGES/scopa-d-assi.po is yours to translate" in out
    assert _in(project, monkeypatch, "i18n", "update", "--check") == 0
    assert _in(project, monkeypatch, "i18n", "check") == 0


def _catalog(project: Path, lang: str, book: str) -> dict[str, str]:
    with (project / "locales" / lang / "LC_MESSAGES" / f"{book}.po").open("rb") as f:
        return {m.context: m.string for m in read_po(f) if m.id}


@pytest.mark.parametrize("source", ["en", *SCAFFOLD.languages()])
def test_the_sample_is_written_in_each_language_we_ship(source: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = "en" if source != "en" else "fr"
    project = tmp_path / source
    assert main(["new", str(project), "--source", source, "-l", target]) == 0
    book = load_book(project / "rules" / "pig.yaml")
    assert book.language == source
    if source != "en":  # written in the language, not left in English
        assert book.sections[0].title != "How to play" and book.summary != _catalog(project, target, "pig")["pig:summary"]
    assert all(_catalog(project, target, "pig").values()), "every text of the sample translated"
    assert _in(project, monkeypatch, "i18n", "update", "--check") == 0
    assert _in(project, monkeypatch, "i18n", "check") == 0


def test_a_source_language_without_a_sample_gets_the_english_one_and_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert not has_sample(language(NEW))
    assert main(["new", str(tmp_path / "p"), "--source", NEW, "-l", "fr"]) == 0
    name = language(NEW).name_in(language("en"))
    assert f"the sample rulebook's texts are in English (there is no {name} sample): rewrite rules/pig.yaml in {name}" in capsys.readouterr().out
    assert load_book(tmp_path / "p" / "rules" / "pig.yaml").language == NEW
    assert _catalog(tmp_path / "p", "fr", "pig")["pig/play:title"] == "Comment jouer"


def test_a_folder_that_is_not_empty_is_refused_unless_forced(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "README.md").write_text("ours\n", encoding="utf-8")
    (tmp_path / "notes.txt").write_text("keep\n", encoding="utf-8")
    assert main(["new", str(tmp_path)]) == 2
    assert "is not empty: give a new or empty folder, or --force" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["README.md", "notes.txt"]
    assert main(["new", str(tmp_path), "--force"]) == 0
    assert f"replaced {tmp_path / 'README.md'}" in capsys.readouterr().out
    assert (tmp_path / "notes.txt").read_text(encoding="utf-8") == "keep\n" and (tmp_path / "rules" / "pig.yaml").exists()


@pytest.mark.parametrize(("options", "message"), [
    (["--game", "  "], "the game needs a name"),
    (["--game", "Свинья"], "cannot make a rulebook id from 'Свинья': give one with --book"),
    (["--book", "site"], "--book 'site': use lower-case letters"),
    (["--book", "Pig!"], "--book 'Pig!': use lower-case letters"),
    (["--package", "2pig"], "--package '2pig': a Python package name"),
    (["--game", "Json"], "a Python package 'json' is installed already; name the engine's package with --package"),
    (["--source", "xx"], "unknown language 'xx'"),
    (["-l", "en"], "language listed twice: en"),
])
def test_a_name_or_language_that_cannot_work_is_refused_before_anything_is_written(
        options: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["new", str(tmp_path / "p"), *options]) == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "p").exists()


def test_a_russian_name_with_an_id_of_its_own(tmp_path: Path) -> None:
    chosen = plan(tmp_path, "Свинья", "ru", ["en"], book="svinya")
    assert (chosen.book, chosen.package, chosen.languages.codes) == ("svinya", "svinya", ("ru", "en"))


@pytest.mark.parametrize("domain", [SCAFFOLD, SAMPLE_ENGINE], ids=lambda d: d.name)
def test_the_samples_template_and_catalogs_are_current_complete_and_checked(domain) -> None:  # noqa: ANN001
    template, changed = write_domain_template(domain, write=False)
    assert not changed, f"the {domain.name} template is stale: see {domain.mapping}"
    assert set(domain.languages()) >= set(SITE.languages()) - {"en"}, "a sample for every language the site's words ship in"
    for lang in domain.languages():
        result, problems = update_catalog(template, domain.catalog(lang), lang, domain.name, write=False, include_lineno=False)
        assert not problems and result is not None and not result.written, f"{lang}: catalog out of date"
        messages = load_messages(domain, lang)
        stats = messages.stats(template)
        assert not messages.problems and stats.translated == stats.total, (lang, stats, messages.problems)
