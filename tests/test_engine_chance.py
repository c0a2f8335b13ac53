"""Chance nodes of every engine: the outcomes listed with exact probabilities, and the sampler
that random playouts use drawing from that very list at those rates.

Every chance node met in a few seeded random games of each engine lists outcomes that add up to
exactly 1, each one applies, and what ``sample_chance`` draws is one of them. The sampler's
frequencies are then compared with the listed probabilities: 6,000 draws (a fixed seed, so the
run is the same every time), each outcome's count within five standard deviations of its
expected count. A fair sampler leaves that band once in about 1.7 million outcomes; a die that
showed chaos one time in three instead of one in six would miss it by 35 deviations.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from dataclasses import replace
from fractions import Fraction
from itertools import permutations

import pytest

from rulebook.engines import bingomagic as bm
from rulebook.engines import planechase as pc
from rulebook.engines import strage as st
from rulebook.engines.base import playout
from rulebook.engines.bidomino import new_game as bidomino_game
from rulebook.engines.casting import setup as casting_setup
from rulebook.engines.chance import Orders, draw, faces

DRAWS = 6000
BAND = 5  # standard deviations


ENGINES = ("planechase", "bingomagic", "bidomino", "strage")


def _start(engine: str, seed: int):
    return {"planechase": lambda: pc.new_game(random.Random(seed), players=3),
            "bingomagic": lambda: bm.new_game(random.Random(seed)),
            "bidomino": lambda: bidomino_game(random.Random(seed), players=2),
            "strage": lambda: st.new_game(random.Random(seed), players=3, magic_rules=True)}[engine]()


def _chance_nodes(engine: str, seeds=range(4), cap=3000, most=30):
    """The chance nodes met in seeded random games of an engine, where nobody concedes (a
    Planechase game would end before the die is rolled much), ``most`` of them a game."""
    found = []
    for seed in seeds:
        state, rng, met = _start(engine, seed), random.Random(seed), 0
        for _ in range(cap):
            if state.is_over or met == most:
                break
            if state.is_chance:
                found.append(state)
                met += 1
                action = state.sample_chance(rng)
            else:
                offered = state.legal_actions()
                action = rng.choice([a for a in offered if not isinstance(a, pc.Leave)] or offered)
            state = state.apply(action).state
    return found


def assert_exact(outcomes) -> None:
    """The probabilities are Fractions adding up to exactly 1, no outcome listed twice."""
    if isinstance(outcomes, Orders):
        # The count of distinct orders, from the cards themselves: n! over each kind's repeats.
        distinct = math.factorial(len(outcomes.cards)) // math.prod(math.factorial(c) for c in Counter(outcomes.cards).values())
        assert outcomes.size == distinct and outcomes.probability == Fraction(1, distinct)
        first = [action for action, _ in outcomes[:50]]
        assert len(set(first)) == len(first), "two orders listed alike"
        return
    assert outcomes and all(isinstance(p, Fraction) and p > 0 for _, p in outcomes)
    assert sum(p for _, p in outcomes) == 1
    assert len({action for action, _ in outcomes}) == len(outcomes)


def assert_drawn_at_its_rates(outcomes, sample) -> None:
    rng = random.Random(2026)
    counts = Counter(sample(rng) for _ in range(DRAWS))
    listed = {action: p for action, p in outcomes}
    assert set(counts) <= set(listed), f"drew what is not listed: {set(counts) - set(listed)}"
    for action, p in listed.items():
        expected = DRAWS * p
        spread = math.sqrt(DRAWS * p * (1 - p))
        assert abs(counts[action] - expected) <= BAND * spread, f"{action!r}: {counts[action]} draws of {DRAWS}, expected {float(expected):.0f}"


@pytest.mark.slow
@pytest.mark.parametrize("engine", ENGINES)
def test_every_chance_node_lists_its_outcomes_exactly(engine):
    nodes = _chance_nodes(engine, seeds=range(80 if engine == "bingomagic" else 4))  # BingoMagic seldom reshuffles
    assert len(nodes) >= 3, f"{engine}: only {len(nodes)} chance nodes met"
    for seed, node in enumerate(nodes):
        outcomes = node.chance_outcomes()
        assert_exact(outcomes)
        listed = outcomes[:3] if isinstance(outcomes, Orders) else outcomes
        for action, _ in listed:
            node.apply(action)  # every listed outcome applies (a refusal raises)
        drawn = node.sample_chance(random.Random(seed))
        if isinstance(outcomes, Orders):
            assert Counter(drawn.order) == Counter(outcomes.cards)
        else:
            assert drawn in {action for action, _ in outcomes}


def test_a_node_that_is_no_chance_node_lists_nothing_and_samples_nothing():
    started = pc.started([["Agyrem"], ["Krosa"]], casual=True)
    assert started.chance_outcomes() == ()
    with pytest.raises(ValueError, match="no chance node now"):
        started.sample_chance(random.Random(0))
    with pytest.raises(NotImplementedError, match="has no chance nodes"):
        casting_setup().chance_outcomes()


def test_the_planar_die_lists_its_faces_by_the_rules_count():
    # Worked out from the rule, not asked of the engine: six faces, one planeswalker symbol,
    # one chaos symbol, four blank.
    rolling = pc.started([["Agyrem", "Bant"], ["Krosa"]], casual=True).apply(pc.Roll()).state
    assert dict(rolling.chance_outcomes()) == {pc.PLANESWALKER: Fraction(1, 6), pc.CHAOS: Fraction(1, 6), pc.BLANK: Fraction(2, 3)}
    assert_drawn_at_its_rates(rolling.chance_outcomes(), rolling.sample_chance)


def test_strage_dice_show_each_face_one_time_in_six():
    state = st.new_game(random.Random(0), players=3)
    assert state.is_chance
    assert dict(state.chance_outcomes()) == {st.Roll(v): Fraction(1, 6) for v in range(1, 7)}
    assert_drawn_at_its_rates(state.chance_outcomes(), state.sample_chance)


@pytest.mark.parametrize("engine", ["bingomagic", "bidomino", "strage"])
def test_a_shuffle_lists_every_order_once_and_draws_each_alike(engine):
    # A small pile with a repeated card: 4!/2! = 12 distinct orders, each 1/12.
    state = _small_shuffle(engine)
    outcomes = state.chance_outcomes()
    pile = outcomes.cards
    assert len(pile) == 4 and len(set(pile)) == 3
    assert {action.order for action, _ in outcomes} == set(permutations(pile))
    assert len(outcomes) == 12 and {p for _, p in outcomes} == {Fraction(1, 12)}
    assert_drawn_at_its_rates(outcomes, state.sample_chance)


def _small_shuffle(engine):
    if engine == "planechase":
        raise AssertionError("the planar die is no shuffle")
    if engine == "strage":
        # The magic deck runs out late in a game: any node of a game with the magic rules,
        # put at the reshuffle with a small discard pile, is what the test needs.
        node = _chance_nodes(engine, seeds=[0], most=1)[0]
        cards = list(dict.fromkeys(node.magic.deck))[:3]
        return replace(node, phase=st.Phase.SHUFFLE, magic=replace(node.magic, discards=(cards[0], cards[0], cards[1], cards[2])))
    for node in _chance_nodes(engine):
            pile = node.chance_outcomes()
            if isinstance(pile, Orders):
                cards = list(dict.fromkeys(pile.cards))[:3]
                small = (cards[0], cards[0], cards[1], cards[2])
                if engine == "bingomagic":
                    return replace(node, discards=(small[:2], small[2:]))
                if engine == "bidomino":
                    if node.phase.name == "DEAL":
                        return replace(node, stock=small)
                    continue
    raise AssertionError(f"{engine}: no shuffle met")


def test_orders_of_a_deck_are_counted_not_listed():
    deck = tuple(range(40))
    orders = Orders(deck)
    assert orders.size == math.factorial(40) and orders.probability == Fraction(1, math.factorial(40))
    assert orders[0][0] == deck and orders[-1][0] == deck[::-1]
    assert sorted(draw(orders, random.Random(1))) == list(deck)
    with pytest.raises(IndexError):
        orders[orders.size]


def test_a_sampler_that_ignores_the_probabilities_is_caught():
    # The check above must be able to fail: drawing the die's three kinds of face alike.
    outcomes = faces([(face, 1) for face in pc.DIE])
    with pytest.raises(AssertionError, match="draws of 6000"):
        assert_drawn_at_its_rates(outcomes, lambda rng: rng.choice(outcomes)[0])


def test_a_list_that_does_not_add_up_to_1_is_refused_when_drawn():
    # The engines' lists add up to 1 (checked above); a list short of it has no outcome for
    # some tickets, and the sampler says so instead of returning nothing.
    short = ((pc.CHAOS, Fraction(1, 6)), (pc.BLANK, Fraction(1, 6)))
    with pytest.raises(ValueError, match="add up to less than 1"):
        for seed in range(20):
            draw(short, random.Random(seed))
