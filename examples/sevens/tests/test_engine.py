"""The engine on its own: random games keep the rules at every step and end with a winner.

The worked examples of rules/sevens.yaml are tests too: pytest collects them itself.
"""

from __future__ import annotations

import random

import pytest

from rulebook.engines.base import playout
from rulebook.errors import RulebookError
from sevens.engine import ACTIONS, DECK, Deal, IllegalAction, Pass, Play, Sevens, new_game, parse_card

MAX_ACTIONS = 2_000  # a game that has not ended by then is a failure, never a pass


def _on_table(state: Sevens) -> int:
    return sum(high - low + 1 for row in state.rows if row for low, high in [row])


@pytest.mark.parametrize("players", [3, 4, 5, 6])
@pytest.mark.parametrize("seed", range(8))
def test_a_random_game_keeps_the_rules_and_ends(players: int, seed: int) -> None:
    rng = random.Random(seed)
    state = new_game(rng, players=players)
    for action, step in playout(state, rng, MAX_ACTIONS):
        before, state = state, step.state
        assert step.trace and all(fired.rule and fired.what for fired in step.trace), "every change names its rule"
        # No card is lost or made: the hands and the table always hold the whole deck.
        assert sum(map(len, state.hands)) + _on_table(state) == len(DECK)
        if isinstance(action, Play):
            assert _on_table(state) == _on_table(before) + 1
            if before.opening:
                assert action.card == "7D", "the 7 of diamonds opens"
        if isinstance(action, Pass):
            assert not before.playable(), "a player who can play must"
        if not state.is_over and not state.is_chance:
            assert state.active == (before.active + 1) % players or isinstance(action, Deal), "the turn goes left"
    assert state.is_over, f"seed {seed}: no winner after {MAX_ACTIONS} actions"
    assert not state.hands[state.outcome] and all(state.hands[seat] for seat in range(players) if seat != state.outcome)


def test_every_action_has_its_handler() -> None:
    assert set(Sevens.handlers) == set(ACTIONS)


def test_the_ace_never_follows_the_king() -> None:
    state = Sevens.setup(hands=("AH 2S", "3C", "4C"), table="7H 8H 9H 10H JH QH KH")
    refusal = r"^\[ace-low\] the ace goes below the 2, never after the king: the row of hearts is 7♥–K♥$"
    with pytest.raises(IllegalAction, match=refusal):
        state.apply(Play("AH"))


def test_a_complete_row_takes_nothing_more() -> None:
    state = Sevens.setup(hands=("2S", "3C", "4C"), table=" ".join(rank + "H" for rank in "A 2 3 4 5 6 7 8 9 10 J Q K".split()))
    assert state.rows[1] == (1, 13) and state.legal_actions() == [Pass()]


@pytest.mark.parametrize(("hands", "message"), [
    (("7D", "8D"), r"\[deal\] Sevens is for 3 to 6 players, not 2"),
    (("7D 8D", "8D", "9D"), r"\[deal\] a card dealt twice: 8♦$"),
    (("8D", "9D", "10D"), r"\[start\] nobody holds the 7♦"),
])
def test_a_setup_the_game_does_not_allow_is_refused(hands: tuple[str, ...], message: str) -> None:
    with pytest.raises(IllegalAction, match=message):
        Sevens.setup(hands=hands)


def test_a_row_on_the_table_is_a_run_through_its_seven() -> None:
    with pytest.raises(IllegalAction, match=r"\[build\] 7♥, 9♥ cannot be on the table"):
        Sevens.setup(hands=("2C", "3C", "4C"), table="7H 9H")


@pytest.mark.parametrize("text", ["Z9", "11H", "7", "", 7])
def test_a_card_that_cannot_be_read_says_how_to_write_one(text: object) -> None:
    with pytest.raises(RulebookError, match="is not a card: write rank then suit"):
        parse_card(text)


def test_the_deal_gives_the_whole_deck_one_card_at_a_time() -> None:
    order = list(DECK)
    random.Random(5).shuffle(order)
    step = new_game(random.Random(0), players=5).apply(Deal.from_deck(order, 5))
    assert [len(hand) for hand in step.state.hands] == [11, 11, 10, 10, 10]
    assert "7D" in step.state.hands[step.state.active] and step.rules() == ["deal"]
    uneven = Deal(tuple(" ".join(order[i * 13:(i + 1) * 13]) for i in range(4)) + ("",))
    unfair = r"\[deal\] one card at a time from player 0 gives hands of 11/11/10/10/10 cards, not 13/13/13/13/0$"
    with pytest.raises(IllegalAction, match=unfair):
        new_game(random.Random(0), players=5).apply(uneven)
    with pytest.raises(IllegalAction, match=r"\[deal\] the whole deck is dealt; missing: 2♠$"):
        new_game(random.Random(0), players=4).apply(Deal.from_deck([c for c in order if c != "2S"], 4))
