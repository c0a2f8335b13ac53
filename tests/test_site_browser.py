"""The built site in a real browser (Debian's Chromium driven by Playwright).

Builds a small site (its own rulebooks and a Russian catalog, so the test means the same
whatever state the real catalogs are in), serves it on 127.0.0.1 on a free port from a thread,
and reads it as a person would: switch language on a rule, follow a cross-reference, search
in Russian, look at a mana symbol. Screenshots go to tests/screenshots/ (not committed).
"""

from __future__ import annotations

import functools
import http.server
import shutil
import threading
from pathlib import Path
from typing import Iterator
from urllib.parse import urlsplit

import pytest

from .test_site_build import build, make_project

playwright_api = pytest.importorskip("playwright.sync_api")

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
SCREENSHOTS = Path(__file__).parent / "screenshots"
FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed (.ci/run installs it)")


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the stdlib's name
        pass


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    site = build(make_project(tmp_path_factory.mktemp("browser")))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(site)))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(timeout=10)


@pytest.fixture(scope="module")
def browser_page(tmp_path_factory: pytest.TempPathFactory):
    SCREENSHOTS.mkdir(exist_ok=True)
    with playwright_api.sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            str(tmp_path_factory.mktemp("chromium-profile")),  # a fresh --user-data-dir
            executable_path=CHROMIUM, args=FLAGS, headless=True, viewport={"width": 1280, "height": 900},
        )
        try:
            yield context.new_page()
        finally:
            context.close()


def test_switch_language_on_a_rule_follow_a_link_search_and_see_icons(server: str, browser_page) -> None:
    page = browser_page
    expect = playwright_api.expect

    # An Italian rulebook, at a rule.
    page.goto(f"{server}/demo/#pesca")
    expect(page.locator("html")).to_have_attribute("lang", "it")
    expect(page.locator("h3#pesca")).to_contain_text("Pescare")
    page.screenshot(path=str(SCREENSHOTS / "it-demo.png"))

    # A mana symbol is an icon drawn by the Mana font, with a text alternative.
    icon = page.locator("#mana-bianco ~ .rb-text i.ms.ms-w").first
    expect(icon).to_have_attribute("aria-label", "mana bianco")
    page.wait_for_function("document.fonts.check('1em Mana')")
    style = icon.evaluate(
        "el => { const s = getComputedStyle(el, '::before'); return [getComputedStyle(el).fontFamily, s.content]; }"
    )
    assert "Mana" in style[0] and style[1] not in ("none", "normal", '""')
    box = icon.bounding_box()
    assert box and box["width"] > 5 and box["height"] > 5

    # Switch to Russian through the language menu: same book, same rule.
    page.hover(".md-header .md-select")
    page.locator('.md-select__link[hreflang="ru"]').click()
    page.wait_for_url("**/ru/demo/#pesca")
    expect(page.locator("html")).to_have_attribute("lang", "ru")
    expect(page.locator("h3#pesca")).to_contain_text("Взять карту")
    assert page.evaluate("location.hash") == "#pesca"
    page.screenshot(path=str(SCREENSHOTS / "ru-demo.png"))

    # A cross-reference to another rulebook shows the target's number and lands on it.
    link = page.locator('a.rb-xref[href="../altro/#fine"]')
    expect(link).to_have_text("1.1")
    link.click()
    page.wait_for_url("**/ru/altro/#fine")
    expect(page.locator("h3#fine")).to_be_visible()
    # Not translated yet: shown in Italian, and visibly marked.
    expect(page.locator("h3#fine .rb-badge")).to_be_visible()
    page.screenshot(path=str(SCREENSHOTS / "ru-altro.png"))

    # Search in Russian: another form of the word, found by the Russian stemmer, Russian pages only.
    search = page.locator(".md-search__input")
    search.click()
    search.fill("колодой")
    search.press("End")  # a key event, as a reader's keyboard makes (Material reads the query on keys)
    results = page.locator(".md-search-result__item a")
    expect(results.first).to_be_visible(timeout=15000)
    hrefs = results.evaluate_all("links => links.map(a => a.href)")
    found = [urlsplit(h) for h in hrefs]  # search.highlight adds ?h=... to the result links
    assert ("/ru/demo/", "pesca") in [(u.path, u.fragment) for u in found], hrefs
    assert all(u.path.startswith("/ru/") for u in found), hrefs
    page.screenshot(path=str(SCREENSHOTS / "ru-search.png"))

    # An Italian word of a translated rule is not in the Russian index.
    search.fill("giocatore")
    search.press("End")
    expect(page.locator(".md-search-result__meta")).to_be_visible()
    page.wait_for_timeout(500)
    assert page.locator(".md-search-result__item").count() == 0

    # The Italian search still finds it, in Italian pages only.
    page.goto(f"{server}/demo/")
    search = page.locator(".md-search__input")
    search.click()
    search.fill("giocatori")  # the text says "giocatore": found through the Italian stemmer
    search.press("End")
    results = page.locator(".md-search-result__item a")
    expect(results.first).to_be_visible(timeout=15000)
    hrefs = results.evaluate_all("links => links.map(a => a.href)")
    found = [urlsplit(h) for h in hrefs]
    assert ("/demo/", "pesca") in [(u.path, u.fragment) for u in found], hrefs
    assert not any(u.path.startswith(("/ru/", "/en/")) for u in found), hrefs
