"""Bidomino engine: whole seeded games, card accounting, scores, notation and a golden game."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulebook.engines import bidomino as bd
from rulebook.engines.base import playout
from rulebook.errors import IllegalAction, RulebookError
from rulebook.loader import load_book
from rulebook.messages import Message, Notation
from tests import golden
from tests.conftest import check_trace

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = golden.PLAYTHROUGHS / "bidomino_2p_seed7.txt"
RULE_IDS = {rule.id for rule in load_book(ROOT / "rules" / "bidomino.yaml").rules()}


def all_cards(state: bd.Bidomino) -> dict[bd.Card, int]:
    """How many of each card the state holds, in every zone. A plain dict: no count is ever
    zero, so dict equality is Counter equality, compared in C (thousands of times a run)."""
    zones = [c for hand in state.hands for c in hand]
    zones += [c for row in state.rows for p in row.pairs for c in p.cards]
    zones += list(state.stock) + list(state.discards) + [c for pile in state.score_piles for c in pile]
    return dict(Counter(zones))


def face_values(c: bd.Card) -> tuple[int, ...]:
    return {"A": (1, 14), "J": (11,), "Q": (12,), "K": (13,)}.get(c.rank) or (int(c.rank),)


def bonus_of(a: bd.Card, b: bd.Card | None) -> int:
    """The rulebook's cases, one by one: two identical cards (one from each deck) earn 2 bonus
    points; otherwise the same suit earns 1, the same value earns 1; a lone card earns none."""
    if b is None:
        return 0
    if a == b:
        return 2
    if a.suit == b.suit or a.rank == b.rank:
        return 1
    return 0


def points_of(act: bd.Play) -> int:
    # Counted from the action alone, independently of the engine's card movements.
    pairs = [pl.pair for pl in act.placements]
    return (2 if len(pairs) == 2 else 1) + sum(bonus_of(p.first, p.second) for p in pairs)


def check_rows(state: bd.Bidomino) -> None:
    for row in state.rows:
        values = list(row.values)
        if values:
            assert 15 in values and 0 <= values[0] and values[-1] <= 26, values
            assert values == list(range(values[0], values[-1] + 1)), values


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("seed", [1, 2])
def test_whole_game(players: int, seed: int) -> None:
    rng = random.Random(seed * 100 + players)
    state = bd.new_game(rng, players=players)
    pack = dict(Counter(bd.full_pack()))
    earned = [0] * players
    deals = 0
    for action, step in playout(state, rng, max_actions=20_000):
        before, state = state, step.state
        check_trace(step)
        assert all_cards(state) == pack, f"cards lost or made after {action}"
        check_rows(state)
        assert {f.rule for f in step.trace} <= RULE_IDS
        assert all(len(h) <= 4 for h in state.hands)
        if state.phase is bd.Phase.PLAY and state.exhausted < 2 and state.pending is None:
            assert all(len(h) == 4 for h in state.hands), str(state)
        if isinstance(action, bd.Play):
            earned[before.turn] += points_of(action)
        deals += any(f.rule == "mazziere" for f in step.trace)
        # Between deals every point is on the sheet, and it is exactly what the plays earned.
        if state.phase in (bd.Phase.DEAL, bd.Phase.OVER) and before.phase is bd.Phase.PLAY:
            assert list(state.noted) == earned
    assert state.is_over, "the game did not end"
    assert deals == players
    assert state.outcome.scores == tuple(earned)
    best = max(earned)
    assert state.outcome.winners == tuple(seat for seat, points in enumerate(earned) if points == best)


def test_every_legal_action_applies_and_reads_back() -> None:
    rng = random.Random(3)
    state = bd.new_game(rng, players=4)
    checked = 0
    for _action, step in playout(state, rng):
        state = step.state
        if state.phase is not bd.Phase.PLAY:
            continue
        for act in state.legal_actions():
            assert bd.action(str(act)) == act
            after = state.apply(act).state
            assert all_cards(after) == all_cards(state)
            checked += 1
    assert checked > 2000


def test_illegal_actions_name_their_rule() -> None:
    state = bd.position(hands=["2♣ 5♠ 9♣ 10♠", "K♥ 4♣ 2♠ 6♦"], rows=["8♣+7♦=15", ""], stock="3♥ 6♣ J♠")
    cases = {
        "play K♥+4♣=17 on row 1, point 2♠": "file",  # 17 does not touch 15
        "play K♥-4♣=9 on row 2, point 2♠": "apertura",
        "play K♥+4♣=17 on row 1, point 9♣": "una-coppia",  # the point must come from the hand
        "play K♥+2♠=15 on row 2": "una-coppia",  # one pair always sets a point aside while cards remain
        "play 10♠+6♦=16 on row 1, point 2♠": "turno",  # 10♠ is P0's
        "discard Q♥": "nessuna-coppia",
        "shuffle 3♥": "turno",
    }
    for text, rule in cases.items():
        with pytest.raises(IllegalAction) as caught:
            state.play(text)
        assert caught.value.rule_id == rule, (text, str(caught.value))
    with pytest.raises(IllegalAction, match=r"\[coppia\]"):
        bd.pair("K♥-4♣=17")
    with pytest.raises(RulebookError):
        bd.action("play K♥+4♣=17 somewhere")
    with pytest.raises(IllegalAction, match=r"\[mazziere\]"):
        bd.new_game(players=2).apply(bd.Shuffle(bd.cards("A♥ 2♥")))


def test_only_a_fifteen_opens_a_row_and_aces_count_independently() -> None:
    # Two Aces: independent values (ruling assi-nella-coppia) give 2, 15, 28 and 0, 13.
    values = sorted(p.value for p in bd.pairs_of(bd.card("A♠"), bd.card("A♥")))
    assert values == [0, 2, 13, 15, 28]
    state = bd.position(hands=["2♣ 5♠ 9♣ 10♠", "A♠ A♥ K♣ 2♦"], stock="3♥ 6♣ J♠ Q♦ 4♠ 7♥ 8♣ 9♥")
    plays = [a for a in state.legal_actions() if isinstance(a, bd.Play)]
    opened = {str(a.placements[0].pair) for a in plays}
    assert opened == {"A♠+A♥=15", "K♣+2♦=15"}  # only a 15 opens an empty row
    doubles = [a for a in plays if len(a.placements) == 2]
    # Both 15s, in one order only, plus 15 then 14 or 16 on the same row from the other cards.
    assert any({str(p.pair) for p in a.placements} == {"A♠+A♥=15", "K♣+2♦=15"} for a in doubles)
    assert len({frozenset(a.placements) for a in doubles}) == len(doubles)


# No card more often than the two decks hold it (position() refuses that).
ROW_15_TO_26 = ("8♣+7♦=15 9♠+7♣=16 10♥+7♠=17 J♦+7♥=18 Q♠+7♦=19 K♥+7♣=20 K♦+8♠=21 K♣+9♦=22 Q♣+J♥=23 "
                "Q♥+Q♦=24 K♠+Q♠=25 A♣+Q♣=26")
ROW_1_TO_15 = ("2♥-A♥=1 4♥-2♦=2 5♥-2♥=3 6♥-2♦=4 7♥-2♠=5 8♥-2♠=6 10♦-3♣=7 J♣-3♣=8 Q♦-3♠=9 K♦-3♠=10 "
               "Q♥-A♦=11 K♣-A♦=12 9♦+4♦=13 10♣+4♣=14 10♥+5♦=15")


def row_values(text: str) -> tuple[int, ...]:
    return tuple(int(word.rsplit("=", 1)[1]) for word in text.split())


def takes(values: tuple[int, ...]) -> set[int]:
    """What a row of these values takes next, from the rulebook: an empty row only 15; else one
    below its lowest or one above its highest, never past 0 or 26."""
    if not values:
        return {15}
    return {v for v in (min(values) - 1, max(values) + 1) if 0 <= v <= 26}


def every_pair_play(hand: tuple[bd.Card, ...], rows: list[tuple[int, ...]]) -> tuple[set, set]:
    """By trying everything: every two cards of the hand, each of their face values, as sum or
    difference, on either row. Returns the one-pair plays (with each possible point) and the
    two-pair plays, as (cards, how, value, row) keys."""

    def placements(held: tuple[bd.Card, ...], rows: list[tuple[int, ...]]):
        for i, j in combinations(range(len(held)), 2):
            a, b, rest = held[i], held[j], held[:i] + held[i + 1:j] + held[j + 1:]
            made = {("+", x + y) for x in face_values(a) for y in face_values(b)}
            made |= {("-", abs(x - y)) for x in face_values(a) for y in face_values(b)}
            for how, value in made:
                for row in (1, 2):
                    if value in takes(rows[row - 1]):
                        after = list(rows)
                        after[row - 1] = rows[row - 1] + (value,)
                        yield (tuple(sorted((str(a), str(b)))), how, value, row), rest, after

    singles, doubles = set(), set()
    for first, rest, after in placements(hand, rows):
        singles |= {(first, str(point)) for point in rest}
        doubles |= {frozenset((first, second)) for second, _, _ in placements(rest, after)}
    return singles, doubles


def key(placement: bd.Placement) -> tuple:
    pair = placement.pair
    return tuple(sorted(str(c) for c in pair.cards)), pair.how, pair.value, placement.row


@pytest.mark.parametrize(("rows", "hand"), [
    (("", ""), "A♠ A♥ K♣ 2♦"),
    (("8♣+7♦=15 9♠+7♣=16", ""), "A♦ A♣ 3♣ J♣"),  # both ends of row 1; a second pair on the same row
    (("8♣+7♦=15 9♠+7♣=16", ""), "A♣ A♦ A♦ K♦"),  # identical cards
    ((ROW_15_TO_26, ROW_1_TO_15), "A♠ K♠ 3♦ 3♦"),  # 27 fits nowhere, 0 fits at the low end
], ids=["empty-rows", "one-row-open", "identical-cards", "rows-at-0-and-26"])
def test_legal_pair_plays_are_exactly_the_playable_ones(rows: tuple[str, str], hand: str) -> None:
    state = bd.position(hands=["2♣ 5♠ 9♣ 10♠", hand], rows=rows, stock="3♥ 6♣ J♠", turn=1)
    singles, doubles = every_pair_play(bd.cards(hand), [row_values(r) for r in rows])
    assert singles and doubles, "the position should allow both kinds of play"
    plays = [a for a in state.legal_actions() if isinstance(a, bd.Play)]
    offered_singles = {(key(a.placements[0]), str(a.point)) for a in plays if len(a.placements) == 1}
    offered_doubles = {frozenset(map(key, a.placements)) for a in plays if len(a.placements) == 2}
    assert singles - offered_singles == set(), "playable but not offered"
    assert offered_singles - singles == set(), "offered but not playable"
    assert doubles - offered_doubles == set(), "playable but not offered"
    assert offered_doubles - doubles == set(), "offered but not playable"
    assert len(offered_singles) + len(offered_doubles) == len(plays), "a play offered twice"


@given(st.sampled_from(bd.full_pack()), st.sampled_from(bd.full_pack()))
def test_every_pair_reads_back_and_keeps_its_arithmetic(a: bd.Card, b: bd.Card) -> None:
    va, vb = face_values(a), face_values(b)
    expected = {("+", x + y) for x in va for y in vb} | {("-", abs(x - y)) for x in va for y in vb}
    made = bd.pairs_of(a, b)
    assert {(p.how, p.value) for p in made} == expected
    for p in made:
        assert bd.pair(str(p)) == p == bd.Pair(b, a, p.how, p.value)
        assert eval(repr(p), vars(bd)) == p
        assert p.bonus == bonus_of(a, b)


def test_values_no_row_can_hold() -> None:
    state = bd.position(
        hands=["2♣ 5♠ 9♣ 10♠", "A♠ K♣ A♦ A♥"],
        rows=[ROW_15_TO_26, ""],
        stock="3♥ 6♣ J♠",
    )
    assert state.rows[0].wanted() == (14,)
    with pytest.raises(IllegalAction, match=r"\[file\]"):
        state.play("A♠+K♣=27 on row 1, point A♦")


def test_reshuffle_then_second_exhaustion_notes_missing_points() -> None:
    # Two cards left and a two-pair turn: 2 score cards exhaust the stock; after the
    # reshuffle of a single card the rest cannot be drawn (ruling pesca-incompleta).
    state = bd.position(hands=["2♣ 5♠ 9♣ 10♠", "9♠ 6♥ K♣ 2♦"], stock="3♥ 6♣", discards="4♦")
    step = state.play("9♠+6♥=15 on row 1, K♣+2♦=15 on row 2")
    assert step.state.is_chance and step.state.pending == (1, 0, 4)
    again = step.state.play("shuffle 6♣ 3♥ 4♦")
    assert again.state.exhausted == 2 and again.state.hands[1] == bd.cards("3♥ 4♦ 6♣")
    assert again.state.noted == (0, 2) and again.state.current_player == 0
    assert "secondo-esaurimento" in again.rules()


def test_what_the_engine_says_is_whole_sentences_with_notation_for_cards() -> None:
    # The words a translator inflects (which end, why a bonus, how many) are in the msgid; the
    # cards and pairs are notation, written alike in every language (issue 13.1).
    state = bd.position(hands=["2♣ 5♠ 9♣ 10♠", "9♥ 6♥ 2♠ 5♦"], rows=["8♣+7♦=15", ""], stock="3♥ 6♣ J♠ Q♦")
    laid, point, drawn = (f.what for f in state.play("9♥+5♦=14 on row 1, point 2♠").trace)
    assert laid.msgid == "{player} lays {pair} at the left end of row {row}"
    assert str(laid) == "player 2 lays 9♥+5♦=14 at the left end of row 1"  # the second seat (index 1), counted from 1
    assert laid.values["pair"] == "9♥+5♦=14" and isinstance(laid.values["pair"], Notation)
    assert point.values["point"] == "2♠" and isinstance(point.values["point"], Notation)
    assert drawn.values["show"] == "3♥ 6♣ J♠" and isinstance(drawn.values["show"], Notation)
    opened, bonus, *_ = (f.what for f in state.play("9♥+6♥=15 on row 2, point 2♠").trace)
    assert bonus.msgid == "{pair}: same suit, 1 bonus point" and str(bonus) == "9♥+6♥=15: same suit, 1 bonus point"
    with pytest.raises(IllegalAction) as refused:
        state.play("9♥+2♠=11 on row 1, point 5♦")
    assert refused.value.message.msgid.endswith("it takes {wanted} or {wanted2}")
    assert (refused.value.message.values["wanted"], refused.value.message.values["wanted2"]) == (14, 16)


def test_a_pair_that_cannot_make_its_value_says_how_it_was_laid_in_a_whole_sentence() -> None:
    with pytest.raises(IllegalAction) as refused:
        bd.pair("K♥-4♣=17")
    said = refused.value.message
    assert said.msgid == "{cards} as a difference cannot make {value}; it makes {made}"
    assert said.values["made"] == (9,) and said.values["cards"] == "K♥ 4♣" and isinstance(said.values["cards"], Notation)
    assert str(said) == "K♥ 4♣ as a difference cannot make 17; it makes 9"
    with pytest.raises(IllegalAction, match=r"as a lone card cannot make 5; it makes 1, 14"):
        bd.pair("A♠=5")
    with pytest.raises(RulebookError, match=r"not '\*'"):
        bd.Pair(bd.card("A♠"), bd.card("2♠"), "*", 3)


def test_score_cards_and_missing_points_are_counted_in_plural_messages() -> None:
    state = bd.position(hands=["2♣ 5♠ 9♣ 10♠", "9♠ 6♥ K♣ 2♦"], stock="3♥ 6♣", discards="4♦")
    step = state.play("9♠+6♥=15 on row 1, K♣+2♦=15 on row 2")
    taken = next(f.what for f in step.trace if f.rule == "segnapunti")
    assert taken.msgid == "{player} takes {count} score card from the stock ({show})" and taken.n == 2
    assert str(taken) == "player 2 takes 2 score cards from the stock (3♥ 6♣)"
    again = step.state.play("shuffle 6♣ 3♥ 4♦")
    reshuffled = next(f.what for f in again.trace if f.rule == "rimescolata")
    assert reshuffled.n == 3 and reshuffled.values["board"] == ("0 for player 1", "2 for player 2")  # n: the new stock's cards
    assert str(reshuffled) == "player 1 notes the score cards (0 for player 1, 2 for player 2) and shuffles them with the discards (1) into a new stock of 3 cards"


def test_the_turn_stays_with_the_player_whose_draw_a_reshuffle_interrupts() -> None:
    # P1's draw stops when the stock runs out; while it is reshuffled the turn is still P1's,
    # and it passes to P0 only once P1 has drawn the rest from the new stock.
    state = bd.position(hands=["2♣ 5♠ 9♣ 10♠", "9♠ 6♥ K♣ 2♦"], stock="3♥ 6♣", discards="4♦", turn=1)
    step = state.play("9♠+6♥=15 on row 1, K♣+2♦=15 on row 2")
    assert step.state.is_chance and step.state.turn == 1 and step.state.pending == (1, 0, 4)
    again = step.state.play("shuffle 6♣ 3♥ 4♦")
    assert again.state.turn == 0 and len(again.state.hands[1]) == 3


# --- the golden playthrough --------------------------------------------------------------


# Actions unmarked, in their own notation; fired rules indented by four spaces; '#' starts a note.
NOTATION = golden.Notation(mark="", indent="    ", write=str, notes=("#",))


def playthrough(actions: list[bd.Action], players: int, header: str) -> str:
    """The text of a game: a header, each action or chance outcome with the rules it fired, the outcome."""
    return golden.text([header], bd.new_game(players=players), actions, lambda end: [f"# outcome: {end.outcome}"], NOTATION)


def replay(text: str) -> str:
    return playthrough(golden.actions(text, bd.action, NOTATION), 2, text.splitlines()[0])


def record(seed: int, players: int) -> str:
    rng = random.Random(seed)
    actions = [a for a, _ in playout(bd.new_game(rng, players=players), rng)]
    return playthrough(actions, players, f"# bidomino, {players} players, seed {seed}: one action or chance outcome a line")


def test_golden_playthrough_replays_exactly() -> None:
    golden.check(GOLDEN, replay, lambda: record(7, 2))


@pytest.mark.parametrize(("stock", "runs_out"), [("3♥ 6♣ J♠", True), ("3♥ 6♣ J♠ Q♦", False)])
def test_the_stock_runs_out_exactly_at_its_last_card(stock: str, runs_out: bool) -> None:
    # One pair and a point: three cards are owed. Three in the stock exhaust it at the last
    # card drawn (reshuffle next); four leave one, and play goes on.
    state = bd.position(hands=["K♥ 4♣ 9♦ 9♠", "7♣ 8♦ 2♠ 5♥"], stock=stock)
    after = state.play("7♣+8♦=15 on row 1, point 2♠").state
    assert len(after.hands[1]) == 4
    assert after.exhausted == (1 if runs_out else 0)
    assert after.is_chance == runs_out and after.stock == (() if runs_out else bd.cards("Q♦"))


@pytest.mark.parametrize(("where", "expected"), [
    # The first version of the example sei-punti: 7♦ four times and 7♣ three times.
    ({"hands": ["2♣ 5♠ 9♣ 10♠", "3♦ 3♦ Q♣ Q♣"],
      "rows": ["4♦+3♣=7 5♦+3♠=8 5♣+4♥=9 6♦+4♠=10 7♦+4♣=11 8♠+4♦=12 7♥+6♦=13 8♥+6♣=14 8♣+7♦=15",
               "8♣+7♦=15 9♠+7♣=16 10♥+7♠=17 J♦+7♥=18 Q♠+7♦=19 K♥+7♣=20 K♦+8♠=21 K♣+9♦=22 K♠+10♦=23"],
      "stock": "2♥ 3♠ 4♥ 5♣ 6♠ 7♣ 8♥ 9♠ 10♣ J♠ Q♥"}, ["7♦ 4 times", "7♣ 3 times"]),
    # A third copy in each zone a position names: the stock, the discards, a score pile.
    ({"hands": ["K♥ 4♣", "K♥ 2♠"], "stock": "K♥"}, ["K♥ 3 times"]),
    ({"hands": ["K♥ 4♣", "2♠"], "discards": "K♥ K♥"}, ["K♥ 3 times"]),
    ({"hands": ["4♣", "2♠"], "score_piles": ["K♥ K♥", "K♥"]}, ["K♥ 3 times"]),
])
def test_a_position_holds_no_card_more_often_than_the_two_decks(where: dict, expected: list[str]) -> None:
    with pytest.raises(IllegalAction) as caught:
        bd.position(**where)
    assert caught.value.rule_id == "giocatori"
    for count in expected:
        assert f"{count} (the pack holds 2)" in str(caught.value)
    # One plural message a card, the card as notation: a page says "3 fois" or "3 раза" for it.
    each = caught.value.message.values["too_many"]
    assert len(each) == len(expected) and all(isinstance(m, Message) and isinstance(m.values["card"], Notation) for m in each)


def test_a_position_may_hold_each_card_twice() -> None:
    state = bd.position(hands=["K♥ 4♣", "K♥ 2♠"], rows=["8♣+7♦=15 9♠+7♣=16", "8♣+7♦=15"], stock="9♠ 7♣")
    assert all(n == 2 for c, n in all_cards(state).items() if str(c) in ("K♥", "8♣", "7♦", "9♠", "7♣"))


def test_a_deal_ends_with_the_whole_pack_to_shuffle_even_from_a_position() -> None:
    # A position names a few cards; the others are elsewhere, and all 104 come back.
    state = bd.position(hands=["2♣", "K♥ 9♥"], exhausted=2, rows=["8♣+7♦=15 9♠+7♣=16 10♥+7♠=17 J♦+7♥=18 "
                                                                   "Q♠+7♦=19 K♥+7♣=20 K♦+8♠=21", ""])
    after = state.play("K♥+9♥=22 on row 1").state
    assert after.phase is bd.Phase.DEAL and Counter(after.to_shuffle()) == Counter(bd.full_pack())
    assert "a pack of 104 cards to shuffle" in str(after)
