"""A project's configuration comes from its mkdocs.yml, read as MkDocs writes it."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulebook.errors import RulebookError
from rulebook.project import read_project

from .conftest import MINIMAL

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


def test_inherit_and_env_are_read_as_mkdocs_reads_them(tmp_path, monkeypatch, capsys):
    """Every command reads mkdocs.yml as the build does: a shared base by INHERIT, values from
    the environment by !ENV (the rulebook command's own reader saw neither)."""
    from rulebook.cli import main

    (tmp_path / "base.yml").write_text(
        "site_name: Base\nplugins:\n  - search\n  - rulebook:\n      rules: books\n"
        "      languages: !ENV [RULEBOOK_TEST_LANGUAGES, [it, fr]]\n", encoding="utf-8")
    (tmp_path / "mkdocs.yml").write_text("INHERIT: base.yml\nsite_name: !ENV [RULEBOOK_TEST_NAME, House rules]\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("RULEBOOK_TEST_LANGUAGES", raising=False)
    monkeypatch.setenv("RULEBOOK_TEST_NAME", "Casa")
    project = read_project()
    assert project.languages.codes == ("it", "fr")
    assert project.rules == Path("books") and project.name == "Casa"
    (tmp_path / "books").mkdir()
    (tmp_path / "books" / "demo.yaml").write_text(MINIMAL, encoding="utf-8")
    assert main(["i18n", "init", "fr"]) == 0
    assert (tmp_path / "locales" / "fr" / "LC_MESSAGES" / "demo.po").exists()
    assert "unknown language" not in capsys.readouterr().err


def test_one_language_given_as_a_text_is_told_to_be_a_list(tmp_path, monkeypatch, capsys):
    from rulebook.cli import main

    monkeypatch.chdir(tmp_path)
    (tmp_path / "mkdocs.yml").write_text("plugins:\n  - rulebook:\n      languages: it\n", encoding="utf-8")
    with pytest.raises(RulebookError, match=r"option 'languages': expected a list of language codes, the source first"):
        read_project()
    assert main(["serve", "-l", "it"]) == 2
    assert "option 'languages': expected a list of language codes, the source first" in capsys.readouterr().err


def test_rulebook_check_reads_the_rules_folder_mkdocs_yml_names(tmp_path, monkeypatch, capsys):
    from rulebook.cli import main

    monkeypatch.chdir(tmp_path)
    (tmp_path / "books").mkdir()
    (tmp_path / "books" / "demo.yaml").write_text(MINIMAL, encoding="utf-8")
    (tmp_path / "mkdocs.yml").write_text("plugins:\n  - rulebook:\n      rules: books\n", encoding="utf-8")
    assert main(["check"]) == 0
    assert "1 book, 1 example, 0 failed" in capsys.readouterr().out


def test_a_configuration_past_its_size_limit_is_refused_unparsed(tmp_path, monkeypatch):
    """MkDocs reads mkdocs.yml with PyYAML's pure-Python loader, about a second of CPU a MiB: a
    3 MB configuration of comments took 3 s of `rulebook i18n stats` (the special fuzz target).
    It has a limit of its own, far below the other files', and so has each file INHERIT names."""
    from rulebook.limits import MAX_CONFIG_BYTES, MAX_FILE_BYTES

    assert MAX_CONFIG_BYTES < MAX_FILE_BYTES
    monkeypatch.chdir(tmp_path)
    plugin = b"plugins:\n  - rulebook:\n      languages: [it, en]\n"
    padded = plugin + b"#" * (MAX_CONFIG_BYTES - len(plugin) - 1) + b"\n"
    (tmp_path / "mkdocs.yml").write_bytes(padded)
    assert read_project().languages.codes == ("it", "en")  # at the limit: read
    for config, base in ((padded + b"#", None), (b"INHERIT: base.yml\n", padded + b"#")):
        (tmp_path / "mkdocs.yml").write_bytes(config)
        if base is not None:
            (tmp_path / "base.yml").write_bytes(base)
        with pytest.raises(RulebookError) as caught:
            read_project()
        shown = "mkdocs.yml" if base is None else "base.yml"
        assert str(caught.value).startswith(f"{shown}:1:1: the file is larger than the limit of {MAX_CONFIG_BYTES:,} bytes")
