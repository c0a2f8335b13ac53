"""The theme comes with the package: a project names `theme: material` and gets the rest.

The plugin adds its Material overrides and assets (src/rulebook/theme/) itself, so a project
outside this repository (`rulebook new`, examples/) publishes the same site without copying
any template; a `custom_dir` of the project's own still wins. This repository's own is
site_overrides/ (what is this site's alone, see its README).
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
import yaml
from mkdocs.exceptions import Abort

from rulebook.adapters.material import THEME

from .test_site_build import REPO, build, make_project, page


def _edit_config(config: Path, **changes) -> None:
    data = yaml.safe_load(config.read_text(encoding="utf-8"))
    for key, value in changes.items():
        data[key] = value
    config.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")


def test_a_project_without_overrides_or_assets_of_its_own_gets_the_whole_theme(tmp_path: Path) -> None:
    config = make_project(tmp_path, languages=["it", "ru"])
    data = yaml.safe_load(config.read_text(encoding="utf-8"))
    theme = {key: value for key, value in data["theme"].items() if key not in ("custom_dir", "favicon")}  # ours, not the toolkit's
    _edit_config(config, theme=theme)
    assert "extra_css" not in data and "extra_javascript" not in data
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


OUR_OVERRIDES = REPO / "site_overrides"


def _files(folder: Path) -> set[str]:
    return {path.relative_to(folder).as_posix() for path in folder.rglob("*") if path.is_file()}


def test_our_site_overrides_hold_only_this_sites_own_files() -> None:
    # The toolkit's templates and assets live in the package, where other projects get them; a
    # copy here would fork them for this site without anyone noticing.
    ours = _files(OUR_OVERRIDES) - {"README.md"}
    assert ours and not ours & _files(THEME)
    config = yaml.safe_load((REPO / "mkdocs.yml").read_text(encoding="utf-8").replace("!ENV", ""))
    assert (REPO / config["theme"]["custom_dir"]).resolve() == OUR_OVERRIDES
    assert (OUR_OVERRIDES / config["theme"]["favicon"]).is_file()


def test_our_mkdocs_yml_builds_with_site_overrides_which_win_over_the_packaged_theme(tmp_path: Path) -> None:
    # Our site_overrides/ as mkdocs.yml names it, plus one file at the path of a packaged one.
    overrides = tmp_path / "site_overrides"
    shutil.copytree(OUR_OVERRIDES, overrides)
    (overrides / "partials").mkdir(exist_ok=True)
    (overrides / "partials" / "alternate.html").write_text('<div class="this-sites-own-switcher"></div>\n', encoding="utf-8")
    (overrides / "assets" / "stylesheets").mkdir(parents=True, exist_ok=True)
    (overrides / "assets" / "stylesheets" / "rulebook.css").write_text("/* this site's own */\n", encoding="utf-8")
    config = make_project(tmp_path, languages=["it", "ru"])
    data = yaml.safe_load(config.read_text(encoding="utf-8"))
    assert Path(data["theme"]["custom_dir"]) == OUR_OVERRIDES  # make_project keeps the repository's theme
    _edit_config(config, theme={**data["theme"], "custom_dir": str(overrides)})
    site = build(config)
    html = page(site, "ru/demo")
    favicon = data["theme"]["favicon"]
    assert f'<link rel="icon" href="../../{favicon}">' in html
    assert (site / favicon).read_bytes() == (OUR_OVERRIDES / favicon).read_bytes()
    # The project's files win over the toolkit's; the toolkit's others are still there.
    assert "this-sites-own-switcher" in html and "rb-alternate" not in html
    assert (site / "assets" / "stylesheets" / "rulebook.css").read_text(encoding="utf-8") == "/* this site's own */\n"
    assert (site / "assets" / "javascripts" / "rulebook.js").exists() and (site / "ru" / "404.html").exists()


def test_the_themes_own_words_are_in_the_pages_language(tmp_path: Path) -> None:
    """The site's name (header, drawer, the browser's tab), the colour schemes' buttons and the
    footer's credit: configured in English in mkdocs.yml, shown in the page's language where the
    site's catalogs translate them; a name they do not know is shown as configured."""
    config = make_project(tmp_path, languages=["it", "en", "ru"])
    site = build(config)
    # The tab's title joins page and site with the language's dash (ru and it «—», review-ru W3, docs/style/it.md; en "–", review2-en R-W1).
    for path, name, dark, light, made, dash in (("ru/demo", "Свод правил", "Тёмная тема", "Светлая тема", "Сделано с помощью", "—"),
                                                ("demo", "Regolamento", "Tema scuro", "Tema chiaro", "Realizzato con", "—"),
                                                ("en/demo", "Rulebook", "Dark", "Light", "Made with", "–")):
        html = page(site, path)
        assert re.search(rf"<title>[^<]* {dash} {name}</title>", html), path
        header = html.split('<header class="md-header', 1)[1].split("</header>", 1)[0]
        assert re.search(rf'<span class="md-ellipsis">\s*{name}\s*</span>', header), path
        assert f'aria-label="{name}"' in header, path  # the logo's name
        assert re.search(rf'<label class="md-nav__title" for="__drawer">.*?</a>\s*{name}\s*</label>', html, re.S), path
        assert f'title="{dark}" for="__palette_1"' in header and f'title="{light}" for="__palette_0"' in header, path
        assert f'aria-label="{dark}"' in header, path
        footer = " ".join(html.split('<div class="md-copyright">', 1)[1].split("</div>", 1)[0].split())
        assert footer.startswith(f'{made} <a href="https://squidfunk.github.io/mkdocs-material/"'), (path, footer)
        assert "Made with" not in footer or path == "en/demo"
    assert "<title>Страница не найдена — Свод правил</title>" in (site / "ru" / "404.html").read_text(encoding="utf-8")
    # A name of the project's own, which no catalog translates, is shown as configured.
    _edit_config(config, site_name="Il circolo")
    html = page(build(config), "ru/demo")
    assert re.search(r"<title>[^<]* — Il circolo</title>", html)


def _toc_title(html: str) -> str:
    found = re.search(r'<label class="md-nav__title" for="__toc">\s*<span[^>]*></span>\s*([^<]*?)\s*</label>', html)
    assert found, "no table of contents"
    return found.group(1)


def test_materials_own_labels_come_from_the_site_catalogs_where_a_language_rewords_them(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Review3-es: the table of contents is «Índice», not Material's «Tabla de contenidos»: the
    shipped Spanish site.po says so (msgctxt material:toc). A project's catalog rewords another
    label; one Material would write unescaped is refused, and a strict build says why."""
    config = make_project(tmp_path, languages=["it", "es", "ru"])
    ru_site = tmp_path / "locales" / "ru" / "LC_MESSAGES" / "site.po"
    ru_site.parent.mkdir(parents=True, exist_ok=True)
    ru_site.write_text('msgid ""\nmsgstr ""\n"Language: ru\\n"\n\nmsgctxt "material:header"\nmsgid "Header"\nmsgstr "Шапка сайта"\n',
                       encoding="utf-8")
    site = build(config)
    es = page(site, "es/demo")
    assert _toc_title(es) == "Índice" and 'aria-label="Índice"' in es and "Tabla de contenidos" not in es
    assert _toc_title(page(site, "demo")) == "Indice"  # Material's Italian, as the shipped catalog keeps it
    ru = page(site, "ru/demo")
    assert _toc_title(ru) == "Содержание"
    assert 'class="md-header__inner md-grid" aria-label="Шапка сайта"' in ru  # the project's word
    assert 'aria-label="Cabecera"' in es  # a label the project does not reword: the shipped one
    # A label holding what Material does not escape is not used: Material's word, and a problem.
    ru_site.write_text(ru_site.read_text(encoding="utf-8").replace("Шапка сайта", 'Шапка\\" onmouseover=\\"x'), encoding="utf-8")
    with pytest.raises(Abort):
        build(config)
    assert "msgctxt 'material:header'" in caplog.text and "unescaped" in caplog.text
    ru = page(build(config, strict=False), "ru/demo")
    assert "onmouseover" not in ru and 'aria-label="Верхний колонтитул"' in ru
