"""The proof told in words (issue 13): each example's steps, from the run that checked it, in the page's language."""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache
from html import unescape
from pathlib import Path

import pytest

from rulebook.engines import planechase as pc
from markupsafe import Markup

from rulebook.engines.base import Applied, Fired, Refused, recording, setting_up
from rulebook.engines.casting import Cast, setup
from rulebook.examples import Outcome, run_books, run_example
from rulebook.loader import load_book, load_library, rulebook_paths
from rulebook.messages import Name, code, msg, msg_n, notation
from rulebook.errors import IllegalAction
from rulebook.render import Site
from rulebook.render.proofs import proof_steps
from rulebook.render.figures import board_svg, piece_labels


@lru_cache(maxsize=None)
def _strage_site() -> Site:
    book = load_book("rules/strage.yaml")
    outcomes = [run_example(book, rule, example) for rule, example in book.examples()][:40]
    return Site({book.id: book}, outcomes, languages=["it", "en", "fr", "ru"])


def _example(site: Site, language: str, predicate) -> tuple[str, object]:  # noqa: ANN001
    view = site.book_view("strage", language)
    outcome = next(o for o in site.outcomes if predicate(o))
    return view.proof(outcome.example.id, outcome.example.doctest), outcome


def test_each_fired_rule_is_a_step_in_the_order_of_the_run() -> None:
    site = _strage_site()
    proof, outcome = _example(site, "en", lambda o: any(isinstance(r, Applied) and r.trace for r in o.records))
    fired = [f for r in outcome.records if isinstance(r, Applied) for f in r.trace]
    refused = [r for r in outcome.records if isinstance(r, Refused)]
    assert len(proof["steps"]) == len(fired) + len(refused)
    # The English page says what the engine said, in the words of the English catalog (the msgids
    # are English too, but the catalog follows the English style sheet: "Red rolls 4"), and links
    # the rule by its number.
    first = str(proof["steps"][0])
    told = str(site.speech("strage", "en").say(fired[0].what))
    assert told and told in first
    anchor = site.anchors(outcome.book).get(fired[0].rule)
    if anchor:
        assert f'href="#{fired[0].rule}"' in first and f">{site.book_view('strage', 'en').label(anchor)}</a>" in first


def test_an_english_page_takes_the_engines_shared_words_from_the_english_catalog() -> None:
    # Strage has a domain of its own; a refusal out of turn is the engines' shared message, whose
    # English catalog follows the style sheet ("isn't"), where the msgid says "is not".
    said = _strage_site().speech("strage", "en").say(msg("{action} is not possible now: {now}", action="moving", now="later")).unescape()
    assert said == "moving isn't possible now: later"


def test_a_french_page_tells_the_steps_in_french_with_no_english_left() -> None:
    site = _strage_site()
    proof, outcome = _example(site, "fr", lambda o: any(isinstance(r, Applied) and r.trace for r in o.records))
    html = "".join(str(step) for step in proof["steps"])
    assert 'lang="en"' not in html, html  # nothing fell back to the msgids
    fired = [f for r in outcome.records if isinstance(r, Applied) for f in r.trace]
    assert str(fired[0].what) not in html


def test_a_refusal_names_the_rule_that_refused_and_why_in_the_page_language() -> None:
    site = _strage_site()
    proof, outcome = _example(site, "fr", lambda o: any(isinstance(r, Refused) for r in o.records))
    refusal = next(str(step) for step in proof["steps"] if "rb-step--refused" in str(step))
    error = next(r for r in outcome.records if isinstance(r, Refused)).error
    assert "Action refusée par la règle" in refusal
    number = site.anchors(outcome.book).get(error.rule_id)
    assert (f'href="#{error.rule_id}"' in refusal) == (number is not None)
    assert str(error.message) not in refusal  # said in French, not in the engine's English


def test_the_steps_come_from_the_recorded_run_not_from_the_doctest_text() -> None:
    # Breaking the recorder empties the steps: they are the run's, never re-derived.
    site = _strage_site()
    outcome = next(o for o in site.outcomes if o.records)
    view = site.book_view("strage", "it")
    assert view.proof(outcome.example.id, outcome.example.doctest)["steps"]
    site._outcomes[(outcome.book.id, outcome.example.id)] = type(outcome)(outcome.book, outcome.rule, outcome.example, outcome.attempted)
    assert view.proof(outcome.example.id, outcome.example.doctest)["steps"] == []


def test_tries_an_engine_makes_for_itself_are_not_recorded() -> None:
    game = setup(hand=["Lightning Bolt"], battlefield=["Mountain"])
    with recording() as records:
        legal = game.legal_actions()
    assert legal and records == []
    with recording() as records, pytest.raises(Exception):
        game.apply(Cast("no-such-card"))
    assert [type(r) for r in records] == [Refused]


def test_placeholders_are_filled_in_the_readers_language() -> None:
    site = _strage_site()
    speech = site.speech("strage", "fr")
    card = type("Card", (), {"name": "Lightning Bolt", "names": {"en": "Lightning Bolt", "fr": "Foudre", "it": "Fulmine"}})()
    said = speech.say(msg("{card} deals {n} damage; {code}", card=card, n=3, code=code(("a", 1))))
    assert "Foudre" in said and "3" in said and "<code>(&#39;a&#39;, 1)</code>" in said
    assert "Fulmine" in site.speech("strage", "it").value(Name.of({"en": "Lightning Bolt", "it": "Fulmine"}))
    plural = msg_n("{count} sprite must roll: {squares}", "{count} sprites must roll: {squares}", 2, count=2, squares="a1 b2")
    assert str(speech.say(plural)) == "on lance le dé pour 2 lutins\u00a0: a1 b2"  # French no-break space before the colon


def test_board_pieces_are_named_and_lettered_in_the_page_language() -> None:
    site = _strage_site()
    outcome = next(o for o in site.outcomes if o.figure is not None and any(p.kind == "half-elf" for p in o.figure.pieces))
    french = dict(piece_labels(outcome.figure, site.speech("strage", "fr").plain))
    french_svg = str(board_svg(outcome.figure, say=site.speech("strage", "fr").plain))
    assert any(name.startswith("demi-elfe ") for name in french)
    assert re.search(r"<title>demi-elfe (rouge|vert|bleu) [a-h][1-8]</title>", french_svg)
    assert not re.search(r"<title>(red|green|blue) half-elf", french_svg)
    english = dict(piece_labels(outcome.figure))
    assert any(name.endswith(" half-elf") for name in english)
    assert set(french.values()) <= {"O", "L", "D"} and set(english.values()) <= {"O", "S", "H"}


# --- rulings named by a step, and references to rulings -----------------------------------------

@lru_cache(maxsize=None)
def _library_site() -> Site:
    library = load_library(rulebook_paths(Path("rules")))
    return Site(library, run_books(library.values()), languages=["it", "en", "ru"])


def _ruling_steps(site: Site) -> Iterator[tuple[Outcome, str]]:
    """(outcome, ruling id) for each example whose run names a ruling of its book in a step."""
    for outcome in site.outcomes:
        rulings = {ruling.id for rule in outcome.book.rules() for ruling in rule.rulings}
        # A set-up record is shown as its one summary line (its steps stay in the doctest).
        shown = [f for r in outcome.records if isinstance(r, Applied) for f in ((r.summary,) if r.summary else r.trace)]
        named = [f.rule for f in shown if f.rule in rulings]
        named += [r.error.rule_id for r in outcome.records if isinstance(r, Refused) and r.error.rule_id in rulings]
        if named:
            yield outcome, named[0]


@pytest.mark.parametrize("language, ruling_word", [("en", "ruling"), ("ru", "решение")])
def test_a_step_that_names_a_ruling_links_to_it_by_where_it_is_in_the_page_language(language: str, ruling_word: str) -> None:
    site = _library_site()
    found = list(_ruling_steps(site))
    assert {outcome.book.id for outcome, _ in found} >= {"strage", "bingomagic"}
    for outcome, ruling_id in found:
        view = site.book_view(outcome.book.id, language)
        rule, index, ruling = next((rule, i, ruling) for rule in view.book.rules()
                                   for i, ruling in enumerate(rule.rulings, 1) if ruling.id == ruling_id)
        steps = "".join(str(step) for step in view.proof(outcome.example.id, outcome.example.doctest)["steps"])
        link = re.search(rf'<a class="rb-step-link" href="#{re.escape(ruling_id)}" title="([^"]*)">([^<]*)</a>', steps)
        assert link, (outcome.example.id, ruling_id, steps)
        assert link.group(2) == f"{rule.number}, {ruling_word} {index}"
        assert unescape(link.group(1)) == view.plain_text(ruling.text) != ""  # the ruling's text, as the page shows it


def _visible_text(html: str) -> str:
    """What a reader reads on a page: no tags or attributes, and no proof's code (a doctest is Python)."""
    html = re.sub(r'<details class="[^"]*rb-proof.*?</details>', " ", html, flags=re.S)
    html = re.sub(r"<(script|style|svg)\b.*?</\1>", " ", html, flags=re.S)
    return unescape(re.sub(r"<[^>]+>", " ", html))


def test_no_page_shows_a_ruling_id_and_references_name_rulings_in_the_page_language() -> None:
    site = _library_site()
    for book in site.books.values():
        ids = {ruling.id for rule in book.rules() for ruling in rule.rulings}
        shown = re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, sorted(ids, key=len, reverse=True))) + r")(?![\w-])")
        for language in ("en", "ru"):
            html = site.book_page(book.id, language).html
            text = _visible_text(html)
            assert not shown.findall(text), (book.id, language, sorted(set(shown.findall(text))))
            # The departures list names each ruling by its rule's number and its place among the rule's rulings.
            for item in re.findall(r'<ul class="rb-departures-list">(.*?)</ul>', html, re.S):
                labels = re.findall(r'<li><a href="#([^"]+)">([^<]*)</a>', item)
                word = site.words(language).gettext("{rule}, ruling {n}", rule="", n="").text.strip(", ").strip()
                assert labels and all(word in label and re.match(r"\d", label) for _, label in labels), labels


def test_planechase_steps_name_planes_in_print_and_draw_the_die_face() -> None:
    # Krosa was printed «Krosia» in French; the die face and the roll's cost are symbols with a
    # label in the page's language, never the tokens {CHAOS} and {1} as text.
    book = load_book("rules/planechase.yaml")
    site = Site({book.id: book}, [], languages=["it", "en", "fr", "ru"])
    state = pc.started([["Krosa", "Agyrem"], ["Naya"]], casual=True)
    step = state.run(pc.Roll(), pc.CHAOS, pc.Resolve(), pc.Roll())
    french = "".join(str(site.speech("planechase", "fr").say(f.what)) for f in step.trace)
    assert "Krosia" in french and "Krosa" not in french and "(P" not in french
    assert 'class="ms ms-chaos"' in french and "{CHAOS}" not in french and 'class="ms ms-1 ms-cost"' in french
    assert 'lang="en"' not in french, french
    russian = site.speech("planechase", "ru")
    assert "за 2-й бросок в этом ходу" in str(russian.say(step.trace[-2].what))  # review2-ru N4: was «бросок номер 2»
    assert "{" not in russian.plain(msg("{face}", face=notation("{CHAOS}")))


def test_a_game_set_up_is_one_line_and_the_example_s_own_steps_come_first() -> None:
    # started() keeps every hand, turns over the first plane and begins turn 1: the same opening in
    # every example (59 of 274 Planechase steps were "player N keeps a hand of 7"). A page tells it
    # in one line; the rules it fired stay in the record for the book's coverage.
    book = load_book("rules/planechase.yaml")
    site = Site({book.id: book}, [], languages=["it", "ru"])
    with recording() as records:
        state = pc.started([["Krosa"], ["Naya"], ["Agyrem"]], casual=True)
        state.apply(pc.Roll())
    setup, roll = records
    assert isinstance(setup, Applied) and setup.summary is not None and roll.summary is None
    assert [f.rule for f in setup.trace].count("mano-iniziale") == 3 and "primo-piano" in [f.rule for f in setup.trace]
    steps = proof_steps(records, site.speech("planechase", "ru"), lambda rule: Markup(rule))
    assert len(steps) == 1 + len(roll.trace) and "rb-step--setup" in steps[0] and "rb-step--setup" not in "".join(steps[1:])
    assert "каждый игрок оставляет руку из семи карт; игрок 1 открывает план Krosa" in steps[0]
    # A refusal inside the set-up leaves every record as it was.
    with recording() as records:
        with setting_up() as told:
            with pytest.raises(IllegalAction):
                pc.setup([["Krosa"], ["Naya"]], casual=True).apply(pc.Roll())
            told.append(Fired("mano-iniziale", msg("nothing")))
    assert [type(r) for r in records] == [Refused]


# What issue 26 found in Casting's and Planechase's proofs: Python values, players counted from 0,
# counts written "1 x", ASCII arrows and "X=5". None may come back, in any language.
_CODE_IN_PROSE = re.compile(r"\b[A-Z]\w*\((?!\d)|=|->|\b\d+(-\d+)?\+? x |\bP0\b|\b(player|giocatore|joueur|jugador|jogador|игрок\w*) 0\b|\(\d+(, \d+)+\)|\w\.\.\w")


@pytest.mark.parametrize("book_id", ["casting", "planechase"])
def test_casting_and_planechase_proofs_read_without_code_in_every_language(book_id: str) -> None:
    book = load_book(f"rules/{book_id}.yaml")
    languages = ["it", "en", "fr", "es", "pt", "ru"]
    site = Site({book.id: book}, run_books([book]), languages=languages)
    found = []
    for language in languages:
        view = site.book_view(book.id, language)
        for outcome in site.outcomes:
            for step in view.proof(outcome.example.id, outcome.example.doctest)["steps"]:
                text = unescape(re.sub(r"<[^>]+>", "", str(step)))
                if _CODE_IN_PROSE.search(text):
                    found.append(f"{language} {outcome.example.id}: {text}")
    assert not found, "\n".join(found[:20])
