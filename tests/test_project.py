"""A project's configuration comes from its mkdocs.yml, read as MkDocs writes it."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulebook.errors import RulebookError
from rulebook.project import read_project

REPO = Path(__file__).resolve().parent.parent


def test_the_repositorys_own_configuration():
    project = read_project(REPO / "mkdocs.yml")
    assert project.languages.source.code == "it" and "ru" in project.languages.codes
    assert (project.rules, project.locales) == (REPO / "rules", REPO / "locales")


def test_mkdocs_tags_and_plugin_forms_are_understood(tmp_path):
    config = tmp_path / "mkdocs.yml"
    config.write_text(
        "site_name: !ENV [SITE_NAME, 'House rules']\n"
        "markdown_extensions:\n  - pymdownx.emoji:\n      emoji_index: !!python/name:material.extensions.emoji.twemoji\n"
        "plugins:\n  search: {}\n  rulebook:\n    rules: books\n    languages: [en, pt-BR, ar]\n",
        encoding="utf-8",
    )
    project = read_project(config)
    assert project.languages.codes == ("en", "pt_BR", "ar")
    assert project.rules == tmp_path / "books" and project.locales == tmp_path / "locales"


def test_no_configuration_no_languages(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert read_project().languages is None
    (tmp_path / "mkdocs.yml").write_text("plugins: [search, rulebook]\n", encoding="utf-8")
    assert read_project().languages is None


@pytest.mark.parametrize(("text", "message"), [
    ("plugins:\n  - rulebook:\n      languages: [it, xx]\n", "mkdocs.yml: plugin 'rulebook' option 'languages': unknown language 'xx'"),
    ("plugins:\n  - rulebook:\n      languages: [it, en, it]\n", "mkdocs.yml: plugin 'rulebook' option 'languages': language listed twice: it"),
    ("plugins:\n  - rulebook:\n    languages: [it\n", "mkdocs.yml:4:1: not valid YAML: the '[' list opened at line 3 is not closed here"),
    # As the build says it (not "unknown language 'i'": a string is not a list of codes).
    ("plugins:\n  - rulebook:\n      languages: it\n",
     "mkdocs.yml: plugin 'rulebook' option 'languages': expected a list of language codes, the source first, e.g. [it, en, pt_BR]"),
])
def test_a_bad_configuration_is_an_error_naming_the_file(tmp_path, monkeypatch, text, message):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mkdocs.yml").write_text(text, encoding="utf-8")
    with pytest.raises(RulebookError) as caught:
        read_project()
    assert str(caught.value).startswith(message)
