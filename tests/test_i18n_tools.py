"""Our catalogs survive the translators' tools: re-saved by another PO writer, nothing is stale.

Every template and catalog of the repository (the books', the shipped site words and the
engines' messages) is loaded and saved, for real, by the PO storage of translate-toolkit (what Weblate writes PO
with), by GNU ``msgcat`` (the layout of Poedit and of gettext's own tools) and by Babel at
another width. The copy must then pass exactly what this repository's CI asks of the
originals: ``rulebook i18n check`` and the gates of tests/test_i18n_locales.py (each check
run once, by the CLI); and ``rulebook i18n update`` must leave every file as the tool wrote it,
since nothing in it changed (the verdict of CI's ``rulebook i18n update --check``, given by the
files themselves).
"""

from __future__ import annotations

import io
import shutil
import subprocess
from pathlib import Path
from typing import Callable

import pytest
from babel.messages.pofile import read_po, write_po

from rulebook.cli import main
from rulebook.i18n import frontend
from rulebook.i18n import translate as translate_module
from rulebook.i18n.domains import ENGINES, SITE, ShippedDomain, engine_domain
from rulebook.i18n.pofile import sharing_catalogs
from tests.test_i18n_locales import REPO, TARGETS, engine_words_untranslated, falling_back, invalid_catalog, site_words_untranslated

MSGCAT = shutil.which("msgcat")


def _translate_toolkit(path: Path) -> None:
    from translate.storage import pypo  # the pure-Python PO storage (Weblate's), not the C one

    path.write_bytes(bytes(pypo.pofile.parsefile(str(path))))


def _msgcat(path: Path) -> None:
    subprocess.run([MSGCAT, "--output-file", str(path), str(path)], check=True)


def _babel_width_60(path: Path) -> None:
    with path.open("rb") as handle:
        catalog = read_po(handle)
    out = io.BytesIO()
    write_po(out, catalog, width=60)
    path.write_bytes(out.getvalue())


TOOLS: dict[str, Callable[[Path], None]] = {
    "translate-toolkit": _translate_toolkit,
    "msgcat": _msgcat,
    "babel-width-60": _babel_width_60,
}


def _copy_of_the_repository(root: Path) -> Path:
    """The rulebooks, the catalogs and the package (its site words, the engines' messages and
    their sources) under ``root``; the copy of the package."""
    shutil.copy(REPO / "mkdocs.yml", root / "mkdocs.yml")
    shutil.copytree(REPO / "rules", root / "rules")
    shutil.copytree(REPO / "locales", root / "locales")
    shutil.copytree(SITE.package, root / "src" / "rulebook", ignore=shutil.ignore_patterns("__pycache__"))
    return root / "src" / "rulebook"


def _in_copy(domain: ShippedDomain, package: Path) -> ShippedDomain:
    """A shipped domain of the package as the copy holds it."""
    return ShippedDomain(domain.name, package / domain.package.relative_to(SITE.package), domain.source)


@pytest.mark.slow
@pytest.mark.parametrize("tool", TOOLS)
def test_a_catalog_resaved_by_a_translators_tool_is_current_and_left_alone(tool, tmp_path, monkeypatch, capsys):
    if tool == "msgcat" and MSGCAT is None:
        pytest.skip("GNU gettext's msgcat is not installed (.ci/run installs Debian's gettext)")
    package = _copy_of_the_repository(tmp_path)
    site = _in_copy(SITE, package)
    engines = sorted((package / "engines").glob("**/locale/**/*.po*"))
    files = sorted([*(tmp_path / "locales").glob("**/*.po*"), *site.locale_dir.glob("**/*.po*"), *engines])
    assert len(files) > 30 and len(engines) > 30
    before = {path: path.read_bytes() for path in files}
    for path in files:
        TOOLS[tool](path)
    resaved = {path: path.read_bytes() for path in files}
    relaid = [path for path in files if resaved[path] != before[path]]
    assert len(relaid) > len(files) // 2, f"{tool} wrote most files as we do: the round trip would prove nothing"

    monkeypatch.chdir(tmp_path)
    # The commands keep the copy's site words and engines' messages, not the package's.
    monkeypatch.setattr(frontend, "SITE", site)
    monkeypatch.setattr(frontend, "ENGINES", _in_copy(ENGINES, package))
    monkeypatch.setattr(frontend, "engine_domain", lambda name: None if (found := engine_domain(name)) is None else _in_copy(found, package))
    # CI's `rulebook i18n update --check` is not run here: the `rulebook i18n update` at the end
    # computes the same verdict (the same merge of every template into every catalog, one pass
    # with writing), and leaving every file as the tool wrote it is that verdict, said by the
    # files themselves: --check reports exactly what update would write
    # (test_update_check_writes_nothing_and_fails_when_out_of_date). Both took 2.4 s a tool.
    # Every check of every catalog and template, the site words' included: the gate of
    # test_every_catalog_passes_the_checks (check_problems runs the same checks on the same files).
    with sharing_catalogs():  # each file parsed once, by the check; the gates and the update look again
        assert main(["i18n", "check"]) == 0, capsys.readouterr().out

        # The other gates of tests/test_i18n_locales.py, on the copy.
        locales = tmp_path / "locales"
        catalogs = [(path.parent.parent.name, path) for path in files if path.suffix == ".po"]
        assert [problem for language, path in catalogs for problem in invalid_catalog(path, language)] == []
        # Nothing falls back: every text is there, current and not fuzzy. The checks a translated text
        # must also pass are those `rulebook i18n check` just passed (check_po_file runs them on every
        # shown message of the catalog, with the book's glossary), so they are not run a second time.
        with monkeypatch.context() as unchecked:
            unchecked.setattr(translate_module, "message_problems", lambda *args, **kwargs: [])
            assert falling_back(tmp_path / "rules", locales, TARGETS) == []
        assert [problem for language in site.languages() for problem in site_words_untranslated(site, language, locales)] == []
        assert engine_words_untranslated(package) == []

        capsys.readouterr()
        assert main(["i18n", "update"]) == 0
        out = capsys.readouterr().out
    assert "updated " not in out and "created " not in out and "wrote " not in out, out
    rewritten = [str(path.relative_to(tmp_path)) for path in files if path.read_bytes() != resaved[path]]
    assert rewritten == [], out
