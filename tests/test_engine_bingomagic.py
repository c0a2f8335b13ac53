"""BingoMagic engine: random games hold the invariants; a recorded game replays exactly."""

from __future__ import annotations

import random
from collections import Counter as Tally

import pytest

from rulebook.engines import bingomagic as bm
from rulebook.engines.base import CHANCE, playout
from rulebook.errors import IllegalAction
from tests import golden
from tests.conftest import check_trace

GAMES = 150
TURN_CAP = 2000
GOLDEN = golden.PLAYTHROUGHS / "bingomagic_seed249.txt"


def all_cards(state: bm.BingoState) -> Tally:
    zones = [state.deck, *state.hands, *state.territories, *state.discards]
    if state.placing:
        zones.append((state.placing,))
    return Tally(card for zone in zones for card in zone)


def expected_winner(before: bm.BingoState, after: bm.BingoState) -> int | None:
    """Who should have won, computed from territories alone (independently of the engine)."""
    for player in (0, 1):
        territory = Tally(after.territories[player])
        if territory != Tally(before.territories[player]) and (max(territory.values(), default=0) >= 5 or len(territory) == 5):
            return player
    return None


def random_game(seed: int, cap: int = TURN_CAP) -> None:
    rng = random.Random(seed)
    state = bm.new_game(rng)
    full_deck = Tally(bm.standard_deck())
    for _ in range(cap):
        if state.is_over:
            break
        tried = {}
        if state.current_player == CHANCE:
            action = state.sample_chance(rng)
        else:
            offered = state.legal_actions()
            assert offered, f"no legal action offered in\n{state}"
            tried = {candidate: state.apply(candidate) for candidate in offered}  # every offered action must be legal
            action = rng.choice(offered)
        step = tried.get(action) or state.apply(action)  # the step of an offered action is made already
        check_trace(step)
        after = step.state
        assert all_cards(after) == full_deck, f"cards lost after {action} in\n{state}"
        # Ruling rimescolare-quando: nobody ever acts with an empty deck beside discarded cards.
        assert after.deck or not any(after.discards) or after.phase is bm.Phase.SHUFFLE, f"after {action}:\n{after}"
        winner = expected_winner(state, after)
        assert (after.outcome.player if after.is_over else None) == winner
        state = after
    else:
        pytest.fail(f"seed {seed}: no winner within {cap} actions: an endless game is a bug")
    assert state.is_over and state.legal_actions() == []


@pytest.mark.parametrize("seed", range(GAMES))
def test_random_games_hold_the_invariants(seed):
    random_game(seed)


def test_an_endless_game_fails_at_the_cap(monkeypatch):
    # The bug the cap is there to catch: a game that cannot end (here nobody may ever place a
    # land, only pass). It must fail, never skip.
    monkeypatch.setattr(bm.BingoState, "legal_actions", lambda self: [bm.Pass()])
    with pytest.raises(pytest.fail.Exception, match="no winner within 300 actions"):
        random_game(0, cap=300)


def test_actions_outside_their_moment_are_refused_with_the_rule():
    state = bm.BingoState.setup(hands=("W", "UR"), deck="GG")
    with pytest.raises(IllegalAction, match=r"^\[counter\]"):
        state.apply(bm.Allow())
    with pytest.raises(IllegalAction, match=r"^\[montagna\]"):
        state.apply(bm.Destroy(bm.PLAINS))
    with pytest.raises(IllegalAction, match=r"^\[due-giocatori\]"):
        bm.new_game(random.Random(0), players=3)


def playthrough(deck: tuple[bm.Land, ...], first: int, actions: list) -> str:
    """The text of a game: the deck order, who starts, then each action with the rules that fired."""
    state = bm.deal(deck, first)
    opening = ["deck " + "".join(str(card) for card in deck), f"first {first}", str(state)]
    return golden.text(opening, state, actions, lambda end: [f"outcome {end.outcome!r}"])


def replay(text: str) -> str:
    lines = text.splitlines()
    deck = bm.lands(lines[0].removeprefix("deck "))
    first = int(lines[1].removeprefix("first "))
    return playthrough(deck, first, golden.actions(text, golden.evaluator(bm)))


def record(seed: int) -> str:
    rng = random.Random(seed)
    deck = list(bm.standard_deck())
    rng.shuffle(deck)
    first = rng.randrange(2)
    actions = [action for action, _ in playout(bm.deal(tuple(deck), first), rng)]
    return playthrough(tuple(deck), first, actions)


def test_golden_playthrough_replays_exactly():
    recorded = golden.check(GOLDEN, replay, lambda: record(249))
    for rule in ("counter-turno-continua", "rimescolare-quando", "rimescolare:", "foresta:"):
        assert f"  {rule}" in recorded, f"the recorded game should exercise {rule.rstrip(':')}"


def test_a_draw_after_a_reshuffle_names_its_rule():
    # The deck ran out while both piles were empty; a swamp's discard then reaches a pile, and
    # the turn's draw finds the deck empty: the reshuffle comes first, then the draw, named.
    state = bm.BingoState.setup(hands=("B", "WG"), deck="")
    waiting = state.apply(bm.Place(bm.SWAMP)).state.apply(bm.Discard(bm.PLAINS)).state
    assert waiting.is_chance
    step = waiting.apply(bm.Shuffle((bm.PLAINS,)))
    assert step.rules() == ["rimescolare", "pesca-turno"]
    assert "player 2 draws" in str(step.trace[-1])  # the second seat: index 1
    # A plains' draw that takes the last card: the reshuffle at once, then the end of the turn.
    plains = bm.BingoState.setup(hands=("W", "G"), discards=("R", "UU"), deck="B").apply(bm.Place(bm.PLAINS))
    assert plains.rules() == ["posare", "pianura", "rimescolare-quando"]
    after = plains.state.apply(bm.Shuffle((bm.ISLAND, bm.MOUNTAIN, bm.ISLAND)))
    assert after.rules() == ["rimescolare", "fine-turno", "pesca-turno"]
    assert after.state.hands == ((bm.SWAMP,), (bm.ISLAND, bm.FOREST))


@pytest.mark.parametrize(("deck", "discards", "after"), [
    ("G", ("", ""), "drawn"),  # the last card of the deck is drawn; nothing to reshuffle yet
    ("G", ("U", ""), "reshuffle"),  # the last card is drawn and the discards are reshuffled at once
    ("", ("", ""), "nothing"),  # no card anywhere: the draw is skipped
])
def test_the_turns_draw_at_the_end_of_the_deck(deck, discards, after):
    state = bm.BingoState.setup(hands=("R", "W"), deck=deck, discards=discards)
    step = state.apply(bm.Pass())
    if after == "drawn":
        assert step.state.deck == () and step.state.hands[1] == (bm.PLAINS, bm.FOREST)
        assert step.rules()[-1] == "pesca-turno" and step.state.current_player == 1
    elif after == "reshuffle":
        assert step.state.is_chance and step.state.hands[1] == (bm.PLAINS, bm.FOREST)
        assert step.rules()[-2:] == ["pesca-turno", "rimescolare-quando"]
    else:
        assert step.rules()[-1] == "rimescolare-vuoto" and step.state.hands[1] == (bm.PLAINS,)
        assert step.state.current_player == 1


def test_a_forest_cannot_take_back_what_the_run_out_deck_already_took():
    # Ruling rimescolare-quando: the counter's cards reach the piles while the deck is empty,
    # so they become the new deck before player 0 acts again; the forest finds nothing.
    state = bm.BingoState.setup(hands=("WG", "UB"), deck="")
    countered = state.run(bm.Place(bm.PLAINS), bm.Counter(bm.SWAMP))
    assert countered.rules()[-2:] == ["counter-turno-continua", "rimescolare-quando"]
    after = countered.state.apply(bm.Shuffle((bm.PLAINS, bm.ISLAND, bm.SWAMP))).state
    assert after.current_player == 0 and after.deck == (bm.PLAINS, bm.ISLAND, bm.SWAMP)
    assert after.apply(bm.Place(bm.FOREST)).rules()[:2] == ["posare", "foresta-scarti-vuoti"]
    # With cards still in the deck the piles stay, and the same forest takes the plains back.
    kept = bm.BingoState.setup(hands=("WG", "UB"), deck="R").run(bm.Place(bm.PLAINS), bm.Counter(bm.SWAMP)).state
    assert kept.apply(bm.Place(bm.FOREST)).state.legal_actions() == [bm.Retrieve(bm.PLAINS)]


def test_a_countered_player_keeps_the_turn_and_may_be_countered_again():
    # Ruling counter-turno-continua: a neutralised land is not placed, so the turn does not pass.
    state = bm.BingoState.setup(hands=("WWG", "UUBB"), deck="RRR")
    first = state.run(bm.Place(bm.PLAINS), bm.Counter(bm.SWAMP)).state
    assert first.current_player == 0 and first.phase is bm.Phase.TURN and first.hands[0] == (bm.PLAINS, bm.FOREST)
    second = first.run(bm.Place(bm.PLAINS), bm.Counter(bm.SWAMP)).state
    assert second.current_player == 0 and second.discards == ((bm.PLAINS, bm.PLAINS), (bm.ISLAND, bm.SWAMP) * 2)
    # Player 1 has no island left: the forest enters and takes a countered plains back.
    third = second.run(bm.Place(bm.FOREST), bm.Retrieve(bm.PLAINS))
    assert third.state.territories[0] == (bm.FOREST,) and third.state.active == 1
    assert third.rules()[-2:] == ["fine-turno", "pesca-turno"]


def test_a_position_holds_no_land_more_often_than_the_deck():
    with pytest.raises(IllegalAction, match=r"^\[mazzo\] a position cannot hold island 13 times \(the pack holds 12\)$") as refused:
        bm.BingoState.setup(hands=("UUUUU", "UUUU"), territories=("UU", ""), discards=("U", "U"), deck="")
    (too_many,) = refused.value.message.values["cards"]
    assert too_many.values == {"land": bm.ISLAND.label, "count": 13, "held": 12}  # the land by its name, for every page
    assert bm.BingoState.setup(hands=("UUUUU", "UUUU"), territories=("UU", ""), deck="U").hands[0] == (bm.ISLAND,) * 5


# --- what a refusal names, for a reader of any language ----------------------------------------

def test_a_refusal_names_the_lands_of_a_hand_not_their_letters():
    state = bm.BingoState.setup(hands=("WWU", "G"))
    with pytest.raises(IllegalAction) as refused:
        state.apply(bm.Place(bm.FOREST))
    said = refused.value.message
    assert said.values["land"] == bm.FOREST.label
    assert said.values["hand"] == (bm.PLAINS.label, bm.PLAINS.label, bm.ISLAND.label)


@pytest.mark.parametrize("other, wanted", [(bm.ISLAND, "two islands"), (bm.SWAMP, "an island and a swamp")])
def test_a_counter_without_its_cards_says_which_lands_it_needs(other, wanted):
    countering = bm.BingoState.setup(hands=("W", "UR")).apply(bm.Place(bm.PLAINS)).state
    assert countering.phase is bm.Phase.COUNTER
    with pytest.raises(IllegalAction, match=f"needs {wanted} in their hand") as refused:
        countering.apply(bm.Counter(other))
    assert refused.value.message.values["hand"] == (bm.ISLAND.label, bm.MOUNTAIN.label)
