"""Hostile translations end to end, in a real browser (issue 16.5).

A Russian catalog full of attacks (script tags, event handlers, ``javascript:`` and ``data:``
links, Jinja syntax, comments, entities without ';', bidi and zero-width characters, a
megabyte-long text) is built into a site twice: as the project builds it (the checks refuse
every attack, the Italian source is shown with a visible mark) and with the checks switched
off (the renderer alone must keep the attacks inert). Chromium loads each page and nothing
may run: no dialog, no global set, no ``javascript:`` URL anywhere in the document.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rulebook.i18n import translate as translate_module
from tests.test_site_browser import CHROMIUM, FLAGS, playwright_api
from tests.test_site_build import RUSSIAN, build, make_project

pytestmark = [pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium-headless-shell or chromium is not installed (.ci/run installs it)"),
              pytest.mark.slow]

ATTACKS = {
    "demo:title": "<script>window.pwned = 'title'; alert(1)</script>",
    "demo:summary": "<img src=x onerror=\"window.pwned = 'summary'; alert(2)\"> {W} {hearts}",
    "demo/mana-bianco:title": "</title><script>window.pwned = 'head'</script>&lt/title&gt",
    "demo/mana-bianco:text": (
        "[x](javascript:window.pwned='md') <a href=\"javascript:window.pwned='a'\">link</a> {{ 7*7 }} {% raw %}x{% endraw %} "
        "<!-- c --> <svg onload=\"window.pwned='svg'\"></svg> data:text/html,<script>alert(3)</script> "
        "\u202egnp.exe \u200b\u2066 [[javascript:alert(4)]] [[pesca]] {W} {2/U} {d6} {CHAOS} [[altro:fine]]"
    ),
    "demo/mana-bianco/somma:text": "\" onmouseover=\"window.pwned='attr'\" x=\"",
    "demo/pesca:text": "javascript:window.pwned='text' " + "parola " * 125_000,  # 875 kB: the catalog stays under its 1 MiB limit
}
# What a reader must see as plain text when the renderer alone stands between the text and the page.
VISIBLE = ["<script>window.pwned = 'title'", "<img src=x onerror=", "{{ 7*7 }}", "<!-- c -->", "&lt/title&gt"]

PROBE = """() => {
  const bad = [];
  for (const el of document.querySelectorAll('*')) {
    for (const attr of el.attributes) {
      const value = attr.value.replace(/[\\s\\u0000-\\u001f]/g, '').toLowerCase();
      if (value.startsWith('javascript:') || value.startsWith('data:text/html') || attr.name.startsWith('on')) bad.push(el.tagName + ' ' + attr.name + '=' + attr.value.slice(0, 60));
    }
  }
  return {pwned: window.pwned === undefined ? null : String(window.pwned), bad,
          svg: document.querySelectorAll('article svg[onload], article img').length, text: document.body.innerText};
}"""


@pytest.fixture(scope="module")
def tab():
    """One tab for the module's pages: each visit loads a new document (its own window, so
    nothing one page set is seen by the next), while a new tab would start a renderer and
    compile Material's scripts again (~0.3 s of CPU a page)."""
    with playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        try:
            yield browser.new_page()
        finally:
            browser.close()


def visit(tab, site, path: str) -> dict:  # noqa: ANN001 - Playwright's Page
    dialogs: list[str] = []
    on_dialog = lambda dialog: (dialogs.append(dialog.message), dialog.dismiss())  # noqa: E731
    tab.on("dialog", on_dialog)
    try:
        tab.goto((site / path / "index.html").as_uri())  # returns at the load event
        found = tab.evaluate(PROBE)
    finally:
        tab.remove_listener("dialog", on_dialog)
    found["dialogs"] = dialogs
    return found


def assert_inert(found: dict) -> None:
    assert found["dialogs"] == [], found["dialogs"]
    assert found["pwned"] is None, found["pwned"]
    assert found["bad"] == [], found["bad"]
    assert found["svg"] == 0


def hostile_site(tmp_path) -> Path:  # noqa: ANN001 - pytest's tmp_path
    """The attacks built into a site as Italian and Russian: the other languages' pages hold
    nothing of the Russian catalog (~0.3 s of building each)."""
    return build(make_project(tmp_path, russian={**RUSSIAN, **ATTACKS}, check_examples=False, languages=["it", "ru"]), strict=False)


def test_hostile_translations_are_refused_and_shown_in_italian_with_a_mark(tmp_path, tab):
    site = hostile_site(tmp_path)
    found = visit(tab, site, "ru/demo")
    assert_inert(found)
    assert "Взять карту" in found["text"]  # the catalog was read: its clean translations are shown
    assert "Il giocatore pesca una carta dal mazzo." in found["text"]  # the Italian source instead of the attack
    assert "<script>" not in found["text"] and "parola parola" not in found["text"]
    html = (site / "ru" / "demo" / "index.html").read_text(encoding="utf-8")
    assert html.count('data-rb-state="fallback"') >= len(ATTACKS) - 1  # each refused text is visibly marked


def test_hostile_text_that_skipped_the_checks_is_still_only_text(tmp_path, tab, monkeypatch):
    # Defence in depth: with every check switched off, the attacks reach the templates.
    monkeypatch.setattr(translate_module, "message_problems", lambda *args, **kwargs: [])
    site = hostile_site(tmp_path)
    for path in ("ru/demo", "ru", "ru/coverage"):
        found = visit(tab, site, path)
        assert_inert(found)
        if path == "ru/demo":  # the page of the book: what it shows
            for text in VISIBLE:
                assert text in found["text"], text
            assert "parola parola" in found["text"]  # the megabyte text is there, as text
