"""The theme comes with the package: a project names `theme: material` and gets the rest.

The plugin adds its Material overrides and assets (src/rulebook/theme/) itself, so a project
outside this repository (`rulebook new`, examples/) publishes the same site without copying
any template; a `custom_dir` of the project's own still wins.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from mkdocs.exceptions import Abort

from .test_site_build import build, make_project, page


def _edit_config(config: Path, **changes) -> None:
    data = yaml.safe_load(config.read_text(encoding="utf-8"))
    for key, value in changes.items():
        data[key] = value
    config.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")


def test_a_project_without_overrides_or_assets_of_its_own_gets_the_whole_theme(tmp_path: Path) -> None:
    config = make_project(tmp_path, languages=["it", "ru"])
    data = yaml.safe_load(config.read_text(encoding="utf-8"))
    assert "custom_dir" not in data["theme"] and "extra_css" not in data and "extra_javascript" not in data
    site = build(config)
    html = page(site, "ru/demo")
    # The overrides' language switcher and the stylesheets and scripts, each linked once.
    assert re.search(r'class="md-select__link rb-alternate"', html)
    for asset in ("assets/mana-font/css/mana.min.css", "assets/stylesheets/rulebook.css", "assets/javascripts/rulebook.js",
                  "assets/javascripts/rulebook-theme.js"):
        assert (site / asset).exists(), asset
        assert html.count(asset.rsplit("/", 1)[1]) == 1, asset
    assert (site / "ru" / "404.html").exists()


def test_a_projects_custom_dir_overrides_the_packaged_theme(tmp_path: Path) -> None:
    config = make_project(tmp_path, languages=["it", "ru"])
    mine = tmp_path / "overrides"
    (mine / "assets" / "stylesheets").mkdir(parents=True)
    (mine / "assets" / "stylesheets" / "rulebook.css").write_text("/* the club's own colours */\n", encoding="utf-8")
    data = yaml.safe_load(config.read_text(encoding="utf-8"))
    _edit_config(config, theme={**data["theme"], "custom_dir": str(mine)}, extra_css=["assets/stylesheets/rulebook.css"])
    site = build(config)
    assert (site / "assets" / "stylesheets" / "rulebook.css").read_text(encoding="utf-8") == "/* the club's own colours */\n"
    html = page(site, "ru/demo")
    assert html.count("rulebook.css") == 1  # listed by the project and by the plugin: linked once
    assert (site / "assets" / "javascripts" / "rulebook.js").exists() and 'rb-alternate' in html


def test_another_theme_is_refused_plainly(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    config = make_project(tmp_path, languages=["it"])
    data = yaml.safe_load(config.read_text(encoding="utf-8"))
    ours = [p for p in data["plugins"] if isinstance(p, dict) and "rulebook" in p]  # Material's search options go too
    _edit_config(config, theme={"name": "mkdocs"}, plugins=ours)
    with pytest.raises(Abort):
        build(config)
    assert "made for the theme 'material' (mkdocs-material), not 'mkdocs'" in caplog.text
