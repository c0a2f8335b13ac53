"""The built site in a real browser (Debian's Chromium headless shell driven by Playwright).

Builds a small site (its own rulebooks and catalogs, so the test means the same whatever state
the real catalogs are in) with ``site_url`` under a base path, serves it there on 127.0.0.1 as a
web server would (a missing page gets its language's 404 page), and reads it as people do: every
page type in every language at desktop and phone sizes, in both colour schemes, with axe-core; searches typed in every
language; the language switcher; a printout. Every page load fails the test on any request
answered 4xx/5xx (but the 404 page's own), any request leaving 127.0.0.1, and any console error.
With RULEBOOK_SCREENSHOTS=1, screenshots of the pages go to tests/screenshots/ (not committed;
nothing is asserted of them, so the suite does not spend a second per language taking them).
"""

from __future__ import annotations

import functools
import http.server
import json
import os
import re
import socket
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator
from urllib.parse import parse_qs, urlsplit

import pytest

from rulebook.render.ui import shipped_words

from .chromium import CHROMIUM
from .site_search_project import add_search_book
from .test_site_build import REPO, build, make_project

playwright_api = pytest.importorskip("playwright.sync_api")
expect = playwright_api.expect

SCREENSHOTS = Path(__file__).parent / "screenshots" if os.environ.get("RULEBOOK_SCREENSHOTS") else None
FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
#: axe-core, installed from npm by .ci/run (npm ci --prefix build/npm, locked in .ci/npm/package-lock.json).
AXE = Path(os.environ.get("RULEBOOK_AXE", REPO / "build" / "npm" / "node_modules" / "axe-core" / "axe.min.js"))
LANGUAGES = ["it", "en", "fr", "es", "pt", "ru"]
SIZES = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}
BASE = "/base/"

#: Material's colour schemes (mkdocs.yml's palette), as its body names them; axe reads each.
SCHEMES = ("default", "slate")

#: A book whose example's proof tells its steps (a rule link in a line of text, a {2} icon in a
#: list item), run by a table the doctest defines on the engines' shared base: axe and the
#: layout checks see the steps as every engine's proof shows them.
STEPS_BOOK = """
book:
  id: passi
  title: Passi
  summary: Un esempio verificato passo per passo.
  language: it
  engine: rulebook.engines.base
sections:
  - id: pagare
    title: Pagare
    rules:
      - id: costo
        title: Il costo
        text: Si paga {2} per giocare la carta.
        examples:
          - id: paga-due
            text: Il giocatore paga il costo.
            doctest: |
              >>> from rulebook.engines.base import Fired, State
              >>> from rulebook.messages import msg, notation
              >>> class Pay:
              ...     pass
              >>> def pay(state, action, trace):
              ...     trace.append(Fired("costo", msg("paying {cost}", cost=notation("{2}"))))
              ...     return state
              >>> class Table(State):
              ...     handlers = {Pay: pay}
              ...     unknown_action_rule = "costo"
              ...     actions_are = "an action of this table"
              ...     current_player = 0
              ...     def legal_actions(self):
              ...         return [Pay()]
              ...     def outcome(self):
              ...         return None
              >>> Table().apply(Pay()).rules()
              ['costo']
          - id: avanza
            text: L'orco avanza di una casella.
            doctest: |
              >>> from dataclasses import dataclass
              >>> from rulebook.engines.base import State
              >>> from rulebook.figures import BoardFigure, Piece
              >>> @dataclass(frozen=True)
              ... class Board(State):
              ...     square: str = "d4"
              ...     current_player = 0
              ...     def legal_actions(self):
              ...         return []
              ...     def outcome(self):
              ...         return None
              ...     def figure(self):
              ...         moved = (("d4", self.square),) if self.square != "d4" else ()
              ...         return BoardFigure((Piece(self.square, "orc", "green"), Piece("d5", "sprite")), arrows=moved, marks=moved and ("d5",))
              >>> state = Board()
              >>> state = Board("e4")
"""

pytestmark = [pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium-headless-shell or chromium is not installed (.ci/run installs it)"),
              pytest.mark.slow]


def _handler(root: Path):
    class Handler(http.server.SimpleHTTPRequestHandler):
        """Serves the site under BASE; a missing page gets <lang>/404.html (else 404.html), as
        a server configured with one error page per language does."""

        def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the stdlib's name
            pass

        def translate_path(self, path: str) -> str:
            path = urlsplit(path).path
            if not path.startswith(BASE):
                return str(root / "\0missing")
            return super().translate_path("/" + path[len(BASE):])

        def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
            if code != 404:
                return super().send_error(code, message, explain)
            first = urlsplit(self.path).path[len(BASE):].split("/", 1)[0]
            page = root / first / "404.html" if first in LANGUAGES and (root / first / "404.html").exists() else root / "404.html"
            body = page.read_bytes()
            self.send_response(404)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body)

    return functools.partial(Handler, directory=str(root))


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    # The port is known before the build: site_url (canonical links, the 404 pages' links) is the served address.
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    root = tmp_path_factory.mktemp("browser")
    config = make_project(root, site_url=f"http://127.0.0.1:{port}{BASE}")
    add_search_book(root)
    (root / "rules" / "passi.yaml").write_text(STEPS_BOOK.lstrip(), encoding="utf-8")
    site = build(config)
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", port), _handler(site))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{port}{BASE}"
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(timeout=10)


#: The late requests we know of are search's (the index, the worker's scripts, its language's
#: stemmer), once the reader opened search (it starts then: rulebook-theme.js): they are over
#: when Material replaces the meta line's "Initializing search" (the worker said it is ready).
SEARCH_READY = """() => {
  const meta = document.querySelector('.md-search-result__meta');
  const words = JSON.parse(document.getElementById('__config').textContent).translations;
  return !meta || !document.getElementById('__search').checked || meta.textContent !== words['search.result.initializer'];
}"""
#: Then quiet means no request in flight and none sent for this long.
QUIET_MS = 50
#: Longer than this with a request in flight, or search not ready, fails the visit.
SETTLE_LIMIT_S = 15


@dataclass
class Watched:
    """A browser page whose every request and console message is watched."""

    page: object
    origin: str
    problems: list[str] = field(default_factory=list)
    allowed_404: str = ""
    #: Requests sent and not yet answered or failed (Playwright hands the same object to each event).
    in_flight: set = field(default_factory=set)
    #: The URL of every request sent since the last visit began.
    requested: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.listeners = {
            "console": lambda m: m.type == "error" and self.problems.append(f"console error: {m.text}"),
            "pageerror": lambda e: self.problems.append(f"page error: {e}"),
            "request": self._request, "response": self._response,
            "requestfinished": self._finished, "requestfailed": self._failed,
        }
        for event, listener in self.listeners.items():
            self.page.on(event, listener)

    def stop(self) -> None:
        """Stop watching: the tab goes on to the next test, which watches it afresh."""
        for event, listener in self.listeners.items():
            self.page.remove_listener(event, listener)

    def _request(self, request) -> None:  # noqa: ANN001 - Playwright's Request
        self.requested.append(request.url)
        self.in_flight.add(request)
        if not request.url.startswith((self.origin, "data:", "blob:")):
            self.problems.append(f"request off the site: {request.url}")

    def _response(self, response) -> None:  # noqa: ANN001 - Playwright's Response
        if response.status >= 400 and not (response.status == 404 and response.url == self.allowed_404):
            self.problems.append(f"HTTP {response.status}: {response.url}")

    def _finished(self, request) -> None:  # noqa: ANN001 - Playwright's Request
        self.in_flight.discard(request)

    def _failed(self, request) -> None:  # noqa: ANN001 - Playwright's Request
        self.in_flight.discard(request)
        self.problems.append(f"failed: {request.url} {request.failure}")

    def visit(self, url: str, *, missing: bool = False) -> None:
        """Open a page, let it settle, and fail on anything that went wrong while it loaded."""
        self.problems.clear()
        self.requested.clear()
        self.allowed_404 = url if missing else ""
        response = self.page.goto(url)  # returns at the load event
        assert response is not None and response.status == (404 if missing else 200), url
        self.page.evaluate("document.fonts.ready.then(() => null)")
        self.settle(url)

    def settle(self, what: str) -> None:
        """Wait for the late requests we know of (the search worker's), for every request in
        flight to end and then for a quiet moment (a request sent in it is waited for too), then
        fail on anything that went wrong."""
        deadline = time.monotonic() + SETTLE_LIMIT_S
        # Mostly ready at once: asked first, as wait_for_function would, without Playwright's
        # injected script, which its polling needs started in the page (~15 ms of CPU a page).
        try:
            try:
                ready = self.page.evaluate(SEARCH_READY)
            except playwright_api.Error:  # a page still being replaced: wait_for_function waits for it
                ready = False
            if not ready:
                self.page.wait_for_function(SEARCH_READY, timeout=SETTLE_LIMIT_S * 1000)
        except playwright_api.TimeoutError:
            pytest.fail(f"{what}: search not ready after {SETTLE_LIMIT_S} s: {self.problems}")
        while True:
            while self.in_flight:  # their events reach us while we wait
                assert time.monotonic() < deadline, f"{what}: still in flight after {SETTLE_LIMIT_S} s: {[r.url for r in self.in_flight]}"
                self.page.wait_for_timeout(5)
            try:
                self.page.wait_for_event("request", timeout=QUIET_MS)
            except playwright_api.TimeoutError:
                break
        # A 404 document itself makes Chromium say so in the console; nothing else may.
        found = [p for p in self.problems if not (self.allowed_404 and "404 (Not Found)" in p and p.startswith("console error: Failed to load resource"))]
        assert not found, f"{what}: {found}"


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory):
    if SCREENSHOTS:
        SCREENSHOTS.mkdir(exist_ok=True)
    with playwright_api.sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            str(tmp_path_factory.mktemp("chromium-profile")),  # a fresh --user-data-dir
            executable_path=CHROMIUM, args=FLAGS, headless=True, viewport=SIZES["desktop"],
        )
        try:
            yield context
        finally:
            context.close()


@pytest.fixture(scope="module")
def tab(browser):  # noqa: ANN001, ANN201 - Playwright's BrowserContext and Page
    """One browser tab for the module's tests, as a reader keeps one open: a new tab costs
    Chromium ~0.2 s of CPU (a renderer started), a page opened in a tab only the page's own.
    With axe-core in every page it opens (Chromium caches the script compiled: a page that
    does not run it pays nothing measurable)."""
    page = browser.new_page()
    if AXE.exists():
        page.add_init_script(path=str(AXE))
    try:
        yield page
    finally:
        page.close()


@pytest.fixture
def watched(tab, server: str) -> Iterator[Watched]:  # noqa: ANN001 - Playwright's Page
    tab.set_viewport_size(SIZES["desktop"])  # whatever size the test before left it at
    watched = Watched(tab, server.split(BASE)[0])
    try:
        yield watched
        # Until the test's end: a request sent late, after the last settle of the test, and
        # anything that went wrong since, fail the test too.
        watched.settle("the end of the test")
    finally:
        watched.stop()


def screenshot(page, name: str) -> None:  # noqa: ANN001 - Playwright's Page
    if SCREENSHOTS:
        page.screenshot(path=str(SCREENSHOTS / f"{name}.png"))


def prefix(language: str) -> str:
    return "" if language == "it" else f"{language}/"


# --- every page type in every language ---------------------------------------------------------

CONTRAST = """els => els.map(el => {
  const rgb = s => s.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const lum = c => { const [r, g, b] = c.map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
                     return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  const style = getComputedStyle(el);
  const [a, b] = [lum(rgb(style.color)), lum(rgb(style.backgroundColor))];
  return [el.className, (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05)];
})"""


#: Resolves after two frames: the resize and media query events of the first have been handled.
NEXT_FRAMES = "new Promise(done => requestAnimationFrame(() => requestAnimationFrame(() => done(null))))"


#: What a reader sees of the boards of the steps book's moving example (at the desktop size).
BOARDS_SEEN = """() => {
    const seen = element => element.getBoundingClientRect().width > 1 && element.getBoundingClientRect().height > 1;
    const boards = [...document.querySelectorAll('#avanza .rb-board')];
    const [first, second] = boards.map(board => board.getBoundingClientRect());
    return {boards: boards.filter(seen).length, sideBySide: !!second && Math.abs(first.top - second.top) < 1 && second.left >= first.right,
            captions: [...document.querySelectorAll('#avanza .rb-board-caption')].filter(seen).map(c => c.firstChild.textContent.trim()).filter(Boolean),
            legend: [...document.querySelectorAll('#avanza .rb-legend li')].filter(seen).length,
            words: [...document.querySelectorAll('#avanza .rb-board-words')].filter(seen).length};
}"""

#: axe's rules whose every check is minor or moderate, read from axe's own data (a check of
#: unknown impact counts as serious). A violation is as serious as its worst failed check, so
#: these can never report what the test looks for; switched off, axe takes ~25% less time.
MILD_RULES = """() => axe._audit.rules.filter(rule => [...rule.any, ...rule.all, ...rule.none]
    .every(check => ['minor', 'moderate'].includes((axe._audit.data.checks[check.id || check] || {}).impact))).map(rule => rule.id)"""


def use_scheme(page, scheme: str) -> None:  # noqa: ANN001 - Playwright's Page
    """Switch Material's colour scheme as a reader does, with its button in the header."""
    if page.evaluate("document.body.getAttribute('data-md-color-scheme')") != scheme:
        page.evaluate("document.querySelector('[data-md-component=palette] label:not([hidden])').click()")
        page.evaluate(NEXT_FRAMES)
    assert page.evaluate("document.body.getAttribute('data-md-color-scheme')") == scheme


#: The coverage table's column headers whose word is wider than its column (the browser breaks
#: it mid-word: "текс|тов"): each word measured on one line in the header's own font and
#: direction, against the room the header has for it.
WORDS_BROKEN = """[...document.querySelectorAll('.rb-coverage-grid thead th')].filter(th => {
  const style = getComputedStyle(th), upright = style.writingMode.startsWith('vertical');
  const room = upright ? th.clientHeight - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom)
                       : th.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  return th.textContent.trim().split(/\\s+/).some(word => {
    const probe = document.createElement('span');
    probe.textContent = word;
    probe.style.cssText = 'white-space: nowrap; position: absolute';
    th.appendChild(probe);
    const box = probe.getBoundingClientRect();
    probe.remove();
    return (upright ? box.height : box.width) > room + 0.5;
  });
}).map(th => th.textContent.trim())"""


def axe_findings(page) -> list[tuple[str, str, str]]:  # noqa: ANN001 - Playwright's Page
    """(rule, impact, element) of every serious or critical axe violation on the page (its
    script added to the tab with add_init_script: Chromium caches it compiled); axe's other
    rules as they are by default."""
    found = page.evaluate(f"""async () => {{
        const mild = ({MILD_RULES})();
        if (!mild.length || mild.includes('color-contrast')) throw new Error('axe rules not read right: ' + mild);
        const rules = Object.fromEntries(mild.map(id => [id, {{enabled: false}}]));
        return (await axe.run(document, {{resultTypes: ['violations'], rules}})).violations
            .filter(v => v.impact === 'serious' || v.impact === 'critical')
            .flatMap(v => v.nodes.map(n => [v.id, v.impact, n.target.join(' ')]));
    }}""")
    return [tuple(f) for f in found]


@pytest.mark.skipif(not AXE.exists(), reason=f"axe-core is not installed at {AXE} (.ci/run installs it from npm)")
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_page_type_loads_cleanly_and_passes_axe_at_desktop_and_phone_sizes_and_search_finds_what_it_should(
        watched: Watched, server: str, language: str) -> None:
    """Each page type, then the language's QUERIES typed on its 404 page: search is opened
    there anyway (its worker's scripts found from a page deep under a missing path), and a
    search page of their own would cost a page load and a search worker more per language."""
    page = watched.page  # axe-core is in every page it opens (the tab fixture)
    title_404 = shipped_words(language).gettext("Page not found").text
    pages = {"home": prefix(language), "book": prefix(language) + "demo/", "steps": prefix(language) + "passi/",
             "coverage": prefix(language) + "coverage/", "glossary": prefix(language) + "glossary/",
             # A missing page deep under the language's folder: its 404 page, links absolute under /base/.
             "404": prefix(language) + "no/such/page/"}
    for kind, path in pages.items():
        page.set_viewport_size(SIZES["desktop"])
        watched.visit(server + path, missing=kind == "404")
        # Read with evaluate, not locators: Playwright's injected script (which locators need)
        # would cost every page ~15 ms of CPU more.
        assert page.evaluate("document.documentElement.getAttribute('lang')") == language, kind
        # Nothing fetched for nothing (rulebook-theme.js): Material's sitemaps (one per hreflang
        # alternate) would serve only its own language switch, which rulebook.js replaces; the
        # search index only search, which the reader has not opened.
        assert not [u for u in watched.requested if urlsplit(u).path.endswith(("/sitemap.xml", "/search_index.json"))], kind
        if kind == "steps":
            # A {2} in a step (a list item) sits beside its words: mana-font's own rule for it
            # (margin-left: inherit) gave it the item's 1.25em.
            gaps = page.evaluate("[...document.querySelectorAll('.rb-step .ms-2')].map(i => parseFloat(getComputedStyle(i).marginLeft))")
            assert gaps and max(gaps) < 2, gaps
            # The moving example's two boards side by side, each captioned, and the legend under
            # them: seen (its words for screen readers are not).
            seen = page.evaluate(BOARDS_SEEN)
            assert seen["boards"] == 2 and seen["sideBySide"] and len(seen["captions"]) == 2 and seen["legend"] == 4 and not seen["words"], seen
        if kind == "404":
            assert page.locator("h1").first.inner_text() == title_404
            assert page.title().startswith(title_404)
            assert page.evaluate("getComputedStyle(document.querySelector('.md-header')).position") in ("sticky", "fixed")  # styled
            assert page.locator(".rb-not-found a.rb-not-found-home").get_attribute("href") == BASE + prefix(language)  # its language's home
            # And every book of its language.
            books = page.locator(".rb-not-found-books a").evaluate_all("links => links.map(a => a.getAttribute('href'))")
            assert books == [f"{BASE}{prefix(language)}{book}/" for book in ("altro", "cerca", "demo", "passi")], books
            menu = page.locator("a.rb-alternate").evaluate_all("links => links.map(a => [a.hreflang, a.getAttribute('href')])")
            assert menu == [[other, BASE + prefix(other)] for other in LANGUAGES]
        for size, viewport in SIZES.items():
            page.set_viewport_size(viewport)
            page.evaluate(NEXT_FRAMES)  # Material's layout has answered the resize
            for scheme in SCHEMES:
                use_scheme(page, scheme)
                findings = axe_findings(page)
                assert not findings, (kind, size, scheme, findings)
                # axe cannot judge text on a background it cannot see (a badge in an admonition title
                # with a pseudo-element): our own badges are measured here.
                for name, ratio in page.evaluate(f"({CONTRAST})([...document.querySelectorAll('.rb-status, .rb-badge')])"):
                    assert ratio >= 4.5, (kind, size, scheme, name, ratio)
            if kind == "coverage":
                assert not page.evaluate(WORDS_BROKEN), (size, page.evaluate(WORDS_BROKEN))
            # Nothing is cut off: the page never scrolls sideways (the coverage table fits a phone).
            overflow = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
            assert overflow[0] <= overflow[1], (kind, size, overflow)
            if kind in ("book", "coverage"):
                screenshot(page, f"{language}-{kind}-{size}")
        if kind == "404":
            # Search works there too (the worker's scripts found from a page deep under a missing
            # path): opened, it gets ready, and finds what it should.
            page.set_viewport_size(SIZES["desktop"])
            page.locator(".md-search__input").click()
            expect_search_ready(page)
            searches_find_what_they_should(watched, language)
        watched.settle(f"{kind} page")
    if language == "ru":
        a_stemmed_hit_followed_is_highlighted_on_arrival(watched)


# --- search ------------------------------------------------------------------------------------

def expect_search_ready(page) -> None:  # noqa: ANN001 - Playwright's Page
    """Search was opened: its worker gets ready (it answers the empty query with the placeholder)."""
    placeholder = json.loads(page.locator("#__config").text_content())["translations"]["search.result.placeholder"]
    expect(page.locator(".md-search-result__meta")).to_have_text(placeholder)


def search(watched: Watched, query: str) -> list[dict]:
    """Type a query as a reader does; every result shown: its link's book, anchor, ?h= and missing words."""
    page = watched.page
    box = page.locator(".md-search__input")
    box.click()
    # Material writes the result count into the meta line for every answer of its search worker,
    # once the worker is ready (its index loaded); the list is filled in the same step. The
    # placeholder there is the answer to the empty query: the worker is ready.
    if not box.input_value():
        expect_search_ready(page)
    page.evaluate("window.rbAnswered = document.querySelector('.md-search-result__meta').firstChild")
    box.fill(query)
    box.press("End")  # a key event, as a reader's keyboard makes (Material reads the query on keys)
    # The answer to this query: Material wrote the meta line anew (a new text node).
    page.wait_for_function("document.querySelector('.md-search-result__meta').firstChild !== window.rbAnswered")
    results = page.locator(".md-search-result__link").evaluate_all(
        "links => links.map(a => [a.href, (a.querySelector('.md-search-result__terms') || {}).textContent || ''])")
    watched.settle(f"search {query!r}")
    found = []
    for href, missing in results:
        url = urlsplit(href)
        found.append({"path": url.path, "anchor": url.fragment, "h": parse_qs(url.query).get("h", [""])[0], "missing": missing})
    return found


def anchors(found: list[dict], book: str) -> set[str]:
    return {r["anchor"] for r in found if r["path"].endswith(f"/{book}/") and r["anchor"]}


#: (language, query, the rules of the search book it must find). Found through the stemmer
#: (giocatori/giocatore, shuffling/shuffled, mélangée/mélange, embaralhar/embaralhado,
#: колодой/колода/колоду), a game term kept whole (mana is not mano), a symbol by its text
#: alternative (a mana symbol by its label; {X} is read "X", the variable, in every language since review2-en
#: R-C1, review3-it K7, es S3-2, fr SI-4, ru CA3: so a search for "mana" no longer finds the {X} title).
QUERIES = [
    ("it", "giocatori", {"terre", "mano"}),
    ("it", "mana", {"mana"}),
    ("en", "shuffling", {"mazzo"}),
    ("en", "shortcut", {"scorciatoia"}),
    ("fr", "mélangée", {"mazzo"}),
    ("fr", "main", {"mano"}),
    ("es", "mana", {"mana"}),
    ("es", "manos", {"mano"}),
    ("es", "tierras", {"terre", "mana"}),
    ("pt", "embaralhar", {"mazzo"}),
    ("pt", "mão", {"mano"}),
    ("ru", "колодой", {"mazzo"}),
    ("ru", "землей", {"terre", "mana"}),
    ("ru", "маной", {"mana"}),
]


def searches_find_what_they_should(watched: Watched, language: str) -> None:
    """QUERIES of the language typed into the search box of the page open, one of that language."""
    for _, query, expected in [q for q in QUERIES if q[0] == language]:
        found = search(watched, query)
        assert anchors(found, "cerca") == expected, (language, query, found)
        # Only pages of the reader's language.
        assert all(r["path"].startswith(BASE + prefix(language)) and not any(
            r["path"].startswith(f"{BASE}{other}/") for other in LANGUAGES if other != language) for r in found), found
        for result in found:
            assert not result["missing"], (query, result)  # a word that matched is never "missing"
            if result["anchor"] in expected:
                assert result["h"], (query, result)  # the page will highlight what was found
    screenshot(watched.page, f"{language}-search")


def a_stemmed_hit_followed_is_highlighted_on_arrival(watched: Watched) -> None:
    """On a Russian page with search open: a stemmed hit followed to its page, which highlights
    it; a word not found is named as the reader typed it."""
    page = watched.page
    found = search(watched, "колодой дракон")  # the deck (another form of it is in the text), and a dragon (not at all)
    mazzo = [r for r in found if r["anchor"] == "mazzo"]
    assert mazzo and mazzo[0]["missing"].split(":")[-1].split() == ["дракон"], found
    assert set(mazzo[0]["h"].split()) <= {"колода", "колоду"} and mazzo[0]["h"], mazzo
    page.locator('.md-search-result__link[href*="#mazzo"]').first.click()
    page.wait_for_url("**/ru/cerca/**#mazzo")
    marks = page.locator("mark[data-md-highlight]")
    marks.first.wait_for()
    assert {t.lower() for t in marks.all_inner_texts()} <= {"колода", "колоду"}, marks.all_inner_texts()
    watched.settle("the highlighted page")


# --- reading -----------------------------------------------------------------------------------

def test_switch_language_on_a_rule_follow_a_link_and_see_icons(watched: Watched, server: str) -> None:
    page = watched.page

    # An Italian rulebook, at a rule.
    watched.visit(server + "demo/#pesca")
    expect(page.locator("h3#pesca")).to_contain_text("Pescare")

    # A mana symbol is an icon drawn by the Mana font (its woff2), with a text alternative.
    icon = page.locator("#mana-bianco ~ .rb-text i.ms.ms-w").first
    expect(icon).to_have_attribute("aria-label", "mana bianco")
    page.wait_for_function("document.fonts.check('1em Mana')")
    style = icon.evaluate("el => { const s = getComputedStyle(el, '::before'); return [getComputedStyle(el).fontFamily, s.content]; }")
    assert "Mana" in style[0] and style[1] not in ("none", "normal", '""')
    box = icon.bounding_box()
    assert box and box["width"] > 5 and box["height"] > 5
    fonts = [u for u in page.evaluate("performance.getEntriesByType('resource').map(e => e.name)") if "/mana-font/fonts/" in u]
    assert [urlsplit(u).path.rsplit("/", 1)[-1] for u in fonts] == ["mana.woff2"], fonts

    # Switch to Russian through the language menu: same book, same rule.
    page.hover(".md-header .md-select")
    # The menu shows every language whole (Material's 10rem cut the sixth in half).
    menu = page.evaluate("(l => [l.scrollHeight, l.clientHeight])(document.querySelector('.md-header .md-select__list'))")
    assert menu[0] <= menu[1], menu
    page.locator('.md-select__link[hreflang="ru"]').click()
    page.wait_for_url("**/ru/demo/#pesca")
    expect(page.locator("html")).to_have_attribute("lang", "ru")
    expect(page.locator("h3#pesca")).to_contain_text("Взять карту")
    assert page.evaluate("location.hash") == "#pesca"
    watched.settle("after switching language")

    # A cross-reference to another rulebook shows the target's number; hovered, or reached by
    # the keyboard, it previews the rule it names (the book, number, title and first sentence)
    # without leaving the page, and no browser tooltip repeats it.
    link = page.locator('a.rb-xref[href="../altro/#fine"]')
    expect(link).to_have_text("1.1")
    preview = page.locator(".rb-preview")
    link.hover()
    expect(preview).to_be_visible()
    expect(preview).to_have_text(re.compile(r"^Altro libro 1\.1 La fine — Si torna a 1\.2 "))
    assert link.get_attribute("title") is None and link.get_attribute("aria-describedby") == "rb-preview"
    page.mouse.move(0, 0)
    expect(preview).to_be_hidden()
    inside = page.locator('.rb-text a.rb-xref[href="#pesca"]').first
    inside.focus()
    expect(preview).to_have_text("1.2 Взять карту — Игрок берёт карту из колоды.")
    box, at = preview.bounding_box(), inside.bounding_box()
    assert box and at and box["y"] >= at["y"] + at["height"] and box["x"] + box["width"] <= SIZES["desktop"]["width"]
    page.keyboard.press("Escape")
    expect(preview).to_be_hidden()
    link.click()
    page.wait_for_url("**/ru/altro/#fine")
    expect(page.locator("h3#fine")).to_be_visible()
    # Not translated yet: shown in Italian, and visibly marked.
    expect(page.locator("h3#fine .rb-badge")).to_be_visible()
    watched.settle("after following a cross-reference")

    # Every rule has a permalink by its number: #1.2 is rule 1.2, shown below the sticky header
    # (Material's :target margin).
    watched.visit(server + "ru/demo/#1.2")
    heading = page.locator("h3#pesca")
    expect(heading).to_be_in_viewport()
    header = page.locator(".md-header").bounding_box()
    assert header and heading.bounding_box()["y"] >= header["y"] + header["height"] - 1


def test_printing_a_page_prints_the_rulebook_only(watched: Watched, server: str) -> None:
    page = watched.page
    watched.visit(server + "demo/")
    page.locator("details.rb-proof summary").first.click()  # a reader opened a proof before printing
    page.emulate_media(media="print")
    try:
        # The same compact book as the PDF: an example's outcome and steps, not its code, even opened.
        for hidden in (".md-header", ".md-sidebar--primary", ".md-footer", ".headerlink", "details.rb-proof"):
            assert not page.locator(hidden).first.is_visible(), hidden
        styles = page.evaluate("""() => [getComputedStyle(document.querySelector('.rb-proof pre')).whiteSpace,
                                         getComputedStyle(document.querySelector('h2')).breakAfter,
                                         getComputedStyle(document.querySelector('.rb-example')).breakInside]""")
        assert styles == ["pre-wrap", "avoid", "avoid"]
        # The PDF's type size (render/print.css: 9pt, 12 px), not the screen's 16 px: Strage
        # printed from the browser took 77 pages with its proofs open, the PDF 37.
        assert page.evaluate("getComputedStyle(document.querySelector('.rb-text p')).fontSize") == "12px"
    finally:
        page.emulate_media(media="screen")
