"""Casting tells its steps with values a page in any language can show (issue 13.1): cards and
players by name, mana as notation, every English word a message of the engine's domain."""

from __future__ import annotations

from functools import lru_cache

import pytest

from rulebook.engines.base import Fired
from rulebook.engines.casting import Cast, setup
from rulebook.engines.casting.cards import card, cost_part_words
from rulebook.engines.casting.mana import Pool
from rulebook.errors import IllegalAction
from rulebook.examples import run_example
from rulebook.loader import load_book
from rulebook.messages import Message, Name, Notation
from rulebook.render import Site


def _refusal(game, action) -> Message:  # noqa: ANN001
    with pytest.raises(IllegalAction) as refused:
        game.apply(action)
    message = refused.value.message
    # The game wraps a refused cast's reason: "{message}; the cast is reversed ..."
    return message.values.get("message", message)


def _step(trace: list[Fired], msgid: str) -> Message:
    return next(f.what for f in trace if f.what.msgid == msgid)


def test_a_refusal_names_the_card_it_quotes_not_its_id() -> None:
    game = setup(hand=["Terror"], pool="BB", their_battlefield=["White Knight"])
    said = _refusal(game, Cast("terror", targets="white-knight"))
    target = said.values["target"]
    assert isinstance(target, Name) and dict(target.names)["fr"] == card("White Knight").names["fr"]
    assert str(target) == "'white-knight'"  # the English text still quotes the action, as the doctests read
    assert said.values["problem"].values["colour"].context == "protection from"


def test_meddling_mage_names_the_card_and_shows_itself_once() -> None:
    game = setup(hand=["Lightning Bolt"], pool="R", their_battlefield=["mago=Meddling Mage"]).set("mago", chosen="Lightning Bolt")
    said = _refusal(game, Cast("lightning-bolt", targets="p2"))
    assert said.values["c"] is card("Lightning Bolt")
    assert str(said.values["permanent"]) == "Meddling Mage (mago)"
    assert dict(said.values["permanent"].names)["it"] == card("Meddling Mage").names["it"]


def test_a_target_word_names_its_filter_and_its_targets_in_words() -> None:
    game = setup(hand=["Flames of the Firebrand"], pool="RRR", their_battlefield=["White Knight"])
    trace = game.apply(Cast("flames-of-the-firebrand", targets=("white-knight", "p2"), division=(2, 1))).trace
    chosen = _step(trace, "{word}: {value}")
    # How many targets in words, the player by their seat counted from 1: no "1-3 x", no player 0.
    assert str(chosen) == "any target (1 to 3): white-knight, p2"
    assert chosen.values["word"].msgid == "any target ({count})" and chosen.values["word"].values["count"].msgid == "{min} to {max}"
    knight, player = chosen.values["value"]
    assert isinstance(knight, Name) and player.context == "player" and player.values["player"] == 2
    division = _step(trace, "{amount} divided: {division}").values["division"]
    assert [share.values["amount"] for share in division] == [2, 1]


def test_costs_and_pools_are_notation_and_an_empty_pool_is_a_word() -> None:
    game = setup(hand=["Lightning Bolt"], pool="RR", battlefield=["Thalia, Guardian of Thraben"])
    trace = game.apply(Cast("lightning-bolt", targets="p2")).trace
    steps = [f.what for f in trace if f.what.msgid == "{what} → {total}"]
    assert [type(s.values["total"]) for s in steps] == [Notation, Notation]
    assert steps[0].values["what"].msgid == "mana cost"
    assert steps[1].values["what"].values["source"] is card("Thalia, Guardian of Thraben")
    paid = _step(trace, "pays {cost} from the mana pool")
    assert paid.values["cost"] == "{1}{R}" and isinstance(paid.values["cost"], Notation)
    assert Pool().said().context == "mana pool" and isinstance(Pool.of("RR").said(), Notation)


def test_counts_take_their_plural_form() -> None:
    game = setup(hand=["Rushing River"], pool="UUU", battlefield=["Island"], their_battlefield=["White Knight"])
    said = _refusal(game, Cast("rushing-river", kicked=True, targets="white-knight", sacrifice="island"))
    assert said.plural is not None and said.n == 2 and str(said).startswith("Rushing River needs exactly 2 targets, got 1")
    life = cost_part_words("pay-life-1")
    assert (str(life), life.n, life.plural) == ("pay 1 life", 1, "pay {life} life")


@lru_cache(maxsize=None)
def _casting_site() -> Site:
    book = load_book("rules/casting.yaml")
    return Site({book.id: book}, [run_example(book, rule, example) for rule, example in book.examples()], languages=["it", "en", "fr", "ru"])


@pytest.mark.parametrize("language", ["fr", "ru"])
def test_every_casting_proof_reads_in_the_page_language(language: str) -> None:
    site = _casting_site()
    view = site.book_view("casting", language)
    steps = [str(step) for outcome in site.outcomes for step in view.proof(outcome.example.id, outcome.example.doctest)["steps"]]
    assert steps and not [s for s in steps if 'lang="en"' in s]  # no step fell back to the English msgid
    assert any(card("White Knight").names[language] in s for s in steps)
    ids = [s for s in steps if "white-knight" in s]
    assert not ids, f"{len(ids)} steps show an object's id, e.g. {ids[0]}"
