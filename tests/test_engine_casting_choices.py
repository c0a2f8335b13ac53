"""The caster's choices in 601.2b and 601.2g-h are arguments of Cast, each with its default, and a
choice the rules forbid is refused under its rule with the state untouched; counters change what
a permanent is now (122.1a), never its mana value (202.3); either player may concede at any time (104.3a)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rulebook.engines.casting import Cast, Concede, Pending, Phase, Resolve, Tap, card, define, setup
from rulebook.errors import IllegalAction

#: A green-white creature (two colours: its hybrid symbols), as a card file would define it.
KNIGHT_OF_TWO = define("Selesnya Guildmage", "{G/W}{G/W}", "Creature — Elf Wizard", {"en": "Selesnya Guildmage"}, pt="2/2")


def _convoke_game(pool: str = ""):
    # Chord of Calling, X=0: {G}{G}{G}; a green-white creature and two Forests' worth in the pool.
    return setup(hand=["Chord of Calling"], battlefield=["Selesnya Guildmage"], pool=pool, cards=[KNIGHT_OF_TWO],
                 library=["Llanowar Elves"])


def refused(game, action, rule: str, text: str) -> None:
    with pytest.raises(IllegalAction) as caught:
        game.apply(action)
    assert caught.value.rule_id == rule and text in str(caught.value), str(caught.value)


# --- convoke: which colour a creature of two colours pays (702.51a) -----------------------------

#: A spell with convoke whose cost has two colours (Ravnica: City of Guilds), defined as a card file would.
GUARDIAN = define("Guardian of Vitu-Ghazi", "{6}{G}{W}", "Creature — Elemental", {"en": "Guardian of Vitu-Ghazi"}, pt="4/7",
                  keywords=["convoke", "vigilance"])


def test_a_two_coloured_convoker_pays_the_colour_the_caster_names():
    game = setup(hand=["Guardian of Vitu-Ghazi"], battlefield=["Selesnya Guildmage"], pool="GGGGGGG", cards=[KNIGHT_OF_TWO, GUARDIAN])
    # Default (ruling convocare-colore): the first symbol of its colours still to pay, {G};
    # then the pool's seven {G} lack a {W}, and the whole cast is reversed.
    refused(game, Cast("guardian-of-vitu-ghazi", convoke="selesnya-guildmage"), "601.2h", "cannot pay {W}")
    # Named: it pays {W}, the pool pays {6}{G}.
    step = game.apply(Cast("guardian-of-vitu-ghazi", convoke=Tap("selesnya-guildmage", "W")))
    said = [str(f.what) for f in step.trace]
    assert "convoke: selesnya-guildmage tapped, pays {W}" in said
    assert "pays {6}{G} from the mana pool" in said
    assert step.state.pools[0].total == 0


def test_a_convoker_cannot_pay_a_colour_it_does_not_have():
    game = _convoke_game(pool="GG")
    before = game
    refused(game, Cast("chord-of-calling", x=0, convoke=Tap("selesnya-guildmage", "U")), "601.2h",
            "'selesnya-guildmage' is not {U}: a creature tapped for convoke pays {1} or one mana of its own colours (702.51a)")
    refused(game, Cast("chord-of-calling", x=0, convoke=Tap("selesnya-guildmage", "Q")), "601.2h", "convoke pays {1} or one mana of a colour, not 'Q'")
    assert game == before and not game.obj("selesnya-guildmage").tapped


def test_a_convoker_named_for_generic_mana_needs_generic_left():
    game = _convoke_game(pool="GGG")
    refused(game, Cast("chord-of-calling", x=0, convoke=Tap("selesnya-guildmage", "1")), "601.2h", "no generic mana is left")
    step = game.apply(Cast("chord-of-calling", x=1, convoke=Tap("selesnya-guildmage", "1")))
    assert "convoke: selesnya-guildmage tapped, pays {1}" in [str(f.what) for f in step.trace]


def test_a_convoker_cannot_pay_a_colour_already_paid():
    # Two green symbols paid by two convokers ... and a third asked of a creature when none is left.
    game = setup(hand=["Chord of Calling"], battlefield=["Llanowar Elves", "Llanowar Elves", "Llanowar Elves", "Arbor Elf"], library=["Wild Cantor"])
    refused(game, Cast("chord-of-calling", x=0, convoke=[Tap(i, "G") for i in ("llanowar-elves", "llanowar-elves-2", "llanowar-elves-3", "arbor-elf")]),
            "601.2h", "no {G} is left to pay")
    # Left to the default, the fourth has nothing to pay: neither a {G} nor generic mana.
    refused(game, Cast("chord-of-calling", x=0, convoke=("llanowar-elves", "llanowar-elves-2", "llanowar-elves-3", "arbor-elf")),
            "601.2h", "nothing left that 'arbor-elf' could pay by convoke")


# --- improvise (702.126a) -------------------------------------------------------------------

def test_improvise_taps_artifacts_for_generic_mana_only():
    game = setup(hand=["Sweatworks Brawler"], battlefield=["Isochron Scepter", "Ashnod's Altar", "Thalia, Guardian of Thraben"], pool="RR")
    step = game.apply(Cast("sweatworks-brawler", improvise=["isochron-scepter", Tap("ashnod-s-altar", "1")]))
    said = [str(f.what) for f in step.trace]
    assert said.count("improvise: isochron-scepter tapped, pays {1}") == 1
    assert "pays {1}{R} from the mana pool" in said
    assert step.state.obj("isochron-scepter").tapped and step.state.obj("ashnod-s-altar").tapped
    # never a coloured symbol, never a creature, never a spell without improvise
    refused(game, Cast("sweatworks-brawler", improvise=Tap("isochron-scepter", "R")), "601.2h", "702.126a")
    refused(game, Cast("sweatworks-brawler", improvise="thalia"), "601.2h", "is not an untapped artifact you control")
    bolt = setup(hand=["Lightning Bolt"], battlefield=["Isochron Scepter"], pool="R")
    refused(bolt, Cast("lightning-bolt", targets="p2", improvise="isochron-scepter"), "601.2h", "has no improvise")
    # an artifact can pay only what is generic: {R} alone is left after three artifacts
    three = setup(hand=["Sweatworks Brawler"], battlefield=["Isochron Scepter", "Ashnod's Altar", "Trinisphere", "Helm of Awakening"], pool="R")
    refused(three, Cast("sweatworks-brawler", improvise=["isochron-scepter", "ashnod-s-altar", "trinisphere", "helm-of-awakening"]),
            "601.2h", "no generic mana is left that 'trinisphere' could pay by improvise (702.126a)")


# --- which mana of the pool pays the generic part --------------------------------------------

def test_the_caster_names_the_mana_that_pays_generic():
    game = setup(hand=["Sweatworks Brawler"], pool="RRRRG")
    # Default: the most plentiful colour first, so {G} stays.
    assert str(game.apply(Cast("sweatworks-brawler")).state.pools[0]) == "{G}"
    step = game.apply(Cast("sweatworks-brawler", generic="{R}{R}{G}"))
    assert str(step.state.pools[0]) == "{R}"
    refused(game, Cast("sweatworks-brawler", generic="RG"), "601.2h", "does not pay the generic part of {3}{R}, which is {3}")
    refused(game, Cast("sweatworks-brawler", generic="GGR"), "601.2h", "no {G} is left in the pool")
    refused(game, Cast("sweatworks-brawler", generic="R2G"), "601.2h", "name the mana of the pool")
    assert str(game.pools[0]) == "{R}{R}{R}{R}{G}"


# --- hybrid and Phyrexian symbols: the default announcement ------------------------------------

def test_unannounced_hybrid_symbols_are_paid_as_their_first_payment():
    # {U/B}{U/B}{U/B}: first payment of each is {U}.
    game = setup(hand=["Nightveil Specter"], pool="UUU")
    step = game.apply(Cast("nightveil-specter"))
    assert "{U/B} paid as {U}, {U/B} paid as {U}, {U/B} paid as {U}" in [str(f.what) for f in step.trace]
    # Gitaxian Probe, {U/P}: paid with {U} unless life is announced.
    probe = setup(hand=["Gitaxian Probe"], pool="U")
    step = probe.apply(Cast("gitaxian-probe", targets="p2"))
    assert step.state.life == (20, 20) and step.state.pools[0].total == 0
    refused(setup(hand=["Gitaxian Probe"]), Cast("gitaxian-probe", targets="p2"), "601.2h", "cannot pay {U}")


# --- counters: what a permanent is now -----------------------------------------------------------

def test_counters_raise_toughness_for_lethal_damage_but_never_the_mana_value():
    game = setup(hand=["Common Bond", "Lightning Bolt"], pool="GWGR", battlefield=["White Knight"])
    bonded = game.run(Cast("common-bond", targets=("white-knight", "white-knight")), Resolve()).state
    knight = bonded.obj("white-knight")
    assert (knight.power, knight.toughness, knight.counters) == (4, 4, 2)
    assert bonded.mana_value("white-knight") == card("White Knight").mana_value() == 2
    bolted = bonded.run(Cast("lightning-bolt", targets="white-knight"), Resolve()).state
    assert bolted.obj("white-knight").zone == "battlefield" and bolted.obj("white-knight").damage == 3
    # Without the counters the same 3 damage is lethal (704.5g).
    dead = setup(hand=["Lightning Bolt"], pool="R", battlefield=["White Knight"]).run(Cast("lightning-bolt", targets="white-knight"), Resolve()).state
    assert dead.obj("white-knight").zone == "graveyard"


# --- conceding (104.3a) ------------------------------------------------------------------------

def test_either_player_may_concede_at_any_time_and_loses():
    game = setup(hand=["Lightning Bolt"], pool="R")
    assert Concede(0) in game.legal_actions()
    # the player without priority, while a spell waits on the stack
    waiting = game.apply(Cast("lightning-bolt", targets="p2")).state
    step = waiting.apply(Concede(1))
    assert step.rules() == ["104.3a"] and step.state.phase is Phase.OVER and step.state.outcome == 0
    # while an offer waits for an answer (cascade's free cast)
    offered = setup(exile=["Lightning Bolt"])
    offered = replace(offered, pending=Pending("cast-free", 0, "lightning-bolt", "Cascade"))
    assert offered.apply(Concede(0)).state.outcome == 1
    refused(offered, Concede(2), "104.3a", "2 is not a player of this game: concede as 0 or 1")
    # once the game is over nothing more happens, a concession neither
    refused(step.state, Concede(0), "601.2", "the game is over")
