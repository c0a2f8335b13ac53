"""``rulebook serve -l fr``: a translator's preview of the source and the chosen languages.

No live server: the tests build with the configuration the command hands to MkDocs' serve."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from mkdocs.commands.build import build as mkdocs_build
from mkdocs.config import load_config

from rulebook import preview
from rulebook.cli import main
from rulebook.errors import RulebookError

from .conftest import site_languages
from .test_site_build import Elements, make_project, page
from .test_site_languages import set_languages


def test_a_preview_of_french_builds_the_source_and_french_only(tmp_path: Path) -> None:
    config = make_project(tmp_path)  # the languages of our mkdocs.yml
    built = preview.preview_config(config, ["fr"], site_dir=str(tmp_path / "preview"))
    mkdocs_build(built)
    site = Path(built.site_dir)
    assert {p.name for p in site.iterdir() if (p / "index.html").exists()} == {"fr", "demo", "altro", "coverage"}
    for prefix in set(site_languages()) - {"it", "fr"}:
        assert not (site / prefix).exists(), prefix
    french = page(site, "fr/demo")
    assert re.search(r'<html lang="fr"', french)
    assert {a["hreflang"] for a in Elements(french).find("link", rel="alternate")} == {"it", "fr", "x-default"}
    # The project's own configuration is untouched: a full build still has every language.
    assert load_config(str(config)).plugins["rulebook"].config.languages.codes == site_languages()


def test_the_source_stays_first_whatever_order_the_languages_are_chosen_in(tmp_path: Path) -> None:
    config = make_project(tmp_path)
    plugins = preview.preview_plugins(config, ["ru", "en"])
    assert plugins["rulebook"]["languages"] == ["it", "en", "ru"]
    # The other plugins are kept, with their options.
    assert list(plugins) == ["search", "rulebook"]
    assert plugins["search"]["pipeline"] == ["stemmer", "stopWordFilter", "trimmer"]


def test_the_command_serves_with_the_restricted_configuration(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = make_project(tmp_path)
    served: dict = {}
    monkeypatch.setattr(preview, "mkdocs_serve", lambda **kwargs: served.update(kwargs))
    assert main(["serve", "-l", "pt", "-f", str(config), "-a", "127.0.0.1:8123"]) == 0
    assert served["dev_addr"] == "127.0.0.1:8123"
    loaded = load_config(served["config_file"], plugins=served["plugins"])
    assert loaded.plugins["rulebook"].config.languages.codes == ("it", "pt")
    # Without -l: the site as mkdocs serve shows it, every language.
    assert main(["serve", "-f", str(config)]) == 0
    assert served["plugins"] is None


def test_a_language_the_site_does_not_publish_is_refused_with_the_ones_it_does(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    config = make_project(tmp_path)
    set_languages(config, ["it", "fr"])
    assert main(["serve", "-l", "ru", "-f", str(config)]) == 2
    assert "does not publish ru; its languages are it, fr" in capsys.readouterr().err
    with pytest.raises(RulebookError, match="unknown language 'xx'"):
        preview.preview_plugins(config, ["xx"])
    assert main(["serve", "-l", "fr", "-f", str(tmp_path / "missing.yml")]) == 2
    assert "no such MkDocs configuration file" in capsys.readouterr().err
