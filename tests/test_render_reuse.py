"""A rebuild under ``mkdocs serve`` renders again only what changed (issue 15.4): each
(book, language)'s page is kept with its inputs; the theme's templates are compiled once."""

from __future__ import annotations

import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import jinja2
import pytest

from rulebook.cache import BuildCache, using
from rulebook.loader import load_library, rulebook_paths
from rulebook.render import Site
from rulebook.render.reuse import CompiledTemplates

from .test_site_build import ALTRO, DEMO, RUSSIAN, write_catalog


@pytest.fixture(autouse=True)
def serve_session() -> Iterator[BuildCache]:
    """One cache for the test's rebuilds, as a ``mkdocs serve`` session has."""
    with using(BuildCache()) as cache:
        yield cache


def project(tmp_path: Path) -> tuple[Path, Path]:
    rules, locales = tmp_path / "rules", tmp_path / "locales"
    rules.mkdir()
    (rules / "demo.yaml").write_text(textwrap.dedent(DEMO).lstrip(), encoding="utf-8")
    (rules / "altro.yaml").write_text(textwrap.dedent(ALTRO).lstrip(), encoding="utf-8")
    write_catalog(locales, "ru", "demo", RUSSIAN, rules=rules)
    return rules, locales


def rebuild(rules: Path, locales: Path) -> dict[tuple[str, str], object]:
    """As each rebuild of mkdocs serve: the books loaded again, a new Site, every book page."""
    site = Site(load_library(rulebook_paths(rules)), locales=locales, languages=("it", "ru"), reuse=True)
    return {(book, lang): site.book_page(book, lang) for book in site.books for lang in ("it", "ru")}


def test_only_the_changed_book_and_language_is_rendered_again(tmp_path: Path) -> None:
    rules, locales = project(tmp_path)
    first = rebuild(rules, locales)
    same = rebuild(rules, locales)
    assert all(same[key] is first[key] for key in first)
    # A changed Russian msgstr: the Russian demo page only, and the change is on it.
    write_catalog(locales, "ru", "demo", {**RUSSIAN, "demo/mana-bianco/somma:text": "Два плюс два — ровно четыре."}, rules=rules)
    after_msgstr = rebuild(rules, locales)
    assert "ровно четыре" in after_msgstr[("demo", "ru")].html
    assert [key for key in first if after_msgstr[key] is not first[key]] == [("demo", "ru")]
    # A book's title is in the other books' links to it: their pages follow it.
    write_catalog(locales, "ru", "demo", {**RUSSIAN, "demo:title": "Демо-книга"}, rules=rules)
    after_title = rebuild(rules, locales)
    assert {key for key in first if after_title[key] is not after_msgstr[key]} == {("demo", "ru"), ("altro", "ru")}
    after_msgstr = after_title
    # A changed Italian rule text: the demo pages, in both languages (the Russian one marks the
    # translation outdated); the other book's pages are kept.
    demo = rules / "demo.yaml"
    demo.write_text(demo.read_text(encoding="utf-8").replace("Il mana bianco", "Il mana bianco puro"), encoding="utf-8")
    after_rule = rebuild(rules, locales)
    assert "Il mana bianco puro" in after_rule[("demo", "it")].html
    assert {key for key in first if after_rule[key] is not after_msgstr[key]} == {("demo", "it"), ("demo", "ru")}


def test_a_change_of_the_site_words_renders_that_language_again(tmp_path: Path) -> None:
    rules, locales = project(tmp_path)
    first = rebuild(rules, locales)
    site_po = locales / "ru" / "LC_MESSAGES" / "site.po"
    site_po.write_text('msgid ""\nmsgstr ""\n"Language: ru\\n"\n\nmsgid "Ruling {n}"\nmsgstr "Постановление-тест {n}"\n', encoding="utf-8")
    after = rebuild(rules, locales)
    assert {key for key in first if after[key] is not first[key]} == {("demo", "ru"), ("altro", "ru")}
    assert "Постановление-тест" in after[("demo", "ru")].html


def test_a_change_of_an_engine_s_shipped_catalog_renders_its_books_again(tmp_path: Path, monkeypatch) -> None:
    # A third-party engine ships its words beside its module (i18n.domains.engine_domain): its
    # developer edits them while `mkdocs serve` runs, and the pages must follow, as for the project's own.
    package = tmp_path / "engines" / "wordsgame"
    (package / "locale" / "ru" / "LC_MESSAGES").mkdir(parents=True)
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "locale" / "engine.wordsgame.cfg").write_text("[python: **.py]\n", encoding="utf-8")
    shipped = package / "locale" / "ru" / "LC_MESSAGES" / "engine.wordsgame.po"
    shipped.write_text('msgid ""\nmsgstr ""\n"Language: ru\\n"\n\nmsgid "die"\nmsgstr "кубик"\n', encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path / "engines"))
    monkeypatch.delitem(sys.modules, "wordsgame", raising=False)  # an earlier test's module of that name
    rules, locales = project(tmp_path)
    demo = rules / "demo.yaml"
    demo.write_text(demo.read_text(encoding="utf-8").replace("engine: rulebook.engines.base", "engine: wordsgame"), encoding="utf-8")
    assert "engine: wordsgame" in demo.read_text(encoding="utf-8")
    first = rebuild(rules, locales)
    assert all(rebuild(rules, locales)[key] is first[key] for key in first)
    shipped.write_text(shipped.read_text(encoding="utf-8").replace("кубик", "игральная кость"), encoding="utf-8")
    after = rebuild(rules, locales)
    assert {key for key in first if after[key] is not first[key]} == {("demo", "ru")}


def test_without_reuse_every_page_is_rendered_again(tmp_path: Path) -> None:
    rules, locales = project(tmp_path)
    made = [Site(load_library(rulebook_paths(rules)), locales=locales, languages=("it", "ru")).book_page("demo", "ru") for _ in range(2)]
    assert made[0] is not made[1] and made[0].html == made[1].html


def test_templates_are_compiled_once_and_again_when_their_source_changes(tmp_path: Path) -> None:
    cache = CompiledTemplates()
    (tmp_path / "page.html").write_text("{{ word }}!", encoding="utf-8")
    compiled = []
    original = jinja2.Environment.compile

    class Counting(jinja2.Environment):
        def compile(self, *args, **kwargs):  # noqa: ANN002, ANN003, ANN202
            compiled.append(args[1] if len(args) > 1 else kwargs.get("name"))
            return original(self, *args, **kwargs)

    def render() -> str:
        env = Counting(loader=jinja2.FileSystemLoader(tmp_path), bytecode_cache=cache)
        return env.get_template("page.html").render(word="ciao")

    assert render() == "ciao!" and render() == "ciao!"
    assert compiled == ["page.html"]
    (tmp_path / "page.html").write_text("{{ word }}?", encoding="utf-8")
    assert render() == "ciao?" and len(compiled) == 2
    # Another environment's options (autoescape) compile their own code.
    env = Counting(loader=jinja2.FileSystemLoader(tmp_path), bytecode_cache=cache, autoescape=True)
    assert env.get_template("page.html").render(word="<b>") == "&lt;b&gt;?" and len(compiled) == 3


def test_the_library_is_parsed_again_only_where_a_file_changed(tmp_path: Path) -> None:
    rules, _ = project(tmp_path)
    first = load_library(rulebook_paths(rules), reuse=True)
    again = load_library(rulebook_paths(rules), reuse=True)
    assert again["demo"] is first["demo"] and again["altro"] is first["altro"]
    demo = rules / "demo.yaml"
    demo.write_text(demo.read_text(encoding="utf-8").replace("Il mana bianco", "Il mana bianco puro"), encoding="utf-8")
    edited = load_library(rulebook_paths(rules), reuse=True)
    assert edited["demo"] is not first["demo"] and edited["demo"].sections[0].rules[0].title == "Il mana bianco puro"
    assert edited["altro"] is first["altro"]
    # Without reuse every file is parsed.
    assert load_library(rulebook_paths(rules))["altro"] is not first["altro"]


def test_a_renumbered_book_renders_the_pages_that_link_to_it_again(tmp_path: Path) -> None:
    # altro links to demo:pesca and shows its number: a rule put before it in demo (1.2 -> 1.3)
    # must reach altro's pages, though altro and its catalogs are unchanged.
    rules, locales = project(tmp_path)
    first = rebuild(rules, locales)
    demo = rules / "demo.yaml"
    demo.write_text(demo.read_text(encoding="utf-8").replace(
        "      - id: pesca\n", "      - id: nuova\n        title: Nuova\n        text: Una regola nuova.\n      - id: pesca\n"),
        encoding="utf-8")
    after = rebuild(rules, locales)
    assert after[("altro", "it")] is not first[("altro", "it")]
    assert ">1.3<" in after[("altro", "it")].html and ">1.2<" in first[("altro", "it")].html


def test_a_serve_session_keeps_its_first_builds_texts_and_shows_each_edit_as_a_cold_build(tmp_path: Path,
                                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """``mkdocs serve`` starts the plugin before its first build, whose pages then keep their
    texts: the first edit words only the text it changed, and the site is what a cold build of
    the edited project writes (each page, the search indexes)."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    from rulebook.render import pages

    from .conftest import site_languages
    from .test_site_build import make_project

    served, cold = make_project(tmp_path / "served"), make_project(tmp_path / "cold")
    config = load_config(str(served))
    config.plugins.on_startup(command="serve", dirty=False)
    try:
        build(config)
        worded: list[str] = []
        made = pages._BookView._text

        def counted(view: pages._BookView, node: object, field_name: str, *rest: object) -> object:
            if node is not view.book:  # the home page lists each book's title and summary anew
                worded.append(f"{view.book.id} {view.language} {getattr(node, 'id', '')}:{field_name}")
            return made(view, node, field_name, *rest)  # type: ignore[arg-type]

        monkeypatch.setattr(pages._BookView, "_text", counted)
        kept = _pages_written_as_they_were(monkeypatch)
        edited = {**RUSSIAN, "demo/pesca:text": "Игрок тянет карту из колоды."}
        for project in (served, cold):
            write_catalog(project.parent / "locales", "ru", "demo", edited, rules=project.parent / "rules")
            altro = project.parent / "rules" / "altro.yaml"
            altro.write_text(altro.read_text(encoding="utf-8").replace("Si torna a", "Si ritorna a"), encoding="utf-8")
        build(load_config(str(served)))
        # Altro's changed rule, on its pages and in the preview of the demo rule that links to it;
        # the changed Russian text, and the Russian title the rewritten catalog no longer marks outdated.
        languages = site_languages()
        assert sorted(worded) == sorted([*(f"altro {lang} fine:text" for lang in languages), *(f"demo {lang} mana-bianco:text" for lang in languages),
                                         "demo ru pesca:text", "demo ru primo:title"])
        # Every other page is written as it was, unrendered: the home pages; never a page the edits changed.
        assert {"index.md", "ru/index.md"} <= set(kept)
        assert not {f"{prefix}{book}.md" for prefix in ("", *(f"{lang}/" for lang in languages[1:])) for book in ("demo", "altro")} & set(kept)
        monkeypatch.undo()
        build(load_config(str(cold)))
        stored = served.parent / ".cache" / "plugin" / "rulebook" / "book-pages"
        assert not stored.exists()  # the session's pages are written when it ends, not at each rebuild
    finally:
        config.plugins.on_shutdown()
    assert sorted(path.name for path in stored.iterdir()) == sorted(f"{book}.{lang}{end}" for book in ("altro", "demo")
                                                                   for lang in site_languages() for end in (".json", ".page.json", ".page.html"))
    written = {path.relative_to(served.parent / "site") for path in (served.parent / "site").rglob("*") if path.suffix in (".html", ".json")}
    assert {path.relative_to(cold.parent / "site") for path in (cold.parent / "site").rglob("*") if path.suffix in (".html", ".json")} == written
    assert "Игрок тянет карту" in (served.parent / "site" / "ru" / "demo" / "index.html").read_text(encoding="utf-8")
    for path in written:
        assert (served.parent / "site" / path).read_bytes() == (cold.parent / "site" / path).read_bytes(), path


def test_a_serve_session_renders_every_page_again_when_a_template_or_the_configuration_changes(tmp_path: Path,
                                                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """A page is written as it was only while its whole context is the last rebuild's: a project's
    template saved under serve, or its mkdocs.yml, makes every page again; a template that reads
    the build's date keeps none."""
    import yaml
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    from .test_site_build import OLD_SOURCES, make_project

    config_file = make_project(tmp_path / "project")
    overrides = tmp_path / "overrides"
    (overrides / "partials").mkdir(parents=True)
    settings = yaml.safe_load(config_file.read_text(encoding="utf-8"))
    settings["theme"]["custom_dir"] = str(overrides)
    config_file.write_text(yaml.safe_dump(settings, allow_unicode=True), encoding="utf-8")
    kept = _pages_written_as_they_were(monkeypatch)
    config = load_config(str(config_file))
    config.plugins.on_startup(command="serve", dirty=False)
    try:
        build(config)
        pages = set(config.plugins["rulebook"].pages)
        site = Path(config.site_dir)

        def rebuilt() -> set[str]:
            kept.clear()
            build(load_config(str(config_file)))
            return set(kept)

        assert rebuilt() == pages  # nothing changed: every page written as it was
        # A Russian book title: every Russian page's navigation names it; the other languages' pages are kept.
        write_catalog(tmp_path / "project" / "locales", "ru", "demo", {**RUSSIAN, "demo:title": "Демо-книга"}, OLD_SOURCES,
                      rules=tmp_path / "project" / "rules")
        assert rebuilt() == {uri for uri in pages if not uri.startswith("ru/")}
        assert "Демо-книга" in (site / "ru" / "coverage" / "index.html").read_text(encoding="utf-8")
        footer = (overrides / "partials" / "copyright.html")
        footer.write_text('<div class="md-copyright">Un piè di pagina</div>\n', encoding="utf-8")
        assert rebuilt() == set()
        assert "Un piè di pagina" in (site / "ru" / "demo" / "index.html").read_text(encoding="utf-8")
        assert rebuilt() == pages
        # An option only the theme reads (Material's footer): no page's own inputs change.
        footer.unlink()
        assert rebuilt() == set()
        assert rebuilt() == pages
        config_file.write_text(yaml.safe_dump({**settings, "copyright": "© Il circolo"}, allow_unicode=True), encoding="utf-8")
        assert rebuilt() == set()
        assert "© Il circolo" in (site / "demo" / "index.html").read_text(encoding="utf-8")
        assert rebuilt() == pages
        footer.write_text('<div class="md-copyright">{{ build_date_utc }}</div>\n', encoding="utf-8")
        assert rebuilt() == set()
        assert rebuilt() == set()  # a page made again at every build: the date changes
    finally:
        config.plugins.on_shutdown()


def test_another_plugins_page_hook_keeps_no_page() -> None:
    """A page is written as it was only while no other plugin could make it differ: one with a
    page hook of its own, or a hooks module, keeps none; Material's search plugin only reads pages."""
    import types

    from material.plugins.search.plugin import SearchPlugin

    from rulebook.adapters.generator import BasePlugin
    from rulebook.served import _changes_pages

    class Quiet(BasePlugin):  # type: ignore[type-arg]
        pass

    class Stamping(BasePlugin):  # type: ignore[type-arg]
        def on_post_page(self, output: str, page: object, config: object) -> str:
            return output + "<!-- built -->"

    assert not _changes_pages(Quiet())
    assert not _changes_pages(SearchPlugin())
    assert _changes_pages(Stamping())
    assert _changes_pages(types.ModuleType("hooks"))


def _pages_written_as_they_were(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The pages a serve session writes as they were (served.kept_output found them), filled as it builds."""
    from rulebook import served as written

    kept: list[str] = []
    keeps = written.kept_output

    def recorded(cache: BuildCache, context: object, src_uri: str, page: object) -> str | None:
        found = keeps(cache, context, src_uri, page)  # type: ignore[arg-type]
        kept.extend([src_uri] if found is not None else [])
        return found

    monkeypatch.setattr(written, "kept_output", recorded)
    return kept


def test_compiled_templates_are_kept_in_the_cache_folder_for_the_next_process(tmp_path: Path) -> None:
    (tmp_path / "page.html").write_text("{{ word }}!", encoding="utf-8")
    compiled: list[str] = []
    original = jinja2.Environment.compile

    class Counting(jinja2.Environment):
        def compile(self, *args, **kwargs):  # noqa: ANN002, ANN003, ANN202
            compiled.append(args[1] if len(args) > 1 else kwargs.get("name"))
            return original(self, *args, **kwargs)

    def render(cache: CompiledTemplates) -> str:
        """A template in a new environment, its memory a new process's (a new CompiledTemplates)."""
        return Counting(loader=jinja2.FileSystemLoader(tmp_path), bytecode_cache=cache).get_template("page.html").render(word="ciao")

    folder = tmp_path / "kept"
    assert render(CompiledTemplates(folder)) == "ciao!" and compiled == ["page.html"]
    assert render(CompiledTemplates(folder)) == "ciao!" and compiled == ["page.html"]  # read back, not compiled
    # A damaged file (a killed write, another format) is compiled again, never run.
    (stored,) = folder.glob("*.jinja")
    whole = stored.read_bytes()
    for damaged in (whole[: len(whole) // 2], whole[:16], b"\x00" * 40, b"not Jinja bytecode"):
        stored.write_bytes(damaged)
        before = len(compiled)
        assert render(CompiledTemplates(folder)) == "ciao!" and len(compiled) == before + 1
    # An edited template: its source checksum differs, its code is made again.
    (tmp_path / "page.html").write_text("{{ word }}?", encoding="utf-8")
    assert render(CompiledTemplates(folder)) == "ciao?" and len(compiled) == 6
    assert render(CompiledTemplates(folder)) == "ciao?" and len(compiled) == 6
    # Without a folder of its own, the active build cache's: `templates` in its folder.
    with using(BuildCache(folder=tmp_path / "build")):
        assert render(CompiledTemplates()) == "ciao?" and len(compiled) == 7
    assert list((tmp_path / "build" / "templates").glob("*.jinja"))
    with using(BuildCache(folder=tmp_path / "build")):
        assert render(CompiledTemplates()) == "ciao?" and len(compiled) == 7
    assert render(CompiledTemplates()) == "ciao?" and len(compiled) == 8  # no cache, no folder: compiled
