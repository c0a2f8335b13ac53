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
GOLDEN = golden.PLAYTHROUGHS / "bingomagic_seed24.txt"


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
        if state.current_player == CHANCE:
            action = state.sample_chance(rng)
        else:
            offered = state.legal_actions()
            assert offered, f"no legal action offered in\n{state}"
            for candidate in offered:  # every offered action must be legal
                state.apply(candidate)
            action = rng.choice(offered)
        step = state.apply(action)
        check_trace(step)
        after = step.state
        assert all_cards(after) == full_deck, f"cards lost after {action} in\n{state}"
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
    recorded = golden.check(GOLDEN, replay, lambda: record(24))
    assert "counter" in recorded and "rimescolare" in recorded, "the recorded game should exercise counters and reshuffles"


def test_a_draw_after_a_reshuffle_names_its_rule():
    # The turn's draw happens once the new deck exists: the trace must still say who drew and why.
    state = bm.BingoState.setup(hands=("R", "G"), discards=("W", "UU"), deck="")
    waiting = state.apply(bm.Pass()).state
    step = waiting.apply(bm.Shuffle((bm.ISLAND, bm.PLAINS, bm.ISLAND)))
    assert step.rules() == ["rimescolare", "pesca-turno"]
    assert "player 1 draws" in str(step.trace[-1])
    # A plains' draw interrupted by the reshuffle: the draw, then the end of the turn.
    plains = bm.BingoState.setup(hands=("W", "G"), discards=("R", "UU"), deck="")
    after = plains.apply(bm.Place(bm.PLAINS)).state.apply(bm.Shuffle((bm.ISLAND, bm.MOUNTAIN, bm.ISLAND)))
    assert after.rules() == ["rimescolare", "pianura", "fine-turno", "pesca-turno"]
    assert after.state.hands == ((bm.ISLAND,), (bm.MOUNTAIN, bm.FOREST))


@pytest.mark.parametrize(("deck", "discards", "after"), [
    ("G", ("", ""), "drawn"),  # the last card of the deck is drawn as usual
    ("", ("U", ""), "reshuffle"),  # no card: the discards are reshuffled first
    ("", ("", ""), "nothing"),  # no card anywhere: the draw is skipped
])
def test_the_turns_draw_at_the_end_of_the_deck(deck, discards, after):
    state = bm.BingoState.setup(hands=("R", "W"), deck=deck, discards=discards)
    step = state.apply(bm.Pass())
    if after == "drawn":
        assert step.state.deck == () and step.state.hands[1] == (bm.PLAINS, bm.FOREST)
        assert step.rules()[-1] == "pesca-turno"
    elif after == "reshuffle":
        assert step.state.is_chance and step.state.hands[1] == (bm.PLAINS,)
    else:
        assert step.rules()[-1] == "rimescolare-vuoto" and step.state.hands[1] == (bm.PLAINS,)
        assert step.state.current_player == 1
