"""The casting engine: mana costs, the 601.2f pipeline, and casts as all-or-nothing transactions."""

from __future__ import annotations

import math
import random
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulebook.cli import main
from rulebook.engines import casting
from rulebook.engines.base import Fired, playout
from rulebook.engines.casting import Cast, Game, Mana, Pending, PlayLand, setup
from rulebook.engines.casting.cards import NOT_PRINTED, CostModifier, cards
from rulebook.engines.casting.costs import modify
from rulebook.engines.casting.mana import COLOURS, HYBRID_PAIRS, ManaCost, Pool
from rulebook.engines.casting.moves import cast_proposals
from rulebook.engines.casting.targets import split_targets
from rulebook.errors import IllegalAction, RulebookError
from tests.conftest import site_languages

# --- mana costs: parsing and printing -------------------------------------------------------

symbols = st.one_of(
    st.integers(0, 12).map(str),
    st.sampled_from(list(COLOURS) + ["C", "X"]),
    st.sampled_from([f"{a}/{b}" for a, b in HYBRID_PAIRS] + [f"{b}/{a}" for a, b in HYBRID_PAIRS]),
    st.sampled_from([f"{c}/P" for c in COLOURS] + [f"2/{c}" for c in COLOURS]),
)
costs = st.lists(symbols, max_size=8).map(lambda codes: ManaCost("".join("{" + c + "}" for c in codes)))
plain_costs = st.lists(st.one_of(st.integers(0, 6).map(str), st.sampled_from(list(COLOURS) + ["C"])), max_size=7).map(
    lambda codes: ManaCost("".join("{" + c + "}" for c in codes))
)


@pytest.mark.parametrize(
    ("written", "printed"),
    [
        ("{W}{2}", "{2}{W}"),
        ("{1}{1}{W}", "{2}{W}"),
        ("{R}{X}", "{X}{R}"),
        ("{W}{1}{G}", "{1}{G}{W}"),  # green-white prints green first
        ("{B}{W}", "{W}{B}"),
        ("{U/W}", "{W/U}"),
        ("", "{0}"),
        ("{0}", "{0}"),
        ("{u/b}{U/B}{U/B}", "{U/B}{U/B}{U/B}"),
    ],
)
def test_costs_print_in_one_canonical_form(written: str, printed: str) -> None:
    cost = ManaCost(written)
    assert str(cost) == printed
    assert repr(cost) == f"ManaCost({printed!r})"
    assert eval(repr(cost), {"ManaCost": ManaCost}) == cost


@pytest.mark.parametrize("bad", ["{Q}", "{W/W}", "2W", "{1}x", "{P/W}", "{3/W}"])
def test_unknown_symbols_are_refused(bad: str) -> None:
    with pytest.raises(ValueError):
        ManaCost(bad)


@pytest.mark.parametrize(
    ("cost", "x", "value"),
    [("{X}{R}", 0, 1), ("{X}{R}", 5, 6), ("{X}{X}{G}", 2, 5), ("{2/W}{2/U}", 0, 4), ("{W/P}", 0, 1), ("{0}", 0, 0)],
)
def test_mana_value(cost: str, x: int, value: int) -> None:
    assert ManaCost(cost).mana_value(x) == value


@given(costs)
def test_printing_round_trips(cost: ManaCost) -> None:
    again = ManaCost(str(cost))
    assert again == cost
    assert str(again) == str(cost)
    assert again.mana_value(3) == cost.mana_value(3)


@given(st.lists(symbols, max_size=8), st.randoms(use_true_random=False))
def test_symbol_order_does_not_matter(codes: list[str], rng: random.Random) -> None:
    shuffled = list(codes)
    rng.shuffle(shuffled)
    assert ManaCost("".join("{" + c + "}" for c in codes)) == ManaCost("".join("{" + c + "}" for c in shuffled))


@given(plain_costs, st.lists(st.sampled_from("WUBRGC"), max_size=10))
def test_paying_from_a_pool_spends_exactly_the_cost(cost: ManaCost, mana_letters: list[str]) -> None:
    pool = Pool.of(mana_letters)
    try:
        left = pool.pay(cost)
    except IllegalAction as exc:
        assert exc.rule_id == "601.2h"
        # refused only when the pool really cannot pay: a missing colour or too little mana
        need = Counter(cost.symbols)
        have = pool.counts()
        assert any(have[s] < n for s, n in need.items()) or pool.total < cost.mana_value()
    else:
        assert left.total == pool.total - cost.mana_value()


# --- the 601.2f pipeline ---------------------------------------------------------------------

modifiers = st.lists(
    st.one_of(
        st.builds(lambda n, c: CostModifier("increase", str(ManaCost.of(n, c))), st.integers(0, 3), st.lists(st.sampled_from(COLOURS), max_size=1)),
        st.builds(lambda n: CostModifier("reduce", f"{{{n}}}"), st.integers(0, 6)),
        st.builds(lambda n: CostModifier("target-tax", f"{{{n}}}"), st.integers(1, 2)),
        st.builds(lambda n: CostModifier("minimum", str(n)), st.integers(1, 5)),
    ),
    max_size=6,
).map(lambda ms: [(f"source-{i}", m) for i, m in enumerate(ms)])


@given(plain_costs, modifiers, st.integers(1, 4))
def test_total_is_never_negative(start: ManaCost, mods, targets: int) -> None:
    total = modify(start, "start", mods, targets=targets).total
    assert total.generic >= 0
    assert total.mana_value() >= 0
    amounts = {stage: [m.amount for _, m in mods if m.stage == stage] for stage in ("increase", "target-tax", "reduce", "minimum")}
    changes = [ManaCost(a) for stage in ("increase", "target-tax", "reduce") for a in amounts[stage]]
    if not start.symbols and not any(c.symbols for c in changes):
        # Generic only: increases and the tax add, reductions subtract down to zero and no
        # further (118.7a), then the highest "at least" lifts it.
        added = sum(ManaCost(a).generic for a in amounts["increase"]) + (targets - 1) * sum(
            ManaCost(a).generic for a in amounts["target-tax"]
        )
        reduced = max(start.generic + added - sum(ManaCost(a).generic for a in amounts["reduce"]), 0)
        assert total == ManaCost.of(max([reduced, *map(int, amounts["minimum"])]))


@given(plain_costs, modifiers)
def test_generic_reductions_never_remove_coloured_requirements(start: ManaCost, mods) -> None:
    total = modify(start, "start", mods).total
    missing = Counter(start.symbols) - Counter(total.symbols)
    assert not missing, f"{start} lost {missing} on the way to {total}"


@given(plain_costs, modifiers)
def test_at_least_three_always_leaves_three(start: ManaCost, mods) -> None:
    mods = mods + [("Trinisphere", CostModifier("minimum", "3"))]
    assert modify(start, "start", mods).total.mana_value() >= 3


@given(plain_costs, modifiers, st.randoms(use_true_random=False))
def test_the_stages_not_the_listing_order_decide(start: ManaCost, mods, rng: random.Random) -> None:
    shuffled = list(mods)
    rng.shuffle(shuffled)
    # Within a stage order does not matter either: sums commute, floors are applied once.
    key = lambda derivation: derivation.total.mana_value()  # noqa: E731
    assert key(modify(start, "s", mods)) == key(modify(start, "s", shuffled))


def test_reductions_come_after_increases() -> None:
    # {1}{W} reduced by {2} then increased by {1} would be {1}{W}; 601.2f increases first: {W}.
    mods = [("reduce", CostModifier("reduce", "{2}")), ("increase", CostModifier("increase", "{1}"))]
    assert str(modify(ManaCost("{1}{W}"), "s", mods).total) == "{W}"


def test_derivation_is_the_trace_of_the_cast() -> None:
    game = setup(hand=["Path to Exile"], battlefield=["Trinisphere"], pool="WWW", their_battlefield=["Thalia, Guardian of Thraben"])
    action = Cast("path-to-exile", targets="thalia")
    derivation = game.total_cost(action)
    step = game.apply(action)
    expected = [
        Fired("601.2f", "mana cost → {W}"),
        Fired("601.2f", "Thalia, Guardian of Thraben: increase {1} → {1}{W}"),
        Fired("601.2f", "Trinisphere: at least 3 → {2}{W}"),
    ]
    assert list(derivation.trace()) == expected
    assert [f for f in step.trace if f.rule == "601.2f"] == expected
    assert step.state.entry("path-to-exile").total == ManaCost("{2}{W}")


# --- casts are transactions ------------------------------------------------------------------

NAMES = sorted(n for n, c in cards().items() if not c.is_land)
LANDS = ["Plains", "Island", "Swamp", "Mountain", "Forest"]


# The strategies that do not depend on the game drawn, made once: Hypothesis validates and
# analyses each strategy object it meets, so making them again for every example costs more
# than the drawing. The examples drawn are the same.
HANDS = st.lists(st.sampled_from(NAMES), min_size=1, max_size=4)
BATTLEFIELDS = st.lists(st.sampled_from(NAMES + LANDS), max_size=5)
GRAVEYARDS = st.lists(st.sampled_from(NAMES), max_size=2)
THEIR_BATTLEFIELDS = st.lists(st.sampled_from(NAMES), max_size=4)
POOLS = st.lists(st.sampled_from("WUBRGC"), max_size=7)
XS = st.one_of(st.none(), st.integers(0, 4))
ALTERNATIVES = st.sampled_from(["", "force-of-will", "flashback"])
DIVISIONS = st.lists(st.integers(0, 3), max_size=3)
MANA_COLOURS = st.sampled_from(["", "G", "R"])


@st.composite
def games_and_casts(draw):
    game = setup(
        hand=draw(HANDS),
        battlefield=draw(BATTLEFIELDS),
        graveyard=draw(GRAVEYARDS),
        their_battlefield=draw(THEIR_BATTLEFIELDS),
        pool="".join(draw(POOLS)),
    )
    ids = [o.id for o in game.objects] + ["p1", "p2"]
    hand = [o.id for o in game.objects if o.zone == "hand"]
    # Half the casts are well-formed proposals (right number of targets, a division that
    # adds up), so both outcomes are exercised: success, and refusal at payment or later.
    proposals = cast_proposals(game, game.obj(draw(st.sampled_from(hand))))
    if proposals and draw(st.booleans()):
        return game, draw(st.sampled_from(proposals))
    action = Cast(
        draw(st.sampled_from(hand)),
        targets=tuple(draw(st.lists(st.sampled_from(ids), max_size=4))),
        x=draw(XS),
        alternative=draw(ALTERNATIVES),
        kicked=draw(st.booleans()),
        division=tuple(draw(DIVISIONS)),
        mana=tuple(Mana(i, draw(MANA_COLOURS)) for i in draw(st.lists(st.sampled_from(ids), max_size=3))),
        convoke=tuple(draw(st.lists(st.sampled_from(ids), max_size=2))),
        exile=tuple(draw(st.lists(st.sampled_from(ids), max_size=1))),
        sacrifice=tuple(draw(st.lists(st.sampled_from(ids), max_size=1))),
    )
    return game, action


@settings(max_examples=300, deadline=None)
@given(games_and_casts())
def test_a_failed_cast_leaves_the_game_exactly_as_before(case) -> None:
    game, action = case
    before_repr, before_str = repr(game), str(game)
    try:
        step = game.apply(action)
    except IllegalAction as exc:
        assert exc.rule_id  # every refusal names a rule
        assert "reversed" in str(exc)
    else:
        entry = step.state.entry(action.card)
        assert entry is not None and step.state.obj(action.card).zone == "stack"
        assert step.rules()[0] in ("601.3", "601.2a")
        assert "601.2i" in step.rules()
        if not action.mana and not action.convoke:
            # paid from the pool alone: exactly the locked total left it
            assert step.state.pools[0].total == game.pools[0].total - entry.total.mana_value()
    assert repr(game) == before_repr and str(game) == before_str
    assert eval(before_repr, vars(casting)) == game  # the repr of a state is a constructor call


def _settled(state: Game, spell_id: str) -> str:
    """The state after a cast, with the order of the targets chosen for one word "target"
    (each paired with its share of a division) put in a fixed order: 601.2c chooses a set
    per word, so two casts that differ only in that order are the same choice."""
    entry = state.entry(spell_id)
    c = state.obj(spell_id).card
    words = [w for w in c.targets if not w.kicked or entry.kicked]
    shares = entry.division or (0,) * len(entry.targets)
    groups = split_targets(list(zip(entry.targets, shares)), words, c.name) if words else []
    pairs = [pair for _, group in groups for pair in sorted(group)]
    settled = replace(entry, targets=tuple(t for t, _ in pairs), division=tuple(s for _, s in pairs) if entry.division else ())
    return repr(replace(state, stack=tuple(settled if e.id == spell_id else e for e in state.stack)))


def _outcome(game: Game, action: object) -> str | None:
    """What ``action`` leads to (a settled state), or None when it is illegal."""
    try:
        state = game.apply(action).state
    except IllegalAction:
        return None
    return _settled(state, action.card) if isinstance(action, Cast) else repr(state)


@st.composite
def games_to_complete(draw):
    """A game, sometimes with a flashback card or a cascade offer pending, and casts in the
    form legal_actions enumerates, half of them a listed proposal with its choices re-drawn."""
    game, _ = draw(games_and_casts())
    game = game.with_pool(0, Pool.of(draw(st.lists(st.sampled_from("WUBRGC"), min_size=2, max_size=12))))
    graveyard = [o.id for o in game.objects if o.zone == "graveyard"]
    if graveyard and draw(st.booleans()):
        game = game.set(draw(st.sampled_from(graveyard)), flashback=True)
    spells = [o.id for o in game.objects if o.zone in ("hand", "graveyard") and not o.card.is_land]
    if spells and draw(st.integers(0, 4)) == 0:
        offered = draw(st.sampled_from(spells))
        game = replace(game.move(offered, "exile"), pending=Pending("cast-free", 0, offered, "cascade"))
    ids = [o.id for o in game.objects] + ["p1", "p2"]
    castable = [o for o in game.objects if o.zone in ("hand", "graveyard", "exile") and not o.card.is_land]
    casts = []
    for _ in range(draw(st.integers(1, 6))):
        obj = draw(st.sampled_from(castable))
        c = obj.card
        proposals = cast_proposals(game, obj)
        if proposals and draw(st.booleans()):
            base = draw(st.sampled_from(proposals))
            pairs = list(zip(base.targets, base.division or (None,) * len(base.targets)))
            pairs = draw(st.permutations(pairs))
            targets = tuple(t for t, _ in pairs)
            division = tuple(d for _, d in pairs) if base.division else ()
            alternative, kicked, exile, sacrifice = base.alternative, base.kicked, base.exile, base.sacrifice
        else:
            targets = tuple(draw(st.lists(st.sampled_from(ids), max_size=4)))
            division = tuple(draw(st.lists(st.integers(1, 3), max_size=3)))
            alternative = draw(st.sampled_from(["", "flashback"] + [a.id for a in c.alternative]))
            kicked = draw(st.booleans())
            exile = tuple(draw(st.lists(st.sampled_from(ids), max_size=1)))
            sacrifice = tuple(draw(st.lists(st.sampled_from(ids), max_size=1)))
        start = next((a.mana for a in c.alternative if a.id == alternative), c.cost)
        open_symbols = start.open_symbols if start else ()
        halves = [["life" if half == "P" else half for half in symbol.split("/")] for symbol in open_symbols]
        pay_as = tuple(draw(st.sampled_from(choices)) for choices in halves)
        casts.append(Cast(obj.id, targets=targets, alternative=alternative, kicked=kicked, pay_as=pay_as,
                          division=division, exile=exile, sacrifice=sacrifice))
    return game, casts


def _simple_actions(game: Game) -> list[object]:
    """Every action but a cast, in the form legal_actions enumerates: a colour is named only
    for a "one mana of any colour" ability, a creature only for a "sacrifice a creature" one."""
    ids = [o.id for o in game.objects]
    found: list[object] = [casting.Pass(), casting.Resolve(), casting.Decline()]
    found += [PlayLand(i) for i in ids] + [casting.Choose(i) for i in ids]
    for source in game.battlefield():
        for ability in source.card.abilities:
            colours = list(COLOURS) if ability.adds == "any" else [""]
            victims = ids if ability.sacrifice == "creature" else [""]
            found += [Mana(source.id, colour, victim) for colour in colours for victim in victims]
            found += [casting.Activate(source.id, targets=target, colour=colour) for colour in colours for target in [(), *ids]]
    return found


@settings(max_examples=100, deadline=None)
@given(games_to_complete())
def test_every_legal_action_is_listed(case) -> None:
    """Completeness of legal_actions: every action that succeeds is in the list.

    The list holds actions in one form, which this test checks against: a cast names no X
    (the tournament shortcut, X = all the mana left) and activates no mana ability and
    convokes nothing in 601.2g-h, so it is paid from the pool (mana abilities are separate
    actions, 605.3a); it names the hybrid and Phyrexian payments, the targets, the division,
    the alternative cost, the kicker and the card it exiles or land it sacrifices. Casts are
    compared by the state they lead to, with the targets of one word "target" in any order
    (see _settled); other actions compare as they are.
    """
    game, casts = case
    listed = {_outcome(game, action) for action in game.legal_actions()}
    for action in [*casts, *_simple_actions(game)]:
        outcome = _outcome(game, action)
        assert outcome is None or outcome in listed, f"{action!r} is legal but not listed"


def test_legal_actions_offer_each_half_of_a_hybrid_symbol() -> None:
    # {B/G} may be paid with green (601.2b): with only green mana Deathrite Shaman is castable.
    game = setup(hand=["Deathrite Shaman"], pool="G")
    assert Cast("deathrite-shaman", pay_as=("G",)) in game.legal_actions()
    assert Cast("deathrite-shaman", pay_as=("B",)) not in game.legal_actions()


def _playing_on(game: Game, rng: random.Random, max_actions: int) -> list[tuple[object, Game]]:
    """A random game in which nobody concedes: the concession is always offered (104.3a), and a
    uniform pick would end most games within a few actions, before anything is cast."""
    steps = []
    for _ in range(max_actions):
        if game.is_over:
            break
        action = rng.choice([a for a in game.legal_actions() if not isinstance(a, casting.Concede)])
        game = game.apply(action).state
        steps.append((action, game))
    return steps


@pytest.mark.parametrize("seed", range(8))
def test_random_games_end_when_both_players_pass(seed: int) -> None:
    game = casting.new_game(random.Random(seed))
    steps = _playing_on(game, random.Random(seed), max_actions=400)
    assert steps[-1][1].is_over
    assert steps[-1][0] == casting.Pass() or steps[-1][1].outcome is not None
    # A uniform playout (rulebook play) also ends: by a concession or as before.
    assert list(playout(game, random.Random(seed), max_actions=400))[-1][1].state.is_over


def test_random_playouts_only_take_legal_actions() -> None:
    rng = random.Random(6)
    game = setup(
        hand=["Lightning Bolt", "Fireball", "Downpour", "Path to Exile"],
        battlefield=["Mountain", "Mountain", "Island", "Plains", "Wild Cantor"],
        their_battlefield=["Thalia, Guardian of Thraben", "White Knight"],
    )
    steps = _playing_on(game, rng, max_actions=40)
    assert steps and all(isinstance(state, Game) for _, state in steps)


# --- the card file ------------------------------------------------------


def test_every_card_has_an_official_name_in_every_language_of_the_site() -> None:
    # The site's languages as mkdocs.yml lists them (a new language brings its card names).
    languages = set(site_languages())
    for name, c in cards().items():
        assert set(c.names) == languages, name
        assert c.names["en"] == name
        # Every name says where it was read, or that no printing exists in that language.
        assert set(c.sources) == languages, f"{name}: sources {sorted(c.sources)}"
        for lang, source in c.sources.items():
            if source == NOT_PRINTED:
                assert lang != "en" and c.names[lang] == name, f"{name}: {lang} was never printed, so the English name stays"
                assert f"{lang}: never printed" in c.note, f"{name}: the note must say {lang} was never printed, and which sets were checked"


def test_the_cards_named_by_the_source_are_all_there() -> None:
    named = {
        "Meddling Mage", "Isochron Scepter", "Daxos of Meletis", "Nightveil Specter", "Terror", "White Knight",
        "Force of Will", "Rushing River", "Snapcaster Mage", "Hex", "Downpour", "Common Bond",
        "Flames of the Firebrand", "Fireball", "Thalia, Guardian of Thraben", "Heartless Summoning", "Trinisphere",
        "Path to Exile", "Bloodbraid Elf", "Lightning Bolt", "Deathrite Shaman", "Chord of Calling", "Wild Cantor",
        "Plains", "Island", "Swamp", "Mountain", "Forest",
    }
    assert named <= set(cards())


def test_mana_abilities_are_computed_by_the_definition() -> None:
    assert cards()["Wild Cantor"].abilities[0].is_mana_ability
    assert cards()["Mountain"].abilities[0].is_mana_ability
    assert not cards()["Deathrite Shaman"].abilities[0].is_mana_ability  # it targets


# --- interactions the worked examples do not reach --------------------------------------------


def test_generic_is_paid_with_the_most_plentiful_mana() -> None:
    assert Pool.of("RRRRW").pay(ManaCost("{2}{R}")) == Pool.of("RW")
    assert Pool.of("CGGW").pay(ManaCost("{2}")) == Pool.of("GW")


def test_a_tapped_trinisphere_does_nothing() -> None:
    game = setup(hand=["Lightning Bolt"], battlefield=["Trinisphere"])
    assert game.total_cost(Cast("lightning-bolt", targets="p2")).total == ManaCost("{2}{R}")
    assert game.set("trinisphere", tapped=True).total_cost(Cast("lightning-bolt", targets="p2")).total == ManaCost("{R}")


def test_a_spell_whose_targets_are_all_gone_does_not_resolve() -> None:
    game = setup(hand=["Terror", "Path to Exile"], pool="BBW", their_battlefield=["Meddling Mage"])
    game = game.apply(Cast("terror", targets="meddling-mage")).state
    game = game.apply(Cast("path-to-exile", targets="meddling-mage")).state
    step = game.apply(casting.Resolve())  # Path resolves first
    step = step.state.apply(casting.Resolve())
    assert "does not resolve" in step.trace[0].what
    assert step.state.obj("meddling-mage").zone == "exile"
    assert step.state.obj("terror").zone == "graveyard"


def test_evenly_divided_damage_counts_only_the_targets_still_legal() -> None:
    game = setup(hand=["Fireball", "Path to Exile"], pool="RRRRRRW", their_battlefield=["White Knight", "Meddling Mage"])
    game = game.apply(Cast("fireball", x=4, targets=("white-knight", "meddling-mage"))).state
    game = game.apply(Cast("path-to-exile", targets="meddling-mage")).state
    game = game.apply(casting.Resolve()).state
    step = game.apply(casting.Resolve())
    assert step.state.obj("white-knight").zone == "graveyard"  # all 4 damage to the one left
    # One target left: no "divided evenly among 1 target" (reviews R27, E16).
    assert "all 4 damage goes to the only target" in [f.what for f in step.trace]
    assert not any("divided evenly" in f.what for f in step.trace)


def test_declining_cascade_puts_the_cards_on_the_bottom() -> None:
    game = setup(hand=["Bloodbraid Elf"], pool="RGRG", library=["Forest", "Lightning Bolt", "Terror"])
    game = game.apply(Cast("bloodbraid-elf")).state
    game = game.apply(casting.Resolve()).state
    assert game.pending.object == "lightning-bolt" and game.pending.revealed == ("forest",)
    with pytest.raises(IllegalAction):
        game.apply(casting.Pass())  # the offer must be answered first
    game = game.apply(casting.Decline()).state
    assert [o.id for o in game.zone(0, "library")] == ["terror", "lightning-bolt", "forest"]


def test_sorcery_speed_and_permission_to_cast() -> None:
    game = setup(hand=["Hex"], graveyard=["Lightning Bolt"], pool="BBBBBBR")
    with pytest.raises(IllegalAction, match=r"\[601\.3\] nothing lets you cast Lightning Bolt from a graveyard"):
        game.apply(Cast("lightning-bolt", targets="p2"))
    on_stack = game.set("lightning-bolt", flashback=True).apply(Cast("lightning-bolt", targets="p2", alternative="flashback")).state
    with pytest.raises(IllegalAction, match=r"\[601\.3\] Hex can be cast only in your main phase while the stack is empty"):
        on_stack.apply(Cast("hex", targets=()))
    assert on_stack.apply(casting.Resolve()).state.obj("lightning-bolt").zone == "exile"  # flashback exiles it


# --- errors found in review: each test guards one fix ------------------------------------------


def test_unannounced_x_spends_all_the_pool_even_under_trinisphere() -> None:
    # Scorciatoia-x: X is all the mana left. {X}{R} with X=0 would cost {2}{R} under
    # Trinisphere, but the floor no longer applies once X is large: six red mana make X=5.
    game = setup(hand=["Fireball"], battlefield=["Trinisphere"], pool="RRRRRR")
    step = game.apply(Cast("fireball", targets="p2"))
    assert step.state.entry("fireball").x == 5
    assert step.state.entry("fireball").total == ManaCost("{5}{R}")
    assert step.state.pools[0].total == 0
    # With three mana every X from 0 to 2 costs three: all the mana left means the largest.
    step = setup(hand=["Fireball"], battlefield=["Trinisphere"], pool="RRR").apply(Cast("fireball", targets="p2"))
    assert step.state.entry("fireball").x == 2 and step.state.pools[0].total == 0


def test_without_paying_its_mana_cost_needs_an_effect_that_allows_it() -> None:
    # "free" is the alternative cost an effect such as cascade grants (601.2b); from the hand,
    # with no such offer, it is refused like any cost the card does not have, not a crash.
    game = setup(hand=["Lightning Bolt"])
    with pytest.raises(IllegalAction, match=r"\[601\.2b\] .*'free'"):
        game.apply(Cast("lightning-bolt", targets="p2", alternative="free"))


def test_a_countered_flashback_spell_is_exiled_and_cannot_be_cast_again() -> None:
    # 702.34a: a spell cast with flashback is exiled whenever it would leave the stack, also
    # when it is countered; and a card that changes zones is a new object (400.7) that no
    # longer has the flashback Snapcaster Mage gave it.
    game = setup(hand=["Snapcaster Mage"], battlefield=["Island", "Island", "Mountain", "Mountain"],
                 graveyard=["Lightning Bolt"], their_hand=["Force of Will", "Downpour"])
    game = game.apply(Cast("snapcaster-mage", mana=("island", "island-2"))).state
    game = game.apply(casting.Resolve()).state
    game = game.apply(casting.Choose("lightning-bolt")).state
    game = game.apply(casting.Resolve()).state
    game = game.apply(Cast("lightning-bolt", targets="p2", alternative="flashback", mana="mountain")).state
    game = game.apply(casting.Pass()).state
    game = game.apply(Cast("force-of-will", targets="lightning-bolt", alternative="force-of-will", exile="downpour")).state
    game = game.apply(casting.Resolve()).state
    assert game.obj("lightning-bolt").zone == "exile"
    assert not game.obj("lightning-bolt").flashback
    with pytest.raises(IllegalAction):
        game.apply(Cast("lightning-bolt", targets="p2", alternative="flashback", mana="mountain-2"))


def test_flashback_is_lost_when_the_card_leaves_the_graveyard() -> None:
    game = setup(graveyard=["Lightning Bolt"]).set("lightning-bolt", flashback=True)
    assert not game.move("lightning-bolt", "hand").move("lightning-bolt", "graveyard").obj("lightning-bolt").flashback


def test_only_the_controller_of_the_exiling_permanent_may_cast_or_play_the_exiled_card() -> None:
    # "You may play lands and cast spells from among cards exiled with Nightveil Specter":
    # "you" is the Specter's controller, and the permission is a static ability, so it ends
    # when the Specter leaves the battlefield (113.6, 601.3).
    game = setup(battlefield=["spettro=Nightveil Specter"], their_exile=["bolt=Lightning Bolt", "Forest"])
    game = game.set("bolt", exiled_by="spettro").set("forest", exiled_by="spettro")
    theirs = Game(game.objects, priority=1, active=1, pools=(Pool(), Pool.of("R")))
    with pytest.raises(IllegalAction, match=r"\[601\.3\]"):
        theirs.apply(Cast("bolt", targets="p1"))
    with pytest.raises(IllegalAction, match=r"\[601\.1a\]"):
        theirs.apply(PlayLand("forest"))
    gone = game.move("spettro", "graveyard").with_pool(0, Pool.of("R"))
    with pytest.raises(IllegalAction, match=r"\[601\.3\]"):
        gone.apply(Cast("bolt", targets="p2"))
    with pytest.raises(IllegalAction, match=r"\[601\.1a\]"):
        gone.apply(PlayLand("forest"))
    assert game.with_pool(0, Pool.of("R")).apply(Cast("bolt", targets="p2")).state.entry("bolt")


def test_a_creature_that_entered_this_turn_cannot_pay_a_tap_cost() -> None:
    # 302.6: Deathrite Shaman cast this turn can't use its {T} ability yet (no haste), but it
    # may still be tapped for convoke, which is not a {T} cost.
    game = setup(hand=["Deathrite Shaman", "Chord of Calling"], pool="BGGG", graveyard=["Plains"])
    game = game.apply(Cast("deathrite-shaman", pay_as=("B",))).state
    game = game.apply(casting.Resolve()).state
    with pytest.raises(IllegalAction, match=r"\[605\.1a\] .*\(302\.6\)"):
        game.apply(casting.Activate("deathrite-shaman", targets="plains", colour="R"))
    step = game.apply(Cast("chord-of-calling", x=1, convoke="deathrite-shaman"))
    assert step.state.obj("deathrite-shaman").tapped
    assert setup(battlefield=["Deathrite Shaman"], graveyard=["Plains"]).apply(
        casting.Activate("deathrite-shaman", targets="plains", colour="R")).state.stack


@pytest.mark.parametrize(
    ("cost", "reduction", "left"),
    [
        ("{2}{W}", "{B}", "{1}{W}"),  # 118.7b: no black to remove, so one generic instead
        ("{1}{W}", "{W}{W}", "{0}"),  # 118.7c: the excess white reduces generic
        ("{2}{U}{U}", "{U}", "{2}{U}"),
        ("{W}{W}", "{2}", "{W}{W}"),  # 118.7a: generic never touches coloured symbols
    ],
)
def test_coloured_reductions_spill_onto_generic(cost: str, reduction: str, left: str) -> None:
    assert ManaCost(cost).reduced_by(ManaCost(reduction)) == ManaCost(left)


def test_flashback_casts_only_from_its_owners_graveyard() -> None:
    # 702.34a: "you may cast this card from your graveyard": the opponent can't use it.
    game = setup(graveyard=["Lightning Bolt"]).set("lightning-bolt", flashback=True)
    theirs = Game(game.objects, priority=1, active=0, pools=(Pool(), Pool.of("R")))
    with pytest.raises(IllegalAction, match=r"\[601\.3\]"):
        theirs.apply(Cast("lightning-bolt", targets="p1", alternative="flashback"))


def test_a_single_target_takes_the_whole_division() -> None:
    # 601.2d: with one target there is only one way to divide; it need not be spelled out.
    game = setup(hand=["Flames of the Firebrand"], pool="RRR")
    step = game.apply(Cast("flames-of-the-firebrand", targets="p2"))
    assert "601.2d: 3 divided: p2 3" in [str(f) for f in step.trace]
    assert step.state.apply(casting.Resolve()).state.life == (20, 17)


def test_legal_actions_offer_the_free_cast_of_a_hybrid_card() -> None:
    # Cast without paying its mana cost, a hybrid card has no symbol left to announce
    # (601.2b): the cascade offer of Deathrite Shaman is a legal cast, not only Decline.
    game = setup(hand=["Bloodbraid Elf"], library=["Deathrite Shaman"], pool="RRGG")
    game = game.apply(Cast("bloodbraid-elf")).state.apply(casting.Resolve()).state
    assert any(isinstance(a, Cast) for a in game.legal_actions())


def test_an_ability_without_the_word_target_takes_no_target() -> None:
    # Found by the completeness test: Isochron Scepter's ability was put on the stack with
    # whatever "targets" the action named (602.2b follows 601.2c: targets only for "target").
    game = setup(battlefield=["Isochron Scepter", "Mountain"], pool="RR")
    with pytest.raises(IllegalAction, match=r"\[601\.2c\] Isochron Scepter's ability has no word"):
        game.apply(casting.Activate("isochron-scepter", targets="mountain"))
    assert game.apply(casting.Activate("isochron-scepter")).state.stack


def test_legal_actions_list_every_set_of_targets_fireball_can_pay_for() -> None:
    # Six creatures and two players are legal targets. Fireball costs {X}{R} and {1} more per
    # target beyond the first, Thalia adds {1}: five red mana pay for one to four targets.
    game = setup(hand=["Fireball"], pool="RRRRR", battlefield=["White Knight", "Meddling Mage"],
                 their_battlefield=["Thalia, Guardian of Thraben", "White Knight", "Goblin Warchief", "Snapcaster Mage"])
    fireballs = {frozenset(a.targets) for a in game.legal_actions() if isinstance(a, Cast)}
    assert len(fireballs) == sum(math.comb(8, n) for n in range(1, 5)) == 162


def test_input_mistakes_are_illegal_actions_as_in_every_engine() -> None:
    # A wrong setup, player count or card name is refused with the same class in all five
    # engines (IllegalAction, naming a rule); the CLI reports it and exits 2.
    with pytest.raises(IllegalAction, match="'bolt' is used twice"):
        setup(hand=["bolt=Lightning Bolt"], graveyard=["bolt=Lightning Bolt"])
    with pytest.raises(IllegalAction, match="two players, not 9"):
        casting.new_game(random.Random(0), players=9)
    with pytest.raises(IllegalAction, match="no card 'Goat'"):
        setup(hand=["Goat"])
    assert main(["play", "casting", "--players", "9"]) == 2


GOAT_NAMES = {"en": "Goat Tax", "it": "Tassa sulle capre"}


@pytest.mark.parametrize(
    "field",
    [{"kicker": ["sacrifice-a-goat"]}, {"alternative": [{"id": "goat", "mana": "{0}", "parts": ["pay-a-goat"]}]}],
)
def test_an_unknown_cost_part_is_refused_when_the_card_is_read(field) -> None:
    assert casting.define("Goat Tax", "{R}", "Instant", GOAT_NAMES).name == "Goat Tax"
    with pytest.raises(RulebookError, match=r"inline card 'Goat Tax': .*unknown cost part '(sacrifice-a-goat|pay-a-goat)'"):
        casting.define("Goat Tax", "{R}", "Instant", GOAT_NAMES, **field)


def test_the_total_cost_is_that_of_the_player_to_act() -> None:
    # After P1's Isochron Scepter resolves in P0's turn, P0 has priority but P1 answers the
    # offer, so the cast total_cost derives is P1's: P1's Heartless Summoning applies to it.
    game = replace(setup(their_battlefield=["Heartless Summoning"], their_exile=["White Knight"]),
                   pending=Pending("cast-free", 1, "white-knight", "isochron-scepter"))
    assert game.priority == 0 and game.current_player == 1
    assert "Heartless Summoning: reduce {2} (nothing to reduce)" in str(game.total_cost(Cast("white-knight")))
    with pytest.raises(IllegalAction, match=r"\[601\.2\] the game is over"):
        replace(game, life=(20, 0)).total_cost(Cast("white-knight"))


# --- issue 14: what the cards added for step 601.2g, 601.2e and the symbols may and may not do ------


@pytest.mark.parametrize(("field", "value", "known"), [
    ("effect", "mill", "damage, destroy"),
    ("prohibits", "named-colour", "named-card, named-spell"),
    ("abilities", [{"id": "x", "tap": True, "effect": "flicker"}], "exile, untap, cast-copy"),
])
def test_an_effect_or_prohibition_the_engine_cannot_do_is_refused_when_the_card_is_read(field, value, known) -> None:
    # Otherwise the card would be read, cast and resolve doing nothing, silently.
    with pytest.raises(RulebookError, match=rf"inline card 'Goat Tax': .*unknown (effect|prohibits) .*known: {known}"):
        casting.define("Goat Tax", "{R}", "Instant", GOAT_NAMES, **{field: value})


def test_every_effect_the_card_reader_admits_has_its_function() -> None:
    from rulebook.engines.casting import resolve
    from rulebook.engines.casting.cards import ABILITY_EFFECTS, SPELL_EFFECTS
    assert set(SPELL_EFFECTS) == set(resolve.EFFECTS) | {"none"}
    assert set(ABILITY_EFFECTS) == set(resolve.ABILITY_EFFECTS) | {"cast-copy"}  # the Scepter's, resolve_entry's own


def test_the_listing_of_601_2_names_every_step_from_a_to_i_in_order() -> None:
    from rulebook.loader import load_book
    from rulebook.model import XREF_RE
    book = load_book(Path(__file__).resolve().parent.parent / "rules" / "casting.yaml")
    listing = next(rule for rule in book.rules() if rule.id == "601.2")
    steps = [f"601.2{letter}" for letter in "abcdefghi"]
    linked = [m.group(2) for m in XREF_RE.finditer(listing.text) if m.group(2) in steps]
    assert linked == steps
    assert set(steps) <= {rule.id for rule in book.rules()}  # each step has its own rule to link to


def test_void_winnower_stops_only_its_opponents_and_looks_at_x_on_the_stack() -> None:
    mine = setup(hand=["Fireball"], pool="RR", battlefield=["Void Winnower"])
    assert mine.apply(Cast("fireball", x=1, targets="p2")).state.mana_value("fireball") == 2  # its controller casts it
    theirs = setup(hand=["Fireball"], pool="RRRRRR", their_battlefield=["Void Winnower"])
    with pytest.raises(IllegalAction, match=r"\[601\.2e\] .*with X equal to 5 has mana value 6"):
        theirs.apply(Cast("fireball", targets="p2"))  # the tournament shortcut chooses X=5: even, refused
    assert theirs.apply(Cast("fireball", x=4, targets="p2")).state.mana_value("fireball") == 5


def test_a_mana_spell_or_a_non_mana_ability_is_refused_in_601_2g_and_usable_with_priority() -> None:
    game = setup(hand=["Dark Ritual", "Lightning Bolt"], battlefield=["Swamp", "Arbor Elf", "Forest"])
    with pytest.raises(IllegalAction, match=r"\[605\.3a\] Dark Ritual is a spell .*it can't be activated, only cast$"):
        game.apply(Mana("dark-ritual"))
    with pytest.raises(IllegalAction, match=r"\[605\.1a\] Arbor Elf's ability adds no mana \(it untaps target Forest\)"):
        game.apply(Mana("arbor-elf"))
    ritual = game.apply(Cast("dark-ritual", mana="swamp")).state.apply(casting.Resolve()).state
    assert ritual.pools[0] == Pool.of("BBB")
    with pytest.raises(IllegalAction, match=r"'swamp' can't be a target of Arbor Elf \(Forest\): it is not a Forest"):
        game.apply(casting.Activate("arbor-elf", targets="swamp"))


def test_an_increase_stays_in_the_locked_total_when_its_source_leaves_during_payment() -> None:
    game = setup(hand=["Lightning Bolt"], battlefield=["Thalia, Guardian of Thraben", "altare=Ashnod's Altar", "Mountain"])
    step = game.apply(Cast("lightning-bolt", targets="p2", mana=(Mana("altare", sacrifice="thalia"), "mountain")))
    # Recomputed without Thalia the total would be {R} and {C}{C} would be left; locked, it is {1}{R}.
    assert step.state.entry("lightning-bolt").total == ManaCost("{1}{R}")
    assert step.state.pools[0] == Pool.of("C")
    assert step.state.obj("thalia").zone == "graveyard"
    tapped = setup(hand=["Chord of Calling"], battlefield=["Thalia, Guardian of Thraben", "Forest", "Forest", "Forest"])
    with pytest.raises(IllegalAction, match=r"\[601\.2h\] the total cost \{2\}\{G\}\{G\}\{G\} is locked"):
        tapped.apply(Cast("chord-of-calling", x=1, convoke="thalia", mana=("forest", "forest-2", "forest-3")))
