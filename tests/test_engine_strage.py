"""La Strage degli Innocenti engine: random games hold the invariants; recorded games replay exactly."""

from __future__ import annotations

import random
import re
from collections import Counter
from operator import attrgetter
from pathlib import Path

import pytest

from rulebook.engines import strage as st
from rulebook.engines.base import CHANCE, playout
from rulebook.engines.strage.magic import caprice_reach
from rulebook.errors import IllegalAction
from rulebook.engines.strage.cards import JOKER
from rulebook.messages import Notation
from rulebook.loader import load_library
from tests import golden
from tests.conftest import check_trace
from tests.thorough import examples

# Ten plain games and five with magic caught every rule mutation that the twenty and ten of
# THOROUGH=1 (tests/thorough.py) caught, 23 of 24 tried (an offered withdrawal from row 7, a
# sprite killed by a failed strike, a lost draw, a breach with two suits...; the last, a caprice
# through the exit row, neither: test_a_capricious_sprite_stops_on_the_exit_row... catches it now):
# the games each mutation broke were mostly the first ones, the two fully checked among them, and
# the rare ones stay (the withdrawal: game 3).
GAMES = examples(10, 20)
MAGIC_GAMES = examples(5, 10)
FULLY_CHECKED = 2  # games in which every offered action is applied, not just a sample
SAMPLE = 1  # other offered actions whose results are checked too, besides the one played
ACTION_CAP = 6000
ENGINE_FILES = sorted(Path(st.__file__).parent.glob("*.py"))  # the strage package
PLAYTHROUGHS = golden.PLAYTHROUGHS
GOLDEN = {"strage_seed175.txt": (175, False), "strage_magic_seed266.txt": (266, True)}
MAGIC_DECK = Counter(st.magic_deck())
SQUARE, KIND = attrgetter("square"), attrgetter("kind")


# --- independent readings of a position (from its figure, not from the engine's counters) ---

def squares(state: st.StrageState) -> dict[str, list]:
    found: dict[str, list] = {}
    for piece in state.figure().pieces:
        found.setdefault(piece.square, []).append(piece)
    return found


def touching(a: str, b: str) -> bool:
    return a != b and abs(ord(a[0]) - ord(b[0])) <= 1 and abs(int(a[1]) - int(b[1])) <= 1


def exposed(state: st.StrageState) -> set[str]:
    """Squares of sprites alone in their square with an orc next to them."""
    board = squares(state)
    orcs = [s for s, pieces in board.items() if pieces[0].kind == "orc"]
    return {s for s, pieces in board.items() if [p.kind for p in pieces] == ["sprite"] and any(touching(s, o) for o in orcs)}


def check_position(state: st.StrageState, cards_checked: bool = False) -> None:
    """The invariants of a position, read from its figure. ``cards_checked``: its magic state is
    the very object of a position checked before (states are immutable), whose cards were counted.

    Every step of every game is checked here (some 55,000 positions a run): the pieces are
    counted by ``map`` and the card counts compared as dicts (Counter's == walks both in
    Python; the counts are never zero, so the two agree)."""
    pieces = state.figure().pieces
    for square, n in Counter(map(SQUARE, pieces)).items():
        if n > 1:
            kinds = sorted(p.kind for p in pieces if p.square == square)
            assert kinds == ["half-elf", "sprite"], f"{square} holds {kinds}\n{state}"
    kinds = Counter(map(KIND, pieces))
    sides = Counter(p.side for p in pieces if p.kind == "half-elf")
    # killed is derived from the engine's own counts; the figure counts the sprites independently.
    assert 16 - kinds["sprite"] - sum(state.saved) == state.killed >= 0, f"sprites lost\n{state}"
    assert kinds["orc"] <= 8 and all(n <= 6 for n in sides.values()), f"too many pieces\n{state}"
    assert state.ap >= 0 and state.placed <= 2
    assert state.is_over == (kinds["sprite"] == 0), f"the game ends exactly when no sprite is left\n{state}"
    if state.magic is not None and not cards_checked:
        assert dict.__eq__(state.magic.all_cards(), MAGIC_DECK), f"cards lost\n{state}"


def expected_winner(state: st.StrageState) -> int | None:
    sides = Counter(p.side for pieces in squares(state).values() for p in pieces if p.kind == "half-elf")
    key = {p: (state.saved[p], sides[st.CLANS[p]]) for p in range(state.players)}
    best = max(key.values())
    leaders = [p for p, k in key.items() if k == best]
    return leaders[0] if len(leaders) == 1 else None


def check_step(before: st.StrageState, action, after: st.StrageState) -> None:  # noqa: ANN001
    check_position(after, cards_checked=after.magic is before.magic)
    assert all(b <= a for b, a in zip(before.saved, after.saved)) and before.killed <= after.killed
    if after.killed > before.killed and before.magic is None:
        # Without magic only the massacre kills sprites: one unescorted sprite next to an orc, on a 6.
        assert before.phase is st.Phase.MASSACRE and action == st.Roll(6), f"{action} killed a sprite\n{before}"
        assert before.massacre[0] in exposed(before)
    if before.phase is not st.Phase.MASSACRE and after.phase is st.Phase.MASSACRE:
        assert set(after.massacre) == exposed(after), f"wrong sprites roll\n{after}"
    if after.is_over:
        assert after.outcome.winner == expected_winner(after)
        assert after.legal_actions() == []


def random_game(seed: int, magic: bool, cap: int = ACTION_CAP) -> None:
    rng = random.Random(seed)
    state = st.new_game(rng, magic_rules=magic)
    check_position(state)
    moved = False  # a half-elf has moved or fought this turn (read from the actions, not the engine)
    for _ in range(cap):
        if state.is_over:
            return
        tried = {}  # offered action -> its step, made once and used by every check below
        if state.current_player == CHANCE:
            action = state.sample_chance(rng)
        else:
            offered = state.legal_actions()
            assert offered, f"no legal action offered in\n{state}"
            assert len(set(offered)) == len(offered), "an action is offered twice"
            if moved:  # ruling collocare-prima
                assert not any(isinstance(a, st.Place) for a in offered), f"a placement offered after a move\n{state}"
            if seed < FULLY_CHECKED:
                tried = {candidate: state.apply(candidate) for candidate in offered}  # every offered action must apply
            for candidate in offered if len(offered) <= SAMPLE else rng.sample(offered, SAMPLE):
                if candidate not in tried:
                    tried[candidate] = state.apply(candidate)
                check_step(state, candidate, tried[candidate].state)
            action = rng.choice(offered)
        step = tried.get(action) or state.apply(action)
        check_trace(step)
        after = step.state
        check_step(state, action, after)
        moved = (moved or isinstance(action, (st.Move, st.Attack))) and not any(
            f.rule == "fasi" and f.what.endswith("'s turn") for f in step.trace)
        state = after
    pytest.fail(f"seed {seed}: not over within {cap} actions: an endless game is a bug")


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(GAMES))
def test_random_games_hold_the_invariants(seed):
    random_game(seed, magic=False)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(MAGIC_GAMES))
def test_random_games_with_magic_hold_the_invariants(seed):
    random_game(seed, magic=True)


def test_an_endless_game_fails_at_the_cap(monkeypatch):
    # A die that always shows 1: the players tie for the turn order again and again and the
    # game never starts, let alone ends. The cap must fail the test, never skip it.
    monkeypatch.setattr(st.StrageState, "sample_chance", lambda self, rng: st.Roll(1))
    with pytest.raises(pytest.fail.Exception, match="not over within 300 actions"):
        random_game(0, magic=False, cap=300)


def test_four_players_play_to_the_end():
    state = st.new_game(random.Random(4), players=4)
    for _, step in playout(state, random.Random(4), ACTION_CAP):
        check_position(step.state)
        state = step.state
    assert state.is_over and len(state.outcome.saved) == 4


def test_refusals_name_their_rule():
    state = st.StrageState.setup(red="c4", blue="c5", orcs="d5", sprites="a1", ap=3)
    with pytest.raises(IllegalAction, match=r"^\[muovere\] moving a half-elf from c4 to c5: c5 is taken \(the blue half-elf\)"):
        state.apply(st.Move("c4", "c5"))
    with pytest.raises(IllegalAction, match=r"^\[accompagnare\]"):
        state.apply(st.Move("c4", "c3", escort=True))
    with pytest.raises(IllegalAction, match=r"^\[combattimento\]"):
        state.apply(st.Attack("c4", "a1"))
    with pytest.raises(IllegalAction, match=r"^\[orchi\]"):
        state.apply(st.PlaceOrc("e6"))
    with pytest.raises(IllegalAction, match=r"^\[fasi\] a roll of 3: nobody is rolling now"):
        state.apply(st.Roll(3))
    with pytest.raises(IllegalAction, match=r"^\[regole-facoltative\]"):
        state.apply(st.Accept())


def test_setup_refuses_impossible_positions():
    with pytest.raises(IllegalAction, match=r"^\[materiale\]"):
        st.StrageState.setup(red="a1", blue="a1")
    with pytest.raises(IllegalAction, match=r"^\[materiale\]"):
        st.StrageState.setup(sprites="a1", saved=(10, 10, 0))


def test_escorting_square_draws_both_pieces_and_the_moves():
    state = st.StrageState.setup(red="c3", sprites="d4", ap=2).run(st.Move("c3", "d4"), st.Move("d4", "d5", escort=True)).state
    figure = state.figure()
    assert [(p.square, p.kind, p.side) for p in figure.pieces] == [("d5", "sprite", ""), ("d5", "half-elf", "red")]
    assert figure.arrows == (("c3", "d4"), ("d4", "d5"))


def test_every_rule_the_engine_names_is_in_the_rulebook():
    book = load_library([Path(__file__).parent.parent / "rules" / "strage.yaml"])["strage"]
    named = {m for path in ENGINE_FILES for m in re.findall(r'(?:Fired|IllegalAction)\("([a-z0-9-]+)"', path.read_text(encoding="utf-8"))}
    named |= {rule for path in ENGINE_FILES for rule in re.findall(r'"([a-z][a-z-]+)"', path.read_text(encoding="utf-8")) if rule in {
        "fulmine", "immunita", "metamorfosi", "maledizione", "rivolgimento", "folletto-capriccioso"}}
    assert named - set(book.anchors()) == set()
    assert len(named) > 30


# --- golden playthroughs --------------------------------------------------------------------------

def playthrough(players: int, deck: tuple | None, actions: list) -> str:
    """The text of a game: the deck (if magic), the opening, each action with the rules that fired."""
    state = st.opening(players, deck)
    opening = [f"players {players}", "deck " + (" ".join(str(c) for c in deck) if deck else "-"), str(state)]
    return golden.text(opening, state, actions, lambda end: [str(end), f"outcome {end.outcome!r}"])


def replay(text: str) -> str:
    lines = text.splitlines()
    deck_text = lines[1].removeprefix("deck ")
    deck = None if deck_text == "-" else st.magic_cards(deck_text)
    return playthrough(int(lines[0].removeprefix("players ")), deck, golden.actions(text, golden.evaluator(st)))


def record(seed: int, magic: bool) -> str:
    # The same draws new_game makes (the deck's shuffle first), kept so the deck can be written down.
    rng = random.Random(seed)
    deck = None
    if magic:
        shuffled = list(st.magic_deck())
        rng.shuffle(shuffled)
        deck = tuple(shuffled)
    actions = [action for action, _ in playout(st.opening(3, deck), rng, ACTION_CAP)]
    return playthrough(3, deck, actions)


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_golden_playthrough_replays_exactly(name):
    recorded = golden.check(PLAYTHROUGHS / name, replay, lambda: record(*GOLDEN[name]))
    assert "  uscita:" in recorded and "  combattimento:" in recorded and "  strage:" in recorded
    if GOLDEN[name][1]:
        assert "  opposizione:" in recorded and "  rimescolare:" in recorded and "  fulmine-senza-opposizione:" in recorded


def test_upheaval_may_take_a_rivals_joker():
    # The seed lets the caster take «una carta» from a rival: a Joker is a card too.
    state = st.StrageState.setup(blue="c3", sprites="a1", active=2, ap=1, hands=("JK 2♣", "", "JK"))
    state = state.apply(st.End()).state
    take = st.Upheaval("JK", take=(0, "JK"))
    assert take in state.legal_actions()
    assert state.apply(take).state.magic.hands == ((st.magic_cards("2♣")[0],), (), (st.Joker(),))


# --- boundaries of what a turn spends ---------------------------------------------------------

@pytest.mark.parametrize("action", [st.Place("b1"), st.Move("c4", "c3"), st.Attack("c4", "d5")])
def test_no_action_point_left_means_no_action(action):
    # With 0 AP a player may only end; with 1 AP the same action is taken and spends the last point.
    spent = st.StrageState.setup(red="c4", orcs="d5", sprites="a1", ap=0)
    assert spent.legal_actions() == [st.End()]
    with pytest.raises(IllegalAction, match=r"^\[punti-azione\] .* has no action point left"):
        spent.apply(action)
    last = st.StrageState.setup(red="c4", orcs="d5", sprites="a1", ap=1)
    assert action in last.legal_actions()
    after = last.apply(action).state
    assert after.ap == 0 and after.phase is not st.Phase.ACTIONS


def test_two_half_elves_enter_the_map_per_turn_and_no_more():
    state = st.StrageState.setup(sprites="a1", ap=6)
    state = state.run(st.Place("b1"), st.Place("c1")).state
    assert state.placed == 2 and state.ap == 4
    assert not any(isinstance(a, st.Place) for a in state.legal_actions())
    with pytest.raises(IllegalAction, match=r"^\[collocare\] .* already placed 2 half-elves this turn"):
        state.apply(st.Place("d1"))


def test_one_combat_per_turn():
    state = st.StrageState.setup(red="c4", orcs="d5 b5", sprites="a1", ap=4)
    state = state.run(st.Attack("c4", "d5"), st.Roll(1)).state
    assert state.fought and state.ap == 3
    assert not any(isinstance(a, st.Attack) for a in state.legal_actions())
    with pytest.raises(IllegalAction, match=r"^\[combattimento\] .* has already fought this turn"):
        state.apply(st.Attack("c4", "b5"))


def test_a_magic_draw_with_fewer_cards_than_owed_reshuffles_for_the_rest():
    # Two cards are owed each turn: one in the deck, the rest after the discards are reshuffled.
    state = st.StrageState.setup(red="c4", sprites="a1", hands=["A♠", "", ""], deck="2♥", discards="3♣ 4♦")
    step = state.apply(st.Roll(3))
    assert step.state.phase is st.Phase.SHUFFLE and Counter(step.state.magic.hands[0]) == Counter(st.magic_cards("A♠ 2♥"))
    after = step.state.apply(st.Shuffle("4♦ 3♣")).state
    assert Counter(after.magic.hands[0]) == Counter(st.magic_cards("A♠ 4♦ 2♥")) and after.magic.deck == st.magic_cards("3♣")


@pytest.mark.parametrize(("action", "rule"), [
    (st.Place("b1"), "collocare"), (st.Move("c4", "c3"), "muovere"), (st.Attack("c4", "d5"), "combattimento"),
    (st.End(), "fasi"), (st.PlaceOrc("e6"), "orchi"), (st.MoveOrc("d5", "e6"), "orchi"), (st.OrcAttack("d5", "c4"), "attacco-orchi"),
])
def test_every_action_out_of_its_moment_is_refused_under_its_rule(action, rule):
    waiting = st.StrageState.setup(red="c4", orcs="d5", sprites="a1")  # red is about to roll for action points
    with pytest.raises(IllegalAction, match=rf"^\[{rule}\] {re.escape(action.told)} is not possible now: chance: action point roll"):
        waiting.apply(action)


# --- the order of the half-elves' phase, the Lightning's targets, room for the orcs --------

@pytest.mark.parametrize("first", [[st.Move("c4", "c3")], [st.Attack("c4", "d5"), st.Roll(2)]])
def test_half_elves_are_placed_before_any_move_or_combat(first):
    # Ruling collocare-prima: «Collocare i mezzelfi» comes before «Muovere e combattere».
    state = st.StrageState.setup(red="c4", orcs="d5", sprites="a1", ap=5)
    after = state.run(*first).state
    assert not any(isinstance(a, st.Place) for a in after.legal_actions())
    with pytest.raises(IllegalAction, match=r"^\[collocare-prima\] placing a half-elf on b1: red has already moved or fought this turn"):
        after.apply(st.Place("b1"))
    # Placed first, both half-elves then move and fight in any order.
    placed = state.run(st.Place("b1"), st.Place("c1")).state
    assert placed.run(st.Move("b1", "b2"), st.Attack("c4", "d5"), st.Roll(1), st.Move("c1", "d2")).state.ap == 0


def test_a_new_turn_opens_the_placing_again():
    state = st.StrageState.setup(red="c4", sprites="a1 h1", orcs="h8", ap=1)
    state = state.run(st.Move("c4", "c5"), st.PlaceOrc("h7"), st.Roll(1)).state  # green's turn begins
    assert state.active == 1 and st.Place("a1") in state.legal_actions()


def test_a_lightning_may_strike_the_casters_own_half_elf_and_nobody_opposes():
    # Ruling fulmine-bersagli: «un orco o un mezzelfo», with no «clan rivale» as in combat.
    state = st.StrageState.setup(red="c3", blue="e5", sprites="a1 h1", orcs="g6", ap=1,
                                 hands=("A♣", "", "7♥ 6♣"), immunities=("J♠", "", ""))
    magic = state.apply(st.End()).state
    targets = {a.target for a in magic.legal_actions() if isinstance(a, st.Lightning)}
    assert targets == {"c3", "e5", "g6"}  # an orc, a rival, and red's own (immune to the others only)
    own = magic.apply(st.Lightning("A♣", "c3"))
    assert own.state.phase is st.Phase.MAGIC and own.state.half_elves_on_map(0) == 0
    assert "opposizione" not in own.rules() and "fulmine-senza-opposizione" in own.rules()
    assert magic.apply(st.Lightning("A♣", "e5")).state.phase is st.Phase.OPPOSE  # a rival may still oppose
    with pytest.raises(IllegalAction, match=r"^\[fulmine-bersagli\]"):
        magic.apply(st.Lightning("A♣", "h1"))  # never a sprite


@pytest.mark.parametrize("players", [3, 4])
def test_an_orc_off_the_map_always_finds_an_empty_square(players):
    # Ruling orchi-bloccati: counted from the box, for three and for four players.
    from rulebook.engines.strage import board
    pieces = board.SPRITES + board.ORCS + board.HALF_ELVES * players
    outside = sum(1 for s in board.SQUARES if board.rank(s) not in board.PLACEMENT_RANKS)
    assert pieces - 1 < outside  # with one orc waiting, the others cannot fill rows 3 to 8
    book = load_library([Path(__file__).parent.parent / "rules" / "strage.yaml"])["strage"]
    ruling = next(r for rule in book.rules() for r in rule.rulings if r.id == "orchi-bloccati")
    stated = {int(n) for n in re.findall(r"\d+", ruling.text)}
    assert {pieces, pieces - 1, outside} <= stated, f"ruling orchi-bloccati should state {pieces}, {pieces - 1} and {outside}"


def test_a_position_holds_each_magic_card_as_often_as_the_deck():
    with pytest.raises(IllegalAction, match=r"^\[mazzo-magico\] a position cannot hold K♥ 2 times \(the pack holds 1\)$"):
        st.StrageState.setup(sprites="a1", hands=("K♥", "", ""), deck="K♥")
    assert st.StrageState.setup(sprites="a1", hands=("JK", "", "JK"), deck="K♥").magic.deck == st.magic_cards("K♥")


# --- what a step names, for a reader of any language --------------------------------------------

def _said(step, rule):
    return [fired.what for fired in step.trace if fired.rule == rule]


def test_a_cast_names_the_spell_as_the_book_does_and_the_card_by_rank_and_suit():
    state = st.StrageState.setup(red="c3", orcs="e5", sprites="a1", ap=0, hands=("A♣", "", ""))
    (cast, struck) = _said(state.run(st.End(), st.Lightning("A♣", "e5")), "fulmine")
    assert cast.values["spell"] == cast.values["spell"].msgid == "Magic Lightning" and cast.values["spell"].context == "spell"
    assert isinstance(cast.values["card"], Notation) and cast.values["card"] == "A♣"
    assert isinstance(struck.values["target"], Notation) and struck.values["target"] == "e5"


def test_an_upheaval_shows_each_hand_as_a_list_and_the_joker_by_its_name():
    state = st.StrageState.setup(blue="c3", sprites="a1", active=2, ap=0, hands=("A♠ 7♥", "JK Q♥", "JK 3♥"))
    cast, shown, discarded = _said(state.run(st.End(), st.Upheaval("JK", suit="hearts")), "rivolgimento")
    assert str(cast) == "blue casts Upheaval with a Joker"
    red, green, blue = shown.values["hands"]
    assert red.values["cards"] == ("7♥", "A♠") and all(isinstance(c, Notation) for c in red.values["cards"])
    assert green.values["cards"][1] is JOKER and blue.values["cards"] == ("3♥",)
    # A suit's name is part of a whole sentence, each suit its own (a translator inflects it).
    assert discarded.msgid == "everyone discards their hearts: {cards}" and discarded.values["cards"] == ("7♥", "Q♥", "3♥")


def test_the_massacre_lists_its_squares_as_notation():
    state = st.StrageState.setup(sprites="b2 c2", red="a1", ap=0)
    (exposed, *_) = _said(state.run(st.End(), st.PlaceOrc("c3")), "strage")
    assert exposed.values["squares"] == ("b2", "c2") and all(isinstance(s, Notation) for s in exposed.values["squares"])


@pytest.mark.parametrize("spell, card", [(st.Lightning("K♥", "e5"), "an Ace"), (st.Curse("A♥", ("e5",)), "a King"),
                                         (st.Caprice("K♥", "a1", "a3"), "a Joker")])
def test_a_spell_cast_with_the_wrong_card_names_the_card_it_wants(spell, card):
    state = st.StrageState.setup(red="c3", orcs="e5", sprites="a1", ap=0, hands=("A♥ K♥", "", "")).apply(st.End()).state
    with pytest.raises(IllegalAction, match=f"this spell is cast with {card}$"):
        state.apply(spell)


def test_a_queen_that_does_not_outrank_shows_the_suits_by_their_signs():
    state = st.StrageState.setup(red="c3", green="e4", sprites="e4 a1", orcs="h8", ap=0, hands=("Q♣", "Q♠", ""))
    state = state.run(st.End(), st.Metamorphosis("Q♣", "e4")).state
    with pytest.raises(IllegalAction) as refused:
        state.apply(st.Oppose("Q♠"))
    assert refused.value.message.values["order"] == "♥ > ♦ > ♣ > ♠"
    assert isinstance(refused.value.message.values["card"], Notation)


def test_a_capricious_sprite_stops_on_the_exit_row_and_never_walks_along_it():
    # Ruling capriccioso-percorso: a first step onto the exit row ends the move there. The
    # lone sprite on d7 has orcs on c7 and e7 beside it: b8 and f8 are two steps away only
    # along row 8 (d7-c8-b8, d7-e8-f8), so they are out of reach; c8, d8, e8 are one step.
    state = st.StrageState.setup(green="a1", sprites="d7 a1", orcs="c7 e7", active=1, ap=1, hands=("", "JK JK", ""))
    reach = set(caprice_reach(state.cells, "d7"))
    assert {"c8", "d8", "e8"} <= reach and not {"b8", "f8"} & reach
    # Worked out square by square: the empty first steps, then the empty squares next to each
    # first step below row 8 (never an orc's square, never back onto d7).
    first = {"c6", "d6", "e6", "c8", "d8", "e8"}
    second = {"b5", "c5", "d5", "e5", "f5", "b6", "f6", "b7", "f7"}
    assert reach == first | second
    state = state.apply(st.End()).state
    for end in ("b8", "f8"):
        with pytest.raises(IllegalAction, match=r"^\[folletto-capriccioso\] .*one or two steps through empty squares only"):
            state.apply(st.Caprice("JK", "d7", end))
    step = state.apply(st.Caprice("JK", "d7", "c8"))
    assert step.state.saved == (0, 1, 0)
