"""The smallest site that builds: one rulebook, its English catalog and template, a glossary,
and an mkdocs.yml with the rulebook plugin (two languages, one process). Shared by the tests
that put a project's files in every state (tests/test_special_files.py, test_site_verdicts.py)."""

from __future__ import annotations

import os
import textwrap
from pathlib import Path

from rulebook.cli import main
from tests.conftest import MINIMAL

CONFIG = """\
site_name: Small
docs_dir: docs
theme:
  name: material
  font: false
plugins:
  - search
  - rulebook:
      languages: [it, en]
      workers: 1
"""

#: Every file a command reads, as the project holds it.
FILES = {
    "rules": "rules/demo.yaml",
    "catalog": "locales/en/LC_MESSAGES/demo.po",
    "template": "locales/templates/demo.pot",
    "glossary": "locales/glossary.yaml",
    "mkdocs.yml": "mkdocs.yml",
}


def make_small_site(root: Path) -> Path:
    """Write the project under ``root`` (its catalogs made by `rulebook i18n update`); ``root``."""
    (root / "rules").mkdir(parents=True)
    (root / "docs").mkdir()
    (root / "rules" / "demo.yaml").write_text(textwrap.dedent(MINIMAL).lstrip(), encoding="utf-8")
    (root / "mkdocs.yml").write_text(CONFIG, encoding="utf-8")
    here = Path.cwd()
    os.chdir(root)
    try:
        assert main(["i18n", "update"]) == 0
    finally:
        os.chdir(here)
    (root / "locales" / "glossary.yaml").write_text("terms:\n  - it: mazzo\n    en: deck\n", encoding="utf-8")
    assert all((root / path).is_file() for path in FILES.values())
    return root
