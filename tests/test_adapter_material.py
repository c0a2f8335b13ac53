"""adapters/material.py against the installed mkdocs-material: every assumption the toolkit's
templates, scripts and plugin make of Material beyond its documented overrides still holds.

The adapter was written for mkdocs-material 9.5-9.8 (``WRITTEN_FOR``); each failure names those
versions, the installed one and the assumption to look at again.
"""

from __future__ import annotations

import re
from importlib.metadata import version
from pathlib import Path

import material
import pytest

from rulebook.adapters import material as adapter

MATERIAL = Path(material.__file__).resolve().parent / "templates"
JS = adapter.THEME / "assets" / "javascripts"


def why(assumption: str) -> str:
    return (f"adapters/material.py was written for {adapter.WRITTEN_FOR}; mkdocs-material {version('mkdocs-material')} "
            f"breaks an assumption: {assumption}")


def one(pattern: str) -> str:
    found = sorted(MATERIAL.glob(pattern))
    assert len(found) == 1, why(f"one file {pattern}, found {found}")
    return found[0].read_text(encoding="utf-8")


@pytest.mark.parametrize("block", adapter.BLOCKS)
def test_the_blocks_main_html_overrides_are_in_materials_base(block):
    assert f"{{% block {block} %}}" in (MATERIAL / "base.html").read_text(encoding="utf-8"), why(f"base.html has the block {block}")
    assert f"{{% block {block} %}}" in (adapter.THEME / "main.html").read_text(encoding="utf-8")


@pytest.mark.parametrize("partial", adapter.PARTIALS + adapter.REPLACED)
def test_the_partials_we_include_or_replace_are_materials(partial):
    assert (MATERIAL / partial).is_file(), why(f"Material has {partial}")


def test_every_language_partial_names_its_lunr_language_and_a_stemmer_is_shipped_for_it():
    partials = sorted((MATERIAL / "partials" / "languages").glob("*.html"))
    assert len(partials) > 40, why("partials/languages/<code>.html, one per language")
    russian = (MATERIAL / "partials" / "languages" / "ru.html").read_text(encoding="utf-8")
    assert "{% macro t(key) %}" in russian and '"search.config.lang": "ru"' in russian, why("macro t with search.config.lang")
    assert (MATERIAL / "assets" / "javascripts" / "lunr" / "min" / "lunr.ru.min.js").is_file(), why("lunr/min/lunr.<code>.min.js")


def test_the_labels_a_site_may_reword_are_keys_materials_partials_translate():
    """render/theme_labels.py: a catalog rewords Material's label by its key (msgctxt material:KEY)."""
    from rulebook.render.theme_labels import PREFIX, THEME_LABELS
    english = (MATERIAL / "partials" / "languages" / "en.html").read_text(encoding="utf-8")
    for context, message in THEME_LABELS:
        key = context.removeprefix(PREFIX)
        assert f'"{key}": "{message}"' in english, why(f"the key {key!r} of Material's partials, in English {message!r}")


def test_the_search_worker_is_the_file_rulebook_theme_js_recognises():
    workers = [p.name for p in (MATERIAL / "assets" / "javascripts" / "workers").glob("search.*.js")]
    assert workers and all(re.search(adapter.SEARCH_WORKER, "/assets/javascripts/workers/" + name) for name in workers), why(
        f"the search worker matches {adapter.SEARCH_WORKER}: {workers}")
    theme_js = (JS / "rulebook-theme.js").read_text(encoding="utf-8")
    assert f"/{adapter.SEARCH_WORKER}/" in theme_js, "rulebook-theme.js recognises the worker by the adapter's pattern"


def test_the_worker_protocol_is_the_one_rulebook_search_js_reads():
    worker = one("assets/javascripts/workers/search.*.min.js")
    types = adapter.WORKER_MESSAGES
    # Material's handler: SETUP gets the config and answers READY; QUERY is answered with RESULT.
    setup = rf"case {types['SETUP']}:return yield \w+\(\w+\.data\.config\),\w+=new \w+\(\w+\.data\),\{{type:{types['READY']}\}}"
    query = rf"case {types['QUERY']}:let \w+=\w+\.data;try\{{return\{{type:{types['RESULT']},data:"
    assert re.search(setup, worker) and re.search(query, worker), why(f"the worker's message types {types}")
    ours = (JS / "workers" / "rulebook-search.js").read_text(encoding="utf-8")
    assert f"var SETUP = {types['SETUP']}, QUERY = {types['QUERY']}, RESULT = {types['RESULT']};" in ours


def test_the_bundle_fetches_the_index_and_sitemaps_with_xmlhttprequest_and_reads_the_page_config():
    bundle = one("assets/javascripts/bundle.*.min.js")
    for needed in ("XMLHttpRequest", "search/search_index.json", "sitemap.xml"):
        assert needed in bundle, why(f"the bundle uses {needed}")
    base = (MATERIAL / "base.html").read_text(encoding="utf-8")
    assert 'id="__config"' in base and 'id="__search"' in base, why("base.html has #__config and the #__search toggle")


def _site_meta(template: str) -> list[str]:
    start = template.index("{% block site_meta %}")
    lines = template[start:template.index("{% endblock %}", start)].splitlines()
    # The generator's name carries Material's version in some releases: not a difference.
    return [re.sub(r"mkdocs-material[^\"]*\"", 'mkdocs-material"', line) for line in lines]


def _without_alternates(lines: list[str], opening: str) -> list[str]:
    """The block without the hreflang alternates (the if-chain starting at the line with ``opening``)."""
    starts = [i for i, line in enumerate(lines) if opening in line]
    if not starts:
        return lines  # Material before 9.7 writes none in this block
    end = next(i for i in range(starts[0], len(lines)) if lines[i].strip() == "{% endif %}")
    return lines[:starts[0]] + lines[end + 1:]


def test_main_html_repeats_materials_site_meta_changed_only_where_marked():
    # The hreflang alternates are ours (those of the very page); every other line is Material's.
    ours = _without_alternates(_site_meta((adapter.THEME / "main.html").read_text(encoding="utf-8")), "Changed from Material's block")
    theirs = _without_alternates(_site_meta((MATERIAL / "base.html").read_text(encoding="utf-8")), "{% if config.extra.alternate is iterable %}")
    assert ours == theirs, why("base.html's site_meta block is the one theme/main.html repeats: copy Material's again and mark the change")


def test_materials_header_and_palette_read_the_words_page_config_replaces():
    """page_config hands Material's header a config whose site name and colour schemes' buttons
    are the page's language: Material must read them there."""
    header = (MATERIAL / "partials" / "header.html").read_text(encoding="utf-8")
    palette = (MATERIAL / "partials" / "palette.html").read_text(encoding="utf-8")
    assert "config.site_name" in header and 'include "partials/palette.html"' in header, why("header.html names the site from config")
    assert "config.theme.palette" in palette and "option.toggle.name" in palette, why("palette.html reads the toggles' names")


def test_the_search_plugins_only_page_hook_reads_the_page_and_strips_its_markdown_body():
    """mkdocs serve writes a page again as it was while no other plugin could change it
    (rulebook.served): Material's search plugin is let through for its on_page_context alone,
    which indexes the page and rewrites the body before ours is put in place."""
    import inspect

    from material.plugins.search.plugin import SearchPlugin

    from rulebook.adapters.generator import BasePlugin

    page_events = {"on_pre_page", "on_page_read_source", "on_page_markdown", "on_page_content", "on_page_context", "on_post_page", "on_env"}
    own = {name for name in page_events if getattr(SearchPlugin, name, None) is not getattr(BasePlugin, name, None)}
    assert own == adapter.harmless_page_events(SearchPlugin()) == {"on_page_context"}
    assert "page.content" in inspect.getsource(SearchPlugin.on_page_context)
